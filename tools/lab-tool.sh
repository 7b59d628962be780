# lab-tool.sh - what tools/profile.sh and tools/sanitize.sh share; sourced by them after they
# set `who` (profile, sanitize) and `tools` (this folder). tool_args sets `lab`, `prog` (the
# lab program) and `dir` (where results go). A report is DIR/WHO.txt, with its runs' files
# in DIR/WHO/.
# shellcheck shell=sh disable=SC2154 # who and tools: set by the script that sources this

# Under compute-sanitizer or ncu a kernel runs many times slower (or is replayed many times):
# the lab program's kernel watchdog (common/timing.h) waits up to 300 s unless told otherwise.
: "${MEMLAB_KERNEL_LIMIT_S:=300}"
export MEMLAB_KERNEL_LIMIT_S

# tool_args "$@": LAB PROGRAM [DIR]; DIR defaults to results/labLAB. Exit 2 with a line on
# bad usage or where lab-tools.table has no row for the lab.
tool_args() {
    if [ $# -lt 2 ] || [ $# -gt 3 ]; then
        echo "usage: $tools/$who.sh LAB PROGRAM [DIR]" >&2
        exit 2
    fi
    lab=$1 prog=$2 dir=${3:-results/lab$1}
    if ! table kernels >/dev/null; then
        echo "$who: lab $lab has no row in tools/lab-tools.table" >&2
        exit 2
    fi
}

# table WHAT: a field of the lab's row in lab-tools.table (tools/lab-table.awk).
table() { awk -f "$tools/lab-table.awk" -v lab="$lab" -v want="$1" "$tools/lab-tools.table"; }

# need_tool KNOB NAME LABEL: sets tool_path to the CUDA toolkit's program NAME: $KNOB if set,
# else NAME on the PATH, else beside nvcc. Without it: one line, exit 3.
need_tool() {
    eval "tool_path=\${$1:-}"
    where=${tool_path:-$2 on the PATH or beside nvcc}
    [ -n "$tool_path" ] || tool_path=$(command -v "$2" || echo "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/$2")
    if ! command -v "$tool_path" >/dev/null 2>&1; then
        echo "$who: $3 not found ($where): it comes with the CUDA toolkit ($1=/path names it); nothing done"
        exit 3
    fi
}

# lab_variants: sets variants: $ONLY (A,B), else every variant the program lists.
lab_variants() {
    if [ -n "${ONLY:-}" ]; then
        variants=$(echo "$ONLY" | tr ',' ' ')
    elif ! variants=$("$prog" --list 2>/dev/null | awk '{ print $1 }') || [ -z "$variants" ]; then
        echo "$who: $prog --list named no variants: build the lab first (make lab$lab-build)" >&2
        exit 2
    fi
}

# start_report: an empty report body (DIR/WHO/summary.tmp); the old report goes.
start_report() {
    mkdir -p "$dir/$who"
    rm -f "$dir/$who.txt"
    body=$dir/$who/summary.tmp
    : >"$body"
    gpu=
}

# after_run LOG: where the lab program said there is no GPU, that line and exit 3; else
# remembers the GPU the program named.
after_run() {
    if grep -q 'no CUDA GPU found' "$1" 2>/dev/null; then
        echo "$who: $(grep -m 1 'no CUDA GPU found' "$1")"
        rm -f "$body"
        exit 3
    fi
    [ -n "$gpu" ] || gpu=$(sed -n "s/^lab$lab on \(.*\)/\1/p" "$1" 2>/dev/null | head -n 1)
}

# finish_report TOOLNAME RUN_LINE LINE: DIR/WHO.txt is a header (the tool, its version, the
# GPU; how each variant ran; LINE) and the body; printed too.
finish_report() {
    version=$("$tool_path" --version 2>/dev/null | sed -n 's/^Version \([^ ]*\).*/\1/p' | head -n 1)
    {
        echo "lab $lab $who: $1 ${version:-(version unknown)} on ${gpu:-an unnamed GPU}"
        echo "each variant run as: $2"
        echo "$3"
        echo
        cat "$body"
    } >"$dir/$who.txt"
    rm -f "$body"
    cat "$dir/$who.txt"
}
