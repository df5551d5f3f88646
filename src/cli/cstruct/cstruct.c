/* npydt cstruct: print C11 declarations for the record type of a file or
 * of a descriptor, as the library's npydt_cstruct_* write them. */
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/report.h"
#include "cli/cstruct/cstruct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OPT_NAME = 1, OPT_DESCR };

static const struct cli_option cstruct_options[] = {
    {OPT_NAME, "name", 0, "NAME", "tag of the record struct (default npy_record)"},
    {OPT_DESCR, "descr", 0, "DESCR", "use DESCR instead of a file"},
};

static const struct cli_command cstruct_command = {
    "cstruct",
    "cstruct [--name NAME] FILE|DESCR\n"
    "cstruct [--name NAME] --descr DESCR",
    "Print C11 declarations for the record type of the .npy FILE, or of DESCR:\n"
    "a descriptor literal as in a header (\"[('x', '<f8'), ('n', '<i4')]\") or a\n"
    "NumPy type string (\"i4, (2,3)f8\"). An operand that names no existing\n"
    "file and does not look like a path (no '/', no .npy or .npz ending) is a\n"
    "DESCR. The output has one struct per nested\n"
    "struct (declared before use), arrays for subarrays, explicit padding\n"
    "members, packing where NumPy's layout is not the natural C one,\n"
    "static_asserts on every offset and on the size, and a comment on each\n"
    "member giving its NumPy type and byte order. It compiles as C11 and as\n"
    "C++11 with -Wall -Wextra -Werror -pedantic, so a program can read a\n"
    "native-order file through a cast.\n"
    "\n"
    "FILE may be ARCHIVE.npz:NAME (one member, declared as a file would be) or\n"
    "ARCHIVE.npz: one set of declarations per member, in one translation unit,\n"
    "the root of member M.npy named NAME_M (characters that cannot be in a C\n"
    "identifier become '_'; _2, _3, ... are appended where two would clash).\n"
    "Nested structs are named NAME_FIELD, NAME_FIELD_SUBFIELD, ...\n"
    "\n"
    "Field names that are not C identifiers are sanitised (the original name is\n"
    "kept in a comment). Object ('O') dtypes have no C layout: exit 3.\n"
    "Exit 0 on success, 2 on usage errors or unreadable paths, 3 for an\n"
    "invalid file or descriptor. FILE may be '-' (standard input) or a pipe.\n",
    cstruct_options, sizeof cstruct_options / sizeof cstruct_options[0], 1,
};

/* A descriptor literal, else a type string; the error reported is the one
 * of the form the text looks like. */
static npydt_status parse_descr(const char *text, npydt_dtype **out, npydt_error *err)
{
    npydt_error lit_err;
    size_t len = strlen(text);
    if (npydt_header_parse_descr(text, len, NULL, out, &lit_err) == NPYDT_OK)
        return NPYDT_OK;
    npydt_status st = npydt_dtype_parse_typestr(text, len, NULL, out, err);
    if (st == NPYDT_OK)
        return NPYDT_OK;
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    if (*p == '[' || *p == '\'' || *p == '"' || *p == '{' || lit_err.code == NPYDT_E_NOMEM) {
        *err = lit_err;
        return lit_err.code;
    }
    return st;
}

/* ---- one archive, one translation unit ------------------------------------- */

static void put_file(void *f, const char *s, size_t n)
{
    fwrite(s, 1, n, f);
}

/* A failed write of the unit: its temporary file (exit 2), as any
 * failing output. */
static int write_failed(const npydt_error *err)
{
    return err->code == NPYDT_E_NOMEM ? cli_failure("out of memory")
                                      : cli_failure("%s", err->message);
}

/* Declarations for one input added to u: named `name` for a file or one
 * member, NAME_STEM for a member of a whole archive. */
static int cstruct_one(npydt_cstruct *u, const struct cli_input *in, const char *name, int whole)
{
    npydt_header *h;
    npydt_error err;
    if (cli_input_header(in, &h, &err) != NPYDT_OK)
        return cli_report(in->name, &err);
    npydt_cstruct_source src = {in->name, h, in->member != NULL};
    const npydt_dtype *dt = npydt_header_dtype(h);
    npydt_status st = whole ? npydt_cstruct_add_member(u, dt, name, in->member, &src, &err)
                            : npydt_cstruct_add(u, dt, name, &src, &err);
    int status = st == NPYDT_OK ? EXIT_OK : cli_report(in->name, &err);
    npydt_header_free(h);
    return status;
}

/* FILE, ARCHIVE.npz:NAME (declarations named NAME as for a file) or a
 * whole ARCHIVE.npz (one set per member, named NAME_MEMBER). Every member
 * is generated before anything is printed, so a failure prints nothing. */
static int cstruct_inputs(const char *path, const char *name)
{
    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    int status = cli_inputs_add(&inputs, path);
    int whole = inputs.count > 0 && inputs.items[0].member &&
                strcmp(inputs.items[0].path, path) == 0;
    npydt_cstruct *u = NULL;
    npydt_error err;
    if (status == EXIT_OK && npydt_cstruct_create(NULL, &u, &err) != NPYDT_OK)
        status = cli_failure("out of memory");
    for (size_t i = 0; i < inputs.count && status == EXIT_OK; i++) {
        status = cstruct_one(u, &inputs.items[i], name, whole);
        if (!whole && status == EXIT_OK) {
            /* one file or several members named alike: each printed alone */
            if (npydt_cstruct_write(u, put_file, stdout, &err) != NPYDT_OK)
                status = write_failed(&err);
            npydt_cstruct_free(u);
            u = NULL;
            if (status == EXIT_OK && i + 1 < inputs.count &&
                npydt_cstruct_create(NULL, &u, &err) != NPYDT_OK)
                status = cli_failure("out of memory");
            if (status == EXIT_OK && i + 1 < inputs.count)
                put_file(stdout, "\n", 1);
        }
    }
    if (whole && status == EXIT_OK && npydt_cstruct_write(u, put_file, stdout, &err) != NPYDT_OK)
        status = write_failed(&err);
    npydt_cstruct_free(u);
    cli_inputs_free(&inputs);
    return status;
}

/* Does the operand name a file (or a member of an existing archive)
 * rather than a descriptor? An existing path always does; so does "-",
 * and a name that cannot be a descriptor and looks like a path. */
static int names_file(const char *arg)
{
    struct stat st;
    if (strcmp(arg, "-") == 0 || stat(arg, &st) == 0)
        return 1;
    const char *colon = strrchr(arg, ':');
    if (colon && colon != arg) {
        char *archive = strndup(arg, (size_t)(colon - arg));
        int exists = archive && stat(archive, &st) == 0;
        free(archive);
        if (exists)
            return 1;
    }
    size_t n = strlen(arg);
    return strchr(arg, '/') != NULL ||
           (n > 4 && (strcmp(arg + n - 4, ".npy") == 0 || strcmp(arg + n - 4, ".npz") == 0));
}

/* Print the declarations of a descriptor or type string. */
static int cstruct_descr(const char *descr, const char *name)
{
    npydt_error err;
    npydt_dtype *own = NULL;
    if (parse_descr(descr, &own, &err) != NPYDT_OK) {
        int s = cli_report_spec("descr", &err);
        return s == EXIT_USAGE && err.code != NPYDT_E_NOMEM ? EXIT_INVALID : s;
    }
    npydt_cstruct *u;
    int status = EXIT_OK;
    if (npydt_cstruct_create(NULL, &u, &err) != NPYDT_OK)
        status = cli_failure("out of memory");
    else if (npydt_cstruct_add(u, own, name, NULL, &err) != NPYDT_OK ||
             npydt_cstruct_write(u, put_file, stdout, &err) != NPYDT_OK)
        status = cli_report("descr", &err);
    npydt_cstruct_free(u);
    npydt_dtype_free(own);
    return status;
}

int cmd_cstruct(int argc, char **argv)
{
    const char *name = "npy_record";
    const char *descr = NULL;
    struct cli_args args;
    cli_args_init(&args, &cstruct_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        switch (opt) {
        case OPT_NAME:
            name = args.value;
            break;
        case OPT_DESCR:
            descr = args.value;
            break;
        default:
            return args.status;
        }
    }
    if (args.noperands > 1)
        return cli_usage(&cstruct_command, "more than one FILE given ('%s')", args.operands[1]);
    int status;
    if (!descr && (status = cli_args_stdin(&args, 0, "FILE or --descr")) != EXIT_OK)
        return status;
    const char *path = args.noperands ? args.operands[0] : NULL;
    if (!npydt_cstruct_tag_ok(name))
        return cli_usage(&cstruct_command, "--name '%s' is not a usable C identifier (a keyword, a "
                         "reserved name or not an identifier)",
                         name);
    if (descr && path)
        return cli_usage(&cstruct_command, "give FILE or --descr, not both ('%s')", path);

    if (path && names_file(path))
        return cstruct_inputs(path, name);
    return cstruct_descr(descr ? descr : path, name);
}
