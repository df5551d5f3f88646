/* Parses every file named on the command line as a header literal and
 * prints what came out: the whole syntax tree (kinds, byte spans, values)
 * or the error (status, offset, message). tests/check_composite.sh runs it
 * built with and without composite tokens (NPYDT_COMPOSITE) and requires
 * the two outputs to be identical.
 *
 * Each file is read as several texts, so that every corpus feeds the
 * parser the way its harness does: the whole file, the bytes before and
 * after its first NUL (a schema input is SPEC NUL DESCR), the file past
 * its first three bytes (an allocation-failure input), and the dict of a
 * .npy file. Each text is parsed as a descriptor and as a header, in the
 * three reading modes (latin-1 with 'L', UTF-8, UTF-8 with 'L'), with the
 * default limits and with tight ones that the corpora reach. */
#include "literal/literal.h"

#include <stdio.h>
#include <stdlib.h>

static void put_bytes(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            putchar(c);
        else
            printf("\\x%02x", c);
    }
    putchar('"');
}

/* The tree under v, one node a line, indented by depth; recursion is
 * bounded by the parse's depth limit. */
static void put_tree(const struct lit *v, unsigned depth)
{
    static const char *const kinds[] = {"str", "bytes", "int", "float", "bool",
                                        "none", "tuple", "list", "dict"};
    printf("%*s%s %zu-%zu", (int)(2 * depth), "", kinds[v->kind], v->start, v->end);
    switch (v->kind) {
    case LIT_STR:
    case LIT_BYTES:
        putchar(' ');
        put_bytes(v->u.str.s, v->u.str.len);
        break;
    case LIT_INT:
        printf(" %s%llu%s", v->u.num.neg ? "-" : "", (unsigned long long)v->u.num.mag,
               v->u.num.big ? " big" : "");
        break;
    case LIT_FLOAT:
        printf("%s", v->u.num.neg ? " -" : "");
        break;
    case LIT_BOOL:
        printf(" %d", v->u.b);
        break;
    case LIT_NONE:
        break;
    case LIT_TUPLE:
    case LIT_LIST:
    case LIT_DICT: {
        size_t n = 0;
        const struct lit *last = NULL;
        printf(" n=%zu\n", v->u.seq.n);
        for (const struct lit *c = v->u.seq.head; c; c = c->next) {
            put_tree(c, depth + 1);
            last = c;
            n++;
        }
        if (n != v->u.seq.n || last != v->u.seq.tail)
            printf("%*sBROKEN SEQUENCE: %zu items\n", (int)(2 * depth), "", n);
        return;
    }
    }
    putchar('\n');
}

static void parse_one(const char *what, const char *text, size_t len)
{
    static const struct { bool utf8, long_suffix; } modes[] = {
        {false, true}, {true, false}, {true, true}};
    npydt_limits tight = {.max_depth = 4, .max_fields = 3};
    npydt_options opts;
    npydt_options_init(&opts);
    const npydt_limits *limits[] = {&opts.limits, &tight};
    for (int root = 0; root < 2; root++)
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
            for (int l = 0; l < 2; l++) {
                struct arena ar, nodes;
                arena_init(&ar, NULL);
                arena_init(&nodes, NULL);
                npydt_error err;
                struct lit *v = NULL;
                npydt_status st = lit_parse_text_as(
                    &ar, &nodes, text, len, modes[m].utf8, modes[m].long_suffix,
                    root ? LIT_ROOT_HEADER : LIT_ROOT_DESCR, limits[l], &err, &v);
                printf("%s root=%d mode=%zu limits=%d: %s", what, root, m, l,
                       npydt_status_name(st));
                if (st == NPYDT_OK) {
                    putchar('\n');
                    put_tree(v, 1);
                } else {
                    printf(" at %zu: %s\n", err.offset, err.message);
                }
                arena_release(&nodes);
                arena_release(&ar);
            }
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "%s: cannot open\n", argv[i]);
            return 2;
        }
        static char buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        printf("== %s\n", argv[i]);
        parse_one("whole", buf, n);
        const char *nul = memchr(buf, 0, n);
        if (nul) {
            parse_one("before NUL", buf, (size_t)(nul - buf));
            parse_one("after NUL", nul + 1, n - (size_t)(nul + 1 - buf));
        }
        if (n > 3)
            parse_one("past 3", buf + 3, n - 3);
        /* a .npy file's dict: its length is 2 bytes (1.0) or 4 (2.0, 3.0) */
        if (n >= 10 && memcmp(buf, "\x93NUMPY", 6) == 0) {
            size_t at = buf[6] == 1 ? 10 : 12;
            size_t hl = buf[6] == 1 ? (size_t)(unsigned char)buf[8] |
                                          (size_t)(unsigned char)buf[9] << 8
                        : n >= 12 ? (size_t)(unsigned char)buf[8] |
                                        (size_t)(unsigned char)buf[9] << 8 |
                                        (size_t)(unsigned char)buf[10] << 16 |
                                        (size_t)(unsigned char)buf[11] << 24
                                  : 0;
            if (at <= n)
                parse_one("npy dict", buf + at, hl < n - at ? hl : n - at);
        }
    }
    return 0;
}
