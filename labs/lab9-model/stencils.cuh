/* stencils.cuh - lab 9's three stencil codes (seed 001), given: the driver runs them and
 * students model them (kernels.h says what each moves; the handout why they are given).
 *
 *   k1_kernel  7-point star, 3D blocks, the block's points + face halos in shared memory
 *   k2_kernel  27-point box, 3D blocks, the block's points + full halo box in shared memory
 *   k3_kernel  27-point box, 2D blocks walking a z chunk: one plane tile at a time in shared
 *              memory, three outputs in registers
 * Coefficients: k1 c0 x centre + c1 x each of 6 neighbours; k2 and k3 w[d] for a neighbour
 * that differs from the centre in d coordinates (d = 0 centre, 1 face, 2 edge, 3 corner).
 * Every code writes only interior points and leaves the input alone. Blocks cover the grid
 * from x = 0 (rows start on sectors); a partial block at the far edge keeps its threads out
 * of the grid off the memory but in every barrier.
 */
#ifndef LAB9_STENCILS_CUH
#define LAB9_STENCILS_CUH

#include <cuda_runtime.h>

#include "kernels.h"

struct box_weights {
    float w[4];
};

#define TILE(a, b, c) tile[((size_t)(c)*th + (b)) * tw + (a)]

/* One point a thread. Each thread stages its own point; the threads on a face of the block
 * stage the neighbour across it (a lone float for the x faces: one extra 32-byte sector
 * each). After the barrier the 7 values come from shared memory: each input float crosses
 * from L2 once per block, and the y and z faces add 2/by and 2/bz of a row's sectors. */
static __global__ void __launch_bounds__(1024)
    k1_kernel(float *out, const float *in, int nx, int ny, int nz, float c0, float c1)
{
    extern __shared__ float tile[];
    int tw = blockDim.x + 2, th = blockDim.y + 2;
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    int a = threadIdx.x + 1, b = threadIdx.y + 1, c = threadIdx.z + 1;
    size_t sy = nx, sz = (size_t)nx * ny, i = z * sz + y * sy + x;
    bool inside = x < nx && y < ny && z < nz;
    if (inside) {
        TILE(a, b, c) = in[i];
        if (threadIdx.x == 0 && x > 0)
            TILE(0, b, c) = in[i - 1];
        if (threadIdx.x == blockDim.x - 1 && x + 1 < nx)
            TILE(a + 1, b, c) = in[i + 1];
        if (threadIdx.y == 0 && y > 0)
            TILE(a, 0, c) = in[i - sy];
        if (threadIdx.y == blockDim.y - 1 && y + 1 < ny)
            TILE(a, b + 1, c) = in[i + sy];
        if (threadIdx.z == 0 && z > 0)
            TILE(a, b, 0) = in[i - sz];
        if (threadIdx.z == blockDim.z - 1 && z + 1 < nz)
            TILE(a, b, c + 1) = in[i + sz];
    }
    __syncthreads();
    if (inside && x >= 1 && x <= nx - 2 && y >= 1 && y <= ny - 2 && z >= 1 && z <= nz - 2)
        out[i] =
            c0 * TILE(a, b, c) + c1 * (TILE(a - 1, b, c) + TILE(a + 1, b, c) + TILE(a, b - 1, c) +
                                       TILE(a, b + 1, c) + TILE(a, b, c - 1) + TILE(a, b, c + 1));
}

/* The block's box of (bx+2)(by+2)(bz+2) floats, loaded cooperatively row by row (rows of
 * bx+2 floats from x0-1: bx/8 + 2 sectors), then 27 reads from shared memory a point. The
 * halo is a larger share of the traffic than k1's: edges and corners come along. */
static __global__ void __launch_bounds__(1024)
    k2_kernel(float *out, const float *in, int nx, int ny, int nz, struct box_weights wt)
{
    extern __shared__ float tile[];
    int tw = blockDim.x + 2, th = blockDim.y + 2, td = blockDim.z + 2;
    int x0 = blockIdx.x * blockDim.x, y0 = blockIdx.y * blockDim.y, z0 = blockIdx.z * blockDim.z;
    int threads = blockDim.x * blockDim.y * blockDim.z;
    int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    size_t sy = nx, sz = (size_t)nx * ny;
    for (int t = tid; t < tw * th * td; t += threads) {
        int gx = x0 - 1 + t % tw, gy = y0 - 1 + (t / tw) % th, gz = z0 - 1 + t / (tw * th);
        if (gx >= 0 && gx < nx && gy >= 0 && gy < ny && gz >= 0 && gz < nz)
            tile[t] = in[gz * sz + gy * sy + gx];
    }
    __syncthreads();
    int x = x0 + threadIdx.x, y = y0 + threadIdx.y, z = z0 + threadIdx.z;
    if (x < 1 || x > nx - 2 || y < 1 || y > ny - 2 || z < 1 || z > nz - 2)
        return;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                sum[(dx != 0) + (dy != 0) + (dz != 0)] +=
                    TILE(threadIdx.x + 1 + dx, threadIdx.y + 1 + dy, threadIdx.z + 1 + dz);
    out[z * sz + y * sy + x] =
        wt.w[0] * sum[0] + wt.w[1] * sum[1] + wt.w[2] * sum[2] + wt.w[3] * sum[3];
}

/* 2D tiling with register reuse: the block walks planes z0-1 .. z0+chunk of its chunk, one
 * (bx+2)(by+2) tile in shared memory at a time. A thread reads its 9 values of the plane
 * once and adds their share to the three outputs that plane touches: s_mid to output p (the
 * plane's own), s_side to p-1 and p+1. Output p-1 is then complete and written; the
 * accumulators shift. Each input plane crosses from L2 once per chunk (plus 2 halo planes). */
static __global__ void __launch_bounds__(1024)
    k3_kernel(float *out, const float *in, int nx, int ny, int nz, int chunk, struct box_weights wt)
{
    extern __shared__ float tile[];
    int tw = blockDim.x + 2, th = blockDim.y + 2;
    int x0 = blockIdx.x * blockDim.x, y0 = blockIdx.y * blockDim.y, z0 = blockIdx.z * chunk;
    int z1 = min(z0 + chunk, nz) - 1;
    int threads = blockDim.x * blockDim.y, tid = threadIdx.x + blockDim.x * threadIdx.y;
    int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    bool column = x >= 1 && x <= nx - 2 && y >= 1 && y <= ny - 2;
    size_t sy = nx, sz = (size_t)nx * ny;
    float before = 0.0f, mine = 0.0f; /* outputs p-1 and p while plane p is added */
    for (int p = max(z0 - 1, 0); p <= min(z1 + 1, nz - 1); p++) {
        __syncthreads(); /* the last plane's reads are done */
        for (int t = tid; t < tw * th; t += threads) {
            int gx = x0 - 1 + t % tw, gy = y0 - 1 + t / tw;
            if (gx >= 0 && gx < nx && gy >= 0 && gy < ny)
                tile[t] = in[p * sz + gy * sy + gx];
        }
        __syncthreads();
        if (!column)
            continue;
        int a = threadIdx.x + 1, b = threadIdx.y + 1, c = 0;
        float centre = TILE(a, b, c);
        float faces = TILE(a - 1, b, c) + TILE(a + 1, b, c) + TILE(a, b - 1, c) + TILE(a, b + 1, c);
        float corners = TILE(a - 1, b - 1, c) + TILE(a + 1, b - 1, c) + TILE(a - 1, b + 1, c) +
                        TILE(a + 1, b + 1, c);
        float s_mid = wt.w[0] * centre + wt.w[1] * faces + wt.w[2] * corners;
        float s_side = wt.w[1] * centre + wt.w[2] * faces + wt.w[3] * corners;
        before += s_side;
        mine += s_mid;
        if (p - 1 >= z0 && p - 1 <= z1 && p - 1 >= 1 && p - 1 <= nz - 2)
            out[(p - 1) * sz + y * sy + x] = before;
        before = mine;
        mine = s_side; /* output p+1's first share */
    }
}

#undef TILE

static dim3 blocks_for(const struct lab9_config *c, int nx, int ny, int nz, int planes_per_block)
{
    return dim3((unsigned)((nx + c->bx - 1) / c->bx), (unsigned)((ny + c->by - 1) / c->by),
                (unsigned)((nz + planes_per_block - 1) / planes_per_block));
}

/* Code k's kernel (its address, for the occupancy API), threads a block and shared memory. */
static const void *code_kernel(int k)
{
    return k == 0   ? (const void *)k1_kernel
           : k == 1 ? (const void *)k2_kernel
                    : (const void *)k3_kernel;
}

static int code_threads(int k, const struct lab9_config *c)
{
    return c->bx * c->by * (k == 2 ? 1 : c->bz);
}

static size_t code_smem(int k, const struct lab9_config *c)
{
    return (size_t)(c->bx + 2) * (c->by + 2) * (k == 2 ? 1 : c->bz + 2) * sizeof(float);
}

/* Launch code k (0, 1, 2) with block shape c on an nx x ny x nz grid. */
static void launch_code(int k, const struct lab9_config *c, float *out, const float *in, int nx,
                        int ny, int nz, cudaStream_t stream)
{
    const float c0 = 0.4f, c1 = 0.1f;
    const struct box_weights wt = {{0.3f, 0.05f, 0.02f, 0.01f}};
    size_t smem = code_smem(k, c);
    if (k == 0)
        k1_kernel<<<blocks_for(c, nx, ny, nz, c->bz), dim3(c->bx, c->by, c->bz), smem, stream>>>(
            out, in, nx, ny, nz, c0, c1);
    else if (k == 1)
        k2_kernel<<<blocks_for(c, nx, ny, nz, c->bz), dim3(c->bx, c->by, c->bz), smem, stream>>>(
            out, in, nx, ny, nz, wt);
    else
        k3_kernel<<<blocks_for(c, nx, ny, nz, c->bz), dim3(c->bx, c->by, 1), smem, stream>>>(
            out, in, nx, ny, nz, c->bz, wt);
}

#endif
