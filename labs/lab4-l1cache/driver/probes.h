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

#include "kernels.h"

__global__ void warm_kernel(const unsigned *x, size_t n, unsigned *sink);

/* Per compute capability: the L1 + shared memory of an SM and the shared-memory capacities
 * (KiB) it can be set to (NVIDIA's CUDA C++ Programming Guide, per compute capability). */
struct carveouts {
    int unified_kib; /* 0: not known for this GPU */
    int count;
    int smem_kib[12];
};

struct carveouts carveouts_of(int cc_major, int cc_minor, size_t smem_per_sm);

/* The carveout percentage that asks for `kib` of shared memory: the driver takes a percentage
 * of the largest capacity and uses the supported one at or above it. */
int carveout_pct(int kib, size_t smem_per_sm);

/* The capacity a launch gets: the smallest offered one that holds the request and the shared
 * memory the system reserves for as many blocks as an SM can hold (max_blocks x reserved_per_block,
 * 32 x 1 KiB on an H100), whatever the block's size. This is the driver's choice as ncu saw it
 * on the H100 (32 KiB in force where 0, 8 or 16 KiB was asked for, for a 32-thread chase and a
 * 256-thread stencil alike; the asked capacity from 64 KiB up); --counters checks it. */
int smem_config_kib(const struct carveouts *c, int kib, int max_blocks, size_t reserved_per_block);

/* Ask for `pct` percent of the largest shared memory for the variant's kernel; 0 (with a
 * warning) where the runtime refuses. */
int set_carveout(const struct lab4_variant *v, int pct);

#endif
