/* kernels.cu - lab 8, stencils: ten ways to feed a 3D star stencil from the memory hierarchy.
 *
 * This is the file you edit. The driver (driver.cu) fills a grid with random floats, runs
 * every code for radii 1..5, checks it against a CPU reference in double, then times it.
 * The exact contract is in kernels.h. The codes: the table at the end of this file.
 * Run: make lab8                (only your file changes between runs)
 *      build/.../lab8 --only v4_comp --radius 2 --check
 */
#include "kernels.h"

#define BX LAB8_BLOCK_X
#define BY LAB8_BLOCK_Y
#define MAX_R LAB8_MAX_RADIUS
#define WINDOW (2 * MAX_R + 1)  /* a column in registers: the planes z-r .. z+r */
#define TILE_W (BX + 2 * MAX_R) /* shared tile: the block's part of a plane + halo */
#define TILE_H (BY + 2 * MAX_R)
/* Register codes: planes loaded ahead of use (DRAM loads in flight per thread), and the
 * blocks per SM they are compiled for (__launch_bounds__ caps their registers at 40, so that
 * 3 blocks of 512 threads fit in an SM's 65536 registers). Measured on the H100 at 512^3
 * (docs/measurements.md): 2 ahead and 3 blocks beat 1, 4 or 8 ahead with the compiler's
 * own register count (56-110 registers: 1 or 2 blocks per SM). Turing (sm_75) runs at most
 * 1024 threads an SM, so there the bound asks for 2 blocks. */
#define AHEAD 2
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define MIN_BLOCKS 2
#else
#define MIN_BLOCKS 3
#endif
#define REG_BOUNDS __launch_bounds__(BX *BY, MIN_BLOCKS)
/* The column codes (v2, v3, v8, v9) start their blocks at x = 0, 32, 64, ... (1) rather than
 * at x = r as the seed does (0): a warp's row of loads then covers whole 128-byte lines
 * instead of straddling two (+17 points of the roofline for v2 at r = 1 on the H100). */
#define ALIGN_X 1

__constant__ float coef[MAX_R + 1];

/* The radius as a compile-time constant: every kernel switches on r once and calls its
 * __forceinline__ body with R = 1..5 written out, so the compiler specialises the body for
 * each radius. The loops over k <= R then unroll exactly, the register window holds 2R+1
 * values, and no test of r (or jump table) is left inside the z loop. With a run-time r the
 * same code costs several times the instructions, and a memory-bound loop becomes
 * instruction-bound. */
#define RADIUS_SWITCH(call)                                                                        \
    switch (r) {                                                                                   \
    case 1: {                                                                                      \
        const int R = 1;                                                                           \
        call;                                                                                      \
    } break;                                                                                       \
    case 2: {                                                                                      \
        const int R = 2;                                                                           \
        call;                                                                                      \
    } break;                                                                                       \
    case 3: {                                                                                      \
        const int R = 3;                                                                           \
        call;                                                                                      \
    } break;                                                                                       \
    case 4: {                                                                                      \
        const int R = 4;                                                                           \
        call;                                                                                      \
    } break;                                                                                       \
    default: {                                                                                     \
        const int R = 5;                                                                           \
        call;                                                                                      \
    } break;                                                                                       \
    }

extern "C" cudaError_t lab8_set_coefficients(const float *c)
{
    return cudaMemcpyToSymbol(coef, c, sizeof coef);
}

/* ---- helpers (given) ------------------------------------------------------------------ */

/* One read of global memory, through the read-only (texture) path when read_only is set.
 * Every call passes a constant, so the choice costs nothing at run time. */
__device__ __forceinline__ float load(const float *p, bool read_only)
{
    return read_only ? __ldg(p) : *p;
}

/* The weighted neighbours of *p along one axis: the sum over k = 1..r of
 * c[k]*p[-k*step] + c[k]*p[k*step]. step 1 walks x, a row pitch walks y, a plane walks z.
 * p may point into shared memory (then read_only must be false). */
__device__ __forceinline__ float axis_terms(const float *p, int step, int r, bool read_only)
{
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= MAX_R; k++)
        if (k <= r)
            sum +=
                coef[k] * load(p - k * step, read_only) + coef[k] * load(p + k * step, read_only);
    return sum;
}

/* A column's register window: col[MAX_R + d] holds the value d planes above the point
 * being computed, d = -r..r. Every index is a constant once the loops are unrolled, so the
 * window lives in registers (a variable index would push it to local memory). */
__device__ __forceinline__ float window_terms(const float *col, int r)
{
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= MAX_R; k++)
        if (k <= r)
            sum += coef[k] * col[MAX_R - k] + coef[k] * col[MAX_R + k];
    return sum;
}

/* Fill d = -r .. r-1 of the window from the planes around *p (plane = nx*ny floats). */
__device__ __forceinline__ void window_fill(float *col, const float *p, int plane, int r,
                                            bool read_only)
{
#pragma unroll
    for (int d = -MAX_R; d < MAX_R; d++)
        if (d >= -r && d < r)
            col[MAX_R + d] = load(p + d * plane, read_only);
}

/* Put v in the window's top slot, d = r. */
__device__ __forceinline__ void window_put_top(float *col, int r, float v)
{
#pragma unroll
    for (int d = 1; d <= MAX_R; d++)
        if (d == r)
            col[MAX_R + d] = v;
}

/* Move the window one plane up: col[j] = col[j + 1]. */
__device__ __forceinline__ void window_shift(float *col)
{
#pragma unroll
    for (int j = 0; j < WINDOW - 1; j++)
        col[j] = col[j + 1];
}

/* The interior planes [first, end) of this block's chunk (the _intz codes). */
__device__ __forceinline__ int chunk_first(int r)
{
    return blockIdx.z * LAB8_Z_CHUNK + r;
}

__device__ __forceinline__ int chunk_end(int nz, int r)
{
    return min(chunk_first(r) + LAB8_Z_CHUNK, nz - r);
}

/* ---- BASE and CSL: one point per thread ------------------------------------------------- */

/* The thread's point is (x, y, z) = its place in the block's 32x16 tile, shifted by r, on
 * plane blockIdx.z + r. All 6r+1 values come from global memory (or the read-only path):
 * neighbouring threads and the blocks of the next planes read the same values again, and
 * only the caches (L1, then L2 across planes) keep that from costing DRAM traffic. */
__device__ __forceinline__ void one_point(float *out, const float *in, int nx, int ny, int r,
                                          bool read_only)
{
    int x = blockIdx.x * BX + threadIdx.x + r;
    int y = blockIdx.y * BY + threadIdx.y + r;
    int z = blockIdx.z + r;
    if (x >= nx - r || y >= ny - r)
        return;
    int i = (z * ny + y) * nx + x;
    const float *p = in + i;
    out[i] = coef[0] * load(p, read_only) + axis_terms(p, 1, r, read_only) +
             axis_terms(p, nx, r, read_only) + axis_terms(p, nx * ny, r, read_only);
}

/* v1: plain loads. On the K80 these bypassed L1; since Volta they are cached in L1. */
__global__ void base_kernel(float *out, const float *in, int nx, int ny, int nz, int r)
{
    (void)nz;
    RADIUS_SWITCH(one_point(out, in, nx, ny, R, false));
}

/* v7: the same code with every read through the read-only cache (__ldg): the seed's
 * cheapest optimisation. Expected: as fast as COMP or faster, for one line of change. */
__global__ void csl_kernel(float *out, const float *in, int nx, int ny, int nz, int r)
{
    // TODO(7): call one_point like base_kernel does, with the read-only path.
}

/* ---- INTZ: a thread walks its column through a chunk of planes ---------------------------- */

/* x of the thread's column: the seed's blocks start at x = r; aligned blocks start at a
 * multiple of 32 so that a warp's row of loads covers whole 128-byte lines. */
__device__ __forceinline__ int column_x(int r)
{
    return blockIdx.x * BX + threadIdx.x + (ALIGN_X ? 0 : r);
}

/* v2, v8: each thread computes its (x, y) column from plane chunk_first(r) up to
 * chunk_end: the blocks that share the column's data now run one after the other in the
 * same thread, so the planes it rereads were read a few steps ago (L1 / L2 hits) instead
 * of by some block on another SM at another time. Every read still goes to memory. */
__device__ __forceinline__ void column_walk(float *out, const float *in, int nx, int ny, int nz,
                                            int r, bool read_only)
{
    // TODO(2): the column walk the comment above describes. The thread's column is column_x(r)
    // along x and as in one_point along y (nothing to do outside the interior); it computes,
    // as one_point does, every point of its column in the chunk [chunk_first(r), chunk_end(nz,
    // r)), one plane (nx*ny floats) further each step.
}

/* v3, v9: INTZ, and the column's 2r+1 values in a register window (window_* helpers):
 * each step reads one new value from memory (plane z+r) instead of 2r+1; the x and y
 * neighbours still come from memory. The new values are loaded AHEAD steps early into
 * ahead[]: a thread then has AHEAD DRAM loads in flight instead of one, which is what a
 * memory-bound loop needs (Little's law: bytes in flight = bandwidth x latency). The z loop
 * is unrolled by AHEAD so that ahead[] is indexed by constants and never copied: a copy of a
 * register whose load is still in flight would wait for it. */
__device__ __forceinline__ void column_walk_registers(float *out, const float *in, int nx, int ny,
                                                      int nz, int r, bool read_only)
{
    // TODO(3): column_walk with the column in registers, as the comment above says: the window
    // helpers (window_fill, window_put_top, window_terms, window_shift) keep the 2r+1 values
    // around plane z in `float col[WINDOW]`, centre col[MAX_R]. Each step takes in one new
    // value, plane z+r, which was loaded AHEAD steps earlier into ahead[], and loads the one
    // AHEAD planes further (never past plane nz-1). Walk the chunk AHEAD planes at a time with
    // an inner loop that is unrolled, so that ahead[] is indexed by constants, and stop at the
    // chunk's end.
}

__global__ void base_intz_kernel(float *out, const float *in, int nx, int ny, int nz, int r)
{
    // TODO(2): call column_walk with plain loads, through RADIUS_SWITCH (see base_kernel).
}

__global__ void REG_BOUNDS base_intz_reg_kernel(float *out, const float *in, int nx, int ny, int nz,
                                                int r)
{
    // TODO(3): call column_walk_registers with plain loads, through RADIUS_SWITCH.
}

__global__ void csl_intz_kernel(float *out, const float *in, int nx, int ny, int nz, int r)
{
    // TODO(8): column_walk through the read-only path, through RADIUS_SWITCH.
}

__global__ void REG_BOUNDS csl_intz_reg_kernel(float *out, const float *in, int nx, int ny, int nz,
                                               int r)
{
    // TODO(9): column_walk_registers through the read-only path, through RADIUS_SWITCH.
}

/* ---- COMP: the block's part of a plane staged in shared memory ---------------------------- */

/* The tile: tile[MAX_R + j][MAX_R + i] holds the grid point i columns right of and j rows
 * below the block's first interior point, for 0 <= i < bw, 0 <= j < bh (the bw x bh points
 * the block computes: fewer than 32 x 16 at the grid's far edges) and the r-wide halo
 * around them, without corners (a star stencil never reads them).
 * load_halo fills the halo of one plane; `first` points at the block's first interior
 * point of that plane. Threads (tx < r) fetch the left and right columns of their row,
 * threads (ty < r) the rows above and below. */
__device__ __forceinline__ void halo_fetch(float h[4], const float *first, int nx, int r, int bw,
                                           int bh)
{
    // TODO(4a): with tx = threadIdx.x, ty = threadIdx.y: if tx < r and ty < bh, fetch
    // into h[0] and h[1] the points r-tx columns left of row ty and bw+tx columns right
    // of its start; if ty < r and tx < bw, into h[2] and h[3] the points r-ty rows
    // above column tx and bh+ty rows below. Check that nothing outside the grid is
    // read when bw < 32 or bh < 16.
}

/* Store what halo_fetch fetched at its places in the tile. */
__device__ __forceinline__ void halo_put(float (*tile)[TILE_W], const float h[4], int r, int bw,
                                         int bh)
{
    // TODO(4a): the same conditions as halo_fetch; h[0] goes to
    // tile[MAX_R + ty][MAX_R - r + tx], h[1] to tile[MAX_R + ty][MAX_R + bw + tx], and so on.
}

/* Fill the halo of one plane, fetched and stored at once. */
__device__ __forceinline__ void load_halo(float (*tile)[TILE_W], const float *first, int nx, int r,
                                          int bw, int bh)
{
    float h[4];
    halo_fetch(h, first, nx, r, bw, bh);
    halo_put(tile, h, r, bw, bh);
}

/* v4: one point per thread; the x and y neighbours come from the shared tile (each value
 * read from global memory once per block instead of up to 4r+1 times), the z neighbours
 * from global memory. Costs: halo loads by few threads (divergence) and __syncthreads. */
__device__ __forceinline__ void comp_point(float *out, const float *in, int nx, int ny, int nz,
                                           int r)
{
    // TODO(4b): declare the tile (__shared__ float tile[TILE_H][TILE_W]). Find the
    // block's first interior point (blockIdx.x*BX + r, blockIdx.y*BY + r, blockIdx.z + r)
    // and bw, bh (at most 32 x 16, less at the grid's far edges). Threads inside the
    // bw x bh area store their own point in the tile; everyone calls load_halo; then
    // __syncthreads() (no thread may return before it), and the inside threads compute
    // x and y from the tile (axis_terms with steps 1 and TILE_W) and z from global.
}

__global__ void comp_kernel(float *out, const float *in, int nx, int ny, int nz, int r)
{
    // TODO(4b): call comp_point through RADIUS_SWITCH.
}

/* v5: COMP with the block walking a chunk of planes: per plane, refill the tile, sync,
 * compute. The z neighbours come from global memory, now read a few steps apart by the
 * same block (L1 / L2 hits). Two __syncthreads per plane. */
__device__ __forceinline__ void comp_walk(float *out, const float *in, int nx, int ny, int nz,
                                          int r)
{
    // TODO(5): comp_kernel's set-up, then for every plane of the chunk: __syncthreads()
    // (the previous plane's tile is no longer read), fill the tile, __syncthreads(),
    // compute. Every thread runs the same number of steps, so the barriers are safe.
}

__global__ void comp_intz_kernel(float *out, const float *in, int nx, int ny, int nz, int r)
{
    // TODO(5): call comp_walk through RADIUS_SWITCH.
}

/* v6: the pioneering code (Micikevicius 2009): the tile for x and y, the register window
 * for z and the centre. Per plane a thread reads one new value from DRAM (plane z+r, loaded
 * AHEAD steps early as in column_walk_registers) and the halo threads a few more, fetched one
 * plane early into registers so that no barrier waits on them. Two tiles take turns (the
 * tile being filled is not the one being read), so one __syncthreads per plane suffices. */
__device__ __forceinline__ void comp_walk_registers(float *out, const float *in, int nx, int ny,
                                                    int nz, int r)
{
    // TODO(6): comp_intz_kernel, with the inside threads keeping a register window and
    // ahead[] as in column_walk_registers; the tile's centre is stored from col[MAX_R].
    // Fetch each plane's halo one plane early (halo_fetch, then halo_put a step later)
    // and alternate between two tiles (plane z uses tile[z & 1]): then one
    // __syncthreads per plane, between filling the tile and computing, is enough.
}

__global__ void REG_BOUNDS comp_intz_reg_kernel(float *out, const float *in, int nx, int ny, int nz,
                                                int r)
{
    // TODO(6): call comp_walk_registers through RADIUS_SWITCH.
}

/* ---- v10, beyond the seed: what the H100 wants ----------------------------------------------- */

/* The seed's best codes stop at 52-76% of the DRAM roofline on the H100 (handout, "Beyond the
 * seed"): v2 and v8 issue 6r+1 loads a point through the L1, and v6 keeps one point per
 * thread and pays per point for its halo loads, its barrier and its index arithmetic. v10
 * keeps v6's plan (tile for x and y, register window for z) and changes what a thread does:
 *   - a thread owns a patch of points: an x pair (2 columns) times `rows` consecutive rows.
 *     Its x neighbours come from shared memory as float2 (one load serves both columns), its
 *     y neighbours inside the patch come from its own registers, and every fixed cost
 *     (halo fetch, barrier, addresses, loop) is paid once for 2 x rows points;
 *   - a block of 32 x 8 threads covers a 64-wide tile, so a warp's row of loads is two whole
 *     128-byte lines, and the x halo (r columns each side) is a small share of the tile;
 *   - where the grid's rows have an even length, a thread reads and writes its pair of columns
 *     as one 8-byte float2 (load_pair, store_pair): two 4-byte stores to the two halves of a
 *     sector reach the L2 as two partial writes of it (1.7 x the sectors written, measured);
 *   - the shape is chosen per radius: the window costs 2r+1 registers a point, so a larger r
 *     affords fewer points a thread or fewer blocks an SM. The kernel is a template on R, one
 *     kernel per radius, each with its own register cap (__launch_bounds__).
 * The shape table below was measured on the H100 at 512^3 (about 60 shapes x z chunks of
 * 16/24/32/64/whole; docs/measurements.md): see the handout for what limits r = 4 and 5 there. */
#define TUNED_BX 32 /* threads across; each owns 2 columns: a tile is 64 columns wide */
#define TUNED_BY 8  /* threads down; each owns tuned_rows(R) rows */

__host__ __device__ constexpr int tuned_rows(int r)
{
    return r == 5 ? 3 : 2;
}
__host__ __device__ constexpr int tuned_min_blocks(int r)
{
    return r <= 3 ? 4 : r == 4 ? 3 : 2;
}
/* planes per z chunk: shorter chunks reread 2r planes more often, longer ones spread the
 * blocks that run at once over more planes than the L2 holds (the lab's cliff again) */
__host__ __device__ constexpr int tuned_chunk(int r)
{
    return r <= 3 ? 32 : 16;
}

/* A thread's pair of columns in global memory: one 8-byte access when EVEN (rows of even
 * length: every pair, whose first column is even, is then 8-byte aligned), else two 4-byte
 * ones. `first` and `second` say which of the two points the grid has (loads) or the thread
 * writes (stores). */
template <bool EVEN>
__device__ __forceinline__ float2 load_pair(const float *p, bool first, bool second)
{
    if (EVEN && second)
        return *(const float2 *)p;
    return make_float2(first ? p[0] : 0.0f, second ? p[1] : 0.0f);
}

template <bool EVEN>
__device__ __forceinline__ void store_pair(float *p, float2 v, bool first, bool second)
{
    if (EVEN && first && second) {
        *(float2 *)p = v;
        return;
    }
    if (first)
        p[0] = v.x;
    if (second)
        p[1] = v.y;
}

/* The tile of one plane: the block's 64 x H points and an r-wide halo on each side (corners
 * unused). Column PAD of the tile is the tile's first grid column x0; PAD is r rounded up to
 * even, so that every thread's x pair starts at an even column (float2 aligned). */
template <int R> struct tuned_tile {
    static constexpr int H = TUNED_BY * tuned_rows(R);             /* rows of points */
    static constexpr int PAD = (R + 1) / 2 * 2;                    /* columns left of x0 */
    static constexpr int W = (PAD + 2 * TUNED_BX + R + 1) / 2 * 2; /* row pitch, even */
    static constexpr int ROWS = H + 2 * R;
    /* the halo: 2R rows of 64 above and below, 2R columns of H left and right */
    static constexpr int HALO = 2 * R * 2 * TUNED_BX + 2 * R * H;
    static constexpr int HALO_PER_THREAD = (HALO + TUNED_BX * TUNED_BY - 1) / (TUNED_BX * TUNED_BY);
};

/* Halo cell e of the tile (e = 0 .. HALO-1): its place in the tile, its offset in the plane
 * and whether the grid has it. Thread t fetches the cells t, t + 256, ... */
template <int R>
__device__ __forceinline__ void tuned_halo_cell(int e, int x0, int y0, int nx, int ny, int *cell,
                                                int *offset, bool *inside)
{
    typedef tuned_tile<R> T;
    const int width = 2 * TUNED_BX, rows_part = 2 * R * width;
    int row, col;
    if (e < rows_part) { /* the R rows above the tile, then the R rows below */
        row = e / width < R ? e / width : e / width + T::H;
        col = T::PAD + e % width;
    } else { /* the R columns left of each tile row, then the R columns right of it */
        int f = e - rows_part, c = f % (2 * R);
        row = R + f / (2 * R);
        col = c < R ? T::PAD - R + c : T::PAD + width - R + c;
    }
    int gx = x0 - T::PAD + col, gy = y0 - R + row;
    *inside = e < T::HALO && gx >= 0 && gx < nx && gy < ny;
    *offset = gy * nx + gx;
    *cell = row * T::W + col;
}

/* v10: block (bx, by, bz) computes the 64 x H tile at x0 = 64 bx, y0 = r + H by, through
 * the z chunk bz. Per plane: the patch's new plane enters the register windows (loaded a
 * plane ahead), the patch and the halo (fetched a plane ahead) go into tile[plane & 1],
 * one barrier, then every point is summed from the tile (x), registers or tile (y) and the
 * window (z). Threads outside the grid load nothing; only interior points are stored. All
 * threads compute (a point outside the interior sums unused cells and is not stored): a
 * test around each sum would make the compiler reload the shared rows that points share.
 * A window entry is the pair of columns (float2), so each read of the tile serves both. */
template <int R, bool EVEN>
__global__ void __launch_bounds__(TUNED_BX *TUNED_BY, tuned_min_blocks(R))
    tuned_kernel(float *__restrict__ out, const float *__restrict__ in, int nx, int ny, int nz,
                 int chunk)
{
    // TODO(10, optional): the patch code described above. Suggested order: the tile
    // (tuned_tile<R>), the halo cells (tuned_halo_cell) and load_pair/store_pair are
    // given; write the window fill, the per-plane loop with one __syncthreads, and the
    // sum. Check odd nx (EVEN false): then every global access is scalar.
}

/* ---- v11, beyond the seed: the copy engine fills the tile ------------------------------------ */

/* v10 stops short of the roofline at r = 4 and 5 because it runs out of registers: its window
 * (2r+1 values a point), the plane it prefetches and the halo it fetches a plane ahead all
 * live in registers, so only 2 or 3 blocks fit an SM and too few warps hide the latency
 * (handout, "Beyond the seed"). v11 takes both loads out of the threads:
 *   - the tile of each plane (the block's points and the r-wide halo, corners included)
 *     is copied from global memory to shared memory by the SM's tensor memory
 *     accelerator (TMA, sm_90 and later): one thread asks for the whole box with one
 *     instruction, five planes ahead, and an mbarrier says when it has arrived.
 *     Points outside the grid arrive as zeros: no halo code, no tests at the faces;
 *   - z is carried in partial sums rather than in a window of inputs: acc[i] is the sum,
 *     so far, of the point i-r planes above the current one. A new plane's value is added
 *     to every partial sum it belongs to, and each FMA writes its result one slot down,
 *     so the window moves without a single move instruction; the slot that reaches the
 *     bottom is a finished point and is stored.
 * A point then costs 2r registers (its partial sums) plus what the thread needs for the
 * plane in hand, so r = 5 fits 2 rows x 2 columns a thread at 2 blocks of 384 an SM. The
 * shape table below was measured on the H100 at 512^3 (the tuning sweeps in the handout's
 * development-runs.txt). The TMA needs rows of a multiple of 16 bytes (nx a multiple of 4
 * floats); other grids, and GPUs before sm_90, run v10's kernel instead. The TMA and
 * mbarrier instructions are given in kernels.h (inline PTX). */
/* The shape per radius: blocks of tma_threads_x x tma_threads_y threads, each a patch of
 * 2 columns x tma_rows rows, so a tile of 2 tma_threads_x x tma_threads_y tma_rows points.
 * Up to r = 3 a 128 x 16 tile of 512 threads (64 registers); at r = 4 and 5 the partial sums
 * need more registers, so 64 x 24 points by 384 threads (80 registers). Two blocks an SM
 * and five planes in flight a block: the copies of ten or twelve planes an SM keep enough
 * bytes on their way to cover the DRAM's latency. Short z chunks keep the planes that the
 * blocks in flight read close together; the best chunk grows with r, as the 2r planes that
 * each chunk loads beyond its own cost more. */
__host__ __device__ constexpr int tma_threads_x(int r)
{
    return r <= 3 ? 64 : 32;
}
__host__ __device__ constexpr int tma_threads_y(int r)
{
    return r <= 3 ? 8 : 12;
}
__host__ __device__ constexpr int tma_rows(int /* r */)
{
    return 2;
}
__host__ __device__ constexpr int tma_min_blocks(int /* r */)
{
    return 2;
}
__host__ __device__ constexpr int tma_chunk(int r)
{
    return r <= 3 ? 8 : 16;
}
__host__ __device__ constexpr int tma_buffers(int /* r */)
{
    return 6;
} /* planes in flight + 1 */

/* One plane's box as the TMA writes it: W columns from x0 - PAD, ROWS rows from y0 - R. The
 * box's rows start and end on 32-byte sectors (8 floats): rows that started 16 bytes into a
 * sector read the same sectors and ran markedly slower (the handout's third step). */
template <int R> struct tma_tile {
    static constexpr int TX = tma_threads_x(R), TY = tma_threads_y(R); /* the block */
    static constexpr int PATCH_ROWS = tma_rows(R);                     /* a thread's rows */
    static constexpr int H = TY * PATCH_ROWS;                          /* rows of points */
    static constexpr int PAD = 8;                                      /* columns left of x0 */
    static constexpr int W = 2 * TX + 2 * PAD; /* row pitch: whole sectors */
    static_assert(R <= PAD, "the halo fits in the box's padding");
    static constexpr int ROWS = H + 2 * R;
    static constexpr int FLOATS = (ROWS * W + 31) / 32 * 32;    /* buffers 128-byte aligned */
    static constexpr unsigned BYTES = ROWS * W * sizeof(float); /* what one copy delivers */
    /* the ring of tma_buffers(R) boxes and their mbarriers, in dynamic shared memory (a
     * block may declare only 48 KiB statically), and 128 bytes to align the ring's start */
    static constexpr size_t RING_BYTES =
        tma_buffers(R) * (FLOATS * sizeof(float) + sizeof(uint64_t)) + 128;
};

/* Add plane value v to a pair's partial sums and move them one slot down: acc[i] (the
 * point i-R+1 planes above v's, after the move) gets v's term c[|R-1-i|] v, slot R-1 (v's
 * own point) takes `own` (its sum of x, y and centre terms), slot 2R-1 starts fresh. The
 * caller has taken slot 0 (finished by v's c[R] term) before. */
template <int R>
__device__ __forceinline__ void push_plane(float2 (&acc)[2 * R], float2 v, float2 own)
{
    // TODO(11, optional): the move described above, one FMA a slot and column.
}

/* v11: block (bx, by, bz) computes the 2TX x H tile at x0 = 2TX bx, y0 = r + H by (tma_tile),
 * through the z chunk bz, a thread a patch of 2 columns x tma_rows(r) rows. Before the loop its
 * partial sums take the r planes below the chunk (read from global memory, z terms only); in the
 * loop, plane p comes from the TMA ring, adds to the sums, and the point r planes below p
 * is stored; after it, the r planes above the chunk finish the last points. Per plane one
 * __syncthreads (no thread still reads the buffer the leader refills next) and one wait
 * on the plane's mbarrier. */
template <int R>
__global__ void __launch_bounds__(tma_threads_x(R) * tma_threads_y(R), tma_min_blocks(R))
    tma_kernel(float *__restrict__ out, const float *__restrict__ in, int nx, int ny, int nz,
               int chunk, const __grid_constant__ CUtensorMap map)
{
    // TODO(11, optional): the code described above. The box (tma_tile<R>), the TMA and
    // mbarrier helpers and load_pair/store_pair are given; write push_plane, the sums
    // of the r planes below the chunk, the loop over the ring and the r planes above.
    // The ring and its mbarriers are in dynamic shared memory (tma_tile<R>::RING_BYTES,
    // which the launcher passes), from tma_ring() on (kernels.h).
}

/* ---- launchers ------------------------------------------------------------------------------ */

typedef void (*stencil_kernel_fn)(float *, const float *, int, int, int, int);

/* Blocks of 32 x 16 threads over the interior of a plane (none if there is no interior). */
static bool plane_blocks(dim3 *blocks, int nx, int ny, int nz, int r)
{
    if (nx <= 2 * r || ny <= 2 * r || nz <= 2 * r)
        return false;
    *blocks = dim3((nx - 2 * r + BX - 1) / BX, (ny - 2 * r + BY - 1) / BY, 1);
    return true;
}

/* One thread per interior point: one layer of blocks per interior plane. */
int launch_per_point(stencil_kernel_fn kernel, float *out, const float *in, int nx, int ny, int nz,
                     int r, cudaStream_t stream)
{
    dim3 blocks;
    if (plane_blocks(&blocks, nx, ny, nz, r)) {
        blocks.z = nz - 2 * r;
        kernel<<<blocks, dim3(BX, BY), 0, stream>>>(out, in, nx, ny, nz, r);
    }
    return LAB_OK;
}

/* One thread per interior (x, y) column and chunk of LAB8_Z_CHUNK planes. */
int launch_per_column(stencil_kernel_fn kernel, float *out, const float *in, int nx, int ny, int nz,
                      int r, cudaStream_t stream)
{
    dim3 blocks;
    if (plane_blocks(&blocks, nx, ny, nz, r)) {
        blocks.z = (nz - 2 * r + LAB8_Z_CHUNK - 1) / LAB8_Z_CHUNK;
        kernel<<<blocks, dim3(BX, BY), 0, stream>>>(out, in, nx, ny, nz, r);
    }
    return LAB_OK;
}

/* The same for the column codes whose blocks start at x = column_x's first column. */
int launch_per_column_x(stencil_kernel_fn kernel, float *out, const float *in, int nx, int ny,
                        int nz, int r, cudaStream_t stream)
{
    dim3 blocks;
    if (plane_blocks(&blocks, nx, ny, nz, r)) {
        blocks.x = (nx - r - 1 - (ALIGN_X ? 0 : r)) / BX + 1;
        blocks.z = (nz - 2 * r + LAB8_Z_CHUNK - 1) / LAB8_Z_CHUNK;
        kernel<<<blocks, dim3(BX, BY), 0, stream>>>(out, in, nx, ny, nz, r);
    }
    return LAB_OK;
}

static int launch_base(float *out, const float *in, int nx, int ny, int nz, int r,
                       cudaStream_t stream)
{
    return launch_per_point(base_kernel, out, in, nx, ny, nz, r, stream);
}

static int launch_base_intz(float *out, const float *in, int nx, int ny, int nz, int r,
                            cudaStream_t stream)
{
    // TODO(2): launch base_intz_kernel with launch_per_column_x.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_base_intz_reg(float *out, const float *in, int nx, int ny, int nz, int r,
                                cudaStream_t stream)
{
    // TODO(3): launch base_intz_reg_kernel with launch_per_column_x.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_comp(float *out, const float *in, int nx, int ny, int nz, int r,
                       cudaStream_t stream)
{
    // TODO(4c): launch comp_kernel with launch_per_point.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_comp_intz(float *out, const float *in, int nx, int ny, int nz, int r,
                            cudaStream_t stream)
{
    // TODO(5): launch comp_intz_kernel with launch_per_column.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_comp_intz_reg(float *out, const float *in, int nx, int ny, int nz, int r,
                                cudaStream_t stream)
{
    // TODO(6): launch comp_intz_reg_kernel with launch_per_column.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_csl(float *out, const float *in, int nx, int ny, int nz, int r,
                      cudaStream_t stream)
{
    // TODO(7): launch csl_kernel with launch_per_point.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_csl_intz(float *out, const float *in, int nx, int ny, int nz, int r,
                           cudaStream_t stream)
{
    // TODO(8): launch csl_intz_kernel with launch_per_column_x.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_csl_intz_reg(float *out, const float *in, int nx, int ny, int nz, int r,
                               cudaStream_t stream)
{
    // TODO(9): launch csl_intz_reg_kernel with launch_per_column_x.
    return LAB_NOT_IMPLEMENTED;
}

/* v10: one kernel per radius (each with its own register cap) and row parity; blocks of
 * 32 x 8 threads over 64-column tiles, the first at x = 0 (as launch_per_column_x), z chunks
 * of tuned_chunk(r). */
template <int R>
static void launch_tuned_radius(float *out, const float *in, int nx, int ny, int nz,
                                cudaStream_t stream)
{
    typedef tuned_tile<R> T;
    dim3 blocks((nx - R - 1) / (2 * TUNED_BX) + 1, (ny - 2 * R + T::H - 1) / T::H,
                (nz - 2 * R + tuned_chunk(R) - 1) / tuned_chunk(R));
    stencil_kernel_fn kernel = nx % 2 == 0 ? tuned_kernel<R, true> : tuned_kernel<R, false>;
    kernel<<<blocks, dim3(TUNED_BX, TUNED_BY), 0, stream>>>(out, in, nx, ny, nz, tuned_chunk(R));
}

static int launch_tuned(float *out, const float *in, int nx, int ny, int nz, int r,
                        cudaStream_t stream)
{
    // TODO(10, optional): launch with launch_tuned_radius<R> through RADIUS_SWITCH (none
    // if the grid has no interior point).
    return LAB_NOT_IMPLEMENTED;
}

/* v10's kernel for radius r on rows of even length (the grids the lab times), for the
 * occupancy API */
static const void *tuned_kernel_of(int r)
{
    RADIUS_SWITCH(return (const void *)(tuned_kernel<R, true>));
    return NULL;
}

/* v11: one kernel per radius; blocks of tma_threads_x(r) x tma_threads_y(r) threads, z
 * chunks of tma_chunk(r). Grids the TMA cannot serve (lab8_tensor_map, given), and GPUs
 * before sm_90, run v10. */
template <int R>
static int launch_tma_radius(float *out, const float *in, int nx, int ny, int nz,
                             cudaStream_t stream)
{
    typedef tma_tile<R> T;
    CUtensorMap map;
    if (!lab8_tensor_map(&map, in, nx, ny, nz, T::W, T::ROWS))
        return launch_tuned(out, in, nx, ny, nz, R, stream);
    static bool ring_allowed; /* past 48 KiB a kernel must ask for its dynamic shared memory */
    if (!ring_allowed)
        ring_allowed =
            cudaFuncSetAttribute(tma_kernel<R>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)T::RING_BYTES) == cudaSuccess;
    dim3 blocks((nx - R - 1) / (2 * T::TX) + 1, (ny - 2 * R + T::H - 1) / T::H,
                (nz - 2 * R + tma_chunk(R) - 1) / tma_chunk(R));
    tma_kernel<R><<<blocks, dim3(T::TX, T::TY), T::RING_BYTES, stream>>>(out, in, nx, ny, nz,
                                                                         tma_chunk(R), map);
    return LAB_OK;
}

static int launch_tma(float *out, const float *in, int nx, int ny, int nz, int r,
                      cudaStream_t stream)
{
    // TODO(11, optional): launch with launch_tma_radius<R> through RADIUS_SWITCH (none
    // if the grid has no interior point).
    return LAB_NOT_IMPLEMENTED;
}

static const void *tma_kernel_of(int r)
{
    RADIUS_SWITCH(return (const void *)(tma_kernel<R>));
    return NULL;
}

static struct lab8_block tma_block_of(int r)
{
    struct lab8_block b = {0, 0};
    RADIUS_SWITCH(b.threads = tma_threads_x(R) * tma_threads_y(R);
                  b.dynamic_smem = tma_tile<R>::RING_BYTES);
    return b;
}

extern "C" const struct lab8_variant lab8_variants[] = {
    {"v1_base", "one point per thread, all reads from global memory", launch_base,
     (const void *)base_kernel},
    {"v2_base_intz", "a thread walks a z chunk of its column (INTZ)", launch_base_intz,
     (const void *)base_intz_kernel},
    {"v3_base_intz_reg", "INTZ, z neighbours kept in registers", launch_base_intz_reg,
     (const void *)base_intz_reg_kernel},
    {"v4_comp", "plane tile + halo in shared memory, z from global", launch_comp,
     (const void *)comp_kernel},
    {"v5_comp_intz", "shared tile, INTZ", launch_comp_intz, (const void *)comp_intz_kernel},
    {"v6_comp_intz_reg", "shared tile, INTZ, z in registers", launch_comp_intz_reg,
     (const void *)comp_intz_reg_kernel},
    {"v7_csl", "one point per thread, reads via the read-only cache", launch_csl,
     (const void *)csl_kernel},
    {"v8_csl_intz", "read-only cache, INTZ", launch_csl_intz, (const void *)csl_intz_kernel},
    {"v9_csl_intz_reg", "read-only cache, INTZ, z in registers", launch_csl_intz_reg,
     (const void *)csl_intz_reg_kernel},
    {"v10_tuned",
     "beyond the seed: 2 x rows points a thread, float2 reads and writes, shape per radius",
     launch_tuned, NULL, tuned_kernel_of, TUNED_BX *TUNED_BY},
    {"v11_tma", "beyond the seed: the TMA fills the tile, z carried in partial sums (sm_90)",
     launch_tma, NULL, tma_kernel_of, 0, tma_block_of},
};
extern "C" const int lab8_variant_count = sizeof lab8_variants / sizeof lab8_variants[0];
