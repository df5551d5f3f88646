/* The text stage's bytes: the host's byte order, and 1/2/4/8-byte loads
 * and stores at any address, byte swapped or not. */
#include "test_util.h"

#include "text/text.h"

#include <stdint.h>
#include <string.h>

static void test_text_bytes_host_order_is_the_order_of_memory(void **state)
{
    (void)state;
    const uint32_t word = 0x01020304;
    unsigned char first;
    memcpy(&first, &word, 1);
    assert_int_equal(TEXT_HOST_ORDER, first == 4 ? '<' : '>');
    assert_int_equal(TEXT_HOST_BIG, first == 1);
    assert_true(text_order_swaps(TEXT_HOST_BIG ? '<' : '>'));
    assert_false(text_order_swaps(TEXT_HOST_ORDER));
    assert_false(text_order_swaps('|'));
    assert_false(text_order_swaps('='));
}

static void test_text_bytes_loads_read_either_order_at_odd_addresses(void **state)
{
    (void)state;
    /* little-endian bytes of 0x0807060504030201 one past an aligned address */
    const unsigned char b[9] = {0xff, 1, 2, 3, 4, 5, 6, 7, 8};
    bool big = TEXT_HOST_BIG;
    assert_int_equal(text_load16(b + 1, big), 0x0201);
    assert_int_equal(text_load16(b + 1, !big), 0x0102);
    assert_int_equal(text_load32(b + 1, big), 0x04030201);
    assert_int_equal(text_load32(b + 1, !big), 0x01020304);
    assert_true(text_load64(b + 1, big) == UINT64_C(0x0807060504030201));
    assert_true(text_load64(b + 1, !big) == UINT64_C(0x0102030405060708));
    assert_int_equal(text_load_uint(b + 1, 1, !big), 1);
    assert_int_equal(text_load_uint(b + 1, 2, big), 0x0201);
    assert_int_equal(text_load_uint(b + 1, 4, !big), 0x01020304);
    assert_true(text_load_uint(b + 1, 8, big) == UINT64_C(0x0807060504030201));
}

static void test_text_bytes_stores_write_either_order_and_no_more(void **state)
{
    (void)state;
    bool big = TEXT_HOST_BIG;
    unsigned char b[10];
    static const unsigned char le[] = {0xee, 1, 2, 3, 4, 5, 6, 7, 8, 0xee};
    static const unsigned char be[] = {0xee, 8, 7, 6, 5, 4, 3, 2, 1, 0xee};
    memset(b, 0xee, sizeof b);
    text_store64(b + 1, big, UINT64_C(0x0807060504030201));
    assert_memory_equal(b, le, sizeof b);
    text_store_uint(b + 1, 8, !big, UINT64_C(0x0807060504030201));
    assert_memory_equal(b, be, sizeof b);
    memset(b, 0xee, sizeof b);
    text_store32(b + 1, big, 0x04030201);
    assert_memory_equal(b, le, 5);
    assert_int_equal(b[5], 0xee);
    text_store_uint(b + 1, 2, !big, 0xabcd0102);   /* the low 2 bytes */
    assert_int_equal(b[1], 1);
    assert_int_equal(b[2], 2);
    assert_int_equal(b[3], 3);
    text_store_uint(b + 1, 1, big, 0x1ff);
    assert_int_equal(b[1], 0xff);
    assert_int_equal(b[2], 2);
}

static void test_text_bytes_floats_are_their_bits(void **state)
{
    (void)state;
    assert_true(text_bits_of_f64(1.0) == UINT64_C(0x3ff0000000000000));
    assert_true(text_f64_of_bits(UINT64_C(0xc000000000000000)) == -2.0);
    assert_int_equal(text_bits_of_f32(1.0f), 0x3f800000);
    assert_true(text_f32_of_bits(0x40400000) == 3.0f);
}

TEST_LIST("text_bytes",
    cmocka_unit_test(test_text_bytes_host_order_is_the_order_of_memory),
    cmocka_unit_test(test_text_bytes_loads_read_either_order_at_odd_addresses),
    cmocka_unit_test(test_text_bytes_stores_write_either_order_and_no_more),
    cmocka_unit_test(test_text_bytes_floats_are_their_bits));
