/* The kill test's driver (tests/check_writer_kill.sh).
 *
 *   writer_kill run PATH FLUSH ACK BUFFER_BYTES SYNC [MORE]
 *       appends records [('i', '<u8'), ('neg', '<i8')] holding (i, -i) for
 *       record i to PATH (created when missing, else appended to from the
 *       count its header gives), flushes every FLUSH records and, after each
 *       completed flush, appends the count the header now gives to ACK as
 *       one line. Runs until killed or, given MORE, until it has added MORE
 *       records: it then closes the writer and appends the final count.
 *       SYNC 0 sets no_sync.
 *   writer_kill campaign DIR KILLS CHAIN SEED SECONDS
 *       forks KILLS runs on files DIR/chain_N.npy, CHAIN runs per file,
 *       each killed with SIGKILL after a random pause (0.3 to 5 ms, counted
 *       from the moment its writer is open for nine runs in ten), and
 *       saves a copy of the file after each kill; every chain ends with a
 *       run that closes its writer after 200 more records. Stops early
 *       after SECONDS. Prints one line per file to check, "PATH ACK
 *       COMPLETE" (ACK: the last count the run acknowledged; COMPLETE 1:
 *       its writer was closed), for tests/writer_kill_check.py; then the
 *       numbers of kills and chains on stderr.
 * Exits 1 with a message on stderr when a call fails. */
#include "npydt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void store_le(unsigned char *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

/* One line "COUNT\n" in one write: a kill cannot leave half of it. */
static int acknowledge(int fd, uint64_t count)
{
    char line[32];
    int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)count);
    return write(fd, line, (size_t)n) == n ? 0 : -1;
}

static int fail(const char *what, const npydt_error *err)
{
    fprintf(stderr, "writer_kill: %s: %s: %s\n", what, npydt_status_name(err->code),
            err->message);
    return 1;
}

static int run(const char *path, uint64_t flush, const char *ack_path, size_t buffer, int sync,
               int limited, uint64_t more, int ready_fd)
{
    int ack = open(ack_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (ack < 0 || flush == 0) {
        perror(ack_path);
        return 2;
    }
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.buffer_bytes = buffer;
    opts.no_sync = !sync;
    npydt_error err;
    npydt_writer *w;
    if (access(path, F_OK) == 0) {
        if (npydt_writer_append_path(path, &opts, &w, &err) != NPYDT_OK)
            return fail("append", &err);
    } else {
        npydt_dtype *dt;
        static const char descr[] = "[('i', '<u8'), ('neg', '<i8')]";
        uint64_t shape[1] = {0};
        if (npydt_header_parse_descr(descr, sizeof descr - 1, NULL, &dt, &err) != NPYDT_OK)
            return fail("dtype", &err);
        npydt_status st = npydt_writer_create_path(path, dt, shape, 1, &opts, &w, &err);
        npydt_dtype_free(dt);
        if (st != NPYDT_OK)
            return fail("create", &err);
    }
    /* tell the campaign the writer is open: its pause starts now */
    if (ready_fd >= 0) {
        (void)!write(ready_fd, "r", 1);
        close(ready_fd);
    }
    uint64_t limit = limited ? npydt_writer_count(w) + more : UINT64_MAX;
    for (uint64_t i = npydt_writer_count(w); i < limit; i++) {
        unsigned char *rec = npydt_writer_record(w);
        store_le(rec, i);
        store_le(rec + 8, (uint64_t)0 - i);
        if (npydt_writer_commit(w, &err) != NPYDT_OK)
            return fail("commit", &err);
        if ((i + 1) % flush == 0) {
            if (npydt_writer_flush(w, &err) != NPYDT_OK)
                return fail("flush", &err);
            if (acknowledge(ack, i + 1) != 0) {
                perror(ack_path);
                return 1;
            }
        }
    }
    if (npydt_writer_close(w, &err) != NPYDT_OK)
        return fail("close", &err);
    if (acknowledge(ack, limit) != 0) {
        perror(ack_path);
        return 1;
    }
    close(ack);
    return 0;
}

/* ---- the campaign ------------------------------------------------------------ */

static uint64_t rng;

static uint64_t next_random(uint64_t n)
{
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    return (rng >> 33) % n;
}

/* The last count in the acknowledgement file (0 when none). */
static uint64_t last_ack(const char *path)
{
    FILE *f = fopen(path, "r");
    uint64_t last = 0;
    unsigned long long v;
    if (!f)
        return 0;
    while (fscanf(f, "%llu", &v) == 1)
        last = v;
    fclose(f);
    return last;
}

static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return errno == ENOENT ? 1 : -1;
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) {
        close(in);
        return -1;
    }
    char buf[1 << 16];
    ssize_t n;
    int rc = 0;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            rc = -1;
    if (n < 0)
        rc = -1;
    close(in);
    if (close(out) != 0)
        rc = -1;
    return rc;
}

/* Fork a run; kill it after pause_us microseconds unless pause_us is
 * negative (then wait for it). The pause counts from the fork, or, with
 * after_open, from the moment the run's writer is open (so that the kill
 * lands among writes and flushes, not in the process's start). Returns its
 * exit status, or -1 when killed. */
static int fork_run(const char *path, uint64_t flush, const char *ack, size_t buffer, int sync,
                    long pause_us, uint64_t more, int after_open)
{
    int ready[2] = {-1, -1};
    if (after_open && pipe(ready) != 0) {
        perror("pipe");
        return 99;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 99;
    }
    if (pid == 0) {
        if (ready[0] >= 0)
            close(ready[0]);
        _exit(run(path, flush, ack, buffer, sync, pause_us < 0, more, ready[1]));
    }
    if (after_open) {
        char byte;
        close(ready[1]);
        while (read(ready[0], &byte, 1) < 0 && errno == EINTR)
            ;   /* 0 bytes: the run ended before opening; the kill finds it dead */
        close(ready[0]);
    }
    if (pause_us >= 0) {
        struct timespec ts = {0, pause_us * 1000};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 99;
    if (WIFSIGNALED(status))
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

static int campaign(const char *dir, uint64_t kills, uint64_t chain_len, uint64_t seed,
                    long seconds)
{
    rng = seed;
    char path[4096], ack[4096], snap[4096];
    snprintf(ack, sizeof ack, "%s/ack", dir);
    time_t start = time(NULL);
    uint64_t done = 0, chains = 0, saved = 0;
    int rc = 0;
    while (done < kills && rc == 0 && time(NULL) - start < seconds) {
        chains++;
        snprintf(path, sizeof path, "%s/chain_%llu.npy", dir, (unsigned long long)chains);
        uint64_t flush = 1 + next_random(60);
        size_t buffer = 1 + (size_t)next_random(3000);
        int sync = next_random(5) == 0;   /* a kill then waits for the disk */
        for (uint64_t n = 0; n < chain_len && done < kills; n++) {
            unlink(ack);
            /* one kill in ten may land while the writer opens or appends */
            int after_open = next_random(10) != 0;
            int st = fork_run(path, flush, ack, buffer, sync, 300 + (long)next_random(4700), 0,
                              after_open);
            done++;
            uint64_t acked = last_ack(ack);
            if (st != -1) {
                fprintf(stderr, "writer_kill: run %llu exited with %d\n",
                        (unsigned long long)done, st);
                rc = 1;
                break;
            }
            snprintf(snap, sizeof snap, "%s/snap_%llu.npy", dir, (unsigned long long)done);
            int c = copy_file(path, snap);
            if (c < 0) {
                perror(snap);
                rc = 1;
                break;
            }
            if (c == 0) {
                printf("%s %llu 0\n", snap, (unsigned long long)acked);
                saved++;
            }
            else if (acked > 0)
                printf("%s %llu 0\n", path, (unsigned long long)acked);  /* fails the check */
        }
        if (rc == 0) {
            unlink(ack);
            if (fork_run(path, flush, ack, buffer, sync, -1, 200, 0) != 0) {
                fprintf(stderr, "writer_kill: the closing run of chain %llu failed\n",
                        (unsigned long long)chains);
                rc = 1;
            } else {
                printf("%s %llu 1\n", path, (unsigned long long)last_ack(ack));
            }
        }
        fflush(stdout);
    }
    fprintf(stderr, "kills %llu (%llu after the file appeared), chains %llu\n",
            (unsigned long long)done, (unsigned long long)saved, (unsigned long long)chains);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 7 && strcmp(argv[1], "run") == 0)
        return run(argv[2], strtoull(argv[3], NULL, 10), argv[4],
                   (size_t)strtoull(argv[5], NULL, 10), strcmp(argv[6], "0") != 0, argc > 7,
                   argc > 7 ? strtoull(argv[7], NULL, 10) : 0, -1);
    if (argc >= 7 && strcmp(argv[1], "campaign") == 0)
        return campaign(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10),
                        strtoull(argv[5], NULL, 10), strtol(argv[6], NULL, 10));
    fprintf(stderr, "usage: writer_kill run PATH FLUSH ACK BUFFER_BYTES SYNC [MORE]\n"
                    "       writer_kill campaign DIR KILLS CHAIN SEED SECONDS\n");
    return 2;
}
