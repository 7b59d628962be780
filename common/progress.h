/* progress.h - progress lines on stderr for sweeps that take more than a few seconds.
 * Quiet for the first PROGRESS_QUIET_S seconds, then at most one line every
 * PROGRESS_EVERY_S seconds: "[12/35] copy_strided stride=12, 4.1 s". */
#ifndef MEMLAB_PROGRESS_H
#define MEMLAB_PROGRESS_H

#ifdef __cplusplus
extern "C" {
#endif

#define PROGRESS_QUIET_S 3.0
#define PROGRESS_EVERY_S 2.0

struct progress {
    const char *what;
    int done, total;
    double start, last;
};

void progress_start(struct progress *p, const char *what, int total);
void progress_step(struct progress *p, const char *label);

#ifdef __cplusplus
}
#endif

#endif
