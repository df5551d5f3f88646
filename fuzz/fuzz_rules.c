/* Harness: value rules, compiled and checked.
 *
 * Input format: RULES NUL DESCR NUL RECORDS. The bytes before the first
 * NUL are a rules text (npydt_rules_compile), those up to the second a
 * descriptor literal (npydt_header_parse_descr), the rest record bytes,
 * as many whole records as they hold. Without a NUL the whole input is
 * the rules, compiled without a dtype and against '<f8'.
 *
 * Oracles: a refused compile leaves no rules and a complete error whose
 * offset lies in the text; rules that compile against a dtype also
 * compile without one (the dtype only adds refusals); a check of the
 * records made in one call and one made a record at a time agree on every
 * rule (count, first indices and values), each count is at most the
 * field's elements, nfirst is min(count, NPYDT_RULES_FIRST), the first
 * indices rise and lie below the elements, and every value text ends in
 * its room. A small max_unique_bytes makes the limit error reachable. */
#include "fuzz_util.h"

static void compare(const npydt_rules *rules, const npydt_rules_check *a,
                    const npydt_rules_check *b, uint64_t records)
{
    size_t n = npydt_rules_count(rules);
    for (size_t i = 0; i < n; i++) {
        const npydt_rule_result *x = npydt_rules_check_result(a, i);
        const npydt_rule_result *y = npydt_rules_check_result(b, i);
        FUZZ_CHECK(x != NULL && y != NULL);
        FUZZ_CHECK(x->violations == y->violations && x->nfirst == y->nfirst);
        FUZZ_CHECK(x->nfirst == (x->violations < NPYDT_RULES_FIRST ? x->violations
                                                                   : NPYDT_RULES_FIRST));
        FUZZ_CHECK(x->rule != NULL && x->rule[0] != '\0');
        FUZZ_CHECK(x->path != NULL && x->expected != NULL && x->expected_len > 0);
        for (size_t k = 0; k < x->nfirst; k++) {
            FUZZ_CHECK(x->first[k] == y->first[k]);
            FUZZ_CHECK(k == 0 || x->first[k] > x->first[k - 1]);
            FUZZ_CHECK(memchr(x->values[k], '\0', NPYDT_RULES_VALUE_MAX) != NULL);
            FUZZ_CHECK(strcmp(x->values[k], y->values[k]) == 0);
        }
        /* every element of every record at most (a subarray's elements
         * are counted each: bounded by the record bytes) */
        FUZZ_CHECK(x->violations <= records * 65536);
    }
    FUZZ_CHECK(npydt_rules_check_result(a, n) == NULL);
    FUZZ_CHECK(npydt_rules_check_violations(a) == npydt_rules_check_violations(b));
}

static void run_checks(const npydt_rules *rules, const npydt_dtype *dt, const uint8_t *recs,
                       size_t len)
{
    size_t isz = npydt_dtype_itemsize(dt);
    uint64_t n = isz ? len / isz : 0;
    if (n > 4096)
        n = 4096;
    npydt_rules_check *a = NULL, *b = NULL;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_rules_check_new(rules, &a, &err);
    if (st != NPYDT_OK) {
        FUZZ_CHECK(a == NULL);
        fuzz_check_error(st, &err, 0);
        return;
    }
    FUZZ_CHECK(npydt_rules_check_new(rules, &b, &err) == NPYDT_OK);
    npydt_status sa = npydt_rules_check_add(a, recs, n, &err), sb = NPYDT_OK;
    if (sa != NPYDT_OK)
        fuzz_check_error(sa, &err, 0);
    for (uint64_t i = 0; i < n && sb == NPYDT_OK; i++)
        sb = npydt_rules_check_add(b, recs + i * isz, 1, &err);
    /* only the memory bound of unique refuses records, and both meet it */
    FUZZ_CHECK(sa == sb);
    FUZZ_CHECK(sa == NPYDT_OK || sa == NPYDT_E_LIMIT);
    if (sa == NPYDT_OK)
        compare(rules, a, b, n);
    npydt_rules_check_free(a);
    npydt_rules_check_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const uint8_t *nul = memchr(data, 0, size);
    size_t rules_len = nul ? (size_t)(nul - data) : size;
    const char *descr = "'<f8'";
    size_t descr_len = 5;
    const uint8_t *recs = NULL;
    size_t recs_len = 0;
    if (nul) {
        descr = text + rules_len + 1;
        const uint8_t *nul2 = memchr(descr, 0, size - rules_len - 1);
        descr_len = nul2 ? (size_t)(nul2 - (const uint8_t *)descr) : size - rules_len - 1;
        if (nul2) {
            recs = nul2 + 1;
            recs_len = size - (size_t)(recs - data);
        }
    }
    npydt_rules_options o;
    npydt_rules_options_init(&o);
    o.max_unique_bytes = 1 << 16;
    o.max_values = 256;

    npydt_rules *bare = (npydt_rules *)&bare;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st0 = npydt_rules_compile(text, rules_len, NULL, &o, &bare, &err);
    if (st0 != NPYDT_OK) {
        FUZZ_CHECK(bare == NULL);
        fuzz_check_error(st0, &err, rules_len);
    }

    npydt_dtype *dt = NULL;
    if (npydt_header_parse_descr(descr, descr_len, NULL, &dt, &err) == NPYDT_OK) {
        npydt_rules *rules = (npydt_rules *)&rules;
        fuzz_poison_error(&err);
        npydt_status st = npydt_rules_compile(text, rules_len, dt, &o, &rules, &err);
        if (st != NPYDT_OK) {
            FUZZ_CHECK(rules == NULL);
            fuzz_check_error(st, &err, rules_len);
        } else {
            FUZZ_CHECK(st0 == NPYDT_OK);   /* a dtype only adds refusals */
            FUZZ_CHECK(npydt_rules_count(rules) == npydt_rules_count(bare));
            run_checks(rules, dt, recs ? recs : (const uint8_t *)"", recs_len);
            npydt_rules_free(rules);
        }
        npydt_dtype_free(dt);
    }
    if (st0 == NPYDT_OK)
        npydt_rules_free(bare);
    return 0;
}
