#!/usr/bin/env python3
"""test_sandbox.py - the sandbox against a hostile lab program (grading/sandbox.py); no GPU.
test_grader.py runs these too.

The program (a shell script) writes outside its folder (the host's /tmp, the checkout,
another run's folder), reads the private data and the solutions, tries to undo the mounts,
leaves a daemon behind (setsid, an hour's sleep), connects to a port this test listens on,
and forks as many processes as it can. Each attempt must fail or stay inside the sandbox, and
once run() returns no process of it is left. As root the program runs as nobody; the same
test runs as an ordinary user (uid 65534, through setpriv) in a user namespace, or says why
it cannot. Fail closed: without unshare, nothing runs and the GPU tests are NOT GRADED.

    python3 tests/unit/test_sandbox.py [-v]
    python3 tests/unit/test_sandbox.py --hostile   (one hostile run, its problems as JSON)
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

sys.dont_write_bytecode = True
CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GRADING_DIR = os.path.join(CHECKOUT, "grading")
sys.path.insert(0, GRADING_DIR)
import sandbox  # noqa: E402

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

# $1 marker, $2 port, $3 checkout, $4 a kit hidden from it, $5 another run's folder, $6 the
# host's scratch folder, $7 "hang": end in an hour's sleep. Every attempt: a line in ./report.
HOSTILE = r"""#!/bin/sh
mark=$1 port=$2 checkout=$3 kit=$4 other=$5 scratch=$6 hang=${7:-}
try() { name=$1; shift; if "$@" >/dev/null 2>&1; then echo "$name: DONE"; else echo "$name: DENIED"; fi >>report; }
try write-tmp sh -c "echo x >/tmp/memlab-hostile-$mark"
try write-shm sh -c "echo x >/dev/shm/memlab-hostile-$mark"
try write-checkout sh -c "echo x >$checkout/grading/pwned-$mark"
try write-kit sh -c "echo x >$kit/grading/pwned-$mark"
try write-other-run sh -c "echo x >$other/pwned-$mark"
try write-scratch sh -c "echo x >$scratch/pwned-$mark"
try write-root sh -c "echo x >/pwned-$mark"
try write-usr sh -c "echo x >/usr/pwned-$mark"
try read-private cat "$checkout/grading/private/lab1.ini"
try read-solutions sh -c "cat $checkout/solutions/*/kernels.cu"
try read-kit-private cat "$kit/grading/private/secret.ini"
try read-kit-solutions cat "$kit/solutions/kernels.cu"
try remount-rw mount -o remount,rw /
try unmount-hider umount -l "$kit"
try unmount-folder umount -l "$(pwd)"
try tcp bash -c "exec 3<>/dev/tcp/127.0.0.1/$port"
try write-own sh -c "echo x >./mine"
try nested-userns unshare --user true
# a daemon: double fork, new session, an hour's sleep, the marker in its command line
(setsid sh -c "sleep 3600; : $mark" >/dev/null 2>&1 &)
# as many processes as it can get (each with the marker), then count what this namespace holds
sh -c "i=0; while [ \$i -lt 400 ]; do sh -c 'sleep 60; : $mark' & i=\$((i + 1)); done" >/dev/null 2>&1
set -- /proc/[0-9]*  # (no process to spare for ls)
echo "processes: $#" >>report
if [ "$hang" = hang ]; then exec sleep 3600; fi
exit 0
"""
# What may be done: in its own tmpfs or folder. (In a user namespace, the program owns the
# folders made in its private /tmp to reach its own: the host's scratch folder stays untouched.)
SHOULD = {"write-tmp": {"DONE"}, "write-shm": {"DONE"}, "write-own": {"DONE"}, "write-scratch": {"DONE", "DENIED"}}
ATTEMPTS = ["write-tmp", "write-shm", "write-checkout", "write-kit", "write-other-run", "write-scratch",
            "write-root", "write-usr", "read-private", "read-solutions", "read-kit-private", "read-kit-solutions",
            "remount-rw", "unmount-hider", "unmount-folder", "tcp", "write-own", "nested-userns"]


def hostile_runs(max_pids=32):
    """Two runs of HOSTILE (one ends, one hangs past its time limit): the problems found, or
    ["SKIP: why"] where no sandbox can be made here."""
    scratch = tempfile.mkdtemp(prefix="memlab-hostile-")
    listener = socket.socket()
    try:
        os.chmod(scratch, 0o755)
        tree = os.path.join(scratch, "tree")  # shown to the program, read-only (LD_LIBRARY_PATH)
        kit = os.path.join(tree, "kit")       # hidden inside it, as a checkout under /opt would be
        other = os.path.join(tree, "other-run")
        for path, text in ((os.path.join(kit, "grading", "private", "secret.ini"), "secret"),
                           (os.path.join(kit, "solutions", "kernels.cu"), "solution"),
                           (os.path.join(other, "keep"), "keep")):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        os.chmod(other, 0o777)
        before = sorted(os.listdir(other))
        program = os.path.join(scratch, "hostile")
        with open(program, "w") as f:
            f.write(HOSTILE)
        os.chmod(program, 0o755)
        listener.bind(("127.0.0.1", 0))
        listener.listen(5)
        port = listener.getsockname()[1]
        with mock.patch.dict(os.environ, {"LD_LIBRARY_PATH": tree}):
            box = sandbox.Sandbox(1 << 20, hidden=[kit], max_pids=max_pids)
            problem = box.check()
            if problem:
                return [f"SKIP: {problem}"]
            problems = []
            for n, hang in ((1, False), (2, True)):
                mark = f"memlab-hostile-mark-{os.getpid()}-{n}-{time.monotonic_ns()}"
                cwd = box.workdir(scratch, f"run{n}")
                start = time.monotonic()
                argv = [program, mark, str(port), CHECKOUT, kit, other, scratch] + (["hang"] if hang else [])
                outcome = box.run(argv, cwd, 3 if hang else 20)
                took = time.monotonic() - start
                left = sandbox.processes_with(mark, scratch)
                if left:
                    problems.append(f"run {n}: processes left after run() returned: {left}")
                    for pid in left:
                        os.kill(pid, 9)
                if hang and not outcome.timed_out:
                    problems.append(f"run {n}: not timed out: {outcome.describe()}")
                if not hang and (outcome.returncode != 0 or took > 15):
                    problems.append(f"run {n}: {outcome.describe()} after {took:.1f} s: {outcome.stderr[-500:]}")
                report = {}
                if os.path.exists(os.path.join(cwd, "report")):
                    with open(os.path.join(cwd, "report")) as f:
                        report = dict(line.rstrip("\n").split(": ", 1) for line in f if ": " in line)
                # (as root the program is nobody in the host's user namespace, where the host's
                # rules for unprivileged user namespaces hold; in a namespace of its own, none)
                should = dict(SHOULD, **({"nested-userns": {"DONE", "DENIED"}} if box.privileged else {}))
                for name in ATTEMPTS:
                    if report.get(name) not in should.get(name, {"DENIED"}):
                        problems.append(f"run {n}: {name}: {report.get(name, 'not tried')}")
                count = int(report.get("processes", "0"))
                if not 2 < count <= box.nproc() + 2 or count >= 400:
                    problems.append(f"run {n}: {count} processes in its namespace, the limit {box.nproc()}")
                for path in (f"/tmp/memlab-hostile-{mark}", f"/dev/shm/memlab-hostile-{mark}",
                             os.path.join(CHECKOUT, "grading", f"pwned-{mark}"),
                             os.path.join(scratch, f"pwned-{mark}")):
                    if os.path.exists(path):
                        problems.append(f"run {n}: the host has {path}")
                        os.remove(path)
            if sorted(os.listdir(other)) != before:
                problems.append(f"another run's folder changed: {sorted(os.listdir(other))}")
            listener.setblocking(False)
            try:
                listener.accept()
                problems.append("the program reached the host's 127.0.0.1")
            except BlockingIOError:
                pass
            leftovers = [p for p in os.listdir(scratch) if p.endswith((".root", ".status", ".fstab"))]
            if leftovers:
                problems.append(f"sandbox files left in the scratch folder: {leftovers}")
            return problems
    finally:
        listener.close()
        shutil.rmtree(scratch, ignore_errors=True)


def python_for_nobody():
    """A python3 that uid 65534 can run (pyenv's under /root may not be), or None."""
    for python in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(python) and subprocess.run(NOBODY + [python, "-c", "import os, socket"], cwd="/",
                                                     capture_output=True).returncode == 0:
            return python
    return None


def userns_closed():
    """Why an ordinary user may not make a user namespace with mounts here, or None (it can)."""
    for path, bad in (("/proc/sys/kernel/unprivileged_userns_clone", "0"), ("/proc/sys/user/max_user_namespaces", "0"),
                      ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1")):
        try:
            with open(path) as f:
                if f.read().strip() == bad:
                    return f"{path} is {bad}"
        except OSError:
            pass
    trial = subprocess.run(NOBODY + ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                                     "mount -t tmpfs memlab /tmp"], cwd="/", capture_output=True, text=True)
    return None if trial.returncode == 0 else f"unshare --user --mount as uid 65534: {trial.stderr.strip()}"


class HostileProgram(unittest.TestCase):
    def test_as_this_user(self):
        """As root here (CI too): the program runs as nobody."""
        problems = hostile_runs()
        if problems and problems[0].startswith("SKIP"):
            self.fail(f"no sandbox as uid {os.geteuid()}: {problems[0]}")
        self.assertEqual(problems, [])

    def test_as_an_ordinary_user(self):
        """The same as uid 65534 (a Slurm node's grading user): in a user namespace."""
        if os.geteuid() != 0:
            self.skipTest("not root: this user is the ordinary user (test_as_this_user)")
        python = python_for_nobody()
        if not python:
            self.skipTest("no python3 that uid 65534 can run")
        copy = tempfile.mkdtemp(prefix="memlab-hostile-copy-")  # a checkout that uid 65534 can read
        self.addCleanup(shutil.rmtree, copy)
        os.chmod(copy, 0o755)
        for folder in ("grading", "tests", os.path.join("tests", "unit")):
            os.mkdir(os.path.join(copy, folder), mode=0o755)
        for name in ("sandbox.py", "sandbox-init.sh"):
            os.chmod(shutil.copy(os.path.join(GRADING_DIR, name), os.path.join(copy, "grading")), 0o644)
        test = os.path.join(copy, "tests", "unit", "test_sandbox.py")
        os.chmod(shutil.copy(__file__, test), 0o644)
        p = subprocess.run(NOBODY + [python, test, "--hostile"], cwd="/",
                           env={"PATH": "/usr/bin:/bin", "HOME": "/"}, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        problems = json.loads(p.stdout)
        if problems and problems[0].startswith("SKIP"):
            closed = userns_closed()
            self.assertIsNotNone(closed, f"uid 65534 can make a user namespace with mounts, yet: {problems[0]}")
            print(f"\nskipped: no sandbox as uid 65534 ({problems[0][6:]}): {closed}", file=sys.stderr)
            self.skipTest(closed)
        self.assertEqual(problems, [])


class FailClosed(unittest.TestCase):
    """Where no sandbox can be made (here: a PATH without unshare), nothing runs: the GPU tests
    are NOT GRADED, with the reason in the report."""

    NO_UNSHARE = "NOT GRADED: no sandbox could be made here: unshare not found"

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="memlab-closed-")
        self.addCleanup(shutil.rmtree, self.scratch)
        os.chmod(self.scratch, 0o755)
        self.tools = os.path.join(self.scratch, "bin")  # every tool but unshare
        os.makedirs(self.tools)
        for tool in sandbox.TOOLS:
            if tool != "unshare":
                os.symlink(shutil.which(tool, path=sandbox.TOOLS_PATH), os.path.join(self.tools, tool))
        self.program = os.path.join(self.scratch, "program")
        self.marker = os.path.join(self.scratch, "ran")
        with open(self.program, "w") as f:
            f.write(f"#!/bin/sh\ntouch {self.marker}\n")
        os.chmod(self.program, 0o755)

    def test_sandbox_refuses(self):
        box = sandbox.Sandbox(1 << 20, tools_path=self.tools)
        self.assertEqual(box.check(), "unshare not found (util-linux)")
        with self.assertRaises(sandbox.SandboxError):
            box.run([self.program], box.workdir(self.scratch, "run"), 10)
        self.assertFalse(os.path.exists(self.marker))
        self.assertIn("NO SANDBOX", box.describe())

    def test_session_not_graded(self):
        import grader
        import report
        from rubric import Rubric
        tools = self.tools

        def without_unshare(*args, **kwargs):
            return sandbox.Sandbox(*args, tools_path=tools, **kwargs)
        rubric = Rubric(1)
        with mock.patch.object(grader, "Sandbox", without_unshare), \
                mock.patch.object(grader, "gpu_present", return_value=True), \
                mock.patch.object(grader, "make", return_value=(True, "")):
            session = grader.Session(rubric, os.path.join(self.scratch, "work"), arch="sm_90")
            self.assertTrue(session.not_graded.startswith(self.NO_UNSHARE))
            session.prepare()  # the session's own GPU probe runs nothing either
        self.assertIsNone(session.sandbox_gpu)
        # a whole grading: compiled and checked, its GPU tests NOT GRADED (skip, 0 points), nothing run
        submission = next(os.path.join(CHECKOUT, "labs", d, "kernels.cu")
                          for d in sorted(os.listdir(os.path.join(CHECKOUT, "labs"))) if d.startswith("lab1-"))
        results = {}
        with mock.patch.object(grader, "make", return_value=(True, "")), mock.patch.object(session, "seed_build"), \
                mock.patch.object(session, "kernel_builds", return_value=[]), \
                mock.patch.object(grader.object_check, "check", return_value=[]), \
                mock.patch.object(grader, "Runs", side_effect=AssertionError("a run was made")):
            grader._grade(session, submission, "", tempfile.mkdtemp(dir=self.scratch), results)
        gpu = [r for r in results.values() if r.kind in grader.GPU_KINDS]
        self.assertTrue(gpu)
        for r in gpu:
            self.assertEqual((r.verdict, r.score), ("skip", 0))
            self.assertTrue(r.output.startswith(self.NO_UNSHARE), r.output)
        self.assertEqual(results["compile"].verdict, "pass")
        text = report.text_report(rubric, session, "s.cu", [results[t.name] for t in rubric.tests])
        self.assertIn("NO SANDBOX (unshare not found (util-linux))", text)
        self.assertIn("NOT GRADED: no sandbox could be made here", text)
        # and Runs refuses too, should anything get that far
        session.reference = None  # (make was a stand-in: there is no reference program to copy)
        runs = grader.Runs(session, self.program, tempfile.mkdtemp(dir=self.scratch))
        with self.assertRaises(sandbox.SandboxError):
            runs.run(self.program, ["--check"], 10)
        self.assertFalse(os.path.exists(self.marker))


if __name__ == "__main__":
    if sys.argv[1:] == ["--hostile"]:
        print(json.dumps(hostile_runs()))
        sys.exit(0)
    unittest.main()
