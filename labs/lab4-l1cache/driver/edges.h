/* edges.h - lab 4's edges: where a curve measured against the footprint leaves a plateau,
 * found on the coarse grid and then refined by bisection (trusted, host code only, in C: used by
 * driver.cu and l2sweep.cu, and by tests/unit/lab4_edges.c, which runs it on synthetic
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

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STEP_RISE 1.25     /* an edge: 25% above the plateau's first latency */
#define ONSET_RISE 1.03    /* a rise: 3% (the L1 plateau's points agree within 0.2%) */
#define REFINE_RATIO 1.015 /* bisection stops when the bracket is this narrow */
#define LEVEL_POINTS 3     /* a falling curve's plateau and floor: the median of this many points */

/* What `bytes` cost, timed as a point of kind `sample`: a chase's latency (ns per hop), or the
 * time per byte a re-read takes (ns per byte: 1 / its GB/s); <= 0 when it gave no figure. */
typedef double (*cost_fn)(void *ctx, size_t bytes, const char *sample);

struct edge {
    int from, rise_from,
        rise_to;          /* grid: the plateau's first point, its last, where the rise ends */
    double before, after; /* ns: at rise_from, and the next plateau's median */
    double onset, half;   /* bytes; 0 where not refined */
};

/* The coarse edge after plateau `from`: a point STEP_RISE above ns[from] (above_step), walked
 * back over the points that each rise ONSET_RISE above the one before, and forward to where
 * the rise stops; the rise itself must be STEP_RISE (so a slow creep is no edge, however far
 * it goes). The level after: the median of the next plateau, up to its own step, which a
 * gradual rise only approaches. 0: no edge. */
int find_edge(const double *ns, int count, int from, struct edge *e);

/* Both figures of a coarse edge, refined (the half may lie past the rise's end); the chase's
 * footprints are multiples of a 32-byte sector. */
void refine_edge(const size_t *fp, const double *ns, int count, struct edge *e, cost_fn time_at,
                 void *ctx);

/* A bandwidth curve's fall (GB/s against footprint). */
struct fall {
    double plateau, floor; /* GB/s: the medians of the first and of the last LEVEL_POINTS points */
    int below;             /* the first grid point below halfway between them */
    double half;           /* bytes: where the curve crosses halfway, refined; 0 where not */
};

/* The plateau, the floor and the grid's bracket of the halfway crossing; 0 when the curve does
 * not fall by STEP_RISE (or is too short to tell). */
int find_fall(const double *gbps, int count, struct fall *f);

/* The halfway crossing refined by bisection of its grid bracket. The bisection follows a cost
 * that rises, so `ns_per_byte` gives 1 / GB/s: it crosses 1 / halfway where the bandwidth
 * crosses halfway. Footprints: multiples of `granule` bytes. */
void refine_fall(const size_t *fp, struct fall *f, size_t granule, cost_fn ns_per_byte, void *ctx);

/* Footprints from `lo` to `hi` bytes, `per_doubling` of them a factor of 2, multiples of
 * `granule` bytes. */
int footprints(size_t lo, size_t hi, int per_doubling, size_t granule, size_t *out, int max);

/* The capacity the device reports nearest (in ratio) to `bytes`: the L1 in force (none where
 * l1_kib is 0), the L2's partition, the L2. */
double nearest_capacity(int l1_kib, size_t l2_bytes, double bytes, const char **name);

/* "onset 216.4 KiB, -3.4% against the L1 (224 KiB)" */
void print_against(const char *what, double bytes, double cap, const char *name);

/* A least-squares line y = a x + b through n points (n >= 2, the x not all equal). */
int fit_line(const double *x, const double *y, int n, double *a, double *b);

#ifdef __cplusplus
}
#endif

#endif
