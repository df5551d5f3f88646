/* What the value-rules tests share: a compiled rules text with one check
 * over records, and the assertion on what one rule found. */
#ifndef NPYDT_RULES_TEST_H
#define NPYDT_RULES_TEST_H

#include "test_util.h"

/* Rules compiled once and one check state over them. */
struct run {
    npydt_rules *rules;
    npydt_rules_check *check;
};

static inline void finish(struct run *run)
{
    npydt_rules_check_free(run->check);
    npydt_rules_free(run->rules);
}

/* Rule i broke `count` times, first at the indices given (-1 ends). */
static inline void broke(const struct run *run, size_t i, uint64_t count, const int *first)
{
    const npydt_rule_result *r = npydt_rules_check_result(run->check, i);
    assert_non_null(r);
    assert_int_equal(r->violations, count);
    size_t n = 0;
    while (first[n] >= 0)
        n++;
    assert_int_equal(r->nfirst, n);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(r->first[k], (uint64_t)first[k]);
}

#endif
