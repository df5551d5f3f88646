/* Lines of the command's stderr, error lines PATH: WHAT: DETAIL among them.
 * Each line is built whole in memory and written with one call: stderr is
 * unbuffered, so one write(2) per line instead of one per byte, and lines
 * of processes that share the stream do not interleave. Names, paths and
 * descriptors in a line are escaped and cut (CLI_TEXT_KEEP). */
#include "cli/common/report.h"
#include "cli/common/dest.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* text_realloc_fn of a line: its first block is the line's own array
 * (ctx), moved to the heap when the line outgrows it and never freed. */
static void *line_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    if (ptr != ctx)
        return text_libc_realloc(NULL, ptr, old_size, new_size);
    if (new_size == 0)
        return NULL;
    char *b = malloc(new_size);
    if (b)
        memcpy(b, ptr, old_size);
    return b;
}

void cli_line_init(struct cli_line *l)
{
    l->b = text_buf_growing(line_realloc, l->small, sizeof l->small);
    l->b.buf = l->small;
    l->b.cap = sizeof l->small;
}

/* n bytes of s, keeping room for the final newline; nothing once memory
 * ran out. */
static void put(struct cli_line *l, const char *s, size_t n)
{
    if (l->b.failed || n == SIZE_MAX)
        return;
    char *p = text_buf_room(&l->b, n + 1);
    if (p) {
        memcpy(p, s, n);
        l->b.len += n;
    }
}

void cli_line_puts(struct cli_line *l, const char *s)
{
    put(l, s, strlen(s));
}

/* Names and texts from outside go through the text stage's one rule
 * (text_escape_at): a line stays one line (for splitlines() too) and
 * inert. */
static void put_escaped(struct cli_line *l, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        const unsigned char *run = p;
        char esc[TEXT_ESCAPE_MAX + 1] = "";
        while (p < end) {
            size_t n = text_escape_at(p, (size_t)(end - p), esc);
            if (esc[0])
                break;
            p += n;
        }
        put(l, (const char *)run, (size_t)(p - run));
        if (p < end) {
            cli_line_puts(l, esc);
            p += text_escape_at(p, (size_t)(end - p), esc);
        }
    }
}

size_t cli_text_escape_into(char *dst, const char *s, size_t len)
{
    return text_escape_into(dst, s, len);
}

void cli_put_text_n(FILE *out, const char *s, size_t len)
{
    char buf[CLI_TEXT_ESCAPED_MAX(256)];
    for (size_t at = 0; at < len;) {
        /* a chunk ends after a whole character (a C1 control or line
         * break is 2 or 3 bytes) */
        size_t n = text_utf8_cut(s + at, len - at, 256);
        fwrite(buf, 1, cli_text_escape_into(buf, s + at, n), out);
        at += n;
    }
}

void cli_line_text(struct cli_line *l, const char *s, size_t len)
{
    if (len <= CLI_TEXT_KEEP) {
        put_escaped(l, s, len);
        return;
    }
    /* the start and the end (a path's leaf, a file's extension), each at
     * a character's start: continuation bytes stay with their lead byte */
    size_t head = CLI_TEXT_KEEP / 2, tail = len - CLI_TEXT_KEEP / 2;
    for (int i = 0; i < 3 && ((unsigned char)s[head] & 0xc0) == 0x80; i++)
        head--;
    for (int i = 0; i < 3 && tail < len && ((unsigned char)s[tail] & 0xc0) == 0x80; i++)
        tail++;
    put_escaped(l, s, head);
    char mark[48];
    int n = snprintf(mark, sizeof mark, "...(%zu bytes)...", len);
    put(l, mark, n > 0 ? (size_t)n : 0);
    put_escaped(l, s + tail, len - tail);
}

/* The conversions of the command's messages: %s and %.*s, each argument
 * written as by cli_line_text (names and texts from outside); %u, %zu,
 * %lld and %llu (tests/check_messages.sh holds every message to these).
 * The literal text is escaped too. */
static void line_vformat(struct cli_line *l, const char *fmt, va_list *ap)
{
    for (const char *p = fmt; *p;) {
        const char *lit = p;
        p += strcspn(p, "%");
        put_escaped(l, lit, (size_t)(p - lit));
        if (!*p)
            break;
        p++;
        if (*p == '.') {   /* ".*s" */
            int prec = va_arg(*ap, int);
            const char *s = va_arg(*ap, const char *);
            cli_line_text(l, s, strnlen(s, (size_t)prec));   /* < 0: all of s */
            p += 3;
            continue;
        }
        if (*p == 's') {
            const char *s = va_arg(*ap, const char *);
            cli_line_text(l, s, strlen(s));
            p++;
            continue;
        }
        size_t mod = strspn(p, "lz");   /* "u", "zu", "lld" or "llu" */
        char num[24];
        int n;
        if (p[mod] == 'd')
            n = snprintf(num, sizeof num, "%lld", va_arg(*ap, long long));
        else
            n = snprintf(num, sizeof num, "%llu",
                         mod == 2 ? va_arg(*ap, unsigned long long)
                         : mod    ? (unsigned long long)va_arg(*ap, size_t)
                                  : (unsigned long long)va_arg(*ap, unsigned));
        put(l, num, (size_t)n);
        p += mod + 1;
    }
}

void cli_line_format(struct cli_line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    line_vformat(l, fmt, &ap);
    va_end(ap);
}

void cli_line_end_to(struct cli_dest *d, struct cli_line *l)
{
    l->b.buf[l->b.len++] = '\n';
    cli_dest_line(d, l->b.buf, l->b.len);
    text_buf_free(&l->b);
    cli_line_init(l);
}

void cli_line_end(struct cli_line *l)
{
    cli_line_end_to(NULL, l);
}

char *cli_line_take(struct cli_line *l, size_t *len)
{
    struct text_buf *b = &l->b;
    b->buf[b->len++] = '\n';
    *len = b->len;
    char *text = b->failed ? NULL : b->buf != l->small ? b->buf : malloc(b->len);
    if (text && b->buf == l->small)
        memcpy(text, l->small, b->len);
    else if (!text)
        text_buf_free(b);
    cli_line_init(l);
    return text;
}

size_t cli_member_named(const npydt_error *err, const char **name, const char **rest)
{
    static const char lead[] = "member '";
    /* a refusal of what an archive holds (not a name refused for an
     * archive being written, NPYDT_E_ARG) */
    if ((err->code != NPYDT_E_ARCHIVE && err->code != NPYDT_E_DATA) ||
        strncmp(err->message, lead, sizeof lead - 1) != 0)
        return 0;
    /* the library escapes a quote in a name: the first "': " ends it */
    const char *n = err->message + sizeof lead - 1, *end = strstr(n, "': ");
    if (!end || end == n)
        return 0;
    *name = n;
    *rest = end + 3;
    return (size_t)(end - n);
}

/* `where` names the text the error's offset counts in. */
static int report(struct cli_dest *d, const char *path, const npydt_error *err,
                  const char *where)
{
    struct cli_line l;
    cli_line_init(&l);
    const char *name, *message = err->message;
    size_t nlen = cli_member_named(err, &name, &message), plen = strlen(path);
    if (nlen == 0)
        message = err->message;
    /* ARCHIVE:NAME, once */
    if (nlen && !(plen > nlen && path[plen - nlen - 1] == ':' &&
                  memcmp(path + plen - nlen, name, nlen) == 0))
        cli_line_format(&l, "%s:%.*s: %s: ", path, (int)nlen, name, npydt_status_name(err->code));
    else
        cli_line_format(&l, "%s: %s: ", path, npydt_status_name(err->code));
    if (err->offset != NPYDT_NO_OFFSET)
        cli_line_format(&l, "%s offset %zu: ", where, err->offset);
    if (err->path[0])
        cli_line_format(&l, "field %s: ", err->path);
    cli_line_format(&l, "%s", message);
    cli_line_end_to(d, &l);
    /* unreadable paths, bad arguments and field paths that the file does
     * not have are the caller's mistakes, and a lack of memory is no fault
     * of the file (status 3 would call a valid file invalid); the rest is
     * the file's */
    return err->code == NPYDT_E_IO || err->code == NPYDT_E_ARG || err->code == NPYDT_E_NOT_FOUND ||
                   err->code == NPYDT_E_NOMEM
               ? EXIT_USAGE
               : EXIT_INVALID;
}

int cli_report_to(struct cli_dest *d, const char *path, const npydt_error *err)
{
    return report(d, path, err, "header");
}

int cli_report(const char *path, const npydt_error *err)
{
    return report(NULL, path, err, "header");
}

int cli_report_spec(const char *what, const npydt_error *err)
{
    return report(NULL, what, err, "spec");
}

static npydt_status fill(npydt_error *err, npydt_status code, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static npydt_status fill(npydt_error *err, npydt_status code, const char *fmt, va_list ap)
{
    memset(err, 0, sizeof *err);
    err->code = code;
    err->offset = NPYDT_NO_OFFSET;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

npydt_status cli_error(npydt_error *err, npydt_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int cli_fail_to(struct cli_dest *d, const char *path, npydt_status code, const char *fmt, ...)
{
    npydt_error err;
    va_list ap;
    va_start(ap, fmt);
    fill(&err, code, fmt, ap);
    va_end(ap);
    return cli_report_to(d, path, &err);
}

int cli_fail(const char *path, npydt_status code, const char *fmt, ...)
{
    npydt_error err;
    va_list ap;
    va_start(ap, fmt);
    fill(&err, code, fmt, ap);
    va_end(ap);
    return cli_report(path, &err);
}

void cli_vmessage_to(struct cli_dest *d, const char *lead, const char *fmt, va_list ap)
{
    struct cli_line l;
    cli_line_init(&l);
    cli_line_puts(&l, lead);
    va_list again;
    va_copy(again, ap);
    line_vformat(&l, fmt, &again);
    va_end(again);
    cli_line_end_to(d, &l);
}

void cli_vmessage(const char *lead, const char *fmt, va_list ap)
{
    cli_vmessage_to(NULL, lead, fmt, ap);
}

void cli_message_to(struct cli_dest *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage_to(d, "", fmt, ap);
    va_end(ap);
}

void cli_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage_to(NULL, "", fmt, ap);
    va_end(ap);
}

int cli_failure_to(struct cli_dest *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage_to(d, "npydt: ", fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int cli_failure(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage_to(NULL, "npydt: ", fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}
