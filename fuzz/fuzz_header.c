/* Harness 1: whole .npy file bytes -> npydt_header_parse / npydt_parse_buffer.
 *
 * Oracles on success: the header's numbers agree (data offset, count =
 * product of the shape, data bytes = count * itemsize, fits the input when
 * npydt_parse_buffer accepts it); the dtype passes every root oracle
 * (leaf table, canonical print round trip, leaf type strings); the header
 * written back parses to the same dtype, shape and order. On failure: the
 * error value is complete and both entry points agree. */
#include "fuzz_util.h"

static void check_header(const npydt_header *h, size_t size)
{
    int major = npydt_header_version_major(h);
    FUZZ_CHECK(major >= 1 && major <= 3);
    FUZZ_CHECK(npydt_header_version_minor(h) == 0);
    uint64_t data_offset = npydt_header_data_offset(h);
    FUZZ_CHECK(data_offset == (uint64_t)npydt_header_len(h) + (major == 1 ? 10u : 12u));
    FUZZ_CHECK(data_offset <= size);
    size_t ndim = npydt_header_ndim(h);
    const uint64_t *shape = npydt_header_shape(h);
    FUZZ_CHECK(ndim <= 32);
    FUZZ_CHECK((ndim == 0) == (shape == NULL));
    /* NumPy's rule: a zero dimension empties the array whatever the others */
    uint64_t count = 1;
    for (size_t i = 0; i < ndim; i++)
        if (shape[i] == 0)
            count = 0;
    for (size_t i = 0; i < ndim && count; i++)
        count = fuzz_mul(count, shape[i]);
    FUZZ_CHECK(count == npydt_header_count(h));
    const npydt_dtype *dt = npydt_header_dtype(h);
    FUZZ_CHECK(dt != NULL);
    uint64_t bytes = fuzz_mul(count, npydt_dtype_itemsize(dt));
    FUZZ_CHECK(bytes == npydt_header_data_bytes(h));
    FUZZ_CHECK(fuzz_add(bytes, data_offset) <= (uint64_t)INT64_MAX);
    fuzz_check_root(dt);
    fuzz_check_header_write(dt, shape, ndim, npydt_header_fortran_order(h));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    npydt_header *h = (npydt_header *)&h;   /* must be reset to NULL on failure */
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_header_parse(data, size, NULL, &h, &err);

    npydt_header *whole = (npydt_header *)&whole;
    npydt_error err2;
    fuzz_poison_error(&err2);
    npydt_status st2 = npydt_parse_buffer(data, size, NULL, &whole, &err2);

    if (st != NPYDT_OK) {
        FUZZ_CHECK(h == NULL);
        fuzz_check_error(st, &err, size);
        /* the header is all npydt_parse_buffer reads first */
        FUZZ_CHECK(st2 == st && whole == NULL);
        FUZZ_CHECK(err2.offset == err.offset && strcmp(err2.message, err.message) == 0);
        return 0;
    }
    FUZZ_CHECK(h != NULL);
    check_header(h, size);

    uint64_t end = npydt_header_data_offset(h) + npydt_header_data_bytes(h);
    npydt_error err3;
    fuzz_poison_error(&err3);
    npydt_status st3 = npydt_header_check_data(h, size - npydt_header_data_offset(h), &err3);
    /* object arrays hold a pickle: count * itemsize does not apply */
    if (end <= size || npydt_dtype_has_object(npydt_header_dtype(h))) {
        FUZZ_CHECK(st2 == NPYDT_OK && whole != NULL);
        FUZZ_CHECK(st3 == NPYDT_OK);
        FUZZ_CHECK(npydt_dtype_equal(npydt_header_dtype(whole), npydt_header_dtype(h)));
        FUZZ_CHECK(npydt_header_data_offset(whole) == npydt_header_data_offset(h));
        FUZZ_CHECK(npydt_header_data_bytes(whole) == npydt_header_data_bytes(h));
        FUZZ_CHECK(npydt_header_count(whole) == npydt_header_count(h));
        FUZZ_CHECK(npydt_header_fortran_order(whole) == npydt_header_fortran_order(h));
        npydt_header_free(whole);
    } else {
        FUZZ_CHECK(st2 == NPYDT_E_DATA && whole == NULL);
        fuzz_check_error(st2, &err2, size);
        FUZZ_CHECK(st3 == NPYDT_E_DATA);
        fuzz_check_error(st3, &err3, size);
    }
    npydt_header_free(h);
    return 0;
}
