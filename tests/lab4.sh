# tests/lab4.sh - lab 4's own checks, sourced by tests/run.sh (helpers and variables there).
# Without a GPU: the twin build (kernels.cu compiled with -dlcm=ca and -dlcm=cg, both in one
# program), the SASS of the two builds (cuobjdump, from the toolkit or from pip's
# nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm; skipped without), the read-only trap, the
# chase's building blocks (common/probes/chase.h) against a walk, the edge finder (edges.h) on
# synthetic curves, plot-l2sweep.gp on a synthetic CSV, tools/ncu-counters.sh's MARKER join
# with a stand-in ncu, the fixtures build. With a GPU: the solution verified, the student
# file's TODOs reported as not_implemented, the phenomenon in a loose form (an L1 step in ca
# only, DRAM slower than L2, the stencil slower under cg at r 8, the copy alike; the L2
# sweep's edges at the L2 and at half of it), planted bugs caught and named, and (where ncu
# works) the L1 hit rates.
# CSV columns: reuse 3 radius, 15 build, 16 l1_hit_pct (the judges in tests/judges/ name theirs).
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
sol4=$OUT/solution/lab4/lab4
stu4=$OUT/student/lab4/lab4
obj4=$OUT/solution/lab4
arch4=$($MAKE -s print-ARCH)

check "lab4 twin build: kernels_ca.o and kernels_cg.o, both tables in one program" bash -c "
    [ -f '$obj4/kernels_ca.o' ] && [ -f '$obj4/kernels_cg.o' ] &&
    nm '$sol4' | grep -q ' lab4_variants_ca\$' && nm '$sol4' | grep -q ' lab4_variants_cg\$' &&
    nm '$stu4' | grep -q ' lab4_variants_cg\$'"

# SASS: what -dlcm changed. cuobjdump is not in every toolkit install; pip has it.
sass_name="lab4 SASS: each kernel's global loads differ between the ca and cg builds, none read-only"
ARCH=$arch4 sh labs/lab4-l1cache/sass.sh "$obj4" >"$tmp/sass4" 2>&1
if grep -q '^sass: cuobjdump' "$tmp/sass4"; then
    skip "$sass_name" "cuobjdump not found (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)"
    skip "lab4 SASS: a const __restrict__ load is LDG.E.CONSTANT in both builds (the trap)" "cuobjdump not found"
else
    # shellcheck disable=SC2016 # awk's own $ fields
    check "$sass_name" awk '
        { ops[$1, $2] = ops[$1, $2] " " $3; kernels[$2] = 1; if ($3 ~ /CONSTANT/) ro = 1 }
        END { for (k in kernels) { n++; printf "%s: ca%s | cg%s\n", k, ops["ca", k], ops["cg", k]
                                   if (ops["ca", k] == "" || ops["ca", k] == ops["cg", k]) same = 1 }
              exit !(n == 3 && !same && !ro) }' "$tmp/sass4"
    check "lab4 SASS: a const __restrict__ load is LDG.E.CONSTANT in both builds (the trap)" bash -c "
        ARCH=$arch4 sh labs/lab4-l1cache/sass.sh --trap | tee '$tmp/trap4' &&
        [ \$(grep -c 'LDG.E.CONSTANT' '$tmp/trap4') -eq 2 ] && ! grep -v CONSTANT '$tmp/trap4' | grep -q LDG"
fi

name="lab4 chase: the links are one cycle, and a walk ends where chase_position says (common/probes/chase.h)"
made "$name" "$HOST_OUT/tests/lab4_chase" && check "$name" "$HOST_OUT/tests/lab4_chase"

name="lab4 edges: steps give their capacity and knee, a creep no edge; a fall in bandwidth its halfway (edges.h)"
made "$name" "$HOST_OUT/tests/lab4_edges" && check "$name" "$HOST_OUT/tests/lab4_edges"

# plot-l2sweep.gp on both kinds of CSV the driver writes (tests/run.sh renders the reference,
# which has bisection points): a made-up one, two modes falling from 2000 to 1000 GB/s at the
# L2 and at half of it, with one bisection point each and without (as --grid-only writes it).
sweep_csv() {
    awk -v refined="$1" 'BEGIN {
        l2 = 52428800
        print "# lab: 4\n# gpu: synthetic (tests/lab4.sh)\n# cc: 9.0 | sms: 2 | l2_bytes: " l2 " | driver: 0 | runtime: 0"
        print "# ceiling_copy_gbps: 1000.0 | theoretical_dram_gbps: 1000.0"
        print "# date: 2000-01-01T00:00:00Z | git: none | seed: 1 | build: none | timing: guarded"
        print "lab,variant,param,n,bytes,flops,ms_median,ms_min,ms_max,reps,gbps,gflops,pct_of_ceiling,status," \
              "footprint_bytes,blocks,threads,passes,sample"
        for (m = 0; m < 2; m++)
            for (k = 0; k <= 40 + refined; k++) {
                cap = m ? l2 / 2 : l2
                v = m ? "reread_every_sm" : "reread_shared"
                f = k <= 40 ? int(l2 / 8 * 2 ^ (k / 8) / 512 + 0.5) * 512 : cap + 512
                g = f <= cap ? 2000 : 1000
                ms = 1073.741824 / g
                printf "4,%s,%d,%d,1073741824,0,%.6f,%.6f,%.6f,20,%.2f,,,ok,%d,2,256,1,%s\n",
                       v, f, f / 4, ms, ms, ms, g, f, k <= 40 ? "grid" : "half"
            }
    }'
}
render_sweep4() {
    local c
    for c in 1 0; do
        if ! { sweep_csv $c >"$tmp/l2sweep-$c.csv" &&
            gnuplot -e "csv='$tmp/l2sweep-$c.csv'; out='$tmp/l2sweep-$c'; formats='both'" \
                labs/lab4-l1cache/plot-l2sweep.gp >"$tmp/l2sweep-$c.log" 2>&1 &&
            [ ! -s "$tmp/l2sweep-$c.log" ] && [ -s "$tmp/l2sweep-$c.png" ] && [ -s "$tmp/l2sweep-$c.pdf" ]; }; then
            cat "$tmp/l2sweep-$c.log"
            return 1
        fi
    done
}
if [ "$have_gnuplot" -eq 1 ]; then
    check "plot lab4 l2sweep renders a synthetic CSV, with bisection points and without" render_sweep4
else
    skip "plot lab4 l2sweep renders a synthetic CSV, with bisection points and without" "gnuplot not installed"
fi

# For MARKER: a details page's rows (tests/fake-ncu replays them) in which a marker launch (grid 3:
# point 2) comes before two kernels, and one kernel comes before any.
row() { printf '"%s","9","lab4","h","%s","1","7","(%s, 1, 1)","(%s, 1, 1)","0","9.0","Command line profiler metrics","m_a","","%s"\n' "$@"; }
{ row 1 "void k_kernel(float *)" 256 10 "1.5"; row 2 "memlab_profile_marker()" 1 3 "0"
  row 3 "void k_kernel(float *)" 256 10 "2,5"; row 4 "chase_kernel(unsigned int *)" 32 1 "7"; } >"$tmp/ncu4.csv"
check "ncu-counters.sh MARKER=: marker launches number the rows after them" bash -c "
    MARKER=memlab_profile_marker FAKE_NCU_OUTPUT='$tmp/ncu4.csv' NCU=tests/fake-ncu sh tools/ncu-counters.sh '$tmp/m.csv' m_a -- true &&
    [ \"\$(cat '$tmp/m.csv')\" = \"\$(printf 'point,kernel,launch,grid,block,m_a\n,k_kernel,1,10x1x1,256x1x1,1.5\n2,k_kernel,3,10x1x1,256x1x1,25\n2,chase_kernel,4,1x1x1,32x1x1,7')\" ]"

gpu_test "gpu: lab4 solution verified at awkward sizes, every radius, awkward chains and a footprint a doubling" "$sol4" --check
gpu_test "gpu: lab4 solution verified at odd size 777 (and a chain of 777 links), seed 99" "$sol4" --check --n 777 --seed 99
timed_test "gpu: lab4 student file runs, TODO variants report not_implemented" bash -c "
    '$stu4' --quick --csv '$tmp/student4' &&
    grep -q '^4,copy_stream,0,.*,ok,ca,' '$tmp/student4/copy.csv' &&
    grep -q '^4,copy_stream,0,.*,ok,cg,' '$tmp/student4/copy.csv' &&
    grep -q '^4,stencil_1d,.*,not_implemented,ca' '$tmp/student4/reuse.csv' &&
    grep -q '^4,chase,.*,not_implemented,cg' '$tmp/student4/staircase.csv' &&
    grep -q '^4,l1_reread,.*,ok,l1,' '$tmp/student4/bandwidth.csv'"
timed_test "gpu: lab4 an L1 step in ca only, DRAM slower than L2, stencil r 8 slower under cg, the copy alike" bash -c "
    '$sol4' --quick --csv '$tmp/sol4' >'$tmp/sol4.log' &&
    awk -f tests/judges/lab4-staircase.awk '$tmp/sol4/staircase.csv' &&
    awk -f tests/judges/lab4-reuse.awk '$tmp/sol4/reuse.csv' && awk -f tests/judges/lab4-copy.awk '$tmp/sol4/copy.csv'"

# The L2 sweep's edges (l2sweep.h), from the --quick run above ('$tmp/sol4'), judged against
# what the device reports: the shared mode's (each line read by one SM) within 10% of the L2,
# the every_sm mode's (every SM reads every line) within 10% of half the L2.
judge_sweep4() {
    grep '^l2sweep ' "$tmp/sol4.log" &&
        awk -v l2="$(sh tools/csvmeta.sh "$tmp/sol4/l2sweep.csv" l2_bytes)" '
            /^l2sweep (shared|every_sm): edge/ { edge[$2] = $5 * 1024 }
            END { s = edge["shared:"] / l2; e = edge["every_sm:"] / (l2 / 2)
                  printf "shared edge %.3f x the L2, every_sm edge %.3f x half the L2\n", s, e
                  exit !(l2 > 0 && s >= 0.9 && s <= 1.1 && e >= 0.9 && e <= 1.1) }' "$tmp/sol4.log"
}
name="gpu: lab4 l2sweep edges within 10% of the L2 (shared) and of half the L2 (every_sm)"
if [ "$have_gpu" -eq 0 ]; then skip "$name" "no GPU"; else check "$name" judge_sweep4; fi

# The refined edges (edges.h), from the same --quick run, judged against what the device
# reports, not against this GPU's figures: the staircase's L1 onset (the first hops that miss)
# within 10% of the L1 the shared memory in force leaves (the CSV's l1_kib), and the
# carveout's L1 onsets moving KiB for KiB with the L1 left (the fitted slope within 10% of 1).
# The quick run refines the same edges as the default one (on the H100: onset -3.4% and slope
# 0.998 over 3 capacities, against -3.2% and 1.001 over 7), in 4.5 s instead of 11.
judge_edge4() {
    grep -E '^  ca edge 1:|^carveout fit' "$tmp/sol4.log" &&
        awk -F, '/^lab,/ { for (i = 1; i <= NF; i++) if ($i == "l1_kib") c = i; next } !/^#/ && c { l1 = $c }
                 END { print l1 }' "$tmp/sol4/staircase.csv" >"$tmp/edge4.l1" &&
        awk -v l1="$(cat "$tmp/edge4.l1")" '/^  ca edge 1:/ { onset = $5 } /^carveout fit \(onset\)/ { slope = $7 }
            END { printf "L1 onset %s KiB against %s KiB in force; fit slope %s\n", onset, l1, slope
                  exit !(l1 > 0 && onset > 0.9 * l1 && onset < 1.1 * l1 && slope >= 0.9 && slope <= 1.1) }' "$tmp/sol4.log"
}
name="gpu: lab4 refined L1 edge within 10% of the L1 in force; carveout fit slope 0.9-1.1"
if [ "$have_gpu" -eq 0 ]; then skip "$name" "no GPU"; else check "$name" judge_edge4; fi

name="gpu: lab4 --counters: ncu's L1 hit rate of the stencil (r 8) far higher under ca than cg"
judge_counters4() {
    awk -F, '$2 == "stencil_1d" && $3 == 8 { hit[$15] = $16 }
        END { printf "r 8: L1 hit rate ca %s%%, cg %s%%\n", hit["ca"], hit["cg"]
              exit !(hit["ca"] != "" && hit["cg"] != "" && hit["ca"] > hit["cg"] + 20) }' \
        "$tmp/cnt4/reuse.csv"
}
counters_test "$name" judge_counters4 "$sol4" --quick --only stencil_1d --counters --csv "$tmp/cnt4"

fixture_checks 4 --n 4099
