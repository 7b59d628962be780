#!/usr/bin/env python3
"""solution-leaks.py [--allow FILE] COPY MASTER... - solution code in a student copy of the kit.

Every line inside a `//@begin solution` ... `//@end solution` region of the MASTERs
(solutions/labN-*/kernels.cu) is looked for in every text file under COPY (the tree that
`make dist` packs). Lines are compared with their whitespace collapsed and a trailing `;`
dropped. A solution line counts unless it is
  - a marker (//@todo and //@student lines are meant for the student file),
  - braces, parentheses or semicolons alone, a `return ...;` on one line, or a statement of
    one word (`break;`, `__syncthreads();`),
  - shorter than 12 characters,
  - also a line outside the solution regions of some master (code the kit gives anyway).
A counted line leaks where a line of a copied file is that line, or, for a line of 24
characters or more, where the prose of a copied file quotes it: the comments of a C or CUDA
file (a TODO that gives the statement to write) and every line of any other file (a handout).
--allow FILE: the solution lines that the copy ships on purpose, one a line, each followed by
"  # why"; a listed line that the copy no longer has is reported, so the list stays true.
Prints "FILE:LINE: solution line of MASTER:LINE: TEXT" a leak; exit 1 when there is one.
"""
import os
import re
import sys

MIN_LINE = 12
MIN_QUOTED = 24
TRIVIAL = re.compile(r"^([{}()\[\];,]+|return\b[^;]*|[A-Za-z_][A-Za-z_0-9]*(\(\))?|else|do)$")
SOURCE = (".c", ".h", ".cu", ".cuh")


def normal(line):
    text = " ".join(line.split())
    return text[:-1].rstrip() if text.endswith(";") else text


def regions(path):
    """The solution lines of one master, with their numbers, and its other lines."""
    inside, solution, given = False, [], set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            mark = line.strip()
            if mark == "//@begin solution":
                inside = True
            elif mark == "//@end solution":
                inside = False
            elif inside and not mark.startswith("//@"):
                solution.append((normal(line), number))
            elif not inside:
                given.add(normal(line))
    return solution, given


def prose(path, text):
    """The part of a normalised line that is prose: a C comment's text, or the whole line."""
    if not path.endswith(SOURCE):
        return text
    if text.startswith(("/*", "*")):
        return text
    at = text.find("//")
    return text[at:] if at >= 0 else ""


def read_allowed(path):
    allowed = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                text, _, why = line.partition("  # ")
                allowed[normal(text)] = why.strip()
    return allowed


def main(argv):
    allowed = {}
    if len(argv) > 2 and argv[1] == "--allow":
        allowed = read_allowed(argv[2])
        argv = argv[2:]
    if len(argv) < 3:
        print("usage: solution-leaks.py [--allow FILE] COPY MASTER...", file=sys.stderr)
        return 2
    copy, masters = argv[1], argv[2:]
    parsed = [(m, *regions(m)) for m in masters]
    given = set().union(*(g for _, _, g in parsed))
    wanted = {}
    for master, solution, _ in parsed:
        for text, number in solution:
            if len(text) >= MIN_LINE and not TRIVIAL.match(text) and text not in given:
                wanted.setdefault(text, f"{master}:{number}")
    quoted = [t for t in wanted if len(t) >= MIN_QUOTED]
    leaks, seen = 0, set()
    for root, dirs, files in os.walk(copy):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(files):
            path = os.path.join(root, name)
            try:
                with open(path, encoding="utf-8") as f:
                    lines = f.readlines()
            except (UnicodeDecodeError, OSError):
                continue  # a figure or an archive: no source lines in it
            for number, line in enumerate(lines, 1):
                text = normal(line)
                said = prose(path, text)
                found = [text] if text in wanted else []
                found += [q for q in quoted if said and q in said and q != text]
                for hit in found:
                    if hit in allowed:
                        seen.add(hit)
                        continue
                    print(f"{os.path.relpath(path, copy)}:{number}: solution line of {wanted[hit]}: {hit}")
                    leaks += 1
    for text in sorted(set(allowed) - seen):
        print(f"allowed line no longer in the copy (take it off the list): {text}")
        leaks += 1
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
