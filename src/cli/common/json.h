/* JSON text of the command's output (locale independent). */
#ifndef NPYDT_CLI_COMMON_JSON_H
#define NPYDT_CLI_COMMON_JSON_H

#include "npydt.h"
#include "text/text.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The one JSON string writer to a FILE: len bytes of s in quotes,
 * escaped by text_json_escape_into. */
void json_escaped(FILE *out, const char *s, size_t len, enum text_json_mode mode);
/* json_escaped as TEXT_JSON_TEXT, of a NUL-terminated string or len bytes. */
void json_string(FILE *out, const char *s);
void json_string_n(FILE *out, const char *s, size_t len);
void json_dtype(FILE *out, const npydt_dtype *dt);

#endif
