"""report.py - what the grader writes: a text report for the student, Gradescope's
results.json, and the class gradebook (CSV: student, total, one column per test).

Report lines follow xv6's gradelib: "name: OK (10/10)", "name: FAIL (0/15)" with the
output indented below, "name: SKIP (0/10, ...)", then "Score: a/b".
"""
import csv
import json

WORDS = {"pass": "OK", "partial": "PARTIAL", "fail": "FAIL", "skip": "SKIP"}


def fmt(x):
    return f"{x:g}"


def summary(rubric, results):
    total = sum(r.score for r in results)
    skipped = sum(r.verdict == "skip" for r in results)
    line = f"Score: {fmt(round(total, 2))}/{fmt(rubric.max_score)}"
    if skipped:
        points = sum(r.max_score for r in results if r.verdict == "skip")
        line += (f" ({skipped} test(s) skipped and not graded: {fmt(points)}"
                 " points need a GPU run; this is not a final grade)")
    return total, line


def text_report(rubric, session, submission, results):
    total, score_line = summary(rubric, results)
    out = [f"lab {rubric.lab}: {submission}",
           f"gpu: {session.gpu_name or ('yes' if session.has_gpu else 'none: GPU tests are skipped')}"
           f" | arch: {session.arch} | {session.sandbox.describe()}"]
    if not rubric.private_path:
        out.append("no private grading data here: random seeds and the public sizes")
    elif session.private_exposed():
        out.append("WARNING: the sandbox user can read grading/private/: chmod 700 grading/private")
    out.append("")
    for r in results:
        out.append(f"{r.name}: {WORDS[r.verdict]} ({fmt(r.score)}/{fmt(r.max_score)})")
        out += ["    " + line for line in r.output.splitlines() if line.strip()]
    out += [f"REVIEW: {r.name}: {r.review}" for r in results if r.review]
    out += ["", score_line]
    return "\n".join(out) + "\n"


def results_json(rubric, session, results):
    """Gradescope's format: score, output, tests[name, score, max_score, output, status]."""
    total, score_line = summary(rubric, results)
    tests = []
    for r in results:
        entry = {"name": r.name, "score": r.score, "max_score": r.max_score,
                 "output": r.output + (f"\nREVIEW: {r.review}" if r.review else ""),
                 "extra_data": {"kind": r.kind, "verdict": r.verdict, "review": r.review, "ratio": r.ratio}}
        if r.verdict != "skip":  # Gradescope knows passed and failed only
            entry["status"] = "passed" if r.verdict == "pass" else "failed"
        tests.append(entry)
    data = {"score": round(total, 2), "output": score_line, "tests": tests,
            "extra_data": {"lab": rubric.lab, "gpu": session.gpu_name, "arch": session.arch,
                           "skipped": sum(r.verdict == "skip" for r in results),
                           "review": [f"{r.name}: {r.review}" for r in results if r.review]}}
    clock = getattr(session, "stopwatch", None)
    if clock:  # for the instructor (Gradescope shows students no extra_data): a program's time is its to choose
        data["extra_data"]["seconds"] = clock.summary()
    return data


def write_json(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")


def total(scores):
    """The points of {test name: score, or None where the test was skipped}."""
    return round(sum(s for s in scores.values() if s is not None), 2)


def write_gradebook(path, rubric, rows):
    """rows: [(student, {test name: score, None where skipped}, [review notes])]; a student
    whose grading failed has {}. A skipped test (a GPU test graded without a GPU) reads `skip`,
    not 0, which would pass for a failure; the total counts the points graded. The last column
    names what an instructor should look at."""
    names = [t.name for t in rubric.tests]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student", "total"] + names + ["review"])
        for student, scores, review in rows:
            w.writerow([student, fmt(total(scores))] +
                       ["skip" if n in scores and scores[n] is None else fmt(scores.get(n, 0)) for n in names] +
                       ["; ".join(review)])
