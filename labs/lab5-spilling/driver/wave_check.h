/* wave_check.h - lab 5: the CPU's time step and the checks of a kernel's output (trusted,
 * used by driver.cu).
 *
 * The device holds cur | prev | vsq one after the other (`capacity` floats each, a grid of
 * n points using the first n of each), then `next` and a guard. A reference is the time step
 * in double on some (y, z) rows of a grid, every x of each: all rows of grids up to
 * ALL_ROWS_MAX points, else the rows at the grid's faces, both sides of the first block and
 * z-chunk edges, the middle and the last interior rows, where indexing mistakes show. It is
 * computed for one sign pattern of the inputs (vary.h): 0, the inputs as written, or the
 * pattern of a timed repetition.
 * A check passes when every interior point is within tolerance, every boundary point (and,
 * with all rows, a guard after the grid) still holds the poison, and the checked rows of
 * the three inputs still hold the reference's pattern, bit for bit.
 */
#ifndef LAB5_WAVE_CHECK_H
#define LAB5_WAVE_CHECK_H

#include "harness.h"
#include "kernels.h"

#define R LAB5_R
#define GUARD_WORDS 1024
#define POISON_WORD 0xFFFFFFFFu
#define ALL_ROWS_MAX ((size_t)1 << 22)

struct grid {
    int nx, ny, nz;
};

struct wave_data {
    float *in, *next; /* device: cur | prev | vsq; next (+ GUARD_WORDS) */
    float *host_in;   /* the three inputs as written */
    float *got;       /* host copy of checked rows */
    size_t capacity;
};

struct reference {
    struct grid g;
    int rows, *y, *z; /* the checked rows */
    double *values;   /* rows x nx; NAN at boundary points */
    struct tolerance tol;
    uint64_t key; /* the inputs' sign pattern */
};

/* One device allocation, cur | prev | vsq | next + guard (each array 256-byte aligned, for
 * grids of up to `points` points), host room for every row of grids of up to `all_rows`
 * points or `sampled` floats of sampled rows, and the inputs from `seed`: cur and prev in
 * [-1, 1), vsq in [0.01, 0.2). */
void wave_data_init(struct wave_data *d, size_t points, size_t all_rows, size_t sampled,
                    uint64_t seed);

void wave_data_free(struct wave_data *d);

size_t grid_points(struct grid g);

size_t interior_points(struct grid g);

/* The time step in double on the reference's rows, for sign pattern `key` of the inputs. */
void reference_values(struct reference *ref, const struct wave_data *d, uint64_t key);

void reference_build(struct reference *ref, const struct wave_data *d, struct grid g);

void reference_free(struct reference *ref);

/* A kernel's output against the reference, and its inputs unchanged: mismatches. */
size_t check_wave(const char *label, const struct reference *ref, struct wave_data *d);

#endif
