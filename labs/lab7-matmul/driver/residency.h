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

#include <limits.h>
#include <stdio.h>
#include <string.h>

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

static inline struct residency residency_of(const struct sm_resources *sm, struct block_demand d)
{
    struct residency r;
    int warps = (d.threads + sm->warp_size - 1) / sm->warp_size;
    int regs_per_warp = (d.regs_per_thread * sm->warp_size + sm->reg_unit - 1) / sm->reg_unit * sm->reg_unit;
    size_t smem = d.smem + sm->smem_reserved_per_block;
    r.by_blocks = sm->max_blocks;
    r.by_warps = sm->max_warps / warps;
    r.by_regs = regs_per_warp ? sm->regs / sm->reg_partitions / regs_per_warp * sm->reg_partitions / warps : INT_MAX;
    r.by_smem = smem ? (int)(sm->smem / smem) : INT_MAX;
    r.blocks = r.by_blocks;
    if (r.by_warps < r.blocks)
        r.blocks = r.by_warps;
    if (r.by_regs < r.blocks)
        r.blocks = r.by_regs;
    if (r.by_smem < r.blocks)
        r.blocks = r.by_smem;
    return r;
}

/* The resources whose limit equals `blocks` (normally the API's answer), joined by '+'
 * ("warps", "warps+regs"), or "other" when none does. Writes into out and returns it. */
static inline const char *residency_limits(const struct residency *r, int blocks, char *out, size_t len)
{
    const int limits[] = {r->by_blocks, r->by_warps, r->by_regs, r->by_smem};
    const char *names[] = {"blocks", "warps", "regs", "smem"};
    out[0] = '\0';
    for (int i = 0; i < 4; i++)
        if (limits[i] == blocks)
            snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "+" : "", names[i]);
    if (!out[0])
        snprintf(out, len, "other");
    return out;
}

#endif
