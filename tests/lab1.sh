# tests/lab1.sh - lab 1's own checks, sourced by tests/run.sh (helpers and variables there).
# With a GPU: the solution verified at several sizes, the student file's TODOs reported as
# not_implemented, the phenomenon (stride 32 far below stride 1), and planted bugs caught and
# named. The fixtures (tests/fixtures/lab1/*.sed) plant one bug each in the solution.
sol1=$OUT/solution/lab1/lab1
stu1=$OUT/student/lab1/lab1
gpu_test "gpu: lab1 solution verified at sizes 1, 31, 4097, 1000003 and 8x L2" "$sol1" --check
gpu_test "gpu: lab1 solution verified at odd size 777 and seed 99" "$sol1" --check --n 777 --seed 99
gpu_test "gpu: lab1 student file runs, TODO variants report not_implemented" bash -c "
    '$stu1' --quick --csv '$tmp/student' &&
    grep -q '^1,copy_contiguous,4,.*,ok,' '$tmp/student/width.csv' &&
    grep -q '^1,copy_float4,16,.*,not_implemented,' '$tmp/student/width.csv' &&
    grep -q ',copy_strided,.*,not_implemented,' '$tmp/student/stride.csv' &&
    grep -q ',copy_offset,.*,not_implemented,' '$tmp/student/offset.csv'"
gpu_test "gpu: lab1 stride 32 gives at most 1/4 of stride 1's useful bandwidth" bash -c "
    '$sol1' --quick --only copy_strided --csv '$tmp/sol' >/dev/null &&
    awk -F, '/^1,copy_strided,1,/ { s1 = \$11 } /^1,copy_strided,32,/ { s32 = \$11 }
             END { printf \"stride 1: %s GB/s, stride 32: %s GB/s\\n\", s1, s32; exit !(s1 > 0 && s32 > 0 && s1 >= 4 * s32) }' '$tmp/sol/stride.csv'"
for fx in tests/fixtures/lab1/*.sed; do
    name=$(basename "$fx" .sed)
    sed -f "$fx" solutions/lab1-coalescing/kernels.cu >"$tmp/$name.cu"
    if cmp -s "$tmp/$name.cu" solutions/lab1-coalescing/kernels.cu; then
        fail "lab1 fixture $name plants its bug" "" "the fixture no longer changes the solution"; continue
    fi
    if ! $MAKE -s lab1-build KERNELS="$tmp/$name.cu" >"$tmp/log" 2>&1; then
        fail "lab1 fixture $name builds with KERNELS=" "$tmp/log"; continue
    fi
    pass "lab1 fixture $name builds with KERNELS="
    if [ $have_gpu -eq 0 ]; then skip "gpu: lab1 fixture $name is caught and named" "no GPU"; continue; fi
    variant=$(sed -n 's|^/\(copy_[a-z0-9]*\)_kernel.*|\1|p' "$fx" | head -n 1)
    "$OUT/custom/lab1/lab1" --check --n 4099 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    cat "$tmp/out" "$tmp/err" >"$tmp/log"
    if [ $rc -ne 0 ] && [ -n "$variant" ] && grep -q "$variant" "$tmp/err"; then
        pass "gpu: lab1 fixture $name is caught and named (exit $rc)"
    else
        fail "gpu: lab1 fixture $name is caught and named" "$tmp/log" "exit $rc, variant '$variant'"
    fi
done

