# tests/lab1.sh - lab 1's own checks, sourced by tests/run.sh (helpers and variables there).
# With a GPU: the solution verified at several sizes, the student file's TODOs reported as
# not_implemented, the phenomenon (stride 32 far below stride 1), and planted bugs caught and
# named. The fixtures (tests/fixtures/lab1/*.sed) plant one bug each in the solution.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
sol1=$OUT/solution/lab1/lab1
stu1=$OUT/student/lab1/lab1
gpu_test "gpu: lab1 solution verified at sizes 1, 31, 4097, 1000003 and 8x L2" "$sol1" --check
gpu_test "gpu: lab1 solution verified at odd size 777 and seed 99" "$sol1" --check --n 777 --seed 99
timed_test "gpu: lab1 student file runs, TODO variants report not_implemented" bash -c "
    '$stu1' --quick --csv '$tmp/student' &&
    grep -q '^1,copy_contiguous,4,.*,ok,' '$tmp/student/width.csv' &&
    grep -q '^1,copy_float4,16,.*,not_implemented,' '$tmp/student/width.csv' &&
    grep -q ',copy_strided,.*,not_implemented,' '$tmp/student/stride.csv' &&
    grep -q ',copy_offset,.*,not_implemented,' '$tmp/student/offset.csv'"
timed_test "gpu: lab1 stride 32 gives at most 1/4 of stride 1's useful bandwidth" bash -c "
    '$sol1' --quick --only copy_strided --csv '$tmp/sol' >/dev/null &&
    awk -f tests/judges/lab1-stride.awk '$tmp/sol/stride.csv'"
fixture_checks 1 --n 4099

