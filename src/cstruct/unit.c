/* A translation unit of declarations (npydt_cstruct_*): the text of every
 * dtype added so far, and the identifiers it takes, so that the roots of
 * an archive's members never clash. */
#include "cstruct/cstruct.h"
#include "base/base.h"

#include <errno.h>
#include <string.h>

struct npydt_cstruct {
    npydt_allocator alloc_copy;
    const npydt_allocator *alloc;  /* &alloc_copy, or NULL for libc */
    struct nameset taken;          /* identifiers of the declarations added */
    struct sbuf all;               /* their text, in order; long text spills */
    size_t count;                  /* declarations added */
};

npydt_status npydt_cstruct_create(const npydt_options *opts, npydt_cstruct **out, npydt_error *err)
{
    error_clear(err);
    *out = NULL;
    npydt_status st = opts ? options_check(opts, err) : NPYDT_OK;
    if (st != NPYDT_OK)
        return st;
    const npydt_allocator *a = opts ? opts->allocator : NULL;
    npydt_cstruct *u = alloc_bytes(a, sizeof *u);
    if (!u)
        return set_nomem(err);
    memset(u, 0, sizeof *u);
    if (a) {
        u->alloc_copy = *a;
        u->alloc = &u->alloc_copy;
    }
    u->taken.alloc = u->alloc;
    u->all = sb_new(u->alloc);
    u->all.spills = 1;
    *out = u;
    return NPYDT_OK;
}

void npydt_cstruct_free(npydt_cstruct *u)
{
    if (!u)
        return;
    nameset_free(&u->taken);
    sb_free(&u->all);
    npydt_allocator a = u->alloc_copy;
    free_bytes(u->alloc ? &a : NULL, u, sizeof *u);
}

int npydt_cstruct_tag_ok(const char *name)
{
    return name && cstruct_name_ok(name);
}

/* Call fn on every identifier a text declares: its struct tags, and the
 * root's macros ROOT_H and ROOT_ITEMSIZE. Returns the first nonzero
 * result of fn, 0, or -1 without memory. */
static int each_id(const npydt_cstruct *u, const cstruct_text *text, const char *root,
                   int (*fn)(struct nameset *, const char *), struct nameset *set)
{
    struct sbuf id = sb_new(u->alloc);
    for (const char *p = root; *p; p++) {
        char c = *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;  /* root is [A-Za-z0-9_] */
        sb_putn(&id, &c, 1);
    }
    size_t n = id.t.len;
    sb_puts(&id, "_H");
    int rc = id.t.failed ? -1 : fn(set, id.t.buf);
    id.t.len = n;
    sb_puts(&id, "_ITEMSIZE");
    if (rc == 0)
        rc = id.t.failed ? -1 : fn(set, id.t.buf);
    sb_free(&id);
    for (size_t at = 0; rc == 0 && at < text->tags.len; at += strlen(text->tags.text + at) + 1)
        rc = fn(set, text->tags.text + at);
    return rc;
}

static int id_taken(struct nameset *set, const char *id)
{
    return nameset_has(set, id);
}

static int id_take(struct nameset *set, const char *id)
{
    return nameset_has(set, id) || nameset_add(set, id, NULL) == 0 ? 0 : -1;
}

static void put_sbuf(void *b, const char *s, size_t n)
{
    sb_putn(b, s, n);
}

static npydt_status all_failed(const npydt_cstruct *u, npydt_error *err)
{
    if (u->all.spill_failed && u->all.spill_errno != ENOMEM)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "cannot write a temporary file: %s", TEXT_ERRNO(u->all.spill_errno));
    return set_nomem(err);
}

/* Append a generated text to the unit, its identifiers taken. */
static npydt_status keep(npydt_cstruct *u, cstruct_text *text, const char *root, npydt_error *err)
{
    if (each_id(u, text, root, id_take, &u->taken) != 0)
        return set_nomem(err);
    if (u->count++)
        sb_putn(&u->all, "\n", 1);
    if (sb_drain(&text->head, put_sbuf, &u->all) != 0 ||
        sb_drain(&text->body, put_sbuf, &u->all) != 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "cannot read a temporary file: %s", TEXT_ERRNO(errno));
    return u->all.t.failed ? all_failed(u, err) : NPYDT_OK;
}

static void source_of(const npydt_cstruct_source *in, cstruct_source *src)
{
    src->header = in ? in->header : NULL;
    src->label = in && in->label ? in->label : "an array";
    src->member = in ? in->member : 0;
}

npydt_status npydt_cstruct_add(npydt_cstruct *u, const npydt_dtype *dt, const char *tag,
                               const npydt_cstruct_source *source, npydt_error *err)
{
    error_clear(err);
    if (!cstruct_name_ok(tag))
        return set_error(err, NPYDT_E_NAME, NPYDT_NO_OFFSET, NULL,
                         "'%s' is not a usable C identifier (a keyword, a reserved name or not "
                         "an identifier)",
                         tag);
    cstruct_source src;
    source_of(source, &src);
    cstruct_text text;
    if (cstruct_generate(dt, tag, &src, u->alloc, &text, err) != 0)
        return err ? err->code : NPYDT_E_NOMEM;
    npydt_status st = NPYDT_OK;
    int rc = nameset_has(&u->taken, tag) ? 1 : each_id(u, &text, tag, id_taken, &u->taken);
    if (rc < 0)
        st = set_nomem(err);
    else if (rc > 0)
        st = set_error(err, NPYDT_E_NAME, NPYDT_NO_OFFSET, NULL,
                       "the root struct %s clashes with a name declared before", tag);
    else
        st = keep(u, &text, tag, err);
    cstruct_text_free(&text);
    return st;
}

/* PREFIX_STEM for a member: the name without ".npy", each character that
 * cannot be in a C identifier (a whole UTF-8 sequence) as '_'. */
static void member_root(const char *prefix, const char *member, struct sbuf *root)
{
    size_t mlen = strlen(member);
    if (mlen > 4 && strcmp(member + mlen - 4, ".npy") == 0)
        mlen -= 4;
    sb_puts(root, prefix);
    sb_putn(root, "_", 1);
    for (size_t i = 0; i < mlen;) {
        unsigned char c = (unsigned char)member[i];
        int ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_';
        char out = ident ? (char)c : '_';
        sb_putn(root, &out, 1);
        i++;
        if (c >= 0xC0)
            while (i < mlen && ((unsigned char)member[i] & 0xC0) == 0x80)
                i++;
    }
}

/* The root tag is PREFIX_STEM, with _2, _3, ... appended until neither it
 * nor any identifier its declarations take is in the unit. Every
 * identifier of root R is R, R_H, R_ITEMSIZE (R upper-cased) or R_ + a
 * member name, which never starts with a digit: an identifier taken
 * blocks one suffix at most. PREFIX_STEM itself may be a reserved name
 * (INT8_MIN), PREFIX_STEM_K never is: taken.count + 2 tries find a free
 * root. */
npydt_status npydt_cstruct_add_member(npydt_cstruct *u, const npydt_dtype *dt,
                                      const char *prefix, const char *member,
                                      const npydt_cstruct_source *source, npydt_error *err)
{
    error_clear(err);
    if (!cstruct_name_ok(prefix))
        return set_error(err, NPYDT_E_NAME, NPYDT_NO_OFFSET, NULL,
                         "'%s' is not a usable C identifier (a keyword, a reserved name or not "
                         "an identifier)",
                         prefix);
    cstruct_source src;
    source_of(source, &src);
    struct sbuf base = sb_new(u->alloc), root = sb_new(u->alloc);
    member_root(prefix, member, &base);
    cstruct_text text;
    int have_text = 0, found = 0;
    npydt_status st = base.t.failed ? set_nomem(err) : NPYDT_OK;
    for (size_t k = 1; st == NPYDT_OK && !found && k <= u->taken.count + 2; k++) {
        root.t.len = 0;
        if (k == 1)
            sb_puts(&root, base.t.buf);
        else
            sb_printf(&root, "%s_%zu", base.t.buf, k);
        if (root.t.failed) {
            st = set_nomem(err);
            break;
        }
        if (!cstruct_name_ok(root.t.buf) || nameset_has(&u->taken, root.t.buf))
            continue;
        if (cstruct_generate(dt, root.t.buf, &src, u->alloc, &text, err) != 0) {
            st = err ? err->code : NPYDT_E_NOMEM;
            break;
        }
        have_text = 1;
        int rc = each_id(u, &text, root.t.buf, id_taken, &u->taken);
        if (rc < 0)
            st = set_nomem(err);
        found = rc == 0;
        if (!found) {
            cstruct_text_free(&text);
            have_text = 0;
        }
    }
    if (st == NPYDT_OK && !found)
        st = set_error(err, NPYDT_E_NAME, NPYDT_NO_OFFSET, NULL, "no free name for the root struct");
    if (st == NPYDT_OK)
        st = keep(u, &text, root.t.buf, err);
    if (have_text)
        cstruct_text_free(&text);
    sb_free(&base);
    sb_free(&root);
    return st;
}

npydt_status npydt_cstruct_write(npydt_cstruct *u, void (*put)(void *ctx, const char *s, size_t n),
                                 void *ctx, npydt_error *err)
{
    error_clear(err);
    if (u->all.t.failed)
        return all_failed(u, err);
    if (sb_drain(&u->all, put, ctx) != 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "cannot read a temporary file: %s", TEXT_ERRNO(errno));
    return NPYDT_OK;
}
