/* timing.h - timing a launch that may be untrusted code, repeated.
 *
 * Warm-up launches first (not timed), then `reps` timed repetitions, each between two CUDA
 * events on stream 0; the result is the median, minimum and maximum in milliseconds. Each
 * repetition is queued behind a short hold (gpu_hold_stream) that fills the GPU until the
 * host has queued the launch and its stop event: the events then time the GPU's work, not
 * the host's launch latency (which was a third of a 10 us reduction's time). With
 * flush_l2 set, a buffer of twice the L2 size is written before every timed launch (on the
 * stream, before the start event), so each launch starts with a cold L2.
 *
 * Guarded (the default), a repetition also:
 *   - runs on inputs of its own: job->vary brings them to a fresh random pattern (vary.h)
 *     before the repetition, outside the timed region, and back to the input as written
 *     after the last one. Where the data outgrows the L2, the variation leaves it full of
 *     dirty lines, as a launch that writes at least the L2's size (work.written_bytes)
 *     leaves it for the next one back to back; for a launch that writes less they are
 *     written back first (gpu_clean_l2), so it does not pay for writes it did not make;
 *   - is clocked by the host too: the device is synchronised before it, and after it as a
 *     whole (every stream), so work queued off stream 0 keeps the host clock running
 *     (`host_ms`, against `span_ms`: the events from before the hold to the stop);
 *   - has its output checked: job->check verifies the last repetition's output, and that of
 *     one repetition drawn at random, each against the reference of its own pattern.
 * Unguarded (--unguarded, to measure what the guard costs) a repetition is timed as before.
 * Trusted code (a library, the driver's own probes) passes vary = check = NULL.
 */
#ifndef MEMLAB_TIMING_H
#define MEMLAB_TIMING_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "gpu.h"
#include "plausible.h"
#include "stats.h"

/* Launches the work once on `stream`; returns LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*launch_fn)(void *ctx, cudaStream_t stream);
/* Brings the job's inputs from pattern `from` to pattern `to` (gpu_vary_*), on stream 0. */
typedef void (*vary_fn)(void *ctx, uint64_t from, uint64_t to);
/* Verifies the job's output against the reference of pattern `key` (and the input, which
 * must still hold that pattern); prints what is wrong under `label`; returns mismatches. */
typedef size_t (*check_fn)(void *ctx, uint64_t key, const char *label);

struct timed_job {
    const char *what; /* the variant and its point, for messages */
    launch_fn launch;
    void *ctx;
    vary_fn vary; /* NULL: trusted code */
    check_fn check;
    struct work work; /* for the physical floor (plausible.h) */
};

struct timing_config {
    int warmup, reps, flush_l2, guarded;
    const struct gpu_info *gpu;
};

struct timing {
    struct summary ms;       /* the events: start to stop */
    double span_ms, host_ms; /* medians: events from before the hold to the stop; host clock */
    size_t mismatches;       /* in the checked repetitions */
    int checked;             /* how many repetitions were checked */
};

struct timing time_job(const struct timed_job *job, const struct timing_config *cfg);

/* Wait for `event` (NULL: for the whole device) under the kernel watchdog: a wait longer
 * than MEMLAB_KERNEL_LIMIT_S seconds (default GPU_KERNEL_LIMIT_S; 0: no limit) ends the
 * program at once with one line naming `what` and exit 3. A kernel whose loop never ends
 * is then named within seconds instead of hanging the lab until someone kills it. Every
 * wait of a verified or timed launch goes through here (gpu_check_launch, time_job). */
#define GPU_KERNEL_LIMIT_S 10
cudaError_t gpu_wait(cudaEvent_t event, const char *what);

/* The watchdog's limit in seconds; a MEMLAB_KERNEL_LIMIT_S that is not whole seconds gets
 * one line and exit 2 (lab_start asks before it opens the GPU). */
unsigned gpu_kernel_limit_s(void);

#endif
