/* lab9_model.cu - CPU tests of lab 9's model: the driver's count (model.h) on configurations
 * worked out by hand (volumes, the layer condition, a block's instructions, rounds and
 * shared-memory wavefronts), the time model's limits (one block an SM: every station and the
 * latency in turn; many: the busiest station), and a volumes file (the solution, or any
 * kernels.cu given at build time) against the count at every configuration of the sweep.
 * One line per test, "unit lab9 ...: OK" or ": FAIL why"; exit 1 on a failure.
 * Built by make, linked with the solution's kernels ($(OUT)/tests/lab9_model_solution) or the
 * student file's ($(OUT)/tests/lab9_model_student), run by tests/lab9.sh (host code only).
 */
#include <math.h>
#include <stdio.h>

#include "model.h"

static int failures;

static void expect(const char *name, int ok, const char *why)
{
    printf("unit lab9 %s: %s%s\n", name, ok ? "OK" : "FAIL ", ok ? "" : why);
    failures += !ok;
}

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fabs(want);
}

static const struct lab9_machine h100 = {52428800.0, 0.5, 0.01};

int main(void)
{
    char why[256];
    /* 16 points in blocks of 8: [0,7] and [8,15]; halos [0,8] and [7,15] cover 2 sectors each. */
    struct axis_sums a = axis_count(16, 8);
    snprintf(why, sizeof why,
             "sectors: own %g halo %g interior %g; points: halo %g before %g after %g",
             a.sectors[SPAN_OWN], a.sectors[SPAN_HALO], a.sectors[SPAN_INTERIOR],
             a.points[SPAN_HALO], a.points[SPAN_BEFORE], a.points[SPAN_AFTER]);
    expect("axis sums of 16 points in blocks of 8",
           a.blocks == 2 && a.sectors[SPAN_OWN] == 2 && a.sectors[SPAN_HALO] == 4 &&
               a.sectors[SPAN_INTERIOR] == 2 && a.points[SPAN_HALO] == 18 &&
               a.points[SPAN_BEFORE] == 1 && a.points[SPAN_AFTER] == 1,
           why);

    /* k2, n 256, block 32x8x4: rows of 34 floats (6 sectors) in 8 x-blocks, less the two grid
     * faces: 46 sectors; 32 y-blocks of 10 rows less 2: 318; 64 z-blocks of 6 planes less 2:
     * 382; writes 32 sectors a row over 254^2 rows; 8 x 34 - 2 = 270 floats a row with halos. */
    struct lab9_config c = {256, 32, 8, 4};
    struct lab9_volumes v = model_count(1, &c, &h100);
    double l2 = 32.0 * (46.0 * 318 * 382 + 32.0 * 254 * 254);
    snprintf(why, sizeof why, "l2 %.0f, by hand %.0f", v.l2, l2);
    expect("k2 L2 sectors of 256^3 in 32x8x4 blocks, by hand", near(v.l2, l2), why);
    double smx = 4.0 * (270 * 318.0 * 382 + 27.0 * 254 * 254 * 254);
    snprintf(why, sizeof why, "smx %.0f, by hand %.0f", v.smx, smx);
    expect("k2 shared-memory bytes of 256^3 in 32x8x4 blocks, by hand", near(v.smx, smx), why);

    /* k1 at 768^3: a layer of bz = 16 planes moves about 80 MB through the L2, more than half
     * of 50 MiB, so its 2 x 47 shared halo planes come from DRAM again; bz = 2 fits. */
    struct lab9_config deep = {768, 32, 2, 16}, thin = {768, 64, 8, 2};
    double n = 768, compulsory = 4 * n * n * n + 4 * (n - 2) * (n - 2) * (n - 2);
    v = model_count(0, &deep, &h100);
    snprintf(why, sizeof why, "gm %.0f, expected %.0f", v.gm, compulsory + 2 * 47 * 4 * n * n);
    expect("k1 768^3, bz 16: the layer condition fails",
           near(v.gm, compulsory + 2 * 47 * 4 * n * n), why);
    v = model_count(0, &thin, &h100);
    snprintf(why, sizeof why, "gm %.0f, expected %.0f", v.gm,
             compulsory + 0.01 * 2 * 383 * 4 * n * n);
    expect("k1 768^3, bz 2: the layer condition holds",
           near(v.gm, compulsory + 0.01 * 2 * 383 * 4 * n * n), why);

    /* The time model: the slowest level wins. */
    struct lab9_volumes t = {3e9, 1e9, 1e9};
    double gbps[3] = {3000, 8000, 30000};
    int bound = -1;
    double ms = model_time_ms(&t, gbps, &bound);
    expect("predicted time is the slowest level's", near(ms, 1.0) && bound == 0,
           "3 GB at 3000 GB/s is 1 ms");

    /* A block's instructions and rounds (model.h's SASS counts). k1: 32 warps of 148, one
     * round. k2, 32x8x4: a box of 34 x 10 x 6 = 2040 floats for 1024 threads, two single
     * trips a warp: 22 + 33 + 17 + 2 x 98 + 117 = 385 a warp, two rounds. k3, 32x8 walking
     * 16 planes: a tile of 340 floats for 256 threads, warps 0-2 two trips (8 + 110), warps
     * 3-7 one (8 + 63); 18 planes of 71 plus the loader, 16 stores of 21, 53 once:
     * 3 x 3791 + 5 x 2945 = 26098, 18 planes x 2 = 36 rounds. */
    struct lab9_config b1 = {512, 32, 8, 4}, b3 = {512, 32, 8, 16}, b8 = {512, 8, 8, 8};
    struct lab9_block k1b = model_block(0, &b1), k2b = model_block(1, &b1),
                      k3b = model_block(2, &b3);
    snprintf(why, sizeof why, "k1 %.0f inst %.0f rounds, k2 %.0f %.0f, k3 %.0f %.0f", k1b.inst,
             k1b.rounds, k2b.inst, k2b.rounds, k3b.inst, k3b.rounds);
    expect("a block's warp instructions and rounds, by hand (k1 32x8x4, k2 32x8x4, k3 32x8 x 16 "
           "planes)",
           k1b.inst == 32 * 148 && k1b.rounds == 1 && k2b.inst == 32 * 385 && k2b.rounds == 2 &&
               k3b.inst == 26098 && k3b.rounds == 36,
           why);

    /* Shared-memory wavefronts. k2 32x8x4: a warp is one row of 32 threads, so its 27 loads
     * and its 2 stores (words tid and tid + 1024; the last warp's second has 24 threads, still
     * one wavefront) are conflict-free: 32 x 29 = 928. k2 8x8x8:
     * a warp spans 4 rows of a tile 10 floats wide, rows 0 and 3 share banks 0-5: every load
     * takes 2 wavefronts, 16 x 27 x 2 + 32 stores = 896. k1 32x8x4: 7 loads a warp, the
     * point's store, and the face halos: x faces one thread each (2 a warp), y faces on the
     * block's first and last rows (2 x 4 warps), z faces on its first and last planes
     * (2 x 8 warps): 32 x 8 + 64 + 8 + 16 = 344. */
    struct lab9_block w2 = model_block(1, &b1), w8 = model_block(1, &b8), w1 = model_block(0, &b1);
    snprintf(why, sizeof why, "k2 32x8x4 %.0f, k2 8x8x8 %.0f, k1 32x8x4 %.0f", w2.wavefronts,
             w8.wavefronts, w1.wavefronts);
    expect("shared-memory wavefronts of a block, by hand (bank conflicts and partial warps)",
           w2.wavefronts == 928 && w8.wavefronts == 896 && w1.wavefronts == 344, why);

    /* The SM as a queue. One block: every station, then the latency, in turn. Many blocks:
     * the busiest station sets the pace (within what a finite queue leaves). */
    double d[LAB9_STATIONS] = {1.0, 0.5, 0.25};
    double one = sm_round_time(1, d, 2.0), many = sm_round_time(64, d, 2.0);
    snprintf(why, sizeof why, "one block %.4f (want 3.75), 64 blocks %.4f (want 64 to 66)", one,
             many);
    expect("the SM's round time: one block adds the stations and the latency, many queue at the "
           "busiest",
           near(one, 3.75) && many >= 64 && many <= 66, why);

    /* The whole launch: with one block an SM the time is rounds x (stations + latency);
     * with many resident blocks, the busiest station alone (here the issue). */
    struct lab9_rates rates = {100, 1e12, {1000, 4000, 16000}, 500};
    struct lab9_volumes vv = {1e8, 1e8, 0};
    struct lab9_launch single = {100, 1, 2, 1e9, 1e6}, crowd = {100 * 256, 32, 2, 1e9, 1e6};
    struct lab9_time ts = model_network(&vv, &single, &rates),
                     tc = model_network(&vv, &crowd, &rates);
    double sum_ms = 1.0 + 128 * 1e6 / 16000 * 1e-6 + 0.1 + 2 * 500e-6;
    snprintf(why, sizeof why,
             "single %.5f ms (want %.5f), crowd %.5f ms (issue alone 1 ms), limiter %d busy %.2f",
             ts.ms, sum_ms, tc.ms, tc.limiter, tc.busy);
    expect("the time model's limits: one block an SM in turn, many queue at the issue",
           near(ts.ms, sum_ms) && tc.ms >= 1.0 && tc.ms <= 1.1 && tc.limiter == LAB9_ISSUE &&
               tc.busy > 0.9,
           why);

    /* The volumes of kernels.cu against the count at every configuration of the sweep. */
    static const int edges[] = {256, 384, 512, 768, 128, 640};
    for (int k = 0; k < LAB9_CODES; k++) {
        int bad = 0, checked = 0, missing = 0;
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
            for (int s = 0; s < LAB9_SHAPES; s++) {
                struct lab9_config q = {edges[e], lab9_shapes[k][s][0], lab9_shapes[k][s][1],
                                        lab9_shapes[k][s][2]};
                struct lab9_volumes got, want = model_count(k, &q, &h100);
                if (lab9_variants[k].volumes(&q, &h100, &got) != LAB_OK) {
                    missing = 1;
                    break;
                }
                checked++;
                if (!volumes_agree(&got, &want, LAB9_MODEL_TOLERANCE) && bad++ == 0)
                    snprintf(why, sizeof why,
                             "n %d block %dx%dx%d: gm %.4g l2 %.4g smx %.4g, count %.4g %.4g %.4g",
                             q.n, q.bx, q.by, q.bz, got.gm, got.l2, got.smx, want.gm, want.l2,
                             want.smx);
            }
        char name[96];
        snprintf(name, sizeof name, "%s volumes agree with the count (%d configurations)",
                 lab9_variants[k].name, checked);
        expect(name, !missing && !bad, missing ? "not implemented" : why);
    }
    return failures ? 1 : 0;
}
