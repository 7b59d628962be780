"""evidence.py - what a run of a lab program proves, and what a report may show of it.

  Proof          the records a run wrote with --proof (common/proof.h): its verified points
                 and their digests, its timed points, the lockdown, its end
  run_failed     a run counts only when it exited 0 with its proof's end
  read_rows      the CSV rows a timed run wrote
  read_run_file  what a run leaves is read only when it is a regular file (no FIFO, no link)
  excerpt        a short, sanitised excerpt of a failed run's output: no hidden size or seed
"""
import collections
import csv
import glob
import os
import re
import stat

PROOF_FILE = "proof.txt"


def read_run_file(path, limit=16 << 20):
    """The text of a file a run left in its folder, or None: the program may have put a
    FIFO, a device or a link there, which the grader never follows or waits on; at most
    `limit` bytes (RLIMIT_FSIZE caps what the program writes, not what it links)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return f.read(limit).decode("utf-8", "replace")


class Proof:
    """The proof of work a run wrote (--proof, common/proof.h): `verified DIGEST LABEL` for each
    point the driver verified, `timed LABEL` for each timed point it accepted, and `end EXIT ..`
    once lab_finish ran, after `locked` (the process locked down before any variant ran). The
    student's code can write no file (its object may call no I/O) and a run that stops early
    has no end line; an exit status alone proves nothing."""

    def __init__(self, path):
        self.verified, self.timed, self.end, self.locked = [], [], None, False
        for line in (read_run_file(path) or "").splitlines():
            kind, _, rest = line.partition(" ")
            if kind == "verified":
                digest, _, label = rest.partition(" ")
                self.verified.append((label, digest))
            elif kind == "timed":
                self.timed.append(rest)
            elif line == "locked":
                self.locked = True
            elif kind == "end":
                code = rest.split()[:1]
                if code and code[0].lstrip("-").isdigit():
                    self.end = int(code[0])

    def complete(self, outcome):
        """Did the driver end the run, locked down (common/lockdown.h), with the exit status the
        program ended with?"""
        return (not outcome.timed_out and self.locked and self.end is not None
                and self.end == outcome.returncode)

    def of(self, variant):
        """The variant's verified points, in order: (label, digest)."""
        return [(label, digest) for label, digest in self.verified if re.search(names(variant), label)]


def run_failed(outcome):
    """A run failed unless it exited 0 with the driver's end record."""
    return outcome.returncode != 0 or not outcome.proof.complete(outcome)


def names(variant):
    """A pattern for the variant's name as a whole word: tiled_16 is not in tiled_16_unrolled."""
    return rf"\b{re.escape(variant)}\b"


def read_rows(csv_dir):
    """{(csv, variant, param, n, k): (status, ms_median)} from every CSV a run wrote; k counts
    the rows of one (variant, param, n) in a file (lab 2's curves share them), in order."""
    rows, seen = {}, collections.Counter()
    for path in sorted(glob.glob(os.path.join(csv_dir, "*.csv"))):
        lines = [line for line in (read_run_file(path) or "").splitlines(keepends=True) if not line.startswith("#")]
        for r in csv.DictReader(lines):
            try:
                ms = float(r["ms_median"]) if r.get("ms_median") else None
            except ValueError:
                ms = None
            key = (os.path.basename(path), r.get("variant"), r.get("param"), r.get("n"))
            rows[key + (seen[key],)] = (r.get("status"), ms)
            seen[key] += 1
    return rows


def secret_words(rubric):
    """The hidden seeds and sizes as a program may print them (decimal, and 2^K for a power of
    two): what no report may show."""
    words = {str(s) for s in rubric.seeds.values()}
    for size in rubric.check_sizes + rubric.recheck_sizes:
        if size.isdigit():
            words.add(size)
            n = int(size)
            if n > 1 and n & (n - 1) == 0:
                words.add(f"2^{n.bit_length() - 1}")
    return words


LONG_NUMBER = re.compile(r"\b0[xX][0-9a-fA-F]+\b|(?<![\w.])\d[\d',_ ]{2,}\d(?![\w])")


def sanitised(line, hidden, width=160):
    """A line of a program's output fit for a report: printable characters only, the hidden
    seeds and sizes (secret_words) as N, and, where a program printed anything after them,
    every hex value and every number of four or more digits as #: a kernel can spell a hidden
    size in an index, a hex word or spaced digits (a run at the lab's public sizes keeps its
    numbers: hidden is empty there)."""
    line = "".join(c if c.isprintable() else "?" for c in line)
    if hidden:
        line = LONG_NUMBER.sub("#", line)
    for word in sorted(hidden, key=len, reverse=True):
        line = re.sub(r"(?<![\w^])" + re.escape(word) + r"(?!\w)", "N", line)
    return line[:width] + (" ..." if len(line) > width else "")


VERDICT_LINE = re.compile(r"\b(?:WRONG|IMPLAUSIBLE|failed|error|modified|changed|has not finished)\b", re.I)


HIDDEN_OUTPUT = ("    | (what the program printed is not shown: a run with hidden sizes or seeds could spell "
                 "them in any words; run the lab program at its public sizes to see its messages)")


def excerpt(outcome, limit=8):
    """A short, sanitised excerpt of what a failed run printed (stderr first): its first lines
    that say what failed (WRONG, IMPLAUSIBLE, an error ...), and its first lines up to `limit`
    in all, in the order printed. Where the grading has hidden sizes or seeds (outcome.secrets),
    none of it: free text can carry them past any mask (letters for digits), so the report
    says only what the grader itself knows."""
    if getattr(outcome, "secrets", ()):
        return HIDDEN_OUTPUT
    text = (outcome.stderr.strip() or outcome.stdout.strip()).splitlines()
    verdicts = [i for i, line in enumerate(text) if VERDICT_LINE.search(line)][:limit // 2]
    shown = sorted(set(verdicts) | set(range(min(len(text), limit - len(verdicts)))))
    lines = [sanitised(text[i], getattr(outcome, "secrets", ())) for i in shown]
    if len(text) > len(shown):
        lines.append(f"... ({len(text) - len(shown)} more lines)")
    return "\n".join("    | " + line for line in lines)
