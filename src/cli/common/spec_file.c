/* Schema specs that come from files: the header-like dict of a .npy file
 * (what `npydt schema` prints), and the text of a --schema argument,
 * which may be the spec itself, @PATH (a text spec, or a .npy / .npz file
 * whose header is taken) or like:FILE (any input a command takes). */
#include "cli/common/spec.h"
#include "cli/common/input.h"
#include "cli/common/args.h"
#include "cli/common/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Largest text spec read from a file, as for headers. */
#define MAX_SPEC_BYTES ((size_t)64 << 20)

/* The dict of h with the shape spelled dims: np.save's dict up to its
 * 'shape' value (the dict of a 0-d array without its "(), }"), then the
 * tuple, then ", }". NULL when out of memory. */
static char *dict_with_shape(const npydt_header *h, const int64_t *dims, size_t ndim)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    int fortran = npydt_header_fortran_order(h);
    static const char tail[] = "(), }";
    size_t n = npydt_header_dict(dt, NULL, 0, fortran, NULL, 0);
    char *lead = n < SIZE_MAX ? malloc(n + 1) : NULL;
    if (!lead)
        return NULL;
    npydt_header_dict(dt, NULL, 0, fortran, lead, n + 1);
    struct text_buf b = text_buf_growing(text_libc_realloc, NULL, n + 32);
    text_buf_write(&b, lead, n - (sizeof tail - 1));
    free(lead);
    text_shape_tuple_signed(&b, dims, ndim);
    text_buf_puts(&b, ", }");
    text_buf_putc(&b, '\0');
    if (b.failed) {
        text_buf_free(&b);
        return NULL;
    }
    return b.buf;
}

char *cli_spec_of_header(const npydt_header *h, int any_length)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    const uint64_t *shape = npydt_header_shape(h);
    size_t ndim = npydt_header_ndim(h);
    int fortran = npydt_header_fortran_order(h);
    if (any_length && ndim > 0) {
        int64_t *dims = malloc(ndim * sizeof *dims);
        if (!dims)
            return NULL;
        dims[0] = -1;
        for (size_t i = 1; i < ndim; i++)
            dims[i] = (int64_t)shape[i];  /* a header's dimensions fit an int64 */
        char *text = dict_with_shape(h, dims, ndim);
        free(dims);
        return text;
    }
    size_t n = npydt_header_dict(dt, shape, ndim, fortran, NULL, 0);
    char *text = n < SIZE_MAX ? malloc(n + 1) : NULL;
    if (text)
        npydt_header_dict(dt, shape, ndim, fortran, text, n + 1);
    return text;
}

int cli_spec_of_input(const struct cli_command *cmd, const char *arg, const char *what,
                      int any_length, char **out)
{
    *out = NULL;
    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    int status = cli_inputs_add(&inputs, arg);
    if (status == EXIT_OK && inputs.count != 1)
        status = cli_usage(cmd, "%s%s'%s' holds %zu arrays, and a spec describes one: name a "
                           "member as '%s:NAME'",
                           what ? what : "", what ? ": " : "", arg, inputs.count, arg);
    npydt_header *h = NULL;
    npydt_error err;
    if (status == EXIT_OK && cli_input_header(&inputs.items[0], &h, &err) != NPYDT_OK)
        status = cli_report(inputs.items[0].name, &err);
    if (status == EXIT_OK && !(*out = cli_spec_of_header(h, any_length)))
        status = cli_failure("out of memory");
    npydt_header_free(h);
    cli_inputs_free(&inputs);
    return status;
}

/* Read the whole of path into a malloc'd, NUL-terminated buffer. */
static int read_text(const char *what, const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cli_fail(path, NPYDT_E_IO, "%s: cannot read: %s", what, TEXT_ERRNO(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    const char *problem = buf ? NULL : "out of memory";
    char why[TEXT_ERRNO_MAX];
    npydt_status code = buf ? NPYDT_E_IO : NPYDT_E_NOMEM;
    while (!problem) {
        if (n == cap - 1) {
            char *bigger = cap <= MAX_SPEC_BYTES ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                problem = cap <= MAX_SPEC_BYTES ? "out of memory" : "larger than 64 MiB";
                code = cap <= MAX_SPEC_BYTES ? NPYDT_E_NOMEM : NPYDT_E_ARG;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                problem = text_errno(errno, why, sizeof why);
            break;
        }
    }
    fclose(f);
    if (problem) {
        free(buf);
        return cli_fail(path, code, "%s: cannot read: %s", what, problem);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return EXIT_OK;
}

/* 1 when path is a regular file that starts with the .npy magic string
 * (only regular files are looked at: a peek would eat a pipe's bytes).
 * Read without stdio, as cli_is_archive does: no allocation that could
 * fail and pass a .npy file off as a text spec. */
static int starts_as_npy(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;   /* read as a text spec, which then says why it cannot be */
    unsigned char magic[6];
    ssize_t n = read(fd, magic, sizeof magic);
    close(fd);
    /* whole, the magic string is too short to tell the rest */
    uint64_t total;
    return n == (ssize_t)sizeof magic &&
           npydt_header_size(magic, sizeof magic, NULL, &total, NULL) == NPYDT_E_TRUNCATED;
}

const char *cli_spec_file(const char *arg)
{
    if (strncmp(arg, "like:", 5) == 0)
        return arg + 5;
    if (arg[0] == '@' && (starts_as_npy(arg + 1) || cli_is_archive(arg + 1)))
        return arg + 1;
    return NULL;
}

int cli_spec_text(const struct cli_command *cmd, const char *what, const char *arg, char **out,
                  size_t *len)
{
    *out = NULL;
    const char *file = cli_spec_file(arg);
    if (file) {
        int status = cli_spec_of_input(cmd, file, what, 1, out);
        if (status == EXIT_OK)
            *len = strlen(*out);
        return status;
    }
    if (arg[0] == '@')
        return read_text(what, arg + 1, out, len);
    *len = strlen(arg);
    if (!(*out = strdup(arg)))
        return cli_failure("out of memory");
    return EXIT_OK;
}

int cli_text_arg(const char *what, const char *arg, char **out, size_t *len)
{
    *out = NULL;
    if (arg[0] == '@')
        return read_text(what, arg + 1, out, len);
    *len = strlen(arg);
    if (!(*out = strdup(arg)))
        return cli_failure("out of memory");
    return EXIT_OK;
}
