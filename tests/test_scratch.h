/* A fresh folder per test, removed with everything in it by teardown: the
 * cmocka setup and teardown of the tests that write files; and the dirty
 * pages of a file they wrote. */
#ifndef NPYDT_TEST_SCRATCH_H
#define NPYDT_TEST_SCRATCH_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* syscall */
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>
#endif

struct scratch {
    char dir[64];
    char path[128];  /* dir/out.npy */
};

static int setup(void **state)
{
    struct scratch *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    strcpy(s->dir, "/tmp/npydt_test_XXXXXX");
    if (!mkdtemp(s->dir)) {
        free(s);
        return -1;
    }
    snprintf(s->path, sizeof s->path, "%s/out.npy", s->dir);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    struct scratch *s = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    int rc = system(cmd);
    free(s);
    return rc == 0 ? 0 : -1;
}

/* Pages of fd's [0, len) in the page cache that are dirty (not yet handed
 * to the disk), by Linux's cachestat (6.5 and later: system call 451 on
 * every architecture but alpha); -1 where it cannot be asked, or where the
 * file system (tmpfs) writes nothing to a disk. */
static inline long test_dirty_pages(int fd, uint64_t len)
{
#if defined(__linux__) && !defined(__alpha__)
    struct statfs fs;
    if (fstatfs(fd, &fs) != 0 || fs.f_type == 0x01021994 /* tmpfs */)
        return -1;
    struct { uint64_t off, len; } range = {0, len};
    struct { uint64_t cache, dirty, writeback, evicted, recently_evicted; } cs;
    if (syscall(451, fd, &range, &cs, 0) != 0)
        return -1;
    return (long)cs.dirty;
#else
    (void)fd, (void)len;
    return -1;
#endif
}

#endif
