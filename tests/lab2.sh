# tests/lab2.sh - lab 2's own checks, sourced by tests/run.sh (helpers and variables there).
# With a GPU: the solution verified at several sizes and thread counts, the student file's
# TODOs reported as not_implemented, the phenomenon (one warp far below the full GPU, wider
# words faster at one warp), and planted bugs caught and named. The fixtures
# (tests/fixtures/lab2/*.sed) plant one bug each in the solution.
# threads.csv columns: 3 param (threads), 11 gbps, 18 resident_threads.
sol2=$OUT/solution/lab2/lab2
stu2=$OUT/student/lab2/lab2
gpu_test "gpu: lab2 solution verified at sizes 1, 31, 4097, 1000003 and 4x L2, at every thread count" \
    "$sol2" --check
gpu_test "gpu: lab2 solution verified at odd size 777 and seed 99" "$sol2" --check --n 777 --seed 99
gpu_test "gpu: lab2 student file runs, TODO variants report not_implemented" bash -c "
    '$stu2' --quick --csv '$tmp/student2' &&
    grep -q '^2,rmw_float,32,.*,ok,' '$tmp/student2/threads.csv' &&
    grep -q '^2,rmw_float2,.*,not_implemented,' '$tmp/student2/threads.csv' &&
    grep -q '^2,rmw_float4,.*,not_implemented,' '$tmp/student2/threads.csv' &&
    grep -q '^2,rmw_float_ilp,.*,not_implemented,' '$tmp/student2/ilp.csv' &&
    grep -q '^2,chase_page_by_page,.*,ok,' '$tmp/student2/latency.csv'"
gpu_test "gpu: lab2 one warp at least 20x slower than the full GPU; float4 at least 2x float at one warp" bash -c "
    '$sol2' --quick --only rmw_float,rmw_float4 --csv '$tmp/sol2' >/dev/null &&
    awk -F, '\$2 == \"rmw_float\" && \$3 == 32 { warp = \$11 }
             \$2 == \"rmw_float\" && \$3 >= \$18 && full == \"\" { full = \$11; at = \$3 }
             \$2 == \"rmw_float4\" && \$3 == 32 { warp4 = \$11 }
             END { printf \"rmw_float: 1 warp %s GB/s, %s threads %s GB/s; rmw_float4: 1 warp %s GB/s\\n\", warp, at, full, warp4
                   exit !(warp > 0 && full >= 20 * warp && warp4 >= 2 * warp) }' '$tmp/sol2/threads.csv'"
for fx in tests/fixtures/lab2/*.sed; do
    name=$(basename "$fx" .sed)
    sed -f "$fx" solutions/lab2-throughput/kernels.cu >"$tmp/$name.cu"
    if cmp -s "$tmp/$name.cu" solutions/lab2-throughput/kernels.cu; then
        fail "lab2 fixture $name plants its bug" "" "the fixture no longer changes the solution"; continue
    fi
    if ! $MAKE -s lab2-build KERNELS="$tmp/$name.cu" >"$tmp/log" 2>&1; then
        fail "lab2 fixture $name builds with KERNELS=" "$tmp/log"; continue
    fi
    pass "lab2 fixture $name builds with KERNELS="
    if [ $have_gpu -eq 0 ]; then skip "gpu: lab2 fixture $name is caught and named" "no GPU"; continue; fi
    variant=$(sed -n 's|^/\(rmw_[a-z0-9_]*\)_kernel.*|\1|p' "$fx" | head -n 1)
    "$OUT/custom/lab2/lab2" --check --n 4099 --only "$variant" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    cat "$tmp/out" "$tmp/err" >"$tmp/log"
    if [ $rc -ne 0 ] && [ -n "$variant" ] && grep -q "$variant " "$tmp/err"; then
        pass "gpu: lab2 fixture $name is caught and named (exit $rc)"
    else
        fail "gpu: lab2 fixture $name is caught and named" "$tmp/log" "exit $rc, variant '$variant'"
    fi
done
