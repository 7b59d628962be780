#!/usr/bin/env bash
# tests/run.sh - the kit's own tests; `make test` runs this. One line per test:
#   "name: OK", "name: FAIL" (with the output that explains it), "name: SKIP (why)"
# and a last line "N passed, N failed, N skipped". Exit 1 if any test failed.
# Checks that need a GPU run where nvidia-smi lists one and count as skipped elsewhere;
# everything else runs on any machine with the CUDA toolkit (and gnuplot for the plots).
#
# First the unit tests; then every build, in the background while the generator's and the job
# machinery's tests run, each build then checked on its own. Then the sections
# (tests/jobs.sh), JOBS at once (default: one per core; JOBS=1: one after another), printed
# in this order: each lab's command line, the plots and the README, each lab's own checks
# (tests/labN.sh: GPU verification, its phenomenon, its fixtures), the tools (tests/tools.sh),
# the grader (tests/grading.sh) and the class (tests/class.sh). A timed GPU run has the GPU
# to itself (timed_test, gpu_exclusive); checks share it (gpu_test, gpu_shared).
# Each section has a $tmp of its own; the lab files are sourced there with the helpers
# pass/fail/skip/check/expect_exit/unit_run/made/gpu_test/timed_test/counters_test/fixture_checks
# and the variables OUT, tmp, have_gpu, have_gnuplot.
# shellcheck disable=SC2031 # each section counts in a subshell; its counts return in a file
set -u
cd "$(dirname "$0")/.." || exit 1
MAKE="${MAKE:-make} --no-print-directory"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
. tests/jobs.sh # pass, fail, skip, section, run_sections, gpu_shared, gpu_exclusive
# Every GPU run of the tests and of the grader they start holds this lock (a run of its own
# can share one: MEMLAB_GPU_LOCK=FILE make test).
export MEMLAB_GPU_LOCK=${MEMLAB_GPU_LOCK:-$tmp/gpu.lock}
touch "$MEMLAB_GPU_LOCK"
# Sections run side by side, each lab program with a thread per core for its host checks:
# idle threads sleep at once instead of spinning, so that a timed run's host clock is not
# kept waiting for a core.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

# check NAME COMMAND...: passes when the command succeeds.
check() {
    local name=$1; shift
    if "$@" >"$tmp/log" 2>&1; then pass "$name"; else fail "$name" "$tmp/log"; fi
}
# expect_exit NAME CODE COMMAND...: passes when the command exits with CODE.
expect_exit() {
    local name=$1 code=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    cat "$tmp/out" "$tmp/err" >"$tmp/log"
    if [ "$rc" -eq "$code" ]; then pass "$name"; else fail "$name" "$tmp/log" "exit $rc, expected $code"; fi
}

OUT=$($MAKE -s print-OUT)
HOST_OUT=$($MAKE -s print-HOST_OUT)
LAB_NUMS=${LABS:-$($MAKE -s print-LAB_NUMS)} # LABS="1 6": only these labs' checks
lab_dir() { ls -d labs/lab"$1"-* | head -n 1; }
have_gpu=0
nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && have_gpu=1
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

# unit_run NAME COMMAND...: each line "unit X: OK" or "unit X: FAIL (why)" that COMMAND prints
# is a test; NAME fails where COMMAND exits non-zero without a FAIL line (a crash).
unit_run() {
    local name=$1 out=$tmp/unit-out rc line
    shift
    "$@" >"$out" 2>"$out.err"
    rc=$?
    while read -r line; do
        case "$line" in
        *": OK") pass "${line%: OK}" ;;
        *": FAIL"*) fail "${line%%: FAIL*}" "" "${line#*: FAIL }" ;;
        esac
    done < <(grep '^unit ' "$out")
    [ $rc -eq 0 ] || grep -q ': FAIL' "$out" || { cat "$out.err" >>"$out"; fail "$name" "$out" "exit $rc"; }
}

# made NAME PROGRAM: make builds PROGRAM, a test program of tests/unit/ (the Makefile's rules);
# where it does not build, the test NAME fails with the compiler's output and made returns 1.
made() {
    $MAKE -s "$2" >"$tmp/log" 2>&1 && return 0
    fail "$1" "$tmp/log" "it does not build"
    return 1
}

# ---- harness unit tests ---------------------------------------------------------------
made "unit tests" "$HOST_OUT/tests/unit" && unit_run "unit tests" "$HOST_OUT/tests/unit"
# Every lab's build, in the background from here, one compiler per core (-k: a broken lab
# stops no other), while the checks up to the builds' own run: they need no lab binary, and
# on a GPU machine the GPU waits for the builds. Niced, so that the job machinery's tests
# below, which time their stand-ins, keep a core on a small machine. (The unit tests built
# the host objects first: two makes never build one file.)
prebuilt=("$OUT/tests/devcheck" "$OUT/tests/profile_test")
for n in $LAB_NUMS; do
    prebuilt+=("$OUT/student/lab$n/lab$n")
    [ -d "solutions/$(basename "$(lab_dir "$n")")" ] && prebuilt+=("$OUT/solution/lab$n/lab$n")
done
set -m # a process group of its own, stopped with everything it started if run.sh stops
# shellcheck disable=SC2086 # $MAKE: make and its options, split on purpose
nice -n 10 $MAKE -k -j"$(nproc 2>/dev/null || echo 2)" "${prebuilt[@]}" >"$tmp/prebuild.log" 2>&1 &
prebuild=$!
set +m
trap 'kill -TERM -- -"$prebuild" 2>/dev/null; rm -rf "$tmp"' EXIT

# ---- solution regions and the generator ------------------------------------------------
check "generator: fixture master gives the expected student file" \
    bash -c 'awk -f tools/mkstudent.awk tests/generator/master.cu | diff - tests/generator/student.expected'
for bad in unclosed stray-end nested unknown; do
    expect_exit "generator: rejects a $bad marker" 1 awk -f tools/mkstudent.awk "tests/generator/$bad.cu"
done
for n in $LAB_NUMS; do
    lab=$(basename "$(lab_dir "$n")")
    master=solutions/$lab/kernels.cu
    [ -f "$master" ] || continue
    student=labs/$lab/kernels.cu
    check "student file $lab matches the generator (make student-files)" \
        bash -c "awk -f tools/mkstudent.awk '$master' | diff -u '$student' -"
    check "student file $lab has no solution markers and open TODOs" \
        bash -c "! grep -n '//@' '$student' && grep -q 'TODO' '$student'"
done

# The leak check that make dist's copy must pass (tests/grading.sh) catches a solution line
# copied into a file, a TODO that quotes one, and a stale entry of its list of allowed lines.
# (instructors' copy only: the student copy has no solutions/)
if [ -d solutions ]; then
    mkdir -p "$tmp/leak/code" "$tmp/leak/todo" "$tmp/leak/none"
    sed -n '/^ *\/\/@begin solution/,/^ *\/\/@end solution/p' solutions/lab4-l1cache/kernels.cu | grep -v '//@' >"$tmp/leak/code/notes.cu"
    # (the line is taken from the master here: written out, this file would ship it)
    grep -m 1 '__shfl_down_sync' solutions/lab6-reduction/kernels.cu | sed 's|^ *|// TODO(6.8): |; s|;$||' >"$tmp/leak/todo/kernels.cu"
    expect_exit "solution-leaks.py fails on a solution region copied into a file" 1 \
        python3 tools/maint/solution-leaks.py "$tmp/leak/code" solutions/*/kernels.cu
    expect_exit "solution-leaks.py fails on a TODO that quotes a solution line" 1 \
        python3 tools/maint/solution-leaks.py "$tmp/leak/todo" solutions/*/kernels.cu
    expect_exit "solution-leaks.py passes a copy without them, fails on allowed lines it no longer has" 1 bash -c "
        python3 tools/maint/solution-leaks.py '$tmp/leak/none' solutions/*/kernels.cu || exit 2
        python3 tools/maint/solution-leaks.py --allow solutions/leaks-allowed.txt '$tmp/leak/none' solutions/*/kernels.cu"
fi

# The job machinery (tests/jobs.sh) and the GPU lock (grading/gpu_lock.py), on stand-ins: no
# GPU, no build.
unit_run "unit jobs tests" bash tests/unit/jobs_test.sh
check "unit: the GPU lock (python3 tests/unit/test_gpu_lock.py)" python3 tests/unit/test_gpu_lock.py

# ---- builds -------------------------------------------------------------------------------
# The prebuild started above must end first; then each build is checked on its own, and
# names what failed. The sections only use them.
# A line every PROGRESS_EVERY seconds (tests/jobs.sh) while it builds: a fresh clone builds
# for a minute or more on 2 cores.
clock
built=$now
while kill -0 "$prebuild" 2>/dev/null; do
    sleep 1
    clock
    if [ $((now - built)) -ge $((${PROGRESS_EVERY:-30} * 1000000)) ]; then
        echo "... $(duration "$SECONDS"): building the labs ($(grep -c '^nvcc .* -c ' "$tmp/prebuild.log") objects compiled)"
        built=$now
    fi
done
wait "$prebuild"
for n in $LAB_NUMS; do
    for flavour in student solution; do
        [ "$flavour" = solution ] && [ ! -d "solutions/$(basename "$(lab_dir "$n")")" ] && continue
        # shellcheck disable=SC2086 # $MAKE: make and its options, split on purpose
        check "build lab$n $flavour ($OUT)" $MAKE "$OUT/$flavour/lab$n/lab$n"
    done
done
# shellcheck disable=SC2086 # $MAKE: make and its options, split on purpose
check "build the GPU-side checker's test (tests/unit/devcheck.cu)" $MAKE "$OUT/tests/devcheck"
# --counters' join (common/probes/profile.cu) through tools/ncu-counters.sh and tests/fake-ncu.
made "unit profile tests" "$OUT/tests/profile_test" && unit_run "unit profile tests" "$OUT/tests/profile_test"

# ---- helpers of the sections ----------------------------------------------------------------
gpu_test() { # gpu_test NAME COMMAND...: a check that needs the GPU and may share it (--check)
    local name=$1
    shift
    if [ $have_gpu -eq 0 ]; then skip "$name" "no GPU"; else check "$name" gpu_shared "$@"; fi
}
timed_test() { # timed_test NAME COMMAND...: a check that times something: the GPU to itself
    local name=$1
    shift
    if [ $have_gpu -eq 0 ]; then skip "$name" "no GPU"; else check "$name" gpu_exclusive "$@"; fi
}
# counters_test NAME JUDGE COMMAND...: a lab's --counters run (COMMAND, under ncu: the GPU to
# itself) judged by the shell function JUDGE, which reads the CSVs the run wrote and prints
# what it compared. Skipped without a GPU, without ncu, or where the driver does not permit
# counters.
counters_test() {
    local name=$1 judge=$2 rc
    shift 2
    if [ $have_gpu -eq 0 ]; then skip "$name" "no GPU"; return; fi
    if ! command -v ncu >/dev/null 2>&1; then skip "$name" "ncu not installed"; return; fi
    gpu_exclusive "$@" >"$tmp/log" 2>&1
    rc=$?
    if grep -q 'ERR_NVGPUCTRPERM' "$tmp/log"; then
        skip "$name" "counters not permitted"
    elif [ $rc -eq 0 ] && "$judge" >>"$tmp/log" 2>&1; then
        pass "$name"
    else
        fail "$name" "$tmp/log" "exit $rc"
    fi
}

# fixture_checks N CHECK_ARGS...: each tests/fixtures/labN/*.sed plants one bug in lab N's
# solution and names, on a line "# caught as: VARIANT", the variant that must be reported.
# The fixture must still change the master and build with KERNELS=; with a GPU,
# `labN --check --only VARIANT CHECK_ARGS` must fail and name the variant on stderr.
# A cheat on the timing (tests/fixtures/labN/*.sed too) passes --check by design: it says
# "# caught when timed as: VARIANT STATUS" and "# timed with: ARGS" instead, and
# `labN --only VARIANT ARGS` (timed: the GPU to itself) must exit 1, name the variant with
# STATUS (WRONG or IMPLAUSIBLE) on stderr, and write that status, and no ok row, for the variant.
fixture_checks() {
    local n=$1 fx name variant status args rc master csv
    shift
    master=solutions/$(basename "$(lab_dir "$n")")/kernels.cu
    for fx in tests/fixtures/lab"$n"/*.sed; do
        [ -e "$fx" ] || continue
        name=$(basename "$fx" .sed)
        variant=$(sed -n 's/^# caught as: *\([a-z0-9_]*\).*/\1/p' "$fx" | head -n 1)
        read -r timed status <<<"$(sed -n 's/^# caught when timed as: *\([a-z0-9_]*\) *\([A-Z]*\).*/\1 \2/p' "$fx" | head -n 1)"
        args=$(sed -n 's/^# timed with: *//p' "$fx" | head -n 1)
        sed -f "$fx" "$master" >"$tmp/$name.cu"
        if [ -z "$variant$timed" ] || { [ -n "$timed" ] && [ -z "$status" ]; } || cmp -s "$tmp/$name.cu" "$master"; then
            fail "lab$n fixture $name plants its bug" "" "it no longer changes the solution, or names no '# caught as:' variant (or no status)"
            continue
        fi
        if ! $MAKE -s "lab$n-build" KERNELS="$tmp/$name.cu" >"$tmp/log" 2>&1; then
            fail "lab$n fixture $name builds with KERNELS=" "$tmp/log"
            continue
        fi
        pass "lab$n fixture $name builds with KERNELS="
        if [ $have_gpu -eq 0 ]; then skip "gpu: lab$n fixture $name is caught and named" "no GPU"; continue; fi
        if [ -n "$timed" ]; then
            csv=$tmp/fixture-$name
            # shellcheck disable=SC2086 # $args: the fixture's "# timed with:" options
            gpu_exclusive "$OUT/custom/lab$n/lab$n" --only "$timed" $args --csv "$csv" >"$tmp/out" 2>"$tmp/err"
            rc=$?
            cat "$tmp/out" "$tmp/err" >"$tmp/log"
            if [ $rc -eq 1 ] && grep -q "$timed.*: $status" "$tmp/err" &&
                cat "$csv"/*.csv | grep -q "^$n,$timed,.*,$status\(,\|\$\)" &&
                ! cat "$csv"/*.csv | grep -q "^$n,$timed,.*,ok\(,\|\$\)"; then
                pass "gpu: lab$n fixture $name is caught when timed: $timed $status"
            else
                fail "gpu: lab$n fixture $name is caught when timed: $timed $status" "$tmp/log" "exit $rc"
            fi
            continue
        fi
        gpu_shared "$OUT/custom/lab$n/lab$n" --check --only "$variant" "$@" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        cat "$tmp/out" "$tmp/err" >"$tmp/log"
        if [ $rc -ne 0 ] && grep -q "$variant" "$tmp/err"; then
            pass "gpu: lab$n fixture $name is caught and named (exit $rc)"
        else
            fail "gpu: lab$n fixture $name is caught and named" "$tmp/log" "exit $rc, variant '$variant'"
        fi
    done
}

# grading_work DIR: a --work folder of its own for the grader (grade-all runs side by side
# would build the same objects at once in a shared one), seeded with this run's harness and
# drivers, mtimes kept: where the grader builds for $OUT's architecture (with a GPU; without
# one, ARCH=sm_90), its make finds them built and compiles only the lab's solution.
grading_work() {
    mkdir -p "$1/$(basename "$OUT")"
    cp -a "$HOST_OUT" "$1/host" 2>/dev/null
    cp -a "$OUT/common" "$OUT/version.c" "$OUT/version.o" "$OUT/driver" "$1/$(basename "$OUT")/" 2>/dev/null
    return 0
}

# ---- the sections ---------------------------------------------------------------------------
# command_line N: lab N's program parses its command line before it looks for a GPU.
command_line() {
    local n=$1 bin=$OUT/student/lab$1/lab$1 args rc
    [ -x "$bin" ] || { fail "lab$n command line" "" "no binary"; return; }
    expect_exit "lab$n --help" 0 "$bin" --help
    expect_exit "lab$n --list" 0 "$bin" --list
    # A bad argument: one line on stderr, naming --help or --list, and exit 2 (a usage text
    # after the line scrolled it away).
    for args in "--bogus" "--reps 0" "--reps many" "--seed -4" "--n 0" "--n 5X" "--only no_such_variant" \
        "--quick --full" "--csv"; do
        # shellcheck disable=SC2086 # $args: the bad command line, split into its arguments
        "$bin" $args >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
            grep -q "^lab$n: .*(lab$n --\(help\|list\) lists" "$tmp/err"; then
            pass "lab$n rejects '$args' with one line and exit 2"
        else
            cat "$tmp/out" "$tmp/err" >"$tmp/log"; fail "lab$n rejects '$args' with one line and exit 2" "$tmp/log" "exit $rc"
        fi
    done
    expect_exit "lab$n rejects MEMLAB_KERNEL_LIMIT_S=soon with exit 2" 2 env MEMLAB_KERNEL_LIMIT_S=soon "$bin" --quick
    # No GPU: hide every device, expect exit 3 and a single line.
    CUDA_VISIBLE_DEVICES='' "$bin" --quick >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'no CUDA GPU found' "$tmp/err"; then
        pass "lab$n without a GPU: one line, exit 3"
    else
        cat "$tmp/out" "$tmp/err" >"$tmp/log"; fail "lab$n without a GPU: one line, exit 3" "$tmp/log" "exit $rc"
    fi
}

# make_without_gpu: one line, and on a machine without a GPU, said before lab 1 is built
# (a build folder of its own, which must hold no build for the architecture afterwards).
make_without_gpu() {
    local fresh=$tmp/build-nogpu name="make lab1 without a GPU stops with one line" where=()
    [ $have_gpu -eq 0 ] && name="$name, before it builds lab 1" where=(BUILD_DIR="$fresh")
    CUDA_VISIBLE_DEVICES='' $MAKE lab1 "${where[@]}" >"$tmp/log" 2>&1
    if grep -q '^lab1: no CUDA GPU found' "$tmp/log" && [ "$(grep -c '^lab1:' "$tmp/log")" -eq 1 ] &&
        { [ $have_gpu -eq 1 ] || [ ! -e "$fresh/$(basename "$OUT")" ]; }; then
        pass "$name"
    else
        fail "$name" "$tmp/log"
    fi
}

# make_help: the labs in the order of their numbers, every target and knob a user runs, what
# an unknown lab gets, and the one list of labs (labs/labs.table) against where it is shown.
make_help() {
    local t n missing='' offered='' instructor="student-files dist gradescope reference-plots format SOLUTION"
    $MAKE help >"$tmp/help" 2>&1
    check "make help: the labs, in the order of their numbers" bash -c "
        sed -n 's/^  make lab\([0-9]*\) .*/\1/p' '$tmp/help' >'$tmp/nums' &&
        sort -n -c '$tmp/nums' && [ \$(sort -u '$tmp/nums' | wc -l) -eq $(ls -d labs/lab[0-9]*-*/ | wc -l) ]"
    # Every phony target of the Makefile (FORCE is machinery), the lab targets, and every ?= knob
    # (but NVCC and GNUPLOT, the tools' own paths); in the student copy (no solutions/), none of
    # the instructors' ones.
    # shellcheck disable=SC1003 # '\\' is sed's backslash, not an escaped quote
    for t in $(sed -n '/^\.PHONY:/,/[^\\]$/p' Makefile | tr -d '\\' | sed 's/^\.PHONY://' | tr ' ' '\n' | grep -v '[$),]') \
        labN labN-build profile-labN sanitize-labN $(sed -n 's/^\([A-Z_]*\) *?=.*/\1=/p' Makefile) ONLY= TOOLS= JOBS=; do
        case $t in FORCE | NVCC= | GNUPLOT=) continue ;; *=) n="[ =]$t" ;; *) n="^  make $t\( \|\$\)" ;; esac
        if [ ! -d solutions ] && case " $instructor " in *" ${t%=} "*) true ;; *) false ;; esac; then
            grep -q "$n" "$tmp/help" && offered="$offered $t"
        else
            grep -q "$n" "$tmp/help" || missing="$missing $t"
        fi
    done
    if [ -z "$missing$offered" ]; then pass "make help names every target and knob (make all, BUILD_DIR=, ...)"
    else fail "make help names every target and knob (make all, BUILD_DIR=, ...)" "" "missing:${missing:- none}; instructors' in the student copy:${offered:- none}"; fi
    if [ ! -d solutions ]; then # the student copy: the instructors' targets say so in one line
        for t in student-files dist gradescope reference-plots format "lab1 SOLUTION=1"; do
            # shellcheck disable=SC2086 # $t: a target and its knobs ("lab1 SOLUTION=1")
            $MAKE $t >"$tmp/log" 2>&1
            n=$?
            if [ $n -eq 2 ] && [ "$(wc -l <"$tmp/log")" -eq 1 ] && grep -q "instructors" "$tmp/log"; then
                pass "student copy: make $t is for instructors: one line, exit 2"
            else
                fail "student copy: make $t is for instructors: one line, exit 2" "$tmp/log" "exit $n"
            fi
        done
    fi
    $MAKE lab99 >"$tmp/out" 2>"$tmp/err"
    n=$?
    cat "$tmp/out" "$tmp/err" >"$tmp/log"
    if [ $n -eq 2 ] && grep -q '^  make lab1 ' "$tmp/log" && tail -n 1 "$tmp/err" | grep -q 'make lab99: there is no such lab'; then
        pass "make lab99: the labs, then one line that says so, exit 2"
    else
        fail "make lab99: the labs, then one line that says so, exit 2" "$tmp/log" "exit $n"
    fi
    check "the list of labs: README, student README, grading/README.md, docs/DESIGN.md, handouts agree with labs/labs.table (tools/labs.sh)" \
        sh tools/labs.sh check
    sed 's/^| 1 | /| 1 | edited by hand, /' README.md >"$tmp/readme.md" # either README's row of lab 1
    expect_exit "tools/labs.sh check refuses a README whose list of labs was edited by hand" 1 sh tools/labs.sh check "$tmp/readme.md"
}

# plots_and_readme: each lab's plot scripts render its reference CSVs, the references are
# untouched, render-plots and compare-runs, the README's table of labs.
plots_and_readme() {
    local n dir script exp name ref rc
    for n in $LAB_NUMS; do
        dir=$(lab_dir "$n")
        for script in "$dir"/plot-*.gp; do
            [ -e "$script" ] || continue
            exp=$(basename "$script" .gp); exp=${exp#plot-}
            name="plot lab$n $exp renders the reference CSV"
            ref=handouts/reference/lab$n/$exp.csv
            if [ ! -d "handouts/reference/lab$n" ]; then skip "$name" "no reference run yet: handouts/reference/lab$n/ comes from a GPU"; continue; fi
            if [ ! -f "$ref" ]; then fail "$name" "" "$ref is missing"; continue; fi
            if [ $have_gnuplot -eq 0 ]; then skip "$name" "gnuplot not installed"; continue; fi
            rm -rf "$tmp/plots"
            gnuplot -e "csv='$ref'; out='$tmp/plots-$exp'; formats='both'" "$script" >"$tmp/log" 2>&1
            rc=$?
            if [ $rc -eq 0 ] && [ ! -s "$tmp/log" ] && [ -s "$tmp/plots-$exp.png" ] && [ -s "$tmp/plots-$exp.pdf" ]; then
                pass "$name"
            else
                fail "$name" "$tmp/log" "gnuplot exit $rc, or it warned, or no PNG/PDF"
            fi
        done
        for ref in handouts/reference/lab"$n"/*.csv; do
            [ -e "$ref" ] || continue
            check "reference $ref: untouched header, every row verified" bash -c "
                head -n 5 '$ref' | grep -q '^# lab: $n\$' && grep -q '^# gpu: ' '$ref' &&
                grep -q '^# ceiling_copy_gbps: ' '$ref' && grep -q '^# date: .*| git: ' '$ref' &&
                grep -q '^lab,variant,param,n,bytes,flops,ms_median,ms_min,ms_max,reps,gbps,gflops,pct_of_ceiling,status' '$ref' &&
                ! grep -v '^#' '$ref' | tail -n +2 | grep -v ',ok\(,\|\$\)'"
        done
    done
    if [ $have_gnuplot -eq 1 ]; then
        printf '# lab: 1\n# gpu: T\nlab,variant,param,n,bytes,flops,ms_median,ms_min,ms_max,reps,gbps,gflops,pct_of_ceiling,status\n1,copy_offset,0,9,72,0,,,,,,,,not_implemented\n' >"$tmp/offset.csv"
        check "render-plots skips a CSV without verified rows" bash -c \
            "sh tools/render-plots.sh labs/lab1-coalescing '$tmp' '$tmp/p' | grep -q 'offset: skipped' && [ ! -e '$tmp/p/offset.png' ]"
    else
        skip "render-plots skips a CSV without verified rows" "gnuplot not installed"
    fi
    check "render-plots without gnuplot: one line, CSVs kept, success" bash -c \
        "GNUPLOT=/nonexistent/gnuplot sh tools/render-plots.sh labs/lab1-coalescing handouts/reference/lab1 '$tmp/np' | grep -q '^gnuplot not found'"
    # gpu-visit.sh compares each re-run with the reference: a folder with untimed rows (lab 9's
    # counters.csv, ms_median 0) must be counted apart, not stop the comparison.
    # shellcheck disable=SC2016 # the $ are the inner shell's
    check "compare-runs.py: every reference folder against itself, untimed rows counted apart" bash -c '
        for d in handouts/reference/lab*/; do python3 tools/maint/compare-runs.py "$d" "$d" >/dev/null || exit 1; done
        [ ! -d handouts/reference/lab9 ] || python3 tools/maint/compare-runs.py handouts/reference/lab9 handouts/reference/lab9 |
            grep -q "^counters.csv: no row timed and ok in both runs (0 not ok, 9 not timed)"'

    # Every number the handouts (and, in the instructors' copy, the answer keys) quote from the
    # reference files, recomputed; a claim file with one number wrong must fail.
    check "handouts: the numbers in handouts/numbers.txt, recomputed from handouts/reference/" \
        python3 tools/maint/handout-numbers.py handouts/numbers.txt
    if [ -f solutions/numbers.txt ]; then
        check "answer keys: the numbers in solutions/numbers.txt, recomputed from handouts/reference/" \
            python3 tools/maint/handout-numbers.py solutions/numbers.txt
    fi
    sed '0,/^1 :: /s|\* 4 / 2\*\*20|* 8 / 2**20|' handouts/numbers.txt >"$tmp/numbers.txt" # 800 MiB arrays
    expect_exit "tools/maint/handout-numbers.py fails a number that the reference file does not give" 1 \
        python3 tools/maint/handout-numbers.py "$tmp/numbers.txt"

    if grep -q '^| lab | topic | source | status |$' README.md; then
        check "README: one row per lab, each status what the tree holds (tools/maint/readme-labs.sh)" sh tools/maint/readme-labs.sh
        sed 's/^\(| 1 |.*| \)ready |$/\1ready; meets every target |/' README.md >"$tmp/readme.md"
        expect_exit "tools/maint/readme-labs.sh refuses a status that claims more than the tree" 1 sh tools/maint/readme-labs.sh "$tmp/readme.md"
    else # the student copy's README (grading/student-README.md) has no status column
        skip "README: one row per lab, each status what the tree holds (tools/maint/readme-labs.sh)" "no status column: the students' README"
    fi
    # Each handout's reference section shows the H100's figures and says what to look at; the
    # conclusions, which answer its questions, are in the answer key (solutions/labN-*/answers.md).
    for n in $LAB_NUMS; do
        check "handout lab$n: What the H100 shows has its reference figures and what to look at, no answer key" bash -c "
            h=handouts/\$(basename \"\$(ls -d labs/lab$n-*)\").md
            awk '/^## .*What the H100 shows/ { t = 1; next } t && /^## / { t = 0 } t' \"\$h\" >'$tmp/h100-$n.md'
            figures=\$(sed -n 's/^!\\[[^]]*\\](\\(reference\\/lab$n\\/[^)]*\\.png\\))\$/\\1/p' '$tmp/h100-$n.md')
            [ -n \"\$figures\" ] || { echo \"\$h: no reference figure in What the H100 shows\"; exit 1; }
            for f in \$figures; do [ -f handouts/\$f ] || { echo \"\$h: \$f is missing\"; exit 1; }; done
            grep -q 'What to look at' '$tmp/h100-$n.md' || { echo \"\$h: What the H100 shows says nothing of what to look at\"; exit 1; }
            ! grep -n -e '^What the numbers show' -e '^- \\*\\*Why ' '$tmp/h100-$n.md'"
    done
}

# size_list_check N: `labN --check --n A,B` (the first two public sizes of the lab's rubric,
# with its check_args) prints the lines that `--n A` and `--n B` print as two processes (as
# sets: a line of the driver's own probes is printed once per process), and passes.
size_list_check() {
    local n=$1 sol=$OUT/solution/lab$1/lab$1 rubric=grading/rubrics/lab$1.ini a b args
    [ -f "$rubric" ] || return 0
    # the student copy has no solution: its own build (the given variants, the TODOs' lines)
    [ -d "solutions/$(basename "$(lab_dir "$n")")" ] || sol=$OUT/student/lab$1/lab$1
    read -r a b _ <<<"$(sed -n 's/^public_sizes *= *//p' "$rubric")"
    args=$(sed -n 's/^check_args *= *//p' "$rubric")
    gpu_test "gpu: lab$n --check --n $a,$b verifies, in one process, what --n $a and --n $b verify" bash -c "set -o pipefail
        '$sol' --check --n $a,$b $args | grep -v '^lab$n on ' | sort -u >'$tmp/list$n' &&
        { '$sol' --check --n $a $args && '$sol' --check --n $b $args; } | grep -v '^lab$n on ' | sort -u >'$tmp/apart$n' &&
        diff '$tmp/apart$n' '$tmp/list$n'"
}

# lint: the house style (make lint), a test per linter. A linter not installed is skipped,
# saying so (the GPU machine has none and reaches no registry), except in CI (CI set), which
# installs them: there it fails, saying how to install it. Only in the kit's own copy: a
# student's machine need not have them.
lint() {
    local linter
    for linter in clang-format ruff shellcheck; do
        if [ -z "${CI:-}" ] && ! command -v "$linter" >/dev/null 2>&1; then
            skip "lint: $linter (make lint)" "$linter is not installed here (CI installs it)"
            continue
        fi
        check "lint: $linter (make lint)" sh tools/maint/lint.sh "$linter"
    done
}

# lab_checks N: tests/labN.sh, sourced (it uses the helpers above), and the size list.
lab_checks() {
    if [ -f "tests/lab$1.sh" ]; then
        # shellcheck disable=SC1090 # each tests/labN.sh is checked on its own
        . "tests/lab$1.sh"
    else
        fail "lab$1 has its own checks (tests/lab$1.sh)" "" "missing"
    fi
    size_list_check "$1"
}

for n in $LAB_NUMS; do section "command line lab$n" command_line "$n"; done
section "make without a GPU" make_without_gpu
section "make help" make_help
section "plots and README" plots_and_readme
if [ -d solutions ]; then section "lint" lint; else section "lint" skip "lint: the house style (make lint)" "student copy"; fi
section "GPU-side checker" gpu_test "gpu: devcheck counts mismatches exactly and restores a pristine copy written over" \
    "$OUT/tests/devcheck"
for n in $LAB_NUMS; do section "lab$n checks" lab_checks "$n"; done
section "tools" . tests/tools.sh # make profile-labN, make sanitize-labN
[ -f tests/grading.sh ] && . tests/grading.sh # declares its sections: the grader's unit tests, each lab's class, make dist
[ -f tests/class.sh ] && section "class" . tests/class.sh
# The longest sections on an H100 start first (they still print in their place), then the
# class and the student copy's own make test (no GPU work, the longest without a GPU).
# Without a GPU the order is the CPU's (on 2 cores the class with Slurm, make dist, lab8's
# checks and the grading of labs 8, 7 and 5 take longest: docs/measurements.md).
if [ $have_gpu -eq 1 ]; then
    first="grading lab1|grading lab8|grading lab10|grading lab3|grading lab2|grading lab4|grading lab6|lab10 checks|lab8 checks|lab4 checks|class|make dist"
else
    first="class|make dist|lab8 checks|grading lab8|grading lab7|grading lab5|lab4 checks|grading lab1|grading lab4"
fi
FIRST_SECTIONS=${FIRST_SECTIONS:-$first}
run_sections

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
