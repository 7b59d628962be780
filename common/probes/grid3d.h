/* grid3d.h - 3D grids of floats and the CPU reference of a stencil on them (labs 5, 8, 9).
 *
 * A grid of nx*ny*nz floats is stored x fastest: point (x, y, z) is at (z*ny + y)*nx + x.
 * A stencil of radius r writes its interior points (r <= x < nx-r, likewise y and z); the
 * boundary points stay poisoned. The reference holds the CPU's answer, in double, on a set
 * of (y, z) rows (every x of each): all rows of a small grid, or sampled rows of a large one
 * (grid faces, both sides of the first block and z-chunk edges, the middle). Its values
 * follow the input's sign pattern (vary.h): reference_values recomputes them for a key,
 * reading each point through vary_float, so no varied copy of the grid is made.
 * A lab gives the stencil as a function of one point (stencil_point_fn); the star stencil
 * of radius r (lab 8; lab 9's 7-point is r = 1; lab 5's Laplacian is r = 4) is here.
 */
#ifndef MEMLAB_GRID3D_H
#define MEMLAB_GRID3D_H

#include <stddef.h>
#include <stdint.h>

#include "verify.h"

#define GRID_POISON_WORD 0xFFFFFFFFu
#define STAR_MAX_RADIUS 8

struct grid {
    int nx, ny, nz;
};

/* Which (y, z) rows of a grid are checked, every x of each. */
struct rows {
    int count;
    int *y, *z;
};

/* The stencil's value at point i (interior) for sign pattern `key` of the input. */
typedef double (*stencil_point_fn)(const void *stencil, const float *in, struct grid g, ptrdiff_t i,
                                   uint64_t key);

/* The star stencil: c[0] x centre + sum over d = 1..r of c[d] x its 6 points at distance d. */
struct star_stencil {
    int r;
    double c[STAR_MAX_RADIUS + 1];
};
double star_point(const void *stencil, const float *in, struct grid g, ptrdiff_t i, uint64_t key);

struct reference {
    struct grid g;
    int r;
    struct rows rows;
    double *values; /* rows.count x nx; NaN at boundary points */
    struct tolerance tol;
    uint64_t key; /* the input's sign pattern (vary.h): 0, the input as written */
    stencil_point_fn point;
    const void *stencil;
};

size_t grid_points(struct grid g);
size_t interior_points(struct grid g, int r);
int is_interior(struct grid g, int r, int x, int y, int z);

/* Input point i as sign pattern `key` has it. */
float input_at(const float *in, ptrdiff_t i, uint64_t key);

/* Every row, or the sampled rows for blocks of block_y rows and z chunks of chunk_z planes. */
void rows_all(struct rows *s, struct grid g);
void rows_sampled(struct rows *s, struct grid g, int r, int block_y, int chunk_z);

/* Rows chosen as above (all_rows, else sampled), values for the input as written. */
void reference_build(struct reference *ref, const float *in, struct grid g, int r, int all_rows,
                     int block_y, int chunk_z, stencil_point_fn point, const void *stencil,
                     struct tolerance tol);
void reference_values(struct reference *ref, const float *in, uint64_t key);
void reference_free(struct reference *ref);

/* Interior points within tolerance, boundary points still poisoned (got: rows.count x nx). */
size_t compare_rows(const char *label, const struct reference *ref, const float *got);
/* Checked rows of an input grid that differ, in any bit, from the reference's sign pattern.
 * The grid starts at word `base` of the inputs as written (host_in; vary.h counts its words
 * from there); `name` names it in the warning where a lab has several (NULL: one input). */
size_t input_changed(const char *label, const char *name, const struct reference *ref,
                     const float *got, const float *host_in, ptrdiff_t base);

/* A timed point's data (timing.h): a lab's job struct starts with it, and passes the job as
 * the ctx of grid_vary_input (every point of the timed grid's input takes the repetition's
 * sign pattern) and grid_check_repetition (the output on the reference's rows against the CPU
 * on the same varied input). */
struct grid_timed {
    float *in, *out, *got; /* device grids; host rows */
    const float *host_in;
    struct reference *timed;
};
void grid_vary_input(void *ctx, uint64_t from, uint64_t to);
size_t grid_check_repetition(void *ctx, uint64_t key, const char *label);

/* The two device grids (in, then out, `capacity` floats each), the host input (seeded random
 * floats in [-1, 1), copied to `in`) and host rows for checks (got_capacity floats, pinned). Not
 * enough memory: one line naming `what`, exit 2. */
void grid_buffers_open(float **in, float **out, float **host_in, float **got, size_t capacity,
                       size_t got_capacity, uint64_t seed, const char *what);
void grid_buffers_close(float *in, float *host_in, float *got);

#ifdef __CUDACC__
/* Copy the checked rows of a device grid to host (row k at host + k*nx). */
void fetch_rows(float *host, const float *dev, struct grid g, const struct rows *s);
/* Mismatches in the device output's checked rows, plus input rows changed. */
size_t compare_grid(const char *label, const struct reference *ref, const float *out,
                    const float *in, float *got, const float *host_in);
#endif

#endif
