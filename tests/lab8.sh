# tests/lab8.sh - lab 8's own checks, sourced by tests/run.sh (helpers and variables there).
# With a GPU: all nine codes verified for every radius (awkward grids, 256^3 on every row,
# 512^3 and the cliff sweep on sampled rows), again at odd sizes with another seed; the
# student file's TODO codes reported as not_implemented; the phenomenon (v1_base, radius 3,
# well past its predicted L2 cliff, falls below 85% of its speed well before it); planted
# bugs (tests/fixtures/lab8/*.sed, one each in the solution) caught and named.
sol8=$OUT/solution/lab8/lab8
stu8=$OUT/student/lab8/lab8
gpu_test "gpu: lab8 solution: nine codes x radii 1..5 verified (awkward grids, 256^3, 512^3, cliff sweep)" \
    "$sol8" --check
gpu_test "gpu: lab8 solution verified on 67^3, the cliff grid at X 96, seed 99" \
    "$sol8" --check --n 67 --nx 96 --seed 99
gpu_test "gpu: lab8 student file runs, TODO codes report not_implemented" bash -c "
    '$stu8' --quick --n 64 --nx 256 --csv '$tmp/student8' &&
    for e in radius roofline cliff; do
        grep -q '^8,v1_base,.*,ok,' \"$tmp/student8/\$e.csv\" &&
        grep -q '^8,v6_comp_intz_reg,.*,not_implemented,' \"$tmp/student8/\$e.csv\" &&
        grep -q '^8,v9_csl_intz_reg,.*,not_implemented,' \"$tmp/student8/\$e.csv\" || exit 1
    done"
gpu_test "gpu: lab8 v1_base at r 3 past its L2 cliff runs below 85% of its speed before it" bash -c "
    '$sol8' --quick --only v1_base --radius 3 --csv '$tmp/cliff8' >/dev/null &&
    awk -F, '/^8,v1_base,/ && \$14 == \"ok\" {
                 if (\$3 <= \$19 / 1.5) { before = \$18 > before ? \$18 : before }
                 if (\$3 >= 2 * \$19) { after = \$18 > after ? \$18 : after } }
             END { printf \"before the cliff: %s Gpoints/s, well past it: %s Gpoints/s\\n\", before, after;
                   exit !(before > 0 && after > 0 && after < 0.85 * before) }' '$tmp/cliff8/cliff.csv'"
for fx in tests/fixtures/lab8/*.sed; do
    name=$(basename "$fx" .sed)
    sed -f "$fx" solutions/lab8-stencil/kernels.cu >"$tmp/$name.cu"
    if cmp -s "$tmp/$name.cu" solutions/lab8-stencil/kernels.cu; then
        fail "lab8 fixture $name plants its bug" "" "the fixture no longer changes the solution"; continue
    fi
    if ! $MAKE -s lab8-build KERNELS="$tmp/$name.cu" >"$tmp/log" 2>&1; then
        fail "lab8 fixture $name builds with KERNELS=" "$tmp/log"; continue
    fi
    pass "lab8 fixture $name builds with KERNELS="
    if [ $have_gpu -eq 0 ]; then skip "gpu: lab8 fixture $name is caught and named" "no GPU"; continue; fi
    variant=$(sed -n 's/^# caught in: *\([a-z0-9_]*\).*/\1/p' "$fx" | head -n 1)
    "$OUT/custom/lab8/lab8" --check --quick --n 67 --nx 128 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    cat "$tmp/out" "$tmp/err" >"$tmp/log"
    if [ $rc -ne 0 ] && [ -n "$variant" ] && grep -q "$variant" "$tmp/err"; then
        pass "gpu: lab8 fixture $name is caught and named (exit $rc)"
    else
        fail "gpu: lab8 fixture $name is caught and named" "$tmp/log" "exit $rc, variant '$variant'"
    fi
done
