#!/usr/bin/env python3
"""test_grader.py - the grader's own unit tests; no compiler, no GPU (tests/grading.sh runs
them). The GPU steps run against a stand-in lab program (a shell script), so the verdicts,
the timing against the reference and the report formats are checked on any machine.

    python3 grading/test_grader.py [-v]
"""
import glob
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grader  # noqa: E402
import report  # noqa: E402
import slurm  # noqa: E402
import static_checks  # noqa: E402
from rubric import GRADING_DIR, Rubric, band_fraction, parse_bands  # noqa: E402

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
            self.assertEqual(len(paths), 2, rubric_path)
            for path in paths:
                with open(path) as f:
                    self.assertEqual(static_checks.find_violations(f.read(), rubric), [], path)

    def test_comments_and_strings_are_ignored(self):
        text = ('#include "kernels.h"\n// fopen(system("x")) in a comment\n/* main( */\n'
                'static const char *idea = "reads with fopen, then exit(1)";\n')
        self.assertEqual(rules_broken(text, self.rubric), [])

    def test_each_rule(self):
        cases = {
            "library": "void f() { thrust::copy(a, b, c); }",
            "host_io": "void f() { FILE *x = 0; }",
            "process": "void f() { system(0); }",
            "main": "int main() { return 0; }",
            "attributes": "__attribute__((constructor)) void f() {}",
            "pragma": "#pragma weak f\n",
            "preprocessor_tricks": "#define F(a, b) a##b\n",
            "asm": 'void f() { asm("trap;"); }',
            "device_control": "void f() { cudaDeviceReset(); }",
            "off_stream": "void f() { cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); }",
            "runtime_copy": "void f() { cudaMemcpy(0, 0, 0, cudaMemcpyDefault); }",
            "includes": '#include "../../grading/private/lab1.ini"\n',
            "extern": 'extern "C" int secret;\n',
            "startup_code": "static int x = setup();\n",
        }
        for rule, text in cases.items():
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
# n = 12347 (a hidden size). Timed runs write one row per variant with MS milliseconds.
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
    case $only in
    copy_strided) if [ "$nx96" = 1 ]; then echo "copy_strided               not implemented"; fi ;;
    copy_offset) echo "copy_offset                not implemented" ;;
    copy_float4) if [ "$n" = 12347 ]; then echo "lab1: copy_float4 (n 4097): WRONG (1 mismatches)" >&2; exit 1; fi ;;
    esac
    exit 0
fi
mkdir -p "$csv"
{ echo "# lab: 1"; echo "lab,variant,param,n,bytes,flops,ms_median,ms_min,ms_max,reps,gbps,gflops,pct_of_ceiling,status"
  for v in $(echo "$only" | tr , ' '); do echo "1,$v,4,100,800,0,MS,MS,MS,10,1,,1,ok"; done; } >"$csv/stride.csv"
"""


class GpuSteps(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="memlab-test-")
        os.chmod(self.scratch, 0o755)
        self.rubric = Rubric(1)
        self.rubric.perf_runs = 2
        self.session = grader.Session(self.rubric, os.path.join(self.scratch, "work"), use_gpu=False)
        self.session.has_gpu = True

    def tearDown(self):
        shutil.rmtree(self.scratch)

    def fake(self, name, ms):
        path = os.path.join(self.scratch, name)
        with open(path, "w") as f:
            f.write(FAKE_LAB.replace("MS", ms))
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
        self.assertEqual(runs.count, 2 + 1 + 2 + 2 * 2 + 1)  # checks, timed runs, recheck

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

    def test_reference_runs_shared_within_the_limit(self):
        def graded(student_ms, variants):
            runs = grader.Runs(self.session, self.fake("fake-student", student_ms), tempfile.mkdtemp(dir=self.scratch))
            results = {}
            grader.grade_performance(self.session, runs, variants, results)
            return runs.count, results
        self.session.reference = self.fake("fake-reference", "1.000")
        self.assertEqual(graded("1.000", ["copy_strided"])[0], 4)  # two runs each
        # the next student reuses both reference runs, which timed every graded variant
        count, results = graded("1.500", ["copy_strided", "copy_float4"])
        self.assertEqual(count, 2)
        self.assertIn("1.50x", results["speed copy_float4"].output)
        # another reference program is timed anew; so is a kept run older than the limit
        self.session.reference = self.fake("fake-reference-2", "2.000")
        count, results = graded("1.000", ["copy_strided"])
        self.assertEqual(count, 4)
        self.assertIn("0.50x", results["speed copy_strided"].output)
        self.rubric.reference_reuse = 0
        self.assertEqual(graded("1.000", ["copy_strided"])[0], 4)

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


if __name__ == "__main__":
    unittest.main()
