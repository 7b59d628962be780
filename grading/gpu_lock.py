#!/usr/bin/env python3
"""gpu_lock.py - the GPU lock: a timed run has the GPU to itself, checks share it.

    python3 grading/gpu_lock.py shared|exclusive COMMAND [ARG...]   (tests/jobs.sh: gpu_shared,
                                                                     gpu_exclusive)
    with gpu_lock(exclusive, label): ...                            (grader.py, around each run)

The lock is the file that MEMLAB_GPU_LOCK names (tests/run.sh sets one, grade-all --jobs makes
one); where it is unset, nothing is locked and COMMAND just runs. Readers share the GPU: checks
(--check runs, sanitizer runs). A writer has it alone: a timed run (no --check, ncu).

The protocol, flock(2) on PATH and on files beside it:
  - a timed run registers on PATH.queue (shared) from its request to its end, and takes PATH
    exclusive; a new check first takes PATH.queue exclusive for a moment, so it waits while
    any timed run is registered: a waiting timed run is not overtaken by a stream of checks,
    and the timed runs asked for meanwhile go one after another before the checks;
  - a check takes PATH shared, and holds a file of its own in PATH.holders/ while it runs;
  - a timed run that waited MEMLAB_GPU_PATIENCE seconds (default 2) steps out of the queue and
    waits for the checks that hold those files to end, then queues again: a check that holds
    the GPU far longer (an endless loop until its time limit) holds up no other check.
A flock belongs to an open file, so a holder's lock ends with it, crashed or not; a crashed
check leaves its file in PATH.holders/ unlocked, which nobody waits on. The files are opened
close-on-exec: the program run never holds them (a student's program could release them).
The command-line form runs COMMAND as its child, passes it the signals that would stop it, and
lets go of the lock once it has ended; its exit status is COMMAND's (128 + N for signal N).

MEMLAB_GPU_LOCK_LOG=FILE: each hold adds a line "MODE WAITED_S HELD_S AT LABEL" to FILE (MODE
shared or exclusive; AT when the hold began, in seconds since 1970; LABEL the command on one
line): where the GPU's time went, and when.
"""
import contextlib
import fcntl
import glob
import os
import signal
import subprocess
import sys
import time

POLL_S = 0.005  # how often a waiting timed run tries the lock


@contextlib.contextmanager
def gpu_lock(exclusive, label=""):
    """Hold the GPU lock while the block runs: alone where exclusive, else shared."""
    path = os.environ.get("MEMLAB_GPU_LOCK")
    if not path:
        yield
        return
    t0 = time.monotonic()
    holder = None
    with open(path + ".queue", "a") as queue, open(path, "a") as gpu:  # closing gpu releases the lock
        if exclusive:
            take_alone(queue, gpu, path + ".holders")
        else:
            fcntl.flock(queue, fcntl.LOCK_EX)  # no timed run waits
            fcntl.flock(queue, fcntl.LOCK_UN)
            fcntl.flock(gpu, fcntl.LOCK_SH)
            os.makedirs(path + ".holders", exist_ok=True)
            holder = open(os.path.join(path + ".holders", f"{os.getpid()}.{time.time_ns()}"), "w")
            fcntl.flock(holder, fcntl.LOCK_EX)
        t1, at = time.monotonic(), time.time()
        try:
            yield
        finally:
            if holder:
                with contextlib.suppress(OSError):
                    os.remove(holder.name)
                holder.close()
            log = os.environ.get("MEMLAB_GPU_LOCK_LOG")
            if log:
                mode = "exclusive" if exclusive else "shared"
                with open(log, "a") as out:
                    out.write(f"{mode} {t1 - t0:.3f} {time.monotonic() - t1:.3f} {at:.3f} {label}\n")


def take_alone(queue, gpu, holders):
    """The exclusive hold: registered on the queue while it waits (and holds); out of the queue
    while the checks that outlast the patience end (each one's file, shared)."""
    patience = float(os.environ.get("MEMLAB_GPU_PATIENCE", "2"))
    while True:
        fcntl.flock(queue, fcntl.LOCK_SH)
        give_up = time.monotonic() + patience
        while True:
            try:
                fcntl.flock(gpu, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > give_up:
                    break
                time.sleep(POLL_S)
        fcntl.flock(queue, fcntl.LOCK_UN)
        for name in glob.glob(os.path.join(holders, "*")):
            try:
                with open(name) as h:
                    fcntl.flock(h, fcntl.LOCK_SH)
            except OSError:
                pass  # that check has ended


def run_holding(exclusive, command):
    """COMMAND run while the lock is held; its exit status, as a shell gives it. A signal that
    would stop this process goes to COMMAND, and the lock waits for its end; one that comes
    before COMMAND has started is passed on as soon as it has."""
    child, stopped = None, []

    def pass_on(number, _frame):
        if child:
            child.send_signal(number)
        else:
            stopped.append(number)

    with gpu_lock(exclusive, " ".join(command).replace("\n", " ")):
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, pass_on)
        try:
            child = subprocess.Popen(command)
        except OSError as e:
            print(f"gpu_lock.py: {command[0]}: {e.strerror}", file=sys.stderr)
            return 127 if isinstance(e, FileNotFoundError) else 126
        if stopped:
            child.send_signal(stopped[0])
        rc = child.wait()
    return rc if rc >= 0 else 128 - rc


def main(argv):
    if len(argv) < 3 or argv[1] not in ("shared", "exclusive"):
        print("usage: gpu_lock.py shared|exclusive COMMAND [ARG...]", file=sys.stderr)
        return 2
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # stopped while it waits: no traceback
    return run_holding(argv[1] == "exclusive", argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
