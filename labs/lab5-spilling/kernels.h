/* kernels.h - lab 5 (registers and spilling): the contract between kernels.cu and the driver.
 * Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * Every variant advances the acoustic wave equation one time step on a grid of nx*ny*nz
 * floats stored x fastest (point (x, y, z) is at index (z*ny + y)*nx + x), with the seed's
 * 8th-order stencil (radius LAB5_R = 4, 25 points). For every interior point
 * (R <= x < nx-R, R <= y < ny-R, R <= z < nz-R) it writes
 *     next = 2*cur - prev + vsq * lap,
 *     lap  = LAB5_C0*cur(x,y,z) + sum over k = 1..4 of LAB5_Ck * (cur at the six points k
 *            away along x, y and z),
 * summed in any order. Boundary points are never written (the driver poisons `next` and
 * checks that they stay poisoned); cur, prev and vsq never change. A grid without interior
 * points launches nothing. nx*ny*nz < 2^31, so int indices are safe.
 *
 * Variants (the table lab5_variants in kernels.cu): blocks of LAB5_BLOCK_X x LAB5_BLOCK_Y
 * threads; one thread per interior (x, y) column, walking a chunk of LAB5_Z_CHUNK planes.
 *
 * Register caps. kernels.cu writes each variant ONCE, as a __device__ function
 *     __device__ __forceinline__ void NAME(const struct lab5_grid &g)
 * and then writes LAB5_KERNELS(NAME). That line compiles the body as one kernel per cap:
 *     NAME_cap24 ... NAME_cap128   __maxnreg__(cap): ptxas may use at most `cap` registers a
 *                                  thread and puts what does not fit in local memory (spills)
 *     NAME_capnone                 no cap: the compiler's own choice
 *     NAME_smem24, NAME_smem32     capped at 24 and 32, with the CUDA 13 pragma
 *                                  "enable_smem_spilling": ptxas spills to shared memory
 *                                  first, local memory after (see LAB5_SMEM_ below)
 * and two helpers the launcher and the driver use:
 *     NAME_at(cap, smem_spill, blocks, threads, g, stream)  launch the kernel of that cap
 *     NAME_kernel(cap, smem_spill)                          its address (driver: resources)
 * cap is one of LAB5_CAP_VALUES (0: none); smem_spill 1 only with caps 24 and 32.
 * The compiler's report of every kernel (registers, stack frame, spill stores and loads)
 * is parsed at build time into a table the driver prints (labs/lab5-spilling/lab.mk).
 */
#ifndef LAB5_KERNELS_H
#define LAB5_KERNELS_H

#include <cuda_runtime.h>

#include "lab.h"

#define LAB5_R 4
#define LAB5_BLOCK_X 32
#define LAB5_BLOCK_Y 16
#define LAB5_Z_CHUNK 64

/* The 8th-order second derivative (centre, then distance 1..4); the 3D Laplacian uses it
 * along every axis, so its centre weight is 3 x -205/72. */
#define LAB5_C0 (-8.541666666666666f)
#define LAB5_C1 (1.6f)
#define LAB5_C2 (-0.2f)
#define LAB5_C3 (0.025396825396825397f)
#define LAB5_C4 (-0.0017857142857142857f)

/* The caps every variant is compiled at (and 0: none), in the sweep's order. */
#define LAB5_CAP_COUNT 8
#define LAB5_CAP_VALUES                                                                            \
    {                                                                                              \
        24, 32, 40, 48, 64, 96, 128, 0                                                             \
    }

struct lab5_grid {
    float *next;
    const float *cur, *prev, *vsq;
    int nx, ny, nz;
};

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the variant at register cap `cap` (0: none), spilling to shared memory when
 * smem_spill is 1, on `stream`; return LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*lab5_launch_fn)(const struct lab5_grid *g, int cap, int smem_spill,
                              cudaStream_t stream);
/* The __global__ function the variant launches at that cap, or NULL if there is none. */
typedef const void *(*lab5_kernel_fn)(int cap, int smem_spill);

struct lab5_variant {
    const char *name;
    const char *idea;
    lab5_launch_fn launch;
    lab5_kernel_fn kernel_of;
    int block_threads; /* threads per block, for the occupancy API */
    int chosen_cap;    /* task 5c: the cap you would ship (one of LAB5_CAP_VALUES; 0: none) */
};

extern const struct lab5_variant lab5_variants[];
extern const int lab5_variant_count;

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* The interior planes [first, end) of this block's chunk. */
__device__ __forceinline__ int lab5_chunk_first(void)
{
    return blockIdx.z * LAB5_Z_CHUNK + LAB5_R;
}

__device__ __forceinline__ int lab5_chunk_end(int nz)
{
    return min(lab5_chunk_first() + LAB5_Z_CHUNK, nz - LAB5_R);
}

/* Blocks for a launch: the interior of a plane in LAB5_BLOCK_X x LAB5_BLOCK_Y tiles, and
 * its planes in chunks. false (launch nothing) when the grid has no interior point. */
static inline bool lab5_blocks(dim3 *blocks, const struct lab5_grid *g)
{
    int r = LAB5_R;
    if (g->nx <= 2 * r || g->ny <= 2 * r || g->nz <= 2 * r)
        return false;
    *blocks = dim3((g->nx - 2 * r + LAB5_BLOCK_X - 1) / LAB5_BLOCK_X,
                   (g->ny - 2 * r + LAB5_BLOCK_Y - 1) / LAB5_BLOCK_Y,
                   (g->nz - 2 * r + LAB5_Z_CHUNK - 1) / LAB5_Z_CHUNK);
    return true;
}

/* ---- LAB5_KERNELS(NAME): one kernel per cap from one body (see the top of this file) ---- */

/* Spilling to shared memory: the pragma comes first in the kernel, and ptxas sizes the
 * shared spill area for the largest block the kernel may be launched with. smem32 asks for
 * 32 registers as NVIDIA's note on the pragma advises, with launch bounds (512 threads, 4
 * blocks: 65536 / 2048 = 32 registers), so the area is sized for the block's 512 threads.
 * GPUs that hold fewer than 2048 threads an SM (sm_75, 86, 87, 89) cannot run 4 such blocks:
 * there smem32 is __maxnreg__(32). smem24 can only be __maxnreg__(24) (no block count makes
 * launch bounds ask for 24), so its area is sized for 1024 threads, within the 48 KiB of
 * static shared memory a block may have: what does not fit still goes to local memory. */
#define LAB5_SMEM_SPILLING_ asm volatile(".pragma \"enable_smem_spilling\";")
#if defined(__CUDA_ARCH__) &&                                                                      \
    (__CUDA_ARCH__ == 750 || __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
#define LAB5_SMEM32_REGS_ __maxnreg__(32)
#else
#define LAB5_SMEM32_REGS_ __launch_bounds__(LAB5_BLOCK_X *LAB5_BLOCK_Y, 4)
#endif

#define LAB5_CAPPED_(name, n)                                                                      \
    __global__ void __maxnreg__(n) name##_cap##n(struct lab5_grid g)                               \
    {                                                                                              \
        name(g);                                                                                   \
    }
#define LAB5_SMEM_(name, n, regs)                                                                  \
    __global__ void regs name##_smem##n(struct lab5_grid g)                                        \
    {                                                                                              \
        LAB5_SMEM_SPILLING_;                                                                       \
        name(g);                                                                                   \
    }
#define LAB5_KERNEL_CASE_(name, n)                                                                 \
    case n:                                                                                        \
        return (const void *)name##_cap##n;
#define LAB5_LAUNCH_CASE_(name, n, kind)                                                           \
    case n:                                                                                        \
        name##_##kind##n<<<blocks, threads, 0, stream>>>(g);                                       \
        return LAB_OK;

#define LAB5_KERNELS(name)                                                                         \
    LAB5_CAPPED_(name, 24)                                                                         \
    LAB5_CAPPED_(name, 32)                                                                         \
    LAB5_CAPPED_(name, 40)                                                                         \
    LAB5_CAPPED_(name, 48)                                                                         \
    LAB5_CAPPED_(name, 64)                                                                         \
    LAB5_CAPPED_(name, 96)                                                                         \
    LAB5_CAPPED_(name, 128)                                                                        \
    __global__ void name##_capnone(struct lab5_grid g)                                             \
    {                                                                                              \
        name(g);                                                                                   \
    }                                                                                              \
    LAB5_SMEM_(name, 24, __maxnreg__(24))                                                          \
    LAB5_SMEM_(name, 32, LAB5_SMEM32_REGS_)                                                        \
    [[maybe_unused]] static inline const void *name##_kernel(int cap, int smem_spill)              \
    {                                                                                              \
        if (smem_spill)                                                                            \
            return cap == 24   ? (const void *)name##_smem24                                       \
                   : cap == 32 ? (const void *)name##_smem32                                       \
                               : NULL;                                                             \
        switch (cap) {                                                                             \
            LAB5_KERNEL_CASE_(name, 24)                                                            \
            LAB5_KERNEL_CASE_(name, 32)                                                            \
            LAB5_KERNEL_CASE_(name, 40)                                                            \
            LAB5_KERNEL_CASE_(name, 48)                                                            \
            LAB5_KERNEL_CASE_(name, 64)                                                            \
            LAB5_KERNEL_CASE_(name, 96)                                                            \
            LAB5_KERNEL_CASE_(name, 128)                                                           \
        case 0:                                                                                    \
            return (const void *)name##_capnone;                                                   \
        }                                                                                          \
        return NULL;                                                                               \
    }                                                                                              \
    /* The driver asks only for caps that exist; another gets LAB_NOT_IMPLEMENTED. */              \
    [[maybe_unused]] static inline int name##_at(int cap, int smem_spill, dim3 blocks,             \
                                                 dim3 threads, struct lab5_grid g,                 \
                                                 cudaStream_t stream)                              \
    {                                                                                              \
        if (smem_spill) {                                                                          \
            switch (cap) {                                                                         \
                LAB5_LAUNCH_CASE_(name, 24, smem)                                                  \
                LAB5_LAUNCH_CASE_(name, 32, smem)                                                  \
            }                                                                                      \
            return LAB_NOT_IMPLEMENTED;                                                            \
        }                                                                                          \
        switch (cap) {                                                                             \
            LAB5_LAUNCH_CASE_(name, 24, cap)                                                       \
            LAB5_LAUNCH_CASE_(name, 32, cap)                                                       \
            LAB5_LAUNCH_CASE_(name, 40, cap)                                                       \
            LAB5_LAUNCH_CASE_(name, 48, cap)                                                       \
            LAB5_LAUNCH_CASE_(name, 64, cap)                                                       \
            LAB5_LAUNCH_CASE_(name, 96, cap)                                                       \
            LAB5_LAUNCH_CASE_(name, 128, cap)                                                      \
        case 0:                                                                                    \
            name##_capnone<<<blocks, threads, 0, stream>>>(g);                                     \
            return LAB_OK;                                                                         \
        }                                                                                          \
        return LAB_NOT_IMPLEMENTED;                                                                \
    }
#endif

#endif
