"""sanitizer.py - races and memory errors count: the submission's variants under
compute-sanitizer (racecheck, synccheck, memcheck), the tools side by side over the variants
that passed, watching the submission's own kernels only; a variant alone only where a tool
finds an error.
"""
import os
import re

import object_check
from evidence import excerpt, run_failed, sanitised

SANITIZER_EXIT = 86  # compute-sanitizer's exit status when its tool found an error
AT_ONCE = 8  # sanitizer processes side by side on the GPU, at most
WATCH_LIMIT = 32 << 10  # characters of kernel names the tools' filters may take (an argument: 128 KiB)


def find_sanitizer():
    """compute-sanitizer: $COMPUTE_SANITIZER, else the toolkit's (object_check.toolkit_program)."""
    path = os.environ.get("COMPUTE_SANITIZER")
    if path and os.access(path, os.X_OK):
        return os.path.abspath(path)
    return object_check.toolkit_program("compute-sanitizer")


def grade_sanitizer(session, runs, seed, passed, functions):
    """Races and memory errors count: each of the rubric's compute-sanitizer tools (racecheck,
    synccheck, memcheck) runs the lab's small --check once over every variant that passed, the
    tools side by side (checks share the GPU). `functions` ({mangled name: uses shared memory},
    object_check.device_functions) are the kernels the tools watch: the harness's and the
    libraries' kernels run unwatched, at full speed. racecheck runs only where one of them uses
    shared memory. A tool's run with an error (or that fails) sends each of its variants to a
    run of its own under that tool, and a variant with an error fails its correctness test
    with the first tool's first line. Returns `passed` with those verdicts."""
    variants = [v for v, (ok, _) in passed.items() if ok]
    # Where no function could be read, every kernel is watched and racecheck runs: never fewer checks.
    tools = [t for t in session.rubric.sanitize_tools if t != "racecheck" or not functions or any(functions.values())]
    if not variants or not tools:
        return passed
    together = sanitize_runs(session, runs, [(tool, variants) for tool in tools], seed, functions)
    failed = [tool for tool, outcome in zip(tools, together) if run_failed(outcome)]
    alone = {(t, variants[0]): together[tools.index(t)] for t in failed} if len(variants) == 1 else {}
    jobs = [(tool, [v]) for tool in failed for v in variants if (tool, v) not in alone]
    for job, outcome in zip(jobs, sanitize_runs(session, runs, jobs, seed, functions)):
        alone[job[0], job[1][0]] = outcome
    out = dict(passed)
    for v in variants:
        tool = next((t for t in failed if run_failed(alone[t, v])), None)
        if tool:
            text = out[v][1]
            out[v] = (False, (text + "\n" if text else "") + f"compute-sanitizer --tool {tool} (small size): "
                      + sanitizer_finding(alone[tool, v]))
    return out


def sanitize_runs(session, runs, jobs, seed, functions):
    """[(tool, variants)] -> their outcomes: the lab's small --check of those variants under
    each tool, AT_ONCE runs at a time."""
    rubric = session.rubric
    # Names too long for a command line (a kernel may be given one): every kernel watched.
    fits = sum(len(name) for name in functions) < WATCH_LIMIT
    watched = [arg for name in sorted(functions) for arg in ("--kernel-name", f"kne={name}")] if fits else []
    started = []
    for tool, variants in jobs:
        command = (session.sanitizer, "--tool", tool, "--error-exitcode", str(SANITIZER_EXIT), "--print-limit", "5",
                   *watched)
        args = rubric.sanitize_args + ["--only", ",".join(variants), "--seed", str(seed)]
        started.append((runs.binary, args, rubric.sanitize_timeout, command))
    outcomes = []
    for k in range(0, len(started), AT_ONCE):
        outcomes += [outcome for outcome, _ in runs.together(started[k:k + AT_ONCE])]
    return outcomes


def sanitizer_finding(outcome):
    """The tool's first line about an error, sanitised; else how the run ended."""
    skip = re.compile(r"COMPUTE-SANITIZER|SUMMARY|^\s*$|^\s+at |Saved host backtrace|^\s+Host Frame")
    for line in (outcome.stdout + "\n" + outcome.stderr).splitlines():
        if line.startswith("========= ") and not skip.search(line[10:]):
            line = re.sub(r"\S*/kernels\.cu", "kernels.cu", line[10:].strip())
            if getattr(outcome, "secrets", ()):  # thread, block, address: a kernel picks them at run time
                line = re.sub(r"(?<!kernels\.cu:)\b(?:0x[0-9a-fA-F]+|\d+)\b", "#", line)
            return sanitised(line, getattr(outcome, "secrets", ()))
    how = "found an error" if outcome.returncode == SANITIZER_EXIT else outcome.describe()
    return f"{how}\n{excerpt(outcome)}"
