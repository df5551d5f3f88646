/* npydt cstruct: C declarations that reproduce a NumPy record layout.
 * Private to the command; uses only the public header. */
#ifndef NPYDT_CLI_CSTRUCT_H
#define NPYDT_CLI_CSTRUCT_H

#include "npydt.h"

#include <stdint.h>

/* Where the dtype came from, for the comment at the top of the output. */
typedef struct cstruct_source {
    const char *label;          /* file path, ARCHIVE:MEMBER, or "descriptor" */
    const npydt_header *header; /* the file's header, NULL for a descriptor */
    int member;                 /* the header is an archive member's: its data
                                 * offset counts from the member's first byte */
} cstruct_source;

/* A set of strings (member names of one struct, struct tags, the
 * identifiers earlier archive members took); zero-initialise to start.
 * The names are held once, NUL-terminated one after the other in text in
 * the order added; a name is known by its offset there, and the table
 * holds offset + 1 (0: an empty slot). */
struct nameset {
    char *text;
    size_t len, text_cap;
    uint32_t *slot;
    size_t cap, count;   /* cap a power of two, at most half full */
};
/* True when name is in the set. */
int nameset_has(const struct nameset *set, const char *name);
/* Add a copy of name, which must not be in the set yet, its offset in
 * *at (when at is not NULL); -1 without memory or past 4 GiB of names. */
int nameset_add(struct nameset *set, const char *name, uint32_t *at);
/* Make room for n more names in the table (not their text); -1 without
 * memory. */
int nameset_reserve(struct nameset *set, size_t n);
/* The name at offset at; valid until the next nameset_add. */
static inline const char *nameset_name(const struct nameset *set, uint32_t at)
{
    return set->text + at;
}
/* Release the names and the table. */
void nameset_free(struct nameset *set);

/* True when name can be the root struct tag: a C identifier that is not a
 * keyword, not reserved (leading "__" or "_X") and not a macro of the
 * headers the output includes. */
int cstruct_name_ok(const char *name);

/* The command (cstruct.c). */
int cmd_cstruct(int argc, char **argv);

#endif
