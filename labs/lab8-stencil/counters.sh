#!/bin/sh
# counters.sh [BINARY] [table] [curve] [roofline] - lab 8 under Nsight Compute, one profiled
# launch a point: the timed launch of `lab8 --cliff-only` (after its verified launch and one
# warm-up) or the verifying launch at 512^3. Each runs through tools/ncu-counters.sh; without
# ncu, or where counters are refused, it says so in one line and exits 0: the lab itself needs
# no counters. CSV_DIR=... changes the folder (results/lab8); COUNTERS_LOG=FILE appends what
# each point's run printed (the lab, ncu) to FILE. The parts (all three by default):
# table     the seed's Fig. 5 and 7: L2 hit rate, achieved occupancy and DRAM bytes of v1/v2
#           (r 1), v7/v8 (r 5) and v4/v5 (r 3) before, at and after their predicted cliff
#           (X = cliff/2, cliff, 2 x cliff, rounded to 32), in counters.csv.
# curve     the same codes at X = 1/4, 3/8, 1/2, 5/8, 3/4, 1, 3/2, 2 and 4 x the predicted cliff
#           (rounded to 32; none above 2048, the lab's largest X), in l2-cliff.csv, which
#           plot-l2-cliff.gp draws: a lab CSV whose time is ncu's (gpu__time_duration of the
#           one profiled launch, the clocks left alone), its row verified by the lab, then
#           the counters (52 points on the H100, 52 launches of ncu).
# roofline  v2_base_intz, v10_tuned and v11_tma at 512^3 for every radius, with the L2 sectors
#           read and written, the L2 partition fabric's busy share, and how often a warp
#           scheduler issued and how many warps it had (what limits v10 at r = 4 and 5), in
#           counters-roofline.csv.
bin='' parts=''
for arg; do
    case $arg in
    table | curve | roofline) parts="$parts $arg" ;;
    *) bin=$arg ;;
    esac
done
bin=${bin:-$(ls -d build/*/solution/lab8/lab8 2>/dev/null | head -n 1)}
parts=${parts:-table curve roofline}
dir=${CSV_DIR:-results/lab8}
if [ -z "$bin" ] || [ ! -x "$bin" ]; then echo "counters: no lab 8 binary (make lab8-build SOLUTION=1): skipped"; exit 0; fi
point=$(mktemp -d) && trap 'rm -rf "$point"' EXIT

# measure KERNEL SKIP METRICS ARGS...: profile the launch of KERNEL (an ncu --kernel-name)
# after SKIP others in `lab8 ARGS`; its values are then `values`, the lab's own CSVs in
# $point/run. Without counters (ncu missing, counters refused, no such launch) it says why in
# one line and ends the script.
measure() {
    ncu_extra="--kernel-name $1 --launch-skip $2 --launch-count 1" ncu_metrics=$3
    shift 3
    rm -rf "$point/run"
    NCU_EXTRA=$ncu_extra tools/ncu-counters.sh "$point/p.csv" "$ncu_metrics" -- "$bin" "$@" \
        --csv "$point/run" >"$point/said" 2>&1
    [ -z "${COUNTERS_LOG:-}" ] || { echo "== $bin $* ($ncu_extra)" && cat "$point/said" "$point/p.log" 2>/dev/null; } >>"$COUNTERS_LOG"
    if [ ! -s "$point/p.csv" ]; then
        grep -m 1 '^counters:' "$point/said"
        exit 0
    fi
}
values() { tail -n 1 "$point/p.csv" | cut -d, -f5-; }

# "predicted cliffs at X = 1026 (r 1), 615 (r 2), ..." from a quick verifying run
cliffs=$("$bin" --check --cliff-only --only v1_base --radius 1 --nx 64 | sed -n 's/.*predicted cliffs at X = //p')
cliff_of() { echo "$cliffs" | tr ',' '\n' | sed -n "s/^ *\([0-9]*\) (r $1).*/\1/p"; }
[ -n "$(cliff_of 1)" ] || { echo "counters: $bin did not print the predicted cliffs: skipped"; exit 0; }
mkdir -p "$dir"
started=$(date +%s)

# code:kernel:radius of the plain codes and their INTZ versions (COMP last: the seed's Fig. 5
# and 7 have it, the lesson needs BASE, CSL and INTZ most)
cliff_codes="v1_base:base_kernel:1 v2_base_intz:base_intz_kernel:1 v7_csl:csl_kernel:5
    v8_csl_intz:csl_intz_kernel:5 v4_comp:comp_kernel:3 v5_comp_intz:comp_intz_kernel:3"
# x_at CLIFF EIGHTHS: the X of EIGHTHS/8 x CLIFF, rounded to 32, at least 32
x_at() {
    x=$((($1 * $2 / 8 + 16) / 32 * 32))
    echo $((x < 32 ? 32 : x))
}

if echo "$parts" | grep -q table; then
    out=$dir/counters.csv
    metrics=lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
    echo "code,radius,nx,where,predicted_cliff_nx,l2_hit_pct,achieved_occupancy_pct,dram_read_bytes,dram_write_bytes,kernel_ns" >"$out"
    for spec in $cliff_codes; do
        code=${spec%%:*} rest=${spec#*:}
        kernel=${rest%%:*} r=${rest#*:}
        cliff=$(cliff_of "$r")
        for where in before at after; do
            case $where in before) x=$(x_at "$cliff" 4) ;; at) x=$(x_at "$cliff" 8) ;; *) x=$(x_at "$cliff" 16) ;; esac
            [ "$x" -gt 2048 ] && x=2048
            measure "$kernel" 2 "$metrics" --cliff-only --only "$code" --radius "$r" --nx "$x" --reps 1
            echo "$code,$r,$x,$where,$cliff,$(values)" >>"$out"
        done
    done
    echo "counters: $out ($(($(wc -l <"$out") - 1)) points)"
fi

# The lab's row of the point with ncu's time of the launch in place of the lab's (the events
# around a replayed launch time the profiler too), then the counters.
if echo "$parts" | grep -q curve; then
    out=$dir/l2-cliff.csv
    metrics=gpu__time_duration.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum
    rm -f "$out"
    count=0
    for spec in $cliff_codes; do
        code=${spec%%:*} rest=${spec#*:}
        kernel=${rest%%:*} r=${rest#*:}
        cliff=$(cliff_of "$r")
        for eighths in 2 3 4 5 6 8 12 16 32; do
            x=$(x_at "$cliff" $eighths)
            [ "$x" -gt 2048 ] && continue
            measure "$kernel" 2 "$metrics" --cliff-only --only "$code" --radius "$r" --nx "$x" --reps 1 --n 64
            [ -s "$out" ] || awk -F, '/^# date: / { sub(/timing: [a-z]+/, "timing: ncu, one launch") }
                /^#/ { print; next } { print $0 ",l2_hit_pct,achieved_occupancy_pct,dram_read_bytes,dram_write_bytes"; exit }' \
                "$point/run/cliff.csv" >"$out"
            awk -F, -v OFS=, -v ncu="$(values)" '
                /^# ceiling_copy_gbps: / { ceiling = $0; sub(/^# ceiling_copy_gbps: /, "", ceiling); sub(/ .*/, "", ceiling) }
                /^#/ { next }
                !names++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
                {
                    split(ncu, v, ",")
                    ms = v[1] / 1e6
                    if ($c["status"] == "ok" && ms > 0) {
                        $c["ms_median"] = $c["ms_min"] = $c["ms_max"] = sprintf("%.6f", ms)
                        $c["reps"] = 1
                        $c["gbps"] = sprintf("%.2f", $c["bytes"] / (ms * 1e6))
                        $c["gflops"] = sprintf("%.2f", $c["flops"] / (ms * 1e6))
                        $c["pct_of_ceiling"] = sprintf("%.2f", 100 * $c["bytes"] / (ms * 1e6) / ceiling)
                        $c["gstencil_s"] = sprintf("%.2f", $c["n"] / (ms * 1e6))
                    }
                    print $0, v[2], v[3], v[4], v[5]
                }' "$point/run/cliff.csv" >>"$out"
            count=$((count + 1))
        done
    done
    echo "counters: $out ($count points, $(($(date +%s) - started)) s)"
fi

# The verifying launch at 512^3 of each code and radius, after its launches on the awkward
# grids (five with an interior; v11 launches its own kernel only on 68x45x29, the others
# run v10's).
if echo "$parts" | grep -q roofline; then
    out=$dir/counters-roofline.csv
    metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,smsp__issue_active.avg.per_cycle_active,smsp__warps_active.avg.per_cycle_active,gpu__time_duration.sum
    echo "code,radius,n,dram_read_bytes,dram_write_bytes,l2_read_sectors,l2_write_sectors,l2_fabric_busy_pct,instructions,issue_per_cycle,warps_per_scheduler,kernel_ns" >"$out"
    for spec in v2_base_intz:base_intz_kernel:5 v10_tuned:tuned_kernel:5 v11_tma:tma_kernel:1; do
        code=${spec%%:*} kernel=${spec#*:} skip=${spec##*:}
        kernel=${kernel%:*}
        for r in 1 2 3 4 5; do
            measure "regex:$kernel" "$skip" "$metrics" --check --n 512 --only "$code" --radius "$r"
            echo "$code,$r,512,$(values)" >>"$out"
        done
    done
    echo "counters: $out ($(($(wc -l <"$out") - 1)) points)"
fi
