/* Harness 2: the input alone as a descriptor literal (the value of
 * 'descr') and as a NumPy type string.
 *
 * Oracles on success: every root oracle (leaf table against the tree,
 * canonical print round trip, leaf type strings) and a header written for
 * the dtype parses back. A type string made of plain printable characters
 * gives the same answer as the same text quoted as a literal. */
#include "fuzz_util.h"

static void check_result(npydt_status st, npydt_dtype *dt, const npydt_error *err, size_t size)
{
    if (st != NPYDT_OK) {
        FUZZ_CHECK(dt == NULL);
        fuzz_check_error(st, err, size);
        return;
    }
    FUZZ_CHECK(dt != NULL);
    fuzz_check_root(dt);
    static const uint64_t shape[2] = {3, 2};
    fuzz_check_header_write(dt, NULL, 0, 0);
    fuzz_check_header_write(dt, shape, 2, 1);
}

/* Printable ASCII with no quote or backslash reads the same in quotes. */
static int plain(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size; i++)
        if (data[i] < 0x20 || data[i] > 0x7e || data[i] == '\'' || data[i] == '\\')
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    npydt_dtype *dt = (npydt_dtype *)&dt;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_header_parse_descr(text, size, NULL, &dt, &err);
    check_result(st, dt, &err, size);
    npydt_dtype_free(dt);

    npydt_dtype *ts = (npydt_dtype *)&ts;
    fuzz_poison_error(&err);
    npydt_status tst = npydt_dtype_parse_typestr(text, size, NULL, &ts, &err);
    check_result(tst, ts, &err, size);

    if (plain(data, size)) {
        char *quoted = malloc(size + 2);
        FUZZ_CHECK(quoted != NULL);
        quoted[0] = '\'';
        if (size)
            memcpy(quoted + 1, data, size);
        quoted[size + 1] = '\'';
        npydt_dtype *q = (npydt_dtype *)&q;
        fuzz_poison_error(&err);
        npydt_status qst = npydt_header_parse_descr(quoted, size + 2, NULL, &q, &err);
        check_result(qst, q, &err, size + 2);
        FUZZ_CHECK(qst == tst);
        if (qst == NPYDT_OK)
            FUZZ_CHECK(npydt_dtype_equal(q, ts));
        npydt_dtype_free(q);
        free(quoted);
    }
    npydt_dtype_free(ts);
    return 0;
}
