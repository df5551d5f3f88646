/* Schema specs from the command line and from files (--schema, --dtype). */
#ifndef NPYDT_CLI_COMMON_SPEC_H
#define NPYDT_CLI_COMMON_SPEC_H

#include "npydt.h"

#include <stddef.h>

/* The header-like dict literal of h, as np.save writes the dict
 * ("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }"): a spec
 * check --schema reads and h's file matches. With any_length the first
 * dimension is -1 ("(-1, 3)"): the reference form, which any number of
 * records matches. malloc'd; NULL when out of memory. */
char *cli_spec_of_header(const npydt_header *h, int any_length);
/* The spec of the one array arg names (FILE, ARCHIVE:NAME, '-', or an
 * archive of one member), as cli_spec_of_header writes it, into *out
 * (malloc'd); 0, or an exit status
 * after reporting: a usage error names cmd, and what (the option; NULL
 * for an operand). */
struct cli_command;
int cli_spec_of_input(const struct cli_command *cmd, const char *arg, const char *what,
                      int any_length, char **out);
/* The text of a --schema argument into *out (malloc'd, NUL-terminated,
 * *len bytes): the argument itself; @PATH, the text of PATH, or the spec
 * of its header when PATH starts as a .npy file or an archive does; or
 * like:FILE, the spec of the array FILE names (both in the reference
 * form of cli_spec_of_header: any length). 0, or an exit status after
 * reporting (a usage error names cmd and the option what). */
int cli_spec_text(const struct cli_command *cmd, const char *what, const char *arg, char **out,
                  size_t *len);
/* The same for a text that is never a file's header (--rules): the
 * argument itself, or the text of PATH for @PATH. */
int cli_text_arg(const char *what, const char *arg, char **out, size_t *len);
/* The file a spec argument takes its spec from (FILE of like:FILE, or of
 * @FILE when FILE starts as a .npy file or an archive), else NULL. */
const char *cli_spec_file(const char *arg);

#endif
