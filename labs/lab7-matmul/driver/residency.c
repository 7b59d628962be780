/* residency.c - lab 7's blocks per SM, resource by resource (see residency.h). */
#include "residency.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

struct residency residency_of(const struct sm_resources *sm, struct block_demand d)
{
    struct residency r;
    int warps = (d.threads + sm->warp_size - 1) / sm->warp_size;
    int regs_per_warp =
        (d.regs_per_thread * sm->warp_size + sm->reg_unit - 1) / sm->reg_unit * sm->reg_unit;
    size_t smem = d.smem + sm->smem_reserved_per_block;
    r.by_blocks = sm->max_blocks;
    r.by_warps = sm->max_warps / warps;
    r.by_regs = regs_per_warp
                    ? sm->regs / sm->reg_partitions / regs_per_warp * sm->reg_partitions / warps
                    : INT_MAX;
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

const char *residency_limits(const struct residency *r, int blocks, char *out, size_t len)
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
