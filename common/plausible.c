/* plausible.c - the physical floor and the clock check (see plausible.h). */
#include "plausible.h"

#include <math.h>
#include <stdio.h>

int implausible_rate(const struct work *w, const struct machine_limits *m, double fastest_ms,
                     char *why, size_t why_len)
{
    if (!(fastest_ms > 0) || !isfinite(fastest_ms)) {
        snprintf(why, why_len, "a repetition took %g ms: no real launch is that fast", fastest_ms);
        return 1;
    }
    double s = fastest_ms * 1e-3;
    if (w->flops > 0 && m->fp32_peak_gflops > 0) {
        double gflops = w->flops / s / 1e9;
        if (gflops > m->fp32_peak_gflops * (1 + PLAUSIBLE_PEAK_MARGIN)) {
            snprintf(why, why_len, "%.0f GFLOP/s, above the GPU's FP32 peak of %.0f GFLOP/s",
                     gflops, m->fp32_peak_gflops);
            return 1;
        }
    }
    if (w->peak_gbps > 0) {
        double gbps = w->peak_bytes / s / 1e9;
        if (gbps > w->peak_gbps * (1 + PLAUSIBLE_PEAK_MARGIN)) {
            snprintf(why, why_len,
                     "%.0f GB/s, above the %.0f GB/s peak of the memory it is counted at", gbps,
                     w->peak_gbps);
            return 1;
        }
    }
    if (w->dependent_loads > 0 && w->load_floor_ns > 0) {
        double ns = fastest_ms * 1e6 / w->dependent_loads;
        if (ns < w->load_floor_ns) {
            snprintf(
                why, why_len,
                "%.2f ns per dependent load (%.0f of them), under the %.1f ns in which no load "
                "can return: some loads were not made",
                ns, w->dependent_loads, w->load_floor_ns);
            return 1;
        }
    }
    if (w->dram_bytes > m->l2_bytes && m->ceiling_gbps > 0) {
        /* The L2 may hold up to its size from the repetition before (unless flushed), and
         * absorb writes: the rest crosses DRAM, at no more than the ceiling plus the margin. */
        double cached = m->cold_l2 ? 0 : m->l2_bytes;
        double gbps = w->dram_bytes / s / 1e9;
        double limit =
            m->ceiling_gbps * (1 + PLAUSIBLE_MARGIN) * w->dram_bytes / (w->dram_bytes - cached);
        if (gbps > limit) {
            snprintf(why, why_len,
                     "%.0f GB/s through DRAM for %.0f MiB (%.1fx the L2): above the %.0f GB/s that "
                     "the copy "
                     "ceiling (%.0f GB/s) allows",
                     gbps, w->dram_bytes / 1048576.0, w->dram_bytes / m->l2_bytes, limit,
                     m->ceiling_gbps);
            return 1;
        }
    }
    return 0;
}

int clock_missed_work(double span_ms, double host_ms, double slack_ms, char *why, size_t why_len)
{
    double allowed = span_ms * (1 + CLOCK_MARGIN) + slack_ms;
    if (host_ms <= allowed)
        return 0;
    snprintf(why, why_len,
             "the GPU was busy %.4f ms a repetition, the timed stream only %.4f ms: work ran "
             "outside the stream "
             "the driver times",
             host_ms, span_ms);
    return 1;
}
