"""static_checks.py - what the grader decides without a GPU, from the submitted file alone
or from the compiler's report.

  strip_code(text)       the file with comments removed (and strings, character literals)
  find_violations(...)   [(rule, why, line number, line)] for the rubric's rules, the include
                         allowlist, extern declarations and code that runs before main
  parse_resource_usage   nvcc --resource-usage / -Xptxas -v output -> per-kernel resources
"""
import re


def strip_code(text, keep_strings=False):
    """Remove comments (and, unless keep_strings, the contents of string and character
    literals), keeping every newline so that line numbers still match the file."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        two = text[i:i + 2]
        if two == "//":
            while i < n and text[i] != "\n":
                i += 1 + (text[i] == "\\" and i + 1 < n)  # a backslash continues the comment
            out.append(" ")
        elif two == "/*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(" " + "\n" * text.count("\n", i, end))
            i = end
        elif c == "R" and text[i + 1:i + 2] == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            close = text.find(")" + m.group(1) + '"', i) if m else -1
            end = n if close < 0 else close + len(m.group(1)) + 2
            body = text[i:end]
            out.append(body if keep_strings else '""' + "\n" * body.count("\n"))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            body = text[i:j + 1]
            out.append(body if keep_strings else c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def join_continuations(code):
    """Splice backslash-newline pairs, padding so that line numbers stay as they were."""
    lines = code.split("\n")
    out, pending = [], 0
    for line in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1] + " " + line
            pending += 1
            continue
        out.extend([""] * pending)
        pending = 0
        out.append(line)
    out.extend([""] * pending)
    return "\n".join(out)


DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*(.*)$", re.M)


def expand_simple_macros(code, rounds=5):
    """Replace object-like macros (#define NAME BODY) by their bodies, so that
    `#define OPEN fopen` followed by OPEN(...) is seen as fopen."""
    for _ in range(rounds):
        macros = {m.group(1): m.group(2).strip() for m in DEFINE.finditer(code)}
        macros = {k: v for k, v in macros.items() if v and k != v}
        if not macros:
            return code
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, macros)) + r")\b")
        body_lines = [(m.start(), m.end()) for m in DEFINE.finditer(code)]

        def replace(m):
            inside_define = any(a <= m.start() < b for a, b in body_lines)
            return m.group(0) if inside_define else macros[m.group(1)]

        expanded = pattern.sub(replace, code)
        if expanded == code:
            return code
        code = expanded
    return code


def line_of(code, pos):
    return code.count("\n", 0, pos) + 1


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(.*?)[ \t]*$', re.M)
DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(\w*)", re.M)
KNOWN_DIRECTIVES = {"include", "define", "undef", "if", "ifdef", "ifndef", "elif", "else",
                    "endif", "pragma", "error", "warning", ""}


def check_includes(with_strings, rubric):
    found = []
    for m in INCLUDE.finditer(with_strings):
        target = m.group(1)
        ok = False
        quoted = re.fullmatch(r'"([^"]*)"', target)
        angled = re.fullmatch(r"<([^>]*)>", target)
        if quoted:
            ok = quoted.group(1) in rubric.quoted_includes
        elif angled:
            ok = angled.group(1) in rubric.system_includes
        if not ok:
            found.append(("includes", "an include outside the allowlist (kernels.h and CUDA/C "
                          "basics; see grading/rubrics/common.ini)", m.start()))
    for m in DIRECTIVE.finditer(with_strings):
        if m.group(1) not in KNOWN_DIRECTIVES:
            found.append(("includes", f"preprocessor directive #{m.group(1)}", m.start()))
    return found


def matching_brace(code, open_pos):
    depth = 0
    for i in range(open_pos, len(code)):
        depth += {"{": 1, "}": -1}.get(code[i], 0)
        if depth == 0:
            return i
    return len(code) - 1


def top_level_chunks(code):
    """Split the file at brace depth 0 into declarations / definitions: (start, text).
    Preprocessor lines are blanked first (same length, so positions stay)."""
    code = re.sub(r"^[ \t]*#.*$", lambda m: " " * len(m.group(0)), code, flags=re.M)
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


def check_startup_code(code):
    """Code that would run before the driver's main: namespace-scope variables initialised
    by a call, and classes with constructors or destructors."""
    why = "code that runs before the driver's main (a global initialised by a call, or a constructor)"
    found = []
    for start, chunk in top_level_chunks(code):
        body = chunk.lstrip()
        lead = len(chunk) - len(body)
        head = body.split("{", 1)[0] if not body.rstrip().endswith(";") else body
        m = re.search(r"=\s*(?!sizeof\b)[A-Za-z_][\w:]*\s*\(", head)
        if m and not re.match(r"\s*(?:template|typedef|using)\b", body):
            found.append(("startup_code", why, start + lead + m.start()))
    for m in re.finditer(r"\b(?:struct|class|union)\s+([A-Za-z_]\w*)\s*(?::[^{;]*)?\{", code):
        end = matching_brace(code, m.end() - 1)
        body = code[m.end():end]
        ctor = re.search(r"(?<![\w.>])~?\s*" + re.escape(m.group(1)) + r"\s*\(", body)
        if ctor:
            found.append(("startup_code", why, m.end() + ctor.start()))
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*::\s*~?\s*\1\s*\(", code):
        found.append(("startup_code", why, m.start()))
    return found


def check_externs(code, rubric):
    found = []
    allowed = re.compile(rubric.extern_allowed)
    for m in re.finditer(r"\bextern\b", code):
        if not allowed.match(code, m.start()):
            found.append(("extern", "an extern declaration other than the variant table "
                          "(kernels.h declares all a kernels.cu needs)", m.start()))
    return found


def find_violations(text, rubric):
    """Every rule the file breaks: [(rule, why, line, source line)], sorted by line."""
    with_strings = join_continuations(strip_code(text, keep_strings=True))
    code = expand_simple_macros(join_continuations(strip_code(text)))
    found = []
    for name, why, pattern in rubric.rules:
        found += [(name, why, m.start()) for m in pattern.finditer(code)]
    for name, check in (("includes", lambda: check_includes(with_strings, rubric)),
                        ("extern", lambda: check_externs(code, rubric)),
                        ("startup_code", lambda: check_startup_code(code))):
        if name not in rubric.allowed_rules:
            found += check()
    source_lines = text.split("\n")
    out = set()
    for name, why, pos in found:
        number = line_of(code, pos)
        line = source_lines[number - 1].strip() if number <= len(source_lines) else ""
        out.add((name, why, number, line[:100]))
    return sorted(out, key=lambda v: (v[2], v[0]))


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
