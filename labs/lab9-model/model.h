/* model.h - the driver's own count of what lab 9's codes move (kernels.h says what each code
 * loads; this header counts it exactly). Plain C, host only: the driver and the CPU tests
 * (tests/unit/lab9-model.c) use it.
 *
 * Where the student's formulas (kernels.cu) multiply a full block's traffic by the number of
 * blocks, this count walks the blocks along each axis and clamps every halo to the grid: the
 * blocks at the grid's faces load no halo outside it, and the rows at its faces are never
 * written. Each code's traffic is a product of per-axis sums (a row's sectors depend only on
 * x, a block's rows only on y and z), so no loop visits the n^3 / (bx by bz) blocks.
 * A student's closed forms must agree with it within LAB9_MODEL_TOLERANCE (rounding only).
 */
#ifndef LAB9_MODEL_H
#define LAB9_MODEL_H

#include "kernels.h"

#define LAB9_MODEL_TOLERANCE 0.001
#define LAB9_CODES 3
#define LAB9_SHAPES 10
#define LAB9_QUICK_SHAPES 3

/* The block shapes each code is swept over (bx, by, bz; k3: bz is the z chunk): every extent
 * divides 128, so every n of the sweep (a multiple of 128) takes whole blocks. The first
 * LAB9_QUICK_SHAPES are the --quick sweep. */
static const int lab9_shapes[LAB9_CODES][LAB9_SHAPES][3] = {
    {{32, 8, 4}, {8, 8, 8}, {128, 4, 2}, {8, 16, 8}, {16, 8, 4}, {16, 16, 4}, {32, 4, 4}, {32, 16, 2}, {64, 4, 4}, {64, 8, 2}},
    {{32, 8, 4}, {8, 8, 8}, {128, 4, 2}, {8, 16, 8}, {16, 8, 4}, {16, 16, 4}, {32, 4, 4}, {32, 16, 2}, {64, 4, 4}, {64, 8, 2}},
    {{32, 8, 16}, {16, 8, 16}, {64, 8, 64}, {16, 16, 16}, {32, 4, 16}, {32, 16, 16}, {64, 4, 16}, {64, 8, 16}, {32, 8, 64}, {128, 4, 32}},
};

/* One axis of n points cut into blocks of b: sums over the blocks. */
struct axis_sums {
    double core_sectors; /* sectors of each block's own points in a row (x only) */
    double halo_sectors; /* the same with the halo either side, clamped to the grid */
    double write_sectors;/* sectors of each block's interior points (1 .. n-2) */
    double with_halo;    /* points each block covers with its halo, clamped */
    double halo_points;  /* with_halo - its own points */
};

/* Sectors that floats a..b of a row cover (rows start on a sector: n is a multiple of 8). */
static inline double sectors_of(int a, int b)
{
    const int per = LAB9_SECTOR_BYTES / 4;
    return b < a ? 0 : (double)(b / per - a / per + 1);
}

static inline struct axis_sums axis_count(int n, int b)
{
    struct axis_sums s = {0, 0, 0, 0, 0};
    for (int first = 0; first < n; first += b) {
        int last = first + b < n ? first + b - 1 : n - 1;
        int lo = first > 0 ? first - 1 : 0, hi = last < n - 1 ? last + 1 : n - 1;
        s.core_sectors += sectors_of(first, last);
        s.halo_sectors += sectors_of(lo, hi);
        s.write_sectors += sectors_of(first > 1 ? first : 1, last < n - 2 ? last : n - 2);
        s.with_halo += hi - lo + 1;
        s.halo_points += (hi - lo + 1) - (last - first + 1);
    }
    return s;
}

/* DRAM: compulsory reads and writes, and the halo planes the layers share, read again in full
 * when one layer's L2 traffic does not fit the L2's usable share (else epsilon of them). */
static inline double model_gm(const struct lab9_config *c, const struct lab9_machine *m, double l2_bytes,
                              int planes_per_layer)
{
    double n = c->n, layers = (c->n + planes_per_layer - 1) / planes_per_layer;
    double shared_planes = 2 * (layers - 1);
    int fits = l2_bytes / layers <= m->l2_share * m->l2_bytes;
    return 4 * n * n * n + 4 * (n - 2) * (n - 2) * (n - 2) + shared_planes * 4 * n * n * (fits ? m->epsilon : 1.0);
}

/* Code k's volumes (0 k1, 1 k2, 2 k3) as counted. */
static inline struct lab9_volumes model_count(int k, const struct lab9_config *c, const struct lab9_machine *m)
{
    int n = c->n;
    double nn = n, inner = n - 2.0;
    struct axis_sums x = axis_count(n, c->bx), y = axis_count(n, c->by), z = axis_count(n, c->bz);
    double write_sectors = x.write_sectors * inner * inner;
    double read_sectors, smem_floats;
    if (k == 0) {
        read_sectors = x.halo_sectors * nn * nn + x.core_sectors * (y.halo_points * nn + nn * z.halo_points);
        smem_floats = nn * nn * nn + (x.halo_points + y.halo_points + z.halo_points) * nn * nn +
                      7 * inner * inner * inner;
    } else {
        read_sectors = x.halo_sectors * y.with_halo * z.with_halo;
        double loads = k == 1 ? 27 * inner * inner * inner : 9 * inner * inner * z.with_halo;
        smem_floats = x.with_halo * y.with_halo * z.with_halo + loads;
    }
    struct lab9_volumes v;
    v.l2 = LAB9_SECTOR_BYTES * (read_sectors + write_sectors);
    v.smx = 4 * smem_floats;
    v.gm = model_gm(c, m, v.l2, c->bz);
    return v;
}

/* The predicted time in ms: the slowest level (bandwidths in GB/s); *bound names it. */
static inline double model_time_ms(const struct lab9_volumes *v, const double gbps[3], int *bound)
{
    double t[3] = {v->gm / gbps[0], v->l2 / gbps[1], v->smx / gbps[2]};
    int b = 0;
    for (int i = 1; i < 3; i++)
        if (t[i] > t[b])
            b = i;
    if (bound)
        *bound = b;
    return t[b] * 1e-6;
}

/* |got - want| <= tolerance x want on every level. */
static inline int volumes_agree(const struct lab9_volumes *got, const struct lab9_volumes *want, double tolerance)
{
    double g[3] = {got->gm, got->l2, got->smx}, w[3] = {want->gm, want->l2, want->smx};
    for (int i = 0; i < 3; i++)
        if (!(g[i] >= w[i] * (1 - tolerance) && g[i] <= w[i] * (1 + tolerance)))
            return 0;
    return 1;
}

#endif
