/* kernels.cu - lab 3, shared-memory banks: the same reads from different shared layouts.
//@begin solution
 * MASTER COPY with the solutions (instructors only). `make student-files` turns it into
 * labs/lab3-banks/kernels.cu by removing the solution regions.
//@end solution
 *
 * This is the file you edit. Shared memory is 32 banks of 4-byte words; a warp's read is
 * served in one pass when its 32 threads touch different banks (or the same word), and in
 * d passes when d different words sit in one bank. Each kernel loads a tile from global
 * memory once, then reads it many times, so the shared-memory reads decide the time.
 * The exact order of the reads is the contract in kernels.h. The variants: the table at the
 * end of this file.
 * Run: make lab3            (only your file changes between runs)
 *      build/.../lab3 --only struct_aos,struct_soa --quick
 */
#include "kernels.h"

static unsigned blocks_for(size_t n)
{
    return (unsigned)((n + LAB3_BLOCK - 1) / LAB3_BLOCK);
}

__device__ int lane_id(void)
{
    return threadIdx.x % 32;
}
__device__ int warp_id(void)
{
    return threadIdx.x / 32;
}

/* The first word of this block's input tile, for tiles of tile_words 32-bit words. */
__device__ const uint32_t *block_tile(const uint32_t *in, int tile_words)
{
    return in + (size_t)(blockIdx.x % LAB3_INPUT_TILES) * tile_words;
}

/* All threads of the block copy `words` words into shared memory as they are, then wait
 * for each other: no thread may read the tile before every part of it is written. */
__device__ void load_tile(uint32_t *tile, const uint32_t *from, int words)
{
    for (int i = threadIdx.x; i < words; i += LAB3_BLOCK)
        tile[i] = from[i];
    __syncthreads();
}

__device__ void write_result(uint32_t *out, size_t n, uint32_t acc)
{
    size_t g = (size_t)blockIdx.x * LAB3_BLOCK + threadIdx.x;
    if (g < n)
        out[g] = acc;
}

/* Thread t reads 4-byte word lane*stride + warp + j in round j. The warp's 32 words fall
 * into gcd(stride, 32) words per bank: stride 1 (or any odd stride) takes one pass,
 * stride 32 takes 32. Each round reads a new word, so the compiler must issue every load. */
__global__ void stride_4byte_kernel(uint32_t *out, const uint32_t *in, size_t n, int stride)
{
    __shared__ uint32_t tile[LAB3_STRIDE_TILE_WORDS];
    load_tile(tile, block_tile(in, LAB3_STRIDE_TILE_WORDS), LAB3_STRIDE_TILE_WORDS);
    const uint32_t *mine = tile + lane_id() * stride + warp_id();
    uint32_t acc = 0;
#pragma unroll 16
    for (int j = 0; j < LAB3_STRIDE_ROUNDS; j++)
        acc = lab3_mix(acc, mine[j]);
    write_result(out, n, acc);
}

/* 8-byte words: a warp asks for 256 bytes, served 128 bytes (16 threads) at a time, so the
 * best case is two passes; within 16 threads, gcd(stride, 16) words share a bank pair. */
__global__ void stride_8byte_kernel(uint32_t *out, const uint32_t *in, size_t n, int stride)
{
    __shared__ uint2 tile[LAB3_STRIDE_TILE_WORDS];
    load_tile((uint32_t *)tile, block_tile(in, 2 * LAB3_STRIDE_TILE_WORDS),
              2 * LAB3_STRIDE_TILE_WORDS);
    const uint2 *mine = tile + lane_id() * stride + warp_id();
    uint32_t acc = 0;
#pragma unroll 16
    for (int j = 0; j < LAB3_STRIDE_ROUNDS; j++) {
        uint2 v = mine[j];
        acc = lab3_mix(lab3_mix(acc, v.x), v.y);
    }
    write_result(out, n, acc);
}

/* 16-byte words: 512 bytes per warp, served 8 threads at a time, four passes at best;
 * within 8 threads, gcd(stride, 8) words share a group of four banks. */
__global__ void stride_16byte_kernel(uint32_t *out, const uint32_t *in, size_t n, int stride)
{
    __shared__ uint4 tile[LAB3_STRIDE_TILE_WORDS];
    load_tile((uint32_t *)tile, block_tile(in, 4 * LAB3_STRIDE_TILE_WORDS),
              4 * LAB3_STRIDE_TILE_WORDS);
    const uint4 *mine = tile + lane_id() * stride + warp_id();
    uint32_t acc = 0;
#pragma unroll 16
    for (int j = 0; j < LAB3_STRIDE_ROUNDS; j++) {
        uint4 v = mine[j];
        acc = lab3_mix(lab3_mix(lab3_mix(lab3_mix(acc, v.x), v.y), v.z), v.w);
    }
    write_result(out, n, acc);
}

/* Array of structures, as in global memory: field f of struct i is word i*k + f. The warp
 * reads field f of 32 consecutive structs, words k apart: gcd(k, 32) of them per bank, so
 * odd k is free and k = 2, 4, 8 cost 2, 4, 8 passes. The tile is read LAB3_PASSES times;
 * `volatile` makes every pass load again instead of reusing registers. */
__global__ void struct_aos_kernel(uint32_t *out, const uint32_t *in, size_t n, int k)
{
    __shared__ uint32_t tile[LAB3_STRUCTS * (LAB3_K_MAX + 1)];
    load_tile(tile, block_tile(in, LAB3_STRUCTS * k), LAB3_STRUCTS * k);
    const volatile uint32_t *mine = tile + lane_id() * k;
    uint32_t acc = 0;
    for (int p = 0; p < LAB3_PASSES; p++)
        for (int f = 0; f < k; f++)
#pragma unroll
            for (int q = 0; q < 32; q++)
                acc = lab3_mix(acc, mine[q * 32 * k + f]);
    write_result(out, n, acc);
}

/* Structure of arrays: field f of struct i is word f*LAB3_STRUCTS + i. The same reads now
 * touch 32 consecutive words, one per bank, for every k: one pass each. */
__global__ void struct_soa_kernel(uint32_t *out, const uint32_t *in, size_t n, int k)
{
    //@begin solution
    //@todo TODO(3a): copy this block's tile (block_tile(in, LAB3_STRUCTS * k)) into `tile`
    //@todo as one array per field (field f of struct i to word f*LAB3_STRUCTS + i), wait
    //@todo for the whole block, then read it in the order of struct_aos_kernel (passes,
    //@todo fields, then structs lane + 32*q) through a volatile pointer; write_result.
    __shared__ uint32_t tile[LAB3_STRUCTS * LAB3_K_MAX];
    const uint32_t *from = block_tile(in, LAB3_STRUCTS * k);
    for (int i = threadIdx.x; i < LAB3_STRUCTS; i += LAB3_BLOCK)
        for (int f = 0; f < k; f++)
            tile[f * LAB3_STRUCTS + i] = from[i * k + f];
    __syncthreads();
    const volatile uint32_t *mine = tile + lane_id();
    uint32_t acc = 0;
    for (int p = 0; p < LAB3_PASSES; p++)
        for (int f = 0; f < k; f++)
#pragma unroll
            for (int q = 0; q < 32; q++)
                acc = lab3_mix(acc, mine[f * LAB3_STRUCTS + q * 32]);
    write_result(out, n, acc);
    //@end solution
}

/* Padded array of structures: structs stay whole but start (k|1) words apart. An odd
 * distance visits all 32 banks before it repeats one, so the reads take one pass. */
__global__ void struct_padded_kernel(uint32_t *out, const uint32_t *in, size_t n, int k)
{
    //@begin solution
    //@todo TODO(3b): as struct_aos_kernel, but struct i starts at word i*(k|1) of `tile`:
    //@todo copy the tile field by field to its padded place, wait, read in the same order.
    __shared__ uint32_t tile[LAB3_STRUCTS * (LAB3_K_MAX + 1)];
    int padded = k | 1;
    const uint32_t *from = block_tile(in, LAB3_STRUCTS * k);
    for (int i = threadIdx.x; i < LAB3_STRUCTS; i += LAB3_BLOCK)
        for (int f = 0; f < k; f++)
            tile[i * padded + f] = from[i * k + f];
    __syncthreads();
    const volatile uint32_t *mine = tile + lane_id() * padded;
    uint32_t acc = 0;
    for (int p = 0; p < LAB3_PASSES; p++)
        for (int f = 0; f < k; f++)
#pragma unroll
            for (int q = 0; q < 32; q++)
                acc = lab3_mix(acc, mine[q * 32 * padded + f]);
    write_result(out, n, acc);
    //@end solution
}

/* A warp reads row 32w + c of the tile: 32 consecutive words, one pass. The reference
 * point for the two column readers below. */
__global__ void tile_rows_kernel(uint32_t *out, const uint32_t *in, size_t n, int param)
{
    __shared__ uint32_t tile[LAB3_TILE_ROWS][LAB3_TILE_COLS];
    load_tile(&tile[0][0], block_tile(in, LAB3_TILE_ROWS * LAB3_TILE_COLS),
              LAB3_TILE_ROWS * LAB3_TILE_COLS);
    const volatile uint32_t *mine = &tile[warp_id() * 32][lane_id()];
    uint32_t acc = 0;
    for (int p = 0; p < LAB3_PASSES; p++)
#pragma unroll
        for (int c = 0; c < 32; c++)
            acc = lab3_mix(acc, mine[c * LAB3_TILE_COLS]);
    write_result(out, n, acc);
}

/* A warp reads column c: 32 words a whole row (32 words) apart, all in bank c, so the
 * read takes 32 passes. This is what a transpose through shared memory does. */
__global__ void tile_columns_kernel(uint32_t *out, const uint32_t *in, size_t n, int param)
{
    __shared__ uint32_t tile[LAB3_TILE_ROWS][LAB3_TILE_COLS];
    load_tile(&tile[0][0], block_tile(in, LAB3_TILE_ROWS * LAB3_TILE_COLS),
              LAB3_TILE_ROWS * LAB3_TILE_COLS);
    const volatile uint32_t *mine = tile[warp_id() * 32 + lane_id()];
    uint32_t acc = 0;
    for (int p = 0; p < LAB3_PASSES; p++)
#pragma unroll
        for (int c = 0; c < 32; c++)
            acc = lab3_mix(acc, mine[c]);
    write_result(out, n, acc);
}

/* One unused word at the end of each row puts consecutive rows one bank apart, so a
 * column touches 32 different banks: one pass, for 3% more shared memory. */
__global__ void tile_columns_padded_kernel(uint32_t *out, const uint32_t *in, size_t n, int param)
{
    //@begin solution
    //@todo TODO(3c): as tile_columns_kernel with a tile of LAB3_TILE_COLS + 1 words per
    //@todo row: copy input word i to row i / 32, column i % 32, wait, read the same way.
    __shared__ uint32_t tile[LAB3_TILE_ROWS][LAB3_TILE_COLS + 1];
    const uint32_t *from = block_tile(in, LAB3_TILE_ROWS * LAB3_TILE_COLS);
    for (int i = threadIdx.x; i < LAB3_TILE_ROWS * LAB3_TILE_COLS; i += LAB3_BLOCK)
        tile[i / LAB3_TILE_COLS][i % LAB3_TILE_COLS] = from[i];
    __syncthreads();
    const volatile uint32_t *mine = tile[warp_id() * 32 + lane_id()];
    uint32_t acc = 0;
    for (int p = 0; p < LAB3_PASSES; p++)
#pragma unroll
        for (int c = 0; c < 32; c++)
            acc = lab3_mix(acc, mine[c]);
    write_result(out, n, acc);
    //@end solution
}

/* Histograms. Every bin starts from zero on every launch: the launchers clear it first. */
__global__ void clear_histogram_kernel(uint32_t *hist, int bins)
{
    for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < bins; b += gridDim.x * blockDim.x)
        hist[b] = 0;
}

static void clear_histogram(uint32_t *hist, int bins, cudaStream_t stream)
{
    clear_histogram_kernel<<<(bins + LAB3_BLOCK - 1) / LAB3_BLOCK, LAB3_BLOCK, 0, stream>>>(hist,
                                                                                            bins);
}

/* One thread per sample, one atomic add per sample, straight into the histogram in global
 * memory: the L2 performs every add. Uniform samples over many bins spread the adds over
 * many addresses; a hot bin makes most of them queue at one address, one after another. */
__global__ void hist_global_atomics_kernel(uint32_t *hist, const uint32_t *in, size_t n, int bins)
{
    const int *samples = (const int *)in;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&hist[lab3_bin(samples[i], bins)], 1u);
}

//@begin solution
/* The solution's block size: 1024 threads, so at most two blocks per SM and fewer block
 * histograms to merge than with smaller blocks. */
#define PRIVATISED_THREADS 1024

//@end solution
/* A histogram per block in shared memory: the block's adds stay in its SM, where an add
 * to a shared word costs a few clocks instead of a trip to the L2, and a hot bin queues
 * only the threads of one block instead of the whole GPU. At the end each block adds its
 * counts into the global histogram: `bins` global adds per block, so the grid is sized to
 * fill the GPU once, not one thread per sample. */
__global__ void hist_shared_privatised_kernel(uint32_t *hist, const uint32_t *in, size_t n,
                                              int bins)
{
    //@begin solution
    //@todo TODO(3d): count this block's share of the samples into a histogram of its own in
    //@todo shared memory, then add it into `hist`. Why: an atomic add to a shared word stays
    //@todo in the SM, and a hot bin then queues one block's threads, not every thread of
    //@todo the GPU. A grid-stride loop lets a grid that only fills the GPU once cover any
    //@todo n. The shared counts must be zero before any thread adds to them, and complete
    //@todo before any thread merges them.
    extern __shared__ uint32_t block_counts[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        block_counts[b] = 0;
    __syncthreads();

    const int *samples = (const int *)in;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t quads = n / 4; /* read four samples at a time, then the last n % 4 one by one */
    for (size_t q = first; q < quads; q += stride) {
        int4 four = ((const int4 *)samples)[q];
        atomicAdd(&block_counts[lab3_bin(four.x, bins)], 1u);
        atomicAdd(&block_counts[lab3_bin(four.y, bins)], 1u);
        atomicAdd(&block_counts[lab3_bin(four.z, bins)], 1u);
        atomicAdd(&block_counts[lab3_bin(four.w, bins)], 1u);
    }
    for (size_t i = 4 * quads + first; i < n; i += stride)
        atomicAdd(&block_counts[lab3_bin(samples[i], bins)], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (block_counts[b])
            atomicAdd(&hist[b], block_counts[b]);
    //@end solution
}

/* The given kernels' launchers, all alike: ceil(n / LAB3_BLOCK) blocks of LAB3_BLOCK. */
#define GIVEN_LAUNCHER(name)                                                                       \
    static int launch_##name(uint32_t *out, const uint32_t *in, size_t n, int param,               \
                             cudaStream_t stream)                                                  \
    {                                                                                              \
        name##_kernel<<<blocks_for(n), LAB3_BLOCK, 0, stream>>>(out, in, n, param);                \
        return LAB_OK;                                                                             \
    }
GIVEN_LAUNCHER(stride_4byte)
GIVEN_LAUNCHER(stride_8byte)
GIVEN_LAUNCHER(stride_16byte)
GIVEN_LAUNCHER(struct_aos)
GIVEN_LAUNCHER(tile_rows)
GIVEN_LAUNCHER(tile_columns)

static int launch_struct_soa(uint32_t *out, const uint32_t *in, size_t n, int k,
                             cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(3a): launch struct_soa_kernel with blocks_for(n) blocks of LAB3_BLOCK threads.
    struct_soa_kernel<<<blocks_for(n), LAB3_BLOCK, 0, stream>>>(out, in, n, k);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_struct_padded(uint32_t *out, const uint32_t *in, size_t n, int k,
                                cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(3b): launch struct_padded_kernel like struct_soa.
    struct_padded_kernel<<<blocks_for(n), LAB3_BLOCK, 0, stream>>>(out, in, n, k);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_tile_columns_padded(uint32_t *out, const uint32_t *in, size_t n, int param,
                                      cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(3c): launch tile_columns_padded_kernel like tile_columns.
    tile_columns_padded_kernel<<<blocks_for(n), LAB3_BLOCK, 0, stream>>>(out, in, n, param);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_hist_global_atomics(uint32_t *out, const uint32_t *in, size_t n, int bins,
                                      cudaStream_t stream)
{
    clear_histogram(out, bins, stream);
    if (n > 0)
        hist_global_atomics_kernel<<<blocks_for(n), LAB3_BLOCK, 0, stream>>>(out, in, n, bins);
    return LAB_OK;
}

static int launch_hist_shared_privatised(uint32_t *out, const uint32_t *in, size_t n, int bins,
                                         cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(3d): clear `out` (clear_histogram), then launch hist_shared_privatised_kernel
    //@todo with a grid that fills the GPU once (the SM count times the blocks that fit on
    //@todo an SM: cudaDeviceGetAttribute, cudaOccupancyMaxActiveBlocksPerMultiprocessor) and
    //@todo the shared memory its histogram needs (over 48 KiB only after cudaFuncSetAttribute).
    int device, sms, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    size_t smem = (size_t)bins * sizeof(uint32_t);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hist_shared_privatised_kernel,
                                                  PRIVATISED_THREADS, smem);
    size_t blocks = (size_t)sms * (per_sm > 0 ? per_sm : 1);
    size_t needed = (n / 4 + PRIVATISED_THREADS - 1) / PRIVATISED_THREADS;
    if (blocks > needed)
        blocks = needed > 0 ? needed : 1;
    clear_histogram(out, bins, stream);
    hist_shared_privatised_kernel<<<(unsigned)blocks, PRIVATISED_THREADS, smem, stream>>>(out, in,
                                                                                          n, bins);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

extern "C" const struct lab3_variant lab3_variants[] = {
    {"stride_4byte", "thread t reads 4-byte word t*stride", launch_stride_4byte},
    {"stride_8byte", "thread t reads 8-byte word t*stride", launch_stride_8byte},
    {"stride_16byte", "thread t reads 16-byte word t*stride", launch_stride_16byte},
    {"struct_aos", "field f of consecutive structs, structs stored whole (k words)",
     launch_struct_aos},
    {"struct_soa", "the same reads from one array per field", launch_struct_soa},
    {"struct_padded", "structs stored whole, k rounded up to odd", launch_struct_padded},
    {"tile_rows", "a warp reads a row of a 32-word-wide tile", launch_tile_rows},
    {"tile_columns", "a warp reads a column of it (the transpose pattern)", launch_tile_columns},
    {"tile_columns_padded", "a column of a tile whose rows are 33 words apart",
     launch_tile_columns_padded},
    {"hist_global_atomics", "every sample's atomic add goes to the histogram in global memory",
     launch_hist_global_atomics},
    {"hist_shared_privatised", "a histogram per block in shared memory, merged at the end",
     launch_hist_shared_privatised},
};
extern "C" const int lab3_variant_count = sizeof lab3_variants / sizeof lab3_variants[0];
