"""slurm.py - grade-all --slurm: a class graded as one Slurm job array, a task per submission.

grade-all lists the class's submissions in OUT/slurm/entries.json, submits OUT/slurm/job.sh
as an array of the indices to grade (all of them, or with --resume those without a
results.json) and waits, printing a progress line whenever it changes. Each task runs
`grade-all ... --task INDEX`, which grades that one submission as the local mode does:
grading/grade in a process of its own, the reference solution timed inside the task, on the
same node. Each task logs to OUT/slurm/JOB_INDEX.log. After the wait, grade-all makes the
gradebook from the reports as in the local mode; a task that ended without a report (failed,
timed out, preempted, cancelled, its node lost) is NOT GRADED with its Slurm state, and
--resume submits those again.
"""
import json
import os
import shlex
import subprocess
import sys
import time

FINAL = {"COMPLETED": "completed without a report", "FAILED": "failed", "TIMEOUT": "ran past its time limit",
         "PREEMPTED": "was preempted", "CANCELLED": "was cancelled", "NODE_FAIL": "lost its node",
         "OUT_OF_MEMORY": "ran out of memory", "BOOT_FAIL": "could not boot its node",
         "DEADLINE": "missed its deadline"}
POLL_S = 2  # squeue once every 2 s: a 300-student run of about an hour asks it under 2000 times


def folder(out_root):
    return os.path.join(out_root, "slurm")


def write_entries(out_root, entries):
    os.makedirs(folder(out_root), exist_ok=True)
    with open(os.path.join(folder(out_root), "entries.json"), "w", encoding="utf-8") as f:
        json.dump(entries, f, indent=0)


def task_entry(out_root, index):
    with open(os.path.join(folder(out_root), "entries.json"), encoding="utf-8") as f:
        return json.load(f)[index]


def array_spec(indices, parallel=None):
    """[0, 1, 2, 5, 7, 8] -> '0-2,5,7-8', with '%N' for at most N tasks at once."""
    runs = []
    for i in sorted(indices):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs) + (f"%{parallel}" if parallel else "")


def submit(args, indices, out_root, task_command, minutes):
    """Submit the job array; its job id, or exit 1 with sbatch's message."""
    script = os.path.join(folder(out_root), "job.sh")
    with open(script, "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\n# grade-all --slurm: one task grades one submission of entries.json\n"
                f'exec {shlex.join(task_command)} --task "$SLURM_ARRAY_TASK_ID"\n')
    gres = args.gres or (None if args.no_gpu else "gpu:1")
    command = ["sbatch", "--parsable", f"--array={array_spec(indices, args.parallel)}",
               f"--job-name=grade-lab{args.lab}", f"--output={folder(out_root)}/%A_%a.log", f"--time={minutes}"]
    command += [f"--{name}={value}" for name, value in
                (("partition", args.partition), ("account", args.account), ("gres", gres)) if value]
    command += args.sbatch + [script]
    print("$ " + shlex.join(command), flush=True)
    try:
        p = subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        sys.exit(print(f"grade-all: --slurm needs Slurm's sbatch and squeue: {e}", file=sys.stderr) or 1)
    if p.returncode != 0:
        sys.exit(print(f"grade-all: sbatch failed: {p.stderr.strip()}", file=sys.stderr) or 1)
    return p.stdout.strip().split(";")[0]


def wait(job, indices):
    """Poll squeue until no task of the job is queued or running, printing a progress line
    whenever it changes; {index: the last state seen}. A task squeue never lists (cancelled
    before it started) has none."""
    states, last, start = {}, None, time.monotonic()
    while True:
        p = subprocess.run(["squeue", "-h", "-r", "-t", "all", "-j", job, "-o", "%i %T %r"],
                           capture_output=True, text=True)
        if p.returncode != 0 and "Invalid job id" not in p.stderr:  # the controller is busy: ask again
            print(f"squeue: {p.stderr.strip()}", flush=True)
            time.sleep(10 * POLL_S)
            continue
        listed, reasons = set(), set()
        for line in p.stdout.splitlines():
            ident, state, reason = (line.split(None, 2) + ["", ""])[:3]
            index = ident.partition("_")[2]
            if index.isdigit():
                listed.add(int(index))
                states[int(index)] = state
                if state == "PENDING":
                    reasons.add(reason)
        active = [i for i in listed if states[i] not in FINAL]
        running = sum(states[i] == "RUNNING" for i in active)
        pending = sum(states[i] == "PENDING" for i in active)
        ended = [i for i in indices if i not in active]
        lost = sum(states.get(i) != "COMPLETED" for i in ended)
        line = (f"slurm job {job}: {len(ended)}/{len(indices)} done, {running} running, {pending} pending"
                + (f" ({', '.join(sorted(reasons))})" if reasons else "")
                + (f", {lost} ended without completing" if lost else ""))
        if line != last:
            elapsed = int(time.monotonic() - start)
            print(f"{line} [{elapsed // 60}m{elapsed % 60:02d}s]", flush=True)
            last = line
        if not active:
            return states
        time.sleep(POLL_S)


def problem(job, index, state, out_root):
    """Why task INDEX left no report, for its NOT GRADED line."""
    if state in (None, "PENDING"):  # squeue never listed it, or stopped listing it before it ran
        return f"Slurm task {job}_{index} never ran (cancelled before it started?)"
    log = os.path.join(folder(out_root), f"{job}_{index}.log")
    return f"Slurm task {job}_{index} {FINAL.get(state, 'left the queue unseen')} ({state}; log {log})"
