/* npydt schema --arrow: the Arrow schema of an array's dtype as text, one
 * line per field: its name as a JSON string (indented two spaces a level
 * of nesting), its C Data format string, "nullable" when it is, and its
 * metadata as a JSON object. */
#include "cli/schema/schema.h"
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/report.h"
#include "text/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_json(const char *s, size_t n)
{
    char small[256];
    char *buf = n <= sizeof small / 6 ? small : malloc(TEXT_JSON_ESCAPED_MAX(n));
    if (!buf) {
        fputs("\"...\"", stdout);
        return;
    }
    size_t len = text_json_escape_into(buf, s, n, TEXT_JSON_TEXT);
    putchar('"');
    fwrite(buf, 1, len, stdout);
    putchar('"');
    if (buf != small)
        free(buf);
}

static void put_field(const struct ArrowSchema *s, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++)
        fputs("  ", stdout);
    put_json(s->name, strlen(s->name));
    printf(" %s", s->format);
    if (s->flags & ARROW_FLAG_NULLABLE)
        fputs(" nullable", stdout);
    if (s->metadata) {
        /* int32 count, then each key and value after its int32 length */
        const char *p = s->metadata;
        int32_t n, len;
        memcpy(&n, p, 4);
        p += 4;
        fputs(" {", stdout);
        for (int32_t i = 0; i < 2 * n; i++) {
            memcpy(&len, p, 4);
            fputs(i == 0 ? "" : i % 2 ? ": " : ", ", stdout);
            put_json(p + 4, (size_t)len);
            p += 4 + len;
        }
        putchar('}');
    }
    putchar('\n');
    for (int64_t i = 0; i < s->n_children; i++)
        put_field(s->children[i], depth + 1);
}

int schema_arrow(const struct cli_command *cmd, const char *file)
{
    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    int status = cli_inputs_add(&inputs, file);
    if (status == EXIT_OK && inputs.count != 1)
        status = cli_usage(cmd, "--arrow prints the schema of one array, and '%s' holds %zu: "
                                "name one as '%s:NAME'", file, inputs.count, file);
    npydt_header *h = NULL;
    npydt_error err;
    if (status == EXIT_OK && cli_input_header(&inputs.items[0], &h, &err) != NPYDT_OK)
        status = cli_report(inputs.items[0].name, &err);
    struct ArrowSchema s;
    if (status == EXIT_OK) {
        if (npydt_arrow_schema(npydt_header_dtype(h), NULL, &s, &err) != NPYDT_OK) {
            status = cli_report(inputs.items[0].name, &err);
        } else {
            /* the record's fields, or the one column of another dtype */
            for (int64_t i = 0; i < s.n_children; i++)
                put_field(s.children[i], 0);
            s.release(&s);
        }
    }
    npydt_header_free(h);
    cli_inputs_free(&inputs);
    return status;
}
