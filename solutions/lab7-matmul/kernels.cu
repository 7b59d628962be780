/* kernels.cu - lab 7, tiled matrix multiply: C = A x B in float32, row-major.
//@begin solution
 * MASTER COPY with the solutions (instructors only). `make student-files` turns it into
 * labs/lab7-matmul/kernels.cu by removing the solution regions.
//@end solution
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
    //@begin solution
    //@todo TODO(7b): add to sum the products of the A tile's row (a_row[0 .. tile-1]) and the B
    //@todo tile's column (starting at b_col, its elements `tile` floats apart), in a loop that
    //@todo stays a loop: `#pragma unroll 1` in front of it, so that the counter, its test and the
    //@todo address arithmetic are paid on every multiply-add.
#pragma unroll 1
    for (int i = 0; i < tile; i++)
        sum += a_row[i] * b_col[i * tile];
    return sum;
    //@student return sum;
    //@end solution
}

/* The same loop, fully unrolled: no counter, no branch, and the tile addresses become
 * constants of the instructions. */
__device__ __forceinline__ float accumulate_unrolled(float sum, const float *a_row,
                                                     const float *b_col, int tile)
{
    //@begin solution
    //@todo TODO(7b): the same sum, in a loop that the compiler unrolls completely (`#pragma
    //@todo unroll`, no count: tile is a constant in every kernel), so that no counter or branch is
    //@todo left and the tile addresses become constants of the instructions.
#pragma unroll
    for (int i = 0; i < tile; i++)
        sum += a_row[i] * b_col[i * tile];
    return sum;
    //@student return sum;
    //@end solution
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
    //@begin solution
    //@todo TODO(7a): the tiled product the comment above describes. Thread (threadIdx.x,
    //@todo threadIdx.y) computes C(row, col), the output at column threadIdx.x and row threadIdx.y
    //@todo of its block's tile x tile outputs. For each step of `tile` along k, the block stages a
    //@todo tile of A (its rows, this step's columns) in a_tile and a tile of B (this step's rows,
    //@todo its columns) in b_tile, both row-major, `tile` floats a row, one element a thread, 0.0f
    //@todo where the step reaches past a matrix; it waits until both tiles are complete; each
    //@todo thread adds the step's products with accumulate_unrolled or accumulate_rolled, as
    //@todo `unrolled` says (its row of the A tile, the start of its column of the B tile); and the
    //@todo block waits again before the next step overwrites the tiles. C(row, col) is written only
    //@todo inside C, indexed with size_t (m x n can pass 2^31).
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * tile + ty;
    int col = blockIdx.x * tile + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < k; k0 += tile) {
        a_tile[ty * tile + tx] = row < m && k0 + tx < k ? a[(size_t)row * k + k0 + tx] : 0.0f;
        b_tile[ty * tile + tx] = k0 + ty < k && col < n ? b[(size_t)(k0 + ty) * n + col] : 0.0f;
        __syncthreads();
        if (unrolled)
            sum = accumulate_unrolled(sum, &a_tile[ty * tile], &b_tile[tx], tile);
        else
            sum = accumulate_rolled(sum, &a_tile[ty * tile], &b_tile[tx], tile);
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
    //@end solution
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

//@begin solution
/* Four consecutive floats of a rows x cols matrix, from (row, col) with col a multiple of 4;
 * zeros outside the matrix. One 16-byte load when cols is a multiple of 4 (then the four are
 * 16-byte aligned and all inside the row), through the read-only data path (__ldg: A and B
 * do not change while the kernel runs), else up to four guarded 4-byte loads. */
static __device__ __forceinline__ float4 load_four(const float *p, int rows, int cols, int row,
                                                   int col)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows || col >= cols)
        return v;
    const float *src = p + (size_t)row * cols + col;
    if (cols % 4 == 0)
        return __ldg(reinterpret_cast<const float4 *>(src));
    v.x = src[0];
    if (col + 1 < cols)
        v.y = src[1];
    if (col + 2 < cols)
        v.z = src[2];
    if (col + 3 < cols)
        v.w = src[3];
    return v;
}

/* The mirror of load_four: writes the four floats that fall inside the matrix. */
static __device__ __forceinline__ void store_four(float *p, int rows, int cols, int row, int col,
                                                  float4 v)
{
    if (row >= rows || col >= cols)
        return;
    float *dst = p + (size_t)row * cols + col;
    if (cols % 4 == 0) {
        *reinterpret_cast<float4 *>(dst) = v;
        return;
    }
    dst[0] = v.x;
    if (col + 1 < cols)
        dst[1] = v.y;
    if (col + 2 < cols)
        dst[2] = v.z;
    if (col + 3 < cols)
        dst[3] = v.w;
}

/* Put one step's loads into shared memory: A transposed (a_tile[p][row], so that a thread
 * later reads 4 rows of one column with one 16-byte load), B as it is. The A tile's rows are
 * RB_PAD floats longer than 128: the two threads that share a row then write different banks. */
static __device__ __forceinline__ void stage_step(float (*a_tile)[RB_TILE + RB_PAD],
                                                  float (*b_tile)[RB_TILE], float4 a4, float4 b4,
                                                  int a_row, int a_p, int b_p, int b_col)
{
    a_tile[a_p + 0][a_row] = a4.x;
    a_tile[a_p + 1][a_row] = a4.y;
    a_tile[a_p + 2][a_row] = a4.z;
    a_tile[a_p + 3][a_row] = a4.w;
    *reinterpret_cast<float4 *>(&b_tile[b_p][b_col]) = b4;
}

/* One step of RB_STEP along k for the thread's 8 x 8 outputs: per p, 8 A values (rows
 * row0..row0+3 and row0+64..row0+67) and 8 B values in four 16-byte shared loads, then 64
 * multiply-adds on registers. The two groups of 4, 64 apart, keep a warp's 16-byte reads on
 * consecutive addresses: no bank conflicts. */
static __device__ __forceinline__ void multiply_step(float acc[8][8],
                                                     const float (*a_tile)[RB_TILE + RB_PAD],
                                                     const float (*b_tile)[RB_TILE], int row0,
                                                     int col0)
{
#pragma unroll
    for (int p = 0; p < RB_STEP; p++) {
        float4 a_lo = *reinterpret_cast<const float4 *>(&a_tile[p][row0]);
        float4 a_hi = *reinterpret_cast<const float4 *>(&a_tile[p][row0 + RB_TILE / 2]);
        float4 b_lo = *reinterpret_cast<const float4 *>(&b_tile[p][col0]);
        float4 b_hi = *reinterpret_cast<const float4 *>(&b_tile[p][col0 + RB_TILE / 2]);
        const float a_frag[8] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
        const float b_frag[8] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int j = 0; j < 8; j++)
                acc[i][j] += a_frag[i] * b_frag[j];
    }
}

/* Loads this thread's share of one step of the warp_tiled kernel's A tile (rows of the block,
 * k0..k0+WT_STEP-1) from global memory into registers, 16 bytes at a time: the float4s
 * t, t + WT_THREADS, ... of the tile. */
static __device__ __forceinline__ void warp_tiled_load_a(float4 *a_next, const float *a, int m,
                                                         int k, int block_row, int k0)
{
#pragma unroll
    for (int l = 0; l < WT_A_LOADS; l++) {
        int i = threadIdx.x + l * WT_THREADS;
        a_next[l] = load_four(a, m, k, block_row + i / (WT_STEP / 4), k0 + i % (WT_STEP / 4) * 4);
    }
}

/* Stores what warp_tiled_load_a fetched into an A tile, transposed. */
static __device__ __forceinline__ void warp_tiled_stage_a(float (*a_tile)[WT_TILE_M + WT_PAD],
                                                          const float4 *a_next)
{
#pragma unroll
    for (int l = 0; l < WT_A_LOADS; l++) {
        int i = threadIdx.x + l * WT_THREADS;
        int row = i / (WT_STEP / 4), p = i % (WT_STEP / 4) * 4;
        a_tile[p + 0][row] = a_next[l].x;
        a_tile[p + 1][row] = a_next[l].y;
        a_tile[p + 2][row] = a_next[l].z;
        a_tile[p + 3][row] = a_next[l].w;
    }
}

/* Copies this thread's share of the B tile of step k0 (its rows b_row, b_row + WT_B_ROWS, ...,
 * its columns b_col..b_col+3) into a B tile of the ring, always by cp.async: global to shared
 * memory without registers, waited for later (__pipeline_wait_prior). src points at the first
 * of them in B (row k0 + b_row, column block_col + b_col). A full step inside the matrix copies
 * 16 bytes at a time with no checks; past B's last row (the last, partial step) or its right
 * edge a copy reads nothing and fills zeros (zfill = its size). Rows not a multiple of 4
 * floats long are not 16-byte aligned: they go one float at a time. */
static __device__ __forceinline__ void warp_tiled_copy_b(float (*b_tile)[WT_TILE_N],
                                                         const float *src, const float *b, int k,
                                                         int n, int k0, int b_row, int b_col,
                                                         int block_col)
{
    bool col_in = block_col + b_col < n;
    if (n % 4 == 0 && col_in && k0 + WT_STEP <= k) {
#pragma unroll
        for (int l = 0; l < WT_B_LOADS; l++)
            __pipeline_memcpy_async(&b_tile[b_row + l * WT_B_ROWS][b_col],
                                    src + (size_t)l * WT_B_ROWS * n, 16);
        return;
    }
#pragma unroll
    for (int l = 0; l < WT_B_LOADS; l++) {
        int row = b_row + l * WT_B_ROWS;
        float *dst = &b_tile[row][b_col];
        const float *from = src + (size_t)l * WT_B_ROWS * n;
        bool row_in = k0 + row < k;
        if (n % 4 == 0) {
            if (row_in && col_in)
                __pipeline_memcpy_async(dst, from, 16);
            else
                __pipeline_memcpy_async(dst, b, 16, 16);
            continue;
        }
#pragma unroll
        for (int q = 0; q < 4; q++) {
            if (row_in && block_col + b_col + q < n)
                __pipeline_memcpy_async(dst + q, from + q, 4);
            else
                __pipeline_memcpy_async(dst + q, b, 4, 4);
        }
    }
}

/* COUNT values of one row of a tile into frag, in float4 pieces STRIDE floats apart. */
template <int COUNT, int STRIDE>
static __device__ __forceinline__ void fragment_of_row(float *frag, const float *row)
{
#pragma unroll
    for (int i = 0; i < COUNT / 4; i++) {
        float4 v = *reinterpret_cast<const float4 *>(&row[i * STRIDE]);
        frag[4 * i + 0] = v.x;
        frag[4 * i + 1] = v.y;
        frag[4 * i + 2] = v.z;
        frag[4 * i + 3] = v.w;
    }
}

/* The thread's fragments for one k (p): its WT_THREAD_M values of A and WT_THREAD_N of B, in
 * float4 pieces WT_LANES_M * 4 rows (WT_LANES_N * 4 columns) apart. */
static __device__ __forceinline__ void
warp_tiled_fragments(float *a_frag, float *b_frag, const float (*a_tile)[WT_TILE_M + WT_PAD],
                     const float (*b_tile)[WT_TILE_N], int p, int row0, int col0)
{
    fragment_of_row<WT_THREAD_M, WT_LANES_M * 4>(a_frag, &a_tile[p][row0]);
    fragment_of_row<WT_THREAD_N, WT_LANES_N * 4>(b_frag, &b_tile[p][col0]);
}
//@end solution

/* Register blocking: a block of 256 threads owns a 128 x 128 tile of C, each thread 8 x 8 of
 * it in 64 registers. Per step of 8 along k, each value loaded from shared memory feeds 8
 * multiply-adds instead of 1, so the arithmetic, not the shared-memory pipe, sets the pace.
 * Global loads are 16 bytes wide, and the next step's loads are in flight (two shared
 * buffers) while this step computes. 64 accumulators make it register-hungry: at most 128
 * registers per thread, 2 blocks (16 warps) per SM, and that is enough. */
__global__ void __launch_bounds__(RB_THREADS, 2)
    matmul_register_blocked_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    //@begin solution
    //@todo TODO(7d, optional): 256 threads own the block's 128 x 128 outputs, thread t the
    //@todo 8 x 8 at rows {r, r+1, r+2, r+3, r+64, ..., r+67} and the same pattern of columns,
    //@todo r = (t / 16) * 4 and c0 = (t % 16) * 4. Per step of 8 along k, thread t copies 4 floats
    //@todo of A (row t / 2, k offset (t % 2) * 4) and 4 of B (k row t / 32, column (t % 32) * 4)
    //@todo with one 16-byte load each where the row length allows it (zeros outside), stores A
    //@todo transposed in shared memory, then does 64 multiply-adds per k from 4 float4 reads.
    //@todo Load step s+1 into registers before computing step s, store it into the other
    //@todo shared buffer after, one __syncthreads() per step. Guard the edges of C when writing.
    __shared__ __align__(16) float a_tiles[2][RB_STEP][RB_TILE + RB_PAD];
    __shared__ __align__(16) float b_tiles[2][RB_STEP][RB_TILE];
    int t = threadIdx.x;
    int block_row = blockIdx.y * RB_TILE, block_col = blockIdx.x * RB_TILE;
    int row0 = t / 16 * 4, col0 = t % 16 * 4; /* this thread's outputs, within the block's tile */
    int a_row = t / 2, a_p = t % 2 * 4;       /* what it copies of A per step */
    int b_p = t / 32, b_col = t % 32 * 4;     /* and of B */

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
            acc[i][j] = 0.0f;

    int steps = (k + RB_STEP - 1) / RB_STEP;
    float4 a_next = load_four(a, m, k, block_row + a_row, a_p);
    float4 b_next = load_four(b, k, n, b_p, block_col + b_col);
    stage_step(a_tiles[0], b_tiles[0], a_next, b_next, a_row, a_p, b_p, b_col);
    __syncthreads();
    for (int s = 0; s < steps; s++) {
        int cur = s % 2;
        bool more = s + 1 < steps;
        if (more) {
            int k0 = (s + 1) * RB_STEP;
            a_next = load_four(a, m, k, block_row + a_row, k0 + a_p);
            b_next = load_four(b, k, n, k0 + b_p, block_col + b_col);
        }
        multiply_step(acc, a_tiles[cur], b_tiles[cur], row0, col0);
        if (more)
            stage_step(a_tiles[cur ^ 1], b_tiles[cur ^ 1], a_next, b_next, a_row, a_p, b_p, b_col);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = block_row + row0 + (i < 4 ? i : RB_TILE / 2 + i - 4);
        store_four(c, m, n, row, block_col + col0,
                   make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
        store_four(c, m, n, row, block_col + col0 + RB_TILE / 2,
                   make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
    }
    //@end solution
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
    //@begin solution
    //@todo TODO(7e, optional): the kernel the comment above describes. Start from your
    //@todo register_blocked: give each warp its own WT_WARP_M x WT_WARP_N part of the block's
    //@todo tile, keep the per-thread 4 x 4 pieces WT_LANES_M * 4 rows and WT_LANES_N * 4 columns
    //@todo apart, read the next k's fragments before the current k's multiply-adds, and guard
    //@todo the edges of C when writing. The tiles (WT_SMEM_BYTES) are more than a block may
    //@todo declare statically: declare `extern __shared__ __align__(16) float smem[];` and cut
    //@todo it into two A tiles of WT_A_TILE_FLOATS and WT_STAGES B tiles of WT_B_TILE_FLOATS.
    //@todo Copy B with __pipeline_memcpy_async(dst, src, 16) WT_STAGES - 1 steps ahead, one
    //@todo __pipeline_commit() a step, and __pipeline_wait_prior(WT_STAGES - 2) before the
    //@todo barrier that ends a step; keep a pointer into B that moves on by WT_STEP rows a step.
    extern __shared__ __align__(16) float wt_smem[]; /* WT_SMEM_BYTES, from the launcher */
    float(*a_tiles)[WT_STEP][WT_TILE_M + WT_PAD] =
        reinterpret_cast<float(*)[WT_STEP][WT_TILE_M + WT_PAD]>(wt_smem);
    float(*b_tiles)[WT_STEP][WT_TILE_N] =
        reinterpret_cast<float(*)[WT_STEP][WT_TILE_N]>(wt_smem + 2 * WT_A_TILE_FLOATS);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int block_row = blockIdx.y * WT_TILE_M, block_col = blockIdx.x * WT_TILE_N;
    /* what this thread copies of each B tile, and where that starts in B for the next copy */
    int b_row = threadIdx.x / (WT_TILE_N / 4), b_col = threadIdx.x % (WT_TILE_N / 4) * 4;
    const float *b_src = b + (size_t)b_row * n + block_col + b_col;
    /* this thread's first output, within the block's tile */
    int row0 = warp / (WT_TILE_N / WT_WARP_N) * WT_WARP_M + lane / WT_LANES_N * 4;
    int col0 = warp % (WT_TILE_N / WT_WARP_N) * WT_WARP_N + lane % WT_LANES_N * 4;

    float acc[WT_THREAD_M][WT_THREAD_N];
#pragma unroll
    for (int i = 0; i < WT_THREAD_M; i++)
#pragma unroll
        for (int j = 0; j < WT_THREAD_N; j++)
            acc[i][j] = 0.0f;

    float4 a_next[WT_A_LOADS];
    float a_frag[2][WT_THREAD_M], b_frag[2][WT_THREAD_N]; /* fragments of k and of k+1 */
    int steps = (k + WT_STEP - 1) / WT_STEP;
    warp_tiled_load_a(a_next, a, m, k, block_row, 0);
    warp_tiled_stage_a(a_tiles[0], a_next);
#pragma unroll
    for (int s = 0; s < WT_STAGES - 1; s++) { /* B of the first steps in flight: a group each */
        if (s < steps) {
            warp_tiled_copy_b(b_tiles[s], b_src, b, k, n, s * WT_STEP, b_row, b_col, block_col);
            b_src += (size_t)WT_STEP * n;
        }
        __pipeline_commit();
    }
    __pipeline_wait_prior(WT_STAGES - 2); /* step 0's B has landed */
    __syncthreads();
    int b_read = 0, b_write = WT_STAGES - 1; /* the ring's tiles of this step and of the copy */
    for (int s = 0; s < steps; s++) {
        int cur = s % 2, b_cur = b_read;
        bool more = s + 1 < steps;
        if (s + WT_STAGES - 1 < steps) { /* into the tile step s - 1 used: all are past it */
            warp_tiled_copy_b(b_tiles[b_write], b_src, b, k, n, (s + WT_STAGES - 1) * WT_STEP,
                              b_row, b_col, block_col);
            b_src += (size_t)WT_STEP * n;
        }
        __pipeline_commit();
        b_read = b_read + 1 == WT_STAGES ? 0 : b_read + 1;
        b_write = b_write + 1 == WT_STAGES ? 0 : b_write + 1;
        if (more)
            warp_tiled_load_a(a_next, a, m, k, block_row, (s + 1) * WT_STEP);
        warp_tiled_fragments(a_frag[0], b_frag[0], a_tiles[cur], b_tiles[b_cur], 0, row0, col0);
#pragma unroll
        for (int p = 0; p < WT_STEP; p++) {
            if (p + 1 < WT_STEP)
                warp_tiled_fragments(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], a_tiles[cur],
                                     b_tiles[b_cur], p + 1, row0, col0);
#pragma unroll
            for (int i = 0; i < WT_THREAD_M; i++)
#pragma unroll
                for (int j = 0; j < WT_THREAD_N; j++)
                    acc[i][j] += a_frag[p % 2][i] * b_frag[p % 2][j];
        }
        if (more)
            warp_tiled_stage_a(a_tiles[cur ^ 1], a_next);
        __pipeline_wait_prior(WT_STAGES - 2); /* step s + 1's B has landed (this thread's) */
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < WT_THREAD_M; i++) {
        int row = block_row + row0 + i / 4 * WT_LANES_M * 4 + i % 4;
#pragma unroll
        for (int j = 0; j < WT_THREAD_N / 4; j++)
            store_four(c, m, n, row, block_col + col0 + j * WT_LANES_N * 4,
                       make_float4(acc[i][4 * j], acc[i][4 * j + 1], acc[i][4 * j + 2],
                                   acc[i][4 * j + 3]));
    }
    //@end solution
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
    //@begin solution
    //@todo TODO(7c): launch `kernel` with blocks of tile x tile threads (x along n, y along m)
    //@todo and enough blocks to cover all of C, then return LAB_OK.
    dim3 block(tile, tile);
    dim3 grid(blocks_for(n, tile), blocks_for(m, tile));
    kernel<<<grid, block, 0, stream>>>(c, a, b, m, n, k);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
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
    //@begin solution
    //@todo TODO(7d, optional): launch matmul_register_blocked_kernel with RB_THREADS threads
    //@todo per block, one block per RB_TILE x RB_TILE outputs of C, then return LAB_OK.
    dim3 grid(blocks_for(n, RB_TILE), blocks_for(m, RB_TILE));
    matmul_register_blocked_kernel<<<grid, RB_THREADS, 0, s>>>(c, a, b, m, n, k);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_warp_tiled(float *c, const float *a, const float *b, int m, int n, int k,
                             cudaStream_t s)
{
    //@begin solution
    //@todo TODO(7e, optional): launch matmul_warp_tiled_kernel with WT_THREADS threads per
    //@todo block and WT_SMEM_BYTES of dynamic shared memory, one block per WT_TILE_M x
    //@todo WT_TILE_N outputs of C (x along n), then return LAB_OK. Over 48 KB a block gets
    //@todo only after cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
    //@todo bytes) has allowed the kernel that much.
    cudaFuncSetAttribute(matmul_warp_tiled_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         (int)WT_SMEM_BYTES);
    dim3 grid(blocks_for(n, WT_TILE_N), blocks_for(m, WT_TILE_M));
    matmul_warp_tiled_kernel<<<grid, WT_THREADS, WT_SMEM_BYTES, s>>>(c, a, b, m, n, k);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
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
