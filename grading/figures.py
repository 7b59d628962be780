"""figures.py - the class figures that grade-all draws beside gradebook.csv for the
instructor's report, as PNG and PDF, each by grading/plots/NAME.gp (house style,
plots/style.gp) from NAME.csv, kept beside it:

  class-scores   how the students' totals are spread
  class-speed    for each speed test, each student's time against the reference solution's
                 (the ratio the credit bands read), with the test's full- and no-credit ratios
  class-correct  for each correctness test, the share of the graded students that passed

Students whose grading did not finish are left out (the titles count them). Tests skipped
for want of a GPU have no ratio and no verdict, so those two figures wait for a GPU run; one
line says so, and one line says how to draw them later where gnuplot is missing.
"""
import collections
import csv
import os
import shutil
import statistics
import subprocess

import grader

NAMES = ("class-scores", "class-speed", "class-correct")


def write_csv(path, header, columns, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.writelines(f"# {key}: {value}\n" for key, value in header.items())
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        w.writerows(rows)


def tables(rubric, students):
    """{figure: (header, columns, rows)} for the figures that have data."""
    done = [(name, data) for name, data in students if data]
    if not done:
        return {}
    gpus = collections.Counter(d.get("extra_data", {}).get("gpu") for _, d in done)
    gpus.pop(None, None)
    header = {"lab": rubric.lab, "gpu": gpus.most_common(1)[0][0] if gpus else "none",
              "students": len(done), "not_graded": len(students) - len(done)}
    verdicts = [{t["name"]: t.get("extra_data", {}) for t in d["tests"]} for _, d in done]
    skipped = max(sum(t.points for t in rubric.tests if v.get(t.name, {}).get("verdict") == "skip")
                  for v in verdicts)
    out = {"class-scores": (dict(header, max_score=f"{rubric.max_score:g}", skipped_points=f"{skipped:g}",
                                 median=f"{statistics.median(d['score'] for _, d in done):g}"),
                            ["student", "total"], [(name, d["score"]) for name, d in done])}
    speed = [t for t in rubric.tests if t.kind == "performance"]
    rows = []
    for i, t in enumerate(speed):
        ratios = [(name, v[t.name]["ratio"]) for (name, _), v in zip(done, verdicts)
                  if v.get(t.name, {}).get("ratio") is not None]
        # spread a test's points across its column (golden-ratio steps), so that equal ratios show
        rows += [(t.name, i, i + ((k * 0.618) % 1 - 0.5) * 0.6, name, ratio, t.bands[0][0], t.bands[-1][0])
                 for k, (name, ratio) in enumerate(ratios)]
    if rows:
        out["class-speed"] = (dict(header, tests=len(speed),
                                   xtics=", ".join(f'"{t.name}" {i}' for i, t in enumerate(speed))),
                              ["test", "index", "x", "student", "ratio", "full_credit", "no_credit"], rows)
    rows = []
    for t in (t for t in rubric.tests if t.kind == "correctness"):
        graded = [v[t.name]["verdict"] for v in verdicts if v.get(t.name, {}).get("verdict", "skip") != "skip"]
        if graded:
            passed = graded.count("pass")
            rows.append((t.name, len(rows), passed, len(graded), round(100 * passed / len(graded), 1)))
    if rows:
        out["class-correct"] = (header, ["test", "index", "passed", "graded", "pass_rate"], rows)
    return out


def draw(out_root, rubric, students):
    """students: [(name, results.json data, or None where the grading did not finish)]."""
    data = tables(rubric, students)
    for name in NAMES:  # a figure from an earlier run must not outlive its data
        for ext in ("csv", "png", "pdf"):
            if name not in data and os.path.exists(os.path.join(out_root, f"{name}.{ext}")):
                os.remove(os.path.join(out_root, f"{name}.{ext}"))
    if not data:
        return print("class figures: none, no student was graded")
    for name, table in data.items():
        write_csv(os.path.join(out_root, name + ".csv"), *table)
    gnuplot = os.environ.get("GNUPLOT", "gnuplot")
    if not shutil.which(gnuplot):
        return print(f"class figures: gnuplot not found; their data is in {out_root}/class-*.csv "
                     "(install gnuplot, then run grade-all again with --resume to draw them)")
    drawn = []
    for name in data:
        path = os.path.join(out_root, name)
        p = subprocess.run([gnuplot, "-e", f"csv='{path}.csv'; out='{path}'; formats='both'",
                            os.path.join(grader.GRADING_DIR, "plots", name + ".gp")],
                           cwd=grader.CHECKOUT, capture_output=True, text=True)
        if p.stderr.strip():
            print(f"class figure {name}: gnuplot: {p.stderr.strip()[-500:]}")
        if p.returncode == 0:
            drawn.append(name)
    missing = [n for n in NAMES if n not in data]
    names = drawn[0] if len(drawn) == 1 else "{" + ",".join(drawn) + "}"
    print(f"class figures: {out_root}/{names}.{{png,pdf}}" +
          (f" ({', '.join(missing)}: no data until the GPU tests are run)" if missing else ""))
