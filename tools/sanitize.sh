#!/bin/sh
# sanitize.sh N PROGRAM [DIR] - `make sanitize-labN`: lab N's kernels under compute-sanitizer.
# Runs PROGRAM (a build of lab N) once per variant and tool, `compute-sanitizer --tool TOOL
# PROGRAM ARGS --only VARIANT`, with the small checking run that tools/lab-tools.table gives
# the lab (--check: awkward sizes, nothing timed), so that what a tool finds is the
# variant's. Tools: memcheck (out-of-bounds and misaligned accesses, faults), racecheck
# (shared-memory races), initcheck (reads of global memory never written). Writes
#   DIR/sanitize.txt                 one line per variant, with where each kind of error was
#                                    first seen (tools/sanitize-summary.awk)
#   DIR/sanitize/VARIANT.TOOL.log    what compute-sanitizer and the program printed
# DIR defaults to results/labN; sanitize.txt is also printed.
# Exit 0 when every run was clean; 1 when a tool found something, a run failed or timed out;
# 2 on bad usage; 3 without compute-sanitizer or without a GPU (one line).
# Knobs: ONLY=A,B (these variants), TOOLS='memcheck racecheck' (these tools),
# COMPUTE_SANITIZER=path, SANITIZE_TIMEOUT=seconds per run (default 600).
#   tools/sanitize.sh 6 build/sm_90/student/lab6/lab6
set -u
tools=$(dirname "$0")
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 LAB PROGRAM [DIR]" >&2
    exit 2
fi
lab=$1 prog=$2 dir=${3:-results/lab$1}
if ! args=$(awk -f "$tools/lab-table.awk" -v lab="$lab" -v want=sanitize_args "$tools/lab-tools.table"); then
    echo "sanitize: lab $lab has no row in tools/lab-tools.table" >&2
    exit 2
fi
checks=$(echo "${TOOLS:-memcheck racecheck initcheck}" | tr ',' ' ')
for t in $checks; do
    case $t in memcheck | racecheck | initcheck | synccheck) ;; *) echo "sanitize: no tool named $t (memcheck, racecheck, initcheck, synccheck)" >&2; exit 2 ;; esac
done

# compute-sanitizer: COMPUTE_SANITIZER, else on the PATH, else beside nvcc (the toolkit's bin/)
san=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/compute-sanitizer")}
if ! command -v "$san" >/dev/null 2>&1; then
    where="compute-sanitizer on the PATH or beside nvcc"
    [ -n "${COMPUTE_SANITIZER:-}" ] && where=$COMPUTE_SANITIZER
    echo "sanitize: compute-sanitizer not found ($where): it comes with the CUDA toolkit (COMPUTE_SANITIZER=/path names it); nothing checked"
    exit 3
fi
if [ -n "${ONLY:-}" ]; then
    variants=$(echo "$ONLY" | tr ',' ' ')
elif ! variants=$("$prog" --list 2>/dev/null | awk '{ print $1 }') || [ -z "$variants" ]; then
    echo "sanitize: $prog --list named no variants: build the lab first (make lab$lab-build)" >&2
    exit 2
fi

mkdir -p "$dir/sanitize"
rm -f "$dir/sanitize.txt"
body=$dir/sanitize/summary.tmp
: >"$body"
status=0 gpu=
for v in $variants; do
    set --
    for t in $checks; do
        log=$dir/sanitize/$v.$t.log
        # shellcheck disable=SC2086 # ARGS is a list of options
        timeout "${SANITIZE_TIMEOUT:-600}" "$san" --tool "$t" "$prog" $args --only "$v" >"$log" 2>&1
        echo "== sanitize.sh: exit $?" >>"$log"
        if grep -q 'no CUDA GPU found' "$log"; then
            echo "sanitize: $(grep -m 1 'no CUDA GPU found' "$log")"
            rm -f "$body"
            exit 3
        fi
        [ -n "$gpu" ] || gpu=$(sed -n "s/^lab$lab on \(.*\)/\1/p" "$log" | head -n 1)
        set -- "$@" "$log"
    done
    awk -f "$tools/sanitize-summary.awk" -v variant="$v" "$@" >>"$body" || status=1
done
version=$("$san" --version 2>/dev/null | sed -n 's/^Version \([^ ]*\).*/\1/p' | head -n 1)
{
    echo "lab $lab sanitize: compute-sanitizer ${version:-(version unknown)} on ${gpu:-an unnamed GPU}"
    echo "each variant run as: compute-sanitizer --tool TOOL $prog $args --only VARIANT"
    echo "logs: $dir/sanitize/VARIANT.TOOL.log"
    echo
    cat "$body"
} >"$dir/sanitize.txt"
rm -f "$body"
cat "$dir/sanitize.txt"
exit $status
