/* kernels.cu - lab 5, registers and spilling: one stencil, written twice, at eight register caps.
//@begin solution
 * MASTER COPY with the solutions (instructors only). `make student-files` turns it into
 * labs/lab5-spilling/kernels.cu by removing the solution regions.
//@end solution
 *
 * This is the file you edit. The driver (driver.cu) fills the wave fields with random
 * floats, checks every variant at every cap against a CPU reference in double, then times
 * it and prints what the compiler gave each kernel (registers, spills, occupancy). The
 * contract is in kernels.h. The variants (blocks of 32 x 16 threads, one thread per column):
 * the table at the end of this file.
 * Each is written once as a __device__ function; LAB5_KERNELS(name) makes its capped kernels.
 * Task 5c: set chosen_cap in the table at the bottom.
 * Run: make lab5                (only your file changes between runs)
 *      build/.../lab5 --only fwd_o8_ring --check
 */
#include "kernels.h"

#define R LAB5_R
#define BX LAB5_BLOCK_X
#define BY LAB5_BLOCK_Y
#define WINDOW (2 * R + 1)  /* a column's values: planes z-R .. z+R */
#define TILE_W (BX + 2 * R) /* the plane tile: the block's points + an R-wide halo */
#define TILE_H (BY + 2 * R)

/* ---- helpers (given) -------------------------------------------------------------------- */

/* Where this thread works: its point (x0 + tx, y0 + ty) of the plane, and the block's
 * bw x bh interior points (fewer than 32 x 16 at the grid's far edges). */
struct column {
    int tx, ty, bw, bh;
    bool inside; /* the thread owns an interior column */
    int plane;   /* nx * ny: one step in z */
    int z, z_end;
    int i; /* index of the thread's point on plane z */
};

__device__ __forceinline__ struct column column_of(const struct lab5_grid &g)
{
    struct column c;
    c.tx = threadIdx.x;
    c.ty = threadIdx.y;
    int x0 = blockIdx.x * BX + R, y0 = blockIdx.y * BY + R;
    c.bw = min(BX, g.nx - R - x0);
    c.bh = min(BY, g.ny - R - y0);
    c.inside = c.tx < c.bw && c.ty < c.bh;
    c.plane = g.nx * g.ny;
    c.z = lab5_chunk_first();
    c.z_end = lab5_chunk_end(g.nz);
    c.i = (c.z * g.ny + y0 + c.ty) * g.nx + x0 + c.tx;
    return c;
}

/* The halo of the plane the column is on: threads tx < R load the R columns left and
 * right of their row, threads ty < R the R rows above and below their column (a star
 * stencil never reads the corners). Every point read lies inside the grid. */
__device__ __forceinline__ void load_halo(float (*tile)[TILE_W], const struct column &c,
                                          const float *cur, int nx)
{
    if (c.tx < R && c.ty < c.bh) {
        tile[R + c.ty][c.tx] = cur[c.i - R];
        tile[R + c.ty][R + c.bw + c.tx] = cur[c.i + c.bw];
    }
    if (c.ty < R && c.tx < c.bw) {
        tile[c.ty][R + c.tx] = cur[c.i - R * nx];
        tile[R + c.bh + c.ty][R + c.tx] = cur[c.i + c.bh * nx];
    }
}

/* The x and y terms of the Laplacian from the tile, around t = &tile[R + ty][R + tx]. */
__device__ __forceinline__ float plane_terms(const float *t)
{
    return LAB5_C1 * (t[-1] + t[1] + t[-TILE_W] + t[TILE_W]) +
           LAB5_C2 * (t[-2] + t[2] + t[-2 * TILE_W] + t[2 * TILE_W]) +
           LAB5_C3 * (t[-3] + t[3] + t[-3 * TILE_W] + t[3 * TILE_W]) +
           LAB5_C4 * (t[-4] + t[4] + t[-4 * TILE_W] + t[4 * TILE_W]);
}

/* One time step at the thread's point, from the centre value and the Laplacian's terms. */
__device__ __forceinline__ void store_step(const struct lab5_grid &g, int i, float centre,
                                           float lap)
{
    g.next[i] = 2.0f * centre - g.prev[i] + g.vsq[i] * lap;
}

/* ---- fwd_o8_queue (given): the seed's kernel --------------------------------------------- */

/* Micikevicius' 8th-order kernel, the one the seed profiles: per plane, the block stages the
 * plane and its halo in shared memory (x and y neighbours), and each thread carries its
 * column's z neighbours from plane to plane in registers: behind[] (planes z-1 .. z-4),
 * current, infront[] (z+1 .. z+4). Each step reads one new value from DRAM and shifts the
 * queue. Nine floats live in registers for the whole loop, besides indices and the values in
 * flight: about 40 registers, so a cap of 32 or 24 pushes some of them to local memory. */
__device__ __forceinline__ void fwd_o8_queue(const struct lab5_grid &g)
{
    __shared__ float tile[TILE_H][TILE_W];
    struct column c = column_of(g);
    float behind[R] = {}, current = 0.0f, infront[R] = {};
    if (c.inside) {
#pragma unroll
        for (int k = 0; k < R; k++) {
            behind[k] = g.cur[c.i - (k + 1) * c.plane];
            infront[k] = g.cur[c.i + (k + 1) * c.plane];
        }
        current = g.cur[c.i];
    }
    for (; c.z < c.z_end; c.z++, c.i += c.plane) {
        __syncthreads(); /* the last plane's tile is no longer read */
        if (c.inside)
            tile[R + c.ty][R + c.tx] = current;
        load_halo(tile, c, g.cur, g.nx);
        __syncthreads();
        if (!c.inside)
            continue;
        float lap = LAB5_C0 * current + plane_terms(&tile[R + c.ty][R + c.tx]) +
                    LAB5_C1 * (behind[0] + infront[0]) + LAB5_C2 * (behind[1] + infront[1]) +
                    LAB5_C3 * (behind[2] + infront[2]) + LAB5_C4 * (behind[3] + infront[3]);
        store_step(g, c.i, current, lap);
        /* the queue moves one plane up; the new front value is plane z+R+1 */
#pragma unroll
        for (int k = R - 1; k > 0; k--)
            behind[k] = behind[k - 1];
        behind[0] = current;
        current = infront[0];
#pragma unroll
        for (int k = 0; k < R - 1; k++)
            infront[k] = infront[k + 1];
        if (c.z + 1 < c.z_end)
            infront[R - 1] = g.cur[c.i + (R + 1) * c.plane];
    }
}
LAB5_KERNELS(fwd_o8_queue)

/* ---- fwd_o8_ring (task 5b): the column in shared memory ---------------------------------- */

/* Slot of the ring that holds plane z + d, when plane z is in slot s (0 <= s < WINDOW,
 * -R <= d <= R): (s + d) mod WINDOW without a division. */
__device__ __forceinline__ int ring_slot(int s, int d)
{
    int j = s + d;
    j += j < 0 ? WINDOW : 0;
    return j >= WINDOW ? j - WINDOW : j;
}

/* The same stencil, but the nine values of a thread's column live in a ring in shared
 * memory, ring[slot][ty][tx], where each value is written once and read when it is needed:
 * no value stays in a register from one plane to the next. Registers then hold only indices
 * and the sums of one point, so the kernel fits a small cap without spilling. The price:
 * eight more shared-memory reads and one write a point (each thread reads only its own
 * column, so the ring needs no barrier of its own). */
__device__ __forceinline__ void fwd_o8_ring(const struct lab5_grid &g)
{
    //@begin solution
    //@todo TODO(5b): the ring version of fwd_o8_queue, as the comment above says. The plane's tile
    //@todo is fwd_o8_queue's; the column's values live in a shared-memory ring of WINDOW slots,
    //@todo each slot a BY x BX array of the block's columns, slot s holding the plane z with z %
    //@todo WINDOW == s (ring_slot steps between slots without dividing). Before the loop the inside
    //@todo threads fill the slots the first plane needs; for each plane, the slot of plane z+R gets
    //@todo its value from global memory and the tile's centre comes from the ring, the halo as in
    //@todo fwd_o8_queue, with a barrier before the tile is rewritten and one before it is read; the
    //@todo z terms come from the ring. Nothing but indices may stay in a register from one plane to
    //@todo the next: that is what lets the kernel fit a small register cap.
    __shared__ float tile[TILE_H][TILE_W];
    __shared__ float ring[WINDOW][BY][BX];
    struct column c = column_of(g);
    int s = c.z % WINDOW;
    if (c.inside) {
#pragma unroll
        for (int d = -R; d < R; d++)
            ring[ring_slot(s, d)][c.ty][c.tx] = g.cur[c.i + d * c.plane];
    }
    for (; c.z < c.z_end; c.z++, c.i += c.plane, s = ring_slot(s, 1)) {
        __syncthreads(); /* the last plane's tile is no longer read */
        if (c.inside) {
            ring[ring_slot(s, R)][c.ty][c.tx] = g.cur[c.i + R * c.plane];
            tile[R + c.ty][R + c.tx] = ring[s][c.ty][c.tx];
        }
        load_halo(tile, c, g.cur, g.nx);
        __syncthreads();
        if (!c.inside)
            continue;
        float centre = ring[s][c.ty][c.tx];
        float z_terms = 0.0f;
#pragma unroll
        for (int k = 1; k <= R; k++) {
            float ck = k == 1 ? LAB5_C1 : k == 2 ? LAB5_C2 : k == 3 ? LAB5_C3 : LAB5_C4;
            z_terms +=
                ck * (ring[ring_slot(s, -k)][c.ty][c.tx] + ring[ring_slot(s, k)][c.ty][c.tx]);
        }
        float lap = LAB5_C0 * centre + plane_terms(&tile[R + c.ty][R + c.tx]) + z_terms;
        store_step(g, c.i, centre, lap);
    }
    //@end solution
}
LAB5_KERNELS(fwd_o8_ring)

/* ---- launchers -------------------------------------------------------------------------- */

static int launch_fwd_o8_queue(const struct lab5_grid *g, int cap, int smem_spill,
                               cudaStream_t stream)
{
    dim3 blocks;
    if (!lab5_blocks(&blocks, g))
        return LAB_OK;
    return fwd_o8_queue_at(cap, smem_spill, blocks, dim3(BX, BY), *g, stream);
}

static int launch_fwd_o8_ring(const struct lab5_grid *g, int cap, int smem_spill,
                              cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(5b): as launch_fwd_o8_queue, with fwd_o8_ring_at.
    dim3 blocks;
    if (!lab5_blocks(&blocks, g))
        return LAB_OK;
    return fwd_o8_ring_at(cap, smem_spill, blocks, dim3(BX, BY), *g, stream);
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

/* Task 5c: chosen_cap is the cap you would ship each variant with (24, 32, 40, 48, 64, 96,
 * 128, or 0 for none), from your measurements; the driver prints it next to the best cap
 * it measured. Justify it in your report. */
extern "C" const struct lab5_variant lab5_variants[] = {
    {"fwd_o8_queue",
     "the seed's kernel: plane tile in shared memory, the column's 9 values in registers",
     //@begin solution
     launch_fwd_o8_queue, fwd_o8_queue_kernel, BX *BY, /* chosen_cap */ 32},
    //@student launch_fwd_o8_queue, fwd_o8_queue_kernel, BX * BY, /* chosen_cap */ 0},
    //@end solution
    {"fwd_o8_ring", "the column's 9 values in a shared-memory ring: nothing carried in registers",
     launch_fwd_o8_ring, fwd_o8_ring_kernel, BX *BY, /* chosen_cap */ 0},
};
extern "C" const int lab5_variant_count = sizeof lab5_variants / sizeof lab5_variants[0];
