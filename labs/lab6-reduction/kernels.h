/* kernels.h - lab 6 (reduction): the contract between kernels.cu and the driver.
 * Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * Every variant sums the n ints in[0..n-1] (n >= 1) and writes the total to *sum.
 * The driver chooses values that keep every partial sum inside an int, and checks:
 *   *sum      equal to a 64-bit CPU sum, exactly;
 *   sum[-64..-1] and sum[1..64]  unchanged (a variant writes exactly one int there);
 *   in        unchanged; only in[0..n-1] may be summed (the words after it hold random
 *             values too, so reading past the end changes the sum);
 *   scratch   lab6_scratch_ints(n) ints the variant may use as it likes (the partial sums
 *             of each pass); they hold garbage on entry (the driver poisons them); the
 *             words after them must stay unchanged.
 * `in` and `scratch` come from cudaMalloc (256-byte aligned): int4 loads from their
 * starts are aligned. One launch is the whole reduction, however many kernels it takes,
 * all queued on `stream`: no synchronisation, allocation or copy to the host inside.
 *
 * The variants, in the seed's order (seed 003: seven steps), then three beyond it: the table
 * lab6_variants in kernels.cu. Steps 1-6 (and 7-8 from their second pass on) reduce again
 * over the partial sums until one value is left: the multi-pass scheme of the seed.
 */
#ifndef LAB6_KERNELS_H
#define LAB6_KERNELS_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch ints the driver provides for a reduction of n values: room for the partial sums
 * of every pass of a scheme whose blocks each take at least 128 values, plus slack. */
static inline size_t lab6_scratch_ints(size_t n)
{
    return n / 64 + 1024;
}

/* Queue the whole reduction on `stream`; return LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*lab6_launch_fn)(int *sum, const int *in, size_t n, int *scratch, cudaStream_t stream);

struct lab6_variant {
    const char *name;
    const char *idea;
    lab6_launch_fn launch;
};

extern const struct lab6_variant lab6_variants[];
extern const int lab6_variant_count;

#ifdef __cplusplus
}
#endif

#endif
