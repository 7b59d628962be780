/* kernels.h - lab 2 (throughput): the contract between kernels.cu and the driver.
 * Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * Every variant adds 1.0f to each float x[i], 0 <= i < n, exactly once per launch, and
 * changes nothing else. It runs exactly `threads` threads in total (a multiple of 32, at
 * least 32), launched as threads / lab2_block_threads(threads) blocks of
 * lab2_block_threads(threads) threads, and walks the array with a grid-stride loop.
 * x is 256-byte aligned; n is any size from 1 up (n may be smaller than threads).
 *   rmw_float      each thread reads, adds and writes one float (4 bytes) per iteration
 *   rmw_float2     the same with one float2 (8 bytes) per iteration; when n is odd,
 *                  thread 0 also does the last float
 *   rmw_float4     the same with one float4 (16 bytes) per iteration; the last n % 4
 *                  floats are done one each by threads 0 .. n%4-1
 *   rmw_float_ilp  floats again, but each thread first loads `loads` floats (loads = 1..8,
 *                  elements base+g, base+g+threads, ... for thread g), then adds and
 *                  stores them: `loads` independent loads in flight per thread
 * In every variant a thread has one iteration's loads in flight at a time: the loop over
 * iterations is not unrolled (#pragma unroll 1), so the bytes in flight are
 * threads x loads x word bytes, which is what the lab measures.
 */
#ifndef LAB2_KERNELS_H
#define LAB2_KERNELS_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "lab.h"

#define LAB2_BLOCK 256 /* threads per block, or fewer where `threads` needs it */
#define LAB2_MAX_LOADS 8

/* Threads per block for `threads` threads in total (a multiple of 32): the largest power
 * of two that divides it, at most LAB2_BLOCK. 32 -> 32, 96 -> 32, 384 -> 128, 768 -> 256. */
static inline unsigned lab2_block_threads(long long threads)
{
    long long lowest_bit = threads & -threads;
    return (unsigned)(lowest_bit < LAB2_BLOCK ? lowest_bit : LAB2_BLOCK);
}

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the variant's kernel on `stream`; return LAB_OK or LAB_NOT_IMPLEMENTED.
 * `loads` is used by rmw_float_ilp only (the others ignore it). */
typedef int (*lab2_launch_fn)(float *x, size_t n, long long threads, int loads,
                              cudaStream_t stream);

struct lab2_variant {
    const char *name;
    const char *idea;
    lab2_launch_fn launch;
    const void *kernel; /* the __global__ function, for the occupancy API */
    int word_bytes;     /* bytes one load moves */
};

extern const struct lab2_variant lab2_variants[];
extern const int lab2_variant_count;

#ifdef __cplusplus
}
#endif

#endif
