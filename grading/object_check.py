"""object_check.py - what the compiler built from a submission, judged by allowlist.

The source rules (static_checks.py) read text and can be fooled by any C++ trick they do not
know; this reads the object files the kit's own build made of the submission
(build/<arch>/custom/labN/kernels*.o), where every trick is already undone. Each of these must
be on a closed allowlist ([symbols] of grading/rubrics/common.ini, which a lab's rubric may
extend with KEY += ... or narrow with KEY -= ...):

  host_undefined    what the host code takes from outside (nm -u): nvcc's own registration
                    and launch calls, the C++ runtime's, the CUDA runtime queries, printf,
                    math; a call of anything else (cudaMemcpy, dlsym, pthread_create, fopen,
                    system, cudaGetDriverEntryPoint ...) is named
  defined globals   what the host code offers the rest of the program (nm -g --defined-only),
                    see defined_problem(): the contract's C names, the compiler's own, and C++
                    names nobody else in the program has
  init_array        code that runs before main or at exit: .init_array, .fini_array,
                    .preinit_array, .ctors, .dtors, .init, .fini (readelf -S -s -r), and
                    ifuncs (their resolvers run when the program loads); only nvcc's fatbinary
                    registration, one .init_array entry, passes
  system calls      no syscall instruction in the host code (objdump -d): inline assembly
                    would need no symbol at all
  device_undefined  what the device code calls outside itself (cuobjdump -elf: the undefined
                    symbols of every cubin's symbol table): printf's vprintf, assert's
                    __assertfail

check(objects, rubric, trusted) returns one line per problem (empty: the objects pass).
"""
import glob
import os
import re
import shutil
import subprocess


class ToolMissing(Exception):
    """A tool the check needs is not there: a problem of the kit's set-up, not the student's."""


def toolkit_program(name):
    """A CUDA toolkit program on the PATH, else beside nvcc; None if neither has it."""
    found = shutil.which(name)
    if found:
        return os.path.abspath(found)
    nvcc = shutil.which(os.environ.get("NVCC", "nvcc").split()[0])
    beside = os.path.join(os.path.dirname(os.path.realpath(nvcc)), name) if nvcc else None
    return beside if beside and os.access(beside, os.X_OK) else None


def find_cuobjdump():
    """cuobjdump on the PATH, beside nvcc, or where pip's nvidia-cuda-cuobjdump puts it
    (site-packages/nvidia/cu*/bin, as labs/lab4-l1cache/sass.sh looks); None if nowhere."""
    found = toolkit_program("cuobjdump")
    if found:
        return found
    try:
        import nvidia  # the namespace package of NVIDIA's pip wheels
        roots = list(nvidia.__path__)
    except ImportError:
        roots = []
    for root in roots:
        for path in sorted(glob.glob(os.path.join(root, "cu*", "bin", "cuobjdump"))):
            if os.access(path, os.X_OK):
                return path
    return None


def run(args):
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise ToolMissing(f"{args[0]} is not installed")
    except subprocess.TimeoutExpired:
        raise ToolMissing(f"{args[0]} took more than 120 s")
    if p.returncode != 0:
        raise ToolMissing(f"{' '.join(args)} failed: {p.stderr.strip()[:300]}")
    return p.stdout


# ---- the host object -------------------------------------------------------------------------
def global_symbols(paths):
    """{name: nm type letter} of the global and undefined symbols (nm -P -g): U, w, v are
    undefined (w and v: weak), the others defined (T, D, B, R, W, V, u, i ...). A version
    suffix (@GLIBC_2.2.5) is left off."""
    out = {}
    if not paths:
        return out
    for line in run(["nm", "-P", "-g"] + list(paths)).splitlines():
        parts = line.split()
        if len(parts) >= 2 and not line.endswith(":"):
            out.setdefault(parts[0].split("@")[0], parts[1])
    return out


class Elf:
    """Sections, symbols and relocations of one host object, from readelf -W -S -s -r."""

    SECTION = re.compile(r"^\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)")
    SYMBOL = re.compile(r"^\s*(\d+):\s+([0-9a-f]+)\s+(\d+|0x[0-9a-f]+)\s+(\w+)\s+(\w+)\s+(\w+)\s+(\S+)\s*(\S*)")
    RELOC = re.compile(r"^([0-9a-f]+)\s+([0-9a-f]+)\s+(\S+)(?:\s+([0-9a-f]+)\s+(.*?))?\s*(?:([+-])\s*([0-9a-f]+))?$")

    def __init__(self, path):
        self.sections = {}  # index: (name, type, size)
        self.symbols = {}   # index in .symtab: (value, type, bind, section index or name, name)
        self.relocs = {}    # section name the relocations apply to: [(offset, type, symbol index, addend)]
        where, table = None, None
        for line in run(["readelf", "-W", "-S", "-s", "-r", path]).splitlines():
            m = re.match(r"Relocation section '\.rela?(\S+)'", line)
            if m:
                where, table = "reloc", self.relocs.setdefault(m.group(1), [])
                continue
            m = re.match(r"Symbol table '(\S+)'", line)
            if m:
                where = "symtab" if m.group(1) == ".symtab" else None
                continue
            if line.startswith("Section Headers:"):
                where = "sections"
                continue
            if where == "sections":
                m = self.SECTION.match(line)
                if m:
                    self.sections[int(m.group(1))] = (m.group(2), m.group(3), int(m.group(4), 16))
            elif where == "symtab":
                m = self.SYMBOL.match(line)
                if m:
                    ndx = m.group(7)
                    self.symbols[int(m.group(1))] = (int(m.group(2), 16), m.group(4), m.group(5),
                                                     int(ndx) if ndx.isdigit() else ndx, m.group(8))
            elif where == "reloc":
                m = self.RELOC.match(line.strip())
                if m and m.group(1) != "Offset":
                    addend = int(m.group(7), 16) * (-1 if m.group(6) == "-" else 1) if m.group(7) else 0
                    table.append((int(m.group(1), 16), m.group(3), int(m.group(2), 16) >> 32, addend))
        if not self.sections or not self.symbols:  # an unread object must never pass as an empty one
            raise ToolMissing(f"readelf printed nothing this grader can read for {path}")

    def target(self, symbol, addend):
        """The function a relocation points at: the named symbol, or for a section symbol
        (.text.startup + 0x20) the function that starts there."""
        sym = self.symbols.get(symbol)
        if sym is None:
            return f"(no symbol {symbol})"
        value, kind, _, ndx, name = sym
        if kind == "SECTION":
            for v, k, _, n, fname in self.symbols.values():
                if n == ndx and v == addend and k in ("FUNC", "IFUNC") and fname:
                    return fname
            return f"{self.sections.get(ndx, ('?',))[0]}+{addend:#x}"
        return name if addend == 0 else f"{name}+{addend:#x}"

    def calls(self, name):
        """Does any relocation call `name` (R_X86_64_PLT32), rather than only use it?"""
        ids = {i for i, s in self.symbols.items() if s[4] == name}
        return any(t.endswith("PLT32") and s in ids for table in self.relocs.values() for _, t, s, _ in table)


STARTUP = re.compile(r"^\.(?:init_array|fini_array|preinit_array|ctors|dtors|init|fini)(?:\.|$)")
STARTUP_TYPES = {"INIT_ARRAY", "FINI_ARRAY", "PREINIT_ARRAY"}


def startup_problems(elf, allowed):
    """Code that runs before main or at exit, other than nvcc's one registration entry."""
    problems, seen = [], []
    for ndx, (name, kind, size) in sorted(elf.sections.items()):
        if not (STARTUP.match(name) or kind in STARTUP_TYPES):
            continue
        entries = [elf.target(s, a) for _, _, s, a in elf.relocs.get(name, [])]
        when = "at exit" if re.match(r"\.(?:fini|dtors)", name) else "before main"
        if name in (".init", ".fini"):
            problems.append(f"runs code {when}: it puts code in the {name} section")
            continue
        if name != ".init_array":
            problems += [f"runs code {when}: {name} entry {e}" for e in entries] or \
                [f"runs code {when}: a {name} section"]
            continue
        if size != 8 * len(entries):
            problems.append(f"runs code before main: .init_array holds {size // 8} entries, "
                            f"{len(entries)} of them relocated")
        for e in entries:
            if e not in allowed or e in seen:
                problems.append(f"runs code before main: .init_array entry {e} (a global initialised "
                                "by a call, a constructor, or a constructor attribute)")
            seen.append(e)
    for value, kind, bind, ndx, name in elf.symbols.values():
        if kind == "IFUNC":
            problems.append(f"runs code before main: {name} is an ifunc, whose resolver runs when the program loads")
    return problems


SYSCALL = re.compile(r"\s(syscall|sysenter|int\s+\$0x80)\s*$", re.M)


def system_calls(path):
    """The host code's own system-call instructions (inline assembly needs no symbol to ask the
    kernel for anything): objdump -d of its code sections."""
    return sorted({m.group(1) for m in SYSCALL.finditer(run(["objdump", "-d", "--no-show-raw-insn", path]))})


# ---- which defined names a submission may have -----------------------------------------------
# A C++ name's first scope: the namespace or class it is in, or the name itself at the top.
# Names in these belong to the C++ library, the CUDA runtime or the CUDA headers' libraries:
# a definition there replaces or specialises theirs.
RESERVED_SCOPES = {"std", "__gnu_cxx", "__gnu_debug", "__cxxabiv1", "__cxxabiv2", "cudart", "cuda",
                   "thrust", "cub", "cutlass", "cute", "nv", "nvcuda", "cooperative_groups"}
STD_ABBREVIATIONS = ("St", "Sa", "Sb", "Ss", "Si", "So", "Sd")


def first_scope(mangled):
    """The first component of an Itanium-mangled name (_ZN6cudart3fooEv -> cudart,
    _ZSt4sortIPfEvT_S1_ -> std, _Z11halo_pointsii -> halo_points); 'operator' for a
    namespace-scope operator (_Znwm: operator new); None where it cannot say (thunks)."""
    s = mangled[2:]
    for special in ("TV", "TT", "TI", "TS", "GV", "GR", "TH", "TW"):  # vtable, typeinfo, guard ...
        if s.startswith(special):
            s = s[2:]
            break
    else:
        if s[:1] == "T" or s[:2] == "GT":
            return None  # thunks and other special names: not the compiler's for plain code
    if s.startswith("L"):
        s = s[1:]
    if s.startswith("Z"):  # a local entity: the function it is in
        return first_scope("_Z" + s[1:])
    if s.startswith("N"):
        s = re.sub(r"^N[rVK]*[RO]?", "", s)
    if s[:2] in STD_ABBREVIATIONS:
        return "std"
    m = re.match(r"(\d+)", s)
    if m:
        return s[m.end():m.end() + int(m.group(1))]
    if re.match(r"[a-z][a-z]|v\d", s):
        return "operator"
    return None


def defined_problem(name, kind, rubric, trusted):
    """Why a global the submission's object defines is not allowed, or None. The rule:
    - a name with C linkage (not _Z...) is the contract's (kernels.h declares it for kernels.cu
      to define: labN_variants, labN_variant_count, ...) or the compiler's own
      (DW.ref.__gxx_personality_v0); any other C name may be one the driver, the harness, the
      C library or the CUDA runtime defines (lab_verdict, fprintf, malloc, cudaMalloc), and
      the linker would take the submission's (a C++ global variable is a C name too: static);
    - a C++ name (mangled) is the submission's own: its kernels' and device functions' host
      stubs and bodies, its host helpers, the compiler's instantiations of its templates. It
      must not be in the scope of a library (std::, cudart::, ...: RESERVED_SCOPES, or one
      starting with __ other than nvcc's __device_stub__), not a global operator new or
      delete, and not a name any trusted object of the program (driver, harness) defines or
      refers to: those are the only other places a global-namespace C++ name can come from
      (the C++ library, cuBLAS and OpenMP export none), so the name is no one else's."""
    if name in rubric.symbols["contract"]:
        return None
    if name in rubric.symbols["compiler_defined"]:
        return None if kind in "VWvw" else f"defines {name}, which only the compiler may define (weak)"
    if not name.startswith("_Z"):
        return (f"defines {name}, a name with C linkage that the lab's contract (kernels.h) does not declare: "
                "the driver, the harness, the C library or the CUDA runtime may use it (make it static)")
    scope = first_scope(name)
    if scope is None:
        return f"defines {name}, a compiler-made name of a kind no kernels.cu needs"
    if scope == "operator" and re.match(r"_Z(?:nw|na|dl|da)", name):
        return f"defines {name}, the program's global operator new or delete"
    if scope in RESERVED_SCOPES or (scope.startswith("__") and not scope.startswith("__device_stub__")):
        return f"defines {name}, a name of a library (in {scope}::)"
    if name in trusted:
        return f"defines {name}, which the kit's driver or harness also defines or uses"
    return None


# ---- the device code -------------------------------------------------------------------------
# Shared memory's own instructions, and the generic ones (LD, ST, ATOM, RED), which reach it
# through a generic pointer.
SHARED_MEMORY_SASS = re.compile(r"\b(?:LDS|STS|ATOMS|LDSM|STSM|LDGSTS|LD|ST|ATOM|RED)\b")


def device_functions(paths, cuobjdump):
    """{mangled name: may its SASS read or write shared memory (LDS, STS, ATOMS, LDSM, STSM,
    LDGSTS, or a generic LD, ST, ATOM, RED)?} for every function of these objects' device code:
    the kernels the sanitizer watches, and whether any can race in shared memory (racecheck
    runs only then)."""
    found = {}
    for path in paths:
        name = None
        for line in run([cuobjdump, "-sass", path]).splitlines():
            m = re.match(r"\s*Function : (\S+)", line)
            if m:
                name = m.group(1)
                found.setdefault(name, False)
            elif name and SHARED_MEMORY_SASS.search(line):
                found[name] = True
    return found


def device_undefined(path, cuobjdump):
    """The undefined global symbols of every cubin in the object (cuobjdump -elf): the device
    code's calls outside itself."""
    return symtab_undefined(run([cuobjdump, "-elf", path]))


def symtab_undefined(text):
    """The undefined global or weak names of every .symtab that cuobjdump -elf printed. Two
    layouts are known: the toolkit's (index value size info other shndx name, info holding
    the binding in its high nibble) and the one of pip's newer cuobjdump (Num Value Size Type
    Bind Vis Other Ndx Name). Anything else stops the check (ToolMissing): an unread symbol
    table must never pass as an empty one."""
    out, layout, tables = set(), None, 0
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith(".section"):
            layout = None
            if line.split()[1:2] == [".symtab"]:
                header = lines[k + 1].split() if k + 1 < len(lines) else []
                layout = {("index", "value", "size", "info", "other", "shndx", "name"): "info",
                          ("num", "value", "size", "type", "bind", "vis", "other", "ndx", "name"): "bind"
                          }.get(tuple(h.lower() for h in header))
                if layout is None:
                    raise ToolMissing("cuobjdump -elf prints a symbol table this grader cannot read: "
                                      + " ".join(header))
                tables += 1
            continue
        if layout is None or not line.strip() or line.split()[0].lower() in ("index", "num"):
            if not line.strip():
                layout = None
            continue
        parts = line.split()
        try:
            if layout == "info" and len(parts) >= 7:
                if int(parts[3], 16) >> 4 in (1, 2) and int(parts[5], 16) == 0:  # STB_GLOBAL, STB_WEAK; SHN_UNDEF
                    out.add(parts[-1])
            elif layout == "bind" and len(parts) >= 8:
                if parts[4] in ("GLOBAL", "WEAK") and parts[-2] == "0":
                    out.add(parts[-1])
        except ValueError:
            raise ToolMissing(f"cuobjdump -elf prints a symbol this grader cannot read: {line.strip()}")
    if not tables and "elf code" in text.lower():
        raise ToolMissing("cuobjdump -elf printed device code without a symbol table")
    return out


def readable(lines):
    """C++ names shown as written, the mangled name beside (c++filt)."""
    names = sorted({m for line in lines for m in re.findall(r"\b_Z[\w.$]+", line)})
    if not names:
        return lines
    try:
        plain = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                               timeout=30).stdout.splitlines()
    except (OSError, subprocess.TimeoutExpired):
        return lines
    if len(plain) != len(names):
        return lines
    table = {n: f"{p} [{n}]" for n, p in zip(names, plain) if p != n}
    return [re.sub(r"\b_Z[\w.$]+", lambda m: table.get(m.group(0), m.group(0)), line) for line in lines]


# ---- the whole check -------------------------------------------------------------------------
def trusted_names(paths):
    """Every global or undefined name in the trusted objects of a lab's program."""
    return set(global_symbols(paths))


def check(objects, rubric, trusted, cuobjdump, lab):
    """Problems with the submission's objects (lab 4 has two), one line each, and whether each
    name of the contract is defined: [line]."""
    if not cuobjdump:
        raise ToolMissing("cuobjdump not found (python3 -m pip install nvidia-cuda-cuobjdump)")
    problems, defined = [], set()
    host_ok = rubric.symbols["host_undefined"]
    device_ok = rubric.symbols["device_undefined"]
    for path in objects:
        elf = Elf(path)
        for name, kind in sorted(global_symbols([path]).items()):
            if kind in "Uwv":
                if name not in host_ok:
                    verb = "calls" if elf.calls(name) else "uses"
                    problems.append(f"{verb} {name}, which no kernels.cu of lab {lab} needs")
                continue
            defined.add(name)
            why = defined_problem(name, kind, rubric, trusted)
            if why:
                problems.append(why)
        problems += startup_problems(elf, rubric.symbols["init_array"])
        for insn in system_calls(path):
            problems.append(f"makes system calls itself (a {insn} instruction: inline assembly)")
        for name in sorted(device_undefined(path, cuobjdump) - device_ok):
            problems.append(f"device code calls {name}, which no kernels.cu of lab {lab} needs")
    problems = readable(problems)
    missing = sorted(rubric.symbols["contract"] - defined)
    tables = [n for n in missing if n.endswith("_variants") or "_variants_" in n]
    head = []
    if tables:
        head.append(f"defines no variant table: {', '.join(tables)} {'is' if len(tables) == 1 else 'are'} missing")
    head += [f"{n} is missing (kernels.h declares it for kernels.cu to define)" for n in missing if n not in tables]
    return list(dict.fromkeys(head + problems))
