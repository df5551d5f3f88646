/* The tokenizer of JSON lines (src/cli/jsonl_tokens.c) against jsmn's
 * own strict tokenizer, which it stands in for: on every line, the same
 * tokens (type, start, end, size) or the same error at the same byte; and
 * its caps on nesting and tokens, which name the limit and the byte. */
#include "test_util.h"

#define JSONL_TOKENIZER   /* this file compiles jsmn's tokenizer as the reference */
#include "cli/load/jsonl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_TOKENS 4096

/* jsmn's result for line as the command reported it before: its tokens,
 * or the error message. 1 when tokenized. */
static int reference(const char *s, size_t n, jsmntok_t *toks, int *count, char *msg,
                     size_t msg_size)
{
    size_t a = 0, b = n;
    while (a < b && (s[a] == ' ' || s[a] == '\t'))
        a++;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
        b--;
    if (a < b && s[a] != '{' && s[a] != '[' && s[a] != '"') {
        toks[0] = (jsmntok_t){.type = JSMN_PRIMITIVE, .start = (int)a, .end = (int)b};
        *count = 1;
        return 1;
    }
    jsmn_parser p;
    jsmn_init(&p);
    int r = jsmn_parse(&p, s, n, toks, REF_TOKENS);
    assert_true(r != JSMN_ERROR_NOMEM);
    if (r < 0) {
        snprintf(msg, msg_size, "%s at byte %u",
                 r == JSMN_ERROR_PART ? "the JSON text ends early" : "not valid JSON", p.pos + 1);
        return 0;
    }
    if (r == 0) {
        snprintf(msg, msg_size, "no JSON value on the line");
        return 0;
    }
    size_t end = (size_t)toks[0].end + (toks[0].type == JSMN_STRING);
    for (size_t k = end; k < n; k++)
        if (s[k] != ' ' && s[k] != '\t') {
            snprintf(msg, msg_size, "text after the JSON value at byte %zu", k + 1);
            return 0;
        }
    *count = r;
    return 1;
}

/* The line tokenizes exactly as jsmn tokenizes it. */
static void same_as_jsmn(struct jsonl_tokens *tk, const char *s, size_t n)
{
    static jsmntok_t want[REF_TOKENS];
    char want_msg[128] = "";
    int want_n = 0;
    int ok = reference(s, n, want, &want_n, want_msg, sizeof want_msg);
    npydt_error err;
    npydt_status st = jsonl_tokenize(tk, s, n, &err);
    if (!ok) {
        if (st != NPYDT_E_SYNTAX || strcmp(err.message, want_msg) != 0)
            fail_msg("'%.*s': '%s', jsmn '%s'", (int)n, s,
                     st == NPYDT_OK ? "tokenized" : err.message, want_msg);
        return;
    }
    if (st != NPYDT_OK)
        fail_msg("'%.*s': '%s', jsmn tokenized it", (int)n, s, err.message);
    if (tk->n != want_n)
        fail_msg("'%.*s': %d tokens, jsmn %d", (int)n, s, tk->n, want_n);
    for (int i = 0; i < want_n; i++) {
        const jsmntok_t *a = &tk->t[i], *b = &want[i];
        if (a->type != b->type || a->start != b->start || a->end != b->end ||
            a->size != b->size)
            fail_msg("'%.*s': token %d is (%d %d %d %d), jsmn's (%d %d %d %d)", (int)n, s, i,
                     a->type, a->start, a->end, a->size, b->type, b->start, b->end, b->size);
    }
}

static void test_jsonl_tokens_match_jsmn_on_chosen_lines(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "{\"id\":1,\"pos\":{\"x\":1.5,\"y\":2},\"s\":[1,2],\"name\":\"ab\",\"c\":[1,2]}",
        "{\"id\":1,\"pos\":{\"x\":1.5,\"y\":2},\"s\":[1,2],\"name\":\"ab\",\"c\":[1,2]",
        "[1] [2]", "[1] 2", "[1] x", "[1:2]", "[1,,2]", "{\"a\" \"b\"}", "{\"a\":1 \"b\":2}",
        "{{}}", "{[1]:2}", "{1:2}", "{\"a\":1:2}", "{\"a\":\"b\":1}", "[}", "{]", "]", "}",
        "[\"a\\u12\"]", "[\"a\\u12", "[\"a\\x\"]", "[\"a\\", "[\"\\\"]", "[tru]", "[tru",
        "[1\x01]", "[\"\x01\"]", "[1\x80]", "\"abc\"", "\"abc\" ", "\"abc", "", "  ", "[]",
        "{}", "[[[]]]", "[[[]]", "[1,[2,[3,{\"a\":[4]}]],5]",
        "{\"a\":{\"b\":{\"c\":1},\"d\":2},\"e\":3}",
        "{\"a\":[1,2],\"b\":{}}", "[1,]", "[,1]", ",", ":", "[\"a\":1]", "{\"a\",1}",
        "[1]\t", "[1]\r", "[ 1 , 2 ]", "{\"k\":-1e5,\"l\":true,\"m\":null,\"n\":false}",
        "1", "-", "true false", "{\"a\":1}}", "[[1]]]"};
    struct jsonl_tokens tk;
    jsonl_tokens_init(&tk, REF_TOKENS, REF_TOKENS);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        same_as_jsmn(&tk, lines[i], strlen(lines[i]));
    jsonl_tokens_free(&tk);
}

static uint64_t next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static void test_jsonl_tokens_match_jsmn_on_random_lines(void **state)
{
    (void)state;
    /* JSON's punctuation more often than the rest */
    static const char alphabet[] = "{}[]{}[]\"\"\"::,,,  \t1-etrun\\\\ua0Fx\x01\x7f";
    struct jsonl_tokens tk;
    jsonl_tokens_init(&tk, REF_TOKENS, REF_TOKENS);
    uint64_t rng = 0x9E3779B97F4A7C15u;
    char line[40];
    for (int i = 0; i < 400000; i++) {
        size_t n = next(&rng) % sizeof line;
        for (size_t k = 0; k < n; k++)
            line[k] = alphabet[next(&rng) % (sizeof alphabet - 1)];
        same_as_jsmn(&tk, line, n);
    }
    jsonl_tokens_free(&tk);
}

/* Random lines of valid JSON: containers, keys, strings with escapes. */
static size_t gen_value(uint64_t *rng, char *o, size_t room, unsigned depth)
{
    static const char *const atoms[] = {"1", "-2.5e3", "true", "null", "\"a\"", "\"\\u00e9\\n\"",
                                        "\"\""};
    unsigned r = (unsigned)(next(rng) % 8);
    if (room < 64 || depth > 6 || r < 4) {
        const char *a = atoms[next(rng) % (sizeof atoms / sizeof atoms[0])];
        size_t n = strlen(a);
        memcpy(o, a, n);
        return n;
    }
    int object = r < 6;
    size_t k = 0, items = (size_t)(next(rng) % 5);
    o[k++] = object ? '{' : '[';
    for (size_t i = 0; i < items && room - k > 64; i++) {
        if (i)
            o[k++] = ',';
        if (object)
            k += (size_t)snprintf(o + k, room - k, "\"k%zu\":", i);
        k += gen_value(rng, o + k, room - k - 2, depth + 1);
    }
    o[k++] = object ? '}' : ']';
    return k;
}

static void test_jsonl_tokens_match_jsmn_on_random_json(void **state)
{
    (void)state;
    struct jsonl_tokens tk;
    jsonl_tokens_init(&tk, REF_TOKENS, REF_TOKENS);
    uint64_t rng = 0x2545F4914F6CDD1Du;
    char line[2048];
    for (int i = 0; i < 20000; i++) {
        size_t n = gen_value(&rng, line, sizeof line, 0);
        same_as_jsmn(&tk, line, n);
        /* and cut short, or with one byte changed */
        same_as_jsmn(&tk, line, (size_t)(next(&rng) % (n + 1)));
        line[next(&rng) % n] = "{}[]\":, x"[next(&rng) % 9];
        same_as_jsmn(&tk, line, n);
    }
    jsonl_tokens_free(&tk);
}

static void test_jsonl_tokens_refuse_a_line_nested_deeper_than_the_cap(void **state)
{
    (void)state;
    struct jsonl_tokens tk;
    jsonl_tokens_init(&tk, 1000, 4);
    npydt_error err;
    assert_int_equal(jsonl_tokenize(&tk, "[[[[1]]]]", 9, &err), NPYDT_OK);
    assert_int_equal(jsonl_tokenize(&tk, "[[[{\"a\":[1]}]]]", 15, &err), NPYDT_E_LIMIT);
    assert_string_equal(err.message, "nested more than 4 levels deep at byte 9");
    jsonl_tokens_free(&tk);
}

static void test_jsonl_tokens_refuse_a_line_of_more_tokens_than_the_cap(void **state)
{
    (void)state;
    struct jsonl_tokens tk;
    jsonl_tokens_init(&tk, 5, 100);
    npydt_error err;
    assert_int_equal(jsonl_tokenize(&tk, "{\"a\":1,\"b\":2}", 13, &err), NPYDT_OK);
    assert_int_equal(tk.n, 5);
    assert_int_equal(jsonl_tokenize(&tk, "{\"a\":1,\"b\":2,\"c\":3}", 19, &err), NPYDT_E_LIMIT);
    assert_string_equal(err.message, "more than 5 JSON values and keys on one line at byte 14");
    jsonl_tokens_free(&tk);
}

/* The caps follow the dtype: twice the tokens of dump's line plus the
 * spare, and the depth of its deepest value when above JSONL_MAX_DEPTH. */
static void test_jsonl_caps_follow_the_dtype(void **state)
{
    (void)state;
    size_t tokens, depth;
    npydt_dtype *dt = test_parse_literal("[('id','<u1'),('pos',[('x','<f4'),('y','<f4')]),"
                                         "('s','<i2',(2,3)),('c','<c8')]");
    /* {"id":1,"pos":{"x":1,"y":2},"s":[[1,2,3],[4,5,6]],"c":[1,2]}: 1 + 2
     * + 6 + (1 + 3 lists + 6 values) + 4 */
    jsonl_caps(dt, &tokens, &depth);
    assert_int_equal(tokens, 2 * 23 + JSONL_SPARE_TOKENS);
    assert_int_equal(depth, JSONL_MAX_DEPTH);
    npydt_dtype_free(dt);
}

TEST_LIST("jsonl_tokens",
    cmocka_unit_test(test_jsonl_tokens_match_jsmn_on_chosen_lines),
    cmocka_unit_test(test_jsonl_tokens_match_jsmn_on_random_lines),
    cmocka_unit_test(test_jsonl_tokens_match_jsmn_on_random_json),
    cmocka_unit_test(test_jsonl_tokens_refuse_a_line_nested_deeper_than_the_cap),
    cmocka_unit_test(test_jsonl_tokens_refuse_a_line_of_more_tokens_than_the_cap),
    cmocka_unit_test(test_jsonl_caps_follow_the_dtype));
