#!/bin/sh
# counters.sh [BINARY] - lab 8, the seed's Fig. 5 and 7 with Nsight Compute: L2 hit rate,
# achieved occupancy and DRAM bytes of v1/v2 (r 1), v4/v5 (r 3) and v7/v8 (r 5) before, at and
# after their predicted cliff (X = cliff/2, cliff, 2 x cliff, rounded to 32). One ncu run per
# point profiles the timed launch of `lab8 --cliff-only` (after its verified launch and one
# warm-up). Writes results/lab8/counters.csv (CSV_DIR=... to change the folder).
# Each point runs through tools/ncu-counters.sh; without ncu, or where counters are refused,
# it says so in one line and exits 0: the lab itself needs no counters.
# Then the roofline runs (512^3): v2_base_intz, v10_tuned and v11_tma for every radius, with the L2
# sectors read and written, the L2 partition fabric's busy share, and how often a warp
# scheduler issued and how many warps it had (what limits v10 at r = 4 and 5), in
# results/lab8/counters-roofline.csv.
bin=${1:-$(ls -d build/*/solution/lab8/lab8 2>/dev/null | head -n 1)}
out=${CSV_DIR:-results/lab8}/counters.csv
metrics=lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
if [ -z "$bin" ] || [ ! -x "$bin" ]; then echo "counters: no lab 8 binary (make lab8-build SOLUTION=1): skipped"; exit 0; fi
point=$(mktemp -d) && trap 'rm -rf "$point"' EXIT

# measure KERNEL SKIP METRICS ARGS...: profile the launch of KERNEL (an ncu --kernel-name)
# after SKIP others in `lab8 ARGS`; its values are then `values`. Without counters (ncu
# missing, counters refused, no such launch) it says why in one line and ends the script.
measure() {
    ncu_extra="--kernel-name $1 --launch-skip $2 --launch-count 1" ncu_metrics=$3
    shift 3
    NCU_EXTRA=$ncu_extra tools/ncu-counters.sh "$point/p.csv" "$ncu_metrics" -- "$bin" "$@" \
        --csv "$point/run" >"$point/said" 2>&1
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

mkdir -p "$(dirname "$out")"
echo "code,radius,nx,where,predicted_cliff_nx,l2_hit_pct,achieved_occupancy_pct,dram_read_bytes,dram_write_bytes,kernel_ns" >"$out"
for spec in v1_base:base_kernel:1 v2_base_intz:base_intz_kernel:1 v4_comp:comp_kernel:3 \
    v5_comp_intz:comp_intz_kernel:3 v7_csl:csl_kernel:5 v8_csl_intz:csl_intz_kernel:5; do
    code=${spec%%:*} rest=${spec#*:}
    kernel=${rest%%:*} r=${rest#*:}
    cliff=$(cliff_of "$r")
    for where in before at after; do
        case $where in before) x=$((cliff / 2)) ;; at) x=$cliff ;; *) x=$((2 * cliff)) ;; esac
        x=$(((x + 16) / 32 * 32))
        [ $x -lt 32 ] && x=32
        [ $x -gt 2048 ] && x=2048
        # the timed launch (after a verified one and a warm-up)
        measure "$kernel" 2 "$metrics" --cliff-only --only "$code" --radius "$r" --nx "$x" --reps 1
        echo "$code,$r,$x,$where,$cliff,$(values)" >>"$out"
    done
done
echo "counters: $out ($(($(wc -l <"$out") - 1)) points)"

# The verifying launch at 512^3 of each code and radius, after its launches on the awkward
# grids (five with an interior; v11 launches its own kernel only on 68x45x29, the others
# run v10's).
roof=${out%.csv}-roofline.csv
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,smsp__issue_active.avg.per_cycle_active,smsp__warps_active.avg.per_cycle_active,gpu__time_duration.sum
echo "code,radius,n,dram_read_bytes,dram_write_bytes,l2_read_sectors,l2_write_sectors,l2_fabric_busy_pct,instructions,issue_per_cycle,warps_per_scheduler,kernel_ns" >"$roof"
for spec in v2_base_intz:base_intz_kernel:5 v10_tuned:tuned_kernel:5 v11_tma:tma_kernel:1; do
    code=${spec%%:*} kernel=${spec#*:} skip=${spec##*:}
    kernel=${kernel%:*}
    for r in 1 2 3 4 5; do
        measure "regex:$kernel" "$skip" "$metrics" --check --n 512 --only "$code" --radius "$r"
        echo "$code,$r,512,$(values)" >>"$roof"
    done
done
echo "counters: $roof ($(($(wc -l <"$roof") - 1)) points)"
