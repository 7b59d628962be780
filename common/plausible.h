/* plausible.h - is a measured time physically possible, and did the clock see all the work?
 *
 * Two judgements on a timed point, pure arithmetic (the unit tests run them without a GPU):
 *   - the physical floor: a point faster than the GPU can be. Its FLOP rate above the FP32
 *     peak, its bandwidth above the peak of a level it is counted at (shared memory, say),
 *     a chain of dependent loads (a pointer chase) faster per load than any load returns,
 *     or, where more must cross DRAM than the L2 holds, more DRAM bandwidth than the copy
 *     ceiling measured in the same run allows (PLAUSIBLE_MARGIN above it, for the bytes
 *     the L2 cannot have kept from the repetition before);
 *   - the clock: the host's wall time of a repetition, with the whole device synchronised,
 *     against the events' span. Work queued on another stream, a host thread or a callback
 *     keeps the device busy after the stop event: the host sees it, the events do not.
 * Each returns 0 when the point passes, else 1 with a one-line reason in `why`.
 */
#ifndef MEMLAB_PLAUSIBLE_H
#define MEMLAB_PLAUSIBLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLAUSIBLE_MARGIN 0.10      /* over the copy ceiling: reads alone reach about 103% */
#define PLAUSIBLE_PEAK_MARGIN 0.02 /* over a peak computed from the clock */
#define CLOCK_MARGIN 0.10          /* host time may exceed the events' by 10% ... */
#define CLOCK_SLACK_MIN_MS 0.02    /* ... plus at least 20 us of launch and wake-up latency */
#define CLOCK_RETRIES 2            /* a miss is timed again this many times (harness.cu) */

/* What one launch must do, as the driver counts it. */
struct work {
    double dram_bytes; /* the least that must cross DRAM with nothing cached (0: no DRAM floor) */
    double flops;      /* FP32 operations (0: none counted) */
    double peak_bytes; /* bytes moved at a level with a known peak (shared memory, say) ... */
    double peak_gbps;  /* ... and that peak (0: none) */
    double dependent_loads; /* loads that each wait for the one before (a pointer chase) ... */
    double load_floor_ns;   /* ... and the least time one can take (0: no floor) */
    double written_bytes;   /* what the launch writes to global memory (timing.h: the L2's state) */
};

/* What the GPU can do, measured or computed in the same run. */
struct machine_limits {
    double ceiling_gbps; /* cudaMemcpy device-to-device, reads + writes */
    double l2_bytes;
    double fp32_peak_gflops; /* 0: no FLOP floor */
    int cold_l2;             /* the L2 is flushed before every repetition */
};

int implausible_rate(const struct work *w, const struct machine_limits *m, double fastest_ms,
                     char *why, size_t why_len);

/* host_ms and span_ms: medians over the repetitions; slack_ms: the latency a bare launch
 * shows in the same measurement (calibrated at run time). */
int clock_missed_work(double span_ms, double host_ms, double slack_ms, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
