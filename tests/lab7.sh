# tests/lab7.sh - lab 7's own checks, sourced by tests/run.sh (helpers and variables there).
# Without a GPU: the residency arithmetic (labs/lab7-matmul/driver/residency.c) reproduces the
# seed's GeForce 8800 reasoning, and the planted-bug fixtures build. With a GPU: the solution
# verified at the default sizes and at an odd N, the student file's TODOs reported as
# not_implemented, the phenomenon (16x16 tiles beat the untiled kernel at 4096^3), and the
# fixtures caught and named. A fixture (tests/fixtures/lab7/*.sed) plants one bug in the
# solution; its line "# caught as: VARIANT" names the first variant that must be reported.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
sol7=$OUT/solution/lab7/lab7
stu7=$OUT/student/lab7/lab7

cat >"$tmp/residency7.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "residency.h"
static int bad;
static void expect(const char *what, struct residency r, int blocks, const char *limits)
{
    char why[32];
    residency_limits(&r, r.blocks, why, sizeof why);
    if (r.blocks != blocks || strcmp(why, limits)) {
        printf("%s: %d blocks limited by %s, expected %d by %s\n", what, r.blocks, why, blocks, limits);
        bad = 1;
    }
}
int main(void)
{
    /* GeForce 8800 (seed 004): 8 blocks, 768 threads, 8192 registers, 16 KiB of shared memory. */
    struct sm_resources g80 = {.max_blocks = 8, .max_warps = 24, .warp_size = 32, .regs = 8192,
                               .reg_unit = 1, .reg_partitions = 1, .smem = 16384, .smem_reserved_per_block = 0};
    /* H100: 32 blocks, 64 warps, 65536 registers in 4 parts, 256 per warp, 228 KiB, 1 KiB reserved. */
    struct sm_resources h100 = {.max_blocks = 32, .max_warps = 64, .warp_size = 32, .regs = 65536,
                                .reg_unit = 256, .reg_partitions = 4, .smem = 233472, .smem_reserved_per_block = 1024};
    expect("8800, 256 threads, 10 registers: 3 blocks, 768 threads", residency_of(&g80, (struct block_demand){256, 10, 2048}), 3, "warps+regs");
    expect("8800, 256 threads, 11 registers: one block fewer", residency_of(&g80, (struct block_demand){256, 11, 2048}), 2, "regs");
    expect("8800, 4x4 tiles: the 8-block limit", residency_of(&g80, (struct block_demand){16, 10, 128}), 8, "blocks");
    struct residency r8 = residency_of(&g80, (struct block_demand){64, 10, 512});
    expect("8800, 8x8 tiles: the 8-block limit", r8, 8, "blocks");
    if (r8.by_warps != 12) {
        printf("8800, 8x8 tiles: %d blocks to fill the SM, the seed says 12\n", r8.by_warps);
        bad = 1;
    }
    expect("H100, 144 threads (5 warps), 32 registers", residency_of(&h100, (struct block_demand){144, 32, 1152}), 12, "warps+regs");
    expect("H100, 1024 threads, 40 registers", residency_of(&h100, (struct block_demand){1024, 40, 8192}), 1, "regs");
    expect("H100, 256 threads, 125 registers", residency_of(&h100, (struct block_demand){256, 125, 16640}), 2, "regs");
    expect("H100, 16 threads", residency_of(&h100, (struct block_demand){16, 32, 128}), 32, "blocks");
    return bad;
}
EOF
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -Ilabs/lab7-matmul/driver "$tmp/residency7.c" labs/lab7-matmul/driver/residency.c \
    -o "$tmp/residency7" >"$tmp/log" 2>&1; then
    check "lab7 residency.h reproduces the seed's blocks-per-SM reasoning (8800 and H100)" "$tmp/residency7"
else
    fail "lab7 residency.h test builds" "$tmp/log"
fi

gpu_test "gpu: lab7 solution verified at 5 small shapes (CPU) and at 4096^3 (cuBLAS)" "$sol7" --check
gpu_test "gpu: lab7 solution verified at N 999 (odd) and seed 99" "$sol7" --check --n 999 --seed 99
timed_test "gpu: lab7 student file runs, TODO variants report not_implemented" bash -c "
    '$stu7' --quick --reps 2 --csv '$tmp/student7' &&
    grep -q '^7,untiled,0,.*,ok,' '$tmp/student7/tiles.csv' &&
    grep -q '^7,cublas_sgemm,0,.*,ok,' '$tmp/student7/tiles.csv' &&
    grep -q '^7,tiled_16,16,.*,not_implemented,' '$tmp/student7/tiles.csv' &&
    grep -q '^7,tiled_12_unrolled,12,.*,not_implemented,' '$tmp/student7/tiles.csv' &&
    grep -q '^7,register_blocked,128,.*,not_implemented,' '$tmp/student7/occupancy.csv'"
timed_test "gpu: lab7 16x16 tiles beat the untiled kernel at 4096^3" bash -c "
    '$sol7' --n 4096 --reps 5 --only untiled,tiled_16,tiled_16_unrolled --csv '$tmp/sol7' >/dev/null &&
    awk -f tests/judges/lab7-tiles.awk '$tmp/sol7/tiles.csv'"

fixture_checks 7 --n 999
