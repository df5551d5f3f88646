/* The Arrow export's batches under allocation failure: for every fixture
 * the export takes, the k-th allocation made by get_next fails, for every
 * k until a stream runs through; get_next then reports ENOMEM and an
 * error, gives no array, and nothing stays allocated once the batches
 * given and the stream are released. Every batch given on the way passes
 * the structural validator (arrow_test.h). */
#include "arrow_test.h"

/* Read the stream over r with batches of two rows, the allocation k
 * after the stream's opening failing; true when the stream ran through. */
static int run_failing(npydt_reader *r, long k, const char *name)
{
    struct test_alloc ta;
    test_alloc_init(&ta, -1, 0);
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.base.allocator = &ta.alloc;
    o.batch_rows = 2;
    struct ArrowArrayStream st;
    struct ArrowSchema s;
    TEST_ERROR(err);
    if (npydt_arrow_stream_open(r, &o, &st, &err) != NPYDT_OK)
        fail_msg("%s: %s", name, err.message);
    assert_int_equal(st.get_schema(&st, &s), 0);
    ta.fail_at = ta.calls + k;
    int rc;
    for (;;) {
        struct ArrowArray a;
        rc = st.get_next(&st, &a);
        if (rc != 0) {
            if (rc != ENOMEM)
                fail_msg("%s: allocation %ld: get_next gave %d", name, k, rc);
            assert_null(a.release);
            assert_non_null(st.get_last_error(&st));
            assert_int_equal(npydt_arrow_stream_error(&st, &err), NPYDT_OK);
            assert_int_equal(err.code, NPYDT_E_NOMEM);
            break;
        }
        if (!a.release)
            break;
        arrow_validate(&s, &a);
        a.release(&a);
    }
    s.release(&s);
    st.release(&st);
    if (ta.live_blocks != 0)
        fail_msg("%s: allocation %ld failed: %ld blocks left", name, k, ta.live_blocks);
    return rc == 0;
}

/* Fixture name's stream failing at each allocation in turn until it runs
 * through; the runs are added to *(long *)runs. */
static void fails_cleanly(const char *name, void *runs)
{
    npydt_reader *r = test_open_fixture(name);
    long k = 0;
    while (!run_failing(r, k, name)) {
        k++;
        assert_true(k < 100000);
    }
    *(long *)runs += k + 1;
    npydt_reader_close(r);
}

static void test_arrow_faults_get_next_fails_cleanly_at_every_allocation(void **state)
{
    (void)state;
    long runs = 0;
    for_each_arrow_fixture(fails_cleanly, &runs);
    assert_true(runs > 1000);
}

TEST_LIST("arrow_faults",
          cmocka_unit_test(test_arrow_faults_get_next_fails_cleanly_at_every_allocation));
