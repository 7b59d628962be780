/* edges.h - lab 4's edges: where a curve measured against the footprint leaves a plateau,
 * found on the coarse grid and then refined by bisection (trusted, host code only: included by
 * chain.h and l2sweep.h, and by tests/fixtures/lab4/edges_test.c, which runs it on synthetic
 * curves).
 *
 * The staircase's curve is a latency per hop (ns) at footprints fp[0] < fp[1] < ... (bytes).
 * Each edge has two figures, both refined to REFINE_RATIO by re-timing chases between two grid
 * points:
 *   onset  the capacity: the smallest footprint whose latency is more than ONSET_RISE above
 *          the plateau's level just before the rise. A cache misses nothing while the
 *          footprint fits, under LRU and random replacement alike, and some hops as soon as it
 *          does not, so this is where the cache is full, whatever the replacement does after.
 *   half   where half the hops miss: the latency halfway between the plateau before the rise
 *          and the next one (latency = hit + share x (miss - hit), linear in the share).
 *          For LRU it equals the onset; for random replacement it lies past it.
 * The coarse rule only decides that there is an edge and brackets it on the grid: a rise of
 * STEP_RISE (so a slow creep or one noisy point is no edge).
 *
 * The L2 sweep's curve (l2sweep.h) is a bandwidth (GB/s) that falls from a plateau (the median
 * of its first LEVEL_POINTS points) to a floor (of its last LEVEL_POINTS), by STEP_RISE at
 * least; its edge is where it first falls below halfway between them (find_fall), refined in
 * the same way (refine_fall).
 */
#ifndef LAB4_EDGES_H
#define LAB4_EDGES_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "stats.h"

#define STEP_RISE 1.25     /* an edge: 25% above the plateau's first latency */
#define ONSET_RISE 1.03    /* a rise: 3% (the L1 plateau's points agree within 0.2%) */
#define REFINE_RATIO 1.015 /* bisection stops when the bracket is this narrow */
#define LEVEL_POINTS 3     /* a falling curve's plateau and floor: the median of this many points */

/* What `bytes` cost, timed as a point of kind `sample`: a chase's latency (ns per hop), or the
 * time per byte a re-read takes (ns per byte: 1 / its GB/s); <= 0 when it gave no figure. */
typedef double (*cost_fn)(void *ctx, size_t bytes, const char *sample);

struct edge {
    int from, rise_from, rise_to; /* grid: the plateau's first point, its last, where the rise ends */
    double before, after;         /* ns: at rise_from, and the next plateau's median */
    double onset, half;           /* bytes; 0 where not refined */
};

/* Point k is STEP_RISE above ns[from], and so is the next one (one noisy point is no step). */
static int above_step(const double *ns, int count, int from, int k)
{
    return ns[k] > STEP_RISE * ns[from] && (k + 1 == count || ns[k + 1] > STEP_RISE * ns[from]);
}

/* The coarse edge after plateau `from`: a point STEP_RISE above ns[from] (above_step), walked
 * back over the points that each rise ONSET_RISE above the one before, and forward to where
 * the rise stops; the rise itself must be STEP_RISE (so a slow creep is no edge, however far
 * it goes). The level after: the median of the next plateau, up to its own step, which a
 * gradual rise only approaches. 0: no edge. */
static int find_edge(const double *ns, int count, int from, struct edge *e)
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
static double bisect(size_t lo, size_t hi, double level, size_t granule, cost_fn cost, void *ctx, const char *sample)
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

/* Both figures of a coarse edge, refined (the half may lie past the rise's end); the chase's
 * footprints are multiples of a 32-byte sector. */
static void refine_edge(const size_t *fp, const double *ns, int count, struct edge *e, cost_fn time_at, void *ctx)
{
    double onset_level = ONSET_RISE * e->before, half_level = (e->before + e->after) / 2;
    int hi = first_above(ns, e->rise_from, e->rise_to, onset_level);
    if (hi > 0)
        e->onset = bisect(fp[hi - 1], fp[hi], onset_level, 32, time_at, ctx, "onset");
    hi = first_above(ns, e->rise_from, count - 1, half_level);
    if (hi > 0)
        e->half = bisect(fp[hi - 1], fp[hi], half_level, 32, time_at, ctx, "half");
}

/* A bandwidth curve's fall (GB/s against footprint). */
struct fall {
    double plateau, floor; /* GB/s: the medians of the first and of the last LEVEL_POINTS points */
    int below;             /* the first grid point below halfway between them */
    double half;           /* bytes: where the curve crosses halfway, refined; 0 where not */
};

/* The plateau, the floor and the grid's bracket of the halfway crossing; 0 when the curve does
 * not fall by STEP_RISE (or is too short to tell). */
static int find_fall(const double *gbps, int count, struct fall *f)
{
    if (count < 2 * LEVEL_POINTS)
        return 0;
    f->plateau = summarize(gbps, LEVEL_POINTS).median;
    f->floor = summarize(gbps + count - LEVEL_POINTS, LEVEL_POINTS).median;
    f->half = 0;
    for (f->below = 1; f->below < count && gbps[f->below] >= (f->plateau + f->floor) / 2; f->below++)
        ;
    return f->plateau > STEP_RISE * f->floor && f->below < count;
}

/* The halfway crossing refined by bisection of its grid bracket. The bisection follows a cost
 * that rises, so `ns_per_byte` gives 1 / GB/s: it crosses 1 / halfway where the bandwidth
 * crosses halfway. Footprints: multiples of `granule` bytes. */
static void refine_fall(const size_t *fp, struct fall *f, size_t granule, cost_fn ns_per_byte, void *ctx)
{
    f->half = bisect(fp[f->below - 1], fp[f->below], 2 / (f->plateau + f->floor), granule, ns_per_byte, ctx, "half");
}

/* Footprints from `lo` to `hi` bytes, `per_doubling` of them a factor of 2, multiples of
 * `granule` bytes. */
static int footprints(size_t lo, size_t hi, int per_doubling, size_t granule, size_t *out, int max)
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

/* The capacity the device reports nearest (in ratio) to `bytes`: the L1 in force (none where
 * l1_kib is 0), the L2's partition, the L2. */
static double nearest_capacity(int l1_kib, size_t l2_bytes, double bytes, const char **name)
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

/* "onset 216.4 KiB, -3.4% against the L1 (224 KiB)" */
static void print_against(const char *what, double bytes, double cap, const char *name)
{
    if (bytes > 0)
        printf("%s %.1f KiB, %+.1f%% against %s (%.0f KiB)", what, bytes / 1024, 100 * (bytes / cap - 1), name, cap / 1024);
    else
        printf("%s not refined", what);
}

/* A least-squares line y = a x + b through n points (n >= 2, the x not all equal). */
static int fit_line(const double *x, const double *y, int n, double *a, double *b)
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

#endif
