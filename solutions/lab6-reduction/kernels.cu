/* kernels.cu - lab 6, reduction: the seed's seven steps to a fast sum, and three beyond.
//@begin solution
 * MASTER COPY with the solutions (instructors only). `make student-files` turns it into
 * labs/lab6-reduction/kernels.cu by removing the solution regions.
//@end solution
 *
 * This is the file you edit. The driver (driver.cu) fills `in` with small random ints,
 * runs each variant below, checks *sum against a 64-bit CPU sum, then times the whole
 * reduction. kernels.h states the contract. The variants (the seed's seven steps, then three
 * beyond it): the table at the end of this file.
 * Steps 1-8 are one kernel each that leaves one partial sum per block; the launcher runs
 * it again over the partial sums until one value is left (reduce_in_passes, given).
 * Run: make lab6            (only this file changes between runs)
 *      build/.../lab6 --only v3_sequential_addressing --quick
 */
#include "kernels.h"

#define BLOCK 256                            /* threads per block, steps 1-9 */
#define V10_BLOCK 1024                       /* threads per block, step 10 */
#define ELEMENTS_PER_VEC4_BLOCK (BLOCK * 16) /* v8, v9: four int4 loads per thread per round */
#define FULL_WARP 0xffffffffu

/* Every kernel of steps 1-8 has this shape: it sums in[0..n-1] block by block and writes
 * the sum of block b to partial[b]. */
typedef void (*pass_kernel)(int *partial, const int *in, size_t n);

/* Blocks for one pass: one per `per_block` values, at most max_blocks (0: no limit). */
static unsigned blocks_for(size_t n, size_t per_block, unsigned max_blocks)
{
    size_t blocks = (n + per_block - 1) / per_block;
    return max_blocks && blocks > max_blocks ? max_blocks : (unsigned)blocks;
}

/* The seed's multi-pass scheme: launch `kernel` over the n values; each block leaves one
 * partial sum; launch it again over those, until a pass needs one block, which writes the
 * total to *sum. Each pass writes its partial sums to a region of scratch of its own (never
 * the one it reads), starting on a 16-byte boundary so that int4 loads stay aligned. */
static void reduce_in_passes(pass_kernel kernel, size_t per_block, unsigned max_blocks, int *sum,
                             const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    const int *values = in;
    for (;;) {
        unsigned blocks = blocks_for(n, per_block, max_blocks);
        int *partial = blocks == 1 ? sum : scratch;
        kernel<<<blocks, BLOCK, 0, stream>>>(partial, values, n);
        if (blocks == 1)
            return;
        values = partial;
        n = blocks;
        scratch += (blocks + 3) / 4 * 4;
    }
}

/* How many blocks of `kernel`, `threads` threads each, the GPU holds at once (SMs x blocks
 * per SM): a grid of that size is resident all at once and walks any array with a
 * grid-stride loop (steps 7-10). */
//@begin solution
//@todo TODO(6.7): a helper grid_to_fill(kernel, threads) that returns what the comment above says:
//@todo the GPU's SM count times the blocks of `kernel` (no dynamic shared memory) that one SM
//@todo holds at once. Ask the runtime for both (a device attribute; the occupancy API of the CUDA
//@todo Runtime API reference): the numbers differ from GPU to GPU.
static unsigned grid_to_fill(const void *kernel, int threads)
{
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0);
    return (unsigned)(sms * per_sm);
}
//@end solution

/* ---- step 1 (given) --------------------------------------------------------------------
 * Interleaved addressing, divergent branches: each block loads BLOCK values into shared
 * memory, then at distance d = 1, 2, 4, ... thread t adds s[t + d] into s[t] when t is a
 * multiple of 2d. The working threads are scattered over every warp, so every warp runs
 * the branch for a few of its threads, and % by a variable is a slow integer division.
 * Expect it bound by instructions and barriers, far below memory speed. */
__global__ void v1_interleaved_divergent_kernel(int *partial, const int *in, size_t n)
{
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned d = 1; d < blockDim.x; d *= 2) {
        if (t % (2 * d) == 0)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

/* ---- step 2 ------------------------------------------------------------------------------
 * Interleaved addressing, strided index: thread t works on s[2dt], so the working threads
 * are 0, 1, 2, ... and whole warps either work or skip the round. But the 32 threads of a
 * warp now touch words 2d apart: 2d of them share a bank (up to 16-way conflicts), and
 * shared memory serves a conflicting request one bank access at a time. */
__global__ void v2_strided_index_kernel(int *partial, const int *in, size_t n)
{
    //@begin solution
    //@todo TODO(6.2): as step 1, but in the round at distance d thread t adds s[k + d]
    //@todo into s[k] for k = 2*d*t, when k < blockDim.x.
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned d = 1; d < blockDim.x; d *= 2) {
        unsigned k = 2 * d * t;
        if (k < blockDim.x)
            s[k] += s[k + d];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
    //@end solution
}

/* ---- step 3 ------------------------------------------------------------------------------
 * Sequential addressing: the distance starts at half the block and halves; thread t < d
 * adds s[t + d] into s[t]. A warp reads 32 consecutive words: no bank conflicts, no
 * divergence inside a warp. Half the threads still do nothing after loading. */
__global__ void v3_sequential_addressing_kernel(int *partial, const int *in, size_t n)
{
    //@begin solution
    //@todo TODO(6.3): as step 1, but the distance d goes blockDim.x/2, ..., 2, 1 and the
    //@todo threads t < d add s[t + d] into s[t].
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 0; d /= 2) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
    //@end solution
}

/* ---- step 4 ------------------------------------------------------------------------------
 * First add during the load: a block covers 2 x blockDim.x values and each thread adds its
 * two (blockDim.x apart, so both loads stay coalesced) before the tree. No thread idles
 * in the first round and half as many blocks pay for a tree. */
__global__ void v4_first_add_during_load_kernel(int *partial, const int *in, size_t n)
{
    //@begin solution
    //@todo TODO(6.4): block b covers in[2*b*blockDim.x ...], 2*blockDim.x values; thread t
    //@todo stores the sum of its two (t and t + blockDim.x, each only if < n), then the
    //@todo tree of step 3. Launch half as many blocks.
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * 2 * blockDim.x + t;
    int x = i < n ? in[i] : 0;
    if (i + blockDim.x < n)
        x += in[i + blockDim.x];
    s[t] = x;
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 0; d /= 2) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
    //@end solution
}

/* ---- step 5 ------------------------------------------------------------------------------
 * Unroll the last warp: once 32 or fewer threads work, they all sit in warp 0, so the last
 * six rounds need no __syncthreads and no test of t < d. The seed's GPUs ran a warp in
 * lockstep; since Volta the threads of a warp may drift apart, so each round reads into a
 * register, then __syncwarp(), then writes, then __syncwarp() (volatile keeps every read
 * and write in shared memory). Called by all 32 threads of warp 0 once s[0..63] hold the
 * partial sums; returns the block's sum in thread 0. */
__device__ int reduce_last_warp(volatile int *s, unsigned t)
{
    //@begin solution
    //@todo TODO(6.5): the tree's last six rounds (d = 32, 16, ..., 1: thread t adds s[t + d] into
    //@todo s[t]) for the 32 threads of warp 0, with no __syncthreads and no test of t < d (the sums
    //@todo of the lanes past d are never read). The lanes of a warp may drift apart, so in each
    //@todo round every lane must have read before any lane writes, and have written before any lane
    //@todo reads the next round: __syncwarp() orders them. Return thread t's final sum.
    int x = s[t];
#pragma unroll
    for (unsigned d = 32; d > 0; d /= 2) {
        x += s[t + d];
        __syncwarp();
        s[t] = x;
        __syncwarp();
    }
    return x;
    //@student return 0;
    //@end solution
}

__global__ void v5_unroll_last_warp_kernel(int *partial, const int *in, size_t n)
{
    //@begin solution
    //@todo TODO(6.5): step 4, with the tree's loop stopping at d > 32; then warp 0 calls
    //@todo reduce_last_warp and thread 0 writes its result.
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * 2 * blockDim.x + t;
    int x = i < n ? in[i] : 0;
    if (i + blockDim.x < n)
        x += in[i + blockDim.x];
    s[t] = x;
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 32; d /= 2) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t < 32) {
        int total = reduce_last_warp(s, t);
        if (t == 0)
            partial[blockIdx.x] = total;
    }
    //@end solution
}

/* ---- step 6 ------------------------------------------------------------------------------
 * Complete unrolling: BLOCK is a compile-time constant, so the rounds of the tree can be
 * written out: no loop counter, no test of blockDim.x, nothing left but the adds and the
 * barriers. Called by every thread once s[0..BLOCK-1] is written and a __syncthreads() has
 * passed; returns the block's sum in thread 0. */
__device__ int reduce_block_unrolled(int *s, unsigned t)
{
    //@begin solution
    //@todo TODO(6.6): the rounds d = 128 and d = 64 written out (threads t < d add s[t + d],
    //@todo then __syncthreads()), then warp 0 finishes with reduce_last_warp.
    static_assert(BLOCK == 256, "the rounds below are written out for 256 threads");
    if (t < 128)
        s[t] += s[t + 128];
    __syncthreads();
    if (t < 64)
        s[t] += s[t + 64];
    __syncthreads();
    return t < 32 ? reduce_last_warp(s, t) : 0;
    //@student return 0;
    //@end solution
}

__global__ void v6_complete_unroll_kernel(int *partial, const int *in, size_t n)
{
    //@begin solution
    //@todo TODO(6.6): the loads of step 4 (with BLOCK, the constant, for blockDim.x), then
    //@todo reduce_block_unrolled.
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * 2 * BLOCK + t;
    int x = i < n ? in[i] : 0;
    if (i + BLOCK < n)
        x += in[i + BLOCK];
    s[t] = x;
    __syncthreads();
    int total = reduce_block_unrolled(s, t);
    if (t == 0)
        partial[blockIdx.x] = total;
    //@end solution
}

/* ---- step 7 ------------------------------------------------------------------------------
 * Multiple elements per thread: launch only as many blocks as the GPU holds at once; each
 * thread walks the array with a grid-wide stride, adding values into a register, and only
 * then does the block build one tree, paid once per few thousand values instead of once
 * per 512. Each round reads four values BLOCK apart (the seed's kernel reads two): a warp
 * waits for its loads, so four per round keep twice as many bytes in flight. Expect close
 * to memory speed, less what 4-byte loads leave unused. */
__global__ void v7_multiple_elements_kernel(int *partial, const int *in, size_t n)
{
    //@begin solution
    //@todo TODO(6.7): as the comment above says. Block b starts at value b * 4 * BLOCK; in each
    //@todo round a thread adds four values BLOCK apart to a register (a warp's loads stay
    //@todo coalesced, four in flight), and the whole grid moves on by gridDim.x * 4 * BLOCK values.
    //@todo The values left past the last full round are added one at a time, each only if it lies
    //@todo below n. Then the tree of step 6.
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    size_t stride = (size_t)gridDim.x * 4 * BLOCK;
    size_t i = (size_t)blockIdx.x * 4 * BLOCK + t;
    int x = 0;
    for (; i + 3 * BLOCK < n; i += stride)
        x += in[i] + in[i + BLOCK] + in[i + 2 * BLOCK] + in[i + 3 * BLOCK];
    for (; i < n; i += BLOCK)
        x += in[i];
    s[t] = x;
    __syncthreads();
    int total = reduce_block_unrolled(s, t);
    if (t == 0)
        partial[blockIdx.x] = total;
    //@end solution
}

/* ---- beyond the seed: v8 and v9 ------------------------------------------------------------
 * A warp adds its 32 values through registers: five shuffle rounds, no shared memory, no
 * barrier. Returns the warp's sum in lane 0. */
__device__ int warp_sum(int x)
{
    //@begin solution
    //@todo TODO(6.8): the warp's 32 values added through registers in five rounds: in each round
    //@todo every lane adds the value held by the lane `offset` above it, for offset 16, 8, 4, 2, 1,
    //@todo so that lane 0 ends with the sum. A warp shuffle moves a register between lanes (CUDA
    //@todo Programming Guide, "Warp Shuffle Functions"); all 32 lanes take part (FULL_WARP).
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        x += __shfl_down_sync(FULL_WARP, x, offset);
    return x;
    //@student return 0;
    //@end solution
}

/* The block's sum from one value per thread: each warp adds its own, lane 0 of each warp
 * leaves the result in shared memory, warp 0 adds those. Every thread of the block must
 * call it; returns the sum in thread 0. */
__device__ int block_sum(int x)
{
    //@begin solution
    //@todo TODO(6.8): as the comment above says: each warp adds its values with warp_sum; lane 0 of
    //@todo each warp leaves its warp's sum in a shared word of its own (one per warp of the
    //@todo block, at most 32); after a barrier, warp 0 adds those words with warp_sum (a lane with
    //@todo no word adds 0). Blocks of any size that is a multiple of 32.
    __shared__ int warp_sums[32]; /* one per warp: a block holds at most 32 */
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    x = warp_sum(x);
    if (lane == 0)
        warp_sums[warp] = x;
    __syncthreads();
    x = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
    return warp == 0 ? warp_sum(x) : 0;
    //@student return 0;
    //@end solution
}

/* One thread's share of in[0..n-1] when the whole grid walks it in int4 (16-byte) loads:
 * each round a thread issues four independent int4 loads (one grid-width apart) into four
 * accumulators, so 64 bytes per thread are in flight; the n % 4 values past the last int4
 * go to the first threads of the grid. `in` must be 16-byte aligned. `block` is the
 * threads per block (blockDim.x), passed as a constant: read from blockDim.x, it costs the
 * loop registers (see -Xptxas -v), and more registers per thread can mean fewer blocks per SM. */
__device__ int thread_sum_vec4(const int *in, size_t n, int block)
{
    //@begin solution
    //@todo TODO(6.8): as the comment above says: the grid walks the n / 4 int4s of `in`, thread g
    //@todo of the grid starting at int4 g, a grid's threads apart (`block` threads per block).
    //@todo While four int4s remain for it, a thread loads four at once (a grid width apart) into
    //@todo four sums; then the int4s it has left, one at a time; then the n % 4 ints past the last
    //@todo int4 go one each to the grid's first threads. Return the thread's total.
    const int4 *v = reinterpret_cast<const int4 *>(in);
    size_t vectors = n / 4, threads = (size_t)gridDim.x * block;
    size_t g = (size_t)blockIdx.x * block + threadIdx.x, i = g;
    int a = 0, b = 0, c = 0, d = 0;
    for (; i + 3 * threads < vectors; i += 4 * threads) {
        int4 p = v[i], q = v[i + threads], r = v[i + 2 * threads], w = v[i + 3 * threads];
        a += p.x + p.y + p.z + p.w;
        b += q.x + q.y + q.z + q.w;
        c += r.x + r.y + r.z + r.w;
        d += w.x + w.y + w.z + w.w;
    }
    for (; i < vectors; i += threads) {
        int4 p = v[i];
        a += p.x + p.y + p.z + p.w;
    }
    if (vectors * 4 + g < n)
        a += in[vectors * 4 + g];
    return a + b + c + d;
    //@student return 0;
    //@end solution
}

/* v8, warp shuffles and 16-byte loads: a grid that fills the GPU reads the array in int4s
 * with four loads in flight per thread; warps add through shuffles, the block through 8
 * shared words. A second pass (one block) adds the partial sums. Expect the DRAM's speed
 * at large n; at small n the two launches dominate. */
__global__ void v8_warp_shuffle_vec4_kernel(int *partial, const int *in, size_t n)
{
    //@begin solution
    //@todo TODO(6.8): block_sum of thread_sum_vec4; thread 0 writes partial[blockIdx.x].
    int total = block_sum(thread_sum_vec4(in, n, BLOCK));
    if (threadIdx.x == 0)
        partial[blockIdx.x] = total;
    //@end solution
}

/* v9, single pass with a last-block finish: as v8, but each block stores its partial sum,
 * makes it visible to the whole GPU (__threadfence) and takes a ticket (atomicAdd on a
 * counter); the block that draws the last ticket adds all partial sums and writes *sum,
 * then puts the counter back to 0 for the next launch. One launch instead of two.
 * Every thread of the block calls it, with the block's sum in thread 0 (v9 and v10). */
__device__ void finish_in_last_block(int total, int *sum, int *partials, unsigned int *blocks_done)
{
    //@begin solution
    //@todo TODO(6.9): the last-block protocol the comment above describes. Thread 0 stores the
    //@todo block's sum in partials[blockIdx.x], makes it visible to the whole GPU, and only then
    //@todo takes its ticket, an atomic increment of *blocks_done. The whole block must learn
    //@todo whether its ticket was the last one (a shared flag and a barrier). That block adds
    //@todo partials[0 .. gridDim.x-1], read from the L2 (an SM's L1 may hold a stale copy:
    //@todo __ldcg), writes *sum, and sets *blocks_done back to 0 for the next launch.
    __shared__ bool is_last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = total;
        __threadfence();
        unsigned ticket = atomicAdd(blocks_done, 1u);
        __threadfence();
        is_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last)
        return;
    int x = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        x += __ldcg(&partials[b]);
    total = block_sum(x);
    if (threadIdx.x == 0) {
        *sum = total;
        *blocks_done = 0;
    }
    //@end solution
}

__device__ unsigned int v9_blocks_done = 0;

__global__ void v9_single_pass_last_block_kernel(int *sum, const int *in, size_t n, int *partials)
{
    //@begin solution
    //@todo TODO(6.9): finish_in_last_block of the block's sum (block_sum of thread_sum_vec4),
    //@todo counting on v9_blocks_done.
    finish_in_last_block(block_sum(thread_sum_vec4(in, n, BLOCK)), sum, partials, &v9_blocks_done);
    //@end solution
}

/* ---- step 10 --------------------------------------------------------------------------------
 * v10, larger blocks: v9 with V10_BLOCK threads a block instead of BLOCK, and a grid that
 * fills the GPU as before. The grid's threads read the same addresses as v9's (a thread's
 * int4s are still a grid's threads apart), but a block, which runs on one SM, now reads
 * V10_BLOCK x 16 bytes in a row with each load: 16 KiB instead of 4 KiB, as much as one of
 * CUB's blocks reads per tile. */
__device__ unsigned int v10_blocks_done = 0;

__global__ void __launch_bounds__(V10_BLOCK)
    v10_larger_blocks_kernel(int *sum, const int *in, size_t n, int *partials)
{
    //@begin solution
    //@todo TODO(6.10): as v9, with V10_BLOCK for thread_sum_vec4's block size, counting on
    //@todo v10_blocks_done.
    finish_in_last_block(block_sum(thread_sum_vec4(in, n, V10_BLOCK)), sum, partials,
                         &v10_blocks_done);
    //@end solution
}

/* ---- launchers ---------------------------------------------------------------------------- */
static int launch_v1(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    reduce_in_passes(v1_interleaved_divergent_kernel, BLOCK, 0, sum, in, n, scratch, stream);
    return LAB_OK;
}

static int launch_v2(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.2): reduce_in_passes with BLOCK values per block, as launch_v1.
    reduce_in_passes(v2_strided_index_kernel, BLOCK, 0, sum, in, n, scratch, stream);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_v3(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.3): reduce_in_passes with BLOCK values per block.
    reduce_in_passes(v3_sequential_addressing_kernel, BLOCK, 0, sum, in, n, scratch, stream);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_v4(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.4): reduce_in_passes with 2 * BLOCK values per block.
    reduce_in_passes(v4_first_add_during_load_kernel, 2 * BLOCK, 0, sum, in, n, scratch, stream);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_v5(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.5): reduce_in_passes with 2 * BLOCK values per block.
    reduce_in_passes(v5_unroll_last_warp_kernel, 2 * BLOCK, 0, sum, in, n, scratch, stream);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_v6(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.6): reduce_in_passes with 2 * BLOCK values per block.
    reduce_in_passes(v6_complete_unroll_kernel, 2 * BLOCK, 0, sum, in, n, scratch, stream);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_v7(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.7): at most grid_to_fill(kernel, BLOCK) blocks (ask once: keep it in a static),
    //@todo and at least 16 values per thread (16 * BLOCK per block), so that the second pass
    //@todo over the partial sums needs one block.
    static unsigned grid = 0;
    if (!grid)
        grid = grid_to_fill((const void *)v7_multiple_elements_kernel, BLOCK);
    reduce_in_passes(v7_multiple_elements_kernel, 16 * BLOCK, grid, sum, in, n, scratch, stream);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_v8(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.8): as launch_v7, with ELEMENTS_PER_VEC4_BLOCK values per block.
    static unsigned grid = 0;
    if (!grid)
        grid = grid_to_fill((const void *)v8_warp_shuffle_vec4_kernel, BLOCK);
    reduce_in_passes(v8_warp_shuffle_vec4_kernel, ELEMENTS_PER_VEC4_BLOCK, grid, sum, in, n,
                     scratch, stream);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_v9(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.9): one launch of blocks_for(n, ELEMENTS_PER_VEC4_BLOCK, grid) blocks, the
    //@todo partial sums in scratch.
    static unsigned grid = 0;
    if (!grid)
        grid = grid_to_fill((const void *)v9_single_pass_last_block_kernel, BLOCK);
    unsigned blocks = blocks_for(n, ELEMENTS_PER_VEC4_BLOCK, grid);
    v9_single_pass_last_block_kernel<<<blocks, BLOCK, 0, stream>>>(sum, in, n, scratch);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_v10(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(6.10): as launch_v9, with V10_BLOCK threads a block (16 * V10_BLOCK values per
    //@todo block and round; grid_to_fill asked for V10_BLOCK threads).
    static unsigned grid = 0;
    if (!grid)
        grid = grid_to_fill((const void *)v10_larger_blocks_kernel, V10_BLOCK);
    unsigned blocks = blocks_for(n, 16 * V10_BLOCK, grid);
    v10_larger_blocks_kernel<<<blocks, V10_BLOCK, 0, stream>>>(sum, in, n, scratch);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

extern "C" const struct lab6_variant lab6_variants[] = {
    {"v1_interleaved_divergent", "tree in shared memory; thread t works when t % 2d == 0",
     launch_v1},
    {"v2_strided_index", "thread t works on s[2dt]: no divergence, bank conflicts", launch_v2},
    {"v3_sequential_addressing", "thread t < d adds s[t + d]: no bank conflicts", launch_v3},
    {"v4_first_add_during_load", "each thread adds two values while loading", launch_v4},
    {"v5_unroll_last_warp", "the last six rounds in one warp, no __syncthreads", launch_v5},
    {"v6_complete_unroll", "every round written out for the constant block size", launch_v6},
    {"v7_multiple_elements", "a grid that fills the GPU; many values per thread", launch_v7},
    {"v8_warp_shuffle_vec4", "int4 loads, 4 accumulators, warp shuffles, two passes", launch_v8},
    {"v9_single_pass_last_block", "as v8 in one kernel; the last block adds the partials",
     launch_v9},
    {"v10_larger_blocks", "as v9 with 1024-thread blocks: 16 KiB in a row per block and load",
     launch_v10},
};
extern "C" const int lab6_variant_count = sizeof lab6_variants / sizeof lab6_variants[0];
