/* kernels.cu - lab 10, constant, read-only and texture memory: one table read three ways,
 * one image resampled through the texture unit and from global memory.
//@begin solution
 * MASTER COPY with the solutions (instructors only). `make student-files` turns it into
 * labs/lab10-constant-texture/kernels.cu by removing the solution regions.
//@end solution
 *
 * This is the file you edit. The driver (driver.cu) builds the inputs, checks each variant
 * against a CPU model, then times it; the contract is in kernels.h. The variants: the table
 * at the end of this file.
 * The image variants share two kernels: resample_texture_kernel (given) and
 * resample_global_kernel (10b); a variant is its launcher: map, address mode, block shape.
 * Run: make lab10               (only your file changes between runs)
 *      build/.../lab10 --only chase_readonly --check
 */
#include "kernels.h"

#define BLOCK 256 /* chase kernels: threads a block */
#define TILE_X 32 /* image kernels: blocks of TILE_X x TILE_Y threads, one output pixel each */
#define TILE_Y 8

/* The table in constant memory: 64 KiB of it per program, cached per SM (about 2 KiB close
 * to the cores on an H100). Written by launch_chase_constant before each launch. */
__constant__ unsigned lab10_table[LAB10_TABLE_WORDS];

static unsigned blocks_for(int threads)
{
    return (unsigned)((threads + BLOCK - 1) / BLOCK);
}

/* Blocks of `block` threads over a w x h output, one pixel a thread. */
static dim3 tiles_for(int w, int h, dim3 block)
{
    return dim3((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
}

/* ---- the constant experiment (10a) ------------------------------------------------------- */

enum path { CONSTANT_PATH, GLOBAL_PATH, READONLY_PATH };

/* One hop through the table, by one of three paths (`how` is a constant in every kernel, so
 * the compiler keeps only its case):
 *   constant  LDC from the __constant__ copy: the constant cache serves one address per
 *             request at a time, so a warp whose lanes ask for k distinct words waits k times
 *   global    LDG through the L1, which serves a warp by the 128-byte lines its addresses
 *             fall in, not by the number of distinct words
 *   read-only the read-only data path (Kepler's "texture cache for global loads",
 *             LDG.E.CONSTANT on sm_90), for data nobody writes while the kernel runs */
__device__ __forceinline__ unsigned hop(const unsigned *table, unsigned at, enum path how)
{
    if (how == CONSTANT_PATH)
        return LAB10_HOP(lab10_table, at);
    if (how == READONLY_PATH) {
        //@begin solution
        //@todo TODO(10a): the same hop as a load by the read-only data path, asked for by name: the
        //@todo CUDA Programming Guide's "Read-Only Data Cache Load Function" has the intrinsic.
        //@todo Nothing writes the table while a kernel runs, which is what makes that path safe
        //@todo here.
        return __ldg(&LAB10_HOP(table, at));
        //@student return 0;
        //@end solution
    }
    return LAB10_HOP(table, at);
}

/* Thread t follows its LAB10_CHAINS chains `steps` hops; the chains are independent, so a
 * warp keeps that many loads in flight, and a hop is nothing but its load. */
__device__ __forceinline__ void chase(unsigned *ends, const unsigned *starts, const unsigned *table,
                                      int threads, int steps, enum path how)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads)
        return;
    unsigned at[LAB10_CHAINS];
#pragma unroll
    for (int c = 0; c < LAB10_CHAINS; c++)
        at[c] = starts[t * LAB10_CHAINS + c];
#pragma unroll 8
    for (int s = 0; s < steps; s++)
#pragma unroll
        for (int c = 0; c < LAB10_CHAINS; c++)
            at[c] = hop(table, at[c], how);
#pragma unroll
    for (int c = 0; c < LAB10_CHAINS; c++)
        ends[t * LAB10_CHAINS + c] = at[c];
}

__global__ void chase_constant_kernel(unsigned *ends, const unsigned *starts, int threads,
                                      int steps)
{
    chase(ends, starts, NULL, threads, steps, CONSTANT_PATH);
}

__global__ void chase_global_kernel(unsigned *ends, const unsigned *starts, const unsigned *table,
                                    int threads, int steps)
{
    chase(ends, starts, table, threads, steps, GLOBAL_PATH);
}

/* const __restrict__ tells the compiler nothing writes the table while the kernel runs: with
 * it, plain loads may take the read-only path too; __ldg asks for it outright. */
__global__ void chase_readonly_kernel(unsigned *__restrict__ ends,
                                      const unsigned *__restrict__ starts,
                                      const unsigned *__restrict__ table, int threads, int steps)
{
    //@begin solution
    //@todo TODO(10a): the chase, as chase_global_kernel, by the read-only path.
    chase(ends, starts, table, threads, steps, READONLY_PATH);
    //@end solution
}

/* ---- bilinear interpolation (10b, 10c) -------------------------------------------------- */

/* Texel (i, j) of the image, or what the address mode says outside it: the nearest edge
 * texel (clamp) or 0 (border). */
__device__ __forceinline__ float texel(const float *in, int w, int h, int i, int j, bool border)
{
    //@begin solution
    //@todo TODO(10b): return in[j*w + i] inside the image; outside, 0 when border, else the
    //@todo texel at i and j clamped to [0, w-1] and [0, h-1]. Index with size_t.
    if (border && (i < 0 || i >= w || j < 0 || j >= h))
        return 0.0f;
    i = min(max(i, 0), w - 1);
    j = min(max(j, 0), h - 1);
    return in[(size_t)j * w + i];
    //@student return 0.0f;
    //@end solution
}

/* What tex2D returns with linear filtering, in float: the four texels around (x, y), where
 * texel centres sit at i + 0.5, weighted by the distances. The weights keep the 24 bits of a
 * float where the texture unit keeps 8: this one is exact to a few ulps. */
__device__ __forceinline__ float bilinear_global(const float *in, int w, int h, float x, float y,
                                                 bool border)
{
    //@begin solution
    //@todo TODO(10b): what the texture unit computes, as the handout's section 1 gives it: the four
    //@todo texels around (x, y), texel centres sitting at i + 0.5, each weighted by how close (x,
    //@todo y) lies to it along x and along y. Fetch them with texel(), so that the address mode
    //@todo applies outside the image.
    float xb = x - 0.5f, yb = y - 0.5f;
    float fi = floorf(xb), fj = floorf(yb);
    float a = xb - fi, b = yb - fj;
    int i = (int)fi, j = (int)fj;
    float top = (1.0f - a) * texel(in, w, h, i, j, border) + a * texel(in, w, h, i + 1, j, border);
    float bottom =
        (1.0f - a) * texel(in, w, h, i, j + 1, border) + a * texel(in, w, h, i + 1, j + 1, border);
    return (1.0f - b) * top + b * bottom;
    //@student return 0.0f;
    //@end solution
}

/* One output pixel a thread: the tex2D reads of a warp land on a small 2D patch of the
 * texture, which the texture cache holds in 2D tiles (the cudaArray's layout). The address
 * mode (clamp for the zoom, border for the rotation) is the texture object's. */
__global__ void resample_texture_kernel(float *out, int w, int h, cudaTextureObject_t tex,
                                        struct lab10_map map)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= w || oy >= h)
        return;
    float2 s = lab10_source(map, ox, oy);
    out[(size_t)oy * w + ox] = tex2D<float>(tex, s.x, s.y);
}

/* The same pixels with four loads each and the arithmetic in float; border chooses the
 * address mode (0 outside) over clamp. */
__global__ void resample_global_kernel(float *out, int w, int h, const float *in, int in_w,
                                       int in_h, struct lab10_map map, bool border)
{
    //@begin solution
    //@todo TODO(10b): as resample_texture_kernel, with bilinear_global(in, in_w, in_h, x, y, border).
    int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= w || oy >= h)
        return;
    float2 s = lab10_source(map, ox, oy);
    out[(size_t)oy * w + ox] = bilinear_global(in, in_w, in_h, s.x, s.y, border);
    //@end solution
}

/* ---- launchers ---------------------------------------------------------------------------- */

static int launch_chase_constant(const struct lab10_args *a, cudaStream_t stream)
{
    /* The table goes to constant memory on the launch's own stream, ahead of the kernel
     * (1 KiB: a few microseconds against the chase's milliseconds). */
    (void)cudaMemcpyToSymbolAsync(lab10_table, a->table, sizeof lab10_table, 0,
                                  cudaMemcpyDeviceToDevice, stream);
    chase_constant_kernel<<<blocks_for(a->threads), BLOCK, 0, stream>>>(a->ends, a->starts,
                                                                        a->threads, a->steps);
    return LAB_OK;
}

static int launch_chase_global(const struct lab10_args *a, cudaStream_t stream)
{
    chase_global_kernel<<<blocks_for(a->threads), BLOCK, 0, stream>>>(a->ends, a->starts, a->table,
                                                                      a->threads, a->steps);
    return LAB_OK;
}

static int launch_chase_readonly(const struct lab10_args *a, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(10a): launch chase_readonly_kernel as launch_chase_global does its kernel.
    chase_readonly_kernel<<<blocks_for(a->threads), BLOCK, 0, stream>>>(
        a->ends, a->starts, a->table, a->threads, a->steps);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_zoom_texture(const struct lab10_args *a, cudaStream_t stream)
{
    dim3 block(TILE_X, TILE_Y);
    resample_texture_kernel<<<tiles_for(a->out_w, a->out_h, block), block, 0, stream>>>(
        a->out, a->out_w, a->out_h, a->tex, a->map);
    return LAB_OK;
}

static int launch_zoom_global(const struct lab10_args *a, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(10b): launch resample_global_kernel over the output with clamp addressing.
    dim3 block(TILE_X, TILE_Y);
    resample_global_kernel<<<tiles_for(a->out_w, a->out_h, block), block, 0, stream>>>(
        a->out, a->out_w, a->out_h, a->in, a->in_w, a->in_h, a->map, false);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

/* A rotation walks the input along a slanted line: at 45 degrees the 32 pixels of a warp in
 * one output row read texels of 23 input rows. Task 10c: choose the block shape, and compare
 * the two paths. */
static int launch_rotate_texture(const struct lab10_args *a, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(10c): launch resample_texture_kernel over the output (the driver gives this
    //@todo variant a texture with border addressing), in blocks of your choice.
    dim3 block(TILE_X, TILE_Y);
    resample_texture_kernel<<<tiles_for(a->out_w, a->out_h, block), block, 0, stream>>>(
        a->out, a->out_w, a->out_h, a->tex, a->map);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_rotate_global(const struct lab10_args *a, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(10c): launch resample_global_kernel with border addressing, in blocks of your
    //@todo choice: a squarer block reads a squarer patch of the rotated input.
    dim3 block(16, 16);
    resample_global_kernel<<<tiles_for(a->out_w, a->out_h, block), block, 0, stream>>>(
        a->out, a->out_w, a->out_h, a->in, a->in_w, a->in_h, a->map, true);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

extern "C" const struct lab10_variant lab10_variants[] = {
    {"chase_constant", "the chase through a __constant__ table (one address a request at a time)",
     launch_chase_constant},
    {"chase_global", "the chase through a plain global pointer (L1, by 128-byte lines)",
     launch_chase_global},
    {"chase_readonly", "the chase through the read-only data path (const __restrict__, __ldg)",
     launch_chase_readonly},
    {"zoom_texture", "bilinear magnification by the texture unit (8-bit weights, clamp)",
     launch_zoom_texture},
    {"zoom_global", "the same bilinear magnification from global memory, weights in float",
     launch_zoom_global},
    {"rotate_texture", "rotation about the centre through the texture path (border)",
     launch_rotate_texture},
    {"rotate_global", "rotation about the centre from global memory (border)",
     launch_rotate_global},
};
extern "C" const int lab10_variant_count = sizeof lab10_variants / sizeof lab10_variants[0];
