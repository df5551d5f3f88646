/* Field paths, spelled only when asked for: the path an error names,
 * from the frames of the fields being read, and a leaf's path, from the
 * steps of its table. */
#include "dtype/dtype.h"

/* Append one level to the path in c->path (at bytes so far): a '.' after
 * a non-empty path, then the name. A long path is cut, never overflowed. */
static size_t path_append(struct dtype_ctx *c, size_t at, const char *name, size_t len)
{
    if (at && at + 1 < sizeof c->path)
        c->path[at++] = '.';
    return at + name_for_message(c->path + at, sizeof c->path - at, name, len);
}

const char *dtype_path(struct dtype_ctx *c)
{
    /* the frames run from the innermost up: turned around to spell the
     * path from the top, then turned back */
    struct path_frame *down = NULL, *f = c->frame;
    while (f) {
        struct path_frame *up = f->up;
        f->up = down;
        down = f;
        f = up;
    }
    size_t at = 0;
    c->path[0] = '\0';
    while (down) {
        at = path_append(c, at, down->name, down->len);
        struct path_frame *next = down->up;
        down->up = f;
        f = down;
        down = next;
    }
    return c->path;
}

/* Field, parent and path length of step i (see path_steps_spell). */
static const struct npydt_field *step_at(const struct path_step *steps, const npydt_dtype *flat,
                                         size_t i, size_t *up, size_t *path_len)
{
    if (steps) {
        *up = steps[i].up;
        *path_len = steps[i].path_len;
        return steps[i].field;
    }
    *up = PATH_STEP_NONE;
    *path_len = flat->fields[i].name_len;
    return &flat->fields[i];
}

size_t path_steps_spell(const struct path_step *steps, const npydt_dtype *flat, size_t step,
                        char *buf, size_t size)
{
    size_t len = 0, up;
    if (step != PATH_STEP_NONE)
        (void)step_at(steps, flat, step, &up, &len);
    if (size == 0)
        return len;
    /* written from the end up, keeping only the bytes below cut; the
     * names above a path of length 0 are empty */
    size_t cut = len < size ? len : size - 1, at = len;
    buf[cut] = '\0';
    while (at) {
        size_t above;
        const struct npydt_field *f = step_at(steps, flat, step, &up, &above);
        at -= f->name_len;
        if (at < cut)
            memcpy(buf + at, f->name, cut - at < f->name_len ? cut - at : f->name_len);
        /* a path above that is not empty ends in the '.' before the name */
        if (at && --at < cut)
            buf[at] = '.';
        step = up;
    }
    return len;
}
