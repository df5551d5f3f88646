/* The field path an error names, spelled from the frames of the fields
 * being read only when an error is reported. */
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
