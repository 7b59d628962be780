/* probes.h - lab 4's own kernels and tables, used by the driver (trusted code: timed without
 * varied inputs or checks, as lab 2's chase is). The bandwidth probes are in
 * common/probes/bandwidth.h.
 *
 *   warm_kernel      one read of a chase's footprint by every SM: what fits in the L2 is there
 *                    (in both partitions) before the chase is timed
 *   carveouts_of     the shared-memory capacities a GPU offers per SM, and its L1 + shared total
 *   set_carveout     a variant's kernel asks for a carveout
 */
#ifndef LAB4_PROBES_H
#define LAB4_PROBES_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "check.h"
#include "kernels.h"

static __global__ void warm_kernel(const unsigned *x, size_t n, unsigned *sink)
{
    unsigned acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        acc ^= x[i];
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* Per compute capability: the L1 + shared memory of an SM and the shared-memory capacities
 * (KiB) it can be set to (NVIDIA's CUDA C++ Programming Guide, per compute capability). */
struct carveouts {
    int unified_kib;  /* 0: not known for this GPU */
    int count;
    int smem_kib[12];
};

static struct carveouts carveouts_of(int cc_major, int cc_minor, size_t smem_per_sm)
{
    static const struct {
        int cc;
        struct carveouts c;
    } known[] = {
        {75, {96, 2, {32, 64}}},
        {80, {192, 8, {0, 8, 16, 32, 64, 100, 132, 164}}},
        {86, {128, 6, {0, 8, 16, 32, 64, 100}}},
        {87, {192, 8, {0, 8, 16, 32, 64, 100, 132, 164}}},
        {89, {128, 6, {0, 8, 16, 32, 64, 100}}},
        {90, {256, 10, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}}},
        {100, {256, 10, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}}},
        {120, {128, 6, {0, 8, 16, 32, 64, 100}}},
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (known[k].cc == 10 * cc_major + cc_minor)
            return known[k].c;
    struct carveouts fallback = {0, 2, {0, (int)(smem_per_sm / 1024)}}; /* the two ends only */
    return fallback;
}

/* The carveout percentage that asks for `kib` of shared memory: the driver takes a percentage
 * of the largest capacity and uses the supported one at or above it. */
static int carveout_pct(int kib, size_t smem_per_sm)
{
    int pct = (int)(100.0 * kib * 1024 / smem_per_sm);
    return pct > 100 ? 100 : pct;
}

/* The capacity a launch gets: the smallest offered one that holds the request and the shared
 * memory the system reserves for as many blocks as an SM can hold (max_blocks x reserved_per_block,
 * 32 x 1 KiB on an H100), whatever the block's size. This is the driver's choice as ncu saw it
 * on the H100 (32 KiB in force where 0, 8 or 16 KiB was asked for, for a 32-thread chase and a
 * 256-thread stencil alike; the asked capacity from 64 KiB up); --counters checks it. */
static int smem_config_kib(const struct carveouts *c, int kib, int max_blocks, size_t reserved_per_block)
{
    int need = (int)(((size_t)max_blocks * reserved_per_block + 1023) / 1024);
    if (need < kib)
        need = kib;
    for (int k = 0; k < c->count; k++)
        if (c->smem_kib[k] >= need)
            return c->smem_kib[k];
    return c->smem_kib[c->count - 1];
}

/* Ask for `pct` percent of the largest shared memory for the variant's kernel; 0 (with a
 * warning) where the runtime refuses. */
static int set_carveout(const struct lab4_variant *v, int pct)
{
    cudaError_t err = cudaFuncSetAttribute(v->kernel, cudaFuncAttributePreferredSharedMemoryCarveout, pct);
    if (err != cudaSuccess) {
        memlab_warn("%s: cudaFuncSetAttribute(carveout %d) failed: %s (is `kernel` in its table entry its "
                    "__global__ function?)", v->name, pct, cudaGetErrorName(err));
        (void)cudaGetLastError();
    }
    return err == cudaSuccess;
}

#endif
