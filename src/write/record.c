/* The record under construction (its fields are set by path in set.c, or
 * through the typed writers on its bytes), committed as one record. */
#include "write/write.h"

void *npydt_writer_record(npydt_writer *w) { return w ? w->record : NULL; }

npydt_status npydt_writer_commit(npydt_writer *w, npydt_error *err)
{
    error_clear(err);
    npydt_status st = writer_usable(w, err);
    if (st != NPYDT_OK)
        return st;
    /* the record is appended whole or not at all; it is zeroed only once
     * it is in the buffer or the file */
    if ((st = npydt_writer_write(w, w->record, 1, err)) == NPYDT_OK)
        memset(w->record, 0, w->itemsize);
    return st;
}
