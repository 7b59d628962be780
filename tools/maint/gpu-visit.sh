#!/usr/bin/env bash
# gpu-visit.sh LAB... - one visit to a GPU machine: run `make test` (these labs' checks and
# the generic ones, or TEST_LABS's labs; TEST_LABS=none skips it), run each named lab with
# SOLUTION=1 (and ARGS_labN, if set), compare its medians with the committed reference
# (tools/maint/compare-runs.py), and pack the CSVs and logs into $OUT/visit.tar.gz after every step
# (the device tool returns at most 8 files). COST=1 also runs each lab's solution with
# --unguarded right after, and compares: what the timing guard costs, in the same visit.
# Extra diagnostics: set VISIT_EXTRA to a command.
#   tools/maint/gpu-visit.sh 1 6        (then unpack: tar xzf .../visit.tar.gz)
set -u
out=${OUT:-/tmp/visit}
# The revision the CSV headers record: .revision (written before the visit) wins over a
# .git the copy may carry, which need not match the tree that was sent.
rev=$(cat .revision 2>/dev/null || git describe --always --dirty 2>/dev/null || echo unknown)
mkdir -p "$out/visit"
log=$out/visit
# Packed after every step, so that a command stopped at its time limit still returns data.
pack() { tar czf "$out/visit.tar.gz" -C "$out" visit; }
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.mem,temperature.gpu --format=csv
    nvcc --version | tail -n 1
    echo "revision: $rev"
} >"$log/machine.txt" 2>&1
cat "$log/machine.txt"
if [ "${TEST_LABS:-}" != none ]; then
    make test LABS="${TEST_LABS:-$*}" GIT_REV="$rev" 2>&1 | tee "$log/test.log" | grep -E 'FAIL|SKIP' || true
    grep -E 'passed' "$log/test.log"
    pack
fi
for n in "$@"; do
    args=$(eval echo "\${ARGS_lab$n:-}") # e.g. ARGS_lab3=--counters
    make "lab$n" SOLUTION=1 ARGS="$args" GIT_REV="$rev" >"$log/lab$n.log" 2>&1
    echo "lab$n SOLUTION=1: exit $?"
    mkdir -p "$log/lab$n" && cp results/lab"$n"/*.csv "$log/lab$n/" 2>/dev/null
    tail -n 25 "$log/lab$n.log"
    echo "lab$n against the committed reference:"
    python3 tools/maint/compare-runs.py "handouts/reference/lab$n" "$log/lab$n" | tee "$log/lab$n-vs-reference.txt"
    if [ "${COST:-0}" = 1 ]; then
        bin=$(make -s print-OUT)/solution/lab$n/lab$n
        # shellcheck disable=SC2086 # $args: ARGS_labN's options, split
        "$bin" --unguarded --csv "$log/lab$n-unguarded" $args >"$log/lab$n-unguarded.log" 2>&1
        echo "lab$n --unguarded: exit $?; guarded against unguarded:"
        python3 tools/maint/compare-runs.py "$log/lab$n-unguarded" "$log/lab$n" | tee "$log/lab$n-cost.txt"
    fi
    pack
done
if [ -n "${VISIT_EXTRA:-}" ]; then
    bash -c "$VISIT_EXTRA" >"$log/extra.log" 2>&1
    echo "extra: exit $?"; tail -n 40 "$log/extra.log"
fi
pack && rm -rf "$out/visit"
