"""grader.py - grading one submission of one lab, in steps that stop at the first gate:

  compile      the file alone, built against the kit's trusted driver, contract and harness
               (its includes checked first, before any compiler reads it)
  static       what the compiler built, by allowlist (object_check.py: the object's external
               symbols, its definitions, its code before main, the device code's calls), and
               the rubric's rules over the file's tokens after the compiler's preprocessor
               (static_checks.py: friendly messages with line numbers)
  resource     the compiler's report for named kernels
  correctness  lab --check at the hidden sizes with a secret seed (GPU): one run for the
               variants still passing at every size, then a run of its own for each variant
               that one may have failed; a variant passes on its proof of work, the records
               the reference's run reproduces (evidence.py), then under compute-sanitizer
               (sanitizer.py)
  performance  timed runs against the reference solution's, best of several (GPU), fewer
               for a student already at full credit; the reference's runs are shared by
               the students graded on one GPU (ReferenceRuns)
  recheck      lab --check again on fresh inputs after timing (GPU)

A Session holds what several submissions share: the trusted checkout, the reference build,
the GPU (or its absence) and the sandbox (sandbox.py), without which no program runs: where
none can be made, or the program finds no GPU in it, every GPU test is NOT GRADED.
grade() returns a list of TestResult.

Where MEMLAB_GPU_LOCK names a file (tests/run.sh, grade-all --jobs), every run on the GPU
holds a lock on it (gpu_lock.py): a timed run alone, a --check run shared with other checks.
"""
import fcntl
import glob
import hashlib
import json
import operator
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

import cpp_tokens
import object_check
import static_checks
from evidence import PROOF_FILE, Proof, excerpt, names, read_rows, run_failed, sanitised, secret_words
from gpu_lock import gpu_lock
from rubric import band_fraction
from sandbox import Sandbox, SandboxError
from sanitizer import find_sanitizer, grade_sanitizer
from stopwatch import Stopwatch

GRADING_DIR = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(GRADING_DIR)
GPU_KINDS = ("correctness", "performance")


class TestResult:
    def __init__(self, test, score, verdict, output):
        self.name = test.name
        self.kind = test.kind
        self.max_score = test.points
        self.score = round(score, 2)
        self.verdict = verdict  # pass, partial, fail, skip
        self.output = output
        self.review = ""  # why an instructor should look at it, even when it passed
        self.ratio = None  # a speed test's time against the reference's


def gpu_list():
    """nvidia-smi -L's lines for the GPUs this process sees (names and UUIDs), or []."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line for line in out.splitlines() if line.startswith("GPU ")]


def gpu_present():
    return bool(gpu_list())


def make(args, timeout):
    """Run the trusted Makefile; (ok, output)."""
    try:
        p = subprocess.run(["make", "--no-print-directory", "-C", CHECKOUT] + args, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"the build took more than {timeout:.0f} s"
    return p.returncode == 0, p.stdout + p.stderr


def lab_folder(parent, lab):
    found = sorted(glob.glob(os.path.join(CHECKOUT, parent, f"lab{lab}-*")))
    return found[0] if found else None


def find_submission(path, lab):
    """A submission is a kernels.cu, or a folder holding one (the lab's own path inside it
    first). Returns (file or None, why)."""
    if os.path.isfile(path):
        return path, ""
    if not os.path.isdir(path):
        return None, f"{path} does not exist"
    lab_dir = lab_folder("labs", lab)
    preferred = os.path.join(path, "labs", os.path.basename(lab_dir or ""), "kernels.cu")
    if lab_dir and os.path.isfile(preferred):
        return preferred, ""
    found = sorted(glob.glob(os.path.join(path, "**", "kernels.cu"), recursive=True))
    if len(found) == 1:
        return found[0], ""
    if not found:
        return None, "the submission holds no kernels.cu"
    return None, f"the submission holds {len(found)} kernels.cu files: submit one"


def submission_sha256(path, lab):
    """The SHA-256 of the kernels.cu that grading this submission reads (None if there is none):
    GPU results graded elsewhere are matched to a submission by it (grading/gradescope.py)."""
    file, _ = find_submission(path, lab)
    if not file:
        return None
    with open(file, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Session:
    """What the grading of several submissions shares."""

    def __init__(self, rubric, work_dir, use_gpu=True, arch=None):
        self.rubric = rubric
        self.lab = rubric.lab
        self.work_dir = os.path.abspath(work_dir)
        self.has_gpu = use_gpu and gpu_present()
        if arch:
            self.arch = arch
        elif self.has_gpu:
            self.arch = make(["-s", "print-ARCH"], 60)[1].strip() or rubric.arch_without_gpu
        else:
            self.arch = rubric.arch_without_gpu
        # out of the programs' sight: the checkout (sandbox.py hides it), the work folder, the private data
        self.sandbox = Sandbox(rubric.file_size_bytes, hidden=[self.work_dir] + (
            [os.path.dirname(os.path.abspath(rubric.private_path))] if rubric.private_path else []))
        self.flavour = "solution" if lab_folder("solutions", self.lab) else "student"
        self.reference = None
        self.gpu_name = None
        self.sandbox_gpu = None  # can the sandboxed program open the GPU: "ok", "no", or None (not asked)
        self.not_graded = None  # why the GPU tests cannot be graded here (check_sandbox, probe_gpu)
        self.sanitizer = find_sanitizer() if self.has_gpu else None
        self.cuobjdump = object_check.find_cuobjdump()
        self.stopwatch = None  # the grading under way (Stopwatch): its seconds, for the instructor
        self._builds = None
        self._trusted = None
        if self.has_gpu:
            self.check_sandbox()

    def kernel_builds(self):
        """[(object file name, nvcc flags)]: how the Makefile compiles a lab's kernels.cu, for
        this session's ARCH (NVFLAGS without the dependency files, the lab's include folder,
        and lab.mk's flags of each build: lab 4 compiles it twice, kernels_ca.o and
        kernels_cg.o, each with a -D of its own). The preprocessor runs with the same flags,
        so that it sees what the compiler saw (-O3's __OPTIMIZE__, -fopenmp's _OPENMP ...)."""
        if self._builds is None:
            lab = f"lab{self.lab}"
            rule = (f'memlab-kernel-builds: ; @printf "%s\\n" "$(NVFLAGS)" $(foreach b,$(KERNEL_BUILDS_{lab}),'
                    f'"$(b) $(KERNEL_FLAGS_{lab}_$(b))")')
            ok, out = make(["-s", f"ARCH={self.arch}", "--eval", rule, "memlab-kernel-builds"], 60)
            lines = out.splitlines()
            if not ok or not lines:
                raise object_check.ToolMissing(
                    f"make could not say how lab {self.lab} is compiled: {out.strip()[:200]}")
            lab_dir = os.path.relpath(lab_folder("labs", self.lab), CHECKOUT)
            common = [f for f in lines[0].split() if f not in ("-MMD", "-MP")] + ["-I" + lab_dir]
            builds = [line.split(None, 1) for line in lines[1:] if line.strip()]
            self._builds = [(f"kernels_{b[0]}.o", common + (b[1] if len(b) > 1 else "").split()) for b in builds] or \
                [("kernels.o", common)]
        return self._builds

    def trusted_names(self):
        """Every global name of the lab's trusted objects (driver, harness): a submission's
        C++ name must be none of them (object_check.defined_problem)."""
        if self._trusted is None:
            out = os.path.join(self.work_dir, self.arch)
            paths = glob.glob(os.path.join(out, "driver", f"lab{self.lab}", "**", "*.o"), recursive=True)
            paths += glob.glob(os.path.join(out, "common", "**", "*.o"), recursive=True)  # and common/probes
            paths += [os.path.join(out, "version.o")]
            paths += glob.glob(os.path.join(self.work_dir, "host", "common", "**", "*.o"), recursive=True)
            paths += glob.glob(os.path.join(self.work_dir, "host", "driver", f"lab{self.lab}", "*.o"))  # its C files
            self._trusted = object_check.trusted_names([p for p in paths if os.path.isfile(p)])
        return self._trusted

    def prepare(self, sandbox_gpu=None):
        """Build the harness, the driver and (in the instructors' copy) the reference
        solution once, into the work folder. Returns (ok, build output). sandbox_gpu: what
        grade-all's own probe found on this machine ("ok" or "no"), taken instead of probing
        again (probe_gpu)."""
        args = [f"lab{self.lab}-build", f"BUILD_DIR={self.work_dir}", f"ARCH={self.arch}"]
        if self.flavour == "solution":
            args.append("SOLUTION=1")
        ok, log = make(args, self.rubric.build_timeout)
        binary = os.path.join(self.work_dir, self.arch, self.flavour, f"lab{self.lab}", f"lab{self.lab}")
        if ok and self.flavour == "solution":
            self.reference = binary
        if ok and self.has_gpu:
            self.probe_gpu(binary, sandbox_gpu)
        return ok, log

    def check_sandbox(self):
        """None where a sandbox can be made here (probed once, Sandbox.check), else the NOT
        GRADED line of every GPU test: no program is ever run outside a sandbox."""
        if self.not_graded is None:
            problem = self.sandbox.check()
            if problem:
                self.not_graded = f"NOT GRADED: no sandbox could be made here: {problem}"
        return self.not_graded

    def probe_gpu(self, binary, known=None):
        """Can the sandboxed program open the GPU? (Device files may be closed to 'nobody'.) If
        not, every GPU test is NOT GRADED, with the reason. A probe is a GPU process (a CUDA
        context, about 0.3 s, which the driver serialises), so a finding already made on this
        machine (known) is taken as it is."""
        if self.check_sandbox():
            return
        try:
            self.sandbox_gpu = known or self.run_probe(binary)
        except SandboxError as e:
            self.not_graded = f"NOT GRADED: {e}"
            return
        if self.sandbox_gpu == "no":
            self.not_graded = ("NOT GRADED: the lab program finds no GPU in the sandbox (device files closed to "
                               f"'{self.sandbox.user.pw_name if self.sandbox.user else 'the sandbox user'}'?"
                               " python3 grading/sandbox.py --selftest PROGRAM says more)")

    def run_probe(self, binary):
        """A --check at n = 1 in the sandbox: "no" where it finds no GPU, else "ok"."""
        variant = (self.rubric.variants("correctness") or [""])[0]
        probe = tempfile.mkdtemp(prefix="memlab-probe-")
        try:
            binary = shutil.copy2(binary, probe)
            self.sandbox.allow_reading(probe, binary)
            cwd = self.sandbox.workdir(probe, "run")
            with gpu_lock(exclusive=False, label=f"{binary} --check --n 1 (can the sandbox user reach the GPU)"):
                outcome = self.sandbox.run([binary, "--check", "--n", "1"] + (["--only", variant] if variant else [])
                                           + self.rubric.check_args, cwd, self.rubric.check_timeout)
            return "no" if outcome.returncode == 3 and "no CUDA GPU found" in outcome.stderr else "ok"
        finally:
            shutil.rmtree(probe, ignore_errors=True)

    def private_exposed(self):
        """Could a sandboxed program read the private grading data? (Never: its folder is
        out of the sandbox's sight.)"""
        path = self.rubric.private_path
        return bool(path) and not self.sandbox.hides(path)

    def seed_build(self, build_dir):
        """Copy the trusted objects (mtimes kept) so that make compiles only kernels.cu."""
        out = os.path.join(self.work_dir, self.arch)
        mine = os.path.join(build_dir, self.arch)
        shutil.copytree(os.path.join(self.work_dir, "host"), os.path.join(build_dir, "host"))
        shutil.copytree(os.path.join(out, "common"), os.path.join(mine, "common"))
        for name in ("version.c", "version.o"):
            shutil.copy2(os.path.join(out, name), os.path.join(mine, name))
        driver = os.path.join("driver", f"lab{self.lab}")  # one trusted driver per lab
        shutil.copytree(os.path.join(out, driver), os.path.join(mine, driver))


def parents_of(path, top):
    """path, and every folder from it up to top (inclusive)."""
    out = [path]
    while path != top and path != os.path.dirname(path):
        path = os.path.dirname(path)
        out.append(path)
    return out


def clean_log(text, scratch, limit=25):
    """The compiler's messages about the student's file, without build commands and paths."""
    text = re.sub(r"[^\s\"(]*/custom/lab\d+/src/kernels\.cu", "kernels.cu", text.replace(scratch + "/", ""))
    lines = [line for line in text.splitlines()
             if "ptxas info" not in line and not re.match(r"\s*(\d+ bytes stack|nvcc |cc |make)", line)]
    if limit is not None and len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join(lines)


COMPILE_NOISE = re.compile(r"\s*(?:make(?:\[\d+\])?:|collect2: error: ld returned|\d+ errors? detected in the "
                           r"compilation|nvcc |cc |gcc |g\+\+ |mkdir |Function properties for)")
COMPILE_ERROR = re.compile(r"\berror\b|undefined reference|multiple definition", re.I)


def first_error(text, scratch, hidden, after=4):
    """The compiler's (or the linker's) first error and the few lines after it, without
    make's lines, the commands or the cascade of later errors, and how many there were; each
    line sanitised (the hidden seeds and sizes as N)."""
    lines = [line for line in clean_log(text, scratch, limit=None).splitlines() if not COMPILE_NOISE.match(line)]
    errors = [i for i, line in enumerate(lines) if COMPILE_ERROR.search(line)]
    if not errors:
        return "\n".join(sanitised(line, hidden) for line in lines[-(after + 1):]) or "(the build printed nothing)"
    first = errors[0]
    start = first - 1 if first > 0 and "in function" in lines[first - 1] else first  # the linker names it
    shown = lines[start:first + 1]
    for line in lines[first + 1:first + 1 + after]:
        if COMPILE_ERROR.search(line):
            break
        shown.append(line)
    while shown and not shown[-1].strip():
        shown.pop()
    shown = [sanitised(line, hidden) for line in shown]
    if len(errors) > 1:
        shown.append(f"... ({len(errors)} errors in all; the first is what to fix first)")
    return "\n".join(shown)


def grade(session, submission_path, scratch_parent=None, keep=False):
    """Grade one submission; returns [TestResult] in the rubric's order."""
    rubric = session.rubric
    results = {}
    file, why = find_submission(submission_path, session.lab)
    scratch = tempfile.mkdtemp(prefix=f"memlab-lab{session.lab}-", dir=scratch_parent)
    try:
        _grade(session, file, why, scratch, results)
    finally:
        if not keep:
            shutil.rmtree(scratch, ignore_errors=True)
    return [results[t.name] for t in rubric.tests]


# Source rules that stop a file before it is compiled (the others are reported with the
# object check): inline assembly, and headers outside the allowlist.
BEFORE_COMPILING = ("asm", "includes")


def _grade(session, file, why, scratch, results):
    rubric = session.rubric
    clock = session.stopwatch = Stopwatch(session.sandbox)
    tests = {t.kind: t for t in rubric.tests if t.kind in ("compile", "static")}

    def finish_all(verdict, text):
        for t in rubric.tests:
            if t.name not in results:
                skipped = verdict == "skip" or (t.kind in GPU_KINDS and not session.has_gpu)
                no_gpu = skipped and t.kind in GPU_KINDS and not text
                results[t.name] = TestResult(t, 0, "skip" if skipped else verdict,
                                             (session.not_graded or "SKIPPED: no GPU on this machine, not graded")
                                             if no_gpu else text)

    if file is None:
        return finish_all("fail", f"not graded: {why}")
    with open(file, encoding="utf-8", errors="replace") as f:
        source = f.read()
    static, compile_ = tests["static"], tests["compile"]
    lines = source.split("\n")

    def rule_lines(found):
        return [f"line {n}: {name}: {why}\n    | {lines[n - 1].strip()[:100] if 0 < n <= len(lines) else ''}"
                for name, why, n in found[:15]]

    # The includes first, from the file's own tokens: no compiler reads a file that includes
    # anything but the allowlist (it could print a private file in its errors). The rules then
    # say what else they see in the file as written.
    raw = cpp_tokens.lex(source)
    bad = [] if "includes" in rubric.allowed_rules else static_checks.directives(raw, rubric)
    if bad:
        found = sorted(set(bad + static_checks.find_violations(raw, rubric)), key=lambda v: (v[2], v[0]))
        results[static.name] = TestResult(static, 0, "fail", "breaks the rules:\n" + "\n".join(rule_lines(found)))
        return finish_all("fail", "not run: the file breaks the static rules")

    # The rules over the preprocessed tokens (the preprocessor reads only allowed headers):
    # what they find is reported with the object check below, but inline assembly and the
    # headers a file includes stop it before any compiler or linker reads it (an assembler's
    # .incbin copies any file the grader can read into the object and the linker's messages).
    os.makedirs(os.path.join(scratch, "src"))
    kernels = os.path.join(scratch, "src", "kernels.cu")
    shutil.copyfile(file, kernels)
    found = []
    lab_dir = lab_folder("labs", session.lab)
    for name, flags in session.kernel_builds():
        passes, trouble = static_checks.preprocess(kernels, flags, CHECKOUT, os.path.join(scratch, name))
        if trouble:  # the preprocessor's own error: the compiler would say the same
            results[compile_.name] = TestResult(compile_, 0, "fail", "does not build:\n" + first_error(
                trouble, scratch, secret_words(rubric)))
            results[static.name] = TestResult(static, 0, "fail", "not checked: the file does not build")
            return finish_all("fail", "not run: the file does not build")
        for tokens, includes in passes:
            found += static_checks.find_violations(tokens, rubric)
            if "includes" not in rubric.allowed_rules:
                found += static_checks.included_files(includes, lab_dir, rubric)
    found = sorted(set(found), key=lambda v: (v[2], v[0]))
    gate = [v for v in found if v[0] in BEFORE_COMPILING]
    clock.lap("static checks")
    if gate:
        results[static.name] = TestResult(static, 0, "fail", "\n".join(["breaks the rules:"] + rule_lines(gate)))
        results[compile_.name] = TestResult(compile_, 0, "fail", "not compiled: the file breaks the static rules")
        return finish_all("fail", "not run: the file breaks the static rules")

    # compile, alone, against the trusted driver and harness
    build = os.path.join(scratch, "build")
    session.seed_build(build)
    nvcc = os.environ.get("NVCC", "nvcc") + " --resource-usage"
    ok, log = make([f"lab{session.lab}-build", f"KERNELS={kernels}", f"BUILD_DIR={build}",
                    f"ARCH={session.arch}", f"NVCC={nvcc}"], rubric.build_timeout)
    lab_out = os.path.join(build, session.arch, "custom", f"lab{session.lab}")
    objects = [os.path.join(lab_out, name) for name, _ in session.kernel_builds()]
    built = all(os.path.isfile(o) for o in objects)
    clock.lap("build")
    if not built:  # the compiler failed: nothing to check
        results[compile_.name] = TestResult(compile_, 0, "fail",
                                            "does not build:\n" + first_error(log, scratch, secret_words(rubric)))
        results[static.name] = TestResult(static, 0, "fail", "not checked: the file does not build")
        return finish_all("fail", "not run: the file does not build")

    # static: the objects by allowlist
    problems = object_check.check(objects, rubric, session.trusted_names(), session.cuobjdump, session.lab)
    clock.lap("static checks")

    if not ok:
        # It compiled and did not link: say why in a line where the object check can.
        missing = [p for p in problems if p.startswith("defines no variant table") or " is missing " in p]
        results[compile_.name] = TestResult(compile_, 0, "fail", "does not link: " + missing[0] if missing else
                                            "does not link:\n" + first_error(log, scratch, secret_words(rubric)))
    else:
        results[compile_.name] = TestResult(compile_, compile_.points, "pass",
                                            f"builds for {session.arch} with the kit's driver")
        grade_resources(rubric, static_checks.parse_resource_usage(log), results)
    if found or problems:
        text = []
        if found:
            text += ["breaks the rules:"] + rule_lines(found)
        if problems:
            text += ["the compiled object " + ("also " if found else "") + "fails the allowlist "
                     "(grading/rubrics/common.ini, [symbols]):"] + [f"  {p}" for p in problems[:15]]
        results[static.name] = TestResult(static, 0, "fail", "\n".join(text))
        return finish_all("fail", "not run: the file breaks the static rules" if ok else
                          "not run: the file does not build")
    results[static.name] = TestResult(static, static.points, "pass",
                                      f"{len(rubric.rules) + 3} source rules, none broken; the compiled object "
                                      "calls, defines and runs before main only what the allowlist has")
    if not ok:
        return finish_all("fail", "not run: the file does not build")

    if not session.has_gpu or session.check_sandbox():
        return finish_all("skip", "")
    if rubric.sanitize_tools and not session.sanitizer:
        return finish_all("skip", "NOT GRADED: compute-sanitizer was not found on this machine (COMPUTE_SANITIZER, "
                                  "the PATH, or beside nvcc): races and memory errors could not be checked")
    binary = os.path.join(build, session.arch, "custom", f"lab{session.lab}", f"lab{session.lab}")
    session.sandbox.allow_reading(*parents_of(binary, scratch))
    runs = Runs(session, binary, scratch)
    passed = grade_correctness(session, runs, rubric.seeds["check"], rubric.check_sizes, {})
    clock.lap("first checks", runs)
    functions = object_check.device_functions(objects, session.cuobjdump) if rubric.sanitize_tools else {}
    passed = grade_sanitizer(session, runs, rubric.seeds["check"], passed, functions)
    clock.lap("sanitizer", runs)
    timed_wrong = grade_performance(session, runs, [v for v, (ok, _) in passed.items() if ok], results)
    clock.lap("timed runs", runs)
    passed = grade_correctness(session, runs, rubric.seeds["recheck"], rubric.recheck_sizes, passed,
                               timed_wrong)
    clock.lap("second checks", runs)
    for t in rubric.tests:
        if t.kind == "correctness":
            ok, text = passed[t.variant]
            results[t.name] = TestResult(t, t.points if ok else 0, "pass" if ok else "fail", text)
    finish_all("fail", "")


def grade_resources(rubric, usage, results):
    ops = {">=": operator.ge, "<=": operator.le, "==": operator.eq, ">": operator.gt, "<": operator.lt}
    for t in rubric.tests:
        if t.kind != "resource":
            continue
        found = {arch: r for (kernel, arch), r in usage.items() if kernel == t.kernel}
        if not found:
            results[t.name] = TestResult(t, 0, "fail", f"no kernel named {t.kernel} in the compiler's report")
            continue
        lines, ok = [], True
        for arch, r in sorted(found.items()):
            for metric, op, value in t.require:
                good = ops[op](r[metric], value)
                ok &= good
                lines.append(f"{t.kernel} ({arch}): {metric} = {r[metric]}, required {op} {value}: "
                             f"{'ok' if good else 'NO'}")
        results[t.name] = TestResult(t, t.points if ok else 0, "pass" if ok else "fail", "\n".join(lines))


class Runs:
    """Runs of the student's program and the reference, each in a fresh folder."""

    def __init__(self, session, binary, scratch):
        self.session = session
        self.binary = binary
        self.scratch = scratch
        self.count = 0
        self.sandbox = session.sandbox
        # nothing is secret without private data (a student's own copy): messages shown whole
        self.secrets = secret_words(session.rubric) if session.rubric.private_path else set()
        self.reference = None  # a copy in the scratch folder, bound into each of its runs
        if session.reference:
            os.makedirs(os.path.join(scratch, "reference"))
            self.reference = shutil.copy2(session.reference, os.path.join(scratch, "reference"))
            self.sandbox.allow_reading(os.path.dirname(self.reference), self.reference)

    def run(self, binary, args, timeout, tool=()):
        """A run of the lab program (under `tool`, a sanitizer's command, if given); one without
        --check is timed: it has the GPU alone. The outcome carries the run's proof of work."""
        return self.together([(binary, args, timeout, tool)])[0]

    def together(self, runs):
        """Several checks at once (they share the GPU, as other students' checks do; a timed
        run only alone), [(binary, args, timeout, tool)] -> [(outcome, cwd)], under one hold of
        the lock."""
        started, labels = [], []
        for binary, args, timeout, tool in runs:
            self.count += 1
            cwd = self.sandbox.workdir(self.scratch, f"run{self.count}")
            args = list(args) + ["--proof", PROOF_FILE]
            started.append((list(tool) + [binary] + args, cwd, timeout, binary))
            labels.append(f"{binary} {' '.join(args)}")
        exclusive = any("--check" not in argv for argv, _, _, _ in started)
        assert not (exclusive and len(started) > 1), "a timed run has the GPU alone"
        with gpu_lock(exclusive=exclusive, label=" & ".join(labels)):
            running = []
            try:
                for argv, cwd, timeout, binary in started:
                    running.append(self.sandbox.start(argv, cwd, timeout, programs=[binary]))
                outcomes = [r.finish() for r in running]
            finally:
                for r in running:
                    r.close()
        done = []
        for outcome, (_, cwd, _, _) in zip(outcomes, started):
            outcome.proof = Proof(os.path.join(cwd, PROOF_FILE))
            outcome.secrets = self.secrets
            m = re.search(r"^lab\d+ on (.+?) \(sm_", outcome.stdout, re.M)
            if m:
                self.session.gpu_name = m.group(1)
            done.append((outcome, cwd))
        return done


def grade_correctness(session, runs, seed, sizes, before, timed_wrong=None):
    """{variant: (passed, report text)}; `before` holds the verdicts of the first round,
    which a second round (after timing) only extends. The variants still passing are checked
    by one run at every size (--only A,B,C --n X,Y,Z), since every GPU process costs a CUDA
    context (about 0.3 s, serialised by the driver). No variant can pass on another's work:
    the lab program poisons the outputs before each verified launch and checks the inputs
    unchanged. A variant passes on its proof of work, not on an exit status: the run's
    records of its verified points, which must be those of the reference solution's run with
    the same seed and sizes (reference_proof). A variant is only ever failed by a run of its
    own: where that run fails, the variants it may have failed (suspects) are run again alone
    at every size, the others pass from it. The report names no size and no seed."""
    rubric = session.rubric
    label = "hidden sizes, " + ("after timing, fresh inputs" if before else "before timing")
    lines, pending = {}, []
    for variant in rubric.variants("correctness"):
        ok, text = before.get(variant, (True, ""))
        lines[variant] = [text] if text else []
        if ok and timed_wrong and variant in timed_wrong:
            ok = False
            lines[variant].append(f"timed run (size of the lab's own sweep): {timed_wrong[variant]}")
        if ok:
            pending.append(variant)
    expected, failure = reference_proof(session, runs, seed, sizes) if pending else ({}, None)
    if failure:
        return {v: (False, "\n".join(lines[v] + [failure])) for v in lines}
    shared = check_run(runs, pending, seed, sizes) if len(pending) > 1 else None
    alone = suspects(shared, pending) if shared else pending
    verdicts = {}
    for v in pending:
        if v in alone:
            verdicts[v] = check_verdict(rubric, check_run(runs, [v], seed, sizes), v, label, expected)
        else:
            verdicts[v] = check_verdict(rubric, shared, v, label, expected, f", one run for {len(pending)} variants",
                                        failed=False)
    for variant, (ok, new_lines) in verdicts.items():
        lines[variant] += new_lines
    return {v: (v in pending and verdicts[v][0], "\n".join(text)) for v, text in lines.items()}


def check_args(rubric, variants, seed, sizes):
    """A --check of these variants at these sizes (with the rubric's check_args)."""
    args = ["--check", "--only", ",".join(variants), "--seed", str(seed)]
    return args + ([] if sizes == ["default"] else ["--n", ",".join(sizes)]) + rubric.check_args


def check_run(runs, variants, seed, sizes):
    """The outcome of lab --check for these variants at these sizes, in one run (each size has
    the rubric's time limit)."""
    rubric = runs.session.rubric
    return runs.run(runs.binary, check_args(rubric, variants, seed, sizes), len(sizes) * rubric.check_timeout)[0]


def reference_proof(session, runs, seed, sizes):
    """({variant: [(label, digest)]}, failure or None): what the reference solution's --check of
    every graded variant records at this seed and these sizes. It is the same for every student,
    so it is kept in the work folder (ReferenceRuns.kept). Without a reference (a student's copy
    of the kit), {}: a variant then needs records, whatever their digests."""
    if not runs.reference:
        return {}, None
    variants = session.rubric.variants("correctness")
    args = check_args(session.rubric, variants, seed, sizes)

    def run():
        outcome = runs.run(runs.reference, args, len(sizes) * session.rubric.check_timeout)[0]
        if run_failed(outcome):
            return None, f"the reference solution's check failed ({outcome.describe()}): a grading problem"
        return {v: outcome.proof.of(v) for v in variants}, None

    records, failure = ReferenceRuns(session, args, "check").kept(run)
    return ({v: [tuple(r) for r in rs] for v, rs in records.items()} if records else {}), failure


def suspects(outcome, variants):
    """The variants a --check run of all of them may have failed: none where it passed with its
    proof of work; where it ran to its end (exit 1, the driver's end record) and every line of
    its stderr names some of them (the lab programs name the variant on every line about a
    wrong point; a stderr cut to its last MiB starts with a line that names none), those named;
    else all."""
    if not run_failed(outcome):
        return []
    named = [{v for v in variants if re.search(names(v), line)} for line in outcome.stderr.splitlines()
             if line.strip()]
    if outcome.returncode != 1 or not outcome.proof.complete(outcome) or not named or not all(named):
        return variants
    return [v for v in variants if any(v in n for n in named)]


def check_verdict(rubric, outcome, variant, label, expected, note="", failed=None):
    """(passed, report lines) of one variant from a --check run that verified it; failed=False
    where the run failed only for other variants (suspects). The variant passes only with its
    proof of work: the records of its verified points, equal to the reference's (expected)."""
    if failed is None:
        failed = run_failed(outcome)
    pattern = rubric.not_implemented.replace("{variant}", re.escape(variant))
    if not failed and re.search(pattern, outcome.stdout, re.M):
        return False, ["not implemented (its TODO is still open)"]
    if failed:
        how = outcome.describe()
        if outcome.returncode == 0 and not outcome.timed_out:
            how = ("ended before the lab program's last check (exit 0 without its proof of work)"
                   if outcome.proof.locked else "ran without the lockdown of a graded run (no proof of work)")
        return False, [f"{label}: {how}{note}", excerpt(outcome)]
    mine = outcome.proof.of(variant)
    want = expected.get(variant)
    if not mine or (want is not None and mine != want):
        why = ("no record of its verified points" if not mine else
               "its verified points are not those of the reference solution's run with the same inputs")
        return False, [f"{label}: no proof of work ({why}){note}"]
    return True, [f"{label}: passed{note}"]


TIMED_STATUSES = {"WRONG": "a timed repetition's output was wrong",
                  "IMPLAUSIBLE": "faster than the GPU can do that work: work outside the timed stream"}


def failed_check(status):
    """What a timed point's status says, in the grader's words (a CSV field is the program's:
    it is never shown)."""
    return TIMED_STATUSES.get(status, "a status the lab programs do not write")


class ReferenceRuns:
    """The reference solution's timed runs, kept in the work folder and shared by the students
    graded there on the same GPU (same host, same GPUs seen) within the rubric's
    reference_reuse_s. They are runs of the same program with the same arguments on the same
    GPU, so timing them beside every student doubled a class's GPU time for no new figure. The
    reference times every graded variant, whatever a student's subset. Run r is timed when a
    student first needs it (before that student's own runs) and again once older than the
    limit; a failed run is never kept. The files are the grading user's: the sandboxed
    student program cannot write them. The reference's --check records (kept) are kept the same
    way, without an age limit: they depend on the inputs, not on when they were made."""

    def __init__(self, session, args, kind="timed"):
        ident = hashlib.sha256()
        with open(session.reference, "rb") as f:
            ident.update(f.read())
        ident.update(json.dumps([kind, args, socket.gethostname(), gpu_list(),
                                 os.environ.get("CUDA_VISIBLE_DEVICES", "")]).encode())
        folder = os.path.join(session.work_dir, "reference-runs")
        os.makedirs(folder, exist_ok=True)
        self.path = os.path.join(folder, ident.hexdigest()[:24] + ".json")
        self.args = args
        self.reuse = session.rubric.reference_reuse

    def _kept(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def kept(self, compute):
        """(value, failure): the value kept for these arguments, or compute()'s, kept unless it
        failed."""
        with open(self.path + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            kept = self._kept()
            if "value" in kept:
                return kept["value"], None
            value, failure = compute()
            if failure is None:
                self._write({"value": value})
            return value, failure

    def _write(self, kept):
        with open(self.path + ".new", "w", encoding="utf-8") as f:
            json.dump(kept, f)
        os.replace(self.path + ".new", self.path)

    def get(self, r, runs):
        """(rows, failure or None) of the reference's run r: kept, or timed now."""
        with open(self.path + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one grader times a missing run; the others wait for it
            kept = self._kept()
            run = kept.get(str(r))
            if run and time.time() - run["when"] <= self.reuse:
                return {tuple(k): (status, ms) for k, status, ms in run["rows"]}, None
            outcome, cwd = runs.run(runs.reference, self.args + ["--csv", "csv"], runs.session.rubric.perf_timeout)
            rows = read_rows(os.path.join(cwd, "csv"))
            if run_failed(outcome):
                return rows, f"the reference run failed ({outcome.describe()}): a grading problem\n{excerpt(outcome)}"
            if self.reuse > 0:
                kept[str(r)] = {"when": time.time(), "rows": [[list(k), st, ms] for k, (st, ms) in rows.items()]}
                self._write(kept)
            return rows, None


def summed_times(best, variant):
    """(student's ms, reference's ms, points): the best times summed over every point the
    reference timed for a variant; None where the student has no time for one of them."""
    keys = [k for k in best["reference"] if k[1] == variant]
    if not keys or any(k not in best["student"] for k in keys):
        return None
    return sum(best["student"][k] for k in keys), sum(best["reference"][k] for k in keys), len(keys)


def grade_performance(session, runs, variants, results):
    """Timed runs against the reference's (ReferenceRuns): the reference's perf_runs first, then
    the student's, up to perf_runs, stopping once every timed variant is at full credit or
    failed (a best time can only fall with more runs, so that verdict cannot change); returns
    {variant: why} for variants whose timed run was wrong (a correctness failure at the timed
    size)."""
    rubric = session.rubric
    tests = [t for t in rubric.tests if t.kind == "performance"]
    timed = [t.variant for t in tests if t.variant in variants]
    for t in tests:
        if t.variant not in timed:
            results[t.name] = TestResult(t, 0, "fail", "not timed: the variant failed its correctness checks")
    if not timed:
        return {}
    if not runs.reference:
        for t in tests:
            results.setdefault(t.name, TestResult(t, 0, "skip", "SKIPPED: this copy of the kit has no "
                                                  "reference solution to compare with"))
        return {}
    seed = ["--seed", str(rubric.seeds["perf"])]
    args = seed + ["--only", ",".join(timed)] + rubric.perf_args
    reference = ReferenceRuns(session, seed + ["--only", ",".join(dict.fromkeys(t.variant for t in tests))]
                              + rubric.perf_args)
    best = {"student": {}, "reference": {}}
    wrong, failure, student_runs = {}, None, 0

    def keep(who, rows):
        for key, (status, ms) in rows.items():
            if who == "student" and status != "ok" and key[1] not in wrong:
                shown = status if status in TIMED_STATUSES else "unknown"
                wrong[key[1]] = f"status {shown} at a timed point: {failed_check(status)}"
            if status == "ok" and ms is not None:
                prev = best[who].get(key)
                best[who][key] = ms if prev is None else min(prev, ms)

    def settled(t):  # failed, or at full credit, as it would be at any lower ratio too
        times = summed_times(best, t.variant)
        return t.variant in wrong or (times is not None and times[0] / times[1] <= t.bands[0][0]
                                      and t.bands[0][1] >= 1)

    for r in range(rubric.perf_runs):
        rows, failure = reference.get(r, runs)
        keep("reference", rows)
        if failure:
            break
    while not failure and student_runs < rubric.perf_runs and not (
            student_runs and all(settled(t) for t in tests if t.variant in timed)):
        outcome, cwd = runs.run(runs.binary, args + ["--csv", "csv"], rubric.perf_timeout)
        student_runs += 1
        if outcome.returncode not in (0, 1):
            failure = f"the timed run {outcome.describe()}\n{excerpt(outcome)}"
        elif not outcome.proof.complete(outcome):
            failure = ("the timed run ended before the lab program's end (exit "
                       f"{outcome.returncode} without its proof of work)")
        rows = read_rows(os.path.join(cwd, "csv"))
        for key, (status, _) in rows.items():  # a row counts only where the harness timed it
            if status == "ok" and not any(re.search(names(key[1]), label) for label in outcome.proof.timed):
                wrong.setdefault(key[1], "its timed rows have no proof of work (no timed point recorded)")
        keep("student", rows)
    for t in tests:
        if t.variant not in timed:
            continue
        if failure or t.variant in wrong:
            results[t.name] = TestResult(t, 0, "fail", failure or f"a timed run failed its checks: {wrong[t.variant]}")
            continue
        times = summed_times(best, t.variant)
        if times is None:
            results[t.name] = TestResult(t, 0, "fail", "the timed runs have no rows to compare for this variant")
            continue
        mine, ref, points = times
        ratio = mine / ref
        fraction = max(0.0, min(1.0, band_fraction(ratio, t.bands)))
        verdict = "pass" if fraction >= 1 else "partial" if fraction > 0 else "fail"
        runs_said = (f"best of {rubric.perf_runs} runs each" if student_runs == rubric.perf_runs else
                     f"the reference's best of {rubric.perf_runs} runs, yours of {student_runs}: "
                     f"full credit already")
        text = (f"{ratio:.2f}x the reference's time (yours {mine:.4f} ms, reference {ref:.4f} ms, "
                f"summed over {points} points, {runs_said}): {fraction * 100:.0f}% of the points")
        results[t.name] = TestResult(t, t.points * fraction, verdict, text)
        results[t.name].ratio = round(ratio, 4)
        if ratio * rubric.review_speedup < 1:
            results[t.name].review = (f"{1 / ratio:.1f}x faster than the reference solution in the same session "
                                      f"(the rubric flags more than {rubric.review_speedup:g}x): check the code")
    return wrong
