/* kernels.h - lab 4 (the L1 cache on and off): the contract between kernels.cu and the driver.
 * Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * kernels.cu is compiled TWICE into one program: once with `-Xptxas -dlcm=ca` (global loads
 * cached in L1) and once with `-Xptxas -dlcm=cg` (global loads cached in L2 only). Each copy's
 * variant table gets its own name (below), so the driver runs both side by side. Hence:
 *   - everything in kernels.cu is `static` (kernels, helpers, launchers): two copies of a
 *     name with external linkage would not link;
 *   - the kernels read global memory through plain pointers. A load through
 *     `const T *__restrict__`, `__ldg()` or a cache-hint intrinsic takes the read-only path
 *     (LDG.E.CONSTANT on sm_90) or its own cache operator and ignores -dlcm: the two builds
 *     would then measure the same thing. No shared memory either: the L1 is what is measured.
 *
 * Every variant receives one struct lab4_args; what it must leave behind (nothing else may
 * change, `in` and `links` are never written):
 *   copy_stream   out[i] = in[i] for 0 <= i < n                                    (given)
 *   stencil_1d    out[i] = in[i-r] + ... + in[i+r], the terms with 0 <= j < n only,
 *                 r = radius (1..LAB4_MAX_RADIUS); one thread per output, every term read
 *                 from global memory (neighbouring threads share 2r of their 2r+1 loads)
 *   chase         ONE warp (a launch of one block of LAB4_CHASE_LANES threads): every lane
 *                 starts at word index `start` of `links`, follows `hops` links (j = links[j])
 *                 and writes where it ended to ends[lane]. hops may be 0; every index the
 *                 chain holds is inside the buffer.
 * n may be any size from 1 up (odd, prime, smaller than a block); `out` and `in` are
 * 256-byte aligned.
 */
#ifndef LAB4_KERNELS_H
#define LAB4_KERNELS_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "lab.h"

#define LAB4_BLOCK 256
#define LAB4_MAX_RADIUS 8
#define LAB4_CHASE_LANES 32

/* The Makefile compiles kernels.cu with -DLAB4_BUILD_CA or -DLAB4_BUILD_CG (see the lab's lab.mk):
 * the table kernels.cu defines as lab4_variants becomes lab4_variants_ca or _cg. */
#if defined(LAB4_BUILD_CA)
#define lab4_variants lab4_variants_ca
#define lab4_variant_count lab4_variant_count_ca
#elif defined(LAB4_BUILD_CG)
#define lab4_variants lab4_variants_cg
#define lab4_variant_count lab4_variant_count_cg
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct lab4_args {
    float *out, *in; /* copy_stream, stencil_1d: n floats each */
    size_t n;
    int radius;      /* stencil_1d */
    unsigned *links; /* chase: the chain, word indices (common/probes/chase.h) */
    unsigned start;  /* chase: the word index to start from */
    long long hops;  /* chase: links to follow */
    unsigned *ends;  /* chase: LAB4_CHASE_LANES words, one per lane */
};

/* Launch the variant's kernel on `stream`; return LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*lab4_launch_fn)(const struct lab4_args *a, cudaStream_t stream);

struct lab4_variant {
    const char *name;
    const char *idea;
    lab4_launch_fn launch;
    const void *kernel; /* the __global__ function: the driver sets its L1/shared split */
};

extern const struct lab4_variant lab4_variants_ca[], lab4_variants_cg[];
extern const int lab4_variant_count_ca, lab4_variant_count_cg;
#if defined(LAB4_BUILD_CA) || defined(LAB4_BUILD_CG)
extern const struct lab4_variant lab4_variants[];
extern const int lab4_variant_count;
#endif

#ifdef __cplusplus
}
#endif

#endif
