#!/usr/bin/env python3
"""compare-runs.py A B - how far the medians of run B are from run A's, per experiment.

    tools/maint/compare-runs.py handouts/reference/lab1 results/lab1   (a re-run against the reference)
    tools/maint/compare-runs.py results/lab1-unguarded results/lab1    (what the timing guard costs)

A and B are folders of a lab's CSVs (or two CSV files). Rows are matched by (variant, param,
n), and by their order where several rows share them; for each experiment the line gives the
rows compared, the median and the largest |B/A - 1| of ms_median, and the row of the largest;
rows that are not ok in either run are counted apart, and so are rows that were not timed
(ms_median 0: lab 9's counters.csv, one profiled launch a point). Exit 0 always: it
measures, it does not judge.
"""
import csv
import glob
import os
import statistics
import sys


def rows(path):
    """{(variant, param, n, k): row}; k numbers the rows that share (variant, param, n), in
    order (lab 5's arms run one kernel several ways)."""
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    out, seen = {}, {}
    for r in csv.DictReader(lines):
        key = (r["variant"], r["param"], r["n"])
        seen[key] = seen.get(key, 0) + 1
        out[key + ((f"#{seen[key]}",) if seen[key] > 1 else ())] = r
    return out


def csvs(path):
    if os.path.isfile(path):
        return {os.path.basename(path): path}
    return {os.path.basename(p): p for p in sorted(glob.glob(os.path.join(path, "*.csv")))}


def main():
    if len(sys.argv) != 3:
        sys.exit(print(__doc__.split("\n\n")[1], file=sys.stderr) or 2)
    a, b = csvs(sys.argv[1]), csvs(sys.argv[2])
    for name in sorted(set(a) & set(b)):
        ra, rb = rows(a[name]), rows(b[name])
        diffs, skipped, untimed = [], 0, 0
        for key in sorted(set(ra) & set(rb)):
            x, y = ra[key], rb[key]
            if x["status"] != "ok" or y["status"] != "ok":
                skipped += 1
                continue
            if float(x["ms_median"]) <= 0 or float(y["ms_median"]) <= 0:
                untimed += 1
                continue
            diffs.append((float(y["ms_median"]) / float(x["ms_median"]) - 1, key))
        if not diffs:
            print(f"{name}: no row timed and ok in both runs ({skipped} not ok, {untimed} not timed)")
            continue
        worst = max(diffs, key=lambda d: abs(d[0]))
        print(f"{name}: {len(diffs)} rows, median |B/A - 1| {100 * statistics.median(abs(d) for d, _ in diffs):.2f}%, "
              f"median B/A - 1 {100 * statistics.median(d for d, _ in diffs):+.2f}%, "
              f"largest {100 * worst[0]:+.2f}% ({' '.join(worst[1])})" + (f", {skipped} not ok" if skipped else "")
              + (f", {untimed} not timed" if untimed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
