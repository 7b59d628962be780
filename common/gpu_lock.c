/* gpu_lock.c - taking turns on a shared GPU (see gpu_lock.h). */
#define _POSIX_C_SOURCE 200809L /* dprintf */
#include "gpu_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static int queue_fd = -1, lock_fd = -1, log_fd = -1;
static enum gpu_hold held = GPU_HOLD_NONE;
static void (*wait_for_gpu)(void);
static double held_since, waited;
static char held_what[200];

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void lock(int fd, int how)
{
    while (flock(fd, how) != 0)
        if (errno != EINTR)
            memlab_die(EXIT_USAGE, "the GPU lock (MEMLAB_GPU_LOCK_FDS): flock: %s", strerror(errno));
}

static void log_hold(void)
{
    if (log_fd >= 0)
        dprintf(log_fd, "%s %.3f %.3f %s: %s\n", held == GPU_HOLD_ALONE ? "exclusive" : "shared", waited,
                now_s() - held_since, memlab_program, held_what);
}

/* A lock belongs to an open file, which the program's parent (and a program run after it by
 * the same command) shares through an inherited descriptor: the lock would outlive the
 * program, and a program run after it would find it still held by its own file. So the
 * program opens the file again, its own, which closes (and lets go) when it ends. */
static int own_file(int inherited)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", inherited);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        memlab_die(EXIT_USAGE, "the GPU lock (MEMLAB_GPU_LOCK_FDS): cannot open %s again: %s", path, strerror(errno));
    close(inherited);
    return fd;
}

void gpu_lock_open(void (*sync)(void))
{
    const char *v = getenv("MEMLAB_GPU_LOCK_FDS");
    if (!v || !*v)
        return;
    int fds[3] = {-1, -1, -1}, count = 0;
    const char *p = v;
    for (char *end; count < 3; p = end) {
        long fd = strtol(p, &end, 10);
        if (end == p)
            break;
        fds[count++] = fd >= 0 && fd < 1024 ? (int)fd : -1;
    }
    int ok = count >= 2 && !p[strspn(p, " ")] && fds[0] != fds[1];
    for (int i = 0; ok && i < count; i++)
        ok = fds[i] >= 0 && fcntl(fds[i], F_GETFD) >= 0;
    if (!ok)
        memlab_die(EXIT_USAGE, "MEMLAB_GPU_LOCK_FDS is '%s': expected two or three open file descriptors (the "
                   "GPU lock's queue, the lock, a log)", v);
    queue_fd = own_file(fds[0]), lock_fd = own_file(fds[1]), log_fd = fds[2];
    if (log_fd >= 0)
        fcntl(log_fd, F_SETFD, FD_CLOEXEC);
    unsetenv("MEMLAB_GPU_LOCK_FDS"); /* a program this one starts (ncu's run of it) takes no turns */
    wait_for_gpu = sync;
    gpu_lock_hold(GPU_HOLD_SHARED, "after the start");
}

enum gpu_hold gpu_lock_hold(enum gpu_hold how, const char *what)
{
    enum gpu_hold before = held;
    if (lock_fd < 0 || how == held)
        return before;
    if (held != GPU_HOLD_NONE) {
        if (wait_for_gpu)
            wait_for_gpu();
        log_hold();
        lock(lock_fd, LOCK_UN); /* never wait for the queue holding the lock */
    }
    held = how;
    if (how == GPU_HOLD_NONE)
        return before;
    double t0 = now_s();
    lock(queue_fd, LOCK_EX);
    lock(lock_fd, how == GPU_HOLD_ALONE ? LOCK_EX : LOCK_SH);
    lock(queue_fd, LOCK_UN);
    held_since = now_s();
    waited = held_since - t0;
    snprintf(held_what, sizeof held_what, "%s", what ? what : "");
    return before;
}
