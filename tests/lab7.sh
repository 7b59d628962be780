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

name="lab7 residency.h reproduces the seed's blocks-per-SM reasoning (8800 and H100)"
made "$name" "$HOST_OUT/tests/lab7_residency" && check "$name" "$HOST_OUT/tests/lab7_residency"

gpu_test "gpu: lab7 solution verified at 5 small shapes (CPU) and at 4096^3 (cuBLAS)" "$sol7" --check
gpu_test "gpu: lab7 solution verified at N 999 (odd) and seed 99" "$sol7" --check --n 999 --seed 99
timed_test "gpu: lab7 student file runs, TODO variants report not_implemented" bash -c "
    '$stu7' --quick --reps 2 --csv '$tmp/student7' &&
    grep -q '^7,untiled,0,.*,ok,' '$tmp/student7/tiles.csv' &&
    grep -q '^7,cublas_sgemm,0,.*,ok,' '$tmp/student7/tiles.csv' &&
    grep -q '^7,tiled_16,16,.*,not_implemented,' '$tmp/student7/tiles.csv' &&
    grep -q '^7,tiled_12_unrolled,12,.*,not_implemented,' '$tmp/student7/tiles.csv' &&
    grep -q '^7,register_blocked,128,.*,not_implemented,' '$tmp/student7/occupancy.csv' &&
    grep -q '^7,warp_tiled,128,.*,not_implemented,' '$tmp/student7/occupancy.csv' &&
    test ! -e '$tmp/student7/sizes.csv'"
timed_test "gpu: lab7 16x16 tiles beat the untiled kernel at 4096^3" bash -c "
    '$sol7' --n 4096 --reps 5 --only untiled,tiled_16,tiled_16_unrolled --csv '$tmp/sol7' >/dev/null &&
    awk -f tests/judges/lab7-tiles.awk '$tmp/sol7/tiles.csv'"

fixture_checks 7 --n 999
