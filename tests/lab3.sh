# tests/lab3.sh - lab 3's own checks, sourced by tests/run.sh (helpers and variables there).
# Without a GPU: the bank model against its closed forms, tools/ncu-counters.sh against a
# stand-in ncu (tidy CSV, refused counters, no ncu), the fixtures build. With a GPU: the
# solution verified at several sizes, the student file's TODOs reported as not_implemented,
# the phenomenon (stride 32 at least 8x slower than stride 1 for 4-byte words, SoA faster
# than AoS for k = 2; the privatised histogram at least 3x faster than global atomics with
# one hot bin), planted bugs caught and named, and (where ncu works) the counters.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
sol3=$OUT/solution/lab3/lab3
stu3=$OUT/student/lab3/lab3
name="lab3 bank model: (w/4) gcd(s, 128/w) wavefronts, broadcast and padded column 1"
made "$name" "$HOST_OUT/tests/lab3_bank_model" && check "$name" "$HOST_OUT/tests/lab3_bank_model"

# A details page's rows as ncu writes them: one launch, two metrics (tests/fake-ncu replays
# them).
r='"1","9","lab3","h","void k_kernel(unsigned int *, int)","1","7","(256, 1, 1)","(4224, 1, 1)","0","9.0","Command line profiler metrics"'
printf '%s,"m_a","","1,081,344"\n%s,"m_b","","34,603,008"\n' "$r" "$r" >"$tmp/ncu3.csv"
check "ncu-counters.sh writes one tidy row per launch" bash -c "
    FAKE_NCU_OUTPUT='$tmp/ncu3.csv' NCU=tests/fake-ncu sh tools/ncu-counters.sh '$tmp/c.csv' m_a,m_b -- true &&
    [ \"\$(cat '$tmp/c.csv')\" = \"\$(printf 'kernel,launch,grid,block,m_a,m_b\nk_kernel,1,4224x1x1,256x1x1,1081344,34603008')\" ]"
check "ncu-counters.sh with counters refused: one line, exit 0, no CSV" bash -c "
    out=\$(FAKE_REFUSE=1 NCU=tests/fake-ncu sh tools/ncu-counters.sh '$tmp/d.csv' m_a -- true) &&
    [ \"\$(echo \"\$out\" | wc -l)\" -eq 1 ] && echo \"\$out\" | grep -q ERR_NVGPUCTRPERM && [ ! -e '$tmp/d.csv' ]"
check "ncu-counters.sh without ncu: one line, exit 0, no CSV" bash -c "
    out=\$(NCU=/nonexistent/ncu sh tools/ncu-counters.sh '$tmp/e.csv' m_a -- true) &&
    [ \"\$(echo \"\$out\" | wc -l)\" -eq 1 ] && echo \"\$out\" | grep -q 'not found' && [ ! -e '$tmp/e.csv' ]"

gpu_test "gpu: lab3 solution verified at sizes 1, 31, 4097, 100003 and 32 blocks per SM" "$sol3" --check
gpu_test "gpu: lab3 solution verified at odd size 777 and seed 99" "$sol3" --check --n 777 --seed 99
timed_test "gpu: lab3 student file runs, TODO variants report not_implemented" bash -c "
    '$stu3' --quick --csv '$tmp/student3' &&
    grep -q '^3,stride_4byte,1,.*,ok,' '$tmp/student3/stride.csv' &&
    grep -q '^3,struct_aos,1,.*,ok,' '$tmp/student3/struct.csv' &&
    grep -q '^3,struct_soa,.*,not_implemented,' '$tmp/student3/struct.csv' &&
    grep -q '^3,struct_padded,.*,not_implemented,' '$tmp/student3/struct.csv' &&
    grep -q '^3,tile_rows,32,.*,ok,' '$tmp/student3/tile.csv' &&
    grep -q '^3,tile_columns_padded,.*,not_implemented,' '$tmp/student3/tile.csv' &&
    grep -q '^3,hist_global_atomics,4096,.*,ok,hot1,' '$tmp/student3/histogram.csv' &&
    grep -q '^3,cub_histogram_even,4096,.*,ok,uniform,' '$tmp/student3/histogram.csv' &&
    grep -q '^3,hist_shared_privatised,.*,not_implemented,' '$tmp/student3/histogram.csv'"
timed_test "gpu: lab3 stride 32 at least 8x slower than stride 1 (4-byte words), SoA faster than AoS at k 2" bash -c "
    '$sol3' --quick --only stride_4byte,struct_aos,struct_soa --csv '$tmp/sol3' >/dev/null &&
    awk -f tests/judges/lab3-stride.awk '$tmp/sol3/stride.csv' && awk -f tests/judges/lab3-struct.awk '$tmp/sol3/struct.csv'"

timed_test "gpu: lab3 histogram: privatised at least 3x faster than global atomics on hot1, half of CUB at 4096 bins" bash -c "
    '$sol3' --quick --only hist_global_atomics,hist_shared_privatised --csv '$tmp/hist3' >/dev/null &&
    awk -f tests/judges/columns.awk -f tests/judges/lab3-histogram.awk '$tmp/hist3/histogram.csv'"

name="gpu: lab3 --counters: ncu wavefronts per request match the bank model (stride_4byte)"
judge_counters3() {
    awk -F, '$2 == "stride_4byte" && ($3 == 1 || $3 == 2 || $3 == 32) {
        printf "stride %s: model %s, ncu %s wavefronts per request\n", $3, $16, $21
        if ($21 == "" || $21 < 0.9 * $16 || $21 > 1.1 * $16 + 0.2) bad = 1; seen++ }
        END { exit bad || seen != 3 }' "$tmp/cnt3/stride.csv"
}
counters_test "$name" judge_counters3 "$sol3" --quick --only stride_4byte --counters --csv "$tmp/cnt3"

fixture_checks 3 --n 4099
