"""rubric.py - a lab's grading rubric, read from plain files.

  grading/rubrics/common.ini   build settings, limits, include allowlist, static rules, the
                               symbol allowlists of the object check ([symbols])
  grading/rubrics/labN.ini     the lab's tests ([test NAME]), its own rules, overrides
  grading/private/labN.ini     secret seeds and hidden sizes (absent in a student copy)

Adding a lab's grading is a data change: write labN.ini (and private/labN.ini).
"""
import configparser
import os
import re
import secrets

GRADING_DIR = os.path.dirname(os.path.abspath(__file__))
KINDS = ("compile", "static", "correctness", "performance", "resource")
RESOURCE_METRICS = ("registers", "smem", "stack", "spill_stores", "spill_loads")


class RubricError(Exception):
    pass


class Test:
    def __init__(self, name, section):
        self.name = name
        self.kind = section.get("kind", "")
        if self.kind not in KINDS:
            raise RubricError(f"test '{name}': kind must be one of {', '.join(KINDS)}")
        self.points = float(section.get("points", "0"))
        self.variant = section.get("variant", "")
        self.kernel = section.get("kernel", "")
        if self.kind in ("correctness", "performance") and not self.variant:
            raise RubricError(f"test '{name}': a {self.kind} test names its variant")
        self.bands = parse_bands(section.get("bands", "1.2:1 2.0:0"), name)
        self.require = parse_requirements(section.get("require", ""), name)
        if self.kind == "resource" and (not self.kernel or not self.require):
            raise RubricError(f"test '{name}': a resource test names its kernel and require")


def parse_bands(text, name):
    """'1.2:1 2.0:0' -> [(1.2, 1.0), (2.0, 0.0)], ratios increasing."""
    bands = []
    for item in text.split():
        try:
            ratio, fraction = (float(x) for x in item.split(":"))
        except ValueError:
            raise RubricError(f"test '{name}': bands are RATIO:FRACTION pairs, got '{item}'")
        bands.append((ratio, fraction))
    if not bands or any(b[0] >= a[0] for a, b in zip(bands[1:], bands)):
        raise RubricError(f"test '{name}': bands need increasing ratios")
    return bands


def parse_requirements(text, name):
    """'smem >= 1, spill_stores == 0' -> [('smem', '>=', 1), ...]."""
    out = []
    for item in filter(None, (s.strip() for s in text.split(","))):
        m = re.fullmatch(r"(\w+)\s*(>=|<=|==|>|<)\s*(\d+)", item)
        if not m or m.group(1) not in RESOURCE_METRICS:
            raise RubricError(f"test '{name}': require '{item}': METRIC OP NUMBER with a metric "
                              f"of {', '.join(RESOURCE_METRICS)}")
        out.append((m.group(1), m.group(2), int(m.group(3))))
    return out


def band_fraction(ratio, bands):
    """Credit for a time ratio (student / reference): linear between the bands' points."""
    if ratio <= bands[0][0]:
        return bands[0][1]
    for (r0, f0), (r1, f1) in zip(bands, bands[1:]):
        if ratio <= r1:
            return f0 + (f1 - f0) * (ratio - r0) / (r1 - r0)
    return bands[-1][1]


def table_sanitize_args(lab):
    """The sanitizer's arguments of lab N in tools/lab-tools.table (its last column)."""
    path = os.path.join(os.path.dirname(GRADING_DIR), "tools", "lab-tools.table")
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = [x.strip() for x in line.split("|")]
            if len(fields) == 6 and fields[0] == "lab" and fields[1] == str(lab):
                return fields[5].split()
    raise RubricError(f"lab {lab} has no row in {path}")


SYMBOL_KEYS = ("contract", "host_undefined", "device_undefined", "init_array", "compiler_defined")


def read_symbols(common, own, lab, path):
    """The object check's allowlists ([symbols] of common.ini), each a set of names; a lab's
    rubric replaces one (KEY = ...), adds to it (KEY += ...) or takes names out (KEY -= ...).
    {lab} in a name is the lab's number."""
    out = {}
    for key in SYMBOL_KEYS:
        if not common.has_option("symbols", key):
            raise RubricError(f"common.ini: [symbols] has no {key}")
        out[key] = set(common.get("symbols", key).split())
    if own.has_section("symbols"):
        for raw, value in own.items("symbols"):
            key, op = raw.rstrip(" +-"), raw[len(raw.rstrip(" +-")):].strip()
            if key not in SYMBOL_KEYS or op not in ("", "+", "-"):
                raise RubricError(f"{path}: [symbols] {raw}: one of {', '.join(SYMBOL_KEYS)}, with =, += or -=")
            names = set(value.split())
            out[key] = out[key] | names if op == "+" else out[key] - names if op == "-" else names
    return {key: {n.replace("{lab}", str(lab)) for n in names} for key, names in out.items()}


def read_ini(path):
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    if not parser.read(path, encoding="utf-8"):
        raise RubricError(f"cannot read {path}")
    return parser


class Rubric:
    def __init__(self, lab, rubric_path=None, private_path=None):
        self.lab = int(lab)
        self.path = rubric_path or os.path.join(GRADING_DIR, "rubrics", f"lab{self.lab}.ini")
        if not os.path.isfile(self.path):
            raise RubricError(f"lab {self.lab} has no rubric ({self.path})")
        common = read_ini(os.path.join(GRADING_DIR, "rubrics", "common.ini"))
        own = read_ini(self.path)
        if own.getint("lab", "number", fallback=self.lab) != self.lab:
            raise RubricError(f"{self.path} is the rubric of another lab")

        def setting(section, key):
            if own.has_option(section, key):
                return own.get(section, key)
            return common.get(section, key)

        self.arch_without_gpu = setting("build", "arch_without_gpu")
        self.build_timeout = float(setting("build", "build_timeout_s"))
        self.check_timeout = float(setting("limits", "check_timeout_s"))
        self.perf_timeout = float(setting("limits", "perf_timeout_s"))
        self.file_size_bytes = int(setting("limits", "file_size_mb")) << 20
        self.reference_reuse = float(setting("limits", "reference_reuse_s"))
        self.quoted_includes = setting("includes", "quoted").split()
        self.system_includes = setting("includes", "system").split()
        if own.has_option("includes", "extra_system"):
            self.system_includes += own.get("includes", "extra_system").split()
        self.extern_allowed = setting("extern", "allowed")
        self.symbols = read_symbols(common, own, self.lab, self.path)
        allowed = own.get("static", "allow", fallback="").split()
        self.rules = []  # (name, why, compiled pattern)
        for parser in (common, own):
            for section in parser.sections():
                if section.startswith("rule ") and section[5:] not in allowed:
                    s = parser[section]
                    self.rules.append((section[5:], s["why"], re.compile(s["pattern"], re.M)))
        self.allowed_rules = allowed
        self.not_implemented = own.get("lab", "not_implemented",
                                       fallback=r"^{variant}\s+not implemented")
        self.perf_args = own.get("lab", "perf_args", fallback="").split()
        self.check_args = own.get("lab", "check_args", fallback="").split()
        self.perf_runs = own.getint("lab", "perf_runs", fallback=3)
        # Races and memory errors: the sanitizer's tools, each once over the variants that passed,
        # with the small --check that tools/lab-tools.table gives the lab (or [lab] sanitize_args).
        self.sanitize_tools = setting("sanitize", "tools").split()
        self.sanitize_timeout = float(setting("sanitize", "timeout_s"))
        self.sanitize_args = own.get("lab", "sanitize_args", fallback=None)
        self.sanitize_args = (self.sanitize_args.split() if self.sanitize_args is not None
                              else table_sanitize_args(self.lab))
        self.review_speedup = float(setting("review", "faster_than_reference"))
        if self.review_speedup <= 1:
            raise RubricError(f"{self.path}: [review] faster_than_reference must be above 1")
        self.tests = [Test(s[5:], own[s]) for s in own.sections() if s.startswith("test ")]
        if not self.tests:
            raise RubricError(f"{self.path} has no [test ...] sections")
        for kind in ("compile", "static"):
            if sum(t.kind == kind for t in self.tests) != 1:
                raise RubricError(f"{self.path}: exactly one test of kind {kind}")
        self.max_score = sum(t.points for t in self.tests)
        self._load_private(private_path, own.get("lab", "public_sizes", fallback="").split())

    def _load_private(self, path, public_sizes):
        path = path or os.path.join(GRADING_DIR, "private", f"lab{self.lab}.ini")
        self.private_path = path if os.path.isfile(path) else None
        if not self.private_path:
            # A student's copy: no secrets, so fresh random seeds and the public sizes.
            self.seeds = {k: secrets.randbelow(1 << 40) for k in ("check", "recheck", "perf")}
            self.check_sizes = public_sizes
            self.recheck_sizes = public_sizes[:1]
        else:
            private = read_ini(path)
            self.seeds = {k: private.getint("seeds", k) for k in ("check", "recheck", "perf")}
            self.check_sizes = private.get("sizes", "check").split()
            self.recheck_sizes = private.get("sizes", "recheck").split()
        if not self.check_sizes or not self.recheck_sizes:
            raise RubricError(f"lab {self.lab}: no sizes to check (public_sizes or the private file)")
        for sizes in (self.check_sizes, self.recheck_sizes):
            for size in sizes:
                if not (size.isdigit() and int(size) > 0) and size != "default":
                    raise RubricError(f"lab {self.lab}: a size is a positive integer or 'default', got {size}")
            # one --check run takes them all (--n A,B,C: at most 16, common/cli.h)
            if len(sizes) > 16 or ("default" in sizes and len(sizes) > 1):
                raise RubricError(f"lab {self.lab}: a round checks 1 to 16 sizes, 'default' only alone, "
                                  f"got {' '.join(sizes)}")

    def variants(self, kind):
        return [t.variant for t in self.tests if t.kind == kind]
