# tests/lab6.sh - lab 6's own checks, sourced by tests/run.sh (helpers and variables there).
# With a GPU: every step of the solution verified at the awkward sizes and every timed size,
# the student file's TODO steps reported as not_implemented, the phenomenon (step 7 at least
# 5x faster than step 1 at 2^24), and planted bugs caught and named. Each fixture
# (tests/fixtures/lab6/*.sed) plants one bug in the solution and names, in a line
# "# caught as: VARIANT", the variant whose failure must be reported.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
sol6=$OUT/solution/lab6/lab6
stu6=$OUT/student/lab6/lab6
gpu_test "gpu: lab6 solution verified at awkward sizes and at 2^20 ... 2^28 (--check --full)" \
    "$sol6" --check --full
gpu_test "gpu: lab6 solution verified at n 1, 31 and 1000003, seed 99" bash -c "
    '$sol6' --check --n 1 --seed 99 && '$sol6' --check --n 31 --seed 99 &&
    '$sol6' --check --n 1000003 --seed 99"
timed_test "gpu: lab6 student file runs, step 1 and CUB verified, steps 2-10 not_implemented" bash -c "
    '$stu6' --quick --csv '$tmp/student6' &&
    grep -q '^6,v1_interleaved_divergent,1,.*,ok,' '$tmp/student6/steps.csv' &&
    grep -q '^6,cub_device_reduce_sum,0,.*,ok,' '$tmp/student6/steps.csv' &&
    for v in v2_strided_index v3_sequential_addressing v4_first_add_during_load \
             v5_unroll_last_warp v6_complete_unroll v7_multiple_elements v8_warp_shuffle_vec4 \
             v9_single_pass_last_block v10_larger_blocks; do
        grep -q \"^6,\$v,.*,not_implemented,\" '$tmp/student6/steps.csv' || { echo \"\$v: no not_implemented row\"; exit 1; }
    done"
timed_test "gpu: lab6 step 7 at least 5x faster than step 1 at 2^24" bash -c "
    '$sol6' --n 2^24 --only v1_interleaved_divergent,v7_multiple_elements --csv '$tmp/sol6' >/dev/null &&
    awk -f tests/judges/lab6-steps.awk '$tmp/sol6/steps.csv'"
fixture_checks 6 --n 4099
