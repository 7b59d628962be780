"""stopwatch.py - where one grading's time goes: seconds and program runs per stage, and what
making the sandboxes took: grading/grade's `time:` line (stderr) and results.json's
extra_data, the instructor's (not report.txt: a run's time is the program's to choose).
"""
import time

# first and second checks: the correctness rounds before and after the timed runs.
STAGES = ("static checks", "build", "first checks", "sanitizer", "timed runs", "second checks")


class Stopwatch:
    """A lap timer: lap(stage) adds the time since the last lap (and the runs made since) to
    the stage; the time after the last lap (the reports) counts in the total only."""

    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.began = self.last = time.monotonic()
        self.sandbox_began = sandbox.overhead
        self.last_count = None
        self.seconds = {}
        self.runs = {}

    def lap(self, stage, runs=None):
        now = time.monotonic()
        self.seconds[stage] = self.seconds.get(stage, 0.0) + now - self.last
        self.last = now
        if runs:
            made = runs.count - (self.last_count or 0)
            self.runs[stage] = self.runs.get(stage, 0) + made
            self.last_count = runs.count

    def summary(self):
        """{stage: seconds}, with 'sandboxes' (making and removing them, all runs) and 'total'."""
        out = {stage: round(self.seconds[stage], 2) for stage in STAGES if stage in self.seconds}
        out["sandboxes"] = round(self.sandbox.overhead - self.sandbox_began, 2)
        out["total"] = round(time.monotonic() - self.began, 2)
        return out

    def line(self):
        """`8.7 s: static checks 1.0 s, build 1.6 s, first checks 2.1 s (5 runs), ...`."""
        parts = []
        for stage in STAGES:
            if stage in self.seconds:
                runs = self.runs.get(stage)
                count = f" ({runs} run{'s' * (runs != 1)})" if runs else ""
                parts.append(f"{stage} {self.seconds[stage]:.1f} s{count}")
        made = self.sandbox.overhead - self.sandbox_began
        return (f"{time.monotonic() - self.began:.1f} s: " + ", ".join(parts)
                + (f"; making the sandboxes {made:.1f} s of it" if made >= 0.05 else ""))
