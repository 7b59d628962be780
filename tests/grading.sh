# tests/grading.sh - the grader's own checks, sourced by tests/run.sh (helpers and variables
# there), which runs them as sections declared at the end: the grader's unit tests; each lab
# with a rubric and fixtures (tests/fixtures/grading/labN/) graded as a class by
# grading/grade-all (--jobs 4, in a --work folder of its own) - without a GPU, compile and
# static verdicts, GPU tests skipped, results.json format, the gradebook; one grading/grade
# run on a folder submission (--no-gpu: the class's `untouched` fixture is the same file on
# the GPU); `make dist` (what the copy holds, and that it builds). With a
# GPU the same class run checks every fixture's correctness and speed verdicts and its total
# (the grader holds the GPU lock: its timed runs alone), and GRADING_SOLUTION_RUNS=10 grades
# the solution ten times (full marks every time). After each class: no process of its
# sandboxes left (sandbox_leftovers, which a check of its own shows can fail).
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this

# grading_lab N: lab N's submissions graded by grading/grade and, as a class, by grade-all.
grading_lab() {
    local n=$1 fixtures=tests/fixtures/grading/lab$1 lab work gwork rc fx name src expect scope line expected runs r
    local arch gpu
    lab=$(basename "$(lab_dir "$n")")
    work=$tmp/grading-lab$n
    gwork=$work/build
    grading_work "$gwork"
    mkdir -p "$work/folder/labs/$lab"
    cp "labs/$lab/kernels.cu" "$work/folder/labs/$lab/"
    # --no-gpu: the folder is what this checks; the same file's GPU tests are the class's
    # `untouched` fixture below, through the same grading/grade. (--arch: with a GPU, the one
    # the class is built for.)
    arch=()
    [ "$have_gpu" -eq 1 ] && arch=(--arch "$(basename "$OUT")")
    grading/grade "$n" "$work/folder" --out "$work/single" --work "$gwork" --no-gpu "${arch[@]}" >"$work/single.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && tail -n 1 "$work/single/report.txt" | grep -q '^Score: [0-9.]*/[0-9.]*' &&
        python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['tests'] and 'score' in d" \
            "$work/single/results.json"; then
        pass "grading lab$n: grading/grade on a folder writes report.txt and results.json"
    else
        fail "grading lab$n: grading/grade on a folder writes report.txt and results.json" "$work/single.log" "exit $rc"
    fi

    if [ ! -d "$fixtures" ] || [ ! -d "solutions/$lab" ]; then
        skip "grading lab$n: fixture class" "no fixtures or no solutions/ in this copy"
        return
    fi
    mkdir -p "$work/class"
    for fx in "$fixtures"/*.sed; do
        name=$(basename "$fx" .sed)
        case $name in
        *.student) src=labs/$lab/kernels.cu; name=${name%.student} ;;
        *) src=solutions/$lab/kernels.cu ;;
        esac
        sed -f "$fx" "$src" >"$work/class/$name.cu"
    done
    # A verdict with no planted file of its own grades the lab's fixture of that name (the
    # timing cheats of tests/fixtures/labN/, which the lab's checks also run).
    for expect in "$fixtures"/*.expect; do
        name=$(basename "$expect" .expect)
        [ -e "$work/class/$name.cu" ] || sed -f "tests/fixtures/lab$n/$name.sed" "solutions/$lab/kernels.cu" >"$work/class/$name.cu"
    done
    # (TMPDIR: the students' scratch folders, where their programs run, in the class's folder)
    mkdir -p "$work/scratch"
    if ! TMPDIR=$work/scratch grading/grade-all "$n" "$work/class" --out "$work/out" --work "$gwork" --jobs 4 \
        >"$work/class.log" 2>&1; then
        fail "grading lab$n: grade-all grades the fixture class" "$work/class.log"
        return
    fi
    pass "grading lab$n: grade-all grades the fixture class"
    check "grading lab$n: the class's grading left no process and no sandbox behind" sandbox_leftovers "$work"
    scope="compile and static; GPU tests skipped"
    gpu=()
    [ "$have_gpu" -eq 1 ] && scope="every test and the total, on the GPU" gpu=(--gpu)
    grading/check-verdicts "$work/out" "$fixtures" "${gpu[@]}" >"$work/verdicts" 2>&1
    while read -r line; do
        case "$line" in
        *": OK") pass "grading lab$n fixture ${line%: OK}: expected verdicts ($scope)" ;;
        *) fail "grading lab$n fixture ${line%%: *}: expected verdicts ($scope)" "" "${line#*: }" ;;
        esac
    done <"$work/verdicts"
    expected=$(ls "$fixtures"/*.expect | wc -l)
    check "grading lab$n: gradebook has the header and one row per fixture" bash -c "
        head -n 1 '$work/out/gradebook.csv' | grep -q '^student,total,compile,' &&
        [ \$(tail -n +2 '$work/out/gradebook.csv' | wc -l) -eq $expected ]"

    # GRADING_SOLUTION_RUNS=N: the solution graded N times, as a class of N copies (one
    # trusted build for all), each with full marks. (Not gpu_test: the grader holds the lock.)
    runs=${GRADING_SOLUTION_RUNS:-1}
    if [ "$runs" -gt 1 ]; then
        mkdir -p "$work/solutions"
        for r in $(seq "$runs"); do cp "$work/class/solution.cu" "$work/solutions/solution-$r.cu"; done
        name="gpu: grading lab$n: the solution gets full marks in $runs runs out of $runs"
        if [ "$have_gpu" -eq 0 ]; then skip "$name" "no GPU"; return; fi
        check "$name" bash -c "
            grading/grade-all $n '$work/solutions' --out '$work/solution-runs' --work '$gwork' || exit 1
            for r in \$(seq $runs); do
                tail -n 1 '$work/solution-runs/solution-'\$r/report.txt | grep -q '^Score: \\([0-9.]*\\)/\\1\$' || exit 1
            done"
    fi
}

# sandbox_leftovers DIR: exit 1, naming them, where processes are left with their working
# folder in DIR or DIR in their command line (a graded class's folder: the sandboxed programs
# run in its scratch folders), where a sandbox's cgroup outlived the grader that made it, or
# where a sandbox's mount point or status file is left in DIR.
sandbox_leftovers() {
    python3 - "$1" <<'EOF'
import os
import sys
top = os.path.realpath(sys.argv[1])
me = {os.getpid(), os.getppid()}
left = []
for entry in os.listdir("/proc"):
    if not entry.isdigit() or int(entry) in me:
        continue
    try:
        cwd = os.readlink(f"/proc/{entry}/cwd")
        with open(f"/proc/{entry}/cmdline", "rb") as f:
            command = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        continue
    if (cwd + "/").startswith(top + "/") or top in command:
        left.append(f"process {entry} (in {cwd}): {command[:300]}")
with open("/proc/self/mounts") as f:
    mounts = [line.split()[1] for line in f if line.split()[2:3] == ["cgroup2"]]
with open("/proc/self/cgroup") as f:
    own = next((line.strip()[3:] for line in f if line.startswith("0::")), "/")
for parent in {os.path.join(m, "memlab-sandbox") for m in mounts} | {os.path.join(m + own, "memlab-sandbox") for m in mounts}:
    for name in os.listdir(parent) if os.path.isdir(parent) else []:
        if name.startswith("run-") and not os.path.exists(f"/proc/{name.split('-')[1]}"):
            left.append(f"cgroup {parent}/{name}: its grader is gone")
for folder, _, files in os.walk(top):
    left += [f"{os.path.join(folder, n)}: a sandbox's file, left" for n in files if n.endswith((".status", ".fstab"))]
    if folder.endswith(".root"):
        left.append(f"{folder}: a sandbox's mount point, left")
print("\n".join(left))
sys.exit(1 if left else 0)
EOF
}

# leftover_check: sandbox_leftovers finds a process left in a folder, and passes once it is gone.
leftover_check() {
    local dir=$tmp/leftovers pid
    mkdir -p "$dir/run1"
    (cd "$dir/run1" && exec sleep 60) &
    pid=$!
    if sandbox_leftovers "$dir" >"$tmp/leftovers.log"; then
        fail "grading: the leftover check finds a process left in a class's folder" "$tmp/leftovers.log" "it found none"
    else
        pass "grading: the leftover check finds a process left in a class's folder"
    fi
    kill "$pid"
    wait "$pid" 2>/dev/null
    check "grading: the leftover check passes once that process is gone" sandbox_leftovers "$dir"
}

# grading_dist: make dist, the student copy (instructors' copy only): what it holds, its
# README, that it builds, and its own make test (DIST_TEST_LABS, default 1: its other labs'
# sections are the same files as here) to a pass, with no instructors' target offered.
grading_dist() {
    local dist=dist/gpu-memlab-student.tar.gz copy=$tmp/dist/gpu-memlab-student rc labs=${DIST_TEST_LABS:-1} builds n
    mkdir -p "$tmp/dist"
    if $MAKE -s dist >"$tmp/dist.log" 2>&1 && tar -C "$tmp/dist" -xzf "$dist"; then
        pass "make dist writes $dist"
        check "dist: no solutions/, grading/private/ or fixtures; student files and grader there" bash -c "
            [ ! -e '$copy/solutions' ] && [ ! -e '$copy/grading/private' ] && [ ! -e '$copy/tests/fixtures' ] &&
            [ -x '$copy/grading/grade' ] && [ -f '$copy/grading/rubrics/common.ini' ] &&
            ls '$copy'/labs/*/kernels.cu >/dev/null && ! grep -rq -e '//@begin solution' -e '//@student' '$copy/labs'"
        check "dist: no line of a solution region in any file of the copy (tools/maint/solution-leaks.py)" \
            python3 tools/maint/solution-leaks.py --allow solutions/leaks-allowed.txt "$copy" solutions/*/kernels.cu
        check "dist: the README is the students' (what to hand in, how long, how to check), no instructors' part" bash -c "
            cmp -s grading/student-README.md '$copy/README.md' && grep -q '^## What to hand in' '$copy/README.md' &&
            grep -q '^## Checking your work' '$copy/README.md' && grep -q ' hours |\$' '$copy/README.md' &&
            ! grep -qi -e 'instructor.*SOLUTION=1' -e '^## For instructors' -e 'make student-files' -e 'make dist' '$copy/README.md' &&
            [ ! -e '$copy/grading/student-README.md' ] && [ ! -e '$copy/CONTRIBUTING.md' ]"
        # One architecture: that the copy builds is what matters here.
        builds=()
        for n in $LAB_NUMS; do builds+=("lab$n-build"); done
        # shellcheck disable=SC2086 # $MAKE: make and its options, split on purpose
        check "dist: the student copy builds labs $LAB_NUMS" $MAKE -C "$copy" ARCH=sm_90 "${builds[@]}"
        # Its own make test, as a student runs it (the GPU lock and OMP settings of this run are
        # inherited: on a GPU machine its timed runs still have the GPU alone).
        (cd "$copy" && env -u MAKEFLAGS -u MAKELEVEL -u SECTION_TIMES LABS="$labs" "${MAKE%% *}" --no-print-directory test) \
            >"$tmp/dist-test.log" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && tail -n 1 "$tmp/dist-test.log" | grep -q '^[0-9]* passed, 0 failed, [0-9]* skipped$' &&
            ! grep -q ': FAIL' "$tmp/dist-test.log"; then
            pass "dist: the student copy's make test LABS='$labs' passes ($(tail -n 1 "$tmp/dist-test.log"))"
        else
            grep -A 15 ': FAIL' "$tmp/dist-test.log" >"$tmp/dist-fails.log"
            tail -n 3 "$tmp/dist-test.log" >>"$tmp/dist-fails.log"
            fail "dist: the student copy's make test LABS='$labs' passes" "$tmp/dist-fails.log" "exit $rc"
        fi
    else
        fail "make dist writes $dist" "$tmp/dist.log"
    fi
}

section "grader unit tests" check "grading: unit tests (python3 tests/unit/test_grader.py)" python3 tests/unit/test_grader.py
section "sandbox leftovers" leftover_check
# The fixture classes are most of `make test`'s time on a GPU: SKIP_GRADING=1 leaves them out
# of a quick round (they count as skipped, never passed).
if [ -n "${SKIP_GRADING:-}" ]; then
    section "grading skipped" skip "grading: fixture classes, grading/grade and make dist" "SKIP_GRADING is set"
    return 0
fi
for n in $LAB_NUMS; do
    [ -f "grading/rubrics/lab$n.ini" ] && section "grading lab$n" grading_lab "$n"
done
[ -d solutions ] && section "make dist" grading_dist
