/* What the files reading JSON Lines share (jsonl_tokens.c, jsonl_in.c,
 * jsonl_plan.c): a line's tokens, the general walk of one line's tokens
 * along the dtype, and the plan that reads the usual line in one pass. */
#ifndef NPYDT_CLI_JSONL_H
#define NPYDT_CLI_JSONL_H

#include "cli/load/load.h"

/* Tokens are jsmn's (its header gives their layout: type, start, end,
 * size), made by jsonl_tokens.c by jsmn's strict rules without parent
 * links. A test that compares the two compiles jsmn's own tokenizer by
 * defining JSONL_TOKENIZER. */
#define JSMN_STRICT
#ifdef JSONL_TOKENIZER
#define JSMN_STATIC
#else
#define JSMN_HEADER
/* One thread's reader of JSON Lines (load_reader's): a clone (from not
 * NULL) shares the plan of from. NULL when there is no memory. */
struct jsonl_reader;
struct jsonl_reader *jsonl_reader_new(struct load_record *rec, const struct jsonl_reader *from);
void jsonl_reader_free(struct jsonl_reader *j);
/* load_reader_read for JSON Lines. */
npydt_status jsonl_read(struct jsonl_reader *j, const char *s, size_t n,
                        const struct load_sink *sink, struct load_span *span, npydt_error *err);

#endif
#include <jsmn.h>

/* The caps on one line: it may nest JSONL_MAX_DEPTH levels, or as deep
 * as the dtype's own lines when that is more, and hold twice the tokens
 * (values and keys) of the record's line as dump --jsonl writes it, plus
 * JSONL_SPARE_TOKENS; every line that gives each value once, as lists,
 * objects or by field paths, fits. */
#define JSONL_MAX_DEPTH 1024
#define JSONL_SPARE_TOKENS 4096

/* One line's tokens, with the arrays kept from line to line. */
struct jsonl_tokens {
    jsmntok_t *t;
    int n;                  /* tokens of the last line */
    size_t cap;
    int *open;              /* the containers open while tokenizing */
    size_t open_cap;
    size_t max_tokens, max_depth;
};

void jsonl_tokens_init(struct jsonl_tokens *tk, size_t max_tokens, size_t max_depth);
void jsonl_tokens_free(struct jsonl_tokens *tk);
/* Tokenize the line s[0..n): exactly one JSON value, with spaces and tabs
 * around it. NPYDT_E_SYNTAX for what is not JSON (at byte N, as jsmn
 * reports it), NPYDT_E_LIMIT for a line nested deeper than max_depth or
 * of more than max_tokens tokens; the work is linear in n. */
npydt_status jsonl_tokenize(struct jsonl_tokens *tk, const char *s, size_t n, npydt_error *err);
/* The caps above for lines of dt (a root dtype). */
void jsonl_caps(const npydt_dtype *dt, size_t *max_tokens, size_t *max_depth);

/* Fill rec from the tokens t[0..nt) of line (tokenized in full) by the
 * general walk: any order of keys, field paths, lists of fields' values,
 * every error with its field path. sbuf holds unescaped strings (the
 * line's length). The record is cleared first and checked complete. */
npydt_status jsonl_walk(const char *line, const jsmntok_t *t, int nt, struct load_record *rec,
                        char *sbuf, npydt_error *err);

/* A line as dump --jsonl writes one for a dtype, and how each value
 * converts into the record's bytes. */
struct jsonl_plan;

/* The plan of dt (a root dtype), or NULL when the plan does not cover it
 * (a kind it does not convert, overlapping or empty elements, too many
 * tokens, no memory): every line then takes the general walk. */
struct jsonl_plan *jsonl_plan_new(const npydt_dtype *dt);
void jsonl_plan_free(struct jsonl_plan *plan);
/* Fill bytes (the record's itemsize bytes) from the line s[0..len) when
 * it follows the plan and every value converts exactly as the general
 * walk would: 1, in one pass over the line's bytes. 0 when anything
 * differs, bytes then undefined; the general walk then reads the line and
 * gives the result or error. */
int jsonl_plan_read(const struct jsonl_plan *plan, const char *s, size_t len,
                    unsigned char *bytes);

/* One thread's reader of JSON Lines (load_reader's): a clone (from not
 * NULL) shares the plan of from. NULL when there is no memory. */
struct jsonl_reader;
struct jsonl_reader *jsonl_reader_new(struct load_record *rec, const struct jsonl_reader *from);
void jsonl_reader_free(struct jsonl_reader *j);
/* load_reader_read for JSON Lines. */
npydt_status jsonl_read(struct jsonl_reader *j, const char *s, size_t n,
                        const struct load_sink *sink, struct load_span *span, npydt_error *err);

#endif
