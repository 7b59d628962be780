#!/usr/bin/env python3
"""gradescope.py - the Gradescope autograder bundle of one lab, and the merge of the GPU
results that the course's cluster graded into it (grading/README.md: the cluster workflow).

    python3 grading/gradescope.py LAB ZIP [--gpu-results GRADED_DIR]     (make gradescope LAB=N)

ZIP holds Gradescope's setup.sh and run_autograder (grading/gradescope/, for lab LAB) at its
root and the student copy of the kit (make dist: no solutions, no private grading data) in
kit/. Gradescope has no GPU: run_autograder grades the static, compile and resource tests and
reports the GPU tests as skipped with 0 points, never passed. With --gpu-results, GRADED_DIR
is a grade-all output of the same lab graded on the GPU cluster (its STUDENT/results.json
files); ZIP then carries their GPU tests in gpu-results.json, keyed by the SHA-256 of the
kernels.cu each graded, and run_autograder puts them in place of the skipped ones for a
submission whose file is that very file. Re-uploading the bundle and regrading every
submission brings the GPU points into Gradescope's gradebook.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile

sys.dont_write_bytecode = True
import grader  # noqa: E402
from rubric import Rubric, RubricError  # noqa: E402

TEMPLATES = os.path.join(grader.GRADING_DIR, "gradescope")


def gpu_results(graded_dir, lab):
    """{"lab": LAB, "submissions": {sha256: {"gpu": name, "tests": {test: {score, verdict,
    output, review, ratio}}}}} from a grade-all output: the GPU tests that were graded."""
    out = {}
    for path in sorted(glob.glob(os.path.join(graded_dir, "*", "results.json"))):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        extra = data.get("extra_data", {})
        tests = {}
        for t in data["tests"]:
            x = t["extra_data"]
            if x["kind"] in grader.GPU_KINDS and x["verdict"] != "skip":
                tests[t["name"]] = {"score": t["score"], "verdict": x["verdict"], "review": x["review"],
                                    "ratio": x.get("ratio"), "output": t["output"].split("\nREVIEW: ")[0]}
        if extra.get("lab") == lab and extra.get("sha256") and tests:
            out.setdefault(extra["sha256"], {"gpu": extra.get("gpu"), "tests": tests})
    return {"lab": lab, "submissions": out}


def merge(results, path, sha256):
    """Put the cluster's GPU tests (a gpu-results.json) in place of the skipped ones of these
    results [TestResult], if the cluster graded this very file; else say so in the skipped."""
    with open(path, encoding="utf-8") as f:
        graded = json.load(f)["submissions"].get(sha256)
    for r in results:
        if r.kind not in grader.GPU_KINDS or r.verdict != "skip":
            continue
        t = graded and graded["tests"].get(r.name)
        if not t:
            r.output += (f"\nthe course's GPU cluster has not graded this file (sha256 {str(sha256)[:12]}...): "
                         "a file submitted after its run waits for the next one")
            continue
        r.score, r.verdict, r.review, r.ratio = t["score"], t["verdict"], t["review"], t["ratio"]
        r.output = f"graded on the course's GPU cluster ({graded['gpu']}):\n{t['output']}"


def build(lab, zip_path, graded_dir=None):
    Rubric(lab)  # a lab without a rubric has nothing to grade
    with tempfile.TemporaryDirectory() as stage:
        tarball = os.path.join(stage, "gpu-memlab-student.tar.gz")  # unpacks as gpu-memlab-student/
        subprocess.run(["sh", "grading/make-dist.sh", tarball], cwd=grader.CHECKOUT, check=True,
                       stdout=subprocess.DEVNULL)
        with tarfile.open(tarball) as t:
            t.extractall(stage)
        kit = os.path.join(stage, "gpu-memlab-student")
        os.makedirs(os.path.dirname(os.path.abspath(zip_path)), exist_ok=True)
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
            for name in ("setup.sh", "run_autograder"):
                with open(os.path.join(TEMPLATES, name), encoding="utf-8") as f:
                    info = zipfile.ZipInfo(name)
                    info.external_attr = 0o100755 << 16
                    z.writestr(info, f.read().replace("@LAB@", str(lab)))
            for folder, _, files in os.walk(kit):
                for name in sorted(files):
                    path = os.path.join(folder, name)
                    z.write(path, os.path.join("kit", os.path.relpath(path, kit)))
            note = ""
            if graded_dir:
                data = gpu_results(graded_dir, lab)
                z.writestr("gpu-results.json", json.dumps(data, indent=1) + "\n")
                note = f"; GPU results of {len(data['submissions'])} submissions from {graded_dir}"
    print(f"wrote {zip_path}: Gradescope's autograder for lab {lab}{note}")


def main():
    p = argparse.ArgumentParser(prog="make gradescope", description=__doc__.split("\n\n")[0])
    p.add_argument("lab", type=int)
    p.add_argument("zip")
    p.add_argument("--gpu-results", metavar="GRADED_DIR", help="a grade-all output of this lab, graded with a GPU")
    args = p.parse_args()
    if args.gpu_results and not os.path.isdir(args.gpu_results):
        sys.exit(print(f"gradescope: {args.gpu_results} is not a grade-all output folder", file=sys.stderr) or 2)
    try:
        build(args.lab, args.zip, args.gpu_results)
    except RubricError as e:
        sys.exit(print(f"gradescope: {e}", file=sys.stderr) or 2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
