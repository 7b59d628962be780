/* edges.c - lab 4's edges (see edges.h). */
#include "edges.h"

#include <math.h>
#include <stdio.h>

#include "stats.h"

/* Point k is STEP_RISE above ns[from], and so is the next one (one noisy point is no step). */
static int above_step(const double *ns, int count, int from, int k)
{
    return ns[k] > STEP_RISE * ns[from] && (k + 1 == count || ns[k + 1] > STEP_RISE * ns[from]);
}

int find_edge(const double *ns, int count, int from, struct edge *e)
{
    for (int k = from + 1; k < count; k++) {
        if (!above_step(ns, count, from, k))
            continue;
        int r = k - 1, t = k;
        while (r > from && ns[r] > ONSET_RISE * ns[r - 1])
            r--;
        while (t + 1 < count && ns[t + 1] > ONSET_RISE * ns[t])
            t++;
        if (ns[t] <= STEP_RISE * ns[r])
            continue;
        int end = t + 1;
        while (end < count && !above_step(ns, count, t, end))
            end++;
        *e = (struct edge){from, r, t, ns[r], summarize(ns + t, end - t).median, 0, 0};
        return 1;
    }
    return 0;
}

/* The first grid point after `lo` above `level`: the top of a bracket whose bottom is below. */
static int first_above(const double *ns, int lo, int end, double level)
{
    for (int k = lo + 1; k <= end; k++)
        if (ns[k] > level)
            return k;
    return -1;
}

/* Bisection in log footprint (multiples of `granule` bytes) between lo, below `level`, and hi,
 * above it: the geometric middle of the last bracket, or 0 if a point failed. */
static double bisect(size_t lo, size_t hi, double level, size_t granule, cost_fn cost, void *ctx,
                     const char *sample)
{
    while ((double)hi > REFINE_RATIO * (double)lo) {
        size_t mid = (size_t)(sqrt((double)lo * (double)hi) / granule + 0.5) * granule;
        if (mid <= lo || mid >= hi)
            break;
        double y = cost(ctx, mid, sample);
        if (y <= 0)
            return 0;
        if (y > level)
            hi = mid;
        else
            lo = mid;
    }
    return sqrt((double)lo * (double)hi);
}

void refine_edge(const size_t *fp, const double *ns, int count, struct edge *e, cost_fn time_at,
                 void *ctx)
{
    double onset_level = ONSET_RISE * e->before, half_level = (e->before + e->after) / 2;
    int hi = first_above(ns, e->rise_from, e->rise_to, onset_level);
    if (hi > 0)
        e->onset = bisect(fp[hi - 1], fp[hi], onset_level, 32, time_at, ctx, "onset");
    hi = first_above(ns, e->rise_from, count - 1, half_level);
    if (hi > 0)
        e->half = bisect(fp[hi - 1], fp[hi], half_level, 32, time_at, ctx, "half");
}

int find_fall(const double *gbps, int count, struct fall *f)
{
    if (count < 2 * LEVEL_POINTS)
        return 0;
    f->plateau = summarize(gbps, LEVEL_POINTS).median;
    f->floor = summarize(gbps + count - LEVEL_POINTS, LEVEL_POINTS).median;
    f->half = 0;
    for (f->below = 1; f->below < count && gbps[f->below] >= (f->plateau + f->floor) / 2;
         f->below++)
        ;
    return f->plateau > STEP_RISE * f->floor && f->below < count;
}

void refine_fall(const size_t *fp, struct fall *f, size_t granule, cost_fn ns_per_byte, void *ctx)
{
    f->half = bisect(fp[f->below - 1], fp[f->below], 2 / (f->plateau + f->floor), granule,
                     ns_per_byte, ctx, "half");
}

int footprints(size_t lo, size_t hi, int per_doubling, size_t granule, size_t *out, int max)
{
    int count = 0;
    for (int k = 0; count < max; k++) {
        size_t f = (size_t)((double)lo * exp2((double)k / per_doubling) / granule + 0.5) * granule;
        if (f > hi)
            break;
        if (!count || f != out[count - 1])
            out[count++] = f;
    }
    return count;
}

double nearest_capacity(int l1_kib, size_t l2_bytes, double bytes, const char **name)
{
    double caps[3] = {l1_kib * 1024.0, l2_bytes / 2.0, (double)l2_bytes};
    static const char *const names[3] = {"the L1", "half the L2", "the L2"};
    int best = l1_kib ? 0 : 1;
    for (int k = best + 1; k < 3; k++)
        if (fabs(log(bytes / caps[k])) < fabs(log(bytes / caps[best])))
            best = k;
    *name = names[best];
    return caps[best];
}

void print_against(const char *what, double bytes, double cap, const char *name)
{
    if (bytes > 0)
        printf("%s %.1f KiB, %+.1f%% against %s (%.0f KiB)", what, bytes / 1024,
               100 * (bytes / cap - 1), name, cap / 1024);
    else
        printf("%s not refined", what);
}

int fit_line(const double *x, const double *y, int n, double *a, double *b)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++)
        sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
    double d = n * sxx - sx * sx;
    if (n < 2 || d == 0)
        return 0;
    *a = (n * sxy - sx * sy) / d;
    *b = (sy - *a * sx) / n;
    return 1;
}
