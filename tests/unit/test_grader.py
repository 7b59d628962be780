#!/usr/bin/env python3
"""test_grader.py - the grader's own unit tests (grading/); no compiler, no GPU (tests/grading.sh
runs them), the sandbox's (test_sandbox.py) among them. The GPU steps run against a stand-in lab
program (a shell script), so the verdicts, the timing against the reference and the report
formats are checked on any machine.

    python3 tests/unit/test_grader.py [-v]
"""
import contextlib
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
import time
import unittest
from unittest import mock

sys.dont_write_bytecode = True
CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(CHECKOUT, "grading"))
import commands  # noqa: E402
import cpp_tokens  # noqa: E402
import evidence  # noqa: E402
import grader  # noqa: E402
import object_check  # noqa: E402
import report  # noqa: E402
import sanitizer  # noqa: E402
import slurm  # noqa: E402
import static_checks  # noqa: E402
from rubric import GRADING_DIR, Rubric, RubricError, band_fraction, parse_bands  # noqa: E402
from test_sandbox import FailClosed, HostileProgram  # noqa: E402,F401  (the sandbox's tests, run here too)


def rules_broken(text, rubric):
    """The rules a text breaks, from its own tokens (no preprocessor)."""
    tokens = cpp_tokens.lex(text)
    found = static_checks.directives(tokens, rubric) + static_checks.find_violations(tokens, rubric)
    return sorted({v[0] for v in found})


NVCC = shutil.which(os.environ.get("NVCC", "nvcc").split()[0])


def preprocessed_rules(text, lab=1):
    """The rules a kernels.cu breaks after the compiler's preprocessor (nvcc -E), both passes."""
    rubric = Rubric(lab)
    lab_dir = glob.glob(os.path.join(CHECKOUT, "labs", f"lab{lab}-*"))[0]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "kernels.cu")
        with open(path, "w") as f:
            f.write(text)
        passes, err = static_checks.preprocess(path, ["-std=c++17", "-arch=sm_90", "-Icommon", "-I" + lab_dir],
                                               CHECKOUT, os.path.join(d, "pp"))
    assert err is None, err
    return sorted({(v[0], v[2]) for tokens, _ in passes for v in static_checks.find_violations(tokens, rubric)})


class Tokens(unittest.TestCase):
    """cpp_tokens.lex: the file as the compiler's first phases see it."""

    def texts(self, source):
        return [t.text for t in cpp_tokens.lex(source) if t.kind != "newline"]

    def test_splices_join_names(self):
        tokens = cpp_tokens.lex("void f() {\n  sys\\\ntem(0);\n}\n")
        self.assertIn(("ident", "system", 2), [(t.kind, t.text, t.line) for t in tokens])
        self.assertIn("fopen", self.texts("int fop\\   \nen;"))  # blanks after the backslash too

    def test_strings_and_prefixes(self):
        for literal in ('"fopen"', 'u8"fopen"', 'L"fopen"', 'u"a\\"b"', 'U"x"_suffix', "'a'", "u8'a'", "L'\\''"):
            tokens = [t for t in cpp_tokens.lex(f"auto x = {literal};") if t.kind in ("string", "char")]
            self.assertEqual([t.text for t in tokens], [literal], literal)

    def test_raw_strings(self):
        text = 'auto a = u8R"x(fopen)" system)x"; auto b = LR"(a)"; int c;\nR"d(\n)d"; int d;'
        tokens = cpp_tokens.lex(text)
        self.assertEqual([t.text for t in tokens if t.kind == "string"],
                         ['u8R"x(fopen)" system)x"', 'LR"(a)"', 'R"d(\n)d"'])
        self.assertNotIn("system", [t.text for t in tokens if t.kind == "ident"])
        self.assertEqual([t.line for t in tokens if t.text == "d"], [3])
        # a splice inside a raw string stays there (the standard undoes it)
        self.assertEqual([t.text for t in cpp_tokens.lex('R"(a\\\nb)" x') if t.kind == "string"], ['R"(a\\\nb)"'])

    def test_numbers_with_digit_separators(self):
        self.assertEqual(self.texts("x = 1'000'000 + 0x1p-3 + 1e+5f;"),
                         ["x", "=", "1'000'000", "+", "0x1p-3", "+", "1e+5f", ";"])
        self.assertEqual(self.texts("c = 'a' + 1'0;"), ["c", "=", "'a'", "+", "1'0", ";"])

    def test_comments_are_gone(self):
        self.assertEqual(self.texts("a /* fopen \n */ b // system\\\n still comment\nc"), ["a", "b", "c"])

    def test_digraphs_and_directives(self):
        rubric = Rubric(1)
        found = static_checks.directives(cpp_tokens.lex('%:include "../../grading/private/lab1.ini"\n'), rubric)
        self.assertEqual([v[0] for v in found], ["includes"])
        found = static_checks.directives(cpp_tokens.lex('#inc\\\nlude <unistd.h>\n#line 1 "kernels.h"\n'), rubric)
        self.assertEqual(len(found), 2)
        self.assertEqual(static_checks.directives(cpp_tokens.lex('#include <cuda/pipeline>\n#include "kernels.h"\n'),
                                                  rubric), [])

    def test_rule_text(self):
        text, starts = cpp_tokens.rule_text(cpp_tokens.lex('p->read(1); std :: thread t; s = "x";'))
        self.assertEqual(text, 'p->read ( 1 ) ; std::thread t ; s = "" ;')
        self.assertEqual(len(starts), 16)

    def test_preprocessed_output(self):
        # what nvcc -E -Xcompiler -fdebug-cpp writes: a header's macro body is not the file's own
        out = ('# 1 "/s/kernels.cu"\n# 1 "/k/kernels.h" 1\nint h;\n# 2 "/s/kernels.cu" 2\n'
               '{P:/k/host_defines.h;F:<NULL>;L:9;C:1;S:0;M:0x1;E:0,LOC:1,R:1}__attribute__'
               '{P:/s/kernels.cu;F:<NULL>;L:1;C:1;S:0;M:0x1;E:0,LOC:2,R:2}fopen'
               '{P:/s/kernels.cu;F:<NULL>;L:2;C:1;S:0;M:0x1;E:0,LOC:3,R:3}("x{P:");\n#pragma weak f\n')
        tokens, includes = cpp_tokens.preprocessed(out, "/s/kernels.cu")
        self.assertEqual([(t.text, t.line, t.own) for t in tokens],
                         [("__attribute__", 2, False), ("fopen", 2, True), ("(", 2, True), ('"x{P:"', 2, True),
                          (")", 2, True), (";", 2, True), ("#", 3, True), ("pragma", 3, True), ("weak", 3, True),
                          ("f", 3, True)])
        self.assertEqual(includes, [(1, "/k/kernels.h")])


class StaticChecks(unittest.TestCase):
    def setUp(self):
        self.rubric = Rubric(1)

    def test_kit_files_pass(self):
        # every lab with a rubric: its student file and its solution break none of its rules,
        # after the compiler's preprocessor
        if not NVCC:
            self.skipTest("no nvcc")
        for rubric_path in glob.glob(os.path.join(GRADING_DIR, "rubrics", "lab*.ini")):
            lab = int(os.path.basename(rubric_path)[3:-4])
            paths = glob.glob(os.path.join(CHECKOUT, "labs", f"lab{lab}-*", "kernels.cu")) + \
                glob.glob(os.path.join(CHECKOUT, "solutions", f"lab{lab}-*", "kernels.cu"))
            # the student file and the solution; the student copy (make dist) has no solutions/
            self.assertEqual(len(paths), 2 if os.path.isdir(os.path.join(CHECKOUT, "solutions")) else 1, rubric_path)
            for path in paths:
                with open(path) as f:
                    text = f.read()
                self.assertEqual(static_checks.directives(cpp_tokens.lex(text), Rubric(lab)), [], path)
                if lab != 4:  # lab 4's table names come from -DLAB4_BUILD_*: the grader passes them
                    self.assertEqual(preprocessed_rules(text, lab), [], path)

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

    def test_members(self):
        self.assertEqual(rules_broken("void f(B &b) { b.wait(t); p->read(1); }", self.rubric), [])
        self.assertIn("startup_code", rules_broken("struct s { s() {} };", self.rubric))
        self.assertEqual(rules_broken("#pragma unroll 4\nstatic const int n = sizeof(int);", self.rubric), [])

    def test_what_the_preprocessor_undoes(self):
        # macros (twice defined, built from others), splices, pasting, digit separators,
        # raw strings: the compiler's own preprocessor sees through them all
        if not NVCC:
            self.skipTest("no nvcc")
        text = ('#include "kernels.h"\n'
                '#define OPEN fopen\n'
                '#define A sys\n#define B tem\n#define CAT2(a, b) a##b\n#define CAT(a, b) CAT2(a, b)\n'
                '#define RUN x\n#undef RUN\n#define RUN CAT(A, B)\n'
                'static const char *s = u8R"x(")x"; static int n = 1\'000;\n'
                'void f() { OPEN(0, 0); }\n'
                'void g() { RUN(0); }\n'
                'void h() { std::thr\\\nead t; }\n'
                '__global__ void k(float *o) { o[0] = n; }\n')
        self.assertEqual(preprocessed_rules(text),
                         [("host_io", 11), ("off_stream", 13), ("process", 12), ("process", 13)])

    def test_header_macros_are_not_the_files(self):
        # lab 5's kernels.h builds kernels with asm and ##: a file that uses its macro breaks no rule
        if not NVCC:
            self.skipTest("no nvcc")
        text = ('#include "kernels.h"\n__device__ void body(struct lab5_grid g) {}\nLAB5_KERNELS(body)\n'
                '__global__ void __launch_bounds__(256) k(float *o) { o[0] = 1; }\n')
        self.assertEqual(preprocessed_rules(text, 5), [])

    def test_off_stream_work(self):
        for text in ("void f() { cudaLaunchHostFunc(s, g, 0); }", "void f() { pthread_create(&t, 0, g, 0); }",
                     "void f() { k<<<1, 1, 0, cudaStreamPerThread>>>(); }", "void f() { cudaEventRecord(e); }",
                     "void f() { cudaDeviceSynchronize(); }", "void f() { cudaGraphLaunch(g, s); }"):
            self.assertIn("off_stream", rules_broken(text, self.rubric), text)
        self.assertEqual(rules_broken("void f(cudaStream_t stream) { k<<<1, 1, 0, stream>>>(); }", self.rubric), [])

    def test_line_numbers(self):
        found = static_checks.find_violations(cpp_tokens.lex('/* a\n b */\n"x";\nvoid f() { ex\\\nit(1); }\n'),
                                              self.rubric)
        self.assertEqual([(v[0], v[2]) for v in found], [("process", 4)])


class ObjectCheck(unittest.TestCase):
    """object_check's decisions on names (no compiler)."""

    def setUp(self):
        self.rubric = Rubric(1)

    def problem(self, name, kind="T", trusted=()):
        return object_check.defined_problem(name, kind, self.rubric, set(trusted))

    def test_contract_and_compiler_names(self):
        self.assertIsNone(self.problem("lab1_variants", "D"))
        self.assertIsNone(self.problem("lab1_variant_count", "R"))
        self.assertIsNone(self.problem("DW.ref.__gxx_personality_v0", "V"))
        self.assertIn("only the compiler", self.problem("DW.ref.__gxx_personality_v0", "T"))

    def test_c_names_interpose(self):
        for name in ("fprintf", "malloc", "cudaMalloc", "lab_verdict", "verify_words", "main", "counter",
                     "lab2_variants"):
            self.assertIn("C linkage", self.problem(name), name)

    def test_cxx_names(self):
        # the submission's own: kernels, their stubs, device functions' host bodies, helpers
        for name in ("_Z18copy_float4_kernelPfPKfm", "_Z42__device_stub__Z18copy_float4_kernelPfPKfmPfPKfm",
                     "_Z8warp_sumi", "_Z16launch_per_pointPFvPfPKfiiiiES_S1_iiiiP11CUstream_st",
                     "_ZN5mylab6helperEv", "_Z3maxIiET_S0_S0_"):
            self.assertIsNone(self.problem(name), name)
        self.assertIsNone(self.problem("_ZTV5MyCls", "V"))
        # a library's, the global allocator, the driver's
        self.assertIn("library", self.problem("_ZSt4sortIPfEvT_S1_", "W"))
        self.assertIn("library", self.problem("_ZNSt6vectorIiE9push_backERKi", "W"))
        self.assertIn("library", self.problem("_ZN6cudart11globalStateEv"))
        self.assertIn("library", self.problem("_Z12__cudaHiddenv"))
        self.assertIn("operator new", self.problem("_Znwm"))
        self.assertIn("driver or harness", self.problem("_Z11check_wordsPKcPKjm", trusted=["_Z11check_wordsPKcPKjm"]))
        self.assertIn("kind", self.problem("_ZThn8_N1B1fEv"))

    def test_first_scope(self):
        cases = {"_ZN6cudart3fooEv": "cudart", "_ZNKSt6vectorIiE4sizeEv": "std", "_Z11halo_pointsii": "halo_points",
                 "_ZZ4funcvE1x": "func", "_ZGVZ4funcvE1x": "func", "_ZN9__gnu_cxx3fooEv": "__gnu_cxx",
                 "_ZL4implv": "impl", "_Znwm": "operator", "_ZThn8_N1B1fEv": None}
        for name, scope in cases.items():
            self.assertEqual(object_check.first_scope(name), scope, name)

    def test_rubric_lists(self):
        self.assertIn("cudaFuncSetAttribute", Rubric(1).symbols["host_undefined"])
        self.assertNotIn("cudaFuncSetAttribute", Rubric(4).symbols["host_undefined"])
        self.assertIn("lab8_set_coefficients", Rubric(8).symbols["contract"])
        self.assertIn("cudaMemcpyToSymbolAsync", Rubric(10).symbols["host_undefined"])
        self.assertNotIn("cudaMemcpyToSymbolAsync", Rubric(1).symbols["host_undefined"])
        for lab in range(1, 11):
            names = Rubric(lab).symbols["host_undefined"]
            for forbidden in ("cudaMemcpy", "cudaMemcpyAsync", "cudaMemset", "cudaLaunchHostFunc", "dlsym",
                              "cudaGetDriverEntryPoint", "cudaGetExportTable", "pthread_create", "system", "fopen",
                              "cudaStreamCreate", "cudaDeviceReset", "cudaDeviceSetLimit", "fprintf"):
                self.assertNotIn(forbidden, names, (lab, forbidden))

    def test_readelf_startup_entries(self):
        # what readelf prints for an object with a constructor besides nvcc's registration
        elf = object_check.Elf.__new__(object_check.Elf)
        elf.sections = {12: (".text.startup", "PROGBITS", 0xa0), 14: (".init_array", "INIT_ARRAY", 16),
                        16: (".fini_array", "FINI_ARRAY", 8)}
        elf.symbols = {3: (0, "SECTION", "LOCAL", 12, ""),
                       30: (0x20, "FUNC", "LOCAL", 12, "_ZL24__sti____cudaRegisterAllv"),
                       33: (0x90, "FUNC", "LOCAL", 12, "_GLOBAL__sub_I_kernels.cu")}
        elf.relocs = {".init_array": [(0, "R_X86_64_64", 3, 0x20), (8, "R_X86_64_64", 3, 0x90)],
                      ".fini_array": [(0, "R_X86_64_64", 30, 0)]}
        problems = object_check.startup_problems(elf, {"_ZL24__sti____cudaRegisterAllv"})
        self.assertEqual(problems, [
            "runs code before main: .init_array entry _GLOBAL__sub_I_kernels.cu (a global initialised by a call, "
            "a constructor, or a constructor attribute)",
            "runs code at exit: .fini_array entry _ZL24__sti____cudaRegisterAllv"])

    def test_system_call_instructions(self):
        dump = ("0000000000000000 <f>:\n   0:\tmov    %rdi,%rax\n   3:\tsyscall\n   5:\tint    $0x80\n"
                "   7:\tcall   10 <syscall_helper>\n")
        self.assertEqual(sorted({m.group(1) for m in object_check.SYSCALL.finditer(dump)}), ["int    $0x80", "syscall"])

    def test_included_files(self):
        lab_dir = glob.glob(os.path.join(CHECKOUT, "labs", "lab1-*"))[0]
        ok = [(1, os.path.join(lab_dir, "kernels.h")), (2, os.path.join(CHECKOUT, "common", "lab.h")),
              (3, "/usr/include/stdio.h")]
        self.assertEqual(static_checks.included_files(ok, lab_dir, self.rubric), [])
        bad = static_checks.included_files([(4, os.path.join(CHECKOUT, "grading", "private", "lab1.ini"))],
                                           lab_dir, self.rubric)
        self.assertEqual([(v[0], v[2]) for v in bad], [("includes", 4)])

    def test_device_symbol_tables(self):
        # cuobjdump -elf of the CUDA 13.0 toolkit (an H200 machine) and of pip's nvidia-cuda-cuobjdump
        toolkit = (".section .symtab\n index           value           size      info    other  shndx    name  \n"
                   "   0               0               0        0        0      0     (null)\n"
                   " 0x4               0             0x4     0x21        0      0     .nv.reservedSmem.offset0\n"
                   " 0xb               0           0x280     0x12     0x10    0xe     _Z1kPi\n"
                   " 0xc               0               0     0x12        0      0     vprintf\n"
                   " 0xd               0               0     0x12        0      0     malloc\n\n"
                   ".section .rela.nv.constant4\tRELA\n0x8    malloc    R_CUDA_64    0x0\n")
        pip = (".section .symtab\n   Num            Value             Size  Type          Bind    Vis        Other"
               "                                Ndx  Name\n"
               "     0                0                0  NOTYPE        LOCAL   DEFAULT    -                    0  "
               "(null)\n"
               "   0x4                0              0x4  OBJECT        WEAK    DEFAULT    -                    0  "
               ".nv.reservedSmem.offset0\n"
               "   0xf                0            0xa00  FUNC          GLOBAL  DEFAULT    ENTRY              0xe  "
               "_Z1kPi\n"
               "  0x10                0                0  FUNC          GLOBAL  DEFAULT    -                    0  "
               "vprintf\n"
               "  0x12                0                0  FUNC          GLOBAL  DEFAULT    -                    0  "
               "free\n\n")
        self.assertEqual(object_check.symtab_undefined(toolkit), {".nv.reservedSmem.offset0", "vprintf", "malloc"})
        self.assertEqual(object_check.symtab_undefined(pip), {".nv.reservedSmem.offset0", "vprintf", "free"})
        # a layout it does not know stops the check: never read as "calls nothing"
        self.assertRaises(object_check.ToolMissing, object_check.symtab_undefined,
                          ".section .symtab\n  idx  val  name\n  0x1  0  vprintf\n")

    def test_no_cuobjdump_no_check(self):
        # never judged without the device code's check: a kit set-up problem (grading/grade exits 3)
        self.assertRaises(object_check.ToolMissing, object_check.check, [], self.rubric, set(), None, 1)

    def test_first_error(self):
        log = ("nvcc --resource-usage -O3 -c x/custom/lab1/src/kernels.cu -o k.o\n"
               "x/custom/lab1/src/kernels.cu(45): error: identifier \"copies\" is undefined\n"
               "      copy_strided_kernel<<<blocks_for(copies), 256>>>();\n"
               "                                       ^\n\n"
               "x/custom/lab1/src/kernels.cu(50): error: expected a \";\"\n\n"
               "2 errors detected in the compilation of \"x/custom/lab1/src/kernels.cu\".\n"
               "make: *** [Makefile:100: k.o] Error 2\n")
        self.assertEqual(grader.first_error(log, "/scratch", ()).splitlines(), [
            'kernels.cu(45): error: identifier "copies" is undefined',
            "      copy_strided_kernel<<<blocks_for(copies), 256>>>();",
            "                                       ^",
            "... (2 errors in all; the first is what to fix first)"])


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
check=0 only= n= csv= nx96= proof=/dev/null
while [ $# -gt 0 ]; do
    case $1 in
    --check) check=1 ;;
    --proof) proof=$2; shift ;;
    --only) only=$2; shift ;;
    --n) n=$2; shift ;;
    --csv) csv=$2; shift ;;
    --seed) shift ;;
    --nx) [ "$2" = 96 ] && nx96=1; shift ;;
    esac
    shift
done
echo "lab1 on Stand-in GPU (sm_90, 1 SMs)"
echo locked >>"$proof"
if [ $check = 1 ]; then
    status=0
    for size in $(echo "$n" | tr , ' '); do
        for v in $(echo "$only" | tr , ' '); do
            case $v in
            copy_strided) if [ "$nx96" = 1 ]; then echo "copy_strided               not implemented"; continue; fi ;;
            copy_offset) echo "copy_offset                not implemented"; continue ;;
            copy_float4)
                if [ "$size" = 12347 ]; then
                    echo "lab1: copy_float4 (n 4097): WRONG (1 mismatches)" >&2; status=1; continue
                fi ;;
            esac
            echo "verified 00000000000$size $v (n $size)" >>"$proof"
        done
    done
    echo "end $status 0 0" >>"$proof"
    exit $status
fi
mkdir -p "$csv"
{ echo "# lab: 1"; echo "lab,variant,param,n,bytes,flops,ms_median,ms_min,ms_max,reps,gbps,gflops,pct_of_ceiling,status"
  for v in $(echo "$only" | tr , ' '); do echo "1,$v,4,100,800,0,MS,MS,MS,10,1,,1,ok"; done; } >"$csv/stride.csv"
for v in $(echo "$only" | tr , ' '); do echo "timed $v (stride 4)" >>"$proof"; done
echo "end 0 0 0" >>"$proof"
"""

ALL_IMPLEMENTED = FAKE_LAB.replace('echo "copy_offset                not implemented"; continue', ":")
# The reference solution: every variant verified at every size.
REFERENCE_LAB = ALL_IMPLEMENTED.replace('if [ "$size" = 12347 ]', 'if false')
EVERY_VARIANT = "copy_strided,copy_offset,copy_float4"  # lab 1's graded variants, in the rubric's order


class GpuSteps(unittest.TestCase):
    def setUp(self):
        env = mock.patch.dict(os.environ)  # these runs are stand-ins: no GPU lock (test_gpu_lock.py tests it)
        env.start()
        self.addCleanup(env.stop)
        os.environ.pop("MEMLAB_GPU_LOCK", None)
        self.scratch = tempfile.mkdtemp(prefix="memlab-test-")
        os.chmod(self.scratch, 0o755)
        self.rubric = Rubric(1)
        self.rubric.perf_runs = 2
        # hidden sizes and seeds of the tests' own (a student's copy has no private file)
        self.rubric.check_sizes, self.rubric.recheck_sizes = ["3", "12347"], ["65539"]
        self.rubric.seeds = {"check": 8114027753, "recheck": 3390571249, "perf": 6671309185}
        if not self.rubric.private_path:  # a student's copy: these seeds and sizes are the private data
            folder = tempfile.mkdtemp(prefix="memlab-private-")
            self.addCleanup(shutil.rmtree, folder, True)
            self.rubric.private_path = os.path.join(folder, "lab1.ini")
        self.session = grader.Session(self.rubric, os.path.join(self.scratch, "work"), use_gpu=False)
        self.session.has_gpu = True

    def tearDown(self):
        shutil.rmtree(self.scratch)

    def fake(self, name, ms, script=None):
        script = script or (REFERENCE_LAB if name.startswith("fake-reference") else FAKE_LAB)
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
        self.assertIn("wrong results (exit 1)", passed["copy_float4"][1])
        self.assertIn(evidence.HIDDEN_OUTPUT, passed["copy_float4"][1])  # not its WRONG line
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
        # the reference's check, the student's (one run for n = 3,12347, which fails, then
        # copy_float4's, the variant its stderr names), timed runs (two each: partial credit), the
        # reference's recheck and the student's
        self.assertEqual(runs.count, 1 + 1 + 1 + 2 * 2 + 1 + 1)

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
        self.assertIn("outside the timed stream", results["speed copy_strided"].output)
        self.assertNotIn("the driver times", results["speed copy_strided"].output)  # the grader's words, not its
        self.assertIn("IMPLAUSIBLE", wrong["copy_strided"])
        again = grader.grade_correctness(self.session, cheat_runs, 2, ["7"], {"copy_strided": (True, "")}, wrong)
        self.assertFalse(again["copy_strided"][0])
        self.assertIn("outside the timed stream", again["copy_strided"][1])

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
            self.assertEqual(held, [False, False])  # the reference's check, one for the three variants: shared
            grader.grade_performance(self.session, runs, ["copy_strided"], {})
        # two reference runs and one student run (at full credit after one), timed: alone
        self.assertEqual(held, [False, False] + [True] * 3)

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
        student = self.fake("fake-student", "1.000")

        def graded(*student_ms):
            times = list(student_ms)
            runs = grader.Runs(self.session, student, tempfile.mkdtemp(dir=self.scratch))
            real = runs.run

            def run(binary, args, timeout):  # the sandbox shows a run nothing but its program: the
                if binary == student:        # next time goes into the program itself
                    self.fake("fake-student", times.pop(0))
                return real(binary, args, timeout)
            results = {}
            with mock.patch.object(runs, "run", side_effect=run) as spy:
                grader.grade_performance(self.session, runs, ["copy_strided", "copy_float4"], results)
            return [os.path.basename(c.args[0]) for c in spy.call_args_list], results
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
            self.assertEqual(text, "hidden sizes, before timing: passed, one run for 3 variants")

    def shared_fails(self, status, stderr, wrong):
        """A stand-in lab 1 whose run of several variants exits `status` with these stderr
        lines; a run of one variant is wrong (exit 1 and its line) for those in `wrong`."""
        return f"""#!/bin/sh
only= proof=/dev/null
while [ $# -gt 0 ]; do [ "$1" = --only ] && only=$2; [ "$1" = --proof ] && proof=$2; shift; done
echo "lab1 on Stand-in GPU (sm_90, 1 SMs)"
echo locked >>$proof
case $only in
*,*) {"".join(f"echo '{line}' >&2; " for line in stderr)}
     for v in $(echo $only | tr , ' '); do
         case $v in {"|".join(wrong)}) ;; *) echo "verified 0 $v (n 3)" >>$proof ;; esac
     done
     {"echo 'end 1 1 0' >>$proof; " if status == 1 else ""}exit {status} ;;
{"|".join(wrong)}) echo "lab1: $only (n 3): WRONG (1 mismatches)" >&2; echo "end 1 1 0" >>$proof; exit 1 ;;
esac
echo "verified 0 $only (n 3)" >>$proof
echo "end 0 0 0" >>$proof
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
        self.assertEqual(wrong[0], "hidden sizes, before timing: wrong results (exit 1)")  # its own run's
        self.assertEqual(wrong[1], evidence.HIDDEN_OUTPUT)  # nothing it printed: the hidden size is not there
        for variant in ("copy_strided", "copy_float4"):
            self.assertEqual(passed[variant][1], "hidden sizes, before timing: passed, one run for 3 variants")

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
        hangs_shared = FAKE_LAB.replace("    status=0\n",
                                        "    case $only in *,*) exec sleep 30 ;; esac\n    status=0\n")
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

    def test_an_exit_status_is_no_proof(self):
        """A run that ends with status 0 before the driver's end (a launcher calling exit(0)), or
        whose records are missing or differ from the reference's, passes nothing; lines on
        stdout that look like records count for nothing."""
        self.session.reference = self.fake("fake-reference", "1.000")
        for name, change in [
                ("exits early", ('echo "end $status 0 0" >>"$proof"', ":")),
                ("not locked down", ('echo locked >>"$proof"', ":")),
                ("no records", ('echo "verified 00000000000$size $v (n $size)" >>"$proof"', ":")),
                ("records on stdout", ('echo "verified 00000000000$size $v (n $size)" >>"$proof"',
                                       'echo "verified 00000000000$size $v (n $size)"')),
                ("other digests", ('verified 00000000000$size', 'verified 00000000001$size'))]:
            with self.subTest(name):
                script = ALL_IMPLEMENTED.replace(*change)
                passed, _ = self.checked(script, ["3", "263171"])
                self.assertEqual([v for v, (ok, _) in passed.items() if ok], [])
                text = passed["copy_strided"][1]
                self.assertRegex(text, "proof of work")
        # a timed run that ends early: no speed, and the variant is failed
        results = {}
        early = FAKE_LAB.replace('echo "end 0 0 0" >>"$proof"', ":")
        runs = grader.Runs(self.session, self.fake("fake-student", "1.000", early), tempfile.mkdtemp(dir=self.scratch))
        grader.grade_performance(self.session, runs, ["copy_strided"], results)
        self.assertEqual(results["speed copy_strided"].score, 0)
        self.assertIn("without its proof of work", results["speed copy_strided"].output)
        # timed rows the harness did not record
        unrecorded = FAKE_LAB.replace('echo "timed $v (stride 4)" >>"$proof"', ":")
        runs = grader.Runs(self.session, self.fake("fake-student", "1.000", unrecorded),
                           tempfile.mkdtemp(dir=self.scratch))
        wrong = grader.grade_performance(self.session, runs, ["copy_strided"], results)
        self.assertIn("no proof of work", wrong["copy_strided"])

    def test_sanitizer_errors_fail_the_variant(self):
        """The tools run side by side, each once over the variants that passed, watching the
        submission's kernels only; a tool's error sends each variant to a run of its own, and
        the one with the error fails with the tool's first line."""
        # A stand-in compute-sanitizer (it runs in the sandbox, which shows it and the lab program
        # only): racecheck reports copy_float4's kernel as tests/sanitize-samples' v3 was.
        with open(os.path.join(CHECKOUT, "tests", "sanitize-samples", "v3_sequential_addressing.racecheck.log")) as f:
            report_lines = "".join(line for line in f if line.startswith("========="))
        self.session.sanitizer = self.fake("sanitizer", "", f"""#!/bin/sh
tool=$2
shift 6
while [ "$1" = --kernel-name ]; do shift 2; done
"$@"
rc=$?
case "$tool $*" in
racecheck*copy_float4*) cat <<'END'
{report_lines}END
    exit {sanitizer.SANITIZER_EXIT} ;;
esac
exit $rc
""")
        runs = grader.Runs(self.session, self.fake("fake-student", "1.000", ALL_IMPLEMENTED), self.scratch)
        before = {v: (True, "checked") for v in EVERY_VARIANT.split(",")}
        functions = {"_Z18copy_float4_kernelPK6float4PS_m": True, "_Z18copy_offset_kernelPKfPfmi": False}
        with mock.patch.object(runs, "together", wraps=runs.together) as together:
            after = sanitizer.grade_sanitizer(self.session, runs, 1, before, functions)
        batches = [[job[3][2] for job in c.args[0]] for c in together.call_args_list]
        # every tool at once over all three (racecheck finds an error), then racecheck on each alone
        self.assertEqual(batches, [["racecheck", "synccheck", "memcheck"], ["racecheck"] * 3])
        first = together.call_args_list[0].args[0][0]
        self.assertEqual(first[1][:3], self.rubric.sanitize_args)  # the lab-tools.table row
        self.assertIn("kne=_Z18copy_offset_kernelPKfPfmi", first[3])  # only the submission's kernels
        self.assertEqual({v: ok for v, (ok, _) in after.items()},
                         {"copy_strided": True, "copy_offset": True, "copy_float4": False})
        self.assertIn("compute-sanitizer --tool racecheck (small size): Error: Race reported between Write access "
                      "at v3_sequential_addressing_kernel", after["copy_float4"][1])
        self.assertIn("kernels.cu:141", after["copy_float4"][1])
        self.assertNotIn("/kit/", after["copy_float4"][1])
        # racecheck only where some kernel uses shared memory, and always where none could be read
        for functions, tools in (({"_Z1kv": False}, ["synccheck", "memcheck"]),
                                 ({}, ["racecheck", "synccheck", "memcheck"])):
            with mock.patch.object(runs, "together", wraps=runs.together) as together:
                sanitizer.grade_sanitizer(self.session, runs, 1, {"copy_strided": (True, "")}, functions)
            self.assertEqual([job[3][2] for job in together.call_args_list[0].args[0]], tools)
        # names too long for a command line: every kernel watched (no filter), never a crash
        with mock.patch.object(runs, "together", wraps=runs.together) as together:
            sanitizer.grade_sanitizer(self.session, runs, 1, {"copy_strided": (True, "")},
                                      {"_Z" + "k" * sanitizer.WATCH_LIMIT + "v": True})
        self.assertNotIn("--kernel-name", together.call_args_list[0].args[0][0][3])
        # shared memory through its own instructions or a generic pointer; not global, not local
        for sass, shared in (("LDS R1, [R2]", True), ("ATOMS.ADD R1", True), ("LD.E R2, desc[UR4][R2.64]", True),
                             ("ST.E.64 [R2], R4", True), ("RED.E.ADD.STRONG.GPU", True),
                             ("LDG.E R2, desc[UR4][R2.64]", False), ("STL [R1], R2", False), ("ATOMG.E.ADD", False)):
            self.assertEqual(bool(object_check.SHARED_MEMORY_SASS.search(sass)), shared, sass)

    def test_run_files_are_read_as_plain_files_only(self):
        """What a run leaves in its folder is read only if it is a regular file: a FIFO would
        hang the grader, a link to /dev/zero fill its memory."""
        folder = tempfile.mkdtemp(dir=self.scratch)
        os.mkfifo(os.path.join(folder, "proof.txt"))
        os.symlink("/dev/zero", os.path.join(folder, "zero.csv"))
        os.symlink("/etc/passwd", os.path.join(folder, "passwd.csv"))
        start = time.monotonic()
        self.assertEqual(evidence.Proof(os.path.join(folder, "proof.txt")).end, None)
        self.assertEqual(evidence.read_rows(folder), {})
        self.assertLess(time.monotonic() - start, 2)
        with open(os.path.join(folder, "big.csv"), "w") as f:
            f.write("x" * 100)
        self.assertEqual(len(evidence.read_run_file(os.path.join(folder, "big.csv"), limit=10)), 10)

    def test_reports_name_no_hidden_size_or_seed(self):
        self.session.reference = self.fake("fake-reference", "1.000")
        loud = FAKE_LAB.replace('status=1; continue', 'status=1; echo "lab1: seed $seed, n $size, also 2^24, '
                                '$(printf "0x%08x" $size), $(echo $size | sed "s/./& /g")" >&2; '
                                'continue').replace("--seed) shift ;;", "--seed) seed=$2; shift ;;")
        runs = grader.Runs(self.session, self.fake("fake-student", "1.000", loud), self.scratch)
        sizes = self.rubric.check_sizes
        passed = grader.grade_correctness(self.session, runs, self.rubric.seeds["check"], sizes, {})
        text = "\n".join(t for _, t in passed.values())
        self.assertNotIn("lab1: seed", text)  # nothing the program printed, in any spelling
        self.assertIn(evidence.HIDDEN_OUTPUT, text)
        # without private data (a student's own copy) nothing is secret: its messages are shown
        with mock.patch.object(self.rubric, "private_path", None):
            public = grader.Runs(self.session, self.fake("fake-student", "1.000", loud),
                                 tempfile.mkdtemp(dir=self.scratch))
        passed = grader.grade_correctness(self.session, public, self.rubric.seeds["check"], sizes, {})
        self.assertIn("lab1: seed", "\n".join(t for _, t in passed.values()))

    def test_timeout_and_report_formats(self):
        self.rubric.check_timeout = 1
        hang = os.path.join(self.scratch, "hang")
        with open(hang, "w") as f:
            f.write("#!/bin/sh\nexec sleep 30\n")
        os.chmod(hang, 0o755)
        runs = grader.Runs(self.session, hang, self.scratch)
        passed = grader.grade_correctness(self.session, runs, 1, ["3"], {})
        self.assertIn("ran past its time limit", passed["copy_strided"][1])
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
        with mock.patch.dict(os.environ), \
                mock.patch.object(grade_all, "open_session", return_value=(rubric, session)), \
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
    """Can the sandboxed program open the GPU? grade-all probes once (a GPU process, about 0.3 s)
    and each student's grading/grade takes its finding (--sandbox-gpu) instead of probing again.
    Where it cannot, the GPU tests are NOT GRADED: nothing runs outside the sandbox."""

    def setUp(self):
        self.session = grader.Session(Rubric(1), tempfile.mkdtemp(prefix="memlab-probe-test-"), use_gpu=False)
        self.addCleanup(shutil.rmtree, self.session.work_dir)
        self.session.has_gpu = True
        check = mock.patch.object(self.session.sandbox, "check", return_value=None)  # a sandbox can be made
        check.start()
        self.addCleanup(check.stop)

    def probes_run(self, sandbox_gpu, found):
        """How many probes prepare(sandbox_gpu) runs, the probe (mocked) finding `found`."""
        with mock.patch.object(grader, "make", return_value=(True, "")), \
                mock.patch.object(self.session, "run_probe", return_value=found) as probe:
            self.session.prepare(sandbox_gpu)
        return probe.call_count

    def test_alone_it_probes(self):
        self.assertEqual(self.probes_run(None, "no"), 1)
        self.assertEqual(self.session.sandbox_gpu, "no")
        self.assertTrue(self.session.not_graded.startswith("NOT GRADED: the lab program finds no GPU in the sandbox"))

    def test_the_finding_given_is_taken(self):
        self.assertEqual(self.probes_run("ok", "no"), 0)
        self.assertIsNone(self.session.not_graded)
        self.assertEqual(self.probes_run("no", "ok"), 0)
        self.assertIn("finds no GPU", self.session.not_graded)

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
