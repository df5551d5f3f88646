/* The error objects of the --json modes: every input gets one object in
 * the report, also one that cannot be read (doc/cli-json.md). */
#include "cli/common/report.h"
#include "cli/common/dest.h"
#include "cli/common/input.h"
#include "cli/common/json.h"

#include <stdio.h>

void cli_json_error(FILE *out, const char *file, const char *member, const npydt_error *err)
{
    const char *name, *detail;
    size_t nlen = cli_member_named(err, &name, &detail);
    if (nlen == 0)
        detail = err->message;
    fputs("{\"file\":", out);
    json_string(out, file);
    if (member || nlen) {
        fputs(",\"archive\":", out);
        json_string(out, file);
        fputs(",\"member\":", out);
        if (member)
            json_string(out, member);
        else
            json_string_n(out, name, nlen);
    }
    fputs(",\"error\":{\"status\":", out);
    json_string(out, npydt_status_name(err->code));
    char message[sizeof err->path + sizeof err->message + 16];
    snprintf(message, sizeof message, "%s%s%s%s", err->path[0] ? "field " : "", err->path,
             err->path[0] ? ": " : "", detail);
    fputs(",\"message\":", out);
    json_string(out, message);
    fputs(",\"offset\":", out);
    if (err->offset == NPYDT_NO_OFFSET)
        fputs("null", out);
    else
        fprintf(out, "%zu", err->offset);
    fputs("}}\n", out);
}

void cli_json_input_head(FILE *out, const struct cli_input *in)
{
    fputs("{\"file\":", out);
    json_string(out, in->path);
    if (in->member) {
        fputs(",\"archive\":", out);
        json_string(out, in->path);
        fputs(",\"member\":", out);
        json_string(out, in->member);
    }
}

int cli_report_input_to(struct cli_dest *d, const struct cli_input *in, const npydt_error *err,
                        int json)
{
    int status = cli_report_to(d, in->name, err);
    if (json)
        cli_json_error(cli_dest_out(d), in->path, in->member, err);
    return status;
}

int cli_report_input(const struct cli_input *in, const npydt_error *err, int json)
{
    return cli_report_input_to(NULL, in, err, json);
}
