/* Shared by every cmocka test binary: each test file lists its tests with
 * TEST_LIST and links test_main.c, which runs them, optionally filtered by
 * test name and, for table-driven tests, by case name:
 *   build/tests/test_dtype 'test_dtype_title*'
 *   build/tests/test_header_errors '*' 'case_017'
 * (both are cmocka's glob patterns: '*' and '?'; a table names its cases,
 * test_header_errors "case_" and the index; tests/check_case_filter.sh
 * runs these two lines). */
#ifndef NPYDT_TEST_UTIL_H
#define NPYDT_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npydt.h"

extern const struct CMUnitTest npydt_test_list[];
extern const size_t npydt_test_count;
extern const char npydt_test_group[];

#define TEST_LIST(group, ...)                                                        \
    const struct CMUnitTest npydt_test_list[] = {__VA_ARGS__};                       \
    const size_t npydt_test_count = sizeof npydt_test_list / sizeof npydt_test_list[0]; \
    const char npydt_test_group[] = group

/* True when the table case called name should run: always, unless the
 * command line gave a case pattern (the second argument) it does not match. */
int test_case_selected(const char *name);

/* Fill an error struct with 0xA5 bytes before a call under test, so that a
 * field the call should write but does not is noticed by
 * test_assert_error_filled (or by a comparison of the field). */
void test_poison_error(npydt_error *err);

/* After a failed call on a poisoned err: every field was written (code is
 * st, the offset is not the poison, path and message are NUL-terminated,
 * the message is not empty). */
void test_assert_error_filled(npydt_status st, const npydt_error *err);

/* Declare the npydt_error `name` for the calls under test, poisoned. */
#define TEST_ERROR(name)                                                             \
    npydt_error name;                                                                \
    test_poison_error(&name)

/* Poison *errp, make the call, and check that it failed with code and
 * wrote every field of *errp (test_assert_error_filled). */
#define assert_fails(code, errp, call)                                               \
    do {                                                                             \
        test_poison_error(errp);                                                     \
        npydt_status assert_fails_st = (call);                                       \
        assert_int_equal(assert_fails_st, (code));                                   \
        test_assert_error_filled(assert_fails_st, (errp));                           \
    } while (0)

/* A fixture opened with its data in memory (fails the test if it cannot);
 * close it with npydt_reader_close. */
npydt_reader *test_open_fixture(const char *name);
/* Pointer to element i (C order) of an array opened in memory. */
const unsigned char *test_element_at(npydt_reader *r, uint64_t i);
/* The root dtype of an open array. */
const npydt_dtype *test_reader_dtype(npydt_reader *r);

/* n zeroed records of a dtype literal, built by hand (one byte more than
 * they need, so that they can be placed at an odd address); free with
 * test_recs_free. */
struct test_recs {
    npydt_dtype *dt;
    size_t isz, n;
    unsigned char *buf;
};
struct test_recs test_recs_make(const char *descr, size_t n);
void test_recs_free(struct test_recs *r);
/* The scalar at path (an index allowed: "m[1]") of record i, its dtype in
 * *f (fails the test for an unknown path). */
unsigned char *test_recs_at(struct test_recs *r, size_t i, const char *path,
                            const npydt_dtype **f);
/* Store a value at path of record i with the library's writers (fails the
 * test if it cannot): bytes go to S or V, and to U as UTF-8. */
void test_recs_set_double(struct test_recs *r, size_t i, const char *path, double v);
void test_recs_set_complex(struct test_recs *r, size_t i, const char *path, double re,
                           double im);
void test_recs_set_i64(struct test_recs *r, size_t i, const char *path, int64_t v);
void test_recs_set_u64(struct test_recs *r, size_t i, const char *path, uint64_t v);
void test_recs_set_bytes(struct test_recs *r, size_t i, const char *path, const char *s,
                         size_t len);

/* Read a whole file (fails the test if it cannot); free() the result. */
unsigned char *test_read_file(const char *path, size_t *len);

/* Path of a fixture under $FIXTURES (default tests/fixtures); returns a
 * static buffer per call site use, copy if needed. */
const char *test_fixture(const char *name);

/* Parse a descriptor literal that must be valid; fails the test otherwise. */
npydt_dtype *test_parse_literal(const char *text);

/* Leaf i's path spelled into buf (npydt_dtype_leaf_path), which must hold
 * it whole; returns buf. */
const char *test_leaf_path(const npydt_dtype *root, size_t i, char *buf, size_t size);

/* The machine's own byte order as a dtype prints it: '<' or '>'. */
char test_native_order(void);

/* Store an f8 in a file's byte order ('<' or '>') from its IEEE bits,
 * whatever the machine's own order. */
void test_store_f8(double v, char order, unsigned char out[8]);

/* A counting allocator that fails the Nth allocation (fail_at = N, counting
 * from 0) or, with fail_forever, every allocation from the Nth on, and
 * tracks live bytes to detect leaks. */
struct test_alloc {
    npydt_allocator alloc;
    long calls;          /* allocations attempted */
    long fail_at;        /* -1: never fail */
    int fail_forever;
    long live_blocks;
    size_t live_bytes;
    size_t peak_bytes;   /* the most live_bytes has been */
};
void test_alloc_init(struct test_alloc *t, long fail_at, int fail_forever);

#endif
