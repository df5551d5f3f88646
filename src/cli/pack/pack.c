/* npydt pack: an .npz archive of .npy files, as np.savez (stored) or
 * np.savez_compressed (deflated) writes the arrays they hold: members
 * NAME.npy in the order np.savez takes them (named ones first, then the
 * unnamed as arr_0, arr_1, ...), each with the header np.save writes for
 * its array. The archive is written as swap writes its output, through
 * the library's npydt_output (cli_output_open, cli_output_close): a
 * failure leaves OUT as it was. */
#include "cli/pack/pack.h"
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/output.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_COMPRESS = 1 };

static const struct cli_option pack_options[] = {
    {OPT_COMPRESS, "compress", 'z', NULL, "deflate the members, as np.savez_compressed"},
};

static const struct cli_command pack_command = {
    "pack",
    "pack OUT.npz [--compress] NAME=FILE.npy... [FILE.npy...]",
    "Write the archive OUT.npz holding each FILE's array as the member NAME.npy,\n"
    "byte for byte what np.savez(OUT, NAME=np.load(FILE), ...) writes (with\n"
    "--compress, np.savez_compressed). A FILE without NAME= becomes arr_0,\n"
    "arr_1, ... after the named ones, as np.savez's positional arrays. FILE may\n"
    "be ARCHIVE.npz:NAME. Object arrays are refused (np.savez would pickle them).\n"
    "OUT is written through a temporary file renamed over it at the end.\n",
    pack_options, sizeof pack_options / sizeof pack_options[0], 1,
};

/* One run of pack: the archive being written into OUT's temporary file. */
struct pack {
    npydt_npz_writer *z;
    npydt_npz_method method;
    struct cli_output o;
};

/* Fortran order as np.save writes it for the loaded array: an array whose
 * two layouts coincide (no data, at most one dimension above 1) is
 * C-contiguous to NumPy. */
static int fortran_as_numpy(const npydt_header *h)
{
    if (!npydt_header_fortran_order(h) || npydt_header_count(h) == 0)
        return 0;
    size_t big = 0;
    for (size_t k = 0; k < npydt_header_ndim(h); k++)
        big += npydt_header_shape(h)[k] > 1;
    return big > 1;
}

/* One member: FILE's array as NAME.npy. */
static int pack_one(const struct pack *p, const char *name, const char *file)
{
    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    int status = cli_inputs_add(&inputs, file);
    if (status == EXIT_OK && inputs.count != 1)
        status = cli_usage(&pack_command, "'%s' holds %zu arrays: name one as '%s:NAME'", file,
                                 inputs.count, file);
    const npydt_header *h = NULL;
    npydt_reader *r = NULL;
    npydt_writer *w = NULL;
    npydt_error err;
    const struct cli_input *in = status == EXIT_OK ? &inputs.items[0] : NULL;
    if (in && cli_input_reader(in, 0, &r, &err) != NPYDT_OK)
        status = cli_report(in->name, &err);
    else if (in)
        h = npydt_reader_header(r);
    char *member = NULL;
    if (status == EXIT_OK) {
        size_t n = strlen(name);
        member = malloc(n + 5);
        if (!member)
            status = cli_failure("out of memory");
        else
            snprintf(member, n + 5, "%s.npy", name);
    }
    if (status == EXIT_OK) {
        npydt_writer_options opts;
        npydt_writer_options_init(&opts);
        opts.fortran_order = fortran_as_numpy(h);
        if (npydt_writer_create_member(p->z, member, p->method, npydt_header_dtype(h),
                                       npydt_header_shape(h), npydt_header_ndim(h), &opts, &w,
                                       &err) != NPYDT_OK)
            status = cli_output_failed(&p->o, in->name, &err);
    }
    size_t itemsize = h ? npydt_dtype_itemsize(npydt_header_dtype(h)) : 0;
    npydt_status st = NPYDT_OK;
    if (status == EXIT_OK && itemsize == 0) {
        static const unsigned char none[1];
        st = npydt_writer_write(w, none, npydt_header_count(h), &err);
    }
    struct cli_progress progress;
    cli_progress_start(&progress, "packing", h ? npydt_header_data_bytes(h) : 0, !h);
    uint64_t done = 0;
    while (status == EXIT_OK && itemsize && st == NPYDT_OK) {
        const void *chunk;
        size_t len;
        if ((st = npydt_reader_next_chunk(r, &chunk, &len, &err)) != NPYDT_OK || len == 0)
            break;
        /* a mapped file is one chunk: written in slices, for the progress */
        size_t slice = (((size_t)8 << 20) / itemsize + 1) * itemsize;
        for (size_t at = 0; at < len && st == NPYDT_OK; at += slice) {
            size_t n = len - at < slice ? len - at : slice;
            st = npydt_writer_write(w, (const unsigned char *)chunk + at, n / itemsize, &err);
            cli_progress_update(&progress, done += n);
        }
    }
    cli_progress_end(&progress);
    if (status == EXIT_OK && st != NPYDT_OK)
        status = cli_output_failed(&p->o, in->name, &err);
    if (w) {
        npydt_error cerr;
        if (npydt_writer_close(w, &cerr) != NPYDT_OK && status == EXIT_OK)
            status = cli_output_failed(&p->o, in->name, &cerr);
    }
    free(member);
    npydt_reader_close(r);
    cli_inputs_free(&inputs);
    return status;
}

/* NAME=FILE, or FILE alone (NULL name). */
static const char *split_arg(const char *arg, char **name)
{
    const char *eq = strchr(arg, '=');
    *name = NULL;
    if (!eq || eq == arg)
        return arg;
    *name = strndup(arg, (size_t)(eq - arg));
    return eq + 1;
}

static int pack_all(const struct pack *p, char **items, int n)
{
    int status = EXIT_OK, unnamed = 0;
    /* np.savez: the keyword arrays first, then the positional ones */
    for (int pass = 0; pass < 2 && status == EXIT_OK; pass++) {
        for (int i = 0; i < n && status == EXIT_OK; i++) {
            char *name;
            const char *file = split_arg(items[i], &name);
            char auto_name[32];
            if (pass == 0 && name)
                status = pack_one(p, name, file);
            else if (pass == 1 && !name) {
                snprintf(auto_name, sizeof auto_name, "arr_%d", unnamed++);
                status = pack_one(p, auto_name, file);
            }
            free(name);
        }
    }
    return status;
}

int cmd_pack(int argc, char **argv)
{
    npydt_npz_method method = NPYDT_NPZ_STORED;
    struct cli_args args;
    cli_args_init(&args, &pack_command, argc, argv);
    int opt;
    while ((opt = cli_args_next(&args)) != 0) {
        if (opt < 0)
            return args.status;
        method = NPYDT_NPZ_DEFLATED;
    }
    if (args.noperands < 1)
        return cli_usage(&pack_command, "OUT.npz is required");
    struct pack p = {NULL, method, {0}};
    const char *out = args.operands[0];
    int status = cli_output_check(&pack_command, &p.o, NULL, out, 0);
    if (status != EXIT_OK || (status = cli_output_open(&p.o)) != EXIT_OK)
        return status;
    npydt_npz_sink sink;
    npydt_output_sink(p.o.out, &sink);
    npydt_error err;
    if (npydt_npz_writer_new(&sink, NULL, &p.z, &err) != NPYDT_OK)
        status = cli_report(out, &err);
    if (status == EXIT_OK)
        status = pack_all(&p, args.operands + 1, args.noperands - 1);
    if (status == EXIT_OK && npydt_npz_writer_finish(p.z, NULL, &err) != NPYDT_OK)
        status = cli_output_failed(&p.o, out, &err);
    npydt_npz_writer_free(p.z);
    return cli_output_close(&p.o, status);
}
