/* The text stage's byte buffer (src/text/buffer.c): measuring over a
 * caller's array, growing through a caller's allocator. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "text/text.h"

/* An allocator that counts its calls, holds what it has given out, and
 * refuses every call once `fail_from` calls have been made. */
struct counting {
    size_t calls, fail_from, live;
    size_t last_new_size;
};

static void *counting_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    struct counting *c = ctx;
    c->calls++;
    c->last_new_size = new_size;
    if (new_size == 0) {
        if (ptr)
            c->live -= old_size;
        free(ptr);
        return NULL;
    }
    if (c->calls > c->fail_from)
        return NULL;
    void *p = realloc(ptr, new_size);
    if (p)
        c->live += new_size - old_size;
    return p;
}

static void test_text_buffer_measuring_counts_what_does_not_fit(void **state)
{
    (void)state;
    char a[4];
    struct text_buf b = text_buf_fixed(a, sizeof a);
    text_buf_puts(&b, "hello");
    assert_int_equal(b.len, 5);
    assert_false(b.failed);
}

static void test_text_buffer_measuring_holds_first_size_minus_one(void **state)
{
    (void)state;
    char a[4];
    struct text_buf b = text_buf_fixed(a, sizeof a);
    text_buf_puts(&b, "hel");
    text_buf_putc(&b, 'l');
    text_buf_terminate(&b);
    assert_string_equal(a, "hel");
}

static void test_text_buffer_measuring_over_nothing_measures(void **state)
{
    (void)state;
    struct text_buf b = text_buf_fixed(NULL, 0);
    text_buf_puts(&b, "abc");
    text_buf_write(&b, "de", 2);
    text_buf_terminate(&b);
    assert_int_equal(b.len, 5);
}

static void test_text_buffer_measuring_room_beyond_array_fails(void **state)
{
    (void)state;
    char a[4];
    struct text_buf b = text_buf_fixed(a, sizeof a);
    text_buf_puts(&b, "abcdef");
    assert_null(text_buf_room(&b, 1));
    assert_true(b.failed);
}

static void test_text_buffer_growing_takes_first_capacity(void **state)
{
    (void)state;
    struct counting c = {.fail_from = SIZE_MAX};
    struct text_buf b = text_buf_growing(counting_realloc, &c, 16);
    text_buf_putc(&b, 'x');
    assert_int_equal(b.cap, 16);
    assert_int_equal(c.calls, 1);
    text_buf_free(&b);
}

static void test_text_buffer_growing_doubles_to_fit(void **state)
{
    (void)state;
    struct counting c = {.fail_from = SIZE_MAX};
    struct text_buf b = text_buf_growing(counting_realloc, &c, 16);
    char big[100];
    memset(big, 'a', sizeof big);
    text_buf_write(&b, big, sizeof big);
    assert_int_equal(b.cap, 128);
    assert_int_equal(b.len, 100);
    assert_memory_equal(b.buf, big, sizeof big);
    assert_int_equal(c.calls, 1);
    text_buf_free(&b);
}

static void test_text_buffer_growing_failure_drops_what_follows(void **state)
{
    (void)state;
    struct counting c = {.fail_from = 1};
    struct text_buf b = text_buf_growing(counting_realloc, &c, 4);
    text_buf_puts(&b, "abcd");
    text_buf_puts(&b, "efgh");   /* needs a second block: refused */
    assert_true(b.failed);
    text_buf_puts(&b, "i");
    assert_int_equal(b.len, 4);
    assert_memory_equal(b.buf, "abcd", 4);
    assert_int_equal(c.calls, 2);   /* nothing asked after the failure */
    text_buf_free(&b);
    assert_int_equal(c.live, 0);
}

/* A short piece that would still fit in the block held is dropped too:
 * the text never has a hole where the refused piece was. */
static void test_text_buffer_growing_failure_drops_pieces_that_still_fit(void **state)
{
    (void)state;
    struct counting c = {.fail_from = 1};
    struct text_buf b = text_buf_growing(counting_realloc, &c, 8);
    text_buf_puts(&b, "abcd");
    text_buf_puts(&b, "efghijkl");   /* needs a second block: refused */
    assert_true(b.failed);
    text_buf_puts(&b, "x");          /* fits the first block */
    assert_null(text_buf_room(&b, 1));
    assert_int_equal(b.len, 4);
    assert_memory_equal(b.buf, "abcd", 4);
    text_buf_free(&b);
    assert_int_equal(c.live, 0);
}

static void test_text_buffer_growing_refuses_overflowing_size(void **state)
{
    (void)state;
    struct counting c = {.fail_from = SIZE_MAX};
    struct text_buf b = text_buf_growing(counting_realloc, &c, 16);
    text_buf_putc(&b, 'x');
    assert_null(text_buf_reserve(&b, SIZE_MAX));
    assert_true(b.failed);
    assert_int_equal(c.calls, 1);   /* no allocation was asked for */
    text_buf_free(&b);
}

static void test_text_buffer_room_then_length(void **state)
{
    (void)state;
    struct text_buf b = text_buf_growing(text_libc_realloc, NULL, 0);
    char *p = text_buf_room(&b, 3);
    assert_non_null(p);
    memcpy(p, "xy", 2);
    b.len += 2;
    text_buf_putc(&b, 'z');
    assert_int_equal(b.len, 3);
    assert_memory_equal(b.buf, "xyz", 3);
    text_buf_free(&b);
}

static void test_text_buffer_free_gives_memory_back(void **state)
{
    (void)state;
    struct counting c = {.fail_from = SIZE_MAX};
    struct text_buf b = text_buf_growing(counting_realloc, &c, 8);
    text_buf_puts(&b, "some text longer than eight bytes");
    text_buf_free(&b);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.last_new_size, 0);
    assert_null(b.buf);
    assert_int_equal(b.len, 0);
}

TEST_LIST("text_buffer",
          cmocka_unit_test(test_text_buffer_measuring_counts_what_does_not_fit),
          cmocka_unit_test(test_text_buffer_measuring_holds_first_size_minus_one),
          cmocka_unit_test(test_text_buffer_measuring_over_nothing_measures),
          cmocka_unit_test(test_text_buffer_measuring_room_beyond_array_fails),
          cmocka_unit_test(test_text_buffer_growing_takes_first_capacity),
          cmocka_unit_test(test_text_buffer_growing_doubles_to_fit),
          cmocka_unit_test(test_text_buffer_growing_failure_drops_what_follows),
          cmocka_unit_test(test_text_buffer_growing_failure_drops_pieces_that_still_fit),
    cmocka_unit_test(test_text_buffer_growing_refuses_overflowing_size),
          cmocka_unit_test(test_text_buffer_room_then_length),
          cmocka_unit_test(test_text_buffer_free_gives_memory_back));
