/* harness.h - everything a lab's trusted driver uses, and the run's life cycle.
 *
 *   lab_start()   parse the command line (usage + exit 2 on bad input, --help, --list),
 *                 open the GPU (one line + exit 3 without one), measure the copy ceiling
 *   ...           the driver verifies, then times (lab_time), each selected variant and
 *                 reports rows
 *   lab_next_size()  with --check --n A,B,C: the next size, and the driver runs again
 *   lab_finish()  the exit code: 1 if any point was WRONG or IMPLAUSIBLE, else 0
 *
 * A lab's variant table is an array of structs whose first two fields are
 * `const char *name; const char *idea;` (lab.h); pass it with LAB_TABLE(table, count).
 */
#ifndef MEMLAB_HARNESS_H
#define MEMLAB_HARNESS_H

#include <cuda_runtime.h>

#include "check.h"
#include "cli.h"
#include "gpu.h"
#include "lab.h"
#include "lockdown.h"
#include "progress.h"
#include "proof.h"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "timing.h"
#include "vary.h"
#include "verify.h"

struct lab {
    int number;
    struct options opts;
    struct gpu_info gpu;
    struct run_info info;
    char csv_dir[256];
    int wrong;             /* points that gave a wrong result */
    int implausible;       /* points whose time cannot be real */
    double clock_slack_ms; /* host-clock latency of a bare launch (measured on first use) */
    int size_index;        /* which of --n's sizes opts.n is */
};

struct lab_description {
    int number;
    const char *summary; /* one line shown by --help */
    const void *table;   /* the variant table (see above) */
    int count;
    size_t entry_size;
    const struct cli_extra *extra; /* lab-specific options, may be NULL */
    int extra_count;
};

#define LAB_TABLE(t, n) (const void *)(t), (n), sizeof((t)[0])

void lab_start(struct lab *lab, const struct lab_description *d, int argc, char **argv);

/* Default timing for the run: reps from --reps or 20 (--quick 10, --full 50), 3 warm-ups. */
struct timing_config lab_timing(const struct lab *lab, int flush_l2);

/* Time a verified point (timing.h) and judge the time: ROW_OK; ROW_WRONG when a timed
 * repetition's output was wrong; ROW_IMPLAUSIBLE when work ran outside the timed stream or
 * the point is faster than the GPU can be (plausible.h). A point that is not OK is named
 * on stderr with the check it failed, has no figure, and makes the run exit 1. */
enum row_status lab_time(struct lab *lab, const struct timed_job *job,
                         const struct timing_config *cfg, struct summary *ms);

/* Record a variant's verdict; print it when wrong. Returns the row status to report. */
enum row_status lab_verdict(struct lab *lab, const char *what, size_t mismatches);

/* --check --n A,B,C checks each size in one process (a GPU process costs a CUDA context,
 * about 0.3 s): a driver's body runs in `do { ... } while (lab_next_size(&lab));`, which
 * sets opts.n to the next size and returns 1, or returns 0 after the last (at once for a
 * single size). The body allocates and frees everything of its size. */
int lab_next_size(struct lab *lab);

int lab_finish(const struct lab *lab);

#endif
