/* kernels.cu - lab 1, coalescing: copies whose access pattern you choose.
//@begin solution
 * MASTER COPY with the solutions (instructors only). `make student-files` turns it into
 * labs/lab1-coalescing/kernels.cu by removing the solution regions.
//@end solution
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
    //@begin solution
    //@todo TODO(1a): thread i copies element i*stride, for every i*stride < n.
    size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * (size_t)stride;
    if (i < n)
        out[i] = in[i];
    //@end solution
}

/* Thread i copies element offset+i: still contiguous, but unless offset is a multiple of
 * 8 floats a warp's 128 bytes straddle five sectors instead of four. */
__global__ void copy_offset_kernel(float *out, const float *in, size_t n, int offset)
{
    //@begin solution
    //@todo TODO(1b): thread i copies element offset+i, for i < n.
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[offset + i] = in[offset + i];
    //@end solution
}

/* One float4 (16 bytes) per thread: a warp moves 512 bytes per instruction, so fewer
 * instructions keep more bytes in flight. The last n % 4 floats are copied one by one. */
__global__ void copy_float4_kernel(float *out, const float *in, size_t n)
{
    //@begin solution
    //@todo TODO(1c): thread i copies float4 number i; threads 0..n%4-1 also copy one of
    //@todo the last n%4 floats. cudaMalloc'd arrays are 256-byte aligned.
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t vectors = n / 4;
    if (i < vectors)
        reinterpret_cast<float4 *>(out)[i] = reinterpret_cast<const float4 *>(in)[i];
    size_t tail = vectors * 4 + i;
    if (tail < n && i < 4)
        out[tail] = in[tail];
    //@end solution
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
    //@begin solution
    //@todo TODO(1a): launch copy_strided_kernel with one thread per copied element.
    size_t copies = (n + stride - 1) / stride;
    copy_strided_kernel<<<blocks_for(copies), BLOCK, 0, stream>>>(out, in, n, stride);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_copy_offset(float *out, const float *in, size_t n, int offset,
                              cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(1b): launch copy_offset_kernel with one thread per element.
    copy_offset_kernel<<<blocks_for(n), BLOCK, 0, stream>>>(out, in, n, offset);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_copy_float4(float *out, const float *in, size_t n, int param, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(1c): launch copy_float4_kernel with one thread per float4 (at least 4 threads).
    (void)param;
    size_t threads = n / 4 > 4 ? n / 4 : 4;
    copy_float4_kernel<<<blocks_for(threads), BLOCK, 0, stream>>>(out, in, n);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

extern "C" const struct lab1_variant lab1_variants[] = {
    {"copy_contiguous", "thread i copies element i (one float each)", launch_copy_contiguous},
    {"copy_strided", "thread i copies element i*stride", launch_copy_strided},
    {"copy_offset", "thread i copies element offset+i", launch_copy_offset},
    {"copy_float4", "thread i copies float4 number i (16 bytes)", launch_copy_float4},
};
extern "C" const int lab1_variant_count = sizeof lab1_variants / sizeof lab1_variants[0];
