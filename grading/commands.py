"""commands.py - what grading/grade and grading/grade-all share: their options, the
session set-up (rubric + trusted build) and writing one student's reports."""
import argparse
import os
import sys

import grader
import report
from rubric import Rubric, RubricError


def options(argv, many=False):
    p = argparse.ArgumentParser(prog=os.path.basename(sys.argv[0]), description="grade lab submissions")
    p.add_argument("lab", type=int)
    p.add_argument("submission", help="a folder of submissions" if many else "kernels.cu or a folder")
    p.add_argument("--out", help="where the report(s) go")
    p.add_argument("--no-gpu", action="store_true", help="grade as if there were no GPU")
    p.add_argument("--work", default=os.path.join(grader.CHECKOUT, "build-grading"),
                   help="where the trusted reference build lives (reused between runs)")
    p.add_argument("--arch", help="GPU architecture to build for (default: the GPU's, or the rubric's)")
    p.add_argument("--rubric", help="another rubric file (default grading/rubrics/labN.ini)")
    p.add_argument("--private", help="another private data file (default grading/private/labN.ini)")
    if not many:
        p.add_argument("--keep", action="store_true", help="keep the scratch folder (debugging)")
        p.add_argument("--gpu-results", metavar="FILE",
                       help="GPU tests graded on the cluster (make gradescope GPU_RESULTS=...): they take "
                            "the place of skipped ones where the submission is the very file graded there")
        # grade-all's finding: can the sandbox user open the GPU (Session.probe_gpu)
        p.add_argument("--sandbox-gpu", choices=("ok", "no"), help=argparse.SUPPRESS)
        return p.parse_args(argv)
    p.add_argument("--resume", action="store_true",
                   help="grade only the submissions without a results.json (failed, timed out, preempted)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="grade N submissions at once (local grading; timed runs still have the GPU alone)")
    s = p.add_argument_group("Slurm (grading/README.md: the cluster workflow)")
    s.add_argument("--slurm", action="store_true", help="one job array, a task per submission, then wait")
    s.add_argument("--partition", help="sbatch --partition")
    s.add_argument("--account", help="sbatch --account")
    s.add_argument("--gres", help="sbatch --gres for each task (default gpu:1, none with --no-gpu)")
    s.add_argument("--time", type=int, metavar="MINUTES",
                   help="each task's time limit (default: the grader's own limit for a student, plus 2)")
    s.add_argument("--parallel", type=int, metavar="N", help="at most N tasks at once (sbatch --array=...%%N)")
    s.add_argument("--sbatch", action="append", default=[], metavar="OPTION",
                   help="another sbatch option, as --sbatch=--qos=class (repeatable)")
    p.add_argument("--task", type=int, help=argparse.SUPPRESS)  # one array task (grading/slurm.py)
    return p.parse_args(argv)


def unreadable(path):
    """Why grading cannot read the submission PATH (a kernels.cu or a folder), or None. A path
    that is not there is a typing error, not a student's 0: the caller stops (exit 2) and
    writes no report. A folder that holds no kernels.cu is still graded (a report that says
    so: Gradescope's run_autograder needs one)."""
    if not os.path.lexists(path):
        return f"{path}: no such file or folder"
    if not os.path.exists(path):
        return f"{path}: a link to nothing"
    if os.path.isdir(path):
        if not os.access(path, os.R_OK | os.X_OK):
            return f"{path}: cannot read this folder (permissions)"
    elif not os.path.isfile(path):
        return f"{path}: neither a file nor a folder"
    elif not os.access(path, os.R_OK):
        return f"{path}: cannot read this file (permissions)"
    return None


def load_rubric(args):
    """The rubric, or exit 2 with one line."""
    try:
        return Rubric(args.lab, args.rubric, args.private)
    except (RubricError, ValueError, KeyError) as e:
        sys.exit(print(f"grade: {e}", file=sys.stderr) or 2)


def open_session(args):
    """The rubric and a prepared session, or exit 2/3 with one line."""
    rubric = load_rubric(args)
    session = grader.Session(rubric, args.work, use_gpu=not args.no_gpu, arch=args.arch)
    if not session.cuobjdump:  # the static test reads the device code with it: never grade without
        sys.exit(print("grade: cuobjdump not found (on the PATH, beside nvcc, or from "
                       "`python3 -m pip install nvidia-cuda-cuobjdump`): the static test needs it",
                       file=sys.stderr) or 3)
    if args.out:  # the reports and gradebook: out of the programs' sight too
        session.sandbox.hide(args.out)
    ok, log = session.prepare(getattr(args, "sandbox_gpu", None))  # grading/grade's option only
    if not ok:
        print(log[-3000:], file=sys.stderr)
        sys.exit(print(f"grade: the kit's own lab {args.lab} does not build (see above)", file=sys.stderr) or 3)
    return rubric, session


def write_reports(rubric, session, submission, results, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    text = report.text_report(rubric, session, submission, results)
    with open(os.path.join(out_dir, "report.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    data = report.results_json(rubric, session, results)
    data["extra_data"]["sha256"] = grader.submission_sha256(submission, rubric.lab)
    report.write_json(os.path.join(out_dir, "results.json"), data)
    return text
