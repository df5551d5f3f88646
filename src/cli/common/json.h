/* JSON text of the command's output (locale independent). */
#ifndef NPYDT_CLI_COMMON_JSON_H
#define NPYDT_CLI_COMMON_JSON_H

#include "npydt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Does s start with a C1 control, U+2028 or U+2029 (in UTF-8)? JSON text
 * may hold them raw, but Python's splitlines() breaks lines at them, so
 * the command's output writes them as \uXXXX. */
bool json_breaks_lines(const unsigned char *s, size_t n);
/* How json_escaped treats bytes of 0x80 and above. */
enum json_mode {
    JSON_TEXT,    /* UTF-8 text: passes through, but a lone surrogate (the
                   * library's ED A0..BF xx for U data) and the line breaks
                   * above are written \uXXXX */
    JSON_BYTES    /* bytes (S data): each as \u00XX */
};
/* The one JSON string writer: len bytes of s in quotes; '"', '\\' and the
 * controls \b \f \n \r \t as json.dumps writes them, other controls and
 * DEL as \u00XX. */
void json_escaped(FILE *out, const char *s, size_t len, enum json_mode mode);
/* The same without the quotes into dst, which holds JSON_ESCAPED_MAX(len)
 * bytes; returns the bytes written. */
#define JSON_ESCAPED_MAX(len) (6 * (len))
size_t json_escape_into(char *dst, const char *s, size_t len, enum json_mode mode);
/* json_escaped as JSON_TEXT, of a NUL-terminated string or len bytes. */
void json_string(FILE *out, const char *s);
void json_string_n(FILE *out, const char *s, size_t len);
void json_dtype(FILE *out, const npydt_dtype *dt);

#endif
