/* From header bytes to the literal syntax tree: the checks Python makes
 * on source text before tokenizing, then the grammar. */
#include "literal/grammar.h"

#include <string.h>

/* ast.literal_eval strips leading spaces and tabs; after that the first
 * logical line must not be indented (Python: "unexpected indent"). */
static size_t check_indent(const unsigned char *t, size_t len, size_t *bad)
{
    size_t i = 0;
    while (i < len && (t[i] == ' ' || t[i] == '\t'))
        i++;
    for (;;) {
        /* a blank or comment-only line is skipped */
        if (i < len && t[i] == '#')
            while (i < len && t[i] != '\n' && t[i] != '\r')
                i++;
        if (i < len && (t[i] == '\n' || t[i] == '\r')) {
            i++;
            size_t ind = i;
            while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\f'))
                i++;
            if (i < len && t[i] != '\n' && t[i] != '\r' && t[i] != '#' && i > ind) {
                *bad = ind;
                return 1;
            }
            continue;
        }
        return 0;
    }
}

npydt_status lit_parse_text(struct arena *ar, struct arena *nodes, const char *text, size_t len,
                            int major, enum lit_root root, const npydt_limits *limits,
                            npydt_error *err, struct lit **out)
{
    return lit_parse_text_as(ar, nodes, text, len, major >= 3, major < 3, root, limits, err,
                             out);
}

npydt_status lit_parse_text_as(struct arena *ar, struct arena *nodes, const char *text,
                               size_t len, bool utf8, bool long_suffix, enum lit_root root,
                               const npydt_limits *limits, npydt_error *err, struct lit **out)
{
    const unsigned char *t = (const unsigned char *)text;
    *out = NULL;
    const unsigned char *nul = memchr(t, 0, len);
    size_t clean = nul ? (size_t)(nul - t) : len;   /* bytes before the first NUL */
    for (size_t i = 0; i < len;) {
        if (!utf8) {   /* latin-1: any byte but NUL */
            if (clean < len)
                return set_error(err, NPYDT_E_ENCODING, clean, NULL, "NUL byte in header");
            break;
        }
        if (t[i] == 0)
            return set_error(err, NPYDT_E_ENCODING, i, NULL, "NUL byte in header");
        if (t[i] >= 0x80) {
            uint32_t cp;
            size_t k = text_utf8_decode(t + i, len - i, &cp);
            if (k == 0)
                return set_error(err, NPYDT_E_ENCODING, i, NULL,
                                 "invalid UTF-8 byte 0x%02x in a version 3.0 header", t[i]);
            i += k;
        } else {
            i++;
        }
    }
    size_t bad;
    if (check_indent(t, len, &bad))
        return set_error(err, NPYDT_E_SYNTAX, bad, NULL, "unexpected indent");
    unsigned char *copy = (unsigned char *)arena_strndup(ar, text, len);
    if (!copy)
        return set_nomem(err);
    struct lit_parser p = {
        .text = copy, .len = len, .utf8 = utf8, .long_suffix = long_suffix,
        .limits = limits, .arena = ar, .nodes = nodes ? nodes : ar,
        .err = err, .status = NPYDT_OK, .cur = copy,
    };
    struct fc_level room[8];
    fc_init(&p, room, sizeof room / sizeof room[0], root);
    npydt_status st = lit_parse(&p);
    if (st == NPYDT_OK)
        *out = p.result;
    return st;
}
