/* Inputs: FILE, ARCHIVE.npz or ARCHIVE.npz:NAME. */
#ifndef NPYDT_CLI_COMMON_INPUT_H
#define NPYDT_CLI_COMMON_INPUT_H

#include "npydt.h"

#include <stddef.h>
#include <stdint.h>

/* One array a command reads: a .npy file, or one member of an archive. */
struct cli_input {
    const char *name;      /* for messages and output: FILE, or ARCHIVE:MEMBER */
    const char *path;      /* the file on disk: FILE or ARCHIVE as typed */
    const char *member;    /* the member's name as stored ("a.npy"); NULL for a FILE */
    const npydt_npz *npz;  /* its archive (owned by the list); NULL for a FILE */
    size_t index;          /* the member's index in npz */
    unsigned char *buf;    /* a FILE read from a pipe, whole (owned); else NULL */
    size_t len;
    struct cli_pipe *pipe; /* a FILE on a pipe, read in sequence (owned); else NULL */
    /* A FILE whose probe's descriptor is held (cli_inputs_held): its size
     * and first head_len bytes as the probe read them, for
     * cli_input_verify_fd; head is NULL when they are not at hand. */
    const unsigned char *head;
    size_t head_len;
    uint64_t size;
};

/* The inputs named on a command line, and the archives they come from. */
struct cli_archive;
struct cli_inputs {
    struct cli_input *items;
    size_t count;
    /* private */
    size_t cap;
    struct cli_archive *archives;
    size_t narchives, archives_cap;
    npydt_npz_options opts;
    int quiet;             /* no progress line while a pipe is read */
    struct cli_dest *dest; /* where cli_inputs_add reports (report.h); NULL: stderr */
    int hold;              /* keep the descriptor of a FILE's archive probe (cli_inputs_held) */
    int held;              /* that descriptor of the last FILE added; -1: none */
    unsigned char head[NPYDT_VERIFY_HEAD_BYTES]; /* what the probe read of it */
    npydt_error error;     /* why cli_inputs_add last returned a status other than 0 */
};

/* Start an empty list; opts (NULL: defaults) bounds every archive opened. */
void cli_inputs_init(struct cli_inputs *list, const npydt_npz_options *opts);
/* Append what one argument names: '-' (standard input) or another input
 * that cannot seek (a FIFO, /dev/stdin on a pipe): a FILE read in
 * sequence once its header is read, or an archive (or what is no .npy
 * header) read whole into memory (at most CLI_PIPE_MAX_BYTES); an
 * existing FILE; every member of an
 * archive (a file that starts as a zip does, whatever its name); or the
 * member NAME (else NAME.npy) of ARCHIVE:NAME. Items appended by this call
 * are items[old count .. count). A refused archive, a missing member or
 * a lack of memory is reported on stderr ("ARG: WHAT: DETAIL") and gives
 * its exit status (2 or 3), the error kept in list->error for a --json
 * report; 0 otherwise. A path that cannot be opened is added as a FILE:
 * reading its header reports it. */
int cli_inputs_add(struct cli_inputs *list, const char *arg);
/* With list->hold set, the descriptor through which cli_inputs_add
 * probed the FILE it added last (open for reading), now the caller's to
 * hand to cli_input_verify_fd; -1 when there is none (an archive, a pipe,
 * a path that could not be opened, or a header within the bytes the probe
 * read: the descriptor is closed). The item's head points at those bytes
 * (into the list: they are the caller's to copy before the next
 * cli_inputs_add). Its read of the header then costs no second open and,
 * for a header within them, no second read. */
int cli_inputs_held(struct cli_inputs *list);
/* Drop items[from .. count) from the list when none of them owns memory
 * (each a FILE named by its path): copies of them stay valid, and a list
 * whose items are copied out as they come stays small. */
void cli_inputs_forget(struct cli_inputs *list, size_t from);
/* 1 when path is a regular file that starts as a zip archive does (as
 * np.load decides); never blocks on a FIFO. */
int cli_is_archive(const char *path);
/* Close every archive and release the list. */
void cli_inputs_free(struct cli_inputs *list);

/* Parse the header of an input. For a member only the header bytes are
 * read (inflated), and its declared size must hold the data; a FILE on a
 * pipe is read to its end and counted (once: the data are gone after). */
npydt_status cli_input_header(const struct cli_input *in, npydt_header **out,
                              npydt_error *err);

/* Parse the header of an input as cli_input_header does and verify its
 * bytes (npydt_verify_path, npydt_verify_buffer,
 * npydt_npz_member_verify_report): a FILE's size against the header's
 * promise (its header read with pread, never mapped); a member's declared size, and with read_data every byte
 * against its CRC-32. */
npydt_status cli_input_verify(const struct cli_input *in, int read_data, npydt_header **out,
                              npydt_verify_report *report, npydt_error *err);
/* cli_input_verify of a FILE through fd (cli_inputs_held), which it
 * closes, from the bytes in->head when it is set (npydt_verify_head: fd
 * may then be -1, the whole header in them); fd < 0 and no head:
 * cli_input_verify. */
npydt_status cli_input_verify_fd(const struct cli_input *in, int fd, int read_data,
                                 npydt_header **out, npydt_verify_report *report,
                                 npydt_error *err);

/* A reader of an input's header and data: the header is the reader's
 * (npydt_reader_header), parsed once from the bytes it reads, so a file
 * replaced since an earlier cli_input_header cannot pass off other data.
 * A member not yet verified (verified == 0) is read in full first
 * (declared size, deflate stream and CRC-32: one extra inflate pass for
 * deflated ones) so that a command can refuse a damaged member before it
 * prints anything. */
npydt_status cli_input_reader(const struct cli_input *in, int verified, npydt_reader **out,
                              npydt_error *err);

/* 1 when the input's data arrive on a pipe, to be read once front to back
 * (a reader of it cannot go back: npydt_reader_open_pipe). */
int cli_input_piped(const struct cli_input *in);
/* Read the rest of a piped input into memory, for a use that goes back
 * (at most CLI_PIPE_MAX_BYTES): its readers read the copy from then on.
 * 0, or an exit status after reporting. */
int cli_input_hold(const struct cli_input *in, npydt_error *err);

#endif
