/* kernels.cu - lab 4, the L1 cache on and off: a copy, a 1D stencil and a pointer chase.
//@begin solution
 * MASTER COPY with the solutions (instructors only). `make student-files` turns it into
 * labs/lab4-l1cache/kernels.cu by removing the solution regions.
//@end solution
 *
 * This is the file you edit. The Makefile compiles it twice, with -Xptxas -dlcm=ca (loads
 * cached in L1) and -Xptxas -dlcm=cg (loads cached in L2 only), and the driver (driver.cu)
 * runs both copies side by side: same source, one compiler flag apart. So keep everything
 * here `static`, and read global memory through plain pointers (kernels.h says why).
 * The variants: the table at the end of this file.
 * Run: make lab4            (only your file changes between runs)
 *      build/.../lab4 --only stencil_1d --quick
 */
#include "kernels.h"

static unsigned blocks_for(size_t threads)
{
    return (unsigned)((threads + LAB4_BLOCK - 1) / LAB4_BLOCK);
}

/* One float per thread, read once and written once. No byte is read twice, so whether the
 * L1 keeps it or not cannot matter: the copy runs at the same speed in both builds. */
static __global__ void copy_stream_kernel(float *out, float *in, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* Thread i sums the 2r+1 floats around i. A warp's 2r+1 loads fall in the same two or three
 * 128-byte lines, shifted by 4 bytes each: with the L1 on (ca) the first load brings the
 * lines in and the others hit; with it off (cg) every load goes to the L2, 2r+1 times the
 * traffic. The bigger r, the more the L1 saves. */
static __global__ void stencil_1d_kernel(float *out, float *in, size_t n, int radius)
{
    //@begin solution
    //@todo TODO(4a): thread i (one per output, i < n) adds in[j] for j = i-radius .. i+radius,
    //@todo leaving out the j outside 0 .. n-1, and writes the sum to out[i]. Read every term
    //@todo from `in` (no shared memory, no __ldg): the L1 is what this lab measures.
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    size_t lo = i >= (size_t)radius ? i - radius : 0;
    size_t hi = i + radius < n ? i + radius : n - 1;
    float sum = 0.0f;
    for (size_t j = lo; j <= hi; j++)
        sum += in[j];
    out[i] = sum;
    //@end solution
}

/* Every lane of one warp follows the chain from `start`: the address of each load is the
 * value the load before returned, so the loads cannot overlap and the time per hop is the
 * latency of one load from wherever the chain's footprint fits (L1, L2, DRAM). */
static __global__ void chase_kernel(unsigned *links, unsigned start, long long hops, unsigned *ends)
{
    //@begin solution
    //@todo TODO(4b): every lane follows the chain from `start` for `hops` hops (a link holds the
    //@todo index of the next link) and writes the index where it ended to ends[threadIdx.x]. Each
    //@todo load's address must be the value the load before it returned, so that no two loads
    //@todo overlap: the time per hop is then one load's latency.
    unsigned j = start;
    for (long long h = 0; h < hops; h++)
        j = links[j];
    ends[threadIdx.x] = j;
    //@end solution
}

static int launch_copy_stream(const struct lab4_args *a, cudaStream_t stream)
{
    copy_stream_kernel<<<blocks_for(a->n), LAB4_BLOCK, 0, stream>>>(a->out, a->in, a->n);
    return LAB_OK;
}

static int launch_stencil_1d(const struct lab4_args *a, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(4a): launch stencil_1d_kernel with one thread per output, LAB4_BLOCK per block.
    stencil_1d_kernel<<<blocks_for(a->n), LAB4_BLOCK, 0, stream>>>(a->out, a->in, a->n, a->radius);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

static int launch_chase(const struct lab4_args *a, cudaStream_t stream)
{
    //@begin solution
    //@todo TODO(4b): launch chase_kernel as one block of LAB4_CHASE_LANES threads (one warp).
    chase_kernel<<<1, LAB4_CHASE_LANES, 0, stream>>>(a->links, a->start, a->hops, a->ends);
    return LAB_OK;
    //@student return LAB_NOT_IMPLEMENTED;
    //@end solution
}

extern "C" const struct lab4_variant lab4_variants[] = {
    {"copy_stream", "out[i] = in[i]: no byte read twice (given)", launch_copy_stream,
     (const void *)copy_stream_kernel},
    {"stencil_1d", "out[i] = sum of in[i-r..i+r]: neighbours share 2r of 2r+1 loads",
     launch_stencil_1d, (const void *)stencil_1d_kernel},
    {"chase", "one warp follows a chain of dependent loads: time per hop = latency", launch_chase,
     (const void *)chase_kernel},
};
extern "C" const int lab4_variant_count = sizeof lab4_variants / sizeof lab4_variants[0];
