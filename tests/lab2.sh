# tests/lab2.sh - lab 2's own checks, sourced by tests/run.sh (helpers and variables there).
# With a GPU: the solution verified at several sizes and thread counts, the student file's
# TODOs reported as not_implemented, the phenomenon (one warp far below the full GPU, wider
# words faster at one warp), --loads (the grader's timed run keeps one ILP curve), and planted
# bugs caught and named. The fixtures
# (tests/fixtures/lab2/*.sed) plant one bug each in the solution.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
sol2=$OUT/solution/lab2/lab2
stu2=$OUT/student/lab2/lab2
gpu_test "gpu: lab2 solution verified at sizes 1, 31, 4097, 1000003 and 4x L2, at every thread count" \
    "$sol2" --check
gpu_test "gpu: lab2 solution verified at odd size 777 and seed 99" "$sol2" --check --n 777 --seed 99
timed_test "gpu: lab2 student file runs, TODO variants report not_implemented" bash -c "
    '$stu2' --quick --csv '$tmp/student2' &&
    grep -q '^2,rmw_float,32,.*,ok,' '$tmp/student2/threads.csv' &&
    grep -q '^2,rmw_float2,.*,not_implemented,' '$tmp/student2/threads.csv' &&
    grep -q '^2,rmw_float4,.*,not_implemented,' '$tmp/student2/threads.csv' &&
    grep -q '^2,rmw_float_ilp,.*,not_implemented,' '$tmp/student2/ilp.csv' &&
    grep -q '^2,chase_page_by_page,.*,ok,' '$tmp/student2/latency.csv'"
timed_test "gpu: lab2 one warp at least 20x slower than the full GPU; float4 at least 2x float at one warp" bash -c "
    '$sol2' --quick --only rmw_float,rmw_float4 --csv '$tmp/sol2' >/dev/null &&
    awk -f tests/judges/lab2-threads.awk '$tmp/sol2/threads.csv'"
gpu_test "gpu: lab2 --loads 8 keeps the 8-load ILP curve alone (the grader's timed run); --loads 3 is bad usage" bash -c "
    '$sol2' --check --only rmw_float_ilp --loads 8 --n 7 >'$tmp/loads2' &&
    [ \$(grep -c 'verified with' '$tmp/loads2') -eq 1 ] && grep -q 'verified with 8 load(s)' '$tmp/loads2' &&
    { '$sol2' --check --loads 3 2>'$tmp/loads2.err'; [ \$? -eq 2 ]; } && grep -q 'give 1, 2, 4 or 8' '$tmp/loads2.err'"
fixture_checks 2 --n 4099
