#!/usr/bin/env python3
"""slurm-overhead.py - what grading a class as a Slurm job array costs beyond the grading
itself, measured on a single-node cluster that tools/maint/local-slurm.sh starts (root, Debian's
slurm-wlm and munge), in CPU mode (--no-gpu: static and compile tests), and the projection
for a course. Writes REPORT (grading/slurm-overhead.txt holds the committed one).

    python3 tools/maint/slurm-overhead.py REPORT [--lab 1] [--copies 5]

The class is lab LAB's fixture class (tests/fixtures/grading/labN) repeated COPIES times.
It is graded locally (one student after another) and with --slurm at one task at a time
and at one task per CPU. Each task logs how long its grading took (grade-all --task), so
the overhead of a run is its wall time less the grading time spread over its slots:
    overhead = wall - (sum of the tasks' grading times) / slots
and per task, overhead * slots / tasks; against the local run, (wall * slots - local wall) /
tasks, which also counts a task's grading being slower inside Slurm (and, with more than one
slot, the tasks' compiles sharing the CPUs). A probe array of 5-second sleeps at one task at a
time gives Slurm's gap between one task's end and the next one's start for long tasks.
"""
import argparse
import glob
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUDENTS, STUDENT_MINUTES, GPUS = 300, (1, 3), (2, 8)  # a course of 300 and its H100 figure


def sh(command, **kw):
    return subprocess.run(command, cwd=CHECKOUT, check=True, capture_output=True, text=True, **kw).stdout


def make_class(lab, copies, folder):
    fixtures = os.path.join(CHECKOUT, "tests", "fixtures", "grading", f"lab{lab}")
    labs = {"": glob.glob(os.path.join(CHECKOUT, "solutions", f"lab{lab}-*", "kernels.cu"))[0],
            ".student": glob.glob(os.path.join(CHECKOUT, "labs", f"lab{lab}-*", "kernels.cu"))[0]}
    for fx in sorted(glob.glob(os.path.join(fixtures, "*.sed"))):
        name = os.path.basename(fx)[:-4]
        flavour = ".student" if name.endswith(".student") else ""
        text = sh(["sed", "-f", fx, labs[flavour]])
        for c in range(copies):
            with open(os.path.join(folder, f"{name[:len(name) - len(flavour)]}-{c}.cu"), "w") as f:
                f.write(text)
    return len(os.listdir(folder))


def timed(command, env):
    start = time.time()
    subprocess.run(command, cwd=CHECKOUT, check=True, stdout=subprocess.DEVNULL, env=env)
    return start, time.time()


def tasks(out):
    """[(start, end)] of each task of a --slurm run, from its log: 'graded in X s' at the end."""
    spans = []
    for log in glob.glob(os.path.join(out, "slurm", "*.log")):
        with open(log) as f:
            m = re.search(r"graded in ([\d.]+) s", f.read())
        end = os.stat(log).st_mtime
        spans.append((end - float(m.group(1)), end))
    return sorted(spans)


def slurm_run(lab, folder, out, slots, local, env):
    start, end = timed(["grading/grade-all", str(lab), folder, "--no-gpu", "--slurm", "--out", out,
                        "--parallel", str(slots)], env)
    spans = tasks(out)
    busy = sum(e - s for s, e in spans)
    overhead = (end - start) - busy / slots
    return {"slots": slots, "wall": end - start, "busy": busy, "overhead": overhead,
            "per_task": overhead * slots / len(spans), "tasks": len(spans),
            "vs_local": ((end - start) * slots - local) / len(spans),
            "to_first": spans[0][0] - start, "after_last": end - max(e for _, e in spans)}


def probe(env, folder):
    """Gaps between the end of one 5-s task and the start of the next, one task at a time."""
    os.makedirs(folder)
    job = sh(["sbatch", "--parsable", "--array=0-9%1", f"--output={folder}/%a.log", "--wrap",
              "date +%s.%N; sleep 5; date +%s.%N"], env=env).strip()
    while sh(["squeue", "-h", "-j", job], env=env).strip():
        time.sleep(1)
    spans = []
    for i in range(10):
        with open(os.path.join(folder, f"{i}.log")) as f:
            spans.append(tuple(float(x) for x in f.read().split()))
    return [b[0] - a[1] for a, b in zip(spans, spans[1:])]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("report")
    p.add_argument("--lab", type=int, default=1)
    p.add_argument("--copies", type=int, default=5)
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="slurm-overhead-")
    cluster = os.path.join(work, "cluster")
    env = dict(os.environ, SLURM_CONF=os.path.join(cluster, "slurm.conf"))
    try:
        sh(["sh", "tools/maint/local-slurm.sh", "start", cluster])
        folder = os.path.join(work, "class")
        os.makedirs(folder)
        n = make_class(args.lab, args.copies, folder)
        cpus = os.cpu_count()
        command = ["grading/grade-all", str(args.lab), folder, "--no-gpu"]
        timed(command + ["--out", os.path.join(work, "warm")], env)  # the trusted build, and warm caches
        start, end = timed(command + ["--out", os.path.join(work, "local")], env)
        local = end - start
        runs = [slurm_run(args.lab, folder, os.path.join(work, f"slurm{s}"), s, local, env)
                for s in sorted({1, cpus})]
        same = all(subprocess.run(["cmp", "-s", os.path.join(work, "local", "gradebook.csv"),
                                   os.path.join(work, f"slurm{r['slots']}", "gradebook.csv")]).returncode == 0
                   for r in runs)
        gaps = probe(env, os.path.join(work, "probe"))
        report(args, n, cpus, local, runs, gaps, same)
    finally:
        subprocess.run(["sh", "tools/maint/local-slurm.sh", "stop", cluster], cwd=CHECKOUT)
        shutil.rmtree(work, ignore_errors=True)


def report(args, n, cpus, local, runs, gaps, same):
    lines = [
        "# grade-all --slurm: the job array's overhead, measured by tools/maint/slurm-overhead.py on a",
        "# single-node Slurm cluster (tools/maint/local-slurm.sh) in CPU mode (--no-gpu), and the projection",
        "# for a course. Every number below is as measured in this one run; re-running replaces the file.",
        "",
        f"date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}"
        f" | git: {sh(['git', 'describe', '--always', '--dirty']).strip()}",
        f"machine: {platform.node()}, {cpus} CPUs ({cpu_model()}), {platform.system()} {platform.release()}",
        f"slurm: {sh(['slurmctld', '-V']).strip()} | nvcc: {sh(['nvcc', '--version']).strip().splitlines()[-1]}",
        f"class: lab {args.lab}'s fixture class x {args.copies} = {n} submissions; grading a student in CPU mode "
        f"is its static checks and one compile",
        "",
        f"local (grade-all, one after another): {local:.1f} s, {local / n:.2f} s a student",
    ]
    for r in runs:
        lines.append(f"slurm, {r['slots']} task(s) at a time: {r['wall']:.1f} s wall; the tasks' grading "
                     f"{r['busy']:.1f} s in all ({r['busy'] / r['tasks']:.2f} s a task); overhead "
                     f"{r['overhead']:.1f} s = {100 * r['overhead'] / (r['busy'] / r['slots']):.0f}% of the "
                     f"grading time, {r['per_task']:.2f} slot-seconds a task ({r['vs_local']:.2f} against the local "
                     f"run: (wall * slots - local) / tasks); submit to first task {r['to_first']:.1f} s, last task "
                     f"to gradebook {r['after_last']:.1f} s")
    lines += [f"gradebooks of the slurm runs equal the local one: {'yes' if same else 'NO'}",
              f"probe, 10 tasks of 'sleep 5' one at a time: gap from one task's end to the next one's start "
              f"{statistics.mean(gaps):.2f} s mean, {min(gaps):.2f}-{max(gaps):.2f} s", ""]
    per_task = max(max(max(r["per_task"], r["vs_local"]) for r in runs), statistics.mean(gaps))
    fixed = max(r["to_first"] + r["after_last"] for r in runs)
    lines += [f"# Projection: {STUDENTS} students, one task per GPU. A student takes {STUDENT_MINUTES[0]}-"
              f"{STUDENT_MINUTES[1]} minutes on the H100 (a course's figure, not measured here); each task adds the",
              f"# largest overhead per task measured above ({per_task:.2f} s) and the run the largest fixed part "
              f"({fixed:.1f} s: submission to the first task, the last task to the gradebook).",
              "# With G GPUs: wall = ceil(students / G) * (minutes + overhead per task) + fixed part."]
    for g in GPUS:
        rounds = math.ceil(STUDENTS / g)
        for minutes in STUDENT_MINUTES:
            grading = rounds * minutes * 60
            extra = rounds * per_task + fixed
            lines.append(f"{g} GPUs, {minutes} min a student: {rounds} rounds, {(grading + extra) / 3600:.2f} h "
                         f"wall, of which overhead {extra / 60:.1f} min = "
                         f"{100 * extra / grading:.2f}% of the grading time")
    text = "\n".join(lines) + "\n"
    with open(args.report, "w") as f:
        f.write(text)
    print(text, end="")


def cpu_model():
    with open("/proc/cpuinfo") as f:
        m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
    return m.group(1) if m else "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
