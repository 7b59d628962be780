/* stats.h - summary statistics of repeated timings: median, minimum, maximum. */
#ifndef MEMLAB_STATS_H
#define MEMLAB_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct summary {
    double median, min, max;
    int count;
};

/* Summarise count samples (the array is left unchanged). The median of an even count is
 * the mean of the two middle samples. count 0 gives all-NaN with count 0. */
struct summary summarize(const double *samples, int count);

#ifdef __cplusplus
}
#endif

#endif
