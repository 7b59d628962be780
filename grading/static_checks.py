"""static_checks.py - the source rules: early, friendly messages about the submitted file, with
its line numbers, and the compiler's resource report. They are not what decides: the object
check (object_check.py) judges what the compiler built, by allowlist.

  directives(tokens, rubric)      [(rule, why, line)]: includes outside the allowlist and
                                  directives other than the usual ones, from the file's own
                                  tokens (cpp_tokens.lex), before any compiler reads it
  preprocess(...)                 the submission's tokens after the compiler's preprocessor
                                  (nvcc -E with the kit's flags), a host and a device pass
  find_violations(tokens, rubric) [(rule, why, line)] for the rubric's [rule ...] sections,
                                  extern declarations and code that runs before main, over the
                                  tokens the submission spelled (a header macro's body never
                                  counts: __global__ is __attribute__((global)))
  parse_resource_usage            nvcc --resource-usage / -Xptxas -v output -> per-kernel resources
"""
import bisect
import os
import re
import subprocess

import cpp_tokens

KNOWN_DIRECTIVES = {"include", "define", "undef", "if", "ifdef", "ifndef", "elif", "else",
                    "endif", "pragma", "error", "warning", ""}


def directives(tokens, rubric):
    """Includes outside the allowlist and unknown directives (#line, #include_next, ...), from
    lex()'s tokens: a directive is # (or %:) first on a logical line."""
    found, first = [], True
    for k, t in enumerate(tokens):
        if t.kind == "newline":
            first = True
            continue
        if not (first and t.kind == "punct" and t.text in ("#", "%:")):
            first = False
            continue
        first = False
        rest = []
        for u in tokens[k + 1:]:
            if u.kind == "newline":
                break
            rest.append(u)
        name = rest[0].text if rest and rest[0].kind == "ident" else ""
        if rest and not name:
            found.append(("includes", f"preprocessor directive #{rest[0].text}", t.line))
        elif name not in KNOWN_DIRECTIVES:
            found.append(("includes", f"preprocessor directive #{name}", t.line))
        elif name == "include" and not allowed_include(rest[1:], rubric):
            found.append(("includes", "an include outside the allowlist (kernels.h and CUDA/C "
                          "basics; see grading/rubrics/common.ini)", t.line))
    return found


def allowed_include(tokens, rubric):
    """#include "kernels.h" or <stdio.h>, as the allowlist names them: a literal header name,
    nothing else (a macro, a prefix, a path)."""
    if len(tokens) == 1 and tokens[0].kind == "string" and tokens[0].text.startswith('"'):
        return tokens[0].text[1:-1] in rubric.quoted_includes
    if len(tokens) >= 3 and tokens[0].text == "<" and tokens[-1].text == ">":
        return "".join(t.text for t in tokens[1:-1]) in rubric.system_includes
    return False


def included_files(includes, lab_dir, rubric):
    """The files the submission included directly, as the compiler's line markers name them:
    the lab's kernels.h, common/lab.h, or a system header of the allowlist
    ([(rule, why, line)] for any other)."""
    found = []
    trusted = {os.path.realpath(os.path.join(lab_dir, "kernels.h")),
               os.path.realpath(os.path.join(os.path.dirname(os.path.dirname(lab_dir)), "common", "lab.h"))}
    for line, path in includes:
        real = os.path.realpath(path)
        if real in trusted or any(real.endswith("/" + name) for name in rubric.system_includes):
            continue
        found.append(("includes", f"includes {path}, which is not on the allowlist", line))
    return found


def preprocess(file, flags, cwd, out_prefix, timeout=120):
    """The submission's tokens after the compiler's own preprocessor, twice (the two at once):
    the device pass (nvcc -E defines __CUDA_ARCH__) and the host pass (-U__CUDA_ARCH__), each
    with the kit's flags. Returns ([(tokens, includes)], error or None)."""
    nvcc = os.environ.get("NVCC", "nvcc").split()[0]
    started = []
    try:
        for name, extra in (("device", []), ("host", ["-U__CUDA_ARCH__"])):
            out = f"{out_prefix}.{name}.ii"
            command = [nvcc, "-E"] + flags + extra + ["-Xcompiler", "-fdebug-cpp", file, "-o", out]
            started.append((subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                             text=True), out))
    except OSError as e:
        return [], f"the preprocessor could not run ({e})"
    passes, trouble = [], None
    for p, out in started:
        try:
            _, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            trouble = trouble or f"the preprocessor took more than {timeout} s"
            continue
        if p.returncode != 0:
            trouble = trouble or err.strip() or f"nvcc -E exited {p.returncode}"
        elif not trouble:
            with open(out, encoding="utf-8", errors="replace") as f:
                passes.append(cpp_tokens.preprocessed(f.read(), file))
        if os.path.exists(out):
            os.remove(out)
    return passes, trouble


class Matcher:
    """Regular expressions over the tokens' text, counting a match only where the submission
    spelled one of its tokens, at the line of the first of them."""

    def __init__(self, tokens):
        self.tokens = [t for t in tokens if t.kind != "newline"]
        self.text, self.starts = cpp_tokens.rule_text(self.tokens)

    def line(self, start, end):
        """The line of the first token of the submission's own in text[start:end], or None."""
        if not self.tokens:
            return None
        first = max(0, bisect.bisect_right(self.starts, start) - 1)
        last = max(first, bisect.bisect_right(self.starts, max(start, end - 1)) - 1)
        for t in self.tokens[first:last + 1]:
            if t.own:
                return t.line
        return None

    def find(self, pattern):
        for m in pattern.finditer(self.text):
            line = self.line(m.start(), m.end())
            if line is not None:
                yield m, line


def matching_brace(code, open_pos):
    depth = 0
    for i in range(open_pos, len(code)):
        depth += {"{": 1, "}": -1}.get(code[i], 0)
        if depth == 0:
            return i
    return len(code) - 1


def top_level_chunks(code):
    """Split the text at brace depth 0 into declarations / definitions: (start, text).
    Directive lines (pragmas) are blanked first (same length, so positions stay)."""
    code = re.sub(r"^[ \t]*(?:#|%:).*$", lambda m: " " * len(m.group(0)), code, flags=re.M)
    chunks, start, depth = [], 0, 0
    for i, c in enumerate(code):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and not re.match(r"\s*[;,=)]", code[i + 1:i + 3]):
                chunks.append((start, code[start:i + 1]))
                start = i + 1
        elif c == ";" and depth == 0:
            chunks.append((start, code[start:i + 1]))
            start = i + 1
    return chunks


def check_startup_code(matcher):
    """Code that would run before the driver's main: namespace-scope variables initialised
    by a call, and classes with constructors or destructors (a friendly line number: the
    object check decides, from the object's .init_array)."""
    why = "code that runs before the driver's main (a global initialised by a call, or a constructor)"
    code, found = matcher.text, []

    def add(start, end):
        line = matcher.line(start, end)
        if line is not None:
            found.append(("startup_code", why, line))

    for start, chunk in top_level_chunks(code):
        body = chunk.lstrip()
        lead = len(chunk) - len(body)
        head = body.split("{", 1)[0] if not body.rstrip().endswith(";") else body
        m = re.search(r"=\s*(?!sizeof\b)[A-Za-z_][\w:]*\s*\(", head)
        if m and not re.match(r"\s*(?:template|typedef|using)\b", body):
            add(start + lead + m.start(), start + lead + m.end())
    for m in re.finditer(r"\b(?:struct|class|union)\s+([A-Za-z_]\w*)\s*(?::[^{;]*)?\{", code):
        end = matching_brace(code, m.end() - 1)
        body = code[m.end():end]
        ctor = re.search(r"(?<![\w.>])~?\s*" + re.escape(m.group(1)) + r"\s*\(", body)
        if ctor:
            add(m.end() + ctor.start(), m.end() + ctor.end())
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*::\s*~?\s*\1\s*\(", code):
        add(m.start(), m.end())
    return found


def check_externs(matcher, rubric):
    found = []
    allowed = re.compile(rubric.extern_allowed)
    for m, line in matcher.find(re.compile(r"\bextern\b")):
        if not allowed.match(matcher.text, m.start()):
            found.append(("extern", "an extern declaration other than the variant table or an "
                          "unsized __shared__ array (kernels.h declares all a kernels.cu needs)", line))
    return found


def find_violations(tokens, rubric):
    """Every rule the tokens break: [(rule, why, line)], sorted by line. tokens: lex()'s (the
    file as written: every token its own) or preprocess()'s (after the preprocessor)."""
    matcher = Matcher(tokens)
    found = []
    for name, why, pattern in rubric.rules:
        found += [(name, why, line) for _, line in matcher.find(pattern)]
    for name, check in (("extern", lambda: check_externs(matcher, rubric)),
                        ("startup_code", lambda: check_startup_code(matcher))):
        if name not in rubric.allowed_rules:
            found += check()
    return sorted(set(found), key=lambda v: (v[2], v[0]))


# ---- the compiler's resource report ------------------------------------------------------
def demangle(symbol):
    """_Z18copy_float4_kernelPfPKfm -> copy_float4_kernel; C names stay as they are."""
    m = re.match(r"_Z(\d+)", symbol)
    if not m:
        return symbol
    length = int(m.group(1))
    return symbol[m.end():m.end() + length]


def parse_resource_usage(text):
    """Per kernel (demangled name) and architecture: registers, smem, stack, spill_stores,
    spill_loads, from ptxas's -v report (which nvcc --resource-usage prints)."""
    kernels = {}
    current = None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '(\w+)' for '(\w+)'", line)
        if m:
            current = kernels.setdefault((demangle(m.group(1)), m.group(2)), {
                "registers": 0, "smem": 0, "stack": 0, "spill_stores": 0, "spill_loads": 0})
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            current.update(stack=int(m.group(1)), spill_stores=int(m.group(2)),
                           spill_loads=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["registers"] = int(m.group(1))
            smem = re.search(r"(\d+) bytes smem", line)
            current["smem"] = int(smem.group(1)) if smem else 0
    return kernels
