/* kernels.h - lab 7 (tiled matrix multiply): the contract between kernels.cu and the driver.
 * Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * Every variant computes C = A x B in float32. All three matrices are row-major and dense:
 * A is m x k (element (i, p) at a[i*k + p]), B is k x n, C is m x n; m, n, k >= 1, any
 * values (not multiples of anything). a, b and c come from cudaMalloc (256-byte aligned).
 * A variant must write every element of C exactly as the sum over p of a(i,p) * b(p,j),
 * in float32 in any order, and nothing outside C; A and B must stay unchanged.
 * The variants: the table lab7_variants in kernels.cu.
 *
 * The table entry also tells the driver which __global__ function the variant launches, with
 * how many threads per block and how much dynamic shared memory, so that the driver can print
 * the resource table (registers, shared memory, blocks per SM, occupancy). A launcher that
 * asks for more than 48 KB per block allows its kernel that much first (cudaFuncSetAttribute,
 * cudaFuncAttributeMaxDynamicSharedMemorySize); the driver reads the resources only after a
 * variant's first launch.
 */
#ifndef LAB7_KERNELS_H
#define LAB7_KERNELS_H

#include <cuda_runtime.h>

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the variant's kernel on `stream`; return LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*lab7_launch_fn)(float *c, const float *a, const float *b, int m, int n, int k,
                              cudaStream_t stream);

struct lab7_variant {
    const char *name;
    const char *idea;
    lab7_launch_fn launch;
    const void *kernel; /* the __global__ function the launcher starts, cast to const void * */
    int block_threads;  /* threads per block it starts it with */
    size_t smem_bytes;  /* and bytes of dynamic shared memory per block (0: none) */
    int tile;           /* outputs per block along each side: 0 when untiled */
    int unrolled;       /* 1 when the inner loop is unrolled */
};

extern const struct lab7_variant lab7_variants[];
extern const int lab7_variant_count;

#ifdef __cplusplus
}
#endif

#endif
