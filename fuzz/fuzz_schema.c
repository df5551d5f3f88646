/* Harness 3: schema spec + dtype -> check.
 *
 * Input format: SPEC NUL DESCR. The bytes before the first NUL are a
 * schema spec (npydt_schema_compile), the bytes after it a descriptor
 * literal (npydt_header_parse_descr). Without a NUL the whole input is
 * both, so a plain spec seed also checks a dtype against itself.
 *
 * Oracles: a refused compile or parse leaves no result and a complete
 * error; when both parse, npydt_check_dtype at every flag combination
 * (default, STRICT, SAFE_CAST, ALLOW_EXTRA, SAFE_CAST|ALLOW_EXTRA) returns
 * OK with an empty result or NPYDT_E_MISMATCH with a non-empty one whose
 * every mismatch has a named code and non-NULL path, expected and found
 * strings (err names the first); a dtype always matches itself at every
 * level: the spec's own dtype against the spec, and the canonical descr of
 * DESCR's dtype compiled as a spec against DESCR's dtype.
 *
 * When DESCR starts with the .npy magic it is a whole file instead: the
 * header is checked with npydt_check, whose report must be the dtype
 * check's report followed only by array-level mismatches (dimension,
 * fortran_order); the header always matches a dict spec written from its
 * own descr, shape and order (also with every dimension -1), and a spec
 * with one more dimension or the other order reports exactly that. */
#include "fuzz_util.h"

static const unsigned levels[] = {
    NPYDT_CHECK_DEFAULT,
    NPYDT_CHECK_STRICT,
    NPYDT_CHECK_SAFE_CAST,
    NPYDT_CHECK_ALLOW_EXTRA,
    NPYDT_CHECK_SAFE_CAST | NPYDT_CHECK_ALLOW_EXTRA,
};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* Check dt against s at one level; returns the number of mismatches. */
static size_t check_one(const npydt_schema *s, const npydt_dtype *dt, unsigned flags)
{
    npydt_check_result *r = (npydt_check_result *)&r;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_check_dtype(s, dt, flags, &r, &err);
    FUZZ_CHECK(st == NPYDT_OK || st == NPYDT_E_MISMATCH);
    FUZZ_CHECK(r != NULL);
    size_t n = npydt_check_result_count(r), total = npydt_check_result_total(r);
    /* the first mismatches up to the cap, and the count of all */
    FUZZ_CHECK(n == total || (n == NPYDT_CHECK_MISMATCH_MAX && total > n));
    if (st == NPYDT_OK) {
        FUZZ_CHECK(n == 0);
    } else {
        fuzz_check_error(st, &err, 0);
        FUZZ_CHECK(n > 0);
    }
    for (size_t i = 0; i < n; i++) {
        const npydt_mismatch *m = npydt_check_result_get(r, i);
        FUZZ_CHECK(m != NULL);
        FUZZ_CHECK(m->code >= NPYDT_MISMATCH_MISSING_FIELD &&
                   m->code <= NPYDT_MISMATCH_FORTRAN_ORDER);
        const char *name = npydt_mismatch_code_name(m->code);
        FUZZ_CHECK(name != NULL && name[0] != '\0');
        FUZZ_CHECK(m->path != NULL && m->expected != NULL && m->found != NULL);
        /* each text is its length's bytes, then a terminator */
        FUZZ_CHECK(m->path[m->path_len] == '\0' && strlen(m->path) <= m->path_len);
        FUZZ_CHECK(m->expected[m->expected_len] == '\0' && m->found[m->found_len] == '\0');
        /* a bare dtype check never reports array-level mismatches */
        FUZZ_CHECK(m->code != NPYDT_MISMATCH_DIMENSION &&
                   m->code != NPYDT_MISMATCH_FORTRAN_ORDER);
        if (i == 0) {
            /* err names the first mismatch: its path escaped by the
             * library's one rule (a NUL as \x00, controls as escapes),
             * cut to whole escapes where the next would not fit */
            char want[sizeof err.path];
            npydt_text_escape(m->path, m->path_len, want, sizeof want);
            FUZZ_CHECK(strcmp(err.path, want) == 0);
        }
    }
    FUZZ_CHECK(npydt_check_result_get(r, n) == NULL);
    npydt_check_result_free(r);
    /* without a result the status is the same */
    fuzz_poison_error(&err);
    FUZZ_CHECK(npydt_check_dtype(s, dt, flags, NULL, &err) == st);
    return n;
}

/* Texts are compared whole: a name in them may hold a NUL. */
static bool same_text(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && memcmp(a, b, alen) == 0;
}

static bool same_mismatch(const npydt_mismatch *a, const npydt_mismatch *b)
{
    return a->code == b->code && same_text(a->path, a->path_len, b->path, b->path_len) &&
           same_text(a->expected, a->expected_len, b->expected, b->expected_len) &&
           same_text(a->found, a->found_len, b->found, b->found_len);
}

/* npydt_check of h against s: the dtype check's report, then array-level
 * mismatches only. Returns the array-level codes found, as bits. */
static unsigned check_header_one(const npydt_schema *s, const npydt_header *h, unsigned flags)
{
    npydt_check_result *r = (npydt_check_result *)&r, *rd = NULL;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_check(s, h, flags, &r, &err);
    FUZZ_CHECK(st == NPYDT_OK || st == NPYDT_E_MISMATCH);
    FUZZ_CHECK(r != NULL);
    size_t n = npydt_check_result_count(r);
    FUZZ_CHECK((st == NPYDT_OK) == (n == 0));
    if (st != NPYDT_OK)
        fuzz_check_error(st, &err, 0);
    size_t nd = 0;
    if (npydt_schema_dtype(s)) {
        FUZZ_CHECK(check_one(s, npydt_header_dtype(h), flags) <= n);
        FUZZ_CHECK(npydt_check_dtype(s, npydt_header_dtype(h), flags, &rd, &err) == NPYDT_OK ||
                   err.code == NPYDT_E_MISMATCH);
        nd = npydt_check_result_count(rd);
        FUZZ_CHECK(npydt_check_result_total(r) - npydt_check_result_total(rd) <= 2);
    }
    FUZZ_CHECK(nd <= n && n - nd <= 2);
    unsigned codes = 0;
    for (size_t i = 0; i < n; i++) {
        const npydt_mismatch *m = npydt_check_result_get(r, i);
        FUZZ_CHECK(m != NULL && m->path != NULL && m->expected != NULL && m->found != NULL);
        if (i < nd) {
            FUZZ_CHECK(same_mismatch(m, npydt_check_result_get(rd, i)));
        } else {
            FUZZ_CHECK(m->code == NPYDT_MISMATCH_DIMENSION ||
                       m->code == NPYDT_MISMATCH_FORTRAN_ORDER);
            FUZZ_CHECK(m->path[0] == '\0');
            FUZZ_CHECK((codes & (1u << m->code)) == 0);   /* each at most once */
            codes |= 1u << m->code;
        }
    }
    npydt_check_result_free(rd);
    npydt_check_result_free(r);
    fuzz_poison_error(&err);
    FUZZ_CHECK(npydt_check(s, h, flags, NULL, &err) == st);
    return codes;
}

/* A dict spec of h's descr, order and shape; wild: every dimension -1;
 * extra_dim: one more dimension; flip: the other order. NULL when h's
 * dtype holds a generic datetime multiplier, which no text carries. */
static char *header_spec(const npydt_header *h, bool wild, bool extra_dim, bool flip,
                         size_t *len)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    if (fuzz_has_generic_multiplier(dt))
        return NULL;
    size_t dlen;
    char *descr = fuzz_descr_text(dt, &dlen);
    size_t ndim = npydt_header_ndim(h), cap = dlen + 64 + 24 * (ndim + 1);
    char *spec = malloc(cap);
    FUZZ_CHECK(spec != NULL);
    bool fortran = (npydt_header_fortran_order(h) != 0) != flip;
    int k = snprintf(spec, cap, "{'descr': %s, 'fortran_order': %s, 'shape': (", descr,
                     fortran ? "True" : "False");
    FUZZ_CHECK(k > 0 && (size_t)k < cap);
    size_t at = (size_t)k;
    const uint64_t *shape = npydt_header_shape(h);
    for (size_t i = 0; i < ndim + extra_dim; i++) {
        long long d = wild ? -1 : i < ndim ? (long long)shape[i] : 1;
        k = snprintf(spec + at, cap - at, "%lld,", d);
        FUZZ_CHECK(k > 0 && (size_t)k < cap - at);
        at += (size_t)k;
    }
    k = snprintf(spec + at, cap - at, ")}");
    FUZZ_CHECK(k > 0 && (size_t)k < cap - at);
    *len = at + (size_t)k;
    free(descr);
    return spec;
}

static void check_header_self(const npydt_header *h)
{
    static const struct { bool wild, extra_dim, flip; unsigned expect; } variants[] = {
        {false, false, false, 0},
        {true, false, false, 0},
        {false, true, false, 1u << NPYDT_MISMATCH_DIMENSION},
        {true, false, true, 1u << NPYDT_MISMATCH_FORTRAN_ORDER},
    };
    npydt_options o;
    fuzz_reparse_options(&o);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        size_t len;
        char *spec = header_spec(h, variants[v].wild, variants[v].extra_dim, variants[v].flip,
                                 &len);
        if (!spec)
            return;
        npydt_schema *s = NULL;
        npydt_error err;
        npydt_status st = npydt_schema_compile(spec, len, &o, &s, &err);
        if (st != NPYDT_OK)
            fuzz_fail_status("header's own dict spec does not compile", st, &err, spec, len);
        for (size_t i = 0; i < NLEVELS; i++)
            if (check_header_one(s, h, levels[i]) != variants[v].expect ||
                check_one(s, npydt_header_dtype(h), levels[i]) != 0) {
                fprintf(stderr, "header does not match its own spec as expected (variant %zu, "
                        "level %u): %.*s\n", v, levels[i], (int)(len > 2000 ? 2000 : len), spec);
                abort();
            }
        npydt_schema_free(s);
        free(spec);
    }
}

/* dt matches its own canonical descr compiled as a spec, at every level. */
static void check_self(const npydt_dtype *dt)
{
    size_t len;
    char *text = fuzz_descr_text(dt, &len);
    npydt_options o;
    fuzz_reparse_options(&o);
    npydt_schema *s = NULL;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_schema_compile(text, len, &o, &s, &err);
    if (st != NPYDT_OK)
        fuzz_fail_status("canonical descr does not compile as a spec", st, &err, text, len);
    FUZZ_CHECK(npydt_schema_dtype(s) != NULL);
    FUZZ_CHECK(fuzz_same_after_text(dt, npydt_schema_dtype(s)));
    /* the text cannot carry a generic datetime multiplier, and NumPy
     * tells M8[2generic] from M8 */
    for (size_t i = 0; i < NLEVELS && !fuzz_has_generic_multiplier(dt); i++)
        if (check_one(s, dt, levels[i]) != 0) {
            fprintf(stderr, "dtype does not match itself at level %u: %.*s\n", levels[i],
                    (int)(len > 2000 ? 2000 : len), text);
            abort();
        }
    npydt_schema_free(s);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const uint8_t *nul = memchr(data, 0, size);
    size_t spec_len = nul ? (size_t)(nul - data) : size;
    const char *descr = nul ? text + spec_len + 1 : text;
    size_t descr_len = nul ? size - spec_len - 1 : size;

    npydt_schema *s = (npydt_schema *)&s;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_schema_compile(text, spec_len, NULL, &s, &err);
    if (st != NPYDT_OK) {
        FUZZ_CHECK(s == NULL);
        fuzz_check_error(st, &err, spec_len);
    } else {
        FUZZ_CHECK(s != NULL);
        const npydt_dtype *sdt = npydt_schema_dtype(s);
        if (sdt) {
            fuzz_check_root(sdt);
            /* the spec's own dtype matches the spec at every level */
            for (size_t i = 0; i < NLEVELS; i++)
                FUZZ_CHECK(check_one(s, sdt, levels[i]) == 0);
        }
    }

    static const char magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
    if (descr_len >= 6 && memcmp(descr, magic, 6) == 0) {
        npydt_header *h = NULL;
        fuzz_poison_error(&err);
        npydt_status hst = npydt_header_parse(descr, descr_len, NULL, &h, &err);
        if (hst == NPYDT_OK) {
            if (st == NPYDT_OK)
                for (size_t i = 0; i < NLEVELS; i++)
                    check_header_one(s, h, levels[i]);
            check_header_self(h);
            npydt_header_free(h);
        } else {
            FUZZ_CHECK(h == NULL);
            fuzz_check_error(hst, &err, descr_len);
        }
        if (st == NPYDT_OK)
            npydt_schema_free(s);
        return 0;
    }

    npydt_dtype *dt = (npydt_dtype *)&dt;
    fuzz_poison_error(&err);
    npydt_status dst = npydt_header_parse_descr(descr, descr_len, NULL, &dt, &err);
    if (dst != NPYDT_OK) {
        FUZZ_CHECK(dt == NULL);
        fuzz_check_error(dst, &err, descr_len);
    } else {
        FUZZ_CHECK(dt != NULL);
        if (st == NPYDT_OK)
            for (size_t i = 0; i < NLEVELS; i++)
                check_one(s, dt, levels[i]);
        check_self(dt);
    }

    if (dst == NPYDT_OK)
        npydt_dtype_free(dt);
    if (st == NPYDT_OK)
        npydt_schema_free(s);
    return 0;
}
