/* kernels.h - lab 9 (an analytic data-traffic model): the contract between kernels.cu and
 * the driver. Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * The three stencil codes of the seed are given (stencils.cuh, run by the driver); what you
 * write is their MODEL: for one code and one configuration, the bytes each level of the
 * memory hierarchy moves in one launch. The driver compares your volumes with its own count
 * (model.h), and turns both into predicted times with what it measures in the same run: the
 * seed's bound t >= max(V_GM / BW_GM, V_L2 / BW_L2, V_SMX / BW_SMX), and the lab's model,
 * which adds the instructions an SM issues and the latency a block waits for its loads
 * (model.h counts both; the handout says why). It puts them beside the measured time and,
 * under --counters, beside Nsight Compute's counters.
 *
 * The grid is a cube of n^3 floats, x fastest; the codes write its interior points
 * (1 <= x, y, z <= n-2), each from its neighbours in the input:
 *   k1_7pt_blocking   7-point star; 3D blocks of bx x by x bz threads, one point a thread. The
 *                     block's points and its face halos (no edges, no corners) are staged in
 *                     shared memory: every thread loads its point, the threads on a face of
 *                     the block also the neighbour across it (x halos: one float each)
 *   k2_27pt_blocking  27-point box; the same blocks; the block's points and the full halo box
 *                     ((bx+2)(by+2)(bz+2) floats, rows of bx+2) staged in shared memory
 *   k3_27pt_tiling    27-point box; 2D blocks of bx x by threads walking bz planes (a z chunk,
 *                     blockIdx.z numbers the chunks): each plane's tile with its halo
 *                     ((bx+2)(by+2) floats) goes to shared memory once, each thread keeps the
 *                     9 values of its column there in registers and adds their share to three
 *                     outputs (planes z-1, z, z+1) held in registers (register reuse)
 * Block (i, j, k) covers x in [i*bx, i*bx+bx), likewise y and z (k3: z in [k*bz, k*bz+bz)),
 * so rows start on 32-byte sectors when n is a multiple of 8; halo points outside the grid
 * are not loaded. Blocks are launched x fastest, then y, then z: a layer (one blockIdx.z)
 * runs before the next.
 *
 * The three volumes, in bytes for one launch (the handout derives them):
 *   gm   DRAM <-> L2: every input point read once (4 n^3), every interior point written once
 *        (4 (n-2)^3), and the halo planes two layers share, read again: 2 (layers - 1)
 *        planes of n^2 floats, in full when a layer's L2 traffic (l2 / layers) exceeds
 *        l2_share x l2_bytes (the layer condition fails), else only epsilon of them
 *   l2   L2 <-> SM, counted in 32-byte sectors: the distinct sectors each block reads (its
 *        rows of points and halo), plus the sectors of the rows it writes
 *   smx  shared memory <-> registers: 4 bytes for every float stored to shared memory and
 *        every float loaded from it
 * Configurations: n a multiple of 8 and of bx, by and bz; bx a multiple of 8.
 */
#ifndef LAB9_KERNELS_H
#define LAB9_KERNELS_H

#include "lab.h"

#define LAB9_SECTOR_BYTES 32

#ifdef __cplusplus
extern "C" {
#endif

struct lab9_config {
    int n;          /* the grid is n x n x n floats */
    int bx, by, bz; /* block shape (k3: bx x by threads, bz planes a block) */
};

struct lab9_machine {
    double l2_bytes; /* the L2's size */
    double l2_share; /* the share of it a layer may use and still find its halo there */
    double epsilon;  /* the halo bytes that miss the L2 all the same */
};

struct lab9_volumes {
    double gm, l2, smx; /* bytes moved in one launch */
};

/* Fill v; return LAB_OK, or LAB_NOT_IMPLEMENTED while the TODO is open. */
typedef int (*lab9_volume_fn)(const struct lab9_config *c, const struct lab9_machine *m,
                              struct lab9_volumes *v);

struct lab9_variant {
    const char *name;
    const char *idea;
    lab9_volume_fn volumes;
};

/* In kernels.cu, one entry per code, in the order above. */
extern const struct lab9_variant lab9_variants[];
extern const int lab9_variant_count;

#ifdef __cplusplus
}
#endif

#endif
