/* Hands npydt's Arrow stream of a .npy file to DuckDB (duckdb_arrow_scan)
 * and prints the results of SQL queries over it:
 *   arrow_duckdb LIBDUCKDB FILE.npy SQL...
 * Each query sees the array as the table t, through a stream of its own
 * (batches of 3 rows, so that every array of more than three rows comes
 * in several); its rows are printed one a line, values separated by tabs,
 * NULL as \N, then a line "--". DuckDB's C library is loaded at run time
 * (the npm package @duckdb/node-api ships libduckdb.so and no header), so
 * the few declarations used are written here from DuckDB's duckdb.h. Exit
 * status 0, or 1 with a message on stderr. */
#include "npydt.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t idx_t;
typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;
typedef struct { void *internal_ptr; } * duckdb_database;
typedef struct { void *internal_ptr; } * duckdb_connection;
typedef struct { void *internal_ptr; } * duckdb_arrow_stream;
typedef struct {
    idx_t deprecated_column_count;
    idx_t deprecated_row_count;
    idx_t deprecated_rows_changed;
    void *deprecated_columns;
    char *deprecated_error_message;
    void *internal_data;
} duckdb_result;

static struct {
    duckdb_state (*open)(const char *, duckdb_database *);
    void (*close)(duckdb_database *);
    duckdb_state (*connect)(duckdb_database, duckdb_connection *);
    void (*disconnect)(duckdb_connection *);
    duckdb_state (*query)(duckdb_connection, const char *, duckdb_result *);
    void (*destroy_result)(duckdb_result *);
    const char *(*result_error)(duckdb_result *);
    idx_t (*row_count)(duckdb_result *);
    idx_t (*column_count)(duckdb_result *);
    char *(*value_varchar)(duckdb_result *, idx_t, idx_t);
    bool (*value_is_null)(duckdb_result *, idx_t, idx_t);
    void (*free)(void *);
    duckdb_state (*arrow_scan)(duckdb_connection, const char *, duckdb_arrow_stream);
} db;

static int load(const char *lib)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "arrow_duckdb: %s\n", dlerror());
        return 1;
    }
#define SYM(field, name)                                                            \
    do {                                                                            \
        void *p = dlsym(h, name);                                                   \
        if (!p) {                                                                   \
            fprintf(stderr, "arrow_duckdb: %s lacks %s\n", lib, name);              \
            return 1;                                                               \
        }                                                                           \
        memcpy(&db.field, &p, sizeof p);                                            \
    } while (0)
    SYM(open, "duckdb_open");
    SYM(close, "duckdb_close");
    SYM(connect, "duckdb_connect");
    SYM(disconnect, "duckdb_disconnect");
    SYM(query, "duckdb_query");
    SYM(destroy_result, "duckdb_destroy_result");
    SYM(result_error, "duckdb_result_error");
    SYM(row_count, "duckdb_row_count");
    SYM(column_count, "duckdb_column_count");
    SYM(value_varchar, "duckdb_value_varchar");
    SYM(value_is_null, "duckdb_value_is_null");
    SYM(free, "duckdb_free");
    SYM(arrow_scan, "duckdb_arrow_scan");
    return 0;
}

static void print_field(const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\\\", stdout);
        else if (*s == '\t')
            fputs("\\t", stdout);
        else if (*s == '\n')
            fputs("\\n", stdout);
        else
            putchar(*s);
    }
}

/* One query over a fresh stream of r. */
static int run(duckdb_connection con, npydt_reader *r, const char *sql)
{
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.batch_rows = 3;
    struct ArrowArrayStream s;
    npydt_error err;
    if (npydt_arrow_stream_open(r, &o, &s, &err) != NPYDT_OK) {
        fprintf(stderr, "arrow_duckdb: %s\n", err.message);
        return 1;
    }
    int rc = 0;
    duckdb_result res;
    if (db.arrow_scan(con, "t", (duckdb_arrow_stream)(void *)&s) != DuckDBSuccess) {
        fprintf(stderr, "arrow_duckdb: duckdb_arrow_scan failed\n");
        rc = 1;
    } else if (db.query(con, sql, &res) != DuckDBSuccess) {
        fprintf(stderr, "arrow_duckdb: %s: %s\n", sql, db.result_error(&res));
        db.destroy_result(&res);
        rc = 1;
    } else {
        idx_t rows = db.row_count(&res), cols = db.column_count(&res);
        for (idx_t i = 0; i < rows; i++) {
            for (idx_t c = 0; c < cols; c++) {
                if (c)
                    putchar('\t');
                if (db.value_is_null(&res, c, i)) {
                    fputs("\\N", stdout);
                    continue;
                }
                char *v = db.value_varchar(&res, c, i);
                print_field(v ? v : "\\N");
                db.free(v);
            }
            putchar('\n');
        }
        puts("--");
        db.destroy_result(&res);
    }
    duckdb_result drop;
    if (db.query(con, "DROP VIEW IF EXISTS t", &drop) == DuckDBSuccess)
        db.destroy_result(&drop);
    if (s.release)
        s.release(&s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: arrow_duckdb LIBDUCKDB FILE.npy SQL...\n");
        return 1;
    }
    if (load(argv[1]))
        return 1;
    npydt_reader *r;
    npydt_error err;
    if (npydt_reader_open_path(argv[2], NULL, &r, &err) != NPYDT_OK) {
        fprintf(stderr, "arrow_duckdb: %s: %s\n", argv[2], err.message);
        return 1;
    }
    duckdb_database d;
    duckdb_connection con;
    int rc = 1;
    if (db.open(NULL, &d) == DuckDBSuccess) {
        if (db.connect(d, &con) == DuckDBSuccess) {
            rc = 0;
            for (int i = 3; i < argc && rc == 0; i++)
                rc = run(con, r, argv[i]);
            db.disconnect(&con);
        }
        db.close(&d);
    }
    npydt_reader_close(r);
    return rc;
}
