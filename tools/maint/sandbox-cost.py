#!/usr/bin/env python3
"""sandbox-cost.py - what grading/sandbox.py adds to a run: the median wall time of N runs of
a program (default /bin/true) through Sandbox.run, beside the same runs the old way (setpriv
to nobody as root, in a process group, rlimits and capped output files), interleaved.

    python3 tools/maint/sandbox-cost.py [N] [PROGRAM ARGS...]
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(CHECKOUT, "grading"))
import sandbox  # noqa: E402


def old_way(argv, cwd):
    def limits():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 30, 1 << 30))
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--no-new-privs"]
    wrapper = nobody if os.geteuid() == 0 else []
    start = time.monotonic()
    with open(cwd + ".stdout", "w+b") as out, open(cwd + ".stderr", "w+b") as err:
        subprocess.Popen(wrapper + argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                         start_new_session=True, preexec_fn=limits, env={"PATH": "/usr/bin:/bin"}).wait()
    return time.monotonic() - start


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    argv = sys.argv[2:] or ["/bin/true"]
    box = sandbox.Sandbox(1 << 30)
    if box.check():
        sys.exit(f"no sandbox here: {box.problem}")
    scratch = tempfile.mkdtemp(prefix="memlab-sandbox-cost-")
    os.chmod(scratch, 0o755)
    old, new = [], []
    for i in range(n):
        old.append(old_way(argv, box.workdir(scratch, f"old{i}")))
        cwd = box.workdir(scratch, f"new{i}")
        start = time.monotonic()
        outcome = box.run(argv, cwd, 60)
        new.append(time.monotonic() - start)
        if outcome.returncode != 0:
            sys.exit(f"{' '.join(argv)} in the sandbox: {outcome.describe()}\n{outcome.stderr[-2000:]}")
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"{' '.join(argv)}, {n} runs each, {os.cpu_count()} cores, load {load}: old way median "
          f"{statistics.median(old) * 1000:.1f} ms, sandbox median {statistics.median(new) * 1000:.1f} ms "
          f"(min {min(new) * 1000:.1f}, max {max(new) * 1000:.1f}): "
          f"{(statistics.median(new) - statistics.median(old)) * 1000:.1f} ms more a run")
    subprocess.run(["rm", "-rf", scratch])


if __name__ == "__main__":
    main()
