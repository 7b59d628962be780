/* kernels.h - lab 10 (constant, read-only and texture memory): the contract between kernels.cu
 * and the driver. Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * Chase variants (the constant experiment). A table of LAB10_TABLE_WORDS 32-bit words holds
 * one cycle through itself: the word at byte offset b holds the byte offset of the next word
 * of the cycle. Thread t (0 <= t < threads) follows LAB10_CHAINS chains, chain c starting at
 * byte offset starts[t*LAB10_CHAINS + c], and after exactly `steps` hops writes where it
 * stands to ends[t*LAB10_CHAINS + c]. Nothing else may change. The driver chooses the starts
 * so that a warp's 32 lanes stand on k distinct words at every hop (k = 1: a broadcast).
 *   chase_constant  the table read from a __constant__ copy (kernels.cu uploads it)
 *   chase_global    read through a plain pointer (LDG, the L1 as the compiler defaults)
 *   chase_readonly  read through the read-only data path (const __restrict__, __ldg)
 *
 * Image variants. `in` is an in_w x in_h image of floats, row-major (pixel (x, y) at
 * y*in_w + x); `tex` holds the same image in a cudaArray, with linear filtering and
 * unnormalised coordinates. Texel (i, j) covers [i, i+1) x [j, j+1): its centre is at
 * (i + 0.5, j + 0.5). Output pixel (ox, oy), 0 <= ox < out_w, 0 <= oy < out_h, takes the
 * bilinear value of the input at the source point lab10_source(map, ox, oy): with
 *     xb = x - 0.5, i = floor(xb), a = xb - i   (and likewise y: j, b)
 *     value = (1-a)(1-b) T(i,j) + a(1-b) T(i+1,j) + (1-a)b T(i,j+1) + ab T(i+1,j+1)
 * where T outside the image is given by the address mode:
 *   zoom_*    clamp: T(i,j) = the texel at (min(max(i,0),w-1), min(max(j,0),h-1))
 *   rotate_*  border: T(i,j) = 0 outside the image
 * Every output pixel is written, nothing else; `in` never changes. The *_texture variants read
 * `tex` (tex2D: the hardware filters, with weights of 8 fractional bits); the *_global ones
 * read `in` and compute the weights in float. The variants: the table lab10_variants in
 * kernels.cu.
 */
#ifndef LAB10_KERNELS_H
#define LAB10_KERNELS_H

#include <cuda_runtime.h>

#include "lab.h"

#define LAB10_TABLE_WORDS 256 /* 1 KiB: inside the 2 KiB first-level constant cache */
#define LAB10_CHAINS 4        /* independent chains a thread: loads in flight */

/* The source point of an output pixel, in texel units: x = x0 + xx*(ox+0.5) + xy*(oy+0.5),
 * y = y0 + yx*(ox+0.5) + yy*(oy+0.5). */
struct lab10_map {
    float x0, xx, xy, y0, yx, yy;
};

struct lab10_args {
    /* chase variants */
    unsigned *ends;
    const unsigned *starts;
    const unsigned *table; /* the table in global memory */
    int threads, steps;
    /* image variants */
    float *out;
    int out_w, out_h;
    const float *in;
    int in_w, in_h;
    cudaTextureObject_t tex;
    struct lab10_map map;
};

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the variant's kernel on `stream`; return LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*lab10_launch_fn)(const struct lab10_args *a, cudaStream_t stream);

struct lab10_variant {
    const char *name;
    const char *idea;
    lab10_launch_fn launch;
};

extern const struct lab10_variant lab10_variants[];
extern const int lab10_variant_count;

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* One hop of a chase: the word at byte offset `at` of a table, read as the caller's pointer
 * type says (a __constant__ array, a plain or a __restrict__ pointer). Byte offsets need no
 * multiply: a hop through constant memory is the one instruction LDC R, c[0x3][R]. */
#define LAB10_HOP(table, at) (*(const unsigned *)((const char *)(table) + (at)))

/* The source point of output pixel (ox, oy) (see struct lab10_map). The fused multiply-adds
 * are spelt out, so that the driver computes the very point a kernel fetched (the texture
 * model is checked against the GPU to the bit). */
__host__ __device__ __forceinline__ float2 lab10_source(const struct lab10_map &m, int ox, int oy)
{
    float xc = ox + 0.5f, yc = oy + 0.5f;
    return make_float2(fmaf(m.xy, yc, fmaf(m.xx, xc, m.x0)), fmaf(m.yy, yc, fmaf(m.yx, xc, m.y0)));
}
#endif

#endif
