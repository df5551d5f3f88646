/* Writes the result of a DuckDB query, taken as Arrow arrays
 * (duckdb_query_arrow), into a .npy through npydt's Arrow import:
 *   arrow_import_duckdb LIBDUCKDB OUT.npy WIDTH SQL
 * The result's batches are handed to npydt_arrow_write_stream as an
 * ArrowArrayStream; the dtype is npydt_arrow_dtype's of the result's
 * schema, strings WIDTH wide (0: refused); OUT appears only when all went
 * well. Prints the dtype's descriptor.
 * DuckDB's C library is loaded at run time (the npm package
 * @duckdb/node-api ships libduckdb.so and no header), so the few
 * declarations used are written here from DuckDB's duckdb.h. Exit status
 * 0, or 1 with npydt's or DuckDB's message on stderr. */
#include "npydt.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;
typedef struct { void *internal_ptr; } * duckdb_database;
typedef struct { void *internal_ptr; } * duckdb_connection;
typedef struct { void *internal_ptr; } * duckdb_arrow;
typedef struct { void *internal_ptr; } * duckdb_arrow_schema;
typedef struct { void *internal_ptr; } * duckdb_arrow_array;

static struct {
    duckdb_state (*open)(const char *, duckdb_database *);
    void (*close)(duckdb_database *);
    duckdb_state (*connect)(duckdb_database, duckdb_connection *);
    void (*disconnect)(duckdb_connection *);
    duckdb_state (*query_arrow)(duckdb_connection, const char *, duckdb_arrow *);
    duckdb_state (*query_arrow_schema)(duckdb_arrow, duckdb_arrow_schema *);
    duckdb_state (*query_arrow_array)(duckdb_arrow, duckdb_arrow_array *);
    const char *(*query_arrow_error)(duckdb_arrow);
    void (*destroy_arrow)(duckdb_arrow *);
} db;

static int load(const char *lib)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "arrow_import_duckdb: %s\n", dlerror());
        return 1;
    }
#define SYM(field, name)                                                            \
    do {                                                                            \
        void *p = dlsym(h, name);                                                   \
        if (!p) {                                                                   \
            fprintf(stderr, "arrow_import_duckdb: %s lacks %s\n", lib, name);       \
            return 1;                                                               \
        }                                                                           \
        memcpy(&db.field, &p, sizeof p);                                            \
    } while (0)
    SYM(open, "duckdb_open");
    SYM(close, "duckdb_close");
    SYM(connect, "duckdb_connect");
    SYM(disconnect, "duckdb_disconnect");
    SYM(query_arrow, "duckdb_query_arrow");
    SYM(query_arrow_schema, "duckdb_query_arrow_schema");
    SYM(query_arrow_array, "duckdb_query_arrow_array");
    SYM(query_arrow_error, "duckdb_query_arrow_error");
    SYM(destroy_arrow, "duckdb_destroy_arrow");
    return 0;
}

/* ---- a DuckDB result as an ArrowArrayStream -------------------------------- */

static int result_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    duckdb_arrow res = s->private_data;
    memset(out, 0, sizeof *out);
    duckdb_arrow_schema p = (duckdb_arrow_schema)(void *)out;
    return db.query_arrow_schema(res, &p) == DuckDBSuccess ? 0 : EIO;
}

static int result_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    duckdb_arrow res = s->private_data;
    memset(out, 0, sizeof *out); /* left released at the end */
    duckdb_arrow_array p = (duckdb_arrow_array)(void *)out;
    return db.query_arrow_array(res, &p) == DuckDBSuccess ? 0 : EIO;
}

static const char *result_error(struct ArrowArrayStream *s)
{
    return db.query_arrow_error(s->private_data);
}

static void result_release(struct ArrowArrayStream *s)
{
    duckdb_arrow res = s->private_data;
    db.destroy_arrow(&res);
    s->release = NULL;
}

static int import(duckdb_connection con, const char *out, size_t width, const char *sql)
{
    duckdb_arrow res = NULL;
    if (db.query_arrow(con, sql, &res) != DuckDBSuccess) {
        fprintf(stderr, "arrow_import_duckdb: %s\n", res ? db.query_arrow_error(res) : sql);
        if (res)
            db.destroy_arrow(&res);
        return 1;
    }
    struct ArrowArrayStream s = {result_schema, result_next, result_error, result_release, res};
    npydt_arrow_import_options o;
    npydt_arrow_import_options_init(&o);
    o.string_width = width;
    npydt_error err;
    npydt_dtype *dt = NULL;
    npydt_writer *w = NULL;
    struct ArrowSchema schema;
    int rc = 1;
    if (s.get_schema(&s, &schema) != 0) {
        fprintf(stderr, "arrow_import_duckdb: no schema: %s\n", s.get_last_error(&s));
    } else {
        npydt_status st = npydt_arrow_dtype(&schema, NULL, &o, &dt, &err);
        schema.release(&schema);
        uint64_t shape[1] = {0};
        /* the file appears at close, whole, or not at all */
        npydt_writer_options wo;
        npydt_writer_options_init(&wo);
        wo.replace = 1;
        if (st == NPYDT_OK)
            st = npydt_writer_create_path(out, dt, shape, 1, &wo, &w, &err);
        if (st == NPYDT_OK)
            st = npydt_arrow_write_stream(w, &s, &o, &err);
        if (st == NPYDT_OK) {
            st = npydt_writer_close(w, &err);
        } else if (w) {
            npydt_error ignored;
            npydt_writer_discard(w, &ignored);
        }
        if (st == NPYDT_OK) {
            char descr[1024];
            npydt_dtype_descr(dt, descr, sizeof descr);
            printf("%s\n", descr);
            rc = 0;
        } else {
            fprintf(stderr, "arrow_import_duckdb: %s%s%s%s\n", err.path[0] ? "field " : "",
                    err.path, err.path[0] ? ": " : "", err.message);
        }
        npydt_dtype_free(dt);
    }
    s.release(&s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: arrow_import_duckdb LIBDUCKDB OUT.npy WIDTH SQL\n");
        return 1;
    }
    if (load(argv[1]))
        return 1;
    duckdb_database d;
    duckdb_connection con;
    int rc = 1;
    if (db.open(NULL, &d) == DuckDBSuccess) {
        if (db.connect(d, &con) == DuckDBSuccess) {
            rc = import(con, argv[2], (size_t)strtoull(argv[3], NULL, 10), argv[4]);
            db.disconnect(&con);
        }
        db.close(&d);
    }
    return rc;
}
