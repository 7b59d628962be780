/* lab9_model.cu - CPU tests of lab 9's volume model: the driver's count (model.h) on
 * configurations worked out by hand, the layer condition, and a volumes file (the solution,
 * or any kernels.cu given at build time) against the count at every configuration of the
 * sweep. One line per test, "unit lab9 ...: OK" or ": FAIL why"; exit 1 on a failure.
 * Built and run by tests/lab9.sh: nvcc tests/unit/lab9_model.cu KERNELS.cu (host code only).
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
    snprintf(why, sizeof why, "core %g halo %g write %g with %g halo_points %g", a.core_sectors, a.halo_sectors,
             a.write_sectors, a.with_halo, a.halo_points);
    expect("axis sums of 16 points in blocks of 8", a.core_sectors == 2 && a.halo_sectors == 4 &&
           a.write_sectors == 2 && a.with_halo == 18 && a.halo_points == 2, why);

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
    expect("k1 768^3, bz 16: the layer condition fails", near(v.gm, compulsory + 2 * 47 * 4 * n * n), why);
    v = model_count(0, &thin, &h100);
    snprintf(why, sizeof why, "gm %.0f, expected %.0f", v.gm, compulsory + 0.01 * 2 * 383 * 4 * n * n);
    expect("k1 768^3, bz 2: the layer condition holds", near(v.gm, compulsory + 0.01 * 2 * 383 * 4 * n * n), why);

    /* The time model: the slowest level wins. */
    struct lab9_volumes t = {3e9, 1e9, 1e9};
    double gbps[3] = {3000, 8000, 30000};
    int bound = -1;
    double ms = model_time_ms(&t, gbps, &bound);
    expect("predicted time is the slowest level's", near(ms, 1.0) && bound == 0, "3 GB at 3000 GB/s is 1 ms");

    /* The volumes of kernels.cu against the count at every configuration of the sweep. */
    static const int edges[] = {256, 384, 512, 768, 128, 640};
    for (int k = 0; k < LAB9_CODES; k++) {
        int bad = 0, checked = 0, missing = 0;
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
            for (int s = 0; s < LAB9_SHAPES; s++) {
                struct lab9_config q = {edges[e], lab9_shapes[k][s][0], lab9_shapes[k][s][1], lab9_shapes[k][s][2]};
                struct lab9_volumes got, want = model_count(k, &q, &h100);
                if (lab9_variants[k].volumes(&q, &h100, &got) != LAB_OK) {
                    missing = 1;
                    break;
                }
                checked++;
                if (!volumes_agree(&got, &want, LAB9_MODEL_TOLERANCE) && bad++ == 0)
                    snprintf(why, sizeof why, "n %d block %dx%dx%d: gm %.4g l2 %.4g smx %.4g, count %.4g %.4g %.4g",
                             q.n, q.bx, q.by, q.bz, got.gm, got.l2, got.smx, want.gm, want.l2, want.smx);
            }
        char name[96];
        snprintf(name, sizeof name, "%s volumes agree with the count (%d configurations)", lab9_variants[k].name,
                 checked);
        expect(name, !missing && !bad, missing ? "not implemented" : why);
    }
    return failures ? 1 : 0;
}
