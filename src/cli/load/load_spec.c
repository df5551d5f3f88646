/* load --dtype SPEC: the dtype of the records, from the text check
 * --schema takes (a descriptor literal, a type string or a header dict,
 * compiled as a schema), from @PATH holding such text, or from a file:
 * @FILE.npy (by its first bytes; an archive too) or like:FILE (any input
 * a command takes, ARCHIVE.npz:NAME included), which also give the other
 * dimensions and the memory order. */
#include "cli/load/load.h"
#include "cli/common/input.h"
#include "cli/common/args.h"
#include "cli/common/report.h"
#include "cli/common/spec.h"

#include <stdlib.h>
#include <string.h>

static int from_file(const struct cli_command *cmd, const char *arg, struct load_spec *spec)
{
    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    int status = cli_inputs_add(&inputs, arg);
    if (status == EXIT_OK && inputs.count != 1)
        status = cli_usage(cmd, "--dtype: '%s' holds %zu arrays: name one as '%s:NAME'", arg,
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

int load_spec_read(const struct cli_command *cmd, const char *arg, struct load_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    const char *file = cli_spec_file(arg);
    if (file)
        return from_file(cmd, file, spec);
    char *text;
    size_t len;
    int status = cli_spec_text(cmd, "--dtype", arg, &text, &len);
    if (status != EXIT_OK)
        return status;
    npydt_error err;
    npydt_status st = npydt_schema_compile(text, len, NULL, &spec->schema, &err);
    free(text);
    if (st != NPYDT_OK)
        return cli_report_spec("--dtype", &err);
    spec->dtype = npydt_schema_dtype(spec->schema);
    if (!spec->dtype) {
        load_spec_free(spec);
        return cli_usage(cmd, "--dtype: the spec gives no dtype");
    }
    return EXIT_OK;
}

void load_spec_free(struct load_spec *spec)
{
    npydt_schema_free(spec->schema);
    npydt_header_free(spec->header);
    memset(spec, 0, sizeof *spec);
}
