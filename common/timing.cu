/* timing.cu - the timed loop, guarded or not, and the kernel watchdog (see timing.h). */
#include "timing.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "rng.h"

#define HOLD_MIN_MS 0.05
#define HOLD_MAX_MS 2.0

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* The watchdog's line is written before the alarm is set: a signal handler may only call
 * async-signal-safe functions (write, _exit), not printf. */
static char watchdog_line[512];
static size_t watchdog_length;

static void watchdog_fired(int signal_number)
{
    (void)signal_number;
    ssize_t written = write(STDERR_FILENO, watchdog_line, watchdog_length);
    (void)written;
    _exit(EXIT_GPU);
}

unsigned gpu_kernel_limit_s(void)
{
    static long limit = -1;
    if (limit < 0) {
        const char *text = getenv("MEMLAB_KERNEL_LIMIT_S");
        char *end = NULL;
        limit = text && *text ? strtol(text, &end, 10) : GPU_KERNEL_LIMIT_S;
        if (text && *text && (*end || limit < 0 || limit > 86400))
            memlab_die(EXIT_USAGE, "MEMLAB_KERNEL_LIMIT_S=%s: give whole seconds, 0 for no limit",
                       text);
        if (limit)
            signal(SIGALRM, watchdog_fired);
    }
    return (unsigned)limit;
}

cudaError_t gpu_wait(cudaEvent_t event, const char *what)
{
    unsigned limit = gpu_kernel_limit_s();
    if (limit) {
        fflush(stdout); /* what the program has printed so far survives _exit */
        int length =
            snprintf(watchdog_line, sizeof watchdog_line,
                     "%s: %s has not finished after %u s: does a loop in the kernel never end? "
                     "(MEMLAB_KERNEL_LIMIT_S=SECONDS allows longer, 0 no limit)\n",
                     memlab_program, what, limit);
        if (length < 0 || length >= (int)sizeof watchdog_line) { /* cut short: still one line */
            length = (int)sizeof watchdog_line - 1;
            watchdog_line[length - 1] = '\n';
        }
        watchdog_length = (size_t)length;
        alarm(limit);
    }
    cudaError_t err = event ? cudaEventSynchronize(event) : cudaDeviceSynchronize();
    if (limit)
        alarm(0);
    return err;
}

static void wait_for(cudaEvent_t stop, int whole_device, const char *what)
{
    cudaError_t err = gpu_wait(whole_device ? NULL : stop, what);
    if (err == cudaSuccess)
        err = cudaGetLastError();
    if (err != cudaSuccess)
        memlab_die(EXIT_GPU, "kernel of %s failed while timed: %s (%s)", what,
                   cudaGetErrorName(err), cudaGetErrorString(err));
}

struct timing time_job(const struct timed_job *job, const struct timing_config *cfg)
{
    int guarded = cfg->guarded && job->vary;
    /* The hold before each timed launch lasts twice as long as the host took to queue the
     * last warm-up launch (the first ones may load modules), within HOLD_MIN/MAX_MS. */
    double enqueue_ms = 0;
    for (int w = 0; w < cfg->warmup; w++) {
        double t0 = now_ms();
        job->launch(job->ctx, 0);
        enqueue_ms = now_ms() - t0;
    }
    gpu_check_launch(job->what);
    double hold_ms = 2 * enqueue_ms < HOLD_MIN_MS   ? HOLD_MIN_MS
                     : 2 * enqueue_ms > HOLD_MAX_MS ? HOLD_MAX_MS
                                                    : 2 * enqueue_ms;

    cudaEvent_t before, start, stop;
    CUDA_CHECK(cudaEventCreate(&before));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double *samples = (double *)malloc(3 * (size_t)cfg->reps * sizeof *samples);
    if (!samples)
        memlab_die(EXIT_USAGE, "out of host memory for %d timing samples", cfg->reps);
    double *spans = samples + cfg->reps, *hosts = spans + cfg->reps;
    struct timing t = {{0, 0, 0, 0}, 0, 0, 0, 0};
    /* Besides the last repetition, one drawn at random is checked: a launcher that fakes
     * most repetitions (as it must, to move the median) is caught at most points. */
    int spot = cfg->reps > 1 ? (int)(rng_unpredictable() % (uint64_t)(cfg->reps - 1)) : -1;
    uint64_t key = 0;
    char label[256];
    for (int r = 0; r < cfg->reps; r++) {
        if (guarded) {
            uint64_t next = rng_unpredictable();
            job->vary(job->ctx, key, next);
            key = next;
            /* Varying data larger than the L2 leaves it full of dirty lines. Back to back, a
             * launch that writes as much would find its own there, and pay to write them
             * back; one that writes less would find the L2 clean, so it is cleaned for it. */
            if (job->work.dram_bytes > cfg->gpu->l2_bytes &&
                job->work.written_bytes < cfg->gpu->l2_bytes && !cfg->flush_l2)
                gpu_clean_l2(cfg->gpu);
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        double t0 = now_ms();
        CUDA_CHECK(cudaEventRecord(before, 0));
        gpu_hold_stream(cfg->gpu, hold_ms);
        if (cfg->flush_l2)
            gpu_flush_l2(cfg->gpu);
        CUDA_CHECK(cudaEventRecord(start, 0));
        job->launch(job->ctx, 0);
        CUDA_CHECK(cudaEventRecord(stop, 0));
        wait_for(stop, cfg->guarded, job->what);
        hosts[r] = now_ms() - t0;
        float ms = 0, span = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaEventElapsedTime(&span, before, stop));
        samples[r] = ms;
        spans[r] = span;
        if (guarded && job->check && (r == spot || r == cfg->reps - 1)) {
            snprintf(label, sizeof label, "%s, timed repetition %d of %d", job->what, r + 1,
                     cfg->reps);
            t.mismatches += job->check(job->ctx, key, label);
            t.checked++;
        }
    }
    if (guarded)
        job->vary(job->ctx, key, 0);
    gpu_check_launch(job->what);
    t.ms = summarize(samples, cfg->reps);
    t.span_ms = summarize(spans, cfg->reps).median;
    t.host_ms = summarize(hosts, cfg->reps).median;
    free(samples);
    CUDA_CHECK(cudaEventDestroy(before));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return t;
}
