/* stats.c - median/min/max of timing samples (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct summary summarize(const double *samples, int count)
{
    struct summary s = {NAN, NAN, NAN, 0};
    if (count <= 0)
        return s;
    double *sorted = malloc((size_t)count * sizeof *sorted);
    if (!sorted)
        return s;
    memcpy(sorted, samples, (size_t)count * sizeof *sorted);
    qsort(sorted, (size_t)count, sizeof *sorted, compare_doubles);
    s.min = sorted[0];
    s.max = sorted[count - 1];
    s.median = count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
    s.count = count;
    free(sorted);
    return s;
}
