"""sandbox.py - running a student's program (or the reference) under limits.

Each run is its own process group with a wall-clock limit (the whole group is killed when
it is over), a clean environment, no core files, a cap on the size of files it writes, and
a working folder of its own. When the grader runs as root, the program runs as an
unprivileged user (nobody) through setpriv or runuser, so it cannot read grading/private/
(the session makes that folder mode 700) or write the gradebook.
"""
import os
import pwd
import resource
import shutil
import signal
import subprocess
import time

# What a CUDA program needs from the grader's environment, nothing else (and how many cores
# its host checks may use, and whether their idle threads spin: OpenMP).
KEPT_VARIABLES = ("CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "NVIDIA_VISIBLE_DEVICES",
                  "NVIDIA_DRIVER_CAPABILITIES", "OMP_NUM_THREADS", "OMP_WAIT_POLICY")


class Outcome:
    def __init__(self, returncode, stdout, stderr, seconds, timed_out):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.timed_out = timed_out

    def describe(self):
        """One phrase: how the run ended."""
        if self.timed_out:
            return f"timed out after {self.seconds:.0f} s (a hang or an endless loop?)"
        if self.returncode < 0:
            try:
                name = signal.Signals(-self.returncode).name
            except ValueError:
                name = f"signal {-self.returncode}"
            return f"crashed ({name})"
        return {0: "passed", 1: "wrong results (exit 1)", 2: "refused its arguments (exit 2)",
                3: "CUDA error or fault (exit 3)"}.get(self.returncode, f"exit {self.returncode}")


class Sandbox:
    def __init__(self, file_size_bytes):
        self.file_size_bytes = file_size_bytes
        self.user = None
        self.wrapper = []
        self.warning = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("nobody")
            except KeyError:
                self.user = None
            if self.user and shutil.which("setpriv"):
                self.wrapper = ["setpriv", f"--reuid={self.user.pw_uid}",
                                f"--regid={self.user.pw_gid}", "--clear-groups", "--no-new-privs"]
            elif self.user and shutil.which("runuser"):
                self.wrapper = ["runuser", "-u", self.user.pw_name, "--"]
            else:
                self.user = None

    def give_up_user(self, why):
        self.wrapper = []
        self.user = None
        self.warning = why

    def describe(self):
        if self.warning:
            return f"WARNING: {self.warning}: student programs run as the grading user"
        if self.wrapper:
            return f"student programs run as '{self.user.pw_name}' ({self.wrapper[0]})"
        if os.geteuid() == 0:
            return "WARNING: running as root without setpriv/runuser or a 'nobody' user: " \
                   "student programs run as root"
        return f"student programs run as the grading user (uid {os.geteuid()}), not root"

    def workdir(self, parent, name):
        """A fresh folder the program may write: owned by the sandbox user."""
        path = os.path.join(parent, name)
        os.makedirs(path, mode=0o700)
        if self.user:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)
        return path

    def allow_reading(self, *paths):
        """Let the sandbox user pass through these folders and read and run these files."""
        for path in paths:
            mode = os.stat(path).st_mode
            os.chmod(path, mode | (0o011 if os.path.isdir(path) else 0o055))

    def run(self, argv, cwd, timeout):
        env = {"PATH": "/usr/bin:/bin", "HOME": cwd, "TMPDIR": cwd, "LANG": "C", "LC_ALL": "C",
               "CUDA_CACHE_PATH": os.path.join(cwd, ".nv")}
        env.update({k: os.environ[k] for k in KEPT_VARIABLES if k in os.environ})
        limit = self.file_size_bytes

        def limits():
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        # Output goes to files (capped by RLIMIT_FSIZE), never into the grader's memory.
        with open(cwd + ".stdout", "w+b") as out, open(cwd + ".stderr", "w+b") as err:
            start = time.monotonic()
            proc = subprocess.Popen(self.wrapper + list(argv), cwd=cwd, env=env,
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    start_new_session=True, preexec_fn=limits)
            timed_out = False
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            seconds = time.monotonic() - start
            return Outcome(proc.returncode, tail(out), tail(err), seconds, timed_out)


def tail(f, limit=1 << 20):
    """The last `limit` bytes that a run wrote, as text; where it wrote more, from the first
    whole line on, after a line that says so (one that names no variant: grader.suspects)."""
    size = f.seek(0, os.SEEK_END)
    f.seek(max(0, size - limit))
    data = f.read()
    if size > limit:
        data = data.split(b"\n", 1)[-1]
        data = f"[the first {size - len(data)} bytes left out]\n".encode() + data
    return data.decode("utf-8", "replace")
