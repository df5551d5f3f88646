/* The ready-made allocators: the pool over a caller's buffer and the
 * huge-page one; and the per-parse arena's refusals of sizes that do not
 * fit. */
#include "test_util.h"

#include "base/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A header of np.save's shape for descr, padded to a multiple of 64. */
static unsigned char *header_of(const char *descr, size_t *len)
{
    char text[4096];
    int n = snprintf(text, sizeof text, "{'descr': %s, 'fortran_order': False, 'shape': (7,), }",
                     descr);
    assert_true(n > 0 && (size_t)n < sizeof text - 80);
    size_t hlen = ((size_t)n + 1 + 10 + 63) / 64 * 64 - 10;
    unsigned char *b = malloc(10 + hlen);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)(hlen & 0xff);
    b[9] = (unsigned char)(hlen >> 8);
    memcpy(b + 10, text, (size_t)n);
    memset(b + 10 + n, ' ', hlen - (size_t)n - 1);
    b[10 + hlen - 1] = '\n';
    *len = 10 + hlen;
    return b;
}

static const char nested[] =
    "[('id', '<u8'), ('pos', [('x', '<f8'), ('y', '<f8')]), ('samples', '>i2', (8,)), "
    "(('T', 't'), '<M8[ns]'), ('name', '|S7')]";

/* Whether the whole pool is free again: one block of nearly all of it. */
static void assert_pool_empty(const npydt_allocator *a, size_t size)
{
    void *p = a->malloc(a->ctx, size - 64);
    assert_non_null(p);
    a->free(a->ctx, p, size - 64);
}

static void test_pool_serves_many_parses_and_is_whole_again_after_each(void **state)
{
    (void)state;
    static _Alignas(16) unsigned char buf[64 * 1024];
    npydt_allocator pool;
    assert_int_equal(npydt_pool_allocator_init(&pool, buf, sizeof buf), 1);
    npydt_options opts;
    npydt_options_init(&opts);
    opts.allocator = &pool;
    size_t len;
    unsigned char *hdr = header_of(nested, &len);
    for (int i = 0; i < 100; i++) {
        npydt_header *h;
        TEST_ERROR(err);
        assert_int_equal(npydt_header_parse(hdr, len, &opts, &h, &err), NPYDT_OK);
        const npydt_dtype *dt = npydt_header_dtype(h);
        assert_int_equal(npydt_dtype_nfields(dt), 5);
        assert_string_equal(npydt_dtype_field_name(dt, 3), "t");
        assert_int_equal(npydt_dtype_itemsize(dt), 8 + 16 + 16 + 8 + 7);
        npydt_header_free(h);
        assert_pool_empty(&pool, sizeof buf);
    }
    free(hdr);
}

static void test_pool_full_is_nomem_and_keeps_nothing(void **state)
{
    (void)state;
    static _Alignas(16) unsigned char buf[1024];
    npydt_allocator pool;
    assert_int_equal(npydt_pool_allocator_init(&pool, buf, sizeof buf), 1);
    npydt_options opts;
    npydt_options_init(&opts);
    opts.allocator = &pool;
    size_t len;
    unsigned char *hdr = header_of(nested, &len);
    npydt_header *h;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_NOMEM, &err, npydt_header_parse(hdr, len, &opts, &h, &err));
    assert_null(h);
    assert_pool_empty(&pool, sizeof buf);
    free(hdr);
}

/* The sizes in a pool's out-of-memory message: its own, the request
 * refused (more than the largest free block) and that block. */
static void assert_pool_message(const char *message, size_t pool, size_t largest)
{
    unsigned long long p, want, most;
    int n = sscanf(message, "the pool of %llu bytes had no free block of %llu bytes "
                            "(the largest was %llu)", &p, &want, &most);
    if (n != 3)
        fail_msg("%s", message);
    assert_int_equal(p, pool);
    assert_int_equal(most, largest);
    assert_true(want > most);
}

/* A pool that runs out says how large it is, what it could not give and
 * the most it could have, for a header and for a descriptor alone. */
static void test_pool_full_names_its_size_the_request_and_its_largest_block(void **state)
{
    (void)state;
    static _Alignas(16) unsigned char buf[1024];
    npydt_allocator pool;
    assert_int_equal(npydt_pool_allocator_init(&pool, buf, sizeof buf), 1);
    npydt_options opts;
    npydt_options_init(&opts);
    opts.allocator = &pool;
    size_t len;
    unsigned char *hdr = header_of(nested, &len);
    npydt_header *h;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_NOMEM, &err, npydt_header_parse(hdr, len, &opts, &h, &err));
    assert_pool_message(err.message, 992, 992);   /* 1024 less 32 of bookkeeping */
    void *most = pool.malloc(pool.ctx, 900);       /* 912 of them */
    assert_non_null(most);
    npydt_dtype *dt;
    assert_fails(NPYDT_E_NOMEM, &err,
                 npydt_header_parse_descr(nested, sizeof nested - 1, &opts, &dt, &err));
    assert_pool_message(err.message, 992, 80);
    pool.free(pool.ctx, most, 900);
    assert_pool_empty(&pool, sizeof buf);
    free(hdr);
}

static void test_pool_blocks_are_aligned_distinct_and_reused(void **state)
{
    (void)state;
    static unsigned char buf[4096 + 3];
    npydt_allocator a;
    assert_int_equal(npydt_pool_allocator_init(&a, buf + 3, 4096), 1);   /* unaligned buffer */
    unsigned char *p = a.malloc(a.ctx, 5), *q = a.malloc(a.ctx, 100), *r = a.malloc(a.ctx, 1);
    assert_non_null(p);
    assert_non_null(q);
    assert_non_null(r);
    assert_int_equal((uintptr_t)p % 16, 0);
    assert_int_equal((uintptr_t)q % 16, 0);
    assert_true(p + 16 <= q && q + 112 <= r);
    memset(q, 0xab, 100);
    q = a.realloc(a.ctx, q, 100, 300);   /* moves: r is in the way */
    assert_non_null(q);
    assert_int_equal(q[99], 0xab);
    a.free(a.ctx, p, 5);
    assert_ptr_equal(a.malloc(a.ctx, 16), p);   /* first fit takes the freed block */
    a.free(a.ctx, p, 16);
    a.free(a.ctx, r, 1);
    a.free(a.ctx, q, 300);
    void *all = a.malloc(a.ctx, 4000);   /* merged back into one */
    assert_non_null(all);
    assert_null(a.malloc(a.ctx, 4000));
    a.free(a.ctx, all, 4000);
}

static void test_pool_refuses_a_buffer_too_small_or_missing(void **state)
{
    (void)state;
    static _Alignas(16) unsigned char buf[64];
    npydt_allocator a;
    assert_int_equal(npydt_pool_allocator_init(&a, NULL, 1024), 0);
    assert_int_equal(npydt_pool_allocator_init(&a, buf, 47), 0);
    assert_int_equal(npydt_pool_allocator_init(&a, buf, 48), 1);
    assert_null(a.malloc(a.ctx, 17));
    assert_non_null(a.malloc(a.ctx, 16));
}

static void test_pool_huge_page_allocator_parses_like_malloc(void **state)
{
    (void)state;
    const npydt_allocator *huge = npydt_huge_page_allocator();
    assert_ptr_equal(huge, npydt_huge_page_allocator());
    void *big = huge->malloc(huge->ctx, (size_t)5 << 20);
    assert_non_null(big);
    memset(big, 1, (size_t)5 << 20);
    big = huge->realloc(huge->ctx, big, (size_t)5 << 20, (size_t)9 << 20);
    assert_non_null(big);
    assert_int_equal(((unsigned char *)big)[(5 << 20) - 1], 1);
    big = huge->realloc(huge->ctx, big, (size_t)9 << 20, 100);
    assert_non_null(big);
    assert_int_equal(((unsigned char *)big)[99], 1);
    huge->free(huge->ctx, big, 100);
    npydt_options opts;
    npydt_options_init(&opts);
    opts.allocator = huge;
    size_t len;
    unsigned char *hdr = header_of(nested, &len);
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse(hdr, len, &opts, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_dtype_nfields(npydt_header_dtype(h)), 5);
    npydt_header_free(h);
    free(hdr);
}

static void test_pool_realloc_shrinks_in_place_and_frees_the_tail(void **state)
{
    (void)state;
    static _Alignas(16) unsigned char buf[1024];
    npydt_allocator a;
    assert_int_equal(npydt_pool_allocator_init(&a, buf, sizeof buf), 1);
    /* realloc of NULL is malloc */
    unsigned char *p = a.realloc(a.ctx, NULL, 0, 100);
    assert_non_null(p);
    memset(p, 7, 100);
    /* the same rounded size, then a smaller one: the block stays put */
    assert_ptr_equal(a.realloc(a.ctx, p, 100, 112), p);
    assert_ptr_equal(a.realloc(a.ctx, p, 112, 20), p);
    assert_int_equal(p[19], 7);
    /* the 80 bytes freed behind it are the next block handed out */
    assert_ptr_equal(a.malloc(a.ctx, 80), p + 32);
    /* a realloc with no room left fails and keeps the block */
    assert_null(a.realloc(a.ctx, p, 20, 2000));
    assert_int_equal(p[19], 7);
    /* sizes that do not round to a whole unit are refused */
    assert_null(a.malloc(a.ctx, SIZE_MAX));
    assert_null(a.realloc(a.ctx, p, 20, SIZE_MAX));
    a.free(a.ctx, NULL, 10);
    /* a zero-byte block takes one unit */
    unsigned char *z = a.malloc(a.ctx, 0);
    assert_ptr_equal(z, p + 112);
    a.free(a.ctx, z, 0);
    /* freed between two free stretches, a block merges with both */
    a.free(a.ctx, p, 20);
    a.free(a.ctx, p + 32, 80);
    assert_ptr_equal(a.malloc(a.ctx, sizeof buf - 32), p);
}

static void test_pool_huge_page_allocator_moves_blocks_across_the_threshold(void **state)
{
    (void)state;
    const npydt_allocator *huge = npydt_huge_page_allocator();
    /* NULL is malloc; small stays small; small to big copies into a mapping */
    unsigned char *p = huge->realloc(huge->ctx, NULL, 0, 64);
    assert_non_null(p);
    memset(p, 3, 64);
    p = huge->realloc(huge->ctx, p, 64, 128);
    assert_non_null(p);
    /* a mapping the kernel cannot give (nearly the whole address space, on
     * 32-bit hosts too) fails the realloc, which keeps p */
    assert_null(huge->realloc(huge->ctx, p, 128, SIZE_MAX - ((size_t)1 << 20)));
    assert_int_equal(p[63], 3);
    p = huge->realloc(huge->ctx, p, 128, (size_t)6 << 20);
    assert_non_null(p);
    assert_int_equal(p[63], 3);
    p[((size_t)6 << 20) - 1] = 4;
    huge->free(huge->ctx, p, (size_t)6 << 20);
    /* a mapping the kernel cannot give is NULL */
    assert_null(huge->malloc(huge->ctx, SIZE_MAX - ((size_t)1 << 20)));
}

static void test_pool_arena_refuses_sizes_that_do_not_fit(void **state)
{
    (void)state;
    struct arena ar;
    arena_init(&ar, NULL);
    assert_null(arena_alloc_raw(&ar, SIZE_MAX - 3));
    assert_null(arena_alloc_array(&ar, SIZE_MAX / 2, 3));
    assert_null(arena_alloc_array_raw(&ar, SIZE_MAX / 2, 3));
    /* a first chunk, or one beside the head, that cannot have its header */
    assert_null(arena_alloc_raw(&ar, SIZE_MAX - 20));
    assert_non_null(arena_alloc(&ar, 64));
    assert_null(arena_alloc_raw(&ar, SIZE_MAX - 20));
    arena_release(&ar);
}

TEST_LIST("pool",
    cmocka_unit_test(test_pool_serves_many_parses_and_is_whole_again_after_each),
    cmocka_unit_test(test_pool_full_is_nomem_and_keeps_nothing),
    cmocka_unit_test(test_pool_full_names_its_size_the_request_and_its_largest_block),
    cmocka_unit_test(test_pool_blocks_are_aligned_distinct_and_reused),
    cmocka_unit_test(test_pool_refuses_a_buffer_too_small_or_missing),
    cmocka_unit_test(test_pool_huge_page_allocator_parses_like_malloc),
    cmocka_unit_test(test_pool_realloc_shrinks_in_place_and_frees_the_tail),
    cmocka_unit_test(test_pool_huge_page_allocator_moves_blocks_across_the_threshold),
    cmocka_unit_test(test_pool_arena_refuses_sizes_that_do_not_fit));
