/* Parsing header text into the literal syntax tree. */
#ifndef NPYDT_LITERAL_H
#define NPYDT_LITERAL_H

#include "internal.h"

/* Validate text (NUL bytes, UTF-8 for version 3, indentation), copy it
 * into the arena and parse it as one literal. Error offsets are into text. */
npydt_status lit_parse_text(struct arena *ar, const char *text, size_t len, int major,
                            const npydt_limits *limits, npydt_error *err, struct lit **out);

#endif
