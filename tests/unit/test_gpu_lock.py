#!/usr/bin/env python3
"""test_gpu_lock.py - the GPU lock (grading/gpu_lock.py), as the grader holds it (in this
process) and as the tests do (its command line, through tests/jobs.sh's gpu_shared and
gpu_exclusive), on a temporary lock file; no GPU, no build, a few seconds.

    python3 tests/unit/test_gpu_lock.py [-v]
"""
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from unittest import mock

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(CHECKOUT, "grading"))
from gpu_lock import gpu_lock  # noqa: E402

GPU_LOCK_PY = os.path.join(CHECKOUT, "grading", "gpu_lock.py")


def started(target, *args):
    """A thread running target(*args), started."""
    t = threading.Thread(target=target, args=args)
    t.start()
    return t


def wait_for(path, seconds=5.0):
    give_up = time.monotonic() + seconds
    while not os.path.exists(path):
        if time.monotonic() > give_up:
            raise AssertionError(f"{path} never appeared")
        time.sleep(0.01)


class LockFile(unittest.TestCase):
    """A lock file of the test's own in MEMLAB_GPU_LOCK, probed through other open files (a
    flock belongs to an open file, so two of one process conflict as two processes' would)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="memlab-lock-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.path = os.path.join(self.dir, "gpu.lock")
        open(self.path, "w").close()
        env = mock.patch.dict(os.environ, {"MEMLAB_GPU_LOCK": self.path})
        env.start()
        self.addCleanup(env.stop)
        os.environ.pop("MEMLAB_GPU_PATIENCE", None)
        os.environ.pop("MEMLAB_GPU_LOCK_LOG", None)

    def can_lock(self, how):
        with open(self.path) as f:
            try:
                fcntl.flock(f, how | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                return False

    def held_alone(self):
        return not self.can_lock(fcntl.LOCK_SH)

    def held_shared(self):
        return self.can_lock(fcntl.LOCK_SH) and not self.can_lock(fcntl.LOCK_EX)


class InProcess(LockFile):
    """gpu_lock(exclusive) as the grader holds it around a run."""

    @staticmethod
    def holder(order, holding=None):
        """hold(exclusive, name, seconds): the lock held for that long, name added to order at
        the end, holding set once it is held."""
        def hold(exclusive, name, seconds=0.0):
            with gpu_lock(exclusive):
                if holding:
                    holding.set()
                time.sleep(seconds)
                order.append(name)
        return hold

    def test_shared_and_exclusive(self):
        with gpu_lock(exclusive=False):
            self.assertTrue(self.held_shared())
        with gpu_lock(exclusive=True):
            self.assertTrue(self.held_alone())
        self.assertTrue(self.can_lock(fcntl.LOCK_EX))

    def test_two_checks_share_it(self):
        inside = threading.Event()

        def second_check():
            with gpu_lock(exclusive=False):
                inside.set()

        with gpu_lock(exclusive=False):
            t = started(second_check)
            self.assertTrue(inside.wait(5), "a second check waited for the first")
        t.join()

    def test_exclusive_waits_for_shared(self):
        entered = threading.Event()

        def timed_run():
            with gpu_lock(exclusive=True):
                entered.set()

        with gpu_lock(exclusive=False):
            t = started(timed_run)
            self.assertFalse(entered.wait(0.3), "the exclusive hold began while a shared one was held")
        self.assertTrue(entered.wait(10), "the exclusive hold never began")
        t.join()

    def test_a_waiting_timed_run_goes_first(self):
        order = []
        hold = self.holder(order)
        with gpu_lock(exclusive=False):
            timed = started(hold, True, "timed")
            for _ in range(200):  # until it waits in the queue
                with open(self.path + ".queue") as q:
                    try:
                        fcntl.flock(q, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        break
                time.sleep(0.01)
            check = started(hold, False, "check")
            time.sleep(0.1)
            self.assertEqual(order, [], "the check went ahead of the waiting timed run")
        timed.join()
        check.join()
        self.assertEqual(order, ["timed", "check"])

    def test_timed_runs_go_in_a_batch(self):
        order, holding = [], threading.Event()
        hold = self.holder(order, holding)
        first = started(hold, True, "timed 1", 0.5)
        holding.wait(5)
        check = started(hold, False, "check")
        time.sleep(0.15)
        second = started(hold, True, "timed 2")
        for t in (first, check, second):
            t.join()
        self.assertEqual(order, ["timed 1", "timed 2", "check"],
                         "a timed run asked for during another waited for a check asked for before it")

    def test_a_check_past_the_patience_holds_up_no_other_check(self):
        os.environ["MEMLAB_GPU_PATIENCE"] = "0.2"
        order, long_holds = [], threading.Event()
        hold = self.holder(order, long_holds)
        long_check = started(hold, False, "long check", 1.2)
        long_holds.wait(5)
        timed = started(hold, True, "timed")
        time.sleep(0.5)  # the timed run has waited past its patience
        hold(False, "other check")
        long_check.join()
        timed.join()
        self.assertEqual(order, ["other check", "long check", "timed"])
        self.assertEqual(os.listdir(self.path + ".holders"), [], "a check left its file")

    def test_a_crashed_checks_file_holds_up_nobody(self):
        os.environ["MEMLAB_GPU_PATIENCE"] = "0.1"
        os.makedirs(self.path + ".holders")
        open(os.path.join(self.path + ".holders", "1.1"), "w").close()  # what a killed check leaves
        order, holding = [], threading.Event()
        hold = self.holder(order, holding)
        check = started(hold, False, "check", 0.4)
        holding.wait(5)
        t0 = time.monotonic()
        hold(True, "timed")
        check.join()
        self.assertEqual(order, ["check", "timed"])
        self.assertLess(time.monotonic() - t0, 2)

    def test_the_program_never_has_the_lock_file(self):
        with gpu_lock(exclusive=True):
            fds = subprocess.run(["sh", "-c", "ls -l /proc/$$/fd"], capture_output=True, text=True,
                                 close_fds=False).stdout
        self.assertNotIn(self.path, fds)

    def test_holds_logged(self):
        log = self.path + ".log"
        before = time.time()
        with mock.patch.dict(os.environ, {"MEMLAB_GPU_LOCK_LOG": log}):
            with gpu_lock(exclusive=True, label="lab1 --only copy_strided"):
                time.sleep(0.05)
        with open(log) as f:
            mode, waited, held, at, label = f.read().rstrip("\n").split(" ", 4)
        self.assertEqual((mode, label), ("exclusive", "lab1 --only copy_strided"))
        self.assertGreaterEqual(float(waited), 0)
        self.assertGreaterEqual(float(held), 0.05)
        self.assertTrue(before - 0.001 <= float(at) <= before + 1, f"the hold began at {at}, asked at {before}")

    def test_no_lock_without_the_variable(self):
        del os.environ["MEMLAB_GPU_LOCK"]
        with gpu_lock(exclusive=True):
            self.assertTrue(self.can_lock(fcntl.LOCK_EX))


class CommandLine(LockFile):
    """gpu_lock.py shared|exclusive COMMAND, as tests/jobs.sh runs it."""

    def start(self, how, script, before=""):
        """gpu_lock.py HOW sh -c SCRIPT, started; `held` (a file) appears once it holds the lock
        (and the command has run BEFORE)."""
        return subprocess.Popen([sys.executable, GPU_LOCK_PY, how, "sh", "-c",
                                 f"{before}touch {self.dir}/held; {script}"])

    def test_holds_the_lock_while_the_command_runs(self):
        for how, held in (("exclusive", self.held_alone), ("shared", self.held_shared)):
            with self.subTest(how):
                p = self.start(how, f"sleep 0.3; touch {self.dir}/ran")
                wait_for(os.path.join(self.dir, "held"))
                self.assertTrue(held())
                self.assertEqual(p.wait(10), 0)
                self.assertTrue(os.path.exists(os.path.join(self.dir, "ran")))
                self.assertTrue(self.can_lock(fcntl.LOCK_EX), "the lock outlived the command")
                os.remove(os.path.join(self.dir, "held"))

    def test_exit_status_and_output_are_the_commands(self):
        def run(*command):
            return subprocess.run([sys.executable, GPU_LOCK_PY, "shared", *command], capture_output=True, text=True)
        p = run("sh", "-c", "echo out; echo err >&2; exit 3")
        self.assertEqual((p.returncode, p.stdout, p.stderr), (3, "out\n", "err\n"))
        self.assertEqual(run("sh", "-c", "kill -TERM $$").returncode, 128 + signal.SIGTERM)
        p = run(os.path.join(self.dir, "no-such-program"))
        self.assertEqual(p.returncode, 127)
        self.assertIn("no-such-program", p.stderr)
        self.assertEqual(run().returncode, 2)

    def test_a_stopped_holder_stops_its_command_and_waits_for_it(self):
        p = self.start("exclusive", "while :; do sleep 0.05; done",
                       before=f"trap 'sleep 0.4; touch {self.dir}/ended; exit 5' TERM; ")
        wait_for(os.path.join(self.dir, "held"))
        p.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        self.assertTrue(self.held_alone(), "the lock went before its command ended")
        self.assertEqual(p.wait(10), 5)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "ended")))
        self.assertTrue(self.can_lock(fcntl.LOCK_EX))

    def test_a_killed_holder_lets_go_at_once(self):
        pid_file = os.path.join(self.dir, "pid")
        p = self.start("exclusive", f"echo $$ >{pid_file}.new; mv {pid_file}.new {pid_file}; exec sleep 30")
        wait_for(pid_file)
        with open(pid_file) as f:
            pid = f.read()
        self.addCleanup(os.kill, int(pid), signal.SIGKILL)
        self.assertTrue(self.held_alone())
        p.kill()
        p.wait(10)
        self.assertTrue(self.can_lock(fcntl.LOCK_EX), "a killed holder's lock outlived it")

    def test_without_the_variable_the_command_just_runs(self):
        del os.environ["MEMLAB_GPU_LOCK"]
        p = subprocess.run([sys.executable, GPU_LOCK_PY, "exclusive", "sh", "-c", "exit 4"])
        self.assertEqual(p.returncode, 4)
        self.assertFalse(os.path.exists(self.path + ".queue"))

    def test_the_log_names_the_command_on_one_line(self):
        log = self.path + ".log"
        os.environ["MEMLAB_GPU_LOCK_LOG"] = log
        subprocess.run([sys.executable, GPU_LOCK_PY, "exclusive", "sleep", "0.2"], check=True)
        subprocess.run([sys.executable, GPU_LOCK_PY, "shared", "sh", "-c", "\ntrue"], check=True)
        with open(log) as f:
            lines = [line.split(" ", 4) for line in f.read().splitlines()]
        self.assertEqual([(line[0], line[4]) for line in lines],
                         [("exclusive", "sleep 0.2"), ("shared", "sh -c  true")])
        self.assertGreaterEqual(float(lines[0][2]), 0.2)

    def test_jobs_sh_holds_this_lock(self):
        """tests/jobs.sh's gpu_exclusive and gpu_shared are this command line, on this lock."""
        for how, held in (("gpu_exclusive", self.held_alone), ("gpu_shared", self.held_shared)):
            with self.subTest(how):
                p = subprocess.Popen(["bash", "-c", f'. tests/jobs.sh; {how} sh -c "touch {self.dir}/held; sleep 0.3"'],
                                     cwd=CHECKOUT)
                wait_for(os.path.join(self.dir, "held"))
                self.assertTrue(held())
                self.assertEqual(p.wait(10), 0)
                os.remove(os.path.join(self.dir, "held"))

    def test_a_timed_run_waits_for_the_graders_check(self):
        """Either side's holds exclude the other's: here the grader's check and a test's timed run."""
        with gpu_lock(exclusive=False):
            p = self.start("exclusive", "true")
            time.sleep(0.3)
            self.assertFalse(os.path.exists(os.path.join(self.dir, "held")))
        self.assertEqual(p.wait(10), 0)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "held")))


if __name__ == "__main__":
    unittest.main()
