/* What the schema stage gives later stages: nothing beyond the public
 * API (npydt_schema_*), which they call like any program. The checker's
 * own parts (cancast.h) stay inside the stage. Not installed. */
#ifndef NPYDT_SCHEMA_H
#define NPYDT_SCHEMA_H

#include "base/base.h"

#endif
