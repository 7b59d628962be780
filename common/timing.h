/* timing.h - CUDA-event timing of one launch, repeated.
 *
 * Warm-up launches first (not timed), then `reps` launches each between two events; the
 * result is the median, minimum and maximum in milliseconds. With flush_l2 set, a buffer of
 * twice the L2 size is written before every timed launch (outside the events), so each
 * launch starts with a cold L2. The launch error and faults are checked after the warm-up
 * and after the timed launches, naming `what`.
 */
#ifndef MEMLAB_TIMING_H
#define MEMLAB_TIMING_H

#include <cuda_runtime.h>

#include "gpu.h"
#include "stats.h"

/* Launches the work once on `stream`; returns LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*launch_fn)(void *ctx, cudaStream_t stream);

struct timing_config {
    int warmup, reps, flush_l2;
    const struct gpu_info *gpu;
};

struct summary time_launches(const char *what, launch_fn launch, void *ctx,
                             const struct timing_config *cfg);

#endif
