/* A very large header parsed again and again with the default allocator:
 * the arena blocks of 4 MiB and more are mapped with huge pages asked
 * for, so a parse after the first takes a page fault per 2 MiB it
 * writes, not one per 4 KiB (malloc hands blocks that large back to the
 * kernel on free, and each parse faulted them in again). Counted with
 * getrusage's minor faults; skipped where the kernel gives no huge pages
 * on request, under valgrind or an emulator and in sanitizer builds (whose own mappings
 * fault). */
#include "test_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static long minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* Does the kernel give huge pages to a mapping that asks (madvise or
 * always)? */
static bool huge_pages_on_request(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f)
        return false;
    char line[128] = "";
    bool ok = fgets(line, sizeof line, f) && !strstr(line, "[never]");
    fclose(f);
    return ok;
}

static bool under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload");
}

/* tests/run_tests.sh names the emulator the programs run under (qemu
 * maps the guest's memory its own way) */
static bool under_emulator(void)
{
    const char *e = getenv("EXEC");
    return e && *e;
}

/* A .npy header of n '<f8' fields, as np.save writes it. */
static unsigned char *wide_header(size_t nfields, size_t *len)
{
    size_t cap = nfields * 24 + 16, at = 0;
    char *descr = malloc(cap);
    assert_non_null(descr);
    descr[at++] = '[';
    for (size_t i = 0; i < nfields; i++)
        at += (size_t)snprintf(descr + at, cap - at, "%s('f%07zu', '<f8')", i ? ", " : "", i);
    descr[at++] = ']';
    npydt_options o;
    npydt_options_init(&o);
    o.limits.max_fields = nfields;
    o.limits.max_header_bytes = (size_t)64 << 20;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse_descr(descr, at, &o, &dt, &err), NPYDT_OK);
    free(descr);
    uint64_t shape[1] = {1000};
    size_t n = npydt_header_write(dt, shape, 1, 0, NULL, 0, &err);
    assert_true(n > 0);
    unsigned char *buf = malloc(n);
    assert_non_null(buf);
    assert_int_equal(npydt_header_write(dt, shape, 1, 0, buf, n, &err), n);
    npydt_dtype_free(dt);
    *len = n;
    return buf;
}

static void test_header_pages_big_parse_faults_a_page_per_2_mib(void **state)
{
    (void)state;
    if (SANITIZED || under_valgrind() || under_emulator() || !huge_pages_on_request())
        skip();
    /* a 6 MB header: its parse holds some 100 MB, blocks of up to 36 MB */
    size_t nfields = 300000, len;
    unsigned char *buf = wide_header(nfields, &len);
    npydt_options o;
    npydt_options_init(&o);
    o.limits.max_fields = nfields;
    o.limits.max_header_bytes = (size_t)64 << 20;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse(buf, len, &o, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    int parses = 3;
    long before = minor_faults();
    for (int i = 0; i < parses; i++) {
        assert_int_equal(npydt_header_parse(buf, len, &o, &h, &err), NPYDT_OK);
        npydt_header_free(h);
    }
    long per_parse = (minor_faults() - before) / parses;
    /* 4 KiB pages fault about 20,000 times a parse; 2 MiB ones about 50 */
    if (per_parse > 2000)
        fail_msg("%ld minor page faults a parse of a %zu-byte header", per_parse, len);
    free(buf);
}

TEST_LIST("header_pages",
    cmocka_unit_test(test_header_pages_big_parse_faults_a_page_per_2_mib),
);
