/* kernels.cu - lab 9, an analytic data-traffic model: the bytes each level moves.
 *
 * This is the file you edit. The three stencil codes are given (stencils.cuh); kernels.h
 * says exactly what each one loads, stores and writes. For each code, write the volumes
 * of one launch on an n^3 grid with blocks of bx x by x bz:
 *   gm   bytes between DRAM and the L2
 *   l2   bytes between the L2 and the SMs, in 32-byte sectors
 *   smx  bytes between shared memory and registers
 * Closed forms are what is asked: n is a multiple of every block extent, so count along each
 * axis, or count one block and multiply by the blocks; then take off what the blocks on the
 * grid's faces do not load (no halo outside the grid) and what they do not write (the grid's
 * boundary). The driver's own count (model.h) walks the blocks; yours must agree with it to
 * 0.1%. The driver turns both into predicted times with the bandwidths it measures, and puts
 * them beside the measured time.
 * Run: make lab9            (only your file changes between runs)
 *      build/.../lab9 --check            your volumes against the driver's count, no timing
 */
#include "kernels.h"

#define SECTOR_FLOATS (LAB9_SECTOR_BYTES / 4)

/* Floats of the halo along one axis of n points cut into blocks of b: each block has one
 * either side, except at the grid's two faces. */
double halo_points(int n, int b)
{
    return 2.0 * n / b - 2;
}

/* DRAM: the input read once, the interior written once, and the 2 (layers - 1) halo planes
 * that neighbouring layers of blocks share, read again from DRAM when a layer's L2 traffic
 * (l2 / layers) is larger than the L2 share it may use; else only epsilon of them miss. */
double dram_bytes(const struct lab9_config *c, const struct lab9_machine *m, double l2)
{
    // TODO(1): compulsory traffic, plus the shared halo planes (layer condition).
    (void)c; (void)m; (void)l2; return 0;
}

/* Sectors a block writes: rows of the grid's interior ((n-2)^2 of them), n/8 sectors each
 * (the boundary floats at x = 0 and n-1 share their sectors with interior ones). */
double write_sectors(const struct lab9_config *c)
{
    return (c->n - 2.0) * (c->n - 2.0) * c->n / SECTOR_FLOATS;
}

/* k1: each block reads its by x bz rows of bx floats and a lone float either side of each
 * (a sector of its own), its y faces (2 x bz rows of bx floats) and its z faces (2 x by
 * rows); it stores all of those floats in shared memory and loads 7 a point from there. */
static int volumes_k1(const struct lab9_config *c, const struct lab9_machine *m,
                      struct lab9_volumes *v)
{
    // TODO(2): k1's volumes (kernels.h: k1_7pt_blocking).
    (void)c; (void)m; (void)v; return LAB_NOT_IMPLEMENTED;
}

/* k2: each block reads its halo box, (by+2)(bz+2) rows of bx+2 floats from one float before
 * its first (bx/8 + 2 sectors), stores the box in shared memory and loads 27 a point. */
static int volumes_k2(const struct lab9_config *c, const struct lab9_machine *m,
                      struct lab9_volumes *v)
{
    // TODO(3): k2's volumes (kernels.h: k2_27pt_blocking).
    (void)c; (void)m; (void)v; return LAB_NOT_IMPLEMENTED;
}

/* k3: a block of bx x by threads walks bz planes, and reads bz + 2 plane tiles of (by+2)
 * rows of bx+2 floats; it stores each tile in shared memory, and each thread of an interior
 * column loads 9 values of every tile from there (into registers, where the three outputs
 * add them up). */
static int volumes_k3(const struct lab9_config *c, const struct lab9_machine *m,
                      struct lab9_volumes *v)
{
    // TODO(4): k3's volumes (kernels.h: k3_27pt_tiling).
    (void)c; (void)m; (void)v; return LAB_NOT_IMPLEMENTED;
}

extern "C" const struct lab9_variant lab9_variants[] = {
    {"k1_7pt_blocking", "7-point star, 3D blocks, points + face halos in shared memory",
     volumes_k1},
    {"k2_27pt_blocking", "27-point box, 3D blocks, the halo box in shared memory", volumes_k2},
    {"k3_27pt_tiling", "27-point box, 2D tiles walking a z chunk, outputs in registers",
     volumes_k3},
};
extern "C" const int lab9_variant_count = sizeof lab9_variants / sizeof lab9_variants[0];
