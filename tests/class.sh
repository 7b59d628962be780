# tests/class.sh - grade-all at class scale, sourced by tests/run.sh as its section "class"
# (helpers and variables there; every grade-all here shares one --work folder of the
# section's own): the class figures, and --slurm. Lab 1's fixture class, graded with --no-gpu (the
# same verdicts on any machine): first locally, for the gradebook to compare with and the
# figures; then against stand-in sbatch and squeue (tests/fake-slurm), which leave tasks timed
# out, preempted, failed, cancelled or never run, and --resume; then on a real single-node
# Slurm cluster that the test starts as root (tools/maint/local-slurm.sh: munged, slurmctld and
# slurmd from Debian's slurm-wlm and munge) and stops by the PIDs it started.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
if [ -n "${SKIP_GRADING:-}" ]; then
    skip "class: the class figures and grade-all --slurm" "SKIP_GRADING is set"
    return 0
fi
fixtures=tests/fixtures/grading/lab1
if [ ! -d "$fixtures" ] || [ ! -d solutions ]; then
    skip "class: the class figures and grade-all --slurm" "no fixtures or no solutions/ in this copy"
    return 0
fi
work=$tmp/class
mkdir -p "$work/class"
grading_work "$work/build"
for fx in "$fixtures"/*.sed; do
    name=$(basename "$fx" .sed)
    case $name in
    *.student) sed -f "$fx" labs/lab1-*/kernels.cu >"$work/class/${name%.student}.cu" ;;
    *) sed -f "$fx" solutions/lab1-*/kernels.cu >"$work/class/$name.cu" ;;
    esac
done
entries=$(ls "$work/class" | wc -l)
local_book=$work/local/gradebook.csv
if ! grading/grade-all 1 "$work/class" --no-gpu --out "$work/local" --work "$work/build" >"$work/local.log" 2>&1; then
    fail "class: lab 1's class graded locally" "$work/local.log"
    return 0
fi
pass "class: lab 1's class graded locally"

# ---- the class figures ---------------------------------------------------------------------
# Without a GPU: the scores only. Then GPU results planted in the reports (the k-th student,
# from 0, fails every correctness test when k is a multiple of 3 and passes them otherwise;
# its speed tests get half their points at the ratio 0.8 + 0.2 k), drawn again by --resume
# (nothing left to grade): all three figures. The Gradescope checks below use them too.
cp -r "$work/local" "$work/figures"
python3 -c '
import glob, json, sys
for k, path in enumerate(sorted(glob.glob(sys.argv[1] + "/*/results.json"))):
    with open(path) as f:
        data = json.load(f)
    data["extra_data"]["gpu"] = "Stand-in GPU"
    for t in data["tests"]:
        if t["extra_data"]["kind"] in ("correctness", "performance"):
            t["output"] = "planted GPU result"
        if t["extra_data"]["kind"] == "correctness":
            t["extra_data"]["verdict"] = "fail" if k % 3 == 0 else "pass"
            t["score"] = 0 if k % 3 == 0 else t["max_score"]
        elif t["extra_data"]["kind"] == "performance":
            t["extra_data"].update(verdict="partial", ratio=round(0.8 + 0.2 * k, 4))
            t["score"] = t["max_score"] / 2
    data["score"] = sum(t["score"] for t in data["tests"])
    with open(path, "w") as f:
        json.dump(data, f)' "$work/figures"
if [ "$have_gnuplot" -eq 1 ]; then
    check "class figures: without a GPU, the scores only, and one line on the others" bash -c "
        [ -s '$work/local/class-scores.png' ] && [ -s '$work/local/class-scores.pdf' ] &&
        [ ! -e '$work/local/class-speed.png' ] && ! grep -q 'gnuplot:' '$work/local.log' &&
        grep -q '^class figures: .*/class-scores.{png,pdf} (class-speed, class-correct: no data' '$work/local.log'"
    grading/grade-all 1 "$work/class" --out "$work/figures" --work "$work/build" --resume >"$work/figures.log" 2>&1
    check "class figures: scores, speed ratios and pass rates from GPU results, PNG and PDF" bash -c "
        for f in class-scores class-speed class-correct; do
            [ -s '$work/figures/'\$f.png ] && [ -s '$work/figures/'\$f.pdf ] || exit 1
        done
        ! grep -q 'gnuplot:' '$work/figures.log' &&
        grep -q '^correct copy_strided,0,$((entries - (entries + 2) / 3)),$entries,' '$work/figures/class-correct.csv' &&
        [ \$(grep -c '^speed copy_float4,2,' '$work/figures/class-speed.csv') -eq $entries ] &&
        grep -q '^speed copy_float4,2,.*,1.8,1.2,2.0\$' '$work/figures/class-speed.csv'"
else
    skip "class figures: drawn with gnuplot" "gnuplot not installed"
fi
GNUPLOT=/nonexistent/gnuplot grading/grade-all 1 "$work/class" --out "$work/figures" --work "$work/build" --resume >"$work/nognuplot.log" 2>&1
check "class figures without gnuplot: one line, the data kept" bash -c "
    grep -q '^class figures: gnuplot not found; their data is in ' '$work/nognuplot.log' &&
    [ -s '$work/figures/class-scores.csv' ]"

# ---- the Gradescope bundle ------------------------------------------------------------------
# make gradescope LAB=1 with the planted GPU results, unpacked as Gradescope does (the root is
# AUTOGRADER_ROOT instead of /autograder); setup.sh (nvcc is here, so it installs nothing),
# then run_autograder on a file the "cluster" did not grade - the solution with a comment
# added: GPU tests SKIP with 0, never passed - and on the solution it graded: those tests
# from the cluster's run.
gs=$work/gradescope
# shellcheck disable=SC2086 # $MAKE: make and its options, split on purpose
expect_exit "make gradescope without LAB= says how, exit 2" 2 $MAKE -s gradescope
if $MAKE -s gradescope LAB=1 GPU_RESULTS="$work/figures" >"$gs.log" 2>&1 &&
    mkdir -p "$gs/source" "$gs/submission" && python3 -m zipfile -e dist/gradescope-lab1.zip "$gs/source"; then
    pass "make gradescope LAB=1 writes dist/gradescope-lab1.zip"
    check "gradescope: setup.sh and run_autograder at the root, executable; the student kit, no secrets" python3 -c "
import zipfile
z = zipfile.ZipFile('dist/gradescope-lab1.zip')
modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
assert modes['setup.sh'] & 0o111 and modes['run_autograder'] & 0o111, modes
assert 'kit/grading/grade' in modes and 'gpu-results.json' in modes
assert not [n for n in modes if n.startswith(('kit/solutions/', 'kit/grading/private/', 'kit/tests/fixtures/'))]"
    cp "$gs/source/run_autograder" "$gs/"
    if AUTOGRADER_ROOT=$gs bash "$gs/source/setup.sh" >"$gs/setup.log" 2>&1; then
        pass "gradescope: setup.sh prepares the trusted build"
        mkdir -p "$gs/expect" && cp "$fixtures/solution.expect" "$gs/expect/"
        { cat "$work/class/solution.cu"; echo "// resubmitted after the cluster's run"; } >"$gs/submission/kernels.cu"
        AUTOGRADER_ROOT=$gs bash "$gs/run_autograder" >"$gs/run1.log" 2>&1
        mkdir -p "$gs/check/solution" && cp "$gs/results/results.json" "$gs/check/solution/"
        check "gradescope: results.json of a file the cluster did not grade: static and compile, GPU tests SKIP" bash -c "
            grading/check-verdicts '$gs/check' '$gs/expect' &&
            grep -q 'has not graded this file' '$gs/results/results.json'"
        cp "$work/class/solution.cu" "$gs/submission/kernels.cu"
        AUTOGRADER_ROOT=$gs bash "$gs/run_autograder" >"$gs/run2.log" 2>&1
        # the solution's place among the planted reports, in the planting's own (bytewise) order
        solution_k=$(python3 -c 'import glob, os, sys
print(1 + sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(sys.argv[1] + "/*/results.json")).index("solution"))' "$work/figures")
        check "gradescope: the file the cluster graded gets its GPU tests (planted for student $((solution_k - 1)))" python3 -c "
import json
k = $solution_k - 1
passes = k % 3 != 0  # as planted above
d = json.load(open('$gs/results/results.json'))
t = {x['name']: x for x in d['tests']}
c, s = t['correct copy_strided'], t['speed copy_float4']
assert c['status'] == ('passed' if passes else 'failed') and c['score'] == (15 if passes else 0), c
assert c['output'] == \"graded on the course's GPU cluster (Stand-in GPU):\\nplanted GPU result\", c
assert s['score'] == 7.5 and s['status'] == 'failed' and s['extra_data']['ratio'] == round(0.8 + 0.2 * k, 4), s
assert d['score'] == 20 + (45 if passes else 0) + 17.5 and not d['extra_data']['skipped'], d['score']"
    else
        fail "gradescope: setup.sh prepares the trusted build" "$gs/setup.log"
    fi
else
    fail "make gradescope LAB=1 writes dist/gradescope-lab1.zip" "$gs.log"
fi

# ---- stand-in sbatch and squeue: every way a task can end without a report ---------------------
states="1:TIMEOUT 2:PREEMPTED 3:FAILED 4:- 5:CANCELLED"
fake() {
    PATH=$PWD/tests/fake-slurm:$PATH FAKE_SLURM_LOG=$work/fake.log FAKE_SLURM_STATES=$1 \
        grading/grade-all 1 "$work/class" --no-gpu --slurm --out "$work/fake" --work "$work/build" "${@:2}"
}
fake "$states" --partition gpu --gres gpu:h100:1 --parallel 8 '--sbatch=--qos=class' >"$work/fake1.log" 2>&1
check "slurm (stand-in): sbatch gets one array of every submission and the options" \
    grep -q -- "--array=0-$((entries - 1))%8 .*--partition=gpu --gres=gpu:h100:1 --qos=class .*/job.sh\$" "$work/fake.log"
book=$work/fake/gradebook.csv
for expect in "1|TIMEOUT|ran past its time limit (TIMEOUT" "2|PREEMPTED|was preempted (PREEMPTED" \
    "3|FAILED|failed (FAILED" "4|never listed|never ran" "5|CANCELLED|was cancelled (CANCELLED"; do
    IFS='|' read -r row state why <<<"$expect"
    check "slurm (stand-in): task $row, $state, is NOT GRADED in the gradebook: $why..." bash -c "
        sed -n '$((row + 2))p' '$book' | grep -qF 'NOT GRADED: Slurm task 7_${row} $why' &&
        sed -n '$((row + 2))p' '$book' | grep -q '^[^,]*,0,'"
done
check "slurm (stand-in): the tasks that completed have the local mode's rows" bash -c "
    diff <(sed 3,7d '$local_book') <(sed 3,7d '$book')"
fake "" --resume >"$work/fake2.log" 2>&1
check "slurm (stand-in): --resume submits only the 5 tasks without a report; then the local gradebook" bash -c "
    tail -n 1 '$work/fake.log' | grep -q -- '--array=1-5 ' && grep -q '^--resume: grading 5 of $entries submissions; the $((entries - 5)) graded before are kept' '$work/fake2.log' &&
    cmp '$local_book' '$book'"

# ---- a real single-node cluster --------------------------------------------------------------
name="slurm: grade-all --slurm --no-gpu on a single-node cluster"
if [ "$(id -u)" -ne 0 ]; then
    skip "$name" "needs root to start munged, slurmctld and slurmd (run make test as root)"
    return 0
fi
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    skip "$name" "Slurm is not installed (apt-get install slurm-wlm munge; .ci/run does)"
    return 0
fi
cluster=$tmp/slurm-cluster
if ! sh tools/maint/local-slurm.sh start "$cluster" >"$work/cluster.log" 2>&1; then
    fail "slurm: tools/maint/local-slurm.sh starts a single-node cluster" "$work/cluster.log"
    return 0
fi
pass "slurm: tools/maint/local-slurm.sh starts a single-node cluster"
trap 'sh tools/maint/local-slurm.sh stop "$cluster"' EXIT # even if the tests are interrupted (this section's shell)
export SLURM_CONF=$cluster/slurm.conf
slurm_grade() { timeout 600 grading/grade-all 1 "$work/class" --no-gpu --slurm --out "$work/real" --work "$work/build" "$@"; }

slurm_grade >"$work/real1.log" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^slurm job [0-9]*: $entries/$entries done, 0 running, 0 pending \[" "$work/real1.log" &&
    cmp "$local_book" "$work/real/gradebook.csv" >>"$work/real1.log" 2>&1; then
    pass "$name: the local mode's gradebook"
else
    fail "$name: the local mode's gradebook" "$work/real1.log" "exit $rc"
fi

# Held, one task cancelled before it starts, the rest released: that student is NOT GRADED;
# --resume grades it alone.
slurm_grade --sbatch=--hold >"$work/real2.log" 2>&1 &
grader_pid=$!
job=
for _ in $(seq 100); do
    job=$(sed -n 's/^slurm job \([0-9]*\):.*/\1/p' "$work/real2.log" 2>/dev/null | head -n 1)
    [ -n "$job" ] && break
    sleep 0.2
done
# (no job seen: cancel whatever this private cluster holds, so that the wait ends)
{ [ -n "$job" ] && scancel "${job}_0" && scontrol release "$job"; } || scancel --user="$(id -un)"
wait $grader_pid
check "$name: a task cancelled before it ran is NOT GRADED, the others as the local mode" bash -c "
    [ -n '$job' ] && sed -n 2p '$work/real/gradebook.csv' | grep -q 'NOT GRADED: Slurm task ${job}_0 never ran' &&
    diff <(sed 2d '$local_book') <(sed 2d '$work/real/gradebook.csv')"
slurm_grade --resume >"$work/real3.log" 2>&1
check "$name: --resume grades that task alone; then the local mode's gradebook" bash -c "
    grep -q -- '--array=0 ' '$work/real3.log' && grep -q '^slurm job [0-9]*: 1/1 done' '$work/real3.log' &&
    cmp '$local_book' '$work/real/gradebook.csv'"

pids=$(cat "$cluster/pids")
sh tools/maint/local-slurm.sh stop "$cluster"
trap - EXIT
unset SLURM_CONF
pids=$(tr '\n' ' ' <<<"$pids")
check "slurm: the daemons the test started are stopped (PIDs ${pids% })" \
    bash -c "for pid in $pids; do ! kill -0 \$pid 2>/dev/null || exit 1; done"
