/* The text stage: how values and formats are spelled, with libc alone.
 *
 * The lowest stage of the library. It knows no arena, no npydt_error and
 * no dtype: it turns numbers, dates, code points and shapes into bytes and
 * back, the same way for the library's messages and the command's output.
 * Every other stage may include this header, and so may the command
 * (src/cli/), which links the stage's objects itself; in the shared
 * library these names are hidden, in the static one localized.
 */
#ifndef NPYDT_TEXT_H
#define NPYDT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#endif
