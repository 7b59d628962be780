#!/usr/bin/env python3
"""test_grader.py - the grader's own unit tests; no compiler, no GPU (tests/grading.sh runs
them). The GPU steps run against a stand-in lab program (a shell script), so the verdicts,
the timing against the reference and the report formats are checked on any machine.

    python3 grading/test_grader.py [-v]
"""
import contextlib
import fcntl
import glob
import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from unittest import mock

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import commands  # noqa: E402
import grader  # noqa: E402
import report  # noqa: E402
import slurm  # noqa: E402
import static_checks  # noqa: E402
from rubric import GRADING_DIR, Rubric, RubricError, band_fraction, parse_bands  # noqa: E402

CHECKOUT = os.path.dirname(GRADING_DIR)


def rules_broken(text, rubric):
    return sorted({v[0] for v in static_checks.find_violations(text, rubric)})


class StaticChecks(unittest.TestCase):
    def setUp(self):
        self.rubric = Rubric(1)

    def test_kit_files_pass(self):
        # every lab with a rubric: its student file and its solution break none of its rules
        for rubric_path in glob.glob(os.path.join(GRADING_DIR, "rubrics", "lab*.ini")):
            lab = int(os.path.basename(rubric_path)[3:-4])
            rubric = Rubric(lab)
            paths = glob.glob(os.path.join(CHECKOUT, "labs", f"lab{lab}-*", "kernels.cu")) + \
                glob.glob(os.path.join(CHECKOUT, "solutions", f"lab{lab}-*", "kernels.cu"))
            # the student file and the solution; the student copy (make dist) has no solutions/
            self.assertEqual(len(paths), 2 if os.path.isdir(os.path.join(CHECKOUT, "solutions")) else 1, rubric_path)
            for path in paths:
                with open(path) as f:
                    self.assertEqual(static_checks.find_violations(f.read(), rubric), [], path)

    def test_comments_and_strings_are_ignored(self):
        text = ('#include "kernels.h"\n// fopen(system("x")) in a comment\n/* main( */\n'
                'static const char *idea = "reads with fopen, then exit(1)";\n')
        self.assertEqual(rules_broken(text, self.rubric), [])

    def test_each_rule(self):
        cases = [
            ("library", "void f() { thrust::copy(a, b, c); }"),
            ("host_io", "void f() { FILE *x = 0; }"),
            ("host_io", "void f(int fd) { flock(fd, 2); }"),
            ("host_io", "void f(int fd) { lockf(fd, 1, 0); }"),
            ("process", "void f() { system(0); }"),
            ("main", "int main() { return 0; }"),
            ("attributes", "__attribute__((constructor)) void f() {}"),
            ("pragma", "#pragma weak f\n"),
            ("preprocessor_tricks", "#define F(a, b) a##b\n"),
            ("asm", 'void f() { asm("trap;"); }'),
            ("device_control", "void f() { cudaDeviceReset(); }"),
            ("off_stream", "void f() { cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); }"),
            ("runtime_copy", "void f() { cudaMemcpy(0, 0, 0, cudaMemcpyDefault); }"),
            ("includes", '#include "../../grading/private/lab1.ini"\n'),
            ("extern", 'extern "C" int secret;\n'),
            ("startup_code", "static int x = setup();\n"),
        ]
        for rule, text in cases:
            self.assertIn(rule, rules_broken(text, self.rubric), text)

    def test_aliases_and_members(self):
        self.assertIn("host_io", rules_broken("#define OPEN fopen\nvoid f() { OPEN(0, 0); }", self.rubric))
        self.assertEqual(rules_broken("void f(B &b) { b.wait(t); p->read(1); }", self.rubric), [])
        self.assertIn("startup_code", rules_broken("struct s { s() {} };", self.rubric))
        self.assertEqual(rules_broken("#pragma unroll 4\nstatic const int n = sizeof(int);", self.rubric), [])

    def test_off_stream_work(self):
        for text in ("void f() { cudaLaunchHostFunc(s, g, 0); }", "void f() { pthread_create(&t, 0, g, 0); }",
                     "void f() { k<<<1, 1, 0, cudaStreamPerThread>>>(); }", "void f() { cudaEventRecord(e); }",
                     "void f() { cudaDeviceSynchronize(); }", "void f() { cudaGraphLaunch(g, s); }"):
            self.assertIn("off_stream", rules_broken(text, self.rubric), text)
        self.assertEqual(rules_broken("void f(cudaStream_t stream) { k<<<1, 1, 0, stream>>>(); }", self.rubric), [])

    def test_line_numbers(self):
        found = static_checks.find_violations('/* a\n b */\n"x";\nvoid f() { exit(1); }\n', self.rubric)
        self.assertEqual([(v[0], v[2]) for v in found], [("process", 4)])


class CompilerReport(unittest.TestCase):
    def test_resource_usage(self):
        path = os.path.join(CHECKOUT, "tests", "fixtures", "grading", "resource-usage.txt")
        if not os.path.isfile(path):
            self.skipTest("no tests/fixtures/ in the student copy")
        with open(path) as f:
            usage = static_checks.parse_resource_usage(f.read())
        self.assertEqual(usage[("copy_float4_kernel", "sm_90")]["registers"], 16)
        self.assertEqual(usage[("tile_kernel", "sm_90")]["smem"], 4224)
        self.assertEqual(usage[("copy_offset_kernel", "sm_90")]["spill_stores"], 0)


class Rubrics(unittest.TestCase):
    def test_every_rubric_loads(self):
        for path in glob.glob(os.path.join(GRADING_DIR, "rubrics", "lab*.ini")):
            lab = int(os.path.basename(path)[3:-4])
            r = Rubric(lab)
            self.assertGreater(r.max_score, 0)
            for t in r.tests:
                if t.kind in ("correctness", "performance"):
                    self.assertTrue(t.variant)

    def test_sizes_fit_one_check_run(self):
        """A round's sizes go to one --check --n A,B,C: 1 to 16, 'default' only alone."""
        with tempfile.TemporaryDirectory() as d:
            private = os.path.join(d, "lab1.ini")
            for check, ok in (("3 12347", True), ("default", True), ("default 3", False),
                              (" ".join(str(n) for n in range(1, 18)), False)):
                with open(private, "w") as f:
                    f.write(f"[seeds]\ncheck = 1\nrecheck = 2\nperf = 3\n[sizes]\ncheck = {check}\nrecheck = 5\n")
                if ok:
                    self.assertEqual(Rubric(1, private_path=private).check_sizes, check.split())
                else:
                    self.assertRaises(RubricError, Rubric, 1, private_path=private)

    def test_bands(self):
        bands = parse_bands("1.2:1 1.5:0.5 2.0:0", "t")
        self.assertEqual(band_fraction(0.9, bands), 1)
        self.assertEqual(band_fraction(1.2, bands), 1)
        self.assertAlmostEqual(band_fraction(1.35, bands), 0.75)
        self.assertAlmostEqual(band_fraction(1.75, bands), 0.25)
        self.assertEqual(band_fraction(3.0, bands), 0)


class SlurmArray(unittest.TestCase):
    def test_array_spec(self):
        # tests/slurm.sh runs grade-all --slurm against stand-in and real Slurm commands
        self.assertEqual(slurm.array_spec([8, 0, 1, 2, 5, 7]), "0-2,5,7-8")
        self.assertEqual(slurm.array_spec([3], parallel=8), "3%8")


# A stand-in lab program. copy_strided: right; copy_offset: TODO open; copy_float4: wrong at
# n = 12347 (a hidden size). --check verifies each variant --only names, as a lab does: exit 1
# if one was wrong. Timed runs write one row per variant with MS milliseconds.
FAKE_LAB = r"""#!/bin/sh
check=0 only= n= csv= nx96=
while [ $# -gt 0 ]; do
    case $1 in
    --check) check=1 ;;
    --only) only=$2; shift ;;
    --n) n=$2; shift ;;
    --csv) csv=$2; shift ;;
    --seed) shift ;;
    --nx) [ "$2" = 96 ] && nx96=1; shift ;;
    esac
    shift
done
echo "lab1 on Stand-in GPU (sm_90, 1 SMs)"
if [ $check = 1 ]; then
    status=0
    for size in $(echo "$n" | tr , ' '); do
        for v in $(echo "$only" | tr , ' '); do
            case $v in
            copy_strided) if [ "$nx96" = 1 ]; then echo "copy_strided               not implemented"; fi ;;
            copy_offset) echo "copy_offset                not implemented" ;;
            copy_float4) if [ "$size" = 12347 ]; then echo "lab1: copy_float4 (n 4097): WRONG (1 mismatches)" >&2; status=1; fi ;;
            esac
        done
    done
    exit $status
fi
mkdir -p "$csv"
{ echo "# lab: 1"; echo "lab,variant,param,n,bytes,flops,ms_median,ms_min,ms_max,reps,gbps,gflops,pct_of_ceiling,status"
  for v in $(echo "$only" | tr , ' '); do echo "1,$v,4,100,800,0,MS,MS,MS,10,1,,1,ok"; done; } >"$csv/stride.csv"
"""

ALL_IMPLEMENTED = FAKE_LAB.replace('echo "copy_offset                not implemented"', ":")
EVERY_VARIANT = "copy_strided,copy_offset,copy_float4"  # lab 1's graded variants, in the rubric's order


class GpuSteps(unittest.TestCase):
    def setUp(self):
        env = mock.patch.dict(os.environ)  # these runs are stand-ins: no GPU lock (GpuLock tests it)
        env.start()
        self.addCleanup(env.stop)
        os.environ.pop("MEMLAB_GPU_LOCK", None)
        self.scratch = tempfile.mkdtemp(prefix="memlab-test-")
        os.chmod(self.scratch, 0o755)
        self.rubric = Rubric(1)
        self.rubric.perf_runs = 2
        self.session = grader.Session(self.rubric, os.path.join(self.scratch, "work"), use_gpu=False)
        self.session.has_gpu = True

    def tearDown(self):
        shutil.rmtree(self.scratch)

    def fake(self, name, ms, script=FAKE_LAB):
        path = os.path.join(self.scratch, name)
        with open(path, "w") as f:
            f.write(script.replace("MS", ms))
        os.chmod(path, 0o755)
        return path

    def test_verdicts_and_reports(self):
        self.session.reference = self.fake("fake-reference", "1.000")
        runs = grader.Runs(self.session, self.fake("fake-student", "1.350"), self.scratch)
        results = {}
        sizes = ["3", "12347"]
        passed = grader.grade_correctness(self.session, runs, 1, sizes, {})
        self.assertEqual({v: ok for v, (ok, _) in passed.items()},
                         {"copy_strided": True, "copy_offset": False, "copy_float4": False})
        self.assertIn("not implemented", passed["copy_offset"][1])
        self.assertIn("WRONG", passed["copy_float4"][1])
        wrong = grader.grade_performance(self.session, runs, ["copy_strided"], results)
        self.assertEqual(wrong, {})
        speed = results["speed copy_strided"]
        self.assertAlmostEqual(speed.score, 10 * band_fraction(1.35, self.rubric.tests[5].bands), places=2)
        self.assertEqual(speed.verdict, "partial")
        self.assertIn("1.35x", speed.output)
        self.assertAlmostEqual(report.results_json(self.rubric, self.session, [speed])["tests"][0]
                               ["extra_data"]["ratio"], 1.35)  # the class figure of speed reads it
        self.assertEqual(results["speed copy_float4"].verdict, "fail")
        self.assertEqual(self.session.gpu_name, "Stand-in GPU")
        again = grader.grade_correctness(self.session, runs, 2, ["65539"], passed, wrong)
        self.assertTrue(again["copy_strided"][0])
        self.assertIn("after timing", again["copy_strided"][1])
        # checks (one run for n = 3,12347, which fails, then copy_float4's, the variant its stderr
        # names), timed runs (two each: partial credit), recheck
        self.assertEqual(runs.count, 1 + 1 + 2 * 2 + 1)

    def test_failed_check_named_and_fast_flagged(self):
        self.session.reference = self.fake("fake-reference", "1.000")
        runs = grader.Runs(self.session, self.fake("fake-student", "0.300"), self.scratch)
        results = {}
        grader.grade_performance(self.session, runs, ["copy_strided"], results)
        speed = results["speed copy_strided"]
        self.assertEqual(speed.verdict, "pass")
        self.assertIn("3.3x faster than the reference", speed.review)
        data = report.results_json(self.rubric, self.session, [speed])
        self.assertEqual(len(data["extra_data"]["review"]), 1)
        self.assertIn("REVIEW: speed copy_strided", report.text_report(self.rubric, self.session, "s.cu", [speed]))
        # a timed point the lab program judged IMPLAUSIBLE: the check it failed is in the report
        cheat = os.path.join(self.scratch, "fake-cheat")
        with open(cheat, "w") as f:
            f.write(FAKE_LAB.replace("MS,MS,MS,10,1,,1,ok", ",,,,,,,IMPLAUSIBLE").replace(
                'mkdir -p "$csv"', 'echo "lab1: copy_strided (stride 4): IMPLAUSIBLE: work ran outside the '
                'stream the driver times" >&2; mkdir -p "$csv"'))
        os.chmod(cheat, 0o755)
        results = {}
        cheat_runs = grader.Runs(self.session, cheat, tempfile.mkdtemp(dir=self.scratch))
        wrong = grader.grade_performance(self.session, cheat_runs, ["copy_strided"], results)
        self.assertEqual(results["speed copy_strided"].score, 0)
        self.assertIn("outside the stream", results["speed copy_strided"].output)
        self.assertIn("IMPLAUSIBLE", wrong["copy_strided"])
        again = grader.grade_correctness(self.session, cheat_runs, 2, ["7"], {"copy_strided": (True, "")}, wrong)
        self.assertFalse(again["copy_strided"][0])
        self.assertIn("outside the stream", again["copy_strided"][1])

    def test_timed_runs_hold_the_gpu_lock_alone(self):
        held = []

        @contextlib.contextmanager
        def lock(exclusive, label=""):
            held.append(exclusive)
            yield

        self.session.reference = self.fake("fake-reference", "1.000")
        runs = grader.Runs(self.session, self.fake("fake-student", "1.000"), self.scratch)
        with mock.patch.object(grader, "gpu_lock", lock):
            grader.grade_correctness(self.session, runs, 1, ["3"], {})
            self.assertEqual(held, [False])  # one --check run for the three variants: shared
            grader.grade_performance(self.session, runs, ["copy_strided"], {})
        # two reference runs and one student run (at full credit after one), timed: alone
        self.assertEqual(held, [False] + [True] * 3)

    def test_reference_runs_shared_within_the_limit(self):
        def graded(student_ms, variants):
            runs = grader.Runs(self.session, self.fake("fake-student", student_ms), tempfile.mkdtemp(dir=self.scratch))
            results = {}
            grader.grade_performance(self.session, runs, variants, results)
            return runs.count, results
        self.session.reference = self.fake("fake-reference", "1.000")
        self.assertEqual(graded("1.000", ["copy_strided"])[0], 3)  # the reference's two, one at full credit
        # the next student reuses both reference runs, which timed every graded variant
        count, results = graded("1.500", ["copy_strided", "copy_float4"])
        self.assertEqual(count, 2)
        self.assertIn("1.50x", results["speed copy_float4"].output)
        # another reference program is timed anew; so is a kept run older than the limit
        self.session.reference = self.fake("fake-reference-2", "2.000")
        count, results = graded("1.000", ["copy_strided"])
        self.assertEqual(count, 3)
        self.assertIn("0.50x", results["speed copy_strided"].output)
        self.rubric.reference_reuse = 0
        self.assertEqual(graded("1.000", ["copy_strided"])[0], 3)

    def test_student_runs_stop_at_full_credit(self):
        """The reference's runs come first; the student's stop once every timed variant has full
        credit (a best time only falls with more runs), and not before."""
        self.rubric.perf_runs = 3
        self.session.reference = self.fake("fake-reference", "1.000")
        times = os.path.join(self.scratch, "times")
        script = FAKE_LAB.replace('mkdir -p "$csv"', 'ms=$(head -n 1 TIMES); rest=$(tail -n +2 TIMES); '
                                  'echo "$rest" >TIMES; mkdir -p "$csv"')  # the sandbox may write TIMES only
        student = self.fake("fake-student", "$ms", script.replace("TIMES", times))

        def graded(*student_ms):
            with open(times, "w") as f:
                f.write("\n".join(student_ms) + "\n")
            os.chmod(times, 0o666)
            runs = grader.Runs(self.session, student, tempfile.mkdtemp(dir=self.scratch))
            results = {}
            with mock.patch.object(runs, "run", wraps=runs.run) as run:
                grader.grade_performance(self.session, runs, ["copy_strided", "copy_float4"], results)
            return [os.path.basename(c.args[0]) for c in run.call_args_list], results
        who, results = graded("1.500", "1.000", "0.900")  # partial, then full credit: two runs
        self.assertEqual(who, ["fake-reference"] * 3 + ["fake-student"] * 2)
        speed = results["speed copy_strided"]
        self.assertEqual(speed.verdict, "pass")
        self.assertIn("1.00x", speed.output)
        self.assertIn("yours of 2: full credit already", speed.output)
        who, results = graded("1.350", "1.350", "1.350")  # never full credit: every run
        self.assertEqual(who, ["fake-student"] * 3)  # the reference's runs are kept
        self.assertEqual(results["speed copy_float4"].verdict, "partial")
        self.assertIn("best of 3 runs each", results["speed copy_float4"].output)

    def checked(self, script, sizes, calls=None):
        """grade_correctness's verdicts for a stand-in, and the --only of each of its runs
        (their whole arguments and time limits appended to `calls`, if given)."""
        runs = grader.Runs(self.session, self.fake("fake-student", "1.000", script), tempfile.mkdtemp(dir=self.scratch))
        with mock.patch.object(runs, "run", wraps=runs.run) as run:
            passed = grader.grade_correctness(self.session, runs, 1, sizes, {})
        if calls is not None:
            calls += [c.args[1:] for c in run.call_args_list]
        return passed, [c.args[1][c.args[1].index("--only") + 1] for c in run.call_args_list]

    def test_one_check_run_for_every_size(self):
        calls = []
        passed, only = self.checked(ALL_IMPLEMENTED, ["3", "263171"], calls)
        self.assertEqual(only, [EVERY_VARIANT])
        args, limit = calls[0]
        self.assertEqual(args[args.index("--n") + 1], "3,263171")
        self.assertEqual(limit, 2 * self.rubric.check_timeout)  # each size its own limit
        for variant, (ok, text) in passed.items():
            self.assertTrue(ok, variant)
            self.assertRegex(text, r"^n = 3, 263171 \(before timing, secret seed\): passed \(\d+\.\d s\), one run "
                             r"for 3 variants$")

    def shared_fails(self, status, stderr, wrong):
        """A stand-in lab 1 whose run of several variants exits `status` with these stderr
        lines; a run of one variant is wrong (exit 1 and its line) for those in `wrong`."""
        return f"""#!/bin/sh
only=
while [ $# -gt 0 ]; do [ "$1" = --only ] && only=$2; shift; done
echo "lab1 on Stand-in GPU (sm_90, 1 SMs)"
case $only in
*,*) {"".join(f"echo '{line}' >&2; " for line in stderr)}exit {status} ;;
{"|".join(wrong)}) echo "lab1: $only (n 3): WRONG (1 mismatches)" >&2; exit 1 ;;
esac
"""

    def test_a_shared_run_wrong_for_one_variant_runs_that_one_again(self):
        # every line names copy_offset: it alone runs again; the others pass from the shared run
        calls = []
        script = self.shared_fails(1, ["lab1: copy_offset (offset 3): index 7: expected 0x00000001, got 0x7fc00000",
                                       "lab1: copy_offset (offset 3): WRONG (12 mismatches)"], ["copy_offset"])
        passed, only = self.checked(script, ["3", "12347", "65539"], calls)
        self.assertEqual(only, [EVERY_VARIANT, "copy_offset"])
        self.assertEqual({call[0][call[0].index("--n") + 1] for call in calls}, {"3,12347,65539"})
        self.assertEqual({v: ok for v, (ok, _) in passed.items()},
                         {"copy_strided": True, "copy_offset": False, "copy_float4": True})
        wrong = passed["copy_offset"][1].splitlines()
        self.assertRegex(wrong[0], r"^n = 3, 12347, 65539 \(before timing, secret seed\): wrong results \(exit 1\) "
                         r"\(\d+\.\d s\)$")  # its own run's
        self.assertIn("(n 3): WRONG", wrong[1])
        for variant in ("copy_strided", "copy_float4"):
            self.assertRegex(passed[variant][1], r"^n = 3, 12347, 65539 .*: passed \(\d+\.\d s\), one run for 3 "
                             r"variants$")

    def test_a_shared_run_is_run_again_per_variant_unless_each_line_names_one(self):
        named = "lab1: copy_offset (offset 3): WRONG (12 mismatches)"
        every = EVERY_VARIANT.split(",")
        for status, stderr, again in [
                (1, [named], ["copy_offset"]),
                (1, [named, "lab1: input changed: index 7: expected 0x00000001, got 0x00000002"], every),
                (1, [named, "OMP: Warning #96: a line of no variant"], every),
                (1, [], every),  # wrong, but no line says which
                (3, ["lab1: kernel of copy_offset (offset 3) failed: cudaErrorIllegalAddress"], every),  # died early
                (2, [named], every)]:
            with self.subTest(status=status, stderr=stderr):
                passed, only = self.checked(self.shared_fails(status, stderr, ["copy_offset"]), ["3"])
                self.assertEqual(only, [EVERY_VARIANT] + again)
                self.assertEqual([v for v, (ok, _) in passed.items() if not ok], ["copy_offset"])

    def test_a_shared_run_whose_stderr_was_cut_is_run_again_per_variant(self):
        # over 1 MiB on stderr: the outcome keeps the last MiB, which lost the line on copy_offset
        # (the lines have 64 bytes: the MiB starts at one, each naming copy_float4)
        line = "lab1: copy_float4 (n 3): index 1: expected 0x00000001, got 0x02"
        self.assertEqual(len(line) + 1, 64)
        flood = f"yes '{line}' | head -n 30000 >&2; "
        script = self.shared_fails(1, ["lab1: copy_offset (offset 3): WRONG (1 mismatches)"], ["copy_offset"])
        passed, only = self.checked(script.replace("exit 1 ;;", flood + "exit 1 ;;", 1), ["3"])
        self.assertEqual(only, [EVERY_VARIANT] + EVERY_VARIANT.split(","))
        self.assertEqual([v for v, (ok, _) in passed.items() if not ok], ["copy_offset"])

    def test_a_variant_named_inside_another_is_not_run_again(self):
        # lab 7: \btiled_16\b is not in tiled_16_unrolled, and the other way round
        self.session.rubric = Rubric(7)
        every = ",".join(self.session.rubric.variants("correctness"))
        self.assertIn("tiled_16,tiled_16_unrolled", every)
        for wrong in ("tiled_16", "tiled_16_unrolled"):
            with self.subTest(wrong=wrong):
                script = self.shared_fails(1, [f"lab7: {wrong} (64x64x64, against cuBLAS): WRONG (9 mismatches)"],
                                           [wrong])
                passed, only = self.checked(script, ["64"])
                self.assertEqual(only, [every, wrong])
                self.assertEqual([v for v, (ok, _) in passed.items() if not ok], [wrong])

    def test_not_implemented_in_a_shared_run(self):
        passed, only = self.checked(FAKE_LAB, ["3"])
        self.assertEqual(only, [EVERY_VARIANT])
        self.assertEqual(passed["copy_offset"], (False, "not implemented (its TODO is still open)"))
        self.assertTrue(passed["copy_strided"][0] and passed["copy_float4"][0])

    def test_a_shared_run_that_times_out_is_run_again_per_variant(self):
        self.rubric.check_timeout = 1
        hangs_shared = FAKE_LAB.replace("    status=0\n", "    case $only in *,*) exec sleep 30 ;; esac\n    status=0\n")
        passed, only = self.checked(hangs_shared, ["3"])
        self.assertEqual(only, [EVERY_VARIANT] + EVERY_VARIANT.split(","))
        self.assertEqual({v: ok for v, (ok, _) in passed.items()},
                         {"copy_strided": True, "copy_offset": False, "copy_float4": True})
        self.assertNotIn("timed out", "".join(text for _, text in passed.values()))

    def test_check_args_reach_every_check_run(self):
        # the stand-in lab answers "not implemented" for copy_strided only when given --nx 96
        self.rubric.check_args = ["--nx", "96"]
        runs = grader.Runs(self.session, self.fake("fake-student", "1.000"), self.scratch)
        passed = grader.grade_correctness(self.session, runs, 1, ["3"], {})
        self.assertFalse(passed["copy_strided"][0])
        self.assertIn("not implemented", passed["copy_strided"][1])

    def test_timeout_and_report_formats(self):
        self.rubric.check_timeout = 1
        hang = os.path.join(self.scratch, "hang")
        with open(hang, "w") as f:
            f.write("#!/bin/sh\nexec sleep 30\n")
        os.chmod(hang, 0o755)
        runs = grader.Runs(self.session, hang, self.scratch)
        passed = grader.grade_correctness(self.session, runs, 1, ["3"], {})
        self.assertIn("timed out", passed["copy_strided"][1])
        results = [grader.TestResult(t, t.points if t.kind == "compile" else 0,
                                     "pass" if t.kind == "compile" else "skip", "x")
                   for t in self.rubric.tests]
        data = report.results_json(self.rubric, self.session, results)
        json.dumps(data)
        self.assertEqual(data["score"], 10)
        self.assertNotIn("status", data["tests"][2])
        text = report.text_report(self.rubric, self.session, "sub.cu", results)
        self.assertIn("compile: OK (10/10)", text)
        self.assertIn("Score: 10/100 (7 test(s) skipped", text)


class GpuLock(unittest.TestCase):
    """grader.gpu_lock on a temporary lock file, probed through other open files (flock's locks
    belong to an open file, so two of one process conflict as two processes' would)."""

    def setUp(self):
        self.path = os.path.join(tempfile.mkdtemp(prefix="memlab-lock-"), "gpu.lock")
        open(self.path, "w").close()
        self.addCleanup(shutil.rmtree, os.path.dirname(self.path))
        env = mock.patch.dict(os.environ, {"MEMLAB_GPU_LOCK": self.path})
        env.start()
        self.addCleanup(env.stop)

    @staticmethod
    def holder(order, holding=None):
        """hold(exclusive, name, seconds): the lock held for that long, name added to order at
        the end, holding set once it is held."""
        def hold(exclusive, name, seconds=0.0):
            with grader.gpu_lock(exclusive):
                if holding:
                    holding.set()
                time.sleep(seconds)
                order.append(name)
        return hold

    @staticmethod
    def started(target, *args):
        """A thread running target(*args), started."""
        t = threading.Thread(target=target, args=args)
        t.start()
        return t

    def can_lock(self, how):
        with open(self.path) as f:
            try:
                fcntl.flock(f, how | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                return False

    def test_shared_and_exclusive(self):
        with grader.gpu_lock(exclusive=False):
            self.assertTrue(self.can_lock(fcntl.LOCK_SH))
            self.assertFalse(self.can_lock(fcntl.LOCK_EX))
        with grader.gpu_lock(exclusive=True):
            self.assertFalse(self.can_lock(fcntl.LOCK_SH))
        self.assertTrue(self.can_lock(fcntl.LOCK_EX))

    def test_exclusive_waits_for_shared(self):
        entered = threading.Event()

        def timed_run():
            with grader.gpu_lock(exclusive=True):
                entered.set()

        with grader.gpu_lock(exclusive=False):
            t = self.started(timed_run)
            self.assertFalse(entered.wait(0.3), "the exclusive hold began while a shared one was held")
        self.assertTrue(entered.wait(10), "the exclusive hold never began")
        t.join()

    def test_a_waiting_timed_run_goes_first(self):
        order = []
        hold = self.holder(order)
        with grader.gpu_lock(exclusive=False):
            timed = self.started(hold, True, "timed")
            for _ in range(200):  # until it waits in the queue
                with open(self.path + ".queue") as q:
                    try:
                        fcntl.flock(q, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        break
                time.sleep(0.01)
            check = self.started(hold, False, "check")
            time.sleep(0.1)
            self.assertEqual(order, [], "the check went ahead of the waiting timed run")
        timed.join()
        check.join()
        self.assertEqual(order, ["timed", "check"])

    def test_timed_runs_go_in_a_batch(self):
        order, holding = [], threading.Event()
        hold = self.holder(order, holding)
        first = self.started(hold, True, "timed 1", 0.5)
        holding.wait(5)
        check = self.started(hold, False, "check")
        time.sleep(0.15)
        second = self.started(hold, True, "timed 2")
        for t in (first, check, second):
            t.join()
        self.assertEqual(order, ["timed 1", "timed 2", "check"],
                         "a timed run asked for during another waited for a check asked for before it")

    def test_a_check_past_the_patience_holds_up_no_other_check(self):
        os.environ["MEMLAB_GPU_PATIENCE"] = "0.2"
        self.addCleanup(os.environ.pop, "MEMLAB_GPU_PATIENCE", None)
        order, long_holds = [], threading.Event()
        hold = self.holder(order, long_holds)
        long_check = self.started(hold, False, "long check", 1.2)
        long_holds.wait(5)
        timed = self.started(hold, True, "timed")
        time.sleep(0.5)  # the timed run has waited past its patience
        hold(False, "other check")
        long_check.join()
        timed.join()
        self.assertEqual(order, ["other check", "long check", "timed"])
        self.assertEqual(os.listdir(self.path + ".holders"), [], "a check left its file")

    def test_the_program_never_has_the_lock_file(self):
        with grader.gpu_lock(exclusive=True):
            fds = subprocess.run(["sh", "-c", "ls -l /proc/$$/fd"], capture_output=True, text=True,
                                 close_fds=False).stdout
        self.assertNotIn(self.path, fds)

    def test_holds_logged(self):
        log = self.path + ".log"
        before = time.time()
        with mock.patch.dict(os.environ, {"MEMLAB_GPU_LOCK_LOG": log}):
            with grader.gpu_lock(exclusive=True, label="lab1 --only copy_strided"):
                time.sleep(0.05)
        with open(log) as f:
            mode, waited, held, at, label = f.read().rstrip("\n").split(" ", 4)
        self.assertEqual((mode, label), ("exclusive", "lab1 --only copy_strided"))
        self.assertGreaterEqual(float(held), 0.05)
        self.assertTrue(before - 0.001 <= float(at) <= before + 1, f"the hold began at {at}, asked at {before}")

    def test_no_lock_without_the_variable(self):
        del os.environ["MEMLAB_GPU_LOCK"]
        with grader.gpu_lock(exclusive=True):
            self.assertTrue(self.can_lock(fcntl.LOCK_EX))


def load_grade_all():
    path = os.path.join(GRADING_DIR, "grade-all")
    loader = importlib.machinery.SourceFileLoader("grade_all", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("grade_all", loader))
    loader.exec_module(module)
    return module


class GradeAllJobs(unittest.TestCase):
    """grade-all --jobs 3 with grading/grade replaced by a stand-in that finishes the later
    submissions first: the gradebook and the progress lines keep the submissions' order."""

    def test_order_kept_and_gpu_lock_made(self):
        grade_all = load_grade_all()
        scratch = tempfile.mkdtemp(prefix="memlab-jobs-")
        self.addCleanup(shutil.rmtree, scratch)
        subs, out = os.path.join(scratch, "subs"), os.path.join(scratch, "out")
        os.makedirs(subs)
        names = ["anna", "ben", "cleo", "dev", "eve"]
        for name in names:
            open(os.path.join(subs, name + ".cu"), "w").close()
        rubric = Rubric(1)
        session = mock.Mock(arch="sm_90", has_gpu=True, sandbox_gpu="ok")  # "a GPU": grade-all makes the lock
        finished, locks, probes = [], [], []

        def grade_one(args, rubric, arch, entry, out_dir, sandbox_gpu=None):
            probes.append(sandbox_gpu)
            k = names.index(entry[:-3])
            time.sleep(0.1 * (len(names) - k))  # the last submission ends first
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(out_dir, "results.json"), "w") as f:
                json.dump({"tests": [{"name": rubric.tests[0].name, "score": k}], "extra_data": {}}, f)
            finished.append(entry)
            locks.append(os.environ.get("MEMLAB_GPU_LOCK"))

        printed = io.StringIO()
        with mock.patch.dict(os.environ), mock.patch.object(grade_all, "open_session", return_value=(rubric, session)), \
                mock.patch.object(grade_all, "grade_one", grade_one), mock.patch.object(grade_all.figures, "draw"), \
                mock.patch.object(sys, "argv", ["grade-all", "1", subs, "--out", out, "--jobs", "3"]), \
                contextlib.redirect_stdout(printed):
            os.environ.pop("MEMLAB_GPU_LOCK", None)
            self.assertEqual(grade_all.main(), 0)
        self.assertNotEqual(finished, [n + ".cu" for n in names])  # they did end out of order
        with open(os.path.join(out, "gradebook.csv")) as f:
            rows = [line.split(",")[:2] for line in f.read().splitlines()[1:]]
        self.assertEqual(rows, [[n, str(k)] for k, n in enumerate(names)])
        progress = [line.split(":")[0] for line in printed.getvalue().splitlines() if line.startswith("[")]
        self.assertEqual(progress, [f"[{k + 1}/5] {n}" for k, n in enumerate(names)])
        self.assertEqual(set(locks), {os.path.join(out, ".gpu-lock")})
        self.assertTrue(os.path.isfile(os.path.join(out, ".gpu-lock")))
        self.assertEqual(probes, ["ok"] * len(names))  # the class's probe, passed to every student


class SandboxProbe(unittest.TestCase):
    """Can the sandbox user open the GPU? grade-all probes once (a GPU process, about 0.3 s) and
    each student's grading/grade takes its finding (--sandbox-gpu) instead of probing again."""

    def setUp(self):
        self.session = grader.Session(Rubric(1), tempfile.mkdtemp(prefix="memlab-probe-test-"), use_gpu=False)
        self.addCleanup(shutil.rmtree, self.session.work_dir)
        self.session.has_gpu = True
        self.session.sandbox.wrapper = ["env"]  # as under root: programs run as another user

    def probes_run(self, sandbox_gpu, found):
        """How many probes prepare(sandbox_gpu) runs, the probe (mocked) finding `found`."""
        with mock.patch.object(grader, "make", return_value=(True, "")), \
                mock.patch.object(self.session, "run_probe", return_value=found) as probe:
            self.session.prepare(sandbox_gpu)
        return probe.call_count

    def test_alone_it_probes(self):
        self.assertEqual(self.probes_run(None, "no"), 1)
        self.assertEqual(self.session.sandbox_gpu, "no")
        self.assertEqual(self.session.sandbox.wrapper, [])
        self.assertIn("cannot open the GPU", self.session.sandbox.describe())

    def test_the_finding_given_is_taken(self):
        self.assertEqual(self.probes_run("ok", "no"), 0)
        self.assertEqual(self.session.sandbox.wrapper, ["env"])
        self.assertIsNone(self.session.sandbox.warning)
        self.assertEqual(self.probes_run("no", "ok"), 0)
        self.assertEqual(self.session.sandbox.wrapper, [])
        self.assertEqual(self.session.sandbox.describe(), "WARNING: the sandbox user cannot open the GPU (device "
                         "file permissions): student programs run as the grading user")

    def test_grade_all_passes_it_on(self):
        grade_all = load_grade_all()
        out = tempfile.mkdtemp(prefix="memlab-probe-test-")
        self.addCleanup(shutil.rmtree, out)
        args = commands.options(["1", out], many=True)
        with mock.patch.object(grade_all.subprocess, "run", return_value=mock.Mock(returncode=0)) as run:
            grade_all.grade_one(args, Rubric(1), "sm_90", "anna.cu", out, "no")
        child = commands.options(run.call_args[0][0][1:])  # grading/grade's own command line
        self.assertEqual(child.sandbox_gpu, "no")
        with mock.patch.object(commands.grader, "Session") as session:
            session.return_value.prepare.return_value = (True, "")
            commands.open_session(child)
        session.return_value.prepare.assert_called_once_with("no")


def load_script(name):
    """grading/grade or grading/grade-all as a module, main() not run."""
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), os.path.join(GRADING_DIR, name))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


class CommandLine(unittest.TestCase):
    """What grading/grade and grade-all say to a mistyped command: a usage error (one line,
    exit 2) where there is nothing to grade, never a report of a 0 that passes for a grade;
    the gradebook's skipped tests; what --resume says of the students it keeps."""

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="memlab-cli-")
        self.addCleanup(shutil.rmtree, self.scratch)
        self.out = os.path.join(self.scratch, "out")

    def run_script(self, *argv):
        return subprocess.run([sys.executable, os.path.join(GRADING_DIR, argv[0])] + list(argv[1:]),
                              capture_output=True, text=True, timeout=60)

    def assert_usage_error(self, p, words):
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertIn(words, p.stderr)
        self.assertFalse(os.path.exists(self.out), "a report or gradebook was written")

    def test_a_missing_submission_is_a_usage_error(self):
        missing = os.path.join(self.scratch, "alice", "kernel.cu")  # a typing error
        self.assert_usage_error(self.run_script("grade", "1", missing, "--out", self.out, "--no-gpu"),
                                "no such file or folder")
        os.symlink(os.path.join(self.scratch, "gone.cu"), os.path.join(self.scratch, "link.cu"))
        self.assert_usage_error(self.run_script("grade", "1", os.path.join(self.scratch, "link.cu"), "--out",
                                                self.out), "a link to nothing")

    def test_an_unreadable_submission_is_a_usage_error(self):
        path = os.path.join(self.scratch, "kernels.cu")
        open(path, "w").close()
        grade = load_script("grade")
        err = io.StringIO()
        # as root every file reads: the permission is refused by a stand-in os.access
        with mock.patch.object(commands.os, "access", return_value=False), \
                mock.patch.object(grade, "open_session", side_effect=AssertionError("graded")), \
                mock.patch.object(sys, "argv", ["grade", "1", path, "--out", self.out]), \
                contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as stop:
            grade.main()
        self.assertEqual(stop.exception.code, 2)
        self.assertEqual(err.getvalue(), f"grade: {path}: cannot read this file (permissions)\n")
        self.assertFalse(os.path.exists(self.out))
        if os.geteuid() != 0:  # and for real, where permissions hold
            os.chmod(path, 0)
            self.assert_usage_error(self.run_script("grade", "1", path, "--out", self.out), "cannot read")
        self.assertIsNone(commands.unreadable(self.scratch))
        self.assertIsNone(commands.unreadable(__file__))

    def test_grade_all_of_a_folder_without_submissions_is_a_usage_error(self):
        subs = os.path.join(self.scratch, "subs")
        os.makedirs(subs)
        self.assert_usage_error(self.run_script("grade-all", "1", subs, "--out", self.out, "--no-gpu"),
                                "holds no submission")
        for name in ("notes.txt", ".hidden.cu"):
            open(os.path.join(subs, name), "w").close()
        self.assert_usage_error(self.run_script("grade-all", "1", subs, "--out", self.out, "--no-gpu"),
                                "holds no submission")
        self.assertEqual(load_script("grade-all").submissions(subs), ([], ["notes.txt"]))
        os.makedirs(os.path.join(subs, "bob"))
        open(os.path.join(subs, "anna.cu"), "w").close()
        self.assertEqual(load_script("grade-all").submissions(subs), (["anna.cu", "bob"], ["notes.txt"]))

    def grade_class(self, names, extra_args, results):
        """grade-all's main() over NAME.cu files with grading/grade replaced by a stand-in that
        writes results(name) as the student's results.json; (students graded, printed lines)."""
        grade_all = load_script("grade-all")
        subs = os.path.join(self.scratch, "subs")
        os.makedirs(subs, exist_ok=True)
        for name in names:
            open(os.path.join(subs, name + ".cu"), "w").close()
        rubric, graded = Rubric(1), []
        session = mock.Mock(arch="sm_90", has_gpu=False, sandbox_gpu=None)

        def grade_one(args, rubric, arch, entry, out_dir, sandbox_gpu=None):
            graded.append(entry[:-3])
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(out_dir, "results.json"), "w") as f:
                json.dump(results(entry[:-3]), f)

        printed = io.StringIO()
        with mock.patch.object(grade_all, "open_session", return_value=(rubric, session)), \
                mock.patch.object(grade_all, "grade_one", grade_one), mock.patch.object(grade_all.figures, "draw"), \
                mock.patch.object(sys, "argv", ["grade-all", "1", subs, "--out", self.out] + extra_args), \
                contextlib.redirect_stdout(printed):
            self.assertEqual(grade_all.main(), 0)
        return graded, printed.getvalue().splitlines()

    @staticmethod
    def results(rubric, skipped_kinds, points):
        """A results.json: each test of a kind in skipped_kinds skipped, the others at points."""
        return {"tests": [{"name": t.name, "score": 0 if t.kind in skipped_kinds else points,
                           "max_score": t.points,
                           "extra_data": {"kind": t.kind, "verdict": "skip" if t.kind in skipped_kinds else "pass"}}
                          for t in rubric.tests], "extra_data": {}}

    def test_gradebook_marks_skipped_tests_skip_and_the_total_stays_a_number(self):
        rubric = Rubric(1)
        _, printed = self.grade_class(["anna"], [], lambda name: self.results(rubric, grader.GPU_KINDS, 1))
        with open(os.path.join(self.out, "gradebook.csv")) as f:
            header, row = [line.split(",") for line in f.read().splitlines()]
        cells = dict(zip(header, row))
        for t in rubric.tests:
            self.assertEqual(cells[t.name], "skip" if t.kind in grader.GPU_KINDS else "1", t.name)
        graded = sum(t.kind not in grader.GPU_KINDS for t in rubric.tests)
        self.assertEqual(cells["total"], str(graded))
        skipped = sum(t.points for t in rubric.tests if t.kind in grader.GPU_KINDS)
        self.assertIn(f"[1/1] anna: {graded}/{rubric.max_score:g} ({skipped:g} points skipped", "\n".join(printed))

    def test_resume_says_which_students_it_kept(self):
        rubric = Rubric(1)
        names = ["anna", "ben", "cleo", "dev"]
        self.grade_class(names[:2], [], lambda name: self.results(rubric, (), 7))
        graded, printed = self.grade_class(names, ["--resume"], lambda name: self.results(rubric, (), 3))
        self.assertEqual(graded, ["cleo", "dev"])
        self.assertIn("--resume: grading 2 of 4 submissions; the 2 graded before are kept", printed[0])
        progress = [line for line in printed if line.startswith("[")]
        self.assertEqual(progress[:2], ["[1/4] anna: kept: graded before, not regraded",
                                        "[2/4] ben: kept: graded before, not regraded"])
        total = 3 * len(rubric.tests)
        self.assertEqual(progress[2:], [f"[3/4] cleo: {total}/{rubric.max_score:g}",
                                        f"[4/4] dev: {total}/{rubric.max_score:g}"])
        with open(os.path.join(self.out, "gradebook.csv")) as f:
            totals = [line.split(",")[:2] for line in f.read().splitlines()[1:]]
        self.assertEqual(totals, [["anna", str(7 * len(rubric.tests))], ["ben", str(7 * len(rubric.tests))],
                                  ["cleo", str(total)], ["dev", str(total)]])


if __name__ == "__main__":
    unittest.main()
