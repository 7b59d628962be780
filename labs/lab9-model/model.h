/* model.h - the driver's own count of what lab 9's codes move and issue, and the time model
 * built on it. Plain C, host only: the driver and the CPU tests (tests/unit/lab9_model.cu)
 * use it.
 *
 * Volumes (the seed's model), counted rather than derived: kernels.h says what a block of
 * each code reads, stores and loads; here that is a table of boxes (lab9_traffic), each a
 * span along x, y and z of the block's own points, and the count adds every box up over all
 * the blocks, clamping each span to the grid (the blocks at the grid's faces load no halo
 * outside it, and the rows at its faces are never written). A box's sum over the blocks is
 * the product of three sums, one an axis, so no loop visits the n^3 / (bx by bz) blocks.
 * Your closed forms (kernels.cu) must agree with this count within LAB9_MODEL_TOLERANCE.
 *
 * What the seed's model leaves out (the H100 reference run showed it, see the handout):
 *   model_block    what one block issues (warp instructions, from the codes' SASS), how many
 *                  times it waits for its global loads before it can go on (rounds), and the
 *                  shared-memory wavefronts it costs (bank conflicts and partial warps)
 *   model_network  the time: each SM holds R blocks; a block's round needs the SM's issue,
 *                  its shared-memory pipe and its share of the memory system, then the
 *                  latency of a load; mean-value analysis (Little's law per station) gives
 *                  the time R blocks take, waves of them the launch's.
 */
#ifndef LAB9_MODEL_H
#define LAB9_MODEL_H

#include <math.h>

#include "kernels.h"

#define LAB9_MODEL_TOLERANCE 0.001
#define LAB9_CODES 3
#define LAB9_SHAPES 10
#define LAB9_QUICK_SHAPES 3

/* The block shapes each code is swept over (bx, by, bz; k3: bz is the z chunk): every extent
 * divides 128, so every n of the sweep (a multiple of 128) takes whole blocks. The first
 * LAB9_QUICK_SHAPES are the --quick sweep. */
static const int lab9_shapes[LAB9_CODES][LAB9_SHAPES][3] = {
    {{32, 8, 4},
     {8, 8, 8},
     {128, 4, 2},
     {8, 16, 8},
     {16, 8, 4},
     {16, 16, 4},
     {32, 4, 4},
     {32, 16, 2},
     {64, 4, 4},
     {64, 8, 2}},
    {{32, 8, 4},
     {8, 8, 8},
     {128, 4, 2},
     {8, 16, 8},
     {16, 8, 4},
     {16, 16, 4},
     {32, 4, 4},
     {32, 16, 2},
     {64, 4, 4},
     {64, 8, 2}},
    {{32, 8, 16},
     {16, 8, 16},
     {64, 8, 64},
     {16, 16, 16},
     {32, 4, 16},
     {32, 16, 16},
     {64, 4, 16},
     {64, 8, 16},
     {32, 8, 64},
     {128, 4, 32}},
};

/* A span of the points [first, last] that a block owns along one axis of n, clamped to the
 * grid. */
enum span {
    SPAN_OWN,      /* its own points */
    SPAN_HALO,     /* its own points and one more either side */
    SPAN_BEFORE,   /* the one point before its first (a face halo) */
    SPAN_AFTER,    /* the one point after its last */
    SPAN_INTERIOR, /* its own points off the grid's faces (1 .. n-2): the ones written */
    SPANS
};

/* A box of points: a span along each axis. */
struct box {
    enum span x, y, z;
};

/* What a block of each code touches (kernels.h): the boxes it reads from global memory and
 * stores in shared memory, float for float; then each point of box `loaded` loads `loads`
 * floats from shared memory. Every code writes its interior points. */
struct code_traffic {
    int boxes;
    struct box read[7];
    struct box loaded;
    int loads;
};

static const struct code_traffic lab9_traffic[LAB9_CODES] = {
    /* k1: its points and their six face halos (an x halo is a lone float a row) */
    {7,
     {{SPAN_OWN, SPAN_OWN, SPAN_OWN},
      {SPAN_BEFORE, SPAN_OWN, SPAN_OWN},
      {SPAN_AFTER, SPAN_OWN, SPAN_OWN},
      {SPAN_OWN, SPAN_BEFORE, SPAN_OWN},
      {SPAN_OWN, SPAN_AFTER, SPAN_OWN},
      {SPAN_OWN, SPAN_OWN, SPAN_BEFORE},
      {SPAN_OWN, SPAN_OWN, SPAN_AFTER}},
     {SPAN_INTERIOR, SPAN_INTERIOR, SPAN_INTERIOR},
     7},
    /* k2: the halo box; 27 loads an interior point */
    {1, {{SPAN_HALO, SPAN_HALO, SPAN_HALO}}, {SPAN_INTERIOR, SPAN_INTERIOR, SPAN_INTERIOR}, 27},
    /* k3 (z: the chunk): the tile of every plane it walks, halo included; each interior
     * column loads 9 floats of every tile */
    {1, {{SPAN_HALO, SPAN_HALO, SPAN_HALO}}, {SPAN_INTERIOR, SPAN_INTERIOR, SPAN_HALO}, 9},
};

/* One axis of n points cut into blocks of b, summed over the blocks: the points of each span,
 * and the 32-byte sectors they cover when the axis is x (a row starts on a sector: n is a
 * multiple of 8). */
struct axis_sums {
    double blocks;
    double points[SPANS], sectors[SPANS];
};

static inline struct axis_sums axis_count(int n, int b)
{
    const int per = LAB9_SECTOR_BYTES / 4;
    struct axis_sums s = {0, {0}, {0}};
    for (int first = 0; first < n; first += b) {
        int last = first + b < n ? first + b - 1 : n - 1;
        s.blocks++;
        for (int k = 0; k < SPANS; k++) {
            int lo = k == SPAN_HALO || k == SPAN_BEFORE ? first - 1 : first;
            int hi = k == SPAN_HALO || k == SPAN_AFTER ? last + 1 : last;
            if (k == SPAN_BEFORE)
                hi = lo;
            if (k == SPAN_AFTER)
                lo = hi;
            int bottom = k == SPAN_INTERIOR ? 1 : 0, top = k == SPAN_INTERIOR ? n - 2 : n - 1;
            lo = lo < bottom ? bottom : lo;
            hi = hi > top ? top : hi;
            if (hi < lo)
                continue;
            s.points[k] += hi - lo + 1;
            s.sectors[k] += hi / per - lo / per + 1;
        }
    }
    return s;
}

/* A box summed over all the blocks: its floats, or (sectors) the sectors of its rows. */
static inline double box_total(struct box b, const struct axis_sums *x, const struct axis_sums *y,
                               const struct axis_sums *z, int sectors)
{
    return (sectors ? x->sectors[b.x] : x->points[b.x]) * y->points[b.y] * z->points[b.z];
}

/* Code k's volumes (0 k1, 1 k2, 2 k3) as counted. DRAM: every point read once, every
 * interior point written once, and the planes that a layer of blocks (one blockIdx.z) reads
 * and another layer reads too: read again from DRAM when a layer's L2 traffic does not fit
 * the L2's usable share, else epsilon of them. */
static inline struct lab9_volumes model_count(int k, const struct lab9_config *c,
                                              const struct lab9_machine *m)
{
    const struct code_traffic *t = &lab9_traffic[k];
    const struct box own = {SPAN_OWN, SPAN_OWN, SPAN_OWN},
                     interior = {SPAN_INTERIOR, SPAN_INTERIOR, SPAN_INTERIOR};
    struct axis_sums x = axis_count(c->n, c->bx), y = axis_count(c->n, c->by),
                     z = axis_count(c->n, c->bz);
    double sectors = box_total(interior, &x, &y, &z, 1),
           floats = t->loads * box_total(t->loaded, &x, &y, &z, 0);
    for (int i = 0; i < t->boxes; i++) {
        sectors += box_total(t->read[i], &x, &y, &z, 1);
        floats += box_total(t->read[i], &x, &y, &z, 0);
    }
    struct lab9_volumes v;
    v.l2 = LAB9_SECTOR_BYTES * sectors;
    v.smx = 4 * floats;
    double plane = (double)c->n * c->n, planes_again = z.points[SPAN_HALO] - z.points[SPAN_OWN];
    int fits = v.l2 / z.blocks <= m->l2_share * m->l2_bytes;
    v.gm = 4 * (box_total(own, &x, &y, &z, 0) + box_total(interior, &x, &y, &z, 0) +
                planes_again * plane * (fits ? m->epsilon : 1.0));
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
static inline int volumes_agree(const struct lab9_volumes *got, const struct lab9_volumes *want,
                                double tolerance)
{
    double g[3] = {got->gm, got->l2, got->smx}, w[3] = {want->gm, want->l2, want->smx};
    for (int i = 0; i < 3; i++)
        if (!(g[i] >= w[i] * (1 - tolerance) && g[i] <= w[i] * (1 + tolerance)))
            return 0;
    return 1;
}

/* ---- beyond the seed: instructions, rounds, wavefronts, and the SM as a queue ----------- */

/* Warp instructions of the codes' basic blocks, read from `cuobjdump -sass` of the driver
 * built with nvcc 13.0, -O3 -arch=sm_90 (every instruction a warp reaches is issued, whether
 * its predicate is on or off). --counters puts the total beside Nsight Compute's
 * smsp__inst_executed.sum: another compiler or GPU gives other counts, and the ratio there
 * says by how much. */
#define K1_WARP 148  /* k1: straight-line code, the same for every warp */
#define K2_ENTRY 22  /* k2: indices, up to the loader */
#define K2_AFTER 117 /* k2: after the loader: barrier, 27 shared loads, the sum, the store */
#define K3_ENTRY 53  /* k3: once a block (the chunk's bounds, the loader's divisor, the exit) */
#define K3_PLANE 71  /* k3: every plane: two barriers, the column test, 9 shared loads, the sums */
#define K3_STORE 21  /* k3: a plane that completes an output of the chunk stores it */

/* A cooperative loader `for (t = tid; t < total; t += threads)`, as nvcc compiled it: a loop
 * of single elements for (trips mod 4), then a loop of four elements (unrolled); a warp
 * issues the instructions its slowest thread needs. Each single trip loads and then stores
 * to shared memory, so it waits for its load: one round; four unrolled trips overlap. */
struct loader_cost {
    double setup;  /* trip count and bookkeeping, when any thread of the warp loads */
    double rem[4]; /* the single-element loop for 0..3 trips */
    double main_setup, main_trip;
};
/* k2's loader: t % tw, (t / tw) % th and t / (tw th) are divisions by values known only at
 * run time, some 60 instructions an element; k3's: t % tw and t / tw. */
static const struct loader_cost k2_loader = {33, {0, 17 + 98, 17 + 2 * 98, 17 + 3 * 98}, 11, 304};
static const struct loader_cost k3_loader = {8, {0, 63, 110, 154}, 9, 180};

static inline int trips_of(int total, int threads, int t)
{
    return t >= total ? 0 : (total - 1 - t) / threads + 1;
}

/* Warp w of `threads`: the instructions of its loader over `total` elements; *rounds: its waits. */
static inline double loader_warp(const struct loader_cost *c, int total, int threads, int w,
                                 int *rounds)
{
    int rem = 0, main = 0, any = 0;
    for (int t = 32 * w; t < 32 * w + 32 && t < threads; t++) {
        int trips = trips_of(total, threads, t);
        any |= trips > 0;
        rem = trips % 4 > rem ? trips % 4 : rem;
        main = trips / 4 > main ? trips / 4 : main;
    }
    *rounds = rem + main;
    return any ? c->setup + c->rem[rem] + (main ? c->main_setup + c->main_trip * main : 0) : 0;
}

/* Wavefronts of one warp's 32-bit shared-memory access to words word[0..count): the most
 * distinct words any one of the 32 banks holds (0 when no thread takes part). */
static inline int access_wavefronts(const int *word, int count)
{
    int most = 0;
    for (int i = 0; i < count; i++) {
        int distinct = 0;
        for (int j = 0; j < count; j++) {
            if (word[j] % 32 != word[i] % 32)
                continue;
            int seen = 0;
            for (int k = 0; k < j && !seen; k++)
                seen = word[k] == word[j];
            distinct += !seen;
        }
        most = distinct > most ? distinct : most;
    }
    return most;
}

/* What one block of code k does (an interior block: every thread in the grid). */
struct lab9_block {
    double threads;
    double inst;       /* warp instructions */
    double rounds;     /* times it waits for global loads before it can go on */
    double wavefronts; /* shared-memory wavefronts, loads and stores */
};

/* k1's accesses for the warp of threads t0 .. t0+31: its 7 stores (the point, then the face
 * halos of the threads on each face), then its 7 loads; word[] gets each access's words. */
static inline int k1_wavefronts(const struct lab9_config *c, int t0, int threads)
{
    int tw = c->bx + 2, th = c->by + 2, total = 0;
    static const int d[7][3] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                                {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    for (int pass = 0; pass < 2; pass++)
        for (int a = 0; a < 7; a++) {
            int word[32], n = 0;
            for (int t = t0; t < t0 + 32 && t < threads; t++) {
                int x = t % c->bx, y = t / c->bx % c->by, z = t / (c->bx * c->by);
                /* a store of halo a is made by the threads on that face only */
                int face = a == 0 || (a == 1 && x == 0) || (a == 2 && x == c->bx - 1) ||
                           (a == 3 && y == 0) || (a == 4 && y == c->by - 1) || (a == 5 && z == 0) ||
                           (a == 6 && z == c->bz - 1);
                if (pass == 0 && !face)
                    continue;
                word[n++] = ((z + 1 + d[a][2]) * th + y + 1 + d[a][1]) * tw + x + 1 + d[a][0];
            }
            total += access_wavefronts(word, n);
        }
    return total;
}

/* The stores of a cooperative loader (element t to word t) and `taps` loads of the
 * neighbours of each thread's point in a tile of rows tw long, th rows a plane. */
static inline int tile_wavefronts(int t0, int threads, int total, int bx, int by, int tw, int th,
                                  int planes_deep)
{
    int sum = 0;
    for (int first = 0; first < total; first += threads) {
        int word[32], n = 0;
        for (int t = t0; t < t0 + 32 && t < threads; t++)
            if (first + t < total)
                word[n++] = first + t;
        sum += access_wavefronts(word, n);
    }
    for (int dz = planes_deep ? -1 : 0; dz <= (planes_deep ? 1 : 0); dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int word[32], n = 0;
                for (int t = t0; t < t0 + 32 && t < threads; t++) {
                    int x = t % bx, y = t / bx % by, z = planes_deep ? t / (bx * by) + 1 : 0;
                    word[n++] = ((z + dz) * th + y + 1 + dy) * tw + x + 1 + dx;
                }
                sum += access_wavefronts(word, n);
            }
    return sum;
}

static inline struct lab9_block model_block(int k, const struct lab9_config *c)
{
    struct lab9_block b = {0, 0, 0, 0};
    int tw = c->bx + 2, th = c->by + 2, threads = c->bx * c->by * (k == 2 ? 1 : c->bz);
    int warps = (threads + 31) / 32, most = 0, planes = c->bz + 2;
    b.threads = threads;
    for (int w = 0; w < warps; w++) {
        int rounds = 1;
        if (k == 0) {
            b.inst += K1_WARP;
            b.wavefronts += k1_wavefronts(c, 32 * w, threads);
        } else if (k == 1) {
            int box = tw * th * (c->bz + 2);
            b.inst += K2_ENTRY + loader_warp(&k2_loader, box, threads, w, &rounds) + K2_AFTER;
            b.wavefronts += tile_wavefronts(32 * w, threads, box, c->bx, c->by, tw, th, 1);
        } else {
            double loader = loader_warp(&k3_loader, tw * th, threads, w, &rounds);
            b.inst += K3_ENTRY + planes * (K3_PLANE + loader) + c->bz * K3_STORE;
            b.wavefronts +=
                planes * tile_wavefronts(32 * w, threads, tw * th, c->bx, c->by, tw, th, 0);
        }
        most = rounds > most ? rounds : most;
    }
    b.rounds = k == 2 ? planes * most : most;
    return b;
}

/* A launch of code k: its blocks, and how many an SM holds at once (the occupancy API). */
struct lab9_launch {
    double blocks, blocks_per_sm, rounds; /* rounds: of one block */
    double inst, wavefronts;              /* the launch's */
};

static inline struct lab9_launch model_launch(int k, const struct lab9_config *c, int blocks_per_sm)
{
    struct lab9_block b = model_block(k, c);
    double n = c->n;
    double blocks = ceil(n / c->bx) * ceil(n / c->by) * ceil(n / c->bz);
    struct lab9_launch l = {blocks, (double)blocks_per_sm, b.rounds, blocks * b.inst,
                            blocks * b.wavefronts};
    return l;
}

/* What the machine does, measured in the run. */
struct lab9_rates {
    double sms;
    double issue;      /* warp instructions a second, the whole GPU */
    double gbps[3];    /* BW_GM, BW_L2, BW_SMX */
    double latency_ns; /* a load from DRAM with nothing else in flight (the chase) */
};

enum { LAB9_ISSUE, LAB9_SHARED, LAB9_GM, LAB9_L2, LAB9_LIMITERS };

struct lab9_time {
    double ms;                      /* predicted */
    double alone_ms[LAB9_LIMITERS]; /* what each station would need on its own */
    int limiter;                    /* the busiest station */
    double busy;                    /* its share of the predicted time */
};

#define LAB9_STATIONS 3

/* Mean-value analysis of one SM: m blocks, each round served by the stations in d[] (seconds
 * at each) and then waiting z seconds with nothing to serve it. Little's law at each
 * station, and for the round as a whole, gives the queue a block finds there from the queue
 * with one block fewer. Returns the time in which each of the m blocks completes a round. */
static inline double sm_round_time(int m, const double d[LAB9_STATIONS], double z)
{
    double q[LAB9_STATIONS] = {0, 0, 0}, x = 0;
    for (int j = 1; j <= m; j++) {
        double r[LAB9_STATIONS], cycle = z;
        for (int s = 0; s < LAB9_STATIONS; s++) {
            r[s] = d[s] * (1 + q[s]);
            cycle += r[s];
        }
        x = j / cycle;
        for (int s = 0; s < LAB9_STATIONS; s++)
            q[s] = x * r[s];
    }
    return m > 0 ? m / x : 0;
}

/* The predicted time of a launch with volumes v. Stations of a round: the SM's issue (the
 * block's instructions), its shared-memory pipe (128-byte wavefronts at BW_SMX), and its
 * share of the memory system (the slower of V_GM at BW_GM and V_L2 at BW_L2: the same bytes
 * cross both at once); then the DRAM latency. The busiest SM runs ceil(blocks / SMs) blocks,
 * R at a time. With many blocks an SM the time tends to the busiest station's (the seed's max
 * and the issue); with one, to the sum of the stations and the latency, round after round. */
static inline struct lab9_time
model_network(const struct lab9_volumes *v, const struct lab9_launch *l, const struct lab9_rates *r)
{
    struct lab9_time t;
    t.alone_ms[LAB9_ISSUE] = l->inst / r->issue * 1e3;
    t.alone_ms[LAB9_SHARED] = 128 * l->wavefronts / r->gbps[2] * 1e-6;
    t.alone_ms[LAB9_GM] = v->gm / r->gbps[0] * 1e-6;
    t.alone_ms[LAB9_L2] = v->l2 / r->gbps[1] * 1e-6;
    double memory =
        t.alone_ms[LAB9_GM] > t.alone_ms[LAB9_L2] ? t.alone_ms[LAB9_GM] : t.alone_ms[LAB9_L2];
    double per_round =
        r->sms / (l->blocks * l->rounds) * 1e-3; /* a launch's ms -> a round's s, one SM */
    double d[LAB9_STATIONS] = {t.alone_ms[LAB9_ISSUE] * per_round,
                               t.alone_ms[LAB9_SHARED] * per_round, memory * per_round};
    int resident = l->blocks_per_sm > 0 ? (int)l->blocks_per_sm : 1;
    int busiest = (int)ceil(l->blocks / r->sms), waves = busiest / resident,
        left = busiest % resident;
    double z = r->latency_ns * 1e-9;
    double s = l->rounds * (waves * sm_round_time(resident, d, z) + sm_round_time(left, d, z));
    t.ms = s * 1e3;
    t.limiter = LAB9_ISSUE;
    for (int i = 1; i < LAB9_LIMITERS; i++)
        if (t.alone_ms[i] > t.alone_ms[t.limiter])
            t.limiter = i;
    t.busy = t.ms > 0 ? t.alone_ms[t.limiter] / t.ms : 0;
    return t;
}

#endif
