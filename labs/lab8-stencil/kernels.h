/* kernels.h - lab 8 (stencil): the contract between kernels.cu and the driver.
 * Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * Every variant applies one step of the 3D star stencil of radius r (1..LAB8_MAX_RADIUS,
 * N = 6r+1 points) to a grid of nx*ny*nz floats stored x fastest: point (x, y, z) is
 * in[(z*ny + y)*nx + x]. For every interior point (r <= x < nx-r, r <= y < ny-r,
 * r <= z < nz-r) it writes
 *     out = c[0]*in(x,y,z) + sum over k = 1..r of c[k] * (in(x-k,y,z) + in(x+k,y,z)
 *           + in(x,y-k,z) + in(x,y+k,z) + in(x,y,z-k) + in(x,y,z+k))
 * with each of the N terms multiplied by its coefficient (2N-1 flops a point), summed in
 * any order. Boundary points (closer than r to a face) are never written: the driver
 * poisons `out` and checks that they stay poisoned. `in` never changes. A grid without
 * interior points launches nothing. nx*ny*nz < 2^31, so int indices are safe.
 * The coefficients c[0..r] live in constant memory: lab8_set_coefficients, before launches.
 *
 * The codes (the table lab8_variants in kernels.cu): the nine of the seed (its Table 1
 * order), all with blocks of 32 x 16 threads, and two beyond it, v10_tuned and v11_tma, with
 * their own block shape and one kernel per radius (v11_tma: the TMA on sm_90, for rows of a
 * multiple of 4 floats; elsewhere it runs v10). The _intz codes: blockIdx.z numbers chunks
 * of LAB8_Z_CHUNK interior planes; a thread computes its column's points in its chunk, from
 * the lowest plane up.
 */
#ifndef LAB8_KERNELS_H
#define LAB8_KERNELS_H

#include <cuda.h> /* CUtensorMap (types only: no driver library is linked) */
#include <cuda_runtime.h>

#include "lab.h"

#define LAB8_MAX_RADIUS 5
#define LAB8_BLOCK_X 32
#define LAB8_BLOCK_Y 16
#define LAB8_Z_CHUNK 32

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the variant's kernel on `stream`; return LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*lab8_launch_fn)(float *out, const float *in, int nx, int ny, int nz, int radius,
                              cudaStream_t stream);

/* The kernel a code launches for radius r (codes with one kernel per radius), and its
 * block (codes whose block differs by radius): threads, and dynamic shared memory bytes. */
typedef const void *(*lab8_kernel_fn)(int radius);
struct lab8_block {
    int threads;
    size_t dynamic_smem;
};
typedef struct lab8_block (*lab8_block_fn)(int radius);

struct lab8_variant {
    const char *name;
    const char *idea;
    lab8_launch_fn launch;
    const void *kernel;       /* the __global__ function, for the occupancy API */
    lab8_kernel_fn kernel_of; /* instead of `kernel`, for a code with one kernel per radius */
    int block_threads;        /* its threads per block; 0: LAB8_BLOCK_X * LAB8_BLOCK_Y */
    lab8_block_fn block_of;   /* instead of block_threads, for a block that differs by radius */
};

extern const struct lab8_variant lab8_variants[];
extern const int lab8_variant_count;

/* Copy c[0..LAB8_MAX_RADIUS] to the kernels' constant memory. */
cudaError_t lab8_set_coefficients(const float *c);

/* Given (driver.cu), for v11: describe the grid `in` of nx*ny*nz floats to the TMA, copied
 * a box of box_w x box_rows x 1 floats at a time, zeros outside the grid. Returns 0, and
 * leaves *map alone, where the TMA cannot serve the grid: a GPU before sm_90, rows that
 * are not a multiple of 16 bytes (nx % 4 != 0), or a driver without tensor maps. */
int lab8_tensor_map(CUtensorMap *map, const float *in, int nx, int ny, int nz, int box_w,
                    int box_rows);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* v11's TMA and mbarrier instructions, given here as inline PTX (which a submitted kernels.cu
 * may not contain). An mbarrier counts arrivals and bytes: the leader arrives once,
 * announcing the bytes to expect, and the phase completes when the copy has delivered them;
 * threads wait for the phase by its parity (0, 1, 0, ...). Before sm_90 they do nothing
 * (v11 then runs v10's kernel). */
__device__ __forceinline__ unsigned shared_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* v11's dynamic shared memory (its launcher gives the size), from the first 128-byte
 * boundary, where the TMA may write. */
__device__ __forceinline__ float *tma_ring(void)
{
    extern __shared__ unsigned char lab8_dynamic_shared[];
    return (float *)(lab8_dynamic_shared + (-shared_address(lab8_dynamic_shared) & 127));
}

__device__ __forceinline__ void mbarrier_init(uint64_t *bar)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

/* Ask for plane z of the box at (x, y) into dst; bar's phase completes when it is there. */
__device__ __forceinline__ void tma_load_plane(float *dst, const CUtensorMap *map, int x, int y,
                                               int z, unsigned bytes, uint64_t *bar)
{
#if __CUDA_ARCH__ >= 900
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)),
        "r"(bytes)
        : "memory");
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(shared_address(dst)),
                 "l"(map), "r"(x), "r"(y), "r"(z), "r"(shared_address(bar))
                 : "memory");
#endif
}

__device__ __forceinline__ void mbarrier_wait(uint64_t *bar, unsigned parity)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("{\n .reg .pred done;\n wait_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, "
                 "[%0], %1;\n"
                 " @!done bra wait_%=;\n}" ::"r"(shared_address(bar)),
                 "r"(parity)
                 : "memory");
#endif
}
#endif

#endif
