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
who=sanitize tools=$(dirname "$0")
# shellcheck source=tools/lab-tool.sh
. "$tools/lab-tool.sh"
tool_args "$@"
args=$(table sanitize_args)
checks=$(echo "${TOOLS:-memcheck racecheck initcheck}" | tr ',' ' ')
for t in $checks; do
    case $t in memcheck | racecheck | initcheck | synccheck) ;; *) echo "sanitize: no tool named $t (memcheck, racecheck, initcheck, synccheck)" >&2; exit 2 ;; esac
done
need_tool COMPUTE_SANITIZER compute-sanitizer compute-sanitizer
lab_variants

start_report
status=0
for v in $variants; do
    set --
    for t in $checks; do
        log=$dir/sanitize/$v.$t.log
        # shellcheck disable=SC2086 # ARGS is a list of options
        timeout "${SANITIZE_TIMEOUT:-600}" "$tool_path" --tool "$t" "$prog" $args --only "$v" >"$log" 2>&1
        echo "== sanitize.sh: exit $?" >>"$log"
        after_run "$log"
        set -- "$@" "$log"
    done
    awk -f "$tools/sanitize-summary.awk" -v variant="$v" "$@" >>"$body" || status=1
done
finish_report compute-sanitizer "compute-sanitizer --tool TOOL $prog $args --only VARIANT" \
    "logs: $dir/sanitize/VARIANT.TOOL.log"
exit $status
