#!/bin/sh
# ncu-counters.sh OUT.csv METRICS -- PROGRAM [ARGS...]
# Run PROGRAM under Nsight Compute, one profiled pass per kernel launch:
#     ncu --csv --clock-control none --print-units base --print-kernel-base function
#         --metrics METRICS PROGRAM ARGS...
# and write OUT.csv, one row per kernel launch, in launch order:
#     kernel,launch,grid,block,<metric>,<metric>,...
# kernel is the function's name (commas made ';'), launch ncu's launch ID, grid and block
# XxYxZ, metric values plain numbers (ncu's thousands separators removed), empty where
# ncu gave none. PROGRAM's output and ncu's messages go to OUT.log.
# MARKER=NAME: launches of a kernel whose name contains NAME number the points of a run:
# they get no row, and every row after one gets a first column `point`, the marker's grid
# x size - 1 (empty before the first marker). The lab programs' --counters use it through
# common/probes/profile.h (profile_mark, profile_self); lab 8's counters.sh runs a point at a time.
# Exit 0 with one line and no OUT.csv when ncu is missing or GPU performance counters are
# not permitted (ERR_NVGPUCTRPERM); 1 with one line when the run failed or ncu reported no
# kernel; 2 on bad usage. NCU=path picks the ncu binary; NCU_EXTRA adds options.
#   tools/ncu-counters.sh /tmp/c.csv l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum -- build/sm_90/solution/lab3/lab3 --check --profile-once --quick
set -u
if [ $# -lt 4 ] || [ "$3" != "--" ]; then
    echo "usage: $0 OUT.csv METRIC[,METRIC...] -- PROGRAM [ARGS...]" >&2
    exit 2
fi
out=$1 metrics=$2
shift 3
ncu=${NCU:-ncu}
log=${out%.csv}.log
rm -f "$out"
if ! command -v "$ncu" >/dev/null 2>&1; then
    echo "counters: Nsight Compute ($ncu) not found; no counters collected"
    exit 0
fi
raw=$out.raw
# ncu replays each kernel: the lab program's kernel watchdog (common/timing.h) allows 300 s.
: "${MEMLAB_KERNEL_LIMIT_S:=300}"
export MEMLAB_KERNEL_LIMIT_S
# shellcheck disable=SC2086 # NCU_EXTRA is a list of options
"$ncu" --csv --clock-control none --print-units base --print-kernel-base function \
    --metrics "$metrics" --log-file "$raw" ${NCU_EXTRA:-} "$@" >"$log" 2>&1
rc=$?
[ -f "$raw" ] || : >"$raw"
if grep -q 'ERR_NVGPUCTRPERM' "$raw" "$log"; then
    echo "counters: GPU performance counters are not permitted for this user (ERR_NVGPUCTRPERM); no counters collected"
    rm -f "$raw"
    exit 0
fi
awk -v metrics="$metrics" -v out="$out" -v marker="${MARKER:-}" '
    function split_quoted(line, arr) { # "a","b","c" -> arr[1..n]
        sub(/^"/, "", line); sub(/"[ \r]*$/, "", line)
        return split(line, arr, /","/)
    }
    function number(v) { gsub(/,/, "", v); return v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ ? v : "" }
    function dims(v) { gsub(/[() ]/, "", v); gsub(/,/, "x", v); return v }
    /^"ID","/ { split_quoted($0, head); for (i in head) col[head[i]] = i; header = 1; next }
    header && /^"/ {
        split_quoted($0, f)
        id = f[col["ID"]]
        if (!(id in kernel)) {
            order[++launches] = id
            name = f[col["Kernel Name"]]; sub(/\(.*/, "", name); sub(/^void /, "", name); gsub(/,/, ";", name)
            kernel[id] = name; grid[id] = dims(f[col["Grid Size"]]); block[id] = dims(f[col["Block Size"]])
        }
        value[id, f[col["Metric Name"]]] = number(f[col["Metric Value"]])
    }
    END {
        if (!launches) exit 1
        m = split(metrics, names, ",")
        line = (marker != "" ? "point," : "") "kernel,launch,grid,block"
        for (j = 1; j <= m; j++) line = line "," names[j]
        print line > out
        point = ""
        for (i = 1; i <= launches; i++) {
            id = order[i]
            if (marker != "" && index(kernel[id], marker)) { split(grid[id], g, "x"); point = g[1] - 1; continue }
            line = (marker != "" ? point "," : "") kernel[id] "," id "," grid[id] "," block[id]
            for (j = 1; j <= m; j++) line = line "," ((id, names[j]) in value ? value[id, names[j]] : "")
            print line > out
        }
    }' "$raw"
parsed=$?
cat "$raw" >>"$log"
rm -f "$raw"
if [ $parsed -ne 0 ]; then
    rm -f "$out"
    echo "counters: ncu reported no kernel (exit $rc); see $log"
    exit 1
fi
if [ $rc -ne 0 ]; then
    echo "counters: the profiled run failed (exit $rc), keeping what ncu reported; see $log"
fi
echo "counters: $(($(wc -l <"$out") - 1)) launch(es) in $out"
exit 0
