#!/usr/bin/env python3
"""sandbox.py - running a student's program (or the reference) as hostile code.

Every run gets namespaces of its own (util-linux unshare: PID, mount, network, IPC, UTS;
as an ordinary user a user namespace too) and, in them, a root of its own that
sandbox-init.sh builds: the system folders a CUDA program needs, read-only; a /dev of a few
nodes and every /dev/nvidia*; a fresh /proc and /sys; private /tmp and /dev/shm; the program,
read-only; the run's folder, the only writable place. The kit's checkout, the work and
results folders, /root, /home and the grader's HOME are out of sight. The program runs
with no privilege (as root: as nobody; otherwise: no capability in its user namespace,
none to regain) and no network (a loopback that is down). Where cgroup v2 is writable, the
run has a cgroup of its own (memory.max, pids.max) that is killed and removed when the run
is over; elsewhere RLIMIT_NPROC bounds its processes. When the run ends, however it ends,
its PID namespace dies whole: nothing it started outlives it.

Fails closed: Sandbox.check() makes one sandbox and checks it from inside (probe_lines);
where that fails it says why, and run() refuses to start anything (SandboxError).
The limits of before stay: wall clock, no core files, RLIMIT_FSIZE, a clean environment,
output to capped files.

    python3 grading/sandbox.py --selftest [PROGRAM ARGS...]

makes the sandbox, prints what it verified from inside, then runs PROGRAM ARGS in it.
"""
import ctypes
import grp
import os
import pwd
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

GRADING_DIR = os.path.dirname(os.path.abspath(__file__))
INIT = os.path.join(GRADING_DIR, "sandbox-init.sh")
# What a CUDA program needs from the grader's environment, nothing else (and how many cores
# its host checks may use, and whether their idle threads spin: OpenMP).
KEPT_VARIABLES = ("CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "NVIDIA_VISIBLE_DEVICES",
                  "NVIDIA_DRIVER_CAPABILITIES", "OMP_NUM_THREADS", "OMP_WAIT_POLICY")
TOOLS = ("unshare", "setpriv", "prlimit", "mount", "umount", "findmnt", "pivot_root", "sh")
TOOLS_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
PR_SET_PDEATHSIG = 1
SETUP_LIMIT = 60  # seconds to make a sandbox (tens of milliseconds where all is well)
_probed = {}  # one probe per configuration in a process: {key: problem or None}


class SandboxError(RuntimeError):
    """The sandbox could not be made for a run: a grading problem, never the program's."""


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
            return "ran past its time limit (a hang or an endless loop?)"
        if self.returncode < 0:
            try:
                name = signal.Signals(-self.returncode).name
            except ValueError:
                name = f"signal {-self.returncode}"
            return f"crashed ({name})"
        # an exit status the lab programs never use is not spelled out: a program could pick it
        return {0: "passed", 1: "wrong results (exit 1)", 2: "refused its arguments (exit 2)",
                3: "CUDA error or fault (exit 3)"}.get(self.returncode, "an exit status the lab programs never use")


def unescape(field):
    """A path as /proc/self/mounts writes it (\\040 for a space)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def cgroup2_places():
    """Where a run's cgroup may go, best first: a folder of ours at the top of each cgroup v2
    mount (outside this process's own cgroup, whose processes keep controllers from being
    enabled below it), then one inside this process's own cgroup (a delegated one)."""
    try:
        with open("/proc/self/mounts", encoding="utf-8") as f:
            mounts = [unescape(line.split()[1]) for line in f if line.split()[2:3] == ["cgroup2"]]
        with open("/proc/self/cgroup", encoding="utf-8") as f:
            own = next((line.strip()[3:] for line in f if line.startswith("0::")), None)
    except OSError:
        return []
    places = []
    for mount in mounts:
        places.append(os.path.join(mount, "memlab-sandbox"))
        if own and own != "/":
            places.append(os.path.join(mount + own, "memlab-sandbox"))
    return places


class Sandbox:
    """Runs of lab programs, each in a sandbox of its own. hidden: folders the program must
    not see (the checkout, the work folder, ...); tools_path: where unshare and the others
    are looked for (a test hides them to check that nothing then runs)."""

    def __init__(self, file_size_bytes, hidden=(), memory_bytes=None, max_pids=1024,
                 tools_path=TOOLS_PATH):
        self.file_size_bytes = file_size_bytes
        self.hidden = []
        for path in (GRADING_DIR, os.path.dirname(GRADING_DIR), os.path.expanduser("~"), "/root", "/home",
                     *hidden):
            self.hide(path)
        self.memory_bytes = memory_bytes or min(32 << 30, total_memory() // 2)
        self.max_pids = max_pids
        self.tools_path = tools_path
        self.tools = {t: shutil.which(t, path=tools_path) for t in TOOLS}
        self.privileged = os.geteuid() == 0
        self.user = None
        if self.privileged:
            try:
                self.user = pwd.getpwnam("nobody")
            except KeyError:
                pass
        self.cgroup_parent = None  # where the runs' cgroups go (check() finds it)
        self.cgroup_files = ()     # the limits they have there: memory.max, pids.max, cgroup.kill
        self.problem = None        # why no sandbox can be made here (check())
        self.checked = False
        self.count = 0
        self.overhead = 0.0        # seconds spent making and removing sandboxes, all runs together
        self.libc = ctypes.CDLL(None, use_errno=True)

    # -- what the grader asks -------------------------------------------------------------

    def hide(self, path):
        """Keep path (a folder) out of the program's sight too."""
        path = os.path.realpath(path)
        if path != "/" and path not in self.hidden:
            self.hidden.append(path)

    def hides(self, path):
        path = os.path.realpath(path)
        return any(path == h or path.startswith(h + "/") for h in self.hidden)

    def describe(self):
        if self.problem:
            return f"NO SANDBOX ({self.problem}): GPU tests are not graded"
        if not self.checked:
            return "sandbox: none made (no program has run)"
        who = (f"as '{self.user.pw_name}'" if self.privileged else
               f"as uid {os.geteuid()} mapped to root of a user namespace")
        return (f"sandbox: own PID, mount, network, IPC and UTS namespaces, a read-only root, "
                f"runs {who} without capabilities; {self.limits()}")

    def limits(self):
        """Which limits a run gets here, in words."""
        out = []
        if self.cgroup_parent:
            have = [f for f in ("memory.max", "pids.max") if f in self.cgroup_files]
            out.append(f"cgroup v2 under {self.cgroup_parent}"
                       + (f" ({', '.join(have)})" if have else " (no memory or pids controller there)")
                       + (", killed by cgroup.kill" if "cgroup.kill" in self.cgroup_files else ""))
        else:
            out.append("no cgroup (none writable)")
        if "memory.max" in self.cgroup_files:
            out.append(f"memory {self.memory_bytes >> 20} MiB")
        else:
            out.append("no memory limit")
        if "pids.max" in self.cgroup_files:
            out.append(f"{self.max_pids} tasks")
        else:
            out.append(f"RLIMIT_NPROC {self.nproc()}")
        return ", ".join(out)

    def nproc(self):
        """RLIMIT_NPROC where no cgroup counts the run's tasks: as root it counts every
        process of nobody (several runs at once), in a user namespace those of the run (set
        inside it: the user's processes outside count against the user's own limit)."""
        return self.max_pids * (4 if self.privileged else 1)

    def workdir(self, parent, name):
        """A fresh folder the program may write: owned by the sandbox user."""
        path = os.path.join(parent, name)
        os.makedirs(path, mode=0o700)
        if self.user:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)
        return path

    def allow_reading(self, *paths):
        """Let the sandbox user read and run these files (the sandbox binds each program by
        itself, at its own path: the folders above it need no permission of others)."""
        for path in paths:
            mode = os.stat(path).st_mode
            if not os.path.isdir(path) and mode & 0o055 != 0o055:
                os.chmod(path, mode | 0o055)

    # -- the probe ------------------------------------------------------------------------

    def check(self):
        """None where a sandbox can be made here (probed once: a run that checks it from
        inside), else why not, in one line."""
        if self.checked:
            return self.problem
        key = (self.privileged, self.tools_path, tuple(self.hidden), os.environ.get("LD_LIBRARY_PATH"))
        if key not in _probed:
            _probed[key] = (self.find_problem(), self.cgroup_parent, self.cgroup_files)
        self.problem, self.cgroup_parent, self.cgroup_files = _probed[key]
        self.checked = True
        return self.problem

    def find_problem(self):
        missing = [t for t in TOOLS if not self.tools[t]]
        if missing:
            return f"{', '.join(missing)} not found (util-linux)"
        if self.privileged and not self.user:
            return "no user 'nobody' to run programs as"
        self.find_cgroup()
        try:
            lines, problem = self.probe()
        except (OSError, SandboxError) as e:
            why = one_line(str(e))
            prefix = "the sandbox could not be made: "  # (the NOT GRADED line says so already)
            return why[len(prefix):] if why.startswith(prefix) else why
        return problem

    def find_cgroup(self):
        """The first place where a run's cgroup can be made and a process moved into it."""
        for place in cgroup2_places():
            try:
                os.makedirs(place, exist_ok=True)
            except OSError:
                continue
            for name in os.listdir(place):  # the empty cgroups of graders that were killed
                if name.startswith("run-") and not os.path.exists(f"/proc/{name.split('-')[1]}"):
                    try:
                        os.rmdir(os.path.join(place, name))
                    except OSError:
                        pass
            for folder in (os.path.dirname(place), place):  # best effort: the limits' controllers
                for controller in ("+memory", "+pids"):
                    try:
                        with open(os.path.join(folder, "cgroup.subtree_control"), "w") as f:
                            f.write(controller)
                    except OSError:
                        pass
            try:
                trial = self.make_cgroup(place)
            except OSError:
                continue
            try:
                subprocess.run(["true"], preexec_fn=lambda: enter_cgroup(trial), check=True,
                               env={"PATH": "/usr/bin:/bin"})
                self.cgroup_parent = place
                self.cgroup_files = tuple(f for f in ("memory.max", "pids.max", "cgroup.kill")
                                          if os.path.exists(os.path.join(trial, f)))
                return
            except (OSError, subprocess.SubprocessError):
                continue
            finally:
                remove_cgroup(trial)

    def make_cgroup(self, parent):
        self.count += 1
        path = os.path.join(parent, f"run-{os.getpid()}-{self.count}-{time.monotonic_ns()}")
        os.mkdir(path)
        for name, value in (("memory.max", self.memory_bytes), ("memory.swap.max", 0), ("pids.max", self.max_pids)):
            if os.path.exists(os.path.join(path, name)):
                with open(os.path.join(path, name), "w") as f:
                    f.write(str(value))
        return path

    def probe(self, program=()):
        """(lines, problem): a sandboxed run of PROBE, which checks the sandbox from inside,
        and what the host sees after it; problem is None where every check passed."""
        scratch = tempfile.mkdtemp(prefix="memlab-sandbox-probe-")
        markers = []
        try:
            os.chmod(scratch, 0o755)
            marker = os.path.basename(scratch)
            for folder in ("/tmp", "/dev/shm"):  # what the host has there, the run must not see
                if os.path.isdir(folder):
                    path = os.path.join(folder, marker + ".host")
                    open(path, "w").close()
                    markers.append(path)
            cwd = self.workdir(scratch, "run")
            uid = self.user.pw_uid if self.privileged else 0
            hidden = [h for h in self.hidden if h != os.path.realpath(tempfile.gettempdir())]
            outcome = self.start_sandboxed([self.tools["sh"], "-c", PROBE, "memlab-probe", marker, str(uid), *hidden],
                                           cwd, 60).finish()
            lines = outcome.stdout.splitlines()
            if outcome.timed_out or outcome.returncode != 0 or any(not line.startswith("ok ") for line in lines):
                bad = [line for line in lines if not line.startswith("ok ")]
                return lines, one_line(bad[0] if bad else f"the probe {outcome.describe()}: "
                                       + (outcome.stderr.strip() or "no output"))
            if any(os.path.exists(os.path.join(f, marker + ".run")) for f in ("/tmp", "/dev/shm")):
                return lines, "FAIL /tmp: a file the run wrote to its /tmp is in the host's"
            lines.append("ok host /tmp and /dev/shm: nothing of the run's there")
            left = processes_with(marker)
            if left:
                return lines, f"FAIL processes of the run left: {left}"
            lines.append("ok nothing left running after the run (no process with its marker)")
            return lines, None
        finally:
            for path in markers + [os.path.join(f, marker + ".run") for f in ("/tmp", "/dev/shm")]:
                if os.path.exists(path):
                    os.remove(path)
            shutil.rmtree(scratch, ignore_errors=True)

    # -- a run ----------------------------------------------------------------------------

    def run(self, argv, cwd, timeout, programs=()):
        """The program argv[0] (a path) with its arguments, in cwd (a workdir), sandboxed (and
        bound read-only with it, `programs`: files it runs); raises SandboxError where no
        sandbox can be made: nothing is run then."""
        return self.start(argv, cwd, timeout, programs).finish()

    def start(self, argv, cwd, timeout, programs=()):
        """run()'s first half: the sandbox made and the program started (a Running, whose
        finish() waits for it), so that a caller can have several runs at once."""
        problem = self.check()
        if problem:
            raise SandboxError(f"no sandbox could be made here: {problem}")
        return self.start_sandboxed(argv, cwd, timeout, programs)

    def start_sandboxed(self, argv, cwd, timeout, programs=()):
        cwd = os.path.abspath(cwd)
        program = os.path.abspath(argv[0])
        programs = list(dict.fromkeys([program] + [os.path.abspath(p) for p in programs]))
        env = {"PATH": "/usr/bin:/bin", "HOME": cwd, "TMPDIR": cwd, "LANG": "C", "LC_ALL": "C",
               "CUDA_CACHE_PATH": os.path.join(cwd, ".nv")}
        env.update({k: os.environ[k] for k in KEPT_VARIABLES if k in os.environ})
        libraries = [d for d in env.get("LD_LIBRARY_PATH", "").split(":") if d.startswith("/")]
        for path in [cwd] + programs + libraries + self.hidden:
            if "\n" in path:
                raise SandboxError(f"a path with a newline: {path!r}")
        init = ["-s", cwd + ".status", "-f", cwd + ".fstab", "-r", cwd + ".root", "-c", cwd, "-p", self.tools_path]
        for p in programs:
            init += ["-b", p]
        if self.privileged:
            gid = self.user.pw_gid
            try:
                gid = grp.getgrnam("nogroup").gr_gid
            except KeyError:
                pass
            init += ["-u", f"{self.user.pw_uid}:{gid}"]
        if "pids.max" not in self.cgroup_files:
            init += ["-n", str(self.nproc())]
        for d in libraries:
            init += ["-B", d]
        for h in sorted(self.hidden, key=len):  # a folder before what it holds
            init += ["-H", h]
        command = ([self.tools["unshare"]] + ([] if self.privileged else ["--user", "--map-root-user"])
                   + ["--pid", "--fork", "--kill-child", "--mount-proc", "--mount", "--net", "--ipc", "--uts",
                      "--", self.tools["sh"], INIT] + init + ["--", program] + list(argv[1:]))
        return Running(self, command, env, cwd, timeout)


class Running:
    """A sandboxed run under way: started by Sandbox.start, ended by finish()."""

    def __init__(self, sandbox, command, env, cwd, timeout):
        self.sandbox = sandbox
        self.timeout = timeout
        self.root, self.status, self.fstab = cwd + ".root", cwd + ".status", cwd + ".fstab"
        self.cgroup = sandbox.make_cgroup(sandbox.cgroup_parent) if sandbox.cgroup_parent else None
        self.ready = None
        limit, libc, cgroup = sandbox.file_size_bytes, sandbox.libc, self.cgroup

        def limits():  # in the child, before unshare: its cgroup, limits, death with the grader
            if cgroup:
                enter_cgroup(cgroup)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

        # Output goes to files (capped by RLIMIT_FSIZE), never into the grader's memory.
        self.out = self.err = self.proc = self.started = self.ended = None
        self.closed = False
        try:
            os.mkdir(self.root)
            open(self.status, "w").close()
            self.out, self.err = open(cwd + ".stdout", "w+b"), open(cwd + ".stderr", "w+b")
            self.started = time.monotonic()
            try:
                self.proc = subprocess.Popen(command, cwd="/", env=env, stdin=subprocess.DEVNULL, stdout=self.out,
                                             stderr=self.err, start_new_session=True, preexec_fn=limits)
            except (OSError, subprocess.SubprocessError) as e:
                raise SandboxError(f"cannot start the sandbox: {e}") from e
            # The time limit counts from the program's start ("ready"), not the sandbox's.
            while self.ready is None and self.proc.poll() is None:
                if "ready\n" in self.said():
                    self.ready = time.monotonic()
                elif time.monotonic() - self.started > SETUP_LIMIT:
                    kill_run(self.proc, self.cgroup)
                    raise SandboxError(f"the sandbox was not made within {SETUP_LIMIT} s")
                else:
                    time.sleep(0.002)
        except BaseException:
            self.close()
            raise

    def said(self):
        with open(self.status, encoding="utf-8", errors="replace") as f:
            return f.read()

    def finish(self):
        """Waits for the run (killed at its time limit) and returns its Outcome."""
        try:
            proc, timed_out = self.proc, False
            try:
                left = None if self.ready is None else max(0.0, self.timeout - (time.monotonic() - self.ready))
                proc.wait(timeout=left)
            except subprocess.TimeoutExpired:
                timed_out = True
                kill_run(proc, self.cgroup)
            self.ended = time.monotonic()
            seconds = time.monotonic() - (self.ready or self.started)
            said = self.said().split("\n")
            if "ready" not in said:
                why = next((line[5:] for line in said if line.startswith("fail ")), "")
                lines = [line for line in tail(self.err, 4000).splitlines()
                         if line.strip() and line != f"memlab-sandbox: {why}"]
                if lines:  # what failed first (mount's own message, unshare's)
                    why += f" ({lines[0].strip()})" if why else lines[0].strip()
                raise SandboxError("the sandbox could not be made: " + (
                    why or f"unshare {Outcome(proc.returncode, '', '', 0, False).describe()}"))
            returncode = proc.returncode
            exited = [line for line in said if line.startswith("exit ")]
            if exited and not timed_out:
                code = int(exited[-1].split()[1])
                # the shell's 128+N for a program killed by signal N (an exit(128+N) looks the same)
                returncode = -(code - 128) if 128 < code < 128 + signal.NSIG else code
            return Outcome(returncode, tail(self.out), tail(self.err), seconds, timed_out)
        finally:
            self.close()

    def close(self):
        """Ends the run (if it still runs) and removes what its sandbox left; once."""
        if self.closed:
            return
        self.closed = True
        if self.proc and self.proc.poll() is None:
            kill_run(self.proc, self.cgroup)
        for f in (self.out, self.err):
            if f:
                f.close()
        if self.cgroup:
            remove_cgroup(self.cgroup)
        for path in (self.root, self.status, self.fstab):
            try:
                os.rmdir(path) if path == self.root else os.remove(path)
            except OSError:
                pass
        now = time.monotonic()  # the sandbox's own time: before the program's start, after its end
        if self.started is not None:
            self.sandbox.overhead += ((self.ready or now) - self.started) + (now - (self.ended or now))


def enter_cgroup(path):
    with open(os.path.join(path, "cgroup.procs"), "w") as f:
        f.write("0")


def remove_cgroup(path):
    """Kill whatever is in the cgroup (nothing, once its PID namespace is gone) and remove it."""
    deadline = time.monotonic() + 5
    while True:
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return
        try:
            with open(os.path.join(path, "cgroup.kill"), "w") as f:
                f.write("1")
        except OSError:
            try:
                with open(os.path.join(path, "cgroup.procs")) as f:
                    for pid in f.read().split():
                        os.kill(int(pid), signal.SIGKILL)
            except (OSError, ValueError):
                pass
        time.sleep(0.01)


def kill_run(proc, cgroup):
    """A run past its time: kill its pid 1 (the kernel then kills the rest of its PID
    namespace, and unshare returns once they are gone), its cgroup, and unshare itself if
    it has no child yet."""
    if cgroup:
        try:
            with open(os.path.join(cgroup, "cgroup.kill"), "w") as f:
                f.write("1")
        except OSError:
            pass
    for pid in children(proc.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def children(pid):
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return out


def processes_with(word, folder=None):
    """The pids of processes whose command line holds word, or whose working folder lies in
    folder (its path as the host sees it)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if word.encode() in f.read():
                        out.append(int(entry))
                        continue
                if folder and (os.readlink(f"/proc/{entry}/cwd") + "/").startswith(folder.rstrip("/") + "/"):
                    out.append(int(entry))
            except OSError:
                pass
    return out


def total_memory():
    try:
        with open("/proc/meminfo") as f:
            return int(f.readline().split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return 16 << 30


def one_line(text):
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


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


# The probe, run as the program in a sandbox: one line per property, "ok ..." or "FAIL ...".
# $1: a marker (the host has $1.host in its /tmp and /dev/shm); $2: the uid expected; the
# rest: paths that must be out of sight.
PROBE = r"""
marker=$1 uid=$2
shift 2
fails=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
n=$(ls /proc | grep -c '^[0-9]')
if tr '\0' ' ' </proc/1/cmdline | grep -q sandbox-init && [ "$$" != 1 ] && [ "$n" -lt 10 ]; then
    ok "pid namespace: pid 1 is the sandbox's init, this is pid $$, $n processes in sight"
else
    bad "pid namespace: pid $$, $n processes in sight"
fi
if touch probe.w && rm probe.w; then ok "cwd writable: $(pwd)"; else bad "cwd $(pwd) not writable"; fi
if mkdir /probe.$$ 2>/dev/null || touch /usr/probe.$$ 2>/dev/null || touch /etc/probe.$$ 2>/dev/null; then
    bad "/ writable"
else
    ok "/, /usr and /etc not writable"
fi
if [ -e "/tmp/$marker.host" ] || [ -e "/dev/shm/$marker.host" ]; then
    bad "/tmp or /dev/shm: the host's files are in sight"
elif touch "/tmp/$marker.run" "/dev/shm/$marker.run"; then
    ok "/tmp and /dev/shm private and writable"
else
    bad "/tmp or /dev/shm not writable"
fi
for p in "$@"; do
    if [ -e "$p" ] && [ -n "$(ls -A "$p" 2>/dev/null)" ]; then bad "$p in sight"; else ok "hidden: $p"; fi
done
ifaces=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ' ')
routes=$(tail -n +2 /proc/net/route | wc -l)
if [ "$ifaces" = "lo " ] && [ "$routes" = 0 ] && ! grep -q ' 0A ' /proc/net/tcp 2>/dev/null; then
    ok "no network: only lo ($(cat /sys/class/net/lo/operstate 2>/dev/null || echo '?')), no route"
else
    bad "network: interfaces $ifaces, $routes routes"
fi
if [ "$(id -u)" = "$uid" ]; then ok "uid $(id -u), gid $(id -g), groups $(id -G)"; else bad "uid $(id -u), not $uid"; fi
caps=$(grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status | cut -f2 | tr '\n' ' ')
nnp=$(grep '^NoNewPrivs' /proc/self/status | cut -f2)
if [ -z "$(echo "$caps" | tr -d '0 ')" ] && [ "$nnp" = 1 ]; then
    ok "no capabilities (inheritable, permitted, effective, bounding, ambient: $caps), no_new_privs"
else
    bad "capabilities $caps, no_new_privs $nnp"
fi
exit $fails
"""


def selftest(argv):
    """python3 grading/sandbox.py --selftest [PROGRAM ARGS...]"""
    sandbox = Sandbox(1 << 30, hidden=[os.path.join(os.path.dirname(GRADING_DIR), d)
                                       for d in ("solutions", "results", "build-grading")])
    print(f"memlab sandbox self-test: {'root' if sandbox.privileged else f'uid {os.geteuid()}'}, "
          f"LD_LIBRARY_PATH={os.environ.get('LD_LIBRARY_PATH', '')}")
    missing = [t for t in TOOLS if not sandbox.tools[t]]
    if missing:
        print(f"FAIL {', '.join(missing)} not found in {sandbox.tools_path}")
        return 1
    sandbox.find_cgroup()
    start = time.monotonic()
    try:
        lines, problem = sandbox.probe()
    except (OSError, SandboxError) as e:
        lines, problem = [], one_line(str(e))
    for line in lines:
        print(line)
    if problem:
        print(f"FAIL {problem}" if not problem.startswith("FAIL") else problem)
        print("no sandbox: the grader would report every GPU test NOT GRADED here")
        return 1
    print(f"ok the probe took {time.monotonic() - start:.2f} s")
    sandbox.checked = True
    print(f"ok {sandbox.describe()}")
    if not argv:
        return 0
    scratch = tempfile.mkdtemp(prefix="memlab-sandbox-selftest-")
    try:
        os.chmod(scratch, 0o755)
        program = os.path.abspath(argv[0])
        sandbox.allow_reading(program)
        cwd = sandbox.workdir(scratch, "run")
        outcome = sandbox.run([program] + argv[1:], cwd, 600)
        print(f"{' '.join(argv)}: {outcome.describe()} (exit status {outcome.returncode}, "
              f"{outcome.seconds:.2f} s in the sandbox)")
        for name, text in (("stdout", outcome.stdout), ("stderr", outcome.stderr)):
            lines = text.rstrip().splitlines()
            print(f"--- {name}, last {min(len(lines), 20)} of {len(lines)} lines")
            for line in lines[-20:]:
                print("    " + line)
        left = processes_with(cwd, cwd)
        print(("FAIL processes left: " + str(left)) if left else "ok nothing of the run left running")
        return 0 if outcome.returncode == 0 and not left else 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--selftest"]:
        sys.exit("usage: python3 grading/sandbox.py --selftest [PROGRAM ARGS...]")
    sys.exit(selftest(sys.argv[2:]))
