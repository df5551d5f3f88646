/* The header literal's parse out of memory: wherever an allocation of the
 * lexer or the grammar fails (a node of the tree, a composite token, a
 * decoded or joined string, a level of the field count, the parser's
 * stack), the parse reports NPYDT_E_NOMEM and no tree; with enough memory
 * it builds the tree an unbounded parse builds.
 *
 * The parse's two arenas each start from a buffer of a given size and then
 * ask an allocator that always fails: a sweep of the size over every
 * 16-byte step (the arena's granule) makes each allocation in turn the
 * first that does not fit. */
#include "test_util.h"

#include "literal/literal.h"

#include <stdlib.h>
#include <string.h>

enum which { NODES, STRINGS };

static npydt_limits default_limits(void)
{
    npydt_options opts;
    npydt_options_init(&opts);
    return opts.limits;
}

/* Parse text with the arena `which` limited to budget bytes (the other one
 * unbounded); *out is the tree on success (in the arenas the caller
 * releases). */
static npydt_status parse_within(const char *text, enum lit_root root, const npydt_limits *lim,
                                 enum which which, size_t budget, struct test_alloc *fail,
                                 struct arena *ar, struct arena *nodes, void *room,
                                 struct lit **out, npydt_error *err)
{
    test_alloc_init(fail, 0, 1);
    if (which == NODES) {
        arena_init(ar, NULL);
        arena_init_buffer(nodes, &fail->alloc, room, budget);
    } else {
        arena_init_buffer(ar, &fail->alloc, room, budget);
        arena_init(nodes, NULL);
    }
    return lit_parse_text(ar, nodes, text, strlen(text), 3, root, lim, err, out);
}

/* Trees are equal: kinds, spans, strings, numbers, items. */
static void assert_lit_equal(const struct lit *a, const struct lit *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->start, b->start);
    assert_int_equal(a->end, b->end);
    switch (a->kind) {
    case LIT_STR:
    case LIT_BYTES:
        assert_int_equal(a->u.str.len, b->u.str.len);
        assert_memory_equal(a->u.str.s, b->u.str.s, a->u.str.len);
        break;
    case LIT_INT:
    case LIT_FLOAT:
        assert_int_equal(a->u.num.mag, b->u.num.mag);
        assert_int_equal(a->u.num.neg, b->u.num.neg);
        assert_int_equal(a->u.num.big, b->u.num.big);
        break;
    case LIT_BOOL:
        assert_int_equal(a->u.b, b->u.b);
        break;
    case LIT_NONE:
        break;
    default:
        assert_int_equal(a->u.seq.n, b->u.seq.n);
        for (a = a->u.seq.head, b = b->u.seq.head; a && b; a = a->next, b = b->next)
            assert_lit_equal(a, b);
        assert_null(a);
        assert_null(b);
    }
}

/* Sweep the budget of arena `which` for text: every budget that is too
 * small fails with NPYDT_E_NOMEM and no tree, the first that is enough
 * gives the unbounded parse's tree. Returns the number of budgets that
 * failed. */
static size_t sweep(const char *text, enum lit_root root, const npydt_limits *lim,
                    enum which which)
{
    struct arena ar, nodes;
    struct lit *want;
    TEST_ERROR(err);
    arena_init(&ar, NULL);
    arena_init(&nodes, NULL);
    if (lit_parse_text(&ar, &nodes, text, strlen(text), 3, root, lim, &err, &want) != NPYDT_OK)
        fail_msg("%s: %s", text, err.message);
    size_t failed = 0;
    for (size_t budget = 0;; budget += 16) {
        static _Alignas(16) unsigned char room[1 << 16];
        assert_true(budget <= sizeof room);
        struct test_alloc fail;
        struct arena a2, n2;
        struct lit *got = (struct lit *)&fail;   /* not NULL: must be cleared */
        test_poison_error(&err);
        npydt_status st = parse_within(text, root, lim, which, budget, &fail, &a2, &n2, room,
                                       &got, &err);
        if (st == NPYDT_OK) {
            assert_lit_equal(got, want);
            arena_release(&a2);
            arena_release(&n2);
            break;
        }
        if (st != NPYDT_E_NOMEM)
            fail_msg("%s with %zu bytes of %s: %s (%s)", text, budget,
                     which == NODES ? "nodes" : "strings", npydt_status_name(st), err.message);
        test_assert_error_filled(st, &err);
        assert_null(got);
        assert_int_equal(fail.live_blocks, 0);
        arena_release(&a2);
        arena_release(&n2);
        failed++;
    }
    arena_release(&ar);
    arena_release(&nodes);
    return failed;
}

/* Literals that take every rule of the grammar and every composite token
 * of the lexer (comments name them). */
static const struct {
    const char *text;
    enum lit_root root;
} literals[] = {
    {"1, 2, 3,", LIT_ROOT_DESCR},                       /* value ',' items opt_comma */
    {"'a', ", LIT_ROOT_DESCR},                          /* value ',' */
    {"[+1, -2.5, True, False, None, (), (1), (1,), (1, 'x', 2,), [], [1, 2,]]",
     LIT_ROOT_DESCR},                                   /* values, tuples, lists */
    {"['a' \"b\" '''c''', b'x' b'y', '\\x41\\n']", LIT_ROOT_DESCR},   /* strings joined */
    {"[('a',), ('a', 1, 2), ('a', [1]), ((1, 2), 3)]", LIT_ROOT_DESCR},   /* HEAD */
    {"[(\n), (1.5,), (1.5, 2)]", LIT_ROOT_DESCR},        /* '(' ')', '(' value ',' ')' */
    {"[{1: 2}, {}]", LIT_ROOT_DESCR},                    /* dicts where entries go */
    {"[('a', '<i4'), ('b', '<f8', (2, 3)), ('c', '<i2')]", LIT_ROOT_DESCR},   /* LIST */
    {"[('a', '<i4'), ('b', '<f8', (2,)), ('c', [('d', '<i2')])]",
     LIT_ROOT_DESCR},                                   /* a run, then the rest */
    {"[\n('a', '<i4'), ('b', '<i4'), ('c', '<i4'), ('d', '<i4', (2,))]",
     LIT_ROOT_DESCR},                                   /* a run after '[' and a newline */
    {"[('a', [('b', [('c', [('d', [('e', [('f', '<i4')])])])])])]",
     LIT_ROOT_DESCR},                                   /* more levels than the first room */
    {"{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
     LIT_ROOT_HEADER},                                  /* ENTRYC, then '}' */
    {"{'descr': [('a', '<i4')], 'fortran_order': True, 'shape': ()}",
     LIT_ROOT_HEADER},                                  /* a value, then ENTRYC, ENTRY */
    {"{1: 2, 'a': 'b', 3: 4, 'c': True}", LIT_ROOT_HEADER},   /* pairs and entries mixed */
    {"{'a': 'b'}", LIT_ROOT_HEADER},                      /* ENTRY alone */
    {"{}", LIT_ROOT_HEADER},
    {"{1: {}, 2: {3: 4,}}", LIT_ROOT_HEADER},
};

static void test_literal_memory_every_node_allocation_fails_with_nomem(void **state)
{
    (void)state;
    npydt_limits lim = default_limits();
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++)
        assert_true(sweep(literals[i].text, literals[i].root, &lim, NODES) > 0);
}

/* The strings arena holds the copy of the text and the strings that are
 * not spans of it: escaped ones and joined ones. */
static void test_literal_memory_every_string_allocation_fails_with_nomem(void **state)
{
    (void)state;
    npydt_limits lim = default_limits();
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++)
        assert_true(sweep(literals[i].text, literals[i].root, &lim, STRINGS) > 0);
}

/* Nesting deeper than the parser's first stack (200 states) grows it
 * through the caller's allocator; when that fails, the parse is out of
 * memory (not a syntax error). */
static void test_literal_memory_parser_stack_growth_failure_is_nomem(void **state)
{
    (void)state;
    enum { DEPTH = 300 };
    char text[2 * DEPTH + 2];
    memset(text, '[', DEPTH);
    text[DEPTH] = '1';
    memset(text + DEPTH + 1, ']', DEPTH);
    text[2 * DEPTH + 1] = '\0';
    npydt_limits lim = default_limits();
    lim.max_depth = DEPTH;
    /* room for the text's copy and the few strings: the stack is not in
     * the arena, its growth asks the allocator, which fails */
    static _Alignas(16) unsigned char room[4096];
    struct test_alloc fail;
    struct arena ar, nodes;
    struct lit *got;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_NOMEM, &err,
                 parse_within(text, LIT_ROOT_DESCR, &lim, STRINGS, sizeof room, &fail, &ar,
                              &nodes, room, &got, &err));
    assert_null(got);
    assert_int_equal(fail.calls, 1);
    assert_int_equal(err.offset, NPYDT_NO_OFFSET);
    arena_release(&ar);
    arena_release(&nodes);
    /* with an allocator that does not fail, the same text parses */
    arena_init(&ar, NULL);
    arena_init(&nodes, NULL);
    assert_int_equal(lit_parse_text(&ar, &nodes, text, strlen(text), 3, LIT_ROOT_DESCR, &lim,
                                    &err, &got), NPYDT_OK);
    assert_int_equal(got->kind, LIT_LIST);
    arena_release(&ar);
    arena_release(&nodes);
}

TEST_LIST("literal_memory",
          cmocka_unit_test(test_literal_memory_every_node_allocation_fails_with_nomem),
          cmocka_unit_test(test_literal_memory_every_string_allocation_fails_with_nomem),
          cmocka_unit_test(test_literal_memory_parser_stack_growth_failure_is_nomem));
