/* A fresh folder per test, removed with everything in it by teardown: the
 * cmocka setup and teardown of the tests that write files. */
#ifndef NPYDT_TEST_SCRATCH_H
#define NPYDT_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#endif
