# tests/lab9.sh - lab 9's own checks, sourced by tests/run.sh (helpers and variables there).
# Without a GPU: the volume model's CPU tests (tests/unit/lab9_model.cu: the driver's count on
# configurations worked out by hand, the layer condition, the solution's closed forms against
# the count at every configuration of the sweep), and the student file's TODOs reported as
# not implemented there. With a GPU: the given kernels and the solution's formulas verified
# (awkward grids, every shape at every n), the student file's run (kernels timed, formulas
# not implemented, the machine's probes in their CSVs: an SM issues 2.5 to 4.2 warp
# instructions a clock, a DRAM load takes 200 to 1000 ns), the phenomenon (the seed's
# bandwidth model is a lower bound: no point more than 15% faster than its max(V/BW); the
# lab's model at n = 512 within 25% on average for each code, and closer than the seed's),
# and planted formula bugs (tests/fixtures/lab9/*.sed) named.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
sol9=$OUT/solution/lab9/lab9
stu9=$OUT/student/lab9/lab9
made "unit lab9 model tests" "$OUT/tests/lab9_model_solution" &&
    unit_run "unit lab9 model tests" "$OUT/tests/lab9_model_solution"
name="unit lab9: the student file's volumes report not implemented, nothing else fails"
made "$name" "$OUT/tests/lab9_model_student" && check "$name" bash -c "
    ! '$OUT/tests/lab9_model_student' > '$tmp/unit9s' &&
    [ \$(grep -c 'volumes agree .*FAIL not implemented' '$tmp/unit9s') -eq 3 ] &&
    [ \$(grep -c ': FAIL' '$tmp/unit9s') -eq 3 ]"
gpu_test "gpu: lab9 solution: kernels on awkward grids and every shape at every n, formulas against the count" \
    "$sol9" --check
gpu_test "gpu: lab9 solution verified at n 128 and 640, seed 99" bash -c "'$sol9' --check --n 128 --seed 99 && '$sol9' --check --n 640 --quick"
timed_test "gpu: lab9 student file runs: kernels timed, formulas not implemented, the machine probed" bash -c "
    '$stu9' --quick --n 256 --csv '$tmp/student9' > '$tmp/stu9.out' &&
    grep -q '^k1_7pt_blocking  *not implemented' '$tmp/stu9.out' &&
    grep -q '^9,k1_7pt_blocking,.*,ok,' '$tmp/student9/model.csv' &&
    grep -q '^9,k3_27pt_tiling,.*,ok,' '$tmp/student9/model.csv' &&
    grep -q '^9,l2_reread,.*,ok,' '$tmp/student9/bandwidth.csv' &&
    awk -f tests/judges/lab9-issue.awk '$tmp/student9/issue.csv' && awk -f tests/judges/lab9-latency.awk '$tmp/student9/latency.csv'"
timed_test "gpu: lab9 the seed's model is a lower bound, the lab's model predicts n = 512 within 25% and better" bash -c "
    '$sol9' --quick --csv '$tmp/sol9' > /dev/null &&
    awk -f tests/judges/columns.awk -f tests/judges/lab9-model.awk '$tmp/sol9/model.csv'"
fixture_checks 9 --quick --n 256
