/* timing.cu - event timing with warm-up, repetitions and an optional L2 flush
 * (see timing.h). */
#include "timing.h"

#include <stdlib.h>

#include "check.h"

struct summary time_launches(const char *what, launch_fn launch, void *ctx,
                             const struct timing_config *cfg)
{
    for (int w = 0; w < cfg->warmup; w++)
        launch(ctx, 0);
    gpu_check_launch(what);

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double *samples = (double *)malloc((size_t)cfg->reps * sizeof *samples);
    if (!samples)
        memlab_die(EXIT_USAGE, "out of host memory for %d timing samples", cfg->reps);
    for (int r = 0; r < cfg->reps; r++) {
        if (cfg->flush_l2)
            gpu_flush_l2(cfg->gpu);
        float ms = 0;
        CUDA_CHECK(cudaEventRecord(start, 0));
        launch(ctx, 0);
        CUDA_CHECK(cudaEventRecord(stop, 0));
        cudaError_t err = cudaEventSynchronize(stop);
        if (err != cudaSuccess)
            memlab_die(EXIT_GPU, "kernel of %s failed while timed: %s (%s)", what,
                       cudaGetErrorName(err), cudaGetErrorString(err));
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        samples[r] = ms;
    }
    gpu_check_launch(what);
    struct summary s = summarize(samples, cfg->reps);
    free(samples);
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return s;
}
