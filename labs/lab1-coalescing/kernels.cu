/* kernels.cu - lab 1, coalescing: copies whose access pattern you choose.
 *
 * This is the file you edit. The driver (driver.cu) fills `in` with random floats, runs
 * each variant below, checks `out` against the CPU, then times it. The variants: the table at
 * the end of this file.
 * Run: make lab1            (only your file changes between runs)
 *      build/.../lab1 --only copy_strided --quick
 */
#include "kernels.h"

#define BLOCK 256

static unsigned blocks_for(size_t threads)
{
    return (unsigned)((threads + BLOCK - 1) / BLOCK);
}

/* One float per thread, consecutive threads on consecutive addresses: each warp's 32
 * loads fall in one 128-byte line (four 32-byte sectors), the best case. */
__global__ void copy_contiguous_kernel(float *out, const float *in, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* Thread i copies element i*stride. Once stride*4 bytes reaches 32, every thread of a warp
 * touches a sector of its own: the memory system moves 32 bytes for each 4 used. */
__global__ void copy_strided_kernel(float *out, const float *in, size_t n, int stride)
{
    // TODO(1a): thread i copies element i*stride, for every i*stride < n.
}

/* Thread i copies element offset+i: still contiguous, but unless offset is a multiple of
 * 8 floats a warp's 128 bytes straddle five sectors instead of four. */
__global__ void copy_offset_kernel(float *out, const float *in, size_t n, int offset)
{
    // TODO(1b): thread i copies element offset+i, for i < n.
}

/* One float4 (16 bytes) per thread: a warp moves 512 bytes per instruction, so fewer
 * instructions keep more bytes in flight. The last n % 4 floats are copied one by one. */
__global__ void copy_float4_kernel(float *out, const float *in, size_t n)
{
    // TODO(1c): thread i copies float4 number i; threads 0..n%4-1 also copy one of
    // the last n%4 floats. cudaMalloc'd arrays are 256-byte aligned.
}

static int launch_copy_contiguous(float *out, const float *in, size_t n, int param,
                                  cudaStream_t stream)
{
    (void)param;
    copy_contiguous_kernel<<<blocks_for(n), BLOCK, 0, stream>>>(out, in, n);
    return LAB_OK;
}

static int launch_copy_strided(float *out, const float *in, size_t n, int stride,
                               cudaStream_t stream)
{
    // TODO(1a): launch copy_strided_kernel with one thread per copied element.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_copy_offset(float *out, const float *in, size_t n, int offset,
                              cudaStream_t stream)
{
    // TODO(1b): launch copy_offset_kernel with one thread per element.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_copy_float4(float *out, const float *in, size_t n, int param, cudaStream_t stream)
{
    // TODO(1c): launch copy_float4_kernel with one thread per float4 (at least 4 threads).
    return LAB_NOT_IMPLEMENTED;
}

extern "C" const struct lab1_variant lab1_variants[] = {
    {"copy_contiguous", "thread i copies element i (one float each)", launch_copy_contiguous},
    {"copy_strided", "thread i copies element i*stride", launch_copy_strided},
    {"copy_offset", "thread i copies element offset+i", launch_copy_offset},
    {"copy_float4", "thread i copies float4 number i (16 bytes)", launch_copy_float4},
};
extern "C" const int lab1_variant_count = sizeof lab1_variants / sizeof lab1_variants[0];
