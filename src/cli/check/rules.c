/* npydt check --rules: the library compiles the rules against each
 * array's dtype and checks its elements; this reports. */
#include "cli/check/rules.h"
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/json.h"
#include "cli/common/report.h"
#include "cli/common/spec.h"

#include <stdlib.h>
#include <string.h>

/* A rules error typed on the command line: "--rules: rules offset N: ...". */
static int usage(const struct cli_command *cmd, const npydt_error *err)
{
    char at[64] = "";
    if (err->offset != NPYDT_NO_OFFSET)
        snprintf(at, sizeof at, "rules offset %zu: ", err->offset);
    return cli_usage(cmd, "--rules: %s%s%s%s%s", at, err->path[0] ? "field " : "", err->path,
                     err->path[0] ? ": " : "", err->message);
}

int check_rules_prepare(const struct cli_command *cmd, const char *arg, const npydt_dtype *dt,
                        uint64_t max_unique_bytes, size_t max_values, struct check_rules *out)
{
    memset(out, 0, sizeof *out);
    npydt_rules_options_init(&out->opts);
    if (max_unique_bytes)
        out->opts.max_unique_bytes = max_unique_bytes;
    if (max_values)
        out->opts.max_values = max_values;
    int status = cli_text_arg("--rules", arg, &out->text, &out->len);
    if (status != EXIT_OK)
        return status;
    /* read alone, then against the schema's dtype: each mistake once, here */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !dt)
            break;
        npydt_rules *rules;
        npydt_error err;
        npydt_status st = npydt_rules_compile(out->text, out->len, pass ? dt : NULL, &out->opts,
                                              &rules, &err);
        npydt_rules_free(rules);
        if (st == NPYDT_E_NOMEM)
            status = cli_failure("out of memory");
        else if (st != NPYDT_OK)
            status = usage(cmd, &err);
        if (status != EXIT_OK) {
            check_rules_free(out);
            return status;
        }
    }
    return EXIT_OK;
}

void check_rules_free(struct check_rules *cr)
{
    free(cr->text);
    cr->text = NULL;
}

void rules_run_free(struct rules_run *run)
{
    npydt_rules_check_free(run->check);
    npydt_rules_free(run->rules);
    memset(run, 0, sizeof *run);
}

/* "FILE: rule failed: field PATH: RULE EXPECTED: N elements break it:
 * [I] VALUE, ..." */
static void print_result(struct cli_dest *d, const char *file, const npydt_rule_result *r)
{
    struct cli_line l;
    cli_line_init(&l);
    cli_line_format(&l, "%s: rule failed: ", file);
    if (r->path_len) {
        cli_line_puts(&l, "field ");
        cli_line_text(&l, r->path, r->path_len);
        cli_line_puts(&l, ": ");
    } else {
        cli_line_puts(&l, "dtype: ");
    }
    cli_line_format(&l, "%s ", r->rule);
    cli_line_text(&l, r->expected, r->expected_len);
    cli_line_format(&l, ": %llu element%s break%s it, first ",
                    (unsigned long long)r->violations, r->violations == 1 ? "" : "s",
                    r->violations == 1 ? "s" : "");
    for (size_t i = 0; i < r->nfirst; i++)
        cli_line_format(&l, "%s[%llu] %s", i ? ", " : "", (unsigned long long)r->first[i],
                        r->values[i]);
    cli_line_end_to(d, &l);
}

int check_rules_input(struct cli_dest *d, const struct check_rules *cr,
                      const struct cli_input *in, int verified, int json, struct rules_run *run)
{
    memset(run, 0, sizeof *run);
    npydt_reader *r;
    npydt_error err;
    if (cli_input_reader(in, verified, &r, &err) != NPYDT_OK)
        return cli_report_input_to(d, in, &err, json);
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(r));
    npydt_status st = npydt_rules_compile(cr->text, cr->len, dt, &cr->opts, &run->rules,
                                          &run->err);
    if (st == NPYDT_E_NOMEM) {
        npydt_reader_close(r);
        return cli_report_input_to(d, in, &run->err, json);
    }
    if (st != NPYDT_OK) {   /* the rules name what this array does not have */
        npydt_reader_close(r);
        struct cli_line l;
        cli_line_init(&l);
        cli_line_format(&l, "%s: rules do not fit: ", in->name);
        if (run->err.offset != NPYDT_NO_OFFSET)
            cli_line_format(&l, "rules offset %zu: ", run->err.offset);
        if (run->err.path[0])
            cli_line_format(&l, "field %s: ", run->err.path);
        cli_line_format(&l, "%s", run->err.message);
        cli_line_end_to(d, &l);
        return EXIT_MISMATCH;
    }
    run->placed = 1;
    if ((st = npydt_rules_check_new(run->rules, &run->check, &err)) == NPYDT_OK)
        st = npydt_rules_check_reader(run->check, r, &err);
    npydt_reader_close(r);
    if (st != NPYDT_OK) {
        int status = cli_report_input_to(d, in, &err, json);
        rules_run_free(run);
        return status;
    }
    for (size_t i = 0; i < npydt_rules_count(run->rules); i++) {
        const npydt_rule_result *res = npydt_rules_check_result(run->check, i);
        if (res->violations)
            print_result(d, in->name, res);
    }
    return npydt_rules_check_violations(run->check) ? EXIT_MISMATCH : EXIT_OK;
}

void check_rules_json(FILE *out, const struct rules_run *run)
{
    if (!run->placed) {
        fputs(",\"rules\":[],\"rules_error\":{\"status\":", out);
        json_string(out, npydt_status_name(run->err.code));
        fputs(",\"message\":", out);
        json_string(out, run->err.message);
        fputs(",\"path\":", out);
        json_string(out, run->err.path);
        if (run->err.offset != NPYDT_NO_OFFSET)
            fprintf(out, ",\"offset\":%zu}", run->err.offset);
        else
            fputs(",\"offset\":null}", out);
        return;
    }
    fputs(",\"rules\":[", out);
    int any = 0;
    for (size_t i = 0; i < npydt_rules_count(run->rules); i++) {
        const npydt_rule_result *r = npydt_rules_check_result(run->check, i);
        if (!r->violations)
            continue;
        fputs(any++ ? ",{\"path\":" : "{\"path\":", out);
        json_string_n(out, r->path, r->path_len);
        fputs(",\"rule\":", out);
        json_string(out, r->rule);
        fputs(",\"expected\":", out);
        json_string_n(out, r->expected, r->expected_len);
        fprintf(out, ",\"violations\":%llu,\"first\":[", (unsigned long long)r->violations);
        for (size_t k = 0; k < r->nfirst; k++) {
            fprintf(out, "%s{\"index\":%llu,\"value\":", k ? "," : "",
                    (unsigned long long)r->first[k]);
            json_string(out, r->values[k]);
            putc('}', out);
        }
        fputs("]}", out);
    }
    putc(']', out);
}
