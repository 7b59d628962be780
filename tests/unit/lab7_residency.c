/* lab7_residency.c - lab 7's driver/residency.h, the blocks an SM holds, reproduces the
 * seed's reasoning for the GeForce 8800 and the same arithmetic for the H100: each case's
 * blocks and what limits them. Built by make ($(HOST_OUT)/tests/lab7_residency), run by
 * tests/lab7.sh; prints what differs, exits 1 if anything. */
#include <stdio.h>
#include <string.h>

#include "residency.h"

static int bad;

static void expect(const char *what, struct residency r, int blocks, const char *limits)
{
    char why[32];
    residency_limits(&r, r.blocks, why, sizeof why);
    if (r.blocks != blocks || strcmp(why, limits)) {
        printf("%s: %d blocks limited by %s, expected %d by %s\n", what, r.blocks, why, blocks,
               limits);
        bad = 1;
    }
}
int main(void)
{
    /* GeForce 8800 (seed 004): 8 blocks, 768 threads, 8192 registers, 16 KiB of shared memory. */
    struct sm_resources g80 = {.max_blocks = 8,
                               .max_warps = 24,
                               .warp_size = 32,
                               .regs = 8192,
                               .reg_unit = 1,
                               .reg_partitions = 1,
                               .smem = 16384,
                               .smem_reserved_per_block = 0};
    /* H100: 32 blocks, 64 warps, 65536 registers in 4 parts, 256 per warp, 228 KiB, 1 KiB reserved.
     */
    struct sm_resources h100 = {.max_blocks = 32,
                                .max_warps = 64,
                                .warp_size = 32,
                                .regs = 65536,
                                .reg_unit = 256,
                                .reg_partitions = 4,
                                .smem = 233472,
                                .smem_reserved_per_block = 1024};
    expect("8800, 256 threads, 10 registers: 3 blocks, 768 threads",
           residency_of(&g80, (struct block_demand){256, 10, 2048}), 3, "warps+regs");
    expect("8800, 256 threads, 11 registers: one block fewer",
           residency_of(&g80, (struct block_demand){256, 11, 2048}), 2, "regs");
    expect("8800, 4x4 tiles: the 8-block limit",
           residency_of(&g80, (struct block_demand){16, 10, 128}), 8, "blocks");
    struct residency r8 = residency_of(&g80, (struct block_demand){64, 10, 512});
    expect("8800, 8x8 tiles: the 8-block limit", r8, 8, "blocks");
    if (r8.by_warps != 12) {
        printf("8800, 8x8 tiles: %d blocks to fill the SM, the seed says 12\n", r8.by_warps);
        bad = 1;
    }
    expect("H100, 144 threads (5 warps), 32 registers",
           residency_of(&h100, (struct block_demand){144, 32, 1152}), 12, "warps+regs");
    expect("H100, 1024 threads, 40 registers",
           residency_of(&h100, (struct block_demand){1024, 40, 8192}), 1, "regs");
    expect("H100, 256 threads, 125 registers",
           residency_of(&h100, (struct block_demand){256, 125, 16640}), 2, "regs");
    expect("H100, 16 threads", residency_of(&h100, (struct block_demand){16, 32, 128}), 32,
           "blocks");
    return bad;
}
