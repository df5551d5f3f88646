/* A main() for the fuzz harnesses without libFuzzer: feeds every file named
 * on the command line, and every regular file under each directory named
 * (recursively), to LLVMFuzzerTestOneInput, in sorted order. Each input is
 * copied into a buffer of exactly its size so that sanitizers see reads
 * past the end. Prints "replayed N inputs" and exits 0; a failing oracle
 * aborts. A directory that cannot be read, or a run that found no input at
 * all, fails (exit 1): it would otherwise pass without testing anything. With -v, prints each path before running it. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int verbose;
static size_t replayed;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    /* exactly len bytes (one for an empty input, which is never read) */
    unsigned char *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, len);
    free(buf);
    if (verbose)
        fprintf(stderr, "replay: %s\n", path);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    replayed++;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: cannot stat %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    if (depth > 16)
        return 0;
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s\n", path);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    /* readdir says "no more" and "failed" both with NULL, apart by errno */
    while ((errno = 0, e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;   /* ., .., and hidden files such as .gitkeep */
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger) {
                rc = 1;
                break;
            }
            names = bigger;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) {
            rc = 1;
            break;
        }
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    if (!e && errno != 0) {
        fprintf(stderr, "replay: cannot read directory %s: %s\n", path, strerror(errno));
        rc = 1;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = replay_path(names[i], depth + 1);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
            continue;
        }
        if (argv[i][0] == '-')
            continue;   /* libFuzzer flags are accepted and ignored */
        rc |= replay_path(argv[i], 0);
    }
    printf("replayed %zu inputs\n", replayed);
    if (replayed == 0) {
        fprintf(stderr, "replay: no inputs found\n");
        rc = 1;
    }
    return rc;
}
