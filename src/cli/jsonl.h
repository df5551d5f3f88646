/* What the files reading JSON Lines share (jsonl_in.c, jsonl_plan.c):
 * jsmn's tokens, the general walk of one line's tokens along the dtype,
 * and the plan that reads the usual line faster. */
#ifndef NPYDT_CLI_JSONL_H
#define NPYDT_CLI_JSONL_H

#include "load.h"

/* jsmn's options, the same for every file that sees its tokens (they set
 * the token's layout); jsonl_in.c compiles the tokenizer itself. Not
 * JSMN_PARENT_LINKS: it would save a tenth of the tokenizer's work, but
 * it tokenizes some malformed lines differently (other tokens, another
 * error or error position), and those must read as before. */
#define JSMN_STRICT
#ifdef JSONL_TOKENIZER
#define JSMN_STATIC
#else
#define JSMN_HEADER
#endif
#include <jsmn.h>

/* Fill rec from the tokens t[0..nt) of line (tokenized in full) by the
 * general walk: any order of keys, field paths, lists of fields' values,
 * every error with its field path. sbuf holds unescaped strings (the
 * line's length). The record is cleared first and checked complete. */
npydt_status jsonl_walk(const char *line, const jsmntok_t *t, int nt, struct load_record *rec,
                        char *sbuf, npydt_error *err);

/* The tokens of a line as dump --jsonl writes one for a dtype, and how
 * each value converts into the record's bytes. */
struct jsonl_plan;

/* The plan of dt (a root dtype), or NULL when the plan does not cover it
 * (a kind it does not convert, overlapping or empty elements, too many
 * tokens, no memory): every line then takes the general walk. */
struct jsonl_plan *jsonl_plan_new(const npydt_dtype *dt);
void jsonl_plan_free(struct jsonl_plan *plan);
/* Fill bytes (the record's itemsize bytes) from the tokens t[0..nt) of
 * line when they follow the plan and every value converts exactly as the
 * general walk would: 1. 0 when anything differs, bytes then undefined;
 * the general walk then reads the line and gives the result or error. */
int jsonl_plan_fill(const struct jsonl_plan *plan, const char *line, const jsmntok_t *t, int nt,
                    unsigned char *bytes);

#endif
