/* npydt cstruct: print C11 declarations for the record type of a file or
 * of a descriptor. The generator is in cstruct_gen.c. */
#include "cli.h"
#include "cstruct.h"

#include <stdlib.h>
#include <string.h>

static const char cstruct_usage[] =
    "usage: npydt cstruct [--name NAME] FILE\n"
    "       npydt cstruct [--name NAME] --descr DESCR\n"
    "\n"
    "Print C11 declarations for the record type of the .npy FILE, or of DESCR:\n"
    "a descriptor literal as in a header (\"[('x', '<f8'), ('n', '<i4')]\") or a\n"
    "NumPy type string (\"i4, (2,3)f8\"). The output has one struct per nested\n"
    "struct (declared before use), arrays for subarrays, explicit padding\n"
    "members, packing where NumPy's layout is not the natural C one,\n"
    "_Static_asserts on every offset and on the size, and a comment on each\n"
    "member giving its NumPy type and byte order. It compiles with\n"
    "-std=c11 -Wall -Wextra -Werror -pedantic, so a program can read a\n"
    "native-order file through a cast.\n"
    "\n"
    "  --name NAME    tag of the record struct (default npy_record); nested\n"
    "                 structs are NAME_FIELD, NAME_FIELD_SUBFIELD, ...\n"
    "  --descr DESCR  use DESCR instead of a file\n"
    "\n"
    "Field names that are not C identifiers are sanitised (the original name is\n"
    "kept in a comment). Object ('O') dtypes have no C layout: exit 1.\n"
    "Exit 0 on success, 1 for an invalid file or descriptor, 2 on usage errors\n"
    "or unreadable paths.\n";

static int usage_fail(const char *fmt, const char *arg)
{
    cli_usage_error(fmt, arg);
    fputs(cstruct_usage, stderr);
    return EXIT_USAGE;
}

/* Value of option `name` given as "--name VALUE" or "--name=VALUE";
 * advances *i. NULL when argv[*i] is not that option; sets *missing when
 * it is but has no value. */
static const char *option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* A descriptor literal, else a type string; the error reported is the one
 * of the form the text looks like. */
static npydt_status parse_descr(const char *text, npydt_dtype **out, npydt_error *err)
{
    npydt_error lit_err;
    size_t len = strlen(text);
    if (npydt_dtype_parse_literal(text, len, NULL, out, &lit_err) == NPYDT_OK)
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

int cmd_cstruct(int argc, char **argv)
{
    const char *name = "npy_record";
    const char *descr = NULL;
    const char *path = NULL;
    int options_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
        int missing = 0;
        if (options_done || a[0] != '-' || a[1] == '\0') {
            if (path)
                return usage_fail("cstruct: more than one FILE given ('%s')", a);
            path = a;
        } else if (strcmp(a, "--") == 0) {
            options_done = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(cstruct_usage, stdout);
            return EXIT_OK;
        } else if ((v = option_value(argc, argv, &i, "--name", &missing)) != NULL) {
            name = v;
        } else if ((v = option_value(argc, argv, &i, "--descr", &missing)) != NULL) {
            descr = v;
        } else if (missing) {
            return usage_fail("cstruct: option '%s' needs a value", a);
        } else {
            return usage_fail("cstruct: unknown option '%s'", a);
        }
    }
    if (!cstruct_name_ok(name))
        return usage_fail("cstruct: --name '%s' is not a usable C identifier (a keyword, a "
                          "reserved name or not an identifier)",
                          name);
    if (descr && path)
        return usage_fail("cstruct: give FILE or --descr, not both ('%s')", path);
    if (!descr && !path)
        return usage_fail("cstruct: no FILE or --descr given%s", "");

    npydt_error err;
    npydt_header *h = NULL;
    npydt_dtype *own = NULL;
    const npydt_dtype *dt;
    cstruct_source src;
    if (path) {
        if (npydt_parse_path(path, NULL, &h, &err) != NPYDT_OK)
            return cli_report(path, &err);
        dt = npydt_header_dtype(h);
        src.label = path;
        src.header = h;
    } else {
        if (parse_descr(descr, &own, &err) != NPYDT_OK) {
            int s = cli_report("descr", &err);
            return s == EXIT_USAGE ? EXIT_INVALID : s;
        }
        dt = own;
        src.label = "descriptor";
        src.header = NULL;
    }
    char *text = cstruct_generate(dt, name, &src, &err);
    int status = EXIT_OK;
    if (!text)
        status = cli_report(path ? path : "descr", &err);
    else
        fputs(text, stdout);
    free(text);
    npydt_header_free(h);
    npydt_dtype_free(own);
    return status;
}
