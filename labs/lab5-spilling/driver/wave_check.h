/* wave_check.h - lab 5: the CPU's time step and the checks of a kernel's output (trusted,
 * used by driver.cu).
 *
 * The device holds cur | prev | vsq one after the other (`capacity` floats each, a grid of
 * n points using the first n of each), then `next` and a guard. A reference (grid3d.h) is
 * the time step in double on some (y, z) rows of a grid, every x of each: all rows of grids
 * up to ALL_ROWS_MAX points, else grid3d's sampled rows for lab 5's blocks and z chunks
 * (the grid's faces, both sides of the first block and z-chunk edges, the middle and the
 * last interior rows, where indexing mistakes show). It is computed for one sign pattern of
 * the inputs (vary.h): 0, the inputs as written, or the pattern of a timed repetition.
 * A check passes when every interior point is within tolerance, every boundary point (and,
 * with all rows, a guard after the grid) still holds the poison, and the checked rows of
 * the three inputs still hold the reference's pattern, bit for bit.
 */
#ifndef LAB5_WAVE_CHECK_H
#define LAB5_WAVE_CHECK_H

#include "harness.h"
#include "kernels.h"
#include "probes/grid3d.h"

#define R LAB5_R
#define GUARD_WORDS 1024
#define ALL_ROWS_MAX ((size_t)1 << 22)

/* The time step as grid3d's stencil of one point: the Laplacian of cur (the star of radius
 * R), prev `capacity` words after cur and vsq `capacity` words after prev. */
struct wave_stencil {
    struct star_stencil laplacian;
    size_t capacity;
};

struct wave_data {
    float *in, *next; /* device: cur | prev | vsq; next (+ GUARD_WORDS) */
    float *host_in;   /* the three inputs as written */
    float *got;       /* host copy of checked rows */
    size_t capacity;
    struct wave_stencil stencil;
};

/* One device allocation, cur | prev | vsq | next + guard (each array 256-byte aligned, for
 * grids of up to `points` points), host room for every row of grids of up to `all_rows`
 * points or `sampled` floats of sampled rows, and the inputs from `seed`: cur and prev in
 * [-1, 1), vsq in [0.01, 0.2). */
void wave_data_init(struct wave_data *d, size_t points, size_t all_rows, size_t sampled,
                    uint64_t seed);

void wave_data_free(struct wave_data *d);

/* The rows to check on grid g and the time step on them for the inputs as written; for a
 * timed repetition's pattern, grid3d's reference_values(ref, d->host_in, key). */
void wave_reference(struct reference *ref, const struct wave_data *d, struct grid g);

/* A kernel's output against the reference, and its inputs unchanged: mismatches. */
size_t check_wave(const char *label, const struct reference *ref, struct wave_data *d);

#endif
