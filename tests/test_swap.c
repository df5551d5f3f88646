/* Byteswap plans, npydt_swap and npydt_dtype_newbyteorder, checked against
 * a naive tree walk that swaps one scalar at a time. */
#include "test_util.h"

#include "records/records.h"   /* swap_plan_nops: how well runs merged */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIXED                                                                          \
    "[('t', '>M8[ns]'), ('id', '>u4'), ('flag', '|b1'), ('pos', [('x', '>f8'), "   \
    "('y', '>f8'), ('z', '>f8')]), ('name', '|S7'), ('samples', '>i2', (8,)), "      \
    "('c', '>c8')]"

static uint64_t rng_state = 0x2545f4914f6cdd1du;

static void fill_random(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        p[i] = (unsigned char)(rng_state >> 24);
    }
}

/* The reference: walk the tree, reverse each unit of each scalar whose
 * order differs from `to` ('s': every ordered scalar). */
static void naive_swap(const npydt_dtype *dt, unsigned char *p, char to)
{
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT:
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++)
            naive_swap(npydt_dtype_field_dtype(dt, i), p + npydt_dtype_field_offset(dt, i), to);
        return;
    case NPYDT_SUBARRAY: {
        const npydt_dtype *base = npydt_dtype_base(dt);
        size_t n = npydt_dtype_itemsize(base) ? npydt_dtype_itemsize(dt) / npydt_dtype_itemsize(base) : 0;
        for (size_t i = 0; i < n; i++)
            naive_swap(base, p + i * npydt_dtype_itemsize(base), to);
        return;
    }
    case NPYDT_SCALAR:
        break;
    }
    char bo = npydt_dtype_byteorder(dt), kind = npydt_dtype_kind(dt);
    size_t size = npydt_dtype_itemsize(dt);
    if (bo == '|' || strchr("bSVO", kind) || (to != 's' && bo == to))
        return;
    size_t unit = kind == 'c' ? size / 2 : kind == 'U' ? 4 : size;
    for (size_t u = 0; u + unit <= size && unit > 1; u += unit)
        for (size_t i = 0, j = unit - 1; i < j; i++, j--) {
            unsigned char t = p[u + i];
            p[u + i] = p[u + j];
            p[u + j] = t;
        }
}

static npydt_swap_plan *plan_of(const npydt_dtype *dt)
{
    npydt_swap_plan *plan = NULL;
    TEST_ERROR(err);
    if (npydt_swap_plan_new(dt, NULL, &plan, &err) != NPYDT_OK)
        fail_msg("plan: %s", err.message);
    return plan;
}

/* Swap n random records of descr to `to` in place and out of place, and
 * compare with the reference; with the pshufb windows where the CPU has
 * them, and with the plain loops. */
static void check_one(const char *descr, npydt_order to, uint64_t n, int windows)
{
    npydt_dtype *dt = test_parse_literal(descr);
    npydt_swap_plan *plan = plan_of(dt);
    if (!windows)
        swap_plan_drop_windows(plan);
    size_t isz = npydt_dtype_itemsize(dt);
    size_t bytes = (size_t)n * isz;
    unsigned char *in = malloc(bytes + 1), *want = malloc(bytes + 1), *got = malloc(bytes + 1);
    assert_true(in && want && got);
    fill_random(in, bytes);
    memcpy(want, in, bytes);
    for (uint64_t i = 0; i < n; i++)
        naive_swap(dt, want + i * isz, to == NPYDT_ORDER_NATIVE ? test_native_order() : (char)to);
    assert_int_equal(npydt_swap(plan, to, in, got, n, NULL), NPYDT_OK);
    if (memcmp(got, want, bytes) != 0)
        fail_msg("%s to %c: out of place differs", descr, (char)to);
    assert_int_equal(npydt_swap(plan, to, in, in, n, NULL), NPYDT_OK);
    if (memcmp(in, want, bytes) != 0)
        fail_msg("%s to %c: in place differs", descr, (char)to);
    free(in);
    free(want);
    free(got);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
}

static void check_against_naive(const char *descr, npydt_order to, uint64_t n)
{
    check_one(descr, to, n, 1);
    check_one(descr, to, n, 0);
}

static void test_swap_mixed_record_matches_naive(void **state)
{
    (void)state;
    check_against_naive(MIXED, NPYDT_ORDER_LITTLE, 3000);
    check_against_naive(MIXED, NPYDT_ORDER_SWAP, 3000);
    check_against_naive(MIXED, NPYDT_ORDER_NATIVE, 10);
}

static void test_swap_every_kind_matches_naive(void **state)
{
    (void)state;
    static const char *descrs[] = {
        "'>f8'", "'<f8'", "'>i2'", "'>u4'", "'>f2'", "'>f16'", "'<f16'", "'>c8'", "'>c16'",
        "'>c32'", "'>U3'", "'<U5'", "'>m8[25s]'", "'|S5'", "'|V7'", "'|b1'", "'|i1'",
        "[('a', '<f16'), ('b', '>f16'), ('c', '>c32'), ('d', '<c32')]",
        "[('a', '>i2', (3, 2)), ('b', [('x', '<f4'), ('y', '>i8')], (2,)), ('c', 'u1')]",
        "[('x', ('>f8', (2,)), (3,)), ('u', '>U2', (2,))]",
        "[('a', [('b', [('c', '<i2'), ('d', '>f4')]), ('e', 'u1')]), ('f', '<c8'), ('g', '>f16')]",
        "[('', '|V3'), ('a', '>i4'), ('', '|V1'), ('b', '>i2', (0,)), ('c', '>i8')]",
        "[('z', '>i4', (2, 0)), ('a', '>i2')]",
        "[('p', [('x', '>i4'), ('s', '|S1'), ('y', '<i2')], (3000,))]",
        "[('q', [('r', [('x', '>i2'), ('s', 'S3')], (40,))], (40,))]",
        "[('x', '>f8'), ('y', '>i8')]", "[('a', '>i4'), ('b', '<f4')]", "('>i2', (3,))",
    };
    static const npydt_order orders[] = {NPYDT_ORDER_LITTLE, NPYDT_ORDER_BIG, NPYDT_ORDER_SWAP};
    for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++)
        for (size_t k = 0; k < 3; k++)
            check_against_naive(descrs[i], orders[k], 37);
}

static void test_swap_twice_is_the_identity(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(MIXED);
    npydt_swap_plan *plan = plan_of(dt);
    size_t bytes = 1000 * npydt_dtype_itemsize(dt);
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    fill_random(a, bytes);
    memcpy(b, a, bytes);
    npydt_swap(plan, NPYDT_ORDER_SWAP, b, b, 1000, NULL);
    assert_memory_not_equal(a, b, bytes);
    npydt_swap(plan, NPYDT_ORDER_SWAP, b, b, 1000, NULL);
    assert_memory_equal(a, b, bytes);
    free(a);
    free(b);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
}

static void test_swap_round_trip_through_newbyteorder(void **state)
{
    (void)state;
    /* big -> little with the plan of the big dtype, back with the plan of
     * the little one: the original bytes */
    npydt_dtype *big = test_parse_literal(MIXED), *little;
    assert_int_equal(npydt_dtype_newbyteorder(big, NPYDT_ORDER_LITTLE, NULL, &little, NULL),
                     NPYDT_OK);
    npydt_swap_plan *pb = plan_of(big), *pl = plan_of(little);
    size_t bytes = 100 * npydt_dtype_itemsize(big);
    unsigned char *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    fill_random(a, bytes);
    assert_int_equal(npydt_swap(pb, NPYDT_ORDER_LITTLE, a, b, 100, NULL), NPYDT_OK);
    assert_int_equal(npydt_swap_plan_bytes(pl, NPYDT_ORDER_LITTLE), 0);
    assert_int_equal(npydt_swap(pl, NPYDT_ORDER_BIG, b, c, 100, NULL), NPYDT_OK);
    assert_memory_equal(a, c, bytes);
    free(a);
    free(b);
    free(c);
    npydt_swap_plan_free(pb);
    npydt_swap_plan_free(pl);
    npydt_dtype_free(little);
    npydt_dtype_free(big);
}

static void test_swap_never_touches_bytes_void_bool_padding(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(
        "[('a', '|S4'), ('', '|V3'), ('v', '|V5'), ('b', '|b1'), ('u', '|u1'), ('i', '>i4')]");
    npydt_swap_plan *plan = plan_of(dt);
    unsigned char rec[18], orig[18];
    fill_random(rec, sizeof rec);
    memcpy(orig, rec, sizeof rec);
    npydt_swap(plan, NPYDT_ORDER_SWAP, rec, rec, 1, NULL);
    assert_memory_equal(rec, orig, 14);              /* everything before i */
    assert_int_equal(rec[14], orig[17]);
    assert_int_equal(npydt_swap_plan_bytes(plan, NPYDT_ORDER_SWAP), 4);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
}

static void test_swap_units_of_each_kind(void **state)
{
    (void)state;
    static const struct {
        const char *descr;
        unsigned char want[16];
        size_t n;
    } cases[] = {
        {"'>c8'", {3, 2, 1, 0, 7, 6, 5, 4}, 8},
        {"'>U2'", {3, 2, 1, 0, 7, 6, 5, 4}, 8},
        {"'>M8[s]'", {7, 6, 5, 4, 3, 2, 1, 0}, 8},
        {"'>f16'", {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 16},
        {"'>f2'", {1, 0}, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npydt_dtype *dt = test_parse_literal(cases[i].descr);
        npydt_swap_plan *plan = plan_of(dt);
        unsigned char b[16];
        for (int k = 0; k < 16; k++)
            b[k] = (unsigned char)k;
        assert_int_equal(npydt_swap(plan, NPYDT_ORDER_LITTLE, b, b, 1, NULL), NPYDT_OK);
        assert_memory_equal(b, cases[i].want, cases[i].n);
        npydt_swap_plan_free(plan);
        npydt_dtype_free(dt);
    }
}

static void test_swap_long_double_as_numpy(void **state)
{
    (void)state;
    /* np.array([np.longdouble(1)/3], '<f16').byteswap().tobytes() */
    static const unsigned char le[16] = {0xab, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa,
                                         0xfd, 0x3f, 0, 0, 0, 0, 0, 0};
    static const unsigned char be[16] = {0, 0, 0, 0, 0, 0, 0x3f, 0xfd,
                                         0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xab};
    npydt_dtype *dt = test_parse_literal("'<f16'");
    npydt_swap_plan *plan = plan_of(dt);
    unsigned char out[16];
    assert_int_equal(npydt_swap(plan, NPYDT_ORDER_BIG, le, out, 1, NULL), NPYDT_OK);
    assert_memory_equal(out, be, 16);
    npydt_dtype *bdt = test_parse_literal("'>f16'");
    double v;
    assert_int_equal(npydt_read_double(bdt, out, &v, NULL), NPYDT_OK);
    assert_true(v == (double)(1.0 / 3));   /* the cast drops x87 excess precision */
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
    npydt_dtype_free(bdt);
}

static void test_swap_plan_merges_adjacent_runs(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(
        "[('a', '>f8'), ('b', [('x', '>i8'), ('y', '>u8')]), ('c', '>f8', (4,)), "
        "('p', [('x', '>i4'), ('y', '>f4')], (3,)), ('s', 'S1'), ('d', '>i2')]");
    npydt_swap_plan *plan = plan_of(dt);
    size_t nflat;
    /* 8-byte run: a, b.x, b.y, c[0..4]; 4-byte run: p[0..3].x/y; d */
    assert_int_equal(swap_plan_nops(plan, NPYDT_ORDER_LITTLE, &nflat), 3);
    assert_int_equal(nflat, 3);
    assert_int_equal(npydt_swap_plan_bytes(plan, NPYDT_ORDER_LITTLE), 56 + 24 + 2);
    assert_int_equal(swap_plan_nops(plan, NPYDT_ORDER_BIG, &nflat), 0);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
}

static void test_swap_plan_uses_windows_on_ssse3(void **state)
{
    (void)state;
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    if (!__builtin_cpu_supports("ssse3"))
        skip();
    npydt_dtype *dt = test_parse_literal(MIXED);
    npydt_swap_plan *plan = plan_of(dt);
    /* t+id | pos.x+y | pos.z | samples | c, for each of the two lists
     * that swap anything */
    assert_int_equal(swap_plan_drop_windows(plan), 10);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
#else
    skip();
#endif
}

static bool have_ssse3(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    return __builtin_cpu_supports("ssse3");
#else
    return false;
#endif
}

static void test_swap_plan_swaps_mixed_record_in_one_pass(void **state)
{
    (void)state;
    if (!have_ssse3())
        skip();
    npydt_dtype *dt = test_parse_literal(MIXED);
    npydt_swap_plan *plan = plan_of(dt);
    /* its five windows, each read from the record as it was: one pass */
    assert_int_equal(swap_plan_rec_windows(plan, NPYDT_ORDER_SWAP), 5);
    assert_int_equal(swap_plan_rec_windows(plan, NPYDT_ORDER_LITTLE), 5);
    assert_int_equal(swap_plan_rec_windows(plan, NPYDT_ORDER_BIG), 0);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
}

/* b (bytes 6 to 9) is swapped by the first window, [0, 16); c (12 to 19)
 * by the last, clamped to [8, 24), which stores b's bytes 8 and 9 last
 * but does not load their mirror bytes 6 and 7: read from the record as
 * it was, it would undo half of b. So the windows run one after the
 * other, each reading what the earlier stored. */
#define WINDOWS_READ_EACH_OTHER                                                           \
    "[('a', '<i2'), ('p', '|V4'), ('b', '<i4'), ('q', '|V2'), ('c', '<i8'), ('r', '|V4')]"

static void test_swap_plan_without_one_pass_when_windows_read_each_other(void **state)
{
    (void)state;
    if (!have_ssse3())
        skip();
    npydt_dtype *dt = test_parse_literal(WINDOWS_READ_EACH_OTHER);
    npydt_swap_plan *plan = plan_of(dt);
    assert_int_equal(swap_plan_rec_windows(plan, NPYDT_ORDER_BIG), 0);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
    check_against_naive(WINDOWS_READ_EACH_OTHER, NPYDT_ORDER_BIG, 100);
    check_against_naive(WINDOWS_READ_EACH_OTHER, NPYDT_ORDER_SWAP, 100);
}

static unsigned rand_below(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state >> 33) % n;
}

/* Structs of random fields (every unit size, both orders, bytes that
 * are not swapped between them, subarrays, a nested struct), swapped to
 * each order with and without the windows and the record program, in
 * place and between buffers, against the naive walk. */
static void test_swap_random_layouts_match_naive(void **state)
{
    (void)state;
    static const char *const types[] = {
        "'<i2'", "'>i2'", "'<u4'", "'>f4'", "'<f8'", "'>f8'", "'>c8'", "'<c16'", "'>f16'",
        "'>U2'", "'|S3'", "'|V5'", "'|b1'", "'|i1'", "'>m8[s]'", "('>i2', (3,))",
        "('<f4', (2,))", "[('x', '<f4'), ('y', '>i8')]", "'|S1'", "'>u2'",
    };
    size_t ntypes = sizeof types / sizeof types[0];
    size_t with_program = 0;
    for (int t = 0; t < 300; t++) {
        char descr[1024];
        size_t len = 0;
        unsigned nfields = 1 + rand_below(12);
        descr[len++] = '[';
        for (unsigned f = 0; f < nfields; f++)
            len += (size_t)snprintf(descr + len, sizeof descr - len, "%s('f%u', %s)",
                                    f ? ", " : "", f, types[rand_below((unsigned)ntypes)]);
        snprintf(descr + len, sizeof descr - len, "]");
        npydt_dtype *dt = test_parse_literal(descr);
        npydt_swap_plan *plan = plan_of(dt);
        with_program += swap_plan_rec_windows(plan, NPYDT_ORDER_SWAP) > 0;
        npydt_swap_plan_free(plan);
        npydt_dtype_free(dt);
        check_against_naive(descr, NPYDT_ORDER_LITTLE, 37);
        check_against_naive(descr, NPYDT_ORDER_BIG, 37);
        check_against_naive(descr, NPYDT_ORDER_SWAP, 37);
    }
    if (have_ssse3())
        assert_true(with_program > 100);
}

static void test_swap_plan_keeps_large_repeats_as_loops(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('p', [('x', '>i4'), ('s', '|S1')], (5000,))]");
    npydt_swap_plan *plan = plan_of(dt);
    size_t nflat;
    assert_int_equal(swap_plan_nops(plan, NPYDT_ORDER_LITTLE, &nflat), 1);
    assert_int_equal(nflat, 0);
    assert_int_equal(npydt_swap_plan_bytes(plan, NPYDT_ORDER_LITTLE), 5000 * 4);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
}

static void test_swap_plan_of_a_field_node(void **state)
{
    (void)state;
    /* a node that is not a root gets a leaf table of its own */
    npydt_dtype *dt = test_parse_literal("[('h', 'u1'), ('r', [('a', '>i2', (3,)), ('b', '<f8')], (2,))]");
    const npydt_dtype *r = npydt_dtype_field_dtype(dt, 1);
    npydt_swap_plan *plan = plan_of(r);
    unsigned char in[2 * 28], out[2 * 28], want[2 * 28];
    fill_random(in, sizeof in);
    memcpy(want, in, sizeof in);
    naive_swap(r, want, 's');
    naive_swap(r, want + 28, 's');
    assert_int_equal(npydt_swap(plan, NPYDT_ORDER_SWAP, in, out, 2, NULL), NPYDT_OK);
    assert_memory_equal(out, want, sizeof want);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
}

static void test_swap_refuses_objects_and_overlap(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i4'), ('o', '|O')]");
    npydt_swap_plan *plan = (npydt_swap_plan *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_OBJECT, &err, npydt_swap_plan_new(dt, NULL, &plan, &err));
    assert_null(plan);
    npydt_dtype_free(dt);
    dt = test_parse_literal("'>i4'");
    plan = plan_of(dt);
    unsigned char buf[64] = {0};
    assert_fails(NPYDT_E_ARG, &err, npydt_swap(plan, NPYDT_ORDER_LITTLE, buf, buf + 4, 4, &err));
    assert_int_equal(npydt_swap(plan, NPYDT_ORDER_LITTLE, buf, buf + 16, 4, &err), NPYDT_OK);
    assert_fails(NPYDT_E_ARG, &err, npydt_swap(plan, (npydt_order)'x', buf, buf, 4, &err));
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
}

/* Every allocation of a plan may fail: nothing leaks, the status says so. */
static void plan_survives_allocation_failures(const npydt_dtype *dt)
{
    for (long n = 0;; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_options opts;
        npydt_options_init(&opts);
        opts.allocator = &ta.alloc;
        npydt_swap_plan *plan;
        npydt_status st = npydt_swap_plan_new(dt, &opts, &plan, NULL);
        if (st == NPYDT_OK) {
            npydt_swap_plan_free(plan);
            assert_int_equal(ta.live_blocks, 0);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        assert_int_equal(ta.live_blocks, 0);
    }
}

static void test_swap_plan_allocation_failures(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(MIXED);
    plan_survives_allocation_failures(dt);
    npydt_dtype_free(dt);
}

static void test_swap_plan_of_a_field_node_allocation_failures(void **state)
{
    (void)state;
    /* the node's own leaf table is allocated too, with paths below a struct */
    npydt_dtype *dt = test_parse_literal("[('h', 'u1'), ('r', [('a', '>i2', (3,)), "
                                         "('s', [('b', '<f8'), ('c', '>u4')])], (2,))]");
    plan_survives_allocation_failures(npydt_dtype_field_dtype(dt, 1));
    npydt_dtype_free(dt);
}

static void test_swap_newbyteorder_sets_every_ordered_scalar(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(
        "[('a', '<i4'), (('T', 'b'), '>f8', (2,)), ('s', 'S3'), ('n', [('m', '<M8[25s]'), "
        "('u', '|u1')])]");
    npydt_dtype *big, *flip;
    assert_int_equal(npydt_dtype_newbyteorder(dt, NPYDT_ORDER_BIG, NULL, &big, NULL), NPYDT_OK);
    char buf[256];
    npydt_dtype_descr(big, buf, sizeof buf);
    assert_string_equal(buf, "[('a', '>i4'), (('T', 'b'), '>f8', (2,)), ('s', '|S3'), "
                             "('n', [('m', '>M8[25s]'), ('u', '|u1')])]");
    assert_int_equal(npydt_dtype_newbyteorder(dt, NPYDT_ORDER_SWAP, NULL, &flip, NULL), NPYDT_OK);
    npydt_dtype_descr(flip, buf, sizeof buf);
    assert_string_equal(buf, "[('a', '>i4'), (('T', 'b'), '<f8', (2,)), ('s', '|S3'), "
                             "('n', [('m', '>M8[25s]'), ('u', '|u1')])]");
    size_t n;
    assert_non_null(npydt_dtype_leaves(flip, &n));
    assert_int_equal(n, 5);
    npydt_dtype_free(flip);
    npydt_dtype_free(big);
    npydt_dtype_free(dt);
}

static void test_swap_newbyteorder_allocation_failures(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(MIXED);
    for (long n = 0;; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_options opts;
        npydt_options_init(&opts);
        opts.allocator = &ta.alloc;
        npydt_dtype *out;
        npydt_status st = npydt_dtype_newbyteorder(dt, NPYDT_ORDER_LITTLE, &opts, &out, NULL);
        if (st == NPYDT_OK) {
            npydt_dtype_free(out);
            assert_int_equal(ta.live_blocks, 0);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        assert_int_equal(ta.live_blocks, 0);
    }
    npydt_dtype_free(dt);
}


static void test_swap_calls_refuse_bad_arguments(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<i4'");
    npydt_swap_plan *plan = (npydt_swap_plan *)1;
    npydt_dtype *out = (npydt_dtype *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_swap_plan_new(dt, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_swap_plan_new(NULL, NULL, &plan, &err));
    assert_null(plan);
    assert_string_equal(err.message, "dtype is NULL");
    unsigned char in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, buf[8];
    assert_fails(NPYDT_E_ARG, &err, npydt_swap(NULL, NPYDT_ORDER_BIG, in, buf, 2, &err));
    assert_string_equal(err.message, "plan is NULL");
    assert_int_equal(npydt_swap_plan_new(dt, NULL, &plan, &err), NPYDT_OK);
    assert_fails(NPYDT_E_OVERFLOW, &err,
                 npydt_swap(plan, NPYDT_ORDER_BIG, in, buf, UINT64_MAX / 2, &err));
    assert_string_equal(err.message, "9223372036854775807 records do not fit the address space");
    assert_fails(NPYDT_E_ARG, &err, npydt_swap(plan, NPYDT_ORDER_BIG, NULL, buf, 2, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_swap(plan, NPYDT_ORDER_BIG, in, NULL, 2, &err));
    assert_string_equal(err.message, "in or out is NULL");
    assert_int_equal(npydt_swap(plan, NPYDT_ORDER_BIG, NULL, NULL, 0, &err), NPYDT_OK);
    assert_int_equal(npydt_swap(plan, NPYDT_ORDER_BIG, in, buf, 2, &err), NPYDT_OK);
    assert_memory_equal(buf, "\4\3\2\1\10\7\6\5", 8);
    npydt_swap_plan_free(plan);
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_dtype_newbyteorder(dt, NPYDT_ORDER_BIG, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_dtype_newbyteorder(NULL, NPYDT_ORDER_BIG, NULL, &out, &err));
    assert_null(out);
    assert_string_equal(err.message, "dtype is NULL");
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_dtype_newbyteorder(dt, (npydt_order)'x', NULL, &out, &err));
    assert_string_equal(err.message, "unknown byte order 120");
    npydt_dtype_free(dt);
}

TEST_LIST("swap",
    cmocka_unit_test(test_swap_mixed_record_matches_naive),
    cmocka_unit_test(test_swap_every_kind_matches_naive),
    cmocka_unit_test(test_swap_plan_swaps_mixed_record_in_one_pass),
    cmocka_unit_test(test_swap_plan_without_one_pass_when_windows_read_each_other),
    cmocka_unit_test(test_swap_random_layouts_match_naive),
    cmocka_unit_test(test_swap_twice_is_the_identity),
    cmocka_unit_test(test_swap_round_trip_through_newbyteorder),
    cmocka_unit_test(test_swap_never_touches_bytes_void_bool_padding),
    cmocka_unit_test(test_swap_units_of_each_kind),
    cmocka_unit_test(test_swap_long_double_as_numpy),
    cmocka_unit_test(test_swap_plan_merges_adjacent_runs),
    cmocka_unit_test(test_swap_plan_uses_windows_on_ssse3),
    cmocka_unit_test(test_swap_plan_keeps_large_repeats_as_loops),
    cmocka_unit_test(test_swap_plan_of_a_field_node),
    cmocka_unit_test(test_swap_refuses_objects_and_overlap),
    cmocka_unit_test(test_swap_plan_allocation_failures),
    cmocka_unit_test(test_swap_plan_of_a_field_node_allocation_failures),
    cmocka_unit_test(test_swap_newbyteorder_sets_every_ordered_scalar),
    cmocka_unit_test(test_swap_newbyteorder_allocation_failures),
    cmocka_unit_test(test_swap_calls_refuse_bad_arguments),
);
