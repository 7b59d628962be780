/* kernels.cu - lab 7, tiled matrix multiply: C = A x B in float32, row-major.
 *
 * This is the file you edit. The driver (driver.cu) fills A (m x k) and B (k x n) with random
 * floats, runs each variant below, checks C against the CPU at small odd sizes and against
 * cuBLAS at the timed size, then times it. The variants: the table at the end of this file
 * (the contract is in kernels.h).
 * Every variant must be right for any m, n, k >= 1: guard the edges.
 * Run: make lab7            (only your file changes between runs)
 *      build/.../lab7 --only tiled_16,tiled_16_unrolled --quick
 */
#include "kernels.h"

#include <cuda_pipeline.h> /* __pipeline_memcpy_async: cp.async, global to shared memory */

#define UNTILED_BLOCK 16 /* the untiled kernel runs 16 x 16 threads per block, like the seed's */

#define RB_TILE 128    /* register_blocked: outputs per block along m and along n */
#define RB_STEP 8      /* k covered by one pair of shared-memory tiles */
#define RB_THREADS 256 /* 16 x 16 threads, 8 x 8 outputs each */
#define RB_PAD 4       /* floats added to each row of the transposed A tile (see stage_step) */

/* warp_tiled: the block's tile, cut into one tile per warp and one per thread (see the kernel) */
#define WT_TILE_M 128   /* outputs per block along m */
#define WT_TILE_N 256   /* and along n */
#define WT_STEP 16      /* k covered by one A tile and one B tile in shared memory */
#define WT_WARP_M 64    /* outputs per warp along m */
#define WT_WARP_N 64    /* and along n */
#define WT_THREAD_M 8   /* outputs per thread along m, in pieces of 4 */
#define WT_THREAD_N 16  /* and along n */
#define WT_MIN_BLOCKS 1 /* blocks per SM that __launch_bounds__ asks registers for */
#define WT_PAD 4        /* floats added to each row of the transposed A tile */
#define WT_STAGES 3     /* B tiles in shared memory: a ring, copied WT_STAGES - 1 steps ahead */
#define WT_LANES_N (WT_WARP_N / WT_THREAD_N) /* a warp's threads along n */
#define WT_LANES_M (WT_WARP_M / WT_THREAD_M) /* and along m: WT_LANES_M x WT_LANES_N = 32 */
#define WT_THREADS (WT_TILE_M / WT_WARP_M * (WT_TILE_N / WT_WARP_N) * 32)
#define WT_A_LOADS (WT_TILE_M * WT_STEP / 4 / WT_THREADS) /* float4 of A per thread per step */
#define WT_B_LOADS (WT_STEP * WT_TILE_N / 4 / WT_THREADS) /* and of B */
#define WT_B_ROWS (WT_THREADS / (WT_TILE_N / 4)) /* B tile rows between a thread's float4s */
/* Its shared tiles, two of A and WT_STAGES of B: 66,048 bytes, more than the 48 KB a block
 * may declare statically, so they are dynamic shared memory (the launcher asks for them). */
#define WT_A_TILE_FLOATS (WT_STEP * (WT_TILE_M + WT_PAD))
#define WT_B_TILE_FLOATS (WT_STEP * WT_TILE_N)
#define WT_SMEM_BYTES ((2 * WT_A_TILE_FLOATS + WT_STAGES * WT_B_TILE_FLOATS) * sizeof(float))

typedef void (*matmul_kernel)(float *c, const float *a, const float *b, int m, int n, int k);

static unsigned blocks_for(int extent, int tile)
{
    return (unsigned)((extent + tile - 1) / tile);
}

/* Thread (row, col) walks row `row` of A and column `col` of B in global memory: 2 loads per
 * multiply-add. A warp reads one A element (broadcast) and 16 consecutive B elements per
 * step, so caches catch much of the reuse, but every load still goes through L1: expect the
 * load pipeline, not the arithmetic, to set the pace. */
__global__ void matmul_untiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = sum;
}

/* The inner loop of a tiled kernel: adds row a_row of the A tile times the column of the B
 * tile that starts at b_col (its elements `tile` floats apart) to sum. `#pragma unroll 1`
 * keeps the loop a loop: the tile size is a constant in every kernel below, so without it
 * nvcc unrolls the loop on its own and "tiled only" would not exist. */
__device__ __forceinline__ float accumulate_rolled(float sum, const float *a_row,
                                                   const float *b_col, int tile)
{
    // TODO(7b): add to sum the products of the A tile's row (a_row[0 .. tile-1]) and the B
    // tile's column (starting at b_col, its elements `tile` floats apart), in a loop that
    // stays a loop: `#pragma unroll 1` in front of it, so that the counter, its test and the
    // address arithmetic are paid on every multiply-add.
    return sum;
}

/* The same loop, fully unrolled: no counter, no branch, and the tile addresses become
 * constants of the instructions. */
__device__ __forceinline__ float accumulate_unrolled(float sum, const float *a_row,
                                                     const float *b_col, int tile)
{
    // TODO(7b): the same sum, in a loop that the compiler unrolls completely (`#pragma
    // unroll`, no count: tile is a constant in every kernel), so that no counter or branch is
    // left and the tile addresses become constants of the instructions.
    return sum;
}

/* What every tiled kernel does, for its tile size `tile` (a constant in each kernel, so the
 * compiler treats it as one). Thread (tx, ty) of a tile x tile block owns output
 * (row, col). For each step of `tile` along k, the block copies a tile of A and a tile of B
 * into shared memory, one element each per thread (zero outside the matrices), waits, and
 * each thread then takes `tile` multiply-adds from shared memory: a global element is loaded
 * once per block instead of once per thread, `tile` times fewer global loads. The price is
 * two barriers per step, and two shared-memory loads per multiply-add. */
__device__ __forceinline__ void tiled_matmul(float *c, const float *a, const float *b, int m, int n,
                                             int k, int tile, bool unrolled, float *a_tile,
                                             float *b_tile)
{
    // TODO(7a): the tiled product the comment above describes. Thread (threadIdx.x,
    // threadIdx.y) computes C(row, col), the output at column threadIdx.x and row threadIdx.y
    // of its block's tile x tile outputs. For each step of `tile` along k, the block stages a
    // tile of A (its rows, this step's columns) in a_tile and a tile of B (this step's rows,
    // its columns) in b_tile, both row-major, `tile` floats a row, one element a thread, 0.0f
    // where the step reaches past a matrix; it waits until both tiles are complete; each
    // thread adds the step's products with accumulate_unrolled or accumulate_rolled, as
    // `unrolled` says (its row of the A tile, the start of its column of the B tile); and the
    // block waits again before the next step overwrites the tiles. C(row, col) is written only
    // inside C, indexed with size_t (m x n can pass 2^31).
}

/* The ten tiled kernels: each declares its two tiles and runs tiled_matmul with its tile
 * size. 4 x 4 = 16 threads fill half a warp; 12 x 12 = 144 threads take 5 warps, the last
 * one half idle, and its warps straddle rows of the tile. */
__global__ void matmul_tiled_4_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float a_tile[4 * 4], b_tile[4 * 4];
    tiled_matmul(c, a, b, m, n, k, 4, false, a_tile, b_tile);
}

__global__ void matmul_tiled_4_unrolled_kernel(float *c, const float *a, const float *b, int m,
                                               int n, int k)
{
    __shared__ float a_tile[4 * 4], b_tile[4 * 4];
    tiled_matmul(c, a, b, m, n, k, 4, true, a_tile, b_tile);
}

__global__ void matmul_tiled_8_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float a_tile[8 * 8], b_tile[8 * 8];
    tiled_matmul(c, a, b, m, n, k, 8, false, a_tile, b_tile);
}

__global__ void matmul_tiled_8_unrolled_kernel(float *c, const float *a, const float *b, int m,
                                               int n, int k)
{
    __shared__ float a_tile[8 * 8], b_tile[8 * 8];
    tiled_matmul(c, a, b, m, n, k, 8, true, a_tile, b_tile);
}

__global__ void matmul_tiled_12_kernel(float *c, const float *a, const float *b, int m, int n,
                                       int k)
{
    __shared__ float a_tile[12 * 12], b_tile[12 * 12];
    tiled_matmul(c, a, b, m, n, k, 12, false, a_tile, b_tile);
}

__global__ void matmul_tiled_12_unrolled_kernel(float *c, const float *a, const float *b, int m,
                                                int n, int k)
{
    __shared__ float a_tile[12 * 12], b_tile[12 * 12];
    tiled_matmul(c, a, b, m, n, k, 12, true, a_tile, b_tile);
}

__global__ void matmul_tiled_16_kernel(float *c, const float *a, const float *b, int m, int n,
                                       int k)
{
    __shared__ float a_tile[16 * 16], b_tile[16 * 16];
    tiled_matmul(c, a, b, m, n, k, 16, false, a_tile, b_tile);
}

__global__ void matmul_tiled_16_unrolled_kernel(float *c, const float *a, const float *b, int m,
                                                int n, int k)
{
    __shared__ float a_tile[16 * 16], b_tile[16 * 16];
    tiled_matmul(c, a, b, m, n, k, 16, true, a_tile, b_tile);
}

__global__ void matmul_tiled_32_kernel(float *c, const float *a, const float *b, int m, int n,
                                       int k)
{
    __shared__ float a_tile[32 * 32], b_tile[32 * 32];
    tiled_matmul(c, a, b, m, n, k, 32, false, a_tile, b_tile);
}

__global__ void matmul_tiled_32_unrolled_kernel(float *c, const float *a, const float *b, int m,
                                                int n, int k)
{
    __shared__ float a_tile[32 * 32], b_tile[32 * 32];
    tiled_matmul(c, a, b, m, n, k, 32, true, a_tile, b_tile);
}


/* Register blocking: a block of 256 threads owns a 128 x 128 tile of C, each thread 8 x 8 of
 * it in 64 registers. Per step of 8 along k, each value loaded from shared memory feeds 8
 * multiply-adds instead of 1, so the arithmetic, not the shared-memory pipe, sets the pace.
 * Global loads are 16 bytes wide, and the next step's loads are in flight (two shared
 * buffers) while this step computes. 64 accumulators make it register-hungry: at most 128
 * registers per thread, 2 blocks (16 warps) per SM, and that is enough. */
__global__ void __launch_bounds__(RB_THREADS, 2)
    matmul_register_blocked_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    // TODO(7d, optional): 256 threads own the block's 128 x 128 outputs, thread t the
    // 8 x 8 at rows {r, r+1, r+2, r+3, r+64, ..., r+67} and the same pattern of columns,
    // r = (t / 16) * 4 and c0 = (t % 16) * 4. Per step of 8 along k, thread t copies 4 floats
    // of A (row t / 2, k offset (t % 2) * 4) and 4 of B (k row t / 32, column (t % 32) * 4)
    // with one 16-byte load each where the row length allows it (zeros outside), stores A
    // transposed in shared memory, then does 64 multiply-adds per k from 4 float4 reads.
    // Load step s+1 into registers before computing step s, store it into the other
    // shared buffer after, one __syncthreads() per step. Guard the edges of C when writing.
}

/* Warp tiling: register_blocked's pipeline with the threads of each warp kept together. The
 * block's WT_TILE_M x WT_TILE_N outputs are cut into one WT_WARP_M x WT_WARP_N tile per warp;
 * a warp's 32 threads sit on a WT_LANES_M x WT_LANES_N grid over it, each owning
 * WT_THREAD_M x WT_THREAD_N outputs in pieces of 4 x 4. A warp then reads only the rows and
 * columns of its own tile from shared memory, in consecutive 16-byte pieces (no bank
 * conflicts). The fragments of k+1 are read while the multiply-adds of k run (two sets of
 * fragment registers). A goes as in register_blocked: the next step's loads in registers while
 * this step computes, stored transposed into the other of two A tiles after it. B goes by
 * cp.async straight into a ring of WT_STAGES tiles, WT_STAGES - 1 steps ahead: no registers
 * in between, and each thread's source pointer moves on by WT_STEP rows a step, so the copies
 * cost no address arithmetic. One barrier per step. Its shared tiles are dynamic shared
 * memory: together they are over the 48 KB of a static declaration. */
__global__ void __launch_bounds__(WT_THREADS, WT_MIN_BLOCKS)
    matmul_warp_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    // TODO(7e, optional): the kernel the comment above describes. Start from your
    // register_blocked: give each warp its own WT_WARP_M x WT_WARP_N part of the block's
    // tile, keep the per-thread 4 x 4 pieces WT_LANES_M * 4 rows and WT_LANES_N * 4 columns
    // apart, read the next k's fragments before the current k's multiply-adds, and guard
    // the edges of C when writing. The tiles (WT_SMEM_BYTES) are more than a block may
    // declare statically: declare `extern __shared__ __align__(16) float smem[];` and cut
    // it into two A tiles of WT_A_TILE_FLOATS and WT_STAGES B tiles of WT_B_TILE_FLOATS.
    // Copy B with __pipeline_memcpy_async(dst, src, 16) WT_STAGES - 1 steps ahead, one
    // __pipeline_commit() a step, and __pipeline_wait_prior(WT_STAGES - 2) before the
    // barrier that ends a step; keep a pointer into B that moves on by WT_STEP rows a step.
}

static int launch_untiled(float *c, const float *a, const float *b, int m, int n, int k,
                          cudaStream_t stream)
{
    dim3 block(UNTILED_BLOCK, UNTILED_BLOCK);
    dim3 grid(blocks_for(n, UNTILED_BLOCK), blocks_for(m, UNTILED_BLOCK));
    matmul_untiled_kernel<<<grid, block, 0, stream>>>(c, a, b, m, n, k);
    return LAB_OK;
}

/* Launch one of the tiled kernels: tile x tile threads per block, one block per tile x tile
 * outputs of C. */
static int launch_tiled(matmul_kernel kernel, int tile, float *c, const float *a, const float *b,
                        int m, int n, int k, cudaStream_t stream)
{
    // TODO(7c): launch `kernel` with blocks of tile x tile threads (x along n, y along m)
    // and enough blocks to cover all of C, then return LAB_OK.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_tiled_4(float *c, const float *a, const float *b, int m, int n, int k,
                          cudaStream_t s)
{
    return launch_tiled(matmul_tiled_4_kernel, 4, c, a, b, m, n, k, s);
}

static int launch_tiled_4_unrolled(float *c, const float *a, const float *b, int m, int n, int k,
                                   cudaStream_t s)
{
    return launch_tiled(matmul_tiled_4_unrolled_kernel, 4, c, a, b, m, n, k, s);
}

static int launch_tiled_8(float *c, const float *a, const float *b, int m, int n, int k,
                          cudaStream_t s)
{
    return launch_tiled(matmul_tiled_8_kernel, 8, c, a, b, m, n, k, s);
}

static int launch_tiled_8_unrolled(float *c, const float *a, const float *b, int m, int n, int k,
                                   cudaStream_t s)
{
    return launch_tiled(matmul_tiled_8_unrolled_kernel, 8, c, a, b, m, n, k, s);
}

static int launch_tiled_12(float *c, const float *a, const float *b, int m, int n, int k,
                           cudaStream_t s)
{
    return launch_tiled(matmul_tiled_12_kernel, 12, c, a, b, m, n, k, s);
}

static int launch_tiled_12_unrolled(float *c, const float *a, const float *b, int m, int n, int k,
                                    cudaStream_t s)
{
    return launch_tiled(matmul_tiled_12_unrolled_kernel, 12, c, a, b, m, n, k, s);
}

static int launch_tiled_16(float *c, const float *a, const float *b, int m, int n, int k,
                           cudaStream_t s)
{
    return launch_tiled(matmul_tiled_16_kernel, 16, c, a, b, m, n, k, s);
}

static int launch_tiled_16_unrolled(float *c, const float *a, const float *b, int m, int n, int k,
                                    cudaStream_t s)
{
    return launch_tiled(matmul_tiled_16_unrolled_kernel, 16, c, a, b, m, n, k, s);
}

static int launch_tiled_32(float *c, const float *a, const float *b, int m, int n, int k,
                           cudaStream_t s)
{
    return launch_tiled(matmul_tiled_32_kernel, 32, c, a, b, m, n, k, s);
}

static int launch_tiled_32_unrolled(float *c, const float *a, const float *b, int m, int n, int k,
                                    cudaStream_t s)
{
    return launch_tiled(matmul_tiled_32_unrolled_kernel, 32, c, a, b, m, n, k, s);
}

static int launch_register_blocked(float *c, const float *a, const float *b, int m, int n, int k,
                                   cudaStream_t s)
{
    // TODO(7d, optional): launch matmul_register_blocked_kernel with RB_THREADS threads
    // per block, one block per RB_TILE x RB_TILE outputs of C, then return LAB_OK.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_warp_tiled(float *c, const float *a, const float *b, int m, int n, int k,
                             cudaStream_t s)
{
    // TODO(7e, optional): launch matmul_warp_tiled_kernel with WT_THREADS threads per
    // block and WT_SMEM_BYTES of dynamic shared memory, one block per WT_TILE_M x
    // WT_TILE_N outputs of C (x along n), then return LAB_OK. Over 48 KB a block gets
    // only after cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
    // bytes) has allowed the kernel that much.
    return LAB_NOT_IMPLEMENTED;
}

/* name, idea, launcher, kernel, threads per block, dynamic shared memory, tile, unrolled */
extern "C" const struct lab7_variant lab7_variants[] = {
    {"untiled", "one thread per output, both operands from global memory", launch_untiled,
     (const void *)matmul_untiled_kernel, UNTILED_BLOCK *UNTILED_BLOCK, 0, 0, 0},
    {"tiled_4", "4x4 shared tiles (16 threads: half a warp), loop kept", launch_tiled_4,
     (const void *)matmul_tiled_4_kernel, 4 * 4, 0, 4, 0},
    {"tiled_4_unrolled", "4x4 shared tiles, loop over the tile unrolled", launch_tiled_4_unrolled,
     (const void *)matmul_tiled_4_unrolled_kernel, 4 * 4, 0, 4, 1},
    {"tiled_8", "8x8 shared tiles (64 threads), loop kept", launch_tiled_8,
     (const void *)matmul_tiled_8_kernel, 8 * 8, 0, 8, 0},
    {"tiled_8_unrolled", "8x8 shared tiles, loop over the tile unrolled", launch_tiled_8_unrolled,
     (const void *)matmul_tiled_8_unrolled_kernel, 8 * 8, 0, 8, 1},
    {"tiled_12", "12x12 shared tiles (144 threads: 4.5 warps), loop kept", launch_tiled_12,
     (const void *)matmul_tiled_12_kernel, 12 * 12, 0, 12, 0},
    {"tiled_12_unrolled", "12x12 shared tiles, loop over the tile unrolled",
     launch_tiled_12_unrolled, (const void *)matmul_tiled_12_unrolled_kernel, 12 * 12, 0, 12, 1},
    {"tiled_16", "16x16 shared tiles (256 threads), loop kept", launch_tiled_16,
     (const void *)matmul_tiled_16_kernel, 16 * 16, 0, 16, 0},
    {"tiled_16_unrolled", "16x16 shared tiles, loop over the tile unrolled",
     launch_tiled_16_unrolled, (const void *)matmul_tiled_16_unrolled_kernel, 16 * 16, 0, 16, 1},
    {"tiled_32", "32x32 shared tiles (1024 threads), loop kept", launch_tiled_32,
     (const void *)matmul_tiled_32_kernel, 32 * 32, 0, 32, 0},
    {"tiled_32_unrolled", "32x32 shared tiles, loop over the tile unrolled",
     launch_tiled_32_unrolled, (const void *)matmul_tiled_32_unrolled_kernel, 32 * 32, 0, 32, 1},
    {"register_blocked", "128x128 per block, 8x8 per thread in registers, float4, 2 buffers",
     launch_register_blocked, (const void *)matmul_register_blocked_kernel, RB_THREADS, 0, RB_TILE,
     1},
    {"warp_tiled", "128x256 per block, 64x64 per warp, 8x16 per thread, B by cp.async, 3 stages",
     launch_warp_tiled, (const void *)matmul_warp_tiled_kernel, WT_THREADS, WT_SMEM_BYTES,
     WT_TILE_M, 1},
};
extern "C" const int lab7_variant_count = sizeof lab7_variants / sizeof lab7_variants[0];
