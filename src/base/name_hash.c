/* The name hash of the public header: name_key, for the command's tables
 * of names and any program's. */
#include "base/base.h"

uint64_t npydt_name_hash(const char *name, size_t len)
{
    return name_key(name, len);
}
