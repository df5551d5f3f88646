/* The part of DuckDB's C API (duckdb.h) that the README's DuckDB example
 * uses, declared as DuckDB 1.5 declares it: the npm package
 * @duckdb/node-bindings-linux-x64 ships DuckDB's C library, libduckdb.so,
 * without its header. A program built against DuckDB's own release
 * includes DuckDB's header instead. */
#ifndef NPYDT_TESTS_DUCKDB_H
#define NPYDT_TESTS_DUCKDB_H

#include <stdint.h>

typedef uint64_t idx_t;
typedef enum duckdb_state { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;
typedef struct _duckdb_database { void *internal_ptr; } *duckdb_database;
typedef struct _duckdb_connection { void *internal_ptr; } *duckdb_connection;
typedef struct _duckdb_arrow_stream { void *internal_ptr; } *duckdb_arrow_stream;
/* its layout is the ABI: the caller owns the struct */
typedef struct {
    idx_t deprecated_column_count;
    idx_t deprecated_row_count;
    idx_t deprecated_rows_changed;
    void *deprecated_columns;
    char *deprecated_error_message;
    void *internal_data;
} duckdb_result;

duckdb_state duckdb_open(const char *path, duckdb_database *out_database);
void duckdb_close(duckdb_database *database);
duckdb_state duckdb_connect(duckdb_database database, duckdb_connection *out_connection);
void duckdb_disconnect(duckdb_connection *connection);
duckdb_state duckdb_query(duckdb_connection connection, const char *query, duckdb_result *out_result);
void duckdb_destroy_result(duckdb_result *result);
const char *duckdb_result_error(duckdb_result *result);
int64_t duckdb_value_int64(duckdb_result *result, idx_t col, idx_t row);
double duckdb_value_double(duckdb_result *result, idx_t col, idx_t row);
duckdb_state duckdb_arrow_scan(duckdb_connection connection, const char *table_name, duckdb_arrow_stream arrow);

#endif
