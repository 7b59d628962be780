# tests/tools.sh - checks of `make profile-labN` and `make sanitize-labN` (tools/profile.sh,
# tools/sanitize.sh, their summaries and tools/lab-tools.table), sourced by tests/run.sh
# (helpers and variables there). Without a GPU: the table against the labs (its kernels
# exist, every kernel a lab compiles is profiled or skipped, its arguments parse), the
# summaries made from ncu rows (per-kernel figures, named points) and compute-sanitizer
# reports (tests/fake-ncu, tests/fake-compute-sanitizer, tests/fake-lab,
# tests/sanitize-samples/), the one-line exits (no ncu, no compute-sanitizer, no GPU,
# counters not permitted), the race fixture builds.
# With a GPU (and the tool): memcheck names lab 1's out-of-bounds fixture, racecheck lab 6's
# race, lab 1's solution is clean, the profile of lab 1's contiguous copy shows 4 sectors per
# request, and that of lab 3's privatised histogram names its points and counts their shared
# atomics. Its KERNELS= builds go to build/<arch>/custom-tools/ (CUSTOM=tools): the labs' own
# sections build theirs at the same time in custom/. Sanitizer runs share the GPU
# (gpu_shared); ncu has it alone.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
table_of() { awk -f tools/lab-table.awk -v lab="$1" -v want="$2" tools/lab-tools.table; }

# ---- the table ---------------------------------------------------------------------------
for n in $LAB_NUMS; do
    src="$(lab_dir "$n")/*.cu*" # kernels.cu declares the kernels (lab 9: stencils.cuh, given)
    check "lab-tools.table: lab$n has a row, known metrics, and kernels named in $src" bash -c "
        kernels=\$(awk -f tools/lab-table.awk -v lab=$n -v want=kernels tools/lab-tools.table) &&
        awk -f tools/lab-table.awk -v lab=$n -v want=ncu_metrics tools/lab-tools.table >/dev/null &&
        for k in \$(echo \"\$kernels\" | tr '|' ' '); do
            if [ \"\$k\" = profile_marker ]; then grep -q profile_marker $(lab_dir "$n")/*.cu $(lab_dir "$n")/*.h common/probes/*.cu 2>/dev/null
            else grep -Eq \"\$k\" $src; fi || { echo \"no kernel matches \$k\"; exit 1; }
        done"
    # Parsing comes before the GPU: a lab that takes the arguments stops at the missing GPU (3), not at them (2).
    bin=$OUT/student/lab$n/lab$n
    first=$("$bin" --list 2>/dev/null | awk 'NR == 1 { print $1 }')
    for what in profile sanitize; do
        args=$(table_of "$n" ${what}_args)
        # shellcheck disable=SC2086 # $args: the table's arguments, split
        expect_exit "lab-tools.table: lab$n takes the $what arguments ($args --only $first)" 3 \
            env CUDA_VISIBLE_DEVICES= "$bin" $args --only "$first"
    done
done
expect_exit "lab-table.awk: no row for lab 99" 1 awk -f tools/lab-table.awk -v lab=99 -v want=kernels tools/lab-tools.table

# Every kernel a lab's own code compiles (kernels.cu, and driver/ with the lesson files it
# includes) is profiled, or left out by a `skip` row that says why: judged on the build, so
# that kernels made by macros and templates count too. The names are those of the host stubs
# nvcc makes for each kernel (__device_stub__Z<length><name>...; a namespace's: N<length><name>).
kernel_names() { # OBJECT...: the kernels compiled into them, one a line
    nm "$@" 2>/dev/null | awk '{ s = $NF; i = index(s, "__device_stub__Z"); if (!i) next
        s = substr(s, i + 16); if (substr(s, 1, 1) == "N") s = substr(s, 2)
        if (match(s, /^[0-9]+/)) print substr(s, RLENGTH + 1, substr(s, 1, RLENGTH)) }' | sort -u
}
# unprofiled_kernels N OBJECT...: each kernel of the objects that lab N's row does not profile
# and no skip row names, each skip row of lab N that names none of them, each `kernel` row
# whose part names no profiled kernel; one a line, nothing when the table covers the lab.
unprofiled_kernels() {
    local n=$1 names profiled skipped k
    shift
    names=$(kernel_names "$@")
    [ -n "$names" ] || { echo "no kernel found in $*: not built?"; return; }
    profiled=$(table_of "$n" kernels) skipped=$(table_of "$n" skipped)
    for k in $names; do
        echo "$k" | grep -Eq "$profiled" || echo "$skipped" | grep -qx "[0-9*]* $k" ||
            echo "$k: not profiled (add a part of its name to lab $n's row) nor skipped"
    done
    for k in $(echo "$skipped" | awk '$1 != "*" { print $2 }'); do
        echo "$names" | grep -qx "$k" || echo "skip row of lab $n: lab $n compiles no kernel $k"
    done
    for k in $(table_of "$n" figures | awk -F'|' '$5 != "" { print $5 }' | sort -u); do
        echo "$names" | grep -E "$profiled" | grep -qF "$k" || echo "kernel row of lab $n: no profiled kernel contains $k"
    done
}
covers_kernels() { # N OBJECT...: unprofiled_kernels says nothing (else what it says, and 1)
    local out
    out=$(unprofiled_kernels "$@")
    [ -z "$out" ] || { echo "$out"; return 1; }
}
flavour=solution
[ -d solutions ] || flavour=student
for n in $LAB_NUMS; do
    check "lab-tools.table: every kernel lab$n's $flavour compiles is profiled, or skipped with a reason" \
        covers_kernels "$n" "$OUT/$flavour/lab$n"/kernels*.o "$OUT/driver/lab$n"/*.o
done

# ---- profile: the summary from ncu's rows --------------------------------------------------
# ncu details-page rows (tests/fake-ncu replays them per variant): lab 1's strided copy at a
# checked small size, then at two strides of the profiled size; the misaligned copy's two
# launches of one shape; lab 3's points after its markers.
row() { # ID KERNEL BLOCK GRID METRIC VALUE
    printf '"%s","9","lab","h","%s","1","7","(%s, 1, 1)","(%s, 1, 1)","0","9.0","Command line profiler metrics","%s","","%s"\n' "$@"
}
mkdir -p "$tmp/ncu1" "$tmp/ncu3"
ld=l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio
{ row 1 "copy_strided_kernel" 256 1 gpu__time_duration.sum 1800; row 1 "copy_strided_kernel" 256 1 $ld 1
  row 2 "copy_strided_kernel" 256 3072 gpu__time_duration.sum "5,216"; row 2 "copy_strided_kernel" 256 3072 $ld 4
  row 2 "copy_strided_kernel" 256 3072 dram__bytes_read.sum "3,145,728"
  row 3 "copy_strided_kernel" 256 96 gpu__time_duration.sum "4,100"; row 3 "copy_strided_kernel" 256 96 $ld 32
} >"$tmp/ncu1/copy_strided.csv"
{ row 4 "copy_offset_kernel" 256 3072 gpu__time_duration.sum 5300; row 4 "copy_offset_kernel" 256 3072 $ld 4
  row 5 "copy_offset_kernel" 256 3072 gpu__time_duration.sum 5500; row 5 "copy_offset_kernel" 256 3072 $ld 5
} >"$tmp/ncu1/copy_offset.csv"
cat >"$tmp/profile1.expected" <<'EOF'
copy_strided
  copy_strided_kernel  grid 3072x1x1  block 256x1x1  (1 launch)
    sectors per global load request 4.00, sectors per global store request n/a,
    DRAM read 3.15 MB, DRAM written n/a, kernel time 5.2 us
  copy_strided_kernel  grid 96x1x1  block 256x1x1  (1 launch)
    sectors per global load request 32.00, sectors per global store request n/a, DRAM read n/a,
    DRAM written n/a, kernel time 4.1 us
  + 1 launch shape of the checks before (1 launch), not shown

copy_offset
  copy_offset_kernel  grid 3072x1x1  block 256x1x1  (2 launches)
    sectors per global load request 4.00 .. 5.00, sectors per global store request n/a,
    DRAM read n/a, DRAM written n/a, kernel time 5.3 us .. 5.5 us

copy_float4
  not implemented yet: nothing to profile

EOF
FAKE_LAB_VARIANTS="copy_strided copy_offset copy_float4" FAKE_LAB_TODO=copy_float4 FAKE_NCU_OUTPUT=$tmp/ncu1 \
    NCU=tests/fake-ncu sh tools/profile.sh 1 tests/fake-lab "$tmp/p1" >"$tmp/out" 2>&1
rc=$?
tail -n +5 "$tmp/p1/profile.txt" 2>/dev/null | diff "$tmp/profile1.expected" - >"$tmp/log" 2>&1
if [ $rc -eq 0 ] && [ ! -s "$tmp/log" ] && cmp -s "$tmp/out" "$tmp/p1/profile.txt" &&
    grep -q '^lab 1 profile: Nsight Compute 0.0.0.0 on Fake GPU' "$tmp/p1/profile.txt" &&
    grep -q -- '--check --quick --n 16M --only VARIANT' "$tmp/p1/profile.txt" && [ -s "$tmp/p1/profile/copy_offset.csv" ]; then
    pass "profile.sh: the profiled size's shapes largest first, ranges, units, TODO variants; printed and in profile.txt"
else
    cat "$tmp/out" >>"$tmp/log"
    fail "profile.sh: the profiled size's shapes largest first, ranges, units, TODO variants; printed and in profile.txt" "$tmp/log" "exit $rc"
fi

wf=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum req=smsp__inst_executed_op_shared_ld.sum
{ row 1 "memlab_profile_marker" 1 1 gpu__time_duration.sum 900
  row 2 "stride_4byte_kernel" 256 4224 $wf "1,081,344"; row 2 "stride_4byte_kernel" 256 4224 $req "1,081,344"
  row 3 "lab3_profile_marker" 1 2 gpu__time_duration.sum 900
  row 4 "stride_4byte_kernel" 256 4224 $wf "34,603,008"; row 4 "stride_4byte_kernel" 256 4224 $req "1,081,344"
} >"$tmp/ncu3/stride_4byte.csv"
check "profile.sh: labs that mark their points (lab 3): one group per point, wavefronts per request from two counters" bash -c "
    ONLY=stride_4byte FAKE_NCU_OUTPUT='$tmp/ncu3' NCU=tests/fake-ncu sh tools/profile.sh 3 tests/fake-lab '$tmp/p3' &&
    grep -A 1 '^  point 0: stride_4byte_kernel  grid 4224x1x1' '$tmp/p3/profile.txt' | grep -q 'shared wavefronts per load request 1.00,' &&
    grep -A 1 '^  point 1: stride_4byte_kernel  grid 4224x1x1' '$tmp/p3/profile.txt' | grep -q 'shared wavefronts per load request 32.00,' &&
    ! tail -n +5 '$tmp/p3/profile.txt' | grep -q marker"

# Lab 3's histogram: its kernels show the figures of their `kernel` row (atomics, not bank
# conflicts), and each point is named by the line the program printed before it.
sa=smsp__inst_executed_op_shared_atom.sum swf=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
red=l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
{ row 1 "memlab_profile_marker" 1 1 gpu__time_duration.sum 900
  row 2 "hist_shared_privatised_kernel" 1024 264 $sa "262,144"; row 2 "hist_shared_privatised_kernel" 1024 264 $swf "524,288"
  row 2 "hist_shared_privatised_kernel" 1024 264 $red "8,448"; row 2 "hist_shared_privatised_kernel" 1024 264 $wf 264
  row 2 "hist_shared_privatised_kernel" 1024 264 gpu__time_duration.sum "41,300"
  row 3 "memlab_profile_marker" 1 2 gpu__time_duration.sum 900
  row 4 "hist_shared_privatised_kernel" 1024 264 $sa "262,144"; row 4 "hist_shared_privatised_kernel" 1024 264 $swf "7,602,176"
  row 4 "hist_shared_privatised_kernel" 1024 264 $red 264; row 4 "hist_shared_privatised_kernel" 1024 264 lts__t_bytes.sum "35,000,000"
} >"$tmp/ncu3/hist_shared_privatised.csv"
cat >"$tmp/profile3h.expected" <<'EOF'
hist_shared_privatised
  point 0 (uniform, 32 bins): hist_shared_privatised_kernel  grid 264x1x1  block 1024x1x1  (1 launch)
    shared atomics 262 k, wavefronts per shared atomic 2.00,
    global atomics, no return (RED) 8.45 k, global atomics, returning (ATOM) n/a, L2 traffic n/a,
    kernel time 41.3 us
  point 1 (hot1, 32 bins): hist_shared_privatised_kernel  grid 264x1x1  block 1024x1x1  (1 launch)
    shared atomics 262 k, wavefronts per shared atomic 29.00,
    global atomics, no return (RED) 264, global atomics, returning (ATOM) n/a, L2 traffic 35 MB,
    kernel time n/a

EOF
check "profile.sh: a kernel row's figures for its kernels (lab 3's histogram), points named as the program named them" bash -c "
    ONLY=hist_shared_privatised FAKE_LAB_SAYS=\$'profile point 0: uniform, 32 bins\nprofile point 1: hot1, 32 bins' \\
        FAKE_NCU_OUTPUT='$tmp/ncu3' NCU=tests/fake-ncu sh tools/profile.sh 3 tests/fake-lab '$tmp/p3h' >/dev/null &&
    tail -n +5 '$tmp/p3h/profile.txt' | diff '$tmp/profile3h.expected' -"

# The one-line exits.
FAKE_REFUSE=1 NCU=tests/fake-ncu sh tools/profile.sh 1 tests/fake-lab "$tmp/p4" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 4 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q 'ERR_NVGPUCTRPERM' "$tmp/out" &&
    grep -q 'NVreg_RestrictProfilingToAdminUsers=0' "$tmp/out" && grep -q 'root' "$tmp/out" && [ ! -e "$tmp/p4/profile.txt" ]; then
    pass "profile.sh with counters not permitted: one line saying how an admin allows them, exit 4"
else
    fail "profile.sh with counters not permitted: one line saying how an admin allows them, exit 4" "$tmp/out" "exit $rc"
fi
expect_one_line() { # NAME CODE PATTERN COMMAND...: exit CODE, one line of output matching PATTERN
    local name=$1 code=$2 pattern=$3 rc
    shift 3
    "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq "$code" ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "$pattern" "$tmp/out"; then
        pass "$name"
    else
        fail "$name" "$tmp/out" "exit $rc, expected $code and one line matching '$pattern'"
    fi
}
expect_one_line "profile.sh without ncu: one line, exit 3" 3 '^profile: Nsight Compute (ncu) not found' \
    env NCU=/nonexistent/ncu sh tools/profile.sh 1 tests/fake-lab "$tmp/p5"
expect_one_line "sanitize.sh without compute-sanitizer: one line, exit 3" 3 '^sanitize: compute-sanitizer not found' \
    env COMPUTE_SANITIZER=/nonexistent/compute-sanitizer sh tools/sanitize.sh 1 tests/fake-lab "$tmp/s5"
case " $LAB_NUMS " in *" 1 "*)
    stu1=$OUT/student/lab1/lab1
    expect_one_line "profile.sh without a GPU: the lab's one line, exit 3" 3 '^profile: lab1: no CUDA GPU found' \
        env CUDA_VISIBLE_DEVICES= NCU=tests/fake-ncu sh tools/profile.sh 1 "$stu1" "$tmp/p6"
    expect_one_line "sanitize.sh without a GPU: the lab's one line, exit 3" 3 '^sanitize: lab1: no CUDA GPU found' \
        env CUDA_VISIBLE_DEVICES= COMPUTE_SANITIZER=tests/fake-compute-sanitizer sh tools/sanitize.sh 1 "$stu1" "$tmp/s6"
    check "make profile-lab1 and sanitize-lab1 stop with the tool's line where the tool is missing" bash -c "
        $MAKE profile-lab1 NCU=/nonexistent/ncu >'$tmp/m1' 2>&1; [ \$? -ne 0 ] && grep -q '^profile: Nsight Compute (ncu) not found' '$tmp/m1' &&
        $MAKE sanitize-lab1 COMPUTE_SANITIZER=/nonexistent/cs >'$tmp/m2' 2>&1; [ \$? -ne 0 ] && grep -q '^sanitize: compute-sanitizer not found' '$tmp/m2'"
    ;;
esac

# ---- sanitize: the summary from compute-sanitizer's reports ------------------------------------
# tests/sanitize-samples/expected.txt: these variants, with these tools' logs, in this order.
specs="copy_strided:memcheck,racecheck,initcheck copy_strided:racecheck,initcheck v3_sequential_addressing:racecheck \
       old_format:racecheck v8_warp_shuffle_vec4:memcheck,initcheck beta:memcheck slow:memcheck"
check "sanitize-summary.awk: compute-sanitizer's reports summarised per variant and kind of error (tests/sanitize-samples)" bash -c "
    for spec in $specs; do
        v=\${spec%%:*}; set --
        for t in \$(echo \${spec#*:} | tr , ' '); do set -- \"\$@\" tests/sanitize-samples/\$v.\$t.log; done
        awk -f tools/sanitize-summary.awk -v variant=\$v \"\$@\"; echo \"exit \$?\"
    done | diff tests/sanitize-samples/expected.txt -"
FAKE_LAB_VARIANTS="copy_strided beta gamma" FAKE_LAB_TODO=beta FAKE_SANITIZER_OUTPUT=tests/sanitize-samples \
    COMPUTE_SANITIZER=tests/fake-compute-sanitizer sh tools/sanitize.sh 1 tests/fake-lab "$tmp/s1" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && cmp -s "$tmp/out" "$tmp/s1/sanitize.txt" &&
    grep -q '^copy_strided: memcheck 3 errors (invalid global write, CUDA error cudaErrorLaunchFailure), racecheck 0 hazards, initcheck 0 errors$' "$tmp/out" &&
    grep -q '^beta: not implemented yet: nothing to check$' "$tmp/out" &&
    grep -q '^gamma: memcheck 0 errors, racecheck 0 hazards, initcheck 0 errors$' "$tmp/out" &&
    grep -q -- '--tool TOOL tests/fake-lab --check --n 4099 --only VARIANT' "$tmp/out" &&
    grep -q '^args: --check --n 4099 --only gamma$' "$tmp/s1/sanitize/gamma.initcheck.log" &&
    [ "$(ls "$tmp/s1/sanitize" | wc -l)" -eq 9 ]; then
    pass "sanitize.sh: each variant on its own under each tool, its line names what was found, exit 1"
else
    fail "sanitize.sh: each variant on its own under each tool, its line names what was found, exit 1" "$tmp/out" "exit $rc"
fi
check "sanitize.sh: TOOLS= and ONLY= narrow the runs; clean runs exit 0" bash -c "
    out=\$(ONLY=gamma TOOLS=memcheck,racecheck COMPUTE_SANITIZER=tests/fake-compute-sanitizer sh tools/sanitize.sh 1 tests/fake-lab '$tmp/s2') &&
    echo \"\$out\" | grep -q '^gamma: memcheck 0 errors, racecheck 0 hazards\$' && [ \"\$(ls '$tmp/s2/sanitize')\" = \"\$(printf 'gamma.memcheck.log\ngamma.racecheck.log')\" ]"
expect_exit "sanitize.sh: an unknown tool is bad usage" 2 env TOOLS=nocheck sh tools/sanitize.sh 1 tests/fake-lab "$tmp/s3"

# ---- with a GPU: the tools on planted bugs ----------------------------------------------------
have_sanitizer=0
{ command -v compute-sanitizer || [ -x "$(dirname "$(command -v nvcc)")/compute-sanitizer" ]; } >/dev/null 2>&1 && have_sanitizer=1
# sanitize_fixture N SED TOOL A,B FOUND CLEAN NAME: lab N's solution with the bug SED plants,
# under TOOL, variants A and B: sanitize.sh exits 1, a line matches FOUND (an ERE) and the
# line CLEAN is there (the bug is the variant's, not the run's).
sanitize_fixture() {
    local n=$1 fixture=$2 tool=$3 only=$4 found=$5 clean=$6 name=$7 rc
    if [ "$have_gpu" -eq 0 ]; then skip "$name" "no GPU"; return; fi
    if [ $have_sanitizer -eq 0 ]; then skip "$name" "compute-sanitizer not installed"; return; fi
    sed -f "$fixture" "solutions/$(basename "$(lab_dir "$n")")/kernels.cu" >"$tmp/fixture$n.cu"
    $MAKE -s "lab$n-build" KERNELS="$tmp/fixture$n.cu" CUSTOM=tools >"$tmp/log" 2>&1 &&
        gpu_shared env ONLY="$only" TOOLS="$tool" sh tools/sanitize.sh "$n" "$OUT/custom-tools/lab$n/lab$n" "$tmp/fixture$n" >>"$tmp/log" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && grep -Eq "$found" "$tmp/fixture$n/sanitize.txt" && grep -qx "$clean" "$tmp/fixture$n/sanitize.txt"; then
        pass "$name"
    else
        fail "$name" "$tmp/log" "exit $rc"
    fi
}
# solution_profile N A TEST NAME: lab N's solution under tools/profile.sh, variants A; passes
# when it exits 0 and `TEST profile.txt` succeeds (exit 4, counters not permitted: a skip).
solution_profile() {
    local n=$1 only=$2 test=$3 name=$4 rc
    if [ "$have_gpu" -eq 0 ]; then skip "$name" "no GPU"; return; fi
    if ! command -v ncu >/dev/null 2>&1 && [ ! -x "$(dirname "$(command -v nvcc)")/ncu" ]; then
        skip "$name" "ncu not installed"
        return
    fi
    gpu_exclusive env ONLY="$only" sh tools/profile.sh "$n" "$OUT/solution/lab$n/lab$n" "$tmp/prof$n" >"$tmp/log" 2>&1
    rc=$?
    if [ $rc -eq 4 ]; then skip "$name" "counters not permitted"
    elif [ $rc -eq 0 ] && "$test" "$tmp/prof$n/profile.txt"; then pass "$name"
    else fail "$name" "$tmp/log" "exit $rc"
    fi
}
# lab 1: the contiguous copy's third line gives 4 sectors per load request
contiguous_sectors() {
    sed -n '/^copy_contiguous$/,/^$/p' "$1" | sed -n 3p | grep -q 'sectors per global load request 4.00,'
}
# lab 3: nine named points of the privatised histogram, each with its shared atomics counted
privatised_points() {
    [ "$(grep -c '^  point [0-9]* ([a-z0-9]*, [0-9]* bins): hist_shared_privatised_kernel ' "$1")" -eq 9 ] &&
        [ "$(grep -c '^    shared atomics [1-9]' "$1")" -eq 9 ]
}
solution_labs=$LAB_NUMS
if [ ! -d solutions ] || [ ! -d tests/fixtures ]; then
    solution_labs=
    skip "profile and sanitize checks on planted bugs and solutions" "student copy: no solutions/ or tests/fixtures/"
fi
case " $solution_labs " in *" 1 "*)
    sanitize_fixture 1 tests/fixtures/lab1/out_of_bounds.sed memcheck copy_contiguous,copy_strided \
        '^copy_strided: memcheck [1-9][0-9]* errors? \(invalid global write' 'copy_contiguous: memcheck 0 errors' \
        "gpu: sanitize names lab 1's out-of-bounds fixture (memcheck: copy_strided, not copy_contiguous)"
    name="gpu: lab 1's solution is clean under memcheck, racecheck and initcheck (copy_strided, copy_float4)"
    if [ "$have_gpu" -eq 0 ]; then skip "$name" "no GPU"
    elif [ $have_sanitizer -eq 0 ]; then skip "$name" "compute-sanitizer not installed"
    else
        check "$name" gpu_shared env ONLY=copy_strided,copy_float4 sh tools/sanitize.sh 1 "$OUT/solution/lab1/lab1" "$tmp/clean1"
    fi
    solution_profile 1 copy_contiguous contiguous_sectors \
        "gpu: profile of lab 1's contiguous copy: 4 sectors per global load request at the profiled size"
    ;;
esac
case " $solution_labs " in *" 3 "*)
    solution_profile 3 hist_shared_privatised privatised_points \
        "gpu: profile of lab 3's privatised histogram: every point named, its shared atomics counted"
    ;;
esac
case " $solution_labs " in *" 6 "*)
    sed -f tests/fixtures/sanitize/lab6_v3_no_barrier.sed solutions/lab6-reduction/kernels.cu >"$tmp/race6.cu"
    if cmp -s "$tmp/race6.cu" solutions/lab6-reduction/kernels.cu; then
        fail "lab6 race fixture (tests/fixtures/sanitize) plants its race" "" "it no longer changes the solution"
    else
        # shellcheck disable=SC2086 # $MAKE: make and its options, split on purpose
        check "lab6 race fixture (tests/fixtures/sanitize) builds with KERNELS=" $MAKE -s lab6-build KERNELS="$tmp/race6.cu" CUSTOM=tools
    fi
    sanitize_fixture 6 tests/fixtures/sanitize/lab6_v3_no_barrier.sed racecheck v2_strided_index,v3_sequential_addressing \
        '^v3_sequential_addressing: racecheck [1-9][0-9]* hazards? \(.*race' 'v2_strided_index: racecheck 0 hazards' \
        "gpu: sanitize names lab 6's race (racecheck: v3_sequential_addressing, not v2_strided_index)"
    ;;
esac
