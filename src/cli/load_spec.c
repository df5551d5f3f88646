/* load --dtype SPEC: the dtype of the records, from the text check
 * --schema takes (a descriptor literal, a type string or a header dict,
 * compiled as a schema), from @PATH holding such text, or from a file:
 * @FILE.npy (by its first bytes; an archive too) or like:FILE (any input
 * a command takes, ARCHIVE.npz:NAME included), which also give the other
 * dimensions and the memory order. */
#include "load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest text spec read from a file. */
#define MAX_SPEC_TEXT ((size_t)1 << 20)

/* 1 when path is a regular file that starts with the .npy magic (a pipe
 * is not peeked at: its bytes would be lost). */
static int starts_as_npy(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char magic[6];
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    return n == sizeof magic && memcmp(magic, "\x93NUMPY", 6) == 0;
}

static int from_file(const char *arg, struct load_spec *spec)
{
    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    int status = cli_inputs_add(&inputs, arg);
    if (status == EXIT_OK && inputs.count != 1)
        status = cli_usage_error("--dtype: '%s' holds %zu arrays: name one as '%s:NAME'", arg,
                                 inputs.count, arg);
    npydt_error err;
    if (status == EXIT_OK && cli_input_header(&inputs.items[0], &spec->header, &err) != NPYDT_OK)
        status = cli_report(inputs.items[0].name, &err);
    cli_inputs_free(&inputs);
    if (status != EXIT_OK)
        return status;
    spec->dtype = npydt_header_dtype(spec->header);
    spec->has_shape = 1;
    spec->ndim = npydt_header_ndim(spec->header);
    spec->shape = npydt_header_shape(spec->header);
    spec->fortran_order = npydt_header_fortran_order(spec->header);
    return EXIT_OK;
}

static int read_text(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cli_usage_error("--dtype: cannot read '%s': %s", path, strerror(errno));
    char *buf = malloc(MAX_SPEC_TEXT + 1);
    size_t n = buf ? fread(buf, 1, MAX_SPEC_TEXT + 1, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad || n > MAX_SPEC_TEXT) {
        free(buf);
        return cli_usage_error("--dtype: cannot read '%s': %s", path,
                               !buf ? "out of memory" : bad ? "read error" : "larger than 1 MiB");
    }
    *out = buf;
    *len = n;
    return EXIT_OK;
}

int load_spec_read(const char *arg, struct load_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    if (strncmp(arg, "like:", 5) == 0)
        return from_file(arg + 5, spec);
    if (arg[0] == '@' && (starts_as_npy(arg + 1) || cli_is_archive(arg + 1)))
        return from_file(arg + 1, spec);
    char *owned = NULL;
    const char *text = arg;
    size_t len = strlen(arg);
    if (arg[0] == '@') {
        int status = read_text(arg + 1, &owned, &len);
        if (status != EXIT_OK)
            return status;
        text = owned;
    }
    npydt_error err;
    npydt_status st = npydt_schema_compile(text, len, NULL, &spec->schema, &err);
    free(owned);
    if (st != NPYDT_OK)
        return cli_report_spec("--dtype", &err);
    spec->dtype = npydt_schema_dtype(spec->schema);
    if (!spec->dtype) {
        load_spec_free(spec);
        return cli_usage_error("--dtype: the spec gives no dtype");
    }
    return EXIT_OK;
}

void load_spec_free(struct load_spec *spec)
{
    npydt_schema_free(spec->schema);
    npydt_header_free(spec->header);
    memset(spec, 0, sizeof *spec);
}
