/* The output of swap and pack: the checks that refuse a destination before
 * anything is written (a directory, a folder that cannot be written in,
 * too little free space), and the temporary file removed when a signal
 * ends the process (also a writer's, for load and append). The file itself is written by the library's
 * npydt_output: a temporary file in the destination's folder, renamed over
 * it once whole, so that an interrupted run leaves the old destination (or
 * none) and never a partial one. */
#include "cli/common/output.h"
#include "cli/common/args.h"
#include "cli/common/report.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* the temporary file's name, for the signal handlers */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_active;

void cli_output_discard(void)
{
    if (tmp_active)
        unlink(tmp_path);
}

static void on_signal(int sig)
{
    cli_output_discard();
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

static void catch_signals(int on)
{
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on ? on_signal : SIG_DFL;
        sigemptyset(&sa.sa_mask);
        sigaction(caught[i], &sa, NULL);
    }
}

/* the signals' mask before cli_output_hold blocked them */
static sigset_t held_mask;
static int held;

static void block_signals(sigset_t *old)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        sigaddset(&block, caught[i]);
    sigprocmask(SIG_BLOCK, &block, old);
}

void cli_output_hold(void)
{
    catch_signals(1);
    block_signals(&held_mask);
    held = 1;
}

void cli_output_guard(const char *temp)
{
    tmp_active = 0;
    if (temp && strlen(temp) < sizeof tmp_path) {
        memcpy(tmp_path, temp, strlen(temp) + 1);
        tmp_active = 1;
    }
    if (held)
        sigprocmask(SIG_SETMASK, &held_mask, NULL);
    held = 0;
    if (!tmp_active)
        catch_signals(0);
}

/* ---- checks before anything is written ------------------------------------ */

int cli_output_check(const struct cli_command *cmd, struct cli_output *o, const char *file,
                     const char *target, int in_place)
{
    struct stat in_st, target_st;
    o->target = target;
    o->out = NULL;
    int target_exists = stat(target, &target_st) == 0;
    if (file && !in_place && target_exists && stat(file, &in_st) == 0 &&
        in_st.st_dev == target_st.st_dev && in_st.st_ino == target_st.st_ino)
        return cli_usage(cmd, "OUT '%s' is FILE; use --in-place to replace it", target);
    if (target_exists && S_ISDIR(target_st.st_mode))
        return cli_fail(target, NPYDT_E_IO, "%s",
                        "is a directory; give the path of the file to write");
    /* the temporary file's name is the target's and a few bytes more */
    const char *slash = strrchr(target, '/');
    size_t dlen = slash ? (size_t)(slash - target) + 1 : 0;
    if (strlen(target) >= sizeof tmp_path - NPYDT_OUTPUT_TEMP_EXTRA || dlen >= sizeof o->dir)
        return cli_usage(cmd, "'%s': path too long", target);
    memcpy(o->dir, target, dlen);
    o->dir[dlen] = '\0';
    /* the temporary file is created in the folder and renamed there: a
     * folder that cannot be written in is refused before anything is
     * read (as root only a read-only filesystem refuses) */
    const char *dir = o->dir[0] ? o->dir : ".";
    if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0) {
        int e = errno;
        return cli_fail(target, NPYDT_E_IO, "cannot write in its folder '%s': %s", dir,
                        TEXT_ERRNO(e));
    }
    return EXIT_OK;
}

int cli_output_check_space(const struct cli_output *o, uint64_t bytes)
{
    struct statvfs vfs;
    const char *dir = o->dir[0] ? o->dir : ".";
    if (statvfs(dir, &vfs) != 0 || vfs.f_frsize == 0)
        return EXIT_OK;   /* the filesystem does not say: writing will tell */
    uint64_t avail = (uint64_t)vfs.f_bavail;
    uint64_t frsize = (uint64_t)vfs.f_frsize;
    /* free bytes, saturated: a huge filesystem must not wrap around */
    uint64_t free_bytes = avail > UINT64_MAX / frsize ? UINT64_MAX : avail * frsize;
    if (free_bytes >= bytes)
        return EXIT_OK;
    return cli_fail(o->target, NPYDT_E_IO,
                    "not enough space in '%s': %llu bytes needed, %llu available; nothing was "
                    "written",
                    dir, (unsigned long long)bytes, (unsigned long long)free_bytes);
}

/* ---- the output ------------------------------------------------------------- */

int cli_output_open(struct cli_output *o)
{
    /* the signals wait while the file is created and its name noted: one
     * that came meanwhile then finds the name to remove */
    sigset_t old;
    catch_signals(1);
    block_signals(&old);
    npydt_error err;
    npydt_status st = npydt_output_open(o->target, NULL, &o->out, &err);
    if (st == NPYDT_OK) {
        /* cli_output_check made sure the name fits */
        const char *name = npydt_output_temp_path(o->out);
        memcpy(tmp_path, name, strlen(name) + 1);
        tmp_active = 1;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (st != NPYDT_OK) {
        catch_signals(0);
        return cli_report(o->target, &err);
    }
    return EXIT_OK;
}

int cli_output_failed(const struct cli_output *o, const char *name, const npydt_error *err)
{
    npydt_error own;
    if (npydt_output_status(o->out, &own) != NPYDT_OK)
        return cli_report(o->target, &own);
    return cli_report(name, err);
}

int cli_output_close(struct cli_output *o, int status)
{
    npydt_error err;
    if (status == EXIT_OK && npydt_output_commit(o->out, &err) != NPYDT_OK)
        status = cli_report(o->target, &err);
    else if (status != EXIT_OK)
        npydt_output_discard(o->out);
    o->out = NULL;
    tmp_active = 0;
    catch_signals(0);
    return status;
}
