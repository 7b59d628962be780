"""sanitizer.py - races and memory errors count: the submission's variants under
compute-sanitizer (racecheck, synccheck, memcheck), once per tool over the variants that
passed, each alone only where a tool finds an error.
"""
import os
import re

import object_check
from evidence import excerpt, run_failed, sanitised


SANITIZER_EXIT = 86  # compute-sanitizer's exit status when its tool found an error


def find_sanitizer():
    """compute-sanitizer: $COMPUTE_SANITIZER, else the toolkit's (object_check.toolkit_program)."""
    path = os.environ.get("COMPUTE_SANITIZER")
    if path and os.access(path, os.X_OK):
        return os.path.abspath(path)
    return object_check.toolkit_program("compute-sanitizer")


def grade_sanitizer(session, runs, seed, passed, shared_memory=True):
    """Races and memory errors count: each of the rubric's compute-sanitizer tools (racecheck,
    synccheck, memcheck; racecheck only where the submission's device code uses shared
    memory) runs the lab's small --check once over every variant that passed; a run with an
    error (or that fails) sends each of those variants to a run of its own under that tool,
    and a variant with an error fails its correctness test with the tool's first line.
    Returns `passed` with those verdicts."""
    rubric = session.rubric
    out = dict(passed)
    variants = [v for v, (ok, _) in passed.items() if ok]
    for tool in rubric.sanitize_tools:
        if tool == "racecheck" and not shared_memory:
            continue
        variants = [v for v in variants if out[v][0]]
        if not variants:
            break
        shared = sanitize_run(session, runs, tool, variants, seed)
        if not run_failed(shared):
            continue
        for v in variants:
            alone = shared if len(variants) == 1 else sanitize_run(session, runs, tool, [v], seed)
            if run_failed(alone):
                text = out[v][1]
                out[v] = (False, (text + "\n" if text else "") + f"compute-sanitizer --tool {tool} (small size): "
                          + sanitizer_finding(alone))
    return out


def sanitize_run(session, runs, tool, variants, seed):
    rubric = session.rubric
    args = rubric.sanitize_args + ["--only", ",".join(variants), "--seed", str(seed)]
    command = (session.sanitizer, "--tool", tool, "--error-exitcode", str(SANITIZER_EXIT), "--print-limit", "5")
    return runs.run(runs.binary, args, rubric.sanitize_timeout, tool=command)[0]


def sanitizer_finding(outcome):
    """The tool's first line about an error, sanitised; else how the run ended."""
    skip = re.compile(r"COMPUTE-SANITIZER|SUMMARY|^\s*$|^\s+at |Saved host backtrace|^\s+Host Frame")
    for line in (outcome.stdout + "\n" + outcome.stderr).splitlines():
        if line.startswith("========= ") and not skip.search(line[10:]):
            line = re.sub(r"\S*/kernels\.cu", "kernels.cu", line[10:].strip())
            return sanitised(line, getattr(outcome, "secrets", ()))
    how = "found an error" if outcome.returncode == SANITIZER_EXIT else outcome.describe()
    return f"{how}\n{excerpt(outcome)}"
