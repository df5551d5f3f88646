/* npydt cstruct: C declarations that reproduce a NumPy record layout.
 * Private to the command; uses only the public header. */
#ifndef NPYDT_CLI_CSTRUCT_H
#define NPYDT_CLI_CSTRUCT_H

#include "npydt.h"

/* Where the dtype came from, for the comment at the top of the output. */
typedef struct cstruct_source {
    const char *label;          /* file path, ARCHIVE:MEMBER, or "descriptor" */
    const npydt_header *header; /* the file's header, NULL for a descriptor */
    int member;                 /* the header is an archive member's: its data
                                 * offset counts from the member's first byte */
} cstruct_source;

/* A set of strings (member names of one struct, struct tags, the
 * identifiers earlier archive members took); zero-initialise to start. */
struct nameset {
    char **slot;
    size_t cap, count;   /* cap a power of two, at most half full */
};
/* True when name is in the set. */
int nameset_has(const struct nameset *set, const char *name);
/* Add a copy of name, which must not be in the set yet; -1 without memory. */
int nameset_add(struct nameset *set, const char *name);
/* Release every copy and the table. */
void nameset_free(struct nameset *set);

/* True when name can be the root struct tag: a C identifier that is not a
 * keyword, not reserved (leading "__" or "_X") and not a macro of the
 * headers the output includes. */
int cstruct_name_ok(const char *name);

#endif
