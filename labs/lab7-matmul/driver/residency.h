/* residency.h - lab 7: how many blocks of a kernel one SM holds, resource by resource.
 *
 * The occupancy API (gpu_occupancy) gives the number; this gives the reasons, the way the
 * seed reasons about the GeForce 8800: every resource allows some number of resident blocks
 * and the smallest of them wins.
 *   blocks     the SM's limit on resident blocks
 *   warps      the SM's limit on resident warps; a block of 144 threads takes 5 whole warps
 *   regs       registers are given to whole warps, rounded up to reg_unit registers, from
 *              reg_partitions equal parts of the register file (one per warp scheduler)
 *   smem       shared memory per block, plus what the system reserves for each block
 * Plain C, so the tests check it without a GPU (with the seed's GeForce 8800 numbers).
 */
#ifndef LAB7_RESIDENCY_H
#define LAB7_RESIDENCY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sm_resources {
    int max_blocks, max_warps, warp_size;
    int regs, reg_unit, reg_partitions;
    size_t smem, smem_reserved_per_block;
};

struct block_demand {
    int threads, regs_per_thread;
    size_t smem;
};

struct residency {
    int by_blocks, by_warps, by_regs, by_smem;
    int blocks; /* the smallest of the four */
};

/* The blocks of demand d that one SM holds, by each resource, and the smallest of them. */
struct residency residency_of(const struct sm_resources *sm, struct block_demand d);

/* The resources whose limit equals `blocks` (normally the API's answer), joined by '+'
 * ("warps", "warps+regs"), or "other" when none does. Writes into out and returns it. */
const char *residency_limits(const struct residency *r, int blocks, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
