/* npydt cstruct: print C11 declarations for the record type of a file or
 * of a descriptor. The generator is in cstruct_gen.c. */
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/report.h"
#include "cli/cstruct_gen.h"

#include <ctype.h>
#include <errno.h>
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

/* ---- one archive, one translation unit ------------------------------------- */

/* The identifiers the declarations of earlier members took (struct tags
 * and the root's NAME_H / NAME_ITEMSIZE macros) live in a nameset. */
static int idset_add(struct nameset *set, const char *id)
{
    return nameset_has(set, id) ? 0 : nameset_add(set, id, NULL);
}

/* Call fn on every identifier a text declares: its struct tags, and the
 * root's macros. Returns the first nonzero result of fn, 0, or -1 without
 * memory. Identifiers have no length limit. */
static int each_id(const cstruct_text *text, const char *root,
                   int (*fn)(void *, const char *), void *ctx)
{
    struct sbuf id = {0};
    for (const char *p = root; *p; p++) {
        char c = (char)toupper((unsigned char)*p);   /* root is ASCII: [A-Za-z0-9_] */
        sb_putn(&id, &c, 1);
    }
    size_t n = id.len;
    sb_puts(&id, "_H");
    int rc = id.nomem ? -1 : fn(ctx, id.data);
    id.len = n;
    sb_puts(&id, "_ITEMSIZE");
    if (rc == 0)
        rc = id.nomem ? -1 : fn(ctx, id.data);
    free(id.data);
    for (size_t at = 0; rc == 0 && at < text->tags.len; at += strlen(text->tags.text + at) + 1)
        rc = fn(ctx, text->tags.text + at);
    return rc;
}

static int id_taken(void *set, const char *id)
{
    return nameset_has(set, id);
}

static int id_take(void *set, const char *id)
{
    return idset_add(set, id) == 0 ? 0 : -1;
}

/* PREFIX_STEM for a member: the name without ".npy", each character that
 * cannot be in a C identifier (a whole UTF-8 sequence) as '_'. */
static char *member_root(const char *prefix, const char *member)
{
    size_t plen = strlen(prefix), mlen = strlen(member);
    if (mlen > 4 && strcmp(member + mlen - 4, ".npy") == 0)
        mlen -= 4;
    char *root = malloc(plen + mlen + 2);
    if (!root)
        return NULL;
    memcpy(root, prefix, plen);
    size_t o = plen;
    root[o++] = '_';
    for (size_t i = 0; i < mlen;) {
        unsigned char c = (unsigned char)member[i];
        int ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_';
        root[o++] = ident ? (char)c : '_';
        i++;
        if (c >= 0xC0)
            while (i < mlen && ((unsigned char)member[i] & 0xC0) == 0x80)
                i++;
    }
    root[o] = '\0';
    return root;
}

/* Declarations for one input. With taken (a whole archive), the root tag
 * is PREFIX_STEM, with _2, _3, ... appended until neither it nor any
 * identifier its declarations take is in taken, which then gets them.
 * Every identifier of root R is R, R_H, R_ITEMSIZE (R upper-cased) or
 * R_ + a member name, which never starts with a digit: an identifier in
 * taken blocks one suffix at most. PREFIX_STEM itself may be a reserved
 * name (INT8_MIN), PREFIX_STEM_K never is: taken->count + 2 tries find a
 * free root. */
static void put_file(void *f, const char *s, size_t n)
{
    fwrite(s, 1, n, f);
}

static void put_sbuf(void *b, const char *s, size_t n)
{
    sb_putn(b, s, n);
}

/* Text to the archive's dry run (all), else to stdout. */
static void put_text(struct sbuf *all, const char *s, size_t n)
{
    if (all)
        put_sbuf(all, s, n);
    else
        put_file(stdout, s, n);
}

static int cstruct_one(const struct cli_input *in, const char *name, struct nameset *taken,
                       struct sbuf *all, size_t *printed)
{
    npydt_header *h;
    npydt_error err;
    if (cli_input_header(in, &h, &err) != NPYDT_OK)
        return cli_report(in->name, &err);
    cstruct_source src = {in->name, h, in->member != NULL};
    const npydt_dtype *dt = npydt_header_dtype(h);
    cstruct_text text = {0};
    char *base = NULL;
    struct sbuf root = {0};
    int status = EXIT_OK, found = 0;
    if (!taken) {
        if (cstruct_generate(dt, name, &src, &text, &err) != 0)
            status = cli_report(in->name, &err);
        goto out;
    }
    base = member_root(name, in->member);
    if (!base) {
        status = cli_failure("out of memory");
        goto out;
    }
    for (size_t k = 1; !found && k <= taken->count + 2; k++) {
        root.len = 0;
        if (k == 1)
            sb_puts(&root, base);
        else
            sb_printf(&root, "%s_%zu", base, k);
        if (root.nomem) {
            status = cli_failure("out of memory");
            goto out;
        }
        if (!cstruct_name_ok(root.data) || nameset_has(taken, root.data))
            continue;
        if (cstruct_generate(dt, root.data, &src, &text, &err) != 0) {
            status = cli_report(in->name, &err);
            goto out;
        }
        int rc = each_id(&text, root.data, id_taken, taken);
        if (rc < 0) {
            status = cli_failure("out of memory");
            goto out;
        }
        found = rc == 0;
        if (!found)
            cstruct_text_free(&text);
    }
    if (!found)
        status = cli_fail(in->name, NPYDT_E_NAME, "no free name for the root struct");
    else if (each_id(&text, root.data, id_take, taken) != 0)
        status = cli_failure("out of memory");
out:
    if (status == EXIT_OK) {
        if ((*printed)++)
            put_text(all, "\n", 1);
        if (cstruct_text_put(&text, all ? put_sbuf : put_file, all ? (void *)all : stdout,
                             &err) != 0)
            status = cli_report(in->name, &err);
    }
    cstruct_text_free(&text);
    free(base);
    free(root.data);
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
    struct nameset taken = {0};
    size_t printed = 0;
    if (status == EXIT_OK && whole) {
        /* a dry run first (a long text spilled to a temporary file):
         * stdout is written only when every member works */
        struct sbuf all = {0};
        all.spills = 1;
        for (size_t i = 0; i < inputs.count && status == EXIT_OK; i++)
            status = cstruct_one(&inputs.items[i], name, &taken, &all, &printed);
        if (status == EXIT_OK && all.nomem)
            status = all.spill_failed && all.spill_errno != ENOMEM
                         ? cli_failure("cannot write a temporary file: %s",
                                           strerror(all.spill_errno))
                         : cli_failure("out of memory");
        if (status == EXIT_OK && sb_drain(&all, put_file, stdout) != 0)
            status = cli_failure("cannot read a temporary file: %s", strerror(errno));
        sb_free(&all);
    } else if (status == EXIT_OK) {
        for (size_t i = 0; i < inputs.count && status == EXIT_OK; i++)
            status = cstruct_one(&inputs.items[i], name, NULL, NULL, &printed);
    }
    nameset_free(&taken);
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
    cstruct_source src = {"descriptor", NULL, 0};
    cstruct_text text;
    int status = EXIT_OK;
    if (cstruct_generate(own, name, &src, &text, &err) != 0 ||
        cstruct_text_put(&text, put_file, stdout, &err) != 0)
        status = cli_report("descr", &err);
    cstruct_text_free(&text);
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
    const char *path = args.noperands ? args.operands[0] : NULL;
    if (!cstruct_name_ok(name))
        return cli_usage(&cstruct_command, "--name '%s' is not a usable C identifier (a keyword, a "
                          "reserved name or not an identifier)",
                          name);
    if (descr && path)
        return cli_usage(&cstruct_command, "give FILE or --descr, not both ('%s')", path);
    if (!descr && !path)
        return cli_usage(&cstruct_command, "no FILE or --descr given");

    if (path && names_file(path))
        return cstruct_inputs(path, name);
    return cstruct_descr(descr ? descr : path, name);
}
