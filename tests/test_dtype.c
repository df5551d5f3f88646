/* Descriptor literals and type strings become the dtypes NumPy builds. */
#include "test_util.h"

#include <string.h>

static void test_dtype_typestr_little_f8(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<f8'");
    assert_int_equal(npydt_dtype_get_class(dt), NPYDT_SCALAR);
    assert_int_equal(npydt_dtype_kind(dt), 'f');
    assert_int_equal(npydt_dtype_byteorder(dt), '<');
    assert_int_equal(npydt_dtype_itemsize(dt), 8);
    npydt_dtype_free(dt);
}

TEST_LIST("dtype",
    cmocka_unit_test(test_dtype_typestr_little_f8),
);
