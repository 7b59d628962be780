/* kernels.h - lab 1 (coalescing): the contract between kernels.cu and the driver.
 * Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * Every variant copies floats from `in` to `out`. Both arrays hold n + LAB1_MAX_OFFSET
 * elements. What a variant must leave in `out` (nothing else may change):
 *   copy_contiguous   out[i] = in[i] for 0 <= i < n
 *   copy_strided      out[i] = in[i] for i = 0, s, 2s, ... < n    (param = stride s >= 1)
 *   copy_offset       out[i] = in[i] for d <= i < d + n           (param = offset d, 0..32)
 *   copy_float4       out[i] = in[i] for 0 <= i < n, moving 16 bytes per access where it
 *                     can (n need not be a multiple of 4)
 */
#ifndef LAB1_KERNELS_H
#define LAB1_KERNELS_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "lab.h"

#define LAB1_MAX_OFFSET 32

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the variant's kernel on `stream`; return LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*lab1_launch_fn)(float *out, const float *in, size_t n, int param,
                              cudaStream_t stream);

struct lab1_variant {
    const char *name;
    const char *idea;
    lab1_launch_fn launch;
};

extern const struct lab1_variant lab1_variants[];
extern const int lab1_variant_count;

#ifdef __cplusplus
}
#endif

#endif
