/* Harness 3: schema spec + dtype -> check.
 *
 * Input format: SPEC NUL DESCR. The bytes before the first NUL are a
 * schema spec (npydt_schema_compile), the bytes after it a descriptor
 * literal (npydt_dtype_parse_literal). Without a NUL the whole input is
 * both, so a plain spec seed also checks a dtype against itself.
 *
 * Oracles: a refused compile or parse leaves no result and a complete
 * error; when both parse, npydt_check_dtype at every flag combination
 * (default, STRICT, SAFE_CAST, ALLOW_EXTRA, SAFE_CAST|ALLOW_EXTRA) returns
 * OK with an empty result or NPYDT_E_MISMATCH with a non-empty one whose
 * every mismatch has a named code and non-NULL path, expected and found
 * strings (err names the first); a dtype always matches itself at every
 * level: the spec's own dtype against the spec, and the canonical descr of
 * DESCR's dtype compiled as a spec against DESCR's dtype. */
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
    size_t n = npydt_check_result_count(r);
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
        /* a bare dtype check never reports array-level mismatches */
        FUZZ_CHECK(m->code != NPYDT_MISMATCH_DIMENSION &&
                   m->code != NPYDT_MISMATCH_FORTRAN_ORDER);
        if (i == 0) {
            /* err names the first mismatch (its path possibly truncated) */
            size_t pl = strlen(err.path);
            FUZZ_CHECK(pl <= strlen(m->path) && strncmp(err.path, m->path, pl) == 0);
        }
    }
    FUZZ_CHECK(npydt_check_result_get(r, n) == NULL);
    npydt_check_result_free(r);
    /* without a result the status is the same */
    fuzz_poison_error(&err);
    FUZZ_CHECK(npydt_check_dtype(s, dt, flags, NULL, &err) == st);
    return n;
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

    npydt_dtype *dt = (npydt_dtype *)&dt;
    fuzz_poison_error(&err);
    npydt_status dst = npydt_dtype_parse_literal(descr, descr_len, NULL, &dt, &err);
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
