/* What the files of npydt swap share: the swapped header and plan
 * (swap_npy.c), and the two writers of a .npy file (swap_npy.c) and of an
 * archive (swap_npz.c). */
#ifndef NPYDT_CLI_SWAP_H
#define NPYDT_CLI_SWAP_H

#include "npydt.h"

/* Records are swapped through a buffer of this many bytes of whole
 * records (at least one record). */
#define SWAP_CHUNK_BYTES ((size_t)4 << 20)
/* A .npy file's records are swapped by tasks of at most SWAP_CHUNK_BYTES,
 * smaller when the tasks in flight (two a job) would hold more than
 * this. */
#define SWAP_FLIGHT_BYTES ((size_t)16 << 20)

/* What the command line asks. */
struct swap_opts {
    npydt_order to;
    int in_place;
    unsigned jobs;       /* -j: workers swapping a .npy file's records; 0: one a processor */
};

/* ---- one array (swap_npy.c) ----------------------------------------------- */

/* What swapping one array needs: the plan and the new header's bytes. */
struct swapper {
    npydt_dtype *newdt;
    npydt_swap_plan *plan;
    unsigned char *hdr;
    size_t hlen;
    int unchanged;       /* the dtype is already in the asked order */
};

/* The swapped dtype and the plan, without the header; 0 or an exit status
 * (reported under name). */
int swapper_init(struct swapper *s, const char *name, const npydt_header *h, npydt_order to);
/* Bytes of the header np.save writes for h's array with dtype newdt, or 0
 * with err filled (NPYDT_E_LIMIT when it would be longer than readers
 * take). */
size_t swap_header_len(const npydt_dtype *newdt, const npydt_header *h, npydt_error *err);
/* The new header's bytes (hdr, hlen) after swapper_init; 0 or an exit
 * status (reported under name). */
int swapper_header(struct swapper *s, const char *name, const npydt_header *h);
void swapper_free(struct swapper *s);

/* Swap the .npy FILE into target. */
int swap_npy(const char *file, const char *target, const struct swap_opts *opts);
/* Swap every member of the archive FILE into the archive target. */
int swap_npz(const char *file, const char *target, const struct swap_opts *opts);

/* The name of the order asked for, for messages ("little-endian"). */
const char *swap_order_name(npydt_order to);

/* The command (swap.c), and its command line for usage errors. */
struct cli_command;
int cmd_swap(int argc, char **argv);
extern const struct cli_command swap_command;

#endif
