/* kernels.cu - lab 2, throughput: how many bytes must be in flight to fill the memory bus.
 *
 * This is the file you edit. Every variant adds 1 to each float of an array several times
 * the L2 size, with exactly `threads` threads walking it in a grid-stride loop. The driver
 * (driver.cu) sweeps `threads` from one warp to several times what the GPU holds at once,
 * checks the array against the CPU, then times it. The variants: the table at the end of
 * this file.
 * Each loop keeps `#pragma unroll 1`: a thread has one iteration's loads in flight, so
 * bytes in flight = threads x loads x word bytes (kernels.h has the exact contract).
 * Run: make lab2            (only your file changes between runs)
 *      build/.../lab2 --only rmw_float2 --quick
 */
#include "kernels.h"

/* One float per thread per iteration. The load must come back from DRAM before the add
 * and the store, and the next load waits for this iteration: each thread keeps 4 bytes in
 * flight, so bandwidth grows with the thread count until about ceiling x latency bytes are
 * in flight (Little's law). Bottleneck: latency, until the bus is full. */
__global__ void rmw_float_kernel(float *x, size_t n)
{
    size_t threads = (size_t)gridDim.x * blockDim.x;
#pragma unroll 1
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += threads)
        x[i] += 1.0f;
}

/* One float2 per thread per iteration: twice the bytes in flight for the same threads,
 * so the bus fills with half as many threads. */
__global__ void rmw_float2_kernel(float *x, size_t n)
{
    // TODO(2a): the loop of rmw_float_kernel over the n/2 float2 of x (keep
    // `#pragma unroll 1`); then, if n is odd, thread 0 adds 1 to x[n-1].
}

/* One float4 per thread per iteration: 16 bytes in flight per thread, four times
 * rmw_float, so a quarter of the threads should fill the bus. */
__global__ void rmw_float4_kernel(float *x, size_t n)
{
    // TODO(2b): the loop over the n/4 float4 of x (keep `#pragma unroll 1`); then
    // threads 0 .. n%4-1 add 1 to one of the last n%4 floats each.
}

/* Floats again, but each iteration first issues `loads` independent loads (elements
 * base+g, base+g+threads, ...), then adds and stores them: loads x 4 bytes in flight per
 * thread. If bytes in flight set the bandwidth, loads = 4 matches rmw_float4. */
__global__ void rmw_float_ilp_kernel(float *x, size_t n, int loads)
{
    // TODO(2c): as the comment above says: each iteration issues all of its `loads` loads
    // (floats threads apart, none at or past n) before it adds 1 to any and stores them, so
    // that `loads` loads are in flight at once; the next iteration starts loads x threads
    // further on. Keep `#pragma unroll 1` on that loop. The values must stay in registers: a
    // local array lives in registers only when every index into it is a constant once the
    // loops over it are unrolled (LAB2_MAX_LOADS bounds `loads`).
}

static int launch_rmw_float(float *x, size_t n, long long threads, int loads, cudaStream_t stream)
{
    (void)loads;
    unsigned block = lab2_block_threads(threads);
    rmw_float_kernel<<<(unsigned)(threads / block), block, 0, stream>>>(x, n);
    return LAB_OK;
}

static int launch_rmw_float2(float *x, size_t n, long long threads, int loads, cudaStream_t stream)
{
    // TODO(2a): launch rmw_float2_kernel with `threads` threads, shaped like rmw_float.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_rmw_float4(float *x, size_t n, long long threads, int loads, cudaStream_t stream)
{
    // TODO(2b): launch rmw_float4_kernel with `threads` threads, shaped like rmw_float.
    return LAB_NOT_IMPLEMENTED;
}

static int launch_rmw_float_ilp(float *x, size_t n, long long threads, int loads,
                                cudaStream_t stream)
{
    // TODO(2c): launch rmw_float_ilp_kernel with `threads` threads, shaped like rmw_float.
    return LAB_NOT_IMPLEMENTED;
}

extern "C" const struct lab2_variant lab2_variants[] = {
    {"rmw_float", "x[i] += 1, one float (4 bytes) per thread per iteration", launch_rmw_float,
     (const void *)rmw_float_kernel, 4},
    {"rmw_float2", "the same, one float2 (8 bytes) per thread per iteration", launch_rmw_float2,
     (const void *)rmw_float2_kernel, 8},
    {"rmw_float4", "the same, one float4 (16 bytes) per thread per iteration", launch_rmw_float4,
     (const void *)rmw_float4_kernel, 16},
    {"rmw_float_ilp", "floats, `loads` independent loads in flight per thread",
     launch_rmw_float_ilp, (const void *)rmw_float_ilp_kernel, 4},
};
extern "C" const int lab2_variant_count = sizeof lab2_variants / sizeof lab2_variants[0];
