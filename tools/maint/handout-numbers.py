#!/usr/bin/env python3
"""handout-numbers.py [--write] [CLAIMS] - recompute the numbers a handout quotes from its reference files.

CLAIMS (default handouts/numbers.txt) has one claim a line:
    LAB :: EXPRESSION :: FORMATS :: TEXT
TEXT is a piece of handouts/labLAB-*.md (LAB `N key`: of solutions/labN-*/answers.md, the
answer key) with each number it claims written {}; EXPRESSION
(Python) computes those numbers from the files in handouts/reference/labLAB/, one value or a
tuple of values, and FORMATS gives each its format spec (`.1f`, `,.0f`, `+.1f`, ...), separated
by spaces; fixed-point specs round half up. A claim holds when TEXT, its {} filled with the
values as formatted, appears in the handout (whitespace and line breaks collapsed, so a claim
may span lines of the handout).
Lines that start with # and blank lines are comments.

What EXPRESSION may use (FILE is a name in the lab's reference folder):
    v(FILE, COLUMN, **match)     the one row of a CSV whose fields equal match: its COLUMN
    vals(FILE, COLUMN, **match)  that COLUMN of every matching row, in order
    rows(FILE, **match)          the matching rows themselves (dicts), for comprehensions
    gbps(FILE, **match)          the one matching row's bytes / ms_median, in GB/s: the figure
                                 the CSV's gbps column rounds to two decimals
    meta(FILE, KEY)              a value of the CSV's comment header (`# key: value | ...`)
    grab(FILE, REGEX)            the first group of the first match in any text file, a number
    grabs(FILE, REGEX)           the first group of every match, numbers
    ncu(FILE, METRIC, KERNEL)    Nsight Compute's --csv rows in a text file: METRIC of every
                                 launch whose kernel name starts with KERNEL, in order
    plateaus(FILE, COLUMN, **match)  the median COLUMN of each plateau of a staircase (the
                                 matching rows in file order), cut where lab 4's edges.c
                                 finds an edge: what lab 4's summary prints
and min, max, sum, len, abs, round, zip, range, sorted, set, median. Numeric fields are floats; empty fields None.
Prints each claim that does not hold (what the files give, what the handout says nearby) and
a summary; exit 1 if one fails. --write (after a reference run): put the files' numbers into
the handout where the claim's words appear exactly once with the numbers that the committed
reference files (git HEAD) give, or else exactly once with any numbers or placeholders (`<>`,
`<...>`, `[pending]`, `[[...]]`) in their places (a claim ending in `|` must end its line there).
"""
import csv
import decimal
import glob
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def number(text):
    try:
        return float(text)
    except ValueError:
        return None if text == "" else text


class Lab:
    def __init__(self, n, revision=None):
        self.folder = os.path.join(ROOT, "handouts", "reference", f"lab{n}")
        self.revision = revision  # read the files as committed there (git), not as they are
        self.cache = {}

    def text(self, name):
        if self.revision:
            path = os.path.relpath(self.path(name), ROOT)
            return subprocess.run(["git", "-C", ROOT, "show", f"{self.revision}:{path}"], check=True,
                                  capture_output=True, text=True).stdout
        with open(self.path(name), encoding="utf-8") as f:
            return f.read()

    def path(self, name):
        return os.path.join(self.folder, name)

    def table(self, name):
        if name not in self.cache:
            lines = self.text(name).splitlines()
            header = [line for line in lines if line.startswith("#")]
            body = [line for line in lines if not line.startswith("#")]
            rows = list(csv.DictReader(body))
            self.cache[name] = (header, rows)
        return self.cache[name]

    def rows(self, name, match):
        _, rows = self.table(name)
        want = {k: str(v) for k, v in match.items()}
        return [r for r in rows if all(r.get(k) == x for k, x in want.items())]

    def v(self, name, column, **match):
        found = self.rows(name, match)
        if len(found) != 1:
            raise ValueError(f"{name}: {len(found)} rows match {match}, not one")
        return number(found[0][column])

    def gbps(self, name, **match):
        return self.v(name, "bytes", **match) / self.v(name, "ms_median", **match) / 1e6

    def matching(self, name, **match):
        return [{k: number(x) for k, x in r.items()} for r in self.rows(name, match)]

    def vals(self, name, column, **match):
        return [number(r[column]) for r in self.rows(name, match)]

    def meta(self, name, key):
        header, _ = self.table(name)
        for line in header:
            for part in line.lstrip("# ").split(" | "):
                k, _, value = part.partition(": ")
                if k.strip() == key:
                    return number(value.strip())
        raise ValueError(f"{name}: no '{key}' in the header")

    def grabs(self, name, regex):
        text = self.text(name)
        return [number(m.group(1).replace(",", "")) for m in re.finditer(regex, text, re.MULTILINE)]

    def ncu(self, name, metric, kernel):
        lines = [line for line in self.text(name).splitlines() if line.startswith('"')]
        found, header = [], None
        for row in csv.reader(lines):
            if row[0] == "ID":
                header = row
            elif header:
                r = dict(zip(header, row))
                if r["Metric Name"] == metric and r["Kernel Name"].startswith(kernel):
                    found.append(number(r["Metric Value"].replace(",", "")))
        return found

    def plateaus(self, name, column, **match):
        # lab 4's driver/edges.c, find_edge: a step is a point (and the next) STEP_RISE above
        # the plateau's first; the plateau ends before the run of ONSET_RISE rises that leads
        # there, and the next one starts where that run stops.
        step_rise, onset_rise = 1.25, 1.03
        ys = self.vals(name, column, **match)

        def above_step(start, k):
            return ys[k] > step_rise * ys[start] and (k + 1 == len(ys) or ys[k + 1] > step_rise * ys[start])

        medians, start = [], 0
        while True:
            for k in range(start + 1, len(ys)):
                if not above_step(start, k):
                    continue
                last, top = k - 1, k
                while last > start and ys[last] > onset_rise * ys[last - 1]:
                    last -= 1
                while top + 1 < len(ys) and ys[top + 1] > onset_rise * ys[top]:
                    top += 1
                if ys[top] > step_rise * ys[last]:
                    medians.append(statistics.median(ys[start:last + 1]))
                    start = top
                    break
            else:
                return medians + [statistics.median(ys[start:])]

    def grab(self, name, regex):
        found = self.grabs(name, regex)
        if not found:
            raise ValueError(f"{name}: nothing matches {regex}")
        return found[0]


def formatted(value, spec):
    """value as spec says; a fixed-point spec rounds half up from the value as a CSV writes it
    (2557.25 -> 2557.3), as a reader of the file rounds, not half to even."""
    fixed = re.fullmatch(r"([+,]*)\.(\d+)f", spec)
    if fixed and isinstance(value, float):
        exact = decimal.Decimal(repr(value)).quantize(decimal.Decimal(1).scaleb(-int(fixed.group(2))),
                                                      rounding=decimal.ROUND_HALF_UP)
        return format(exact, spec)
    return format(value, spec)


def handout_text(document):
    n, _, key = document.partition(" ")
    pattern = ("solutions", f"lab{n}-*", "answers.md") if key == "key" else ("handouts", f"lab{n}-*.md")
    paths = glob.glob(os.path.join(ROOT, *pattern))
    if len(paths) != 1:
        raise ValueError(f"no single {'answer key' if key else 'handout'} for lab {n}")
    with open(paths[0], encoding="utf-8") as f:
        return " ".join(f.read().split()), os.path.relpath(paths[0], ROOT)


PLACE = r"(?:[-+]?[0-9][0-9.,]*%?|<[^<>\n]*>|\[pending\]|\[\[[^\]\n]*\]\])"


def rewrite(handout, text, values, places):
    """Put values into the one place of handout (a path) that reads like text with `places`
    (regular expressions, one per {}) in their places; False where there is none or more."""

    def literal(part):  # the words of a piece of text, any whitespace between them
        words = part.split()
        if not words:
            return r"\s+" if part else ""
        lead = r"\s+" if part[0].isspace() else ""
        trail = r"\s+" if part[-1].isspace() else ""
        return lead + r"\s+".join(re.escape(word) for word in words) + trail

    parts = text.strip().split("{}")
    pattern = literal(parts[0]) + "".join(f"({place})" + literal(part) for place, part in zip(places, parts[1:]))
    if text.rstrip().endswith("|"):
        pattern += r"[ \t]*$"
    with open(handout, encoding="utf-8") as f:
        body = f.read()
    found = list(re.finditer(pattern, body, re.MULTILINE))
    if len(found) != 1:
        return False
    m, new = found[0], ""
    last = m.start()
    for k, value in enumerate(values):
        new += body[last : m.start(k + 1)] + value
        last = m.end(k + 1)
    body = body[: m.start()] + new + body[last:]
    with open(handout, "w", encoding="utf-8") as f:
        f.write(body)
    return True


def evaluate(lab, expression):
    names = {"v": lab.v, "vals": lab.vals, "rows": lab.matching, "meta": lab.meta, "grab": lab.grab}
    names.update(grabs=lab.grabs, ncu=lab.ncu, plateaus=lab.plateaus, gbps=lab.gbps, median=statistics.median)
    names.update((f.__name__, f) for f in (min, max, sum, len, abs, round, zip, range, sorted, set))
    values = eval(expression, {"__builtins__": {}, **names})  # the kit's own claims file
    return values if isinstance(values, tuple) else (values,)


def committed_values(lab, expression, specs):
    """The claim's numbers from lab's files as committed (a Lab of git HEAD), formatted; None
    where they cannot be computed (a file or a row that is new)."""
    try:
        return [formatted(x, s) for x, s in zip(evaluate(lab, expression), specs)]
    except Exception:  # noqa: BLE001 (no committed figure to find: fall back to any number)
        return None


def main(argv):
    write = "--write" in argv
    argv = [a for a in argv if a != "--write"]
    claims = argv[1] if len(argv) > 1 else os.path.join(ROOT, "handouts", "numbers.txt")
    labs, handouts, failed, held = {}, {}, 0, 0
    committed = {}  # a Lab of git HEAD per lab, for --write: each file read from git once
    with open(claims, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for number_of_line, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{os.path.relpath(claims, ROOT)}:{number_of_line}"
        try:
            n, expression, formats, text = [part.strip() for part in line.split(" :: ", 3)]
            lab = labs.setdefault(n.split()[0], Lab(n.split()[0]))
            if n not in handouts:
                handouts[n] = handout_text(n)
            values = evaluate(lab, expression)
            specs = formats.split()
            if len(specs) != len(values) or text.count("{}") != len(values):
                raise ValueError(f"{len(values)} values, {len(specs)} formats, {text.count('{}')} places in the text")
            claim = text.replace("{}", "\0").replace("{", "{{").replace("}", "}}").replace("\0", "{}")
            claim = " ".join(claim.format(*(formatted(x, s) for x, s in zip(values, specs))).split())
        except Exception as e:  # noqa: BLE001 (a claim that cannot be computed fails, whatever the error)
            print(f"{where}: cannot compute: {e}")
            failed += 1
            continue
        body, handout = handouts[n]
        if claim in body:
            held += 1
            continue
        shown = [formatted(x, s) for x, s in zip(values, specs)]
        number = n.split()[0]
        was = committed_values(committed.setdefault(number, Lab(number, "HEAD")), expression, specs) if write else None
        path = os.path.join(ROOT, handout)
        if write and ((was and rewrite(path, text, shown, [re.escape(x) for x in was]))
                      or rewrite(path, text, shown, [PLACE] * len(shown))):
            handouts[n] = handout_text(n)
            print(f"{where}: {handout} now says: {claim}")
            held += 1
            continue
        failed += 1
        head = text.split("{}")[0].strip()
        near = body.find(" ".join(head.split())) if head else -1
        said = body[near : near + len(claim) + 40] if near >= 0 else "(its words are not in the handout either)"
        print(f"{where}: {handout} should say: {claim}\n    it says: {said}")
    print(f"handout numbers: {held} claims hold, {failed} do not ({os.path.relpath(claims, ROOT)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
