/* progress.c - throttled progress lines (see progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

void progress_start(struct progress *p, const char *what, int total)
{
    p->what = what;
    p->done = 0;
    p->total = total;
    p->start = p->last = seconds_now();
}

void progress_step(struct progress *p, const char *label)
{
    double now = seconds_now();
    p->done++;
    if (now - p->start < PROGRESS_QUIET_S || now - p->last < PROGRESS_EVERY_S)
        return;
    p->last = now;
    fprintf(stderr, "  %s [%d/%d] %s, %.1f s\n", p->what, p->done, p->total, label, now - p->start);
}
