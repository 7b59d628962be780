"""cpp_tokens.py - C++ tokens as the compiler sees them, for the grader's source rules.

  lex(text)                       the tokens of a source file: line splices undone (a
                                  backslash-newline joins lines, also inside a name), comments
                                  dropped, string and character literals whole (prefixes L, u,
                                  U, u8; raw strings R"d(...)d" with any prefix, whose bodies
                                  keep their splices), numbers with digit separators (1'000)
  preprocessed(text, submission)  the tokens of `nvcc -E -Xcompiler -fdebug-cpp` output that
                                  stand in the submitted file (line markers), each marked with
                                  whether the submission spelled it (its own text, its own
                                  macros, the arguments it gives a header's macro) or a
                                  header did (the body of a header's macro: __global__ is
                                  __attribute__((global)) from crt/host_defines.h)
  rule_text(tokens)               one string to match a rule's regular expression on, and
                                  where each token is in it

A Token is (kind, text, line, own): kind is ident, number, string, char, punct or newline
(lex only: directives are whole lines); line is the line of the submitted file where the
token starts (for an expansion: where the macro is used); own: spelled by the submission.
"""
import bisect
import collections
import re

Token = collections.namedtuple("Token", "kind text line own")

# A line splice: backslash, newline (GCC also takes blanks between the two, with a warning).
SPLICE = re.compile(r"\\[ \t\f\v]*\r?\n")
RAW_OPEN = re.compile(r'(?:u8|[uUL])?R"([^ ()\\\t\v\f\n]{0,16})\(')
UDL = r"(?:[A-Za-z_]\w*)?"  # a user-defined literal's suffix
TOKEN = re.compile(
    r"(?P<ws>[ \t\f\v\r]+)"
    r"|(?P<newline>\n)"
    r"|(?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))"
    r'|(?P<raw>(?:u8|[uUL])?R")'
    r'|(?P<string>(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*(?:"|$)' + UDL + ")"
    r"|(?P<char>(?:u8|[uUL])?'(?:[^'\\\n]|\\.)*(?:'|$)" + UDL + ")"
    r"|(?P<number>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)"
    r"|(?P<ident>(?:[A-Za-z_$]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|[^\x00-\x7f])"
    r"(?:[A-Za-z0-9_$]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|[^\x00-\x7f])*)"
    r"|(?P<punct>%:%:|\.\.\.|<<=|>>=|->\*|<=>|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]="
    r"|##|\.\*|<:|:>|<%|%>|%:|[^\s])",
    re.S | re.M)


def _raw_end(text, start):
    """Where the raw string literal that starts at `start` ends (past its closing quote)."""
    m = RAW_OPEN.match(text, start)
    if not m:  # R" without a valid delimiter: GCC takes it as an error; take the rest of the line
        end = text.find("\n", start)
        return len(text) if end < 0 else end
    close = text.find(")" + m.group(1) + '"', m.end())
    return len(text) if close < 0 else close + len(m.group(1)) + 2


def _scan(text, start, end, line_of, own, out):
    """Tokens of text[start:end] (no splices in it) appended to out; returns out."""
    i = start
    while i < end:
        m = TOKEN.match(text, i, end)
        kind = m.lastgroup
        if kind == "raw":
            stop = _raw_end(text, i)
            out.append(Token("string", text[i:stop], line_of(i), own))
            i = stop
            continue
        if kind not in ("ws", "comment"):
            out.append(Token(kind, m.group(0), line_of(i), own))
        i = m.end()
    return out


def lex(text):
    """The tokens of a source file, with `newline` tokens at the end of each logical line
    (for directives); every token is the file's own."""
    # Phase 2: splice lines, remembering where each spliced character was.
    pieces, origin, pos = [], [], 0  # origin: (spliced offset, original offset) at each piece
    spliced_len = 0
    for m in SPLICE.finditer(text):
        pieces.append(text[pos:m.start()])
        origin.append((spliced_len, pos))
        spliced_len += m.start() - pos
        pos = m.end()
    pieces.append(text[pos:])
    origin.append((spliced_len, pos))
    joined = "".join(pieces)
    starts = [s for s, _ in origin]
    orig_starts = [o for _, o in origin]
    newlines = [i for i, c in enumerate(text) if c == "\n"]

    def original(i):  # offset in text of joined[i]
        k = bisect.bisect_right(starts, i) - 1
        return origin[k][1] + i - origin[k][0]

    def line_of(i):
        return bisect.bisect_right(newlines, original(i) - 1) + 1

    out, i = [], 0
    while i < len(joined):
        m = TOKEN.match(joined, i)
        kind = m.lastgroup
        if kind == "raw":
            # A raw string's body is taken as written: the splices inside it stay.
            o = original(i)
            stop = _raw_end(text, o)
            out.append(Token("string", text[o:stop], line_of(i), True))
            # back into the spliced text, just past the literal
            k = bisect.bisect_right(orig_starts, stop) - 1
            i = max(i + 1, origin[k][0] + min(stop - origin[k][1], len(pieces[k])))
            continue
        if kind == "comment" and "\n" in m.group(0):
            pass  # a block comment is one space; its newlines end no directive
        elif kind not in ("ws", "comment"):
            out.append(Token(kind, m.group(0), line_of(i), True))
        i = m.end()
    return out


# ---- nvcc -E -Xcompiler -fdebug-cpp ---------------------------------------------------------
# Before every token GCC writes where it was spelled: {P:path;F:includer;L:line;C:col;...}.
ANNOTATION = re.compile(r"\{P:([^;]*);F:[^;]*;L:\d+;C:\d+;S:\d+;M:[^;]*;E:\d+,LOC:\d+,R:\d+\}")
LINE_MARKER = re.compile(r'#[ \t]*(\d+)[ \t]+"((?:[^"\\]|\\.)*)"((?:[ \t]+\d)*)[ \t]*$', re.M)
PRAGMA = re.compile(r"#[ \t]*pragma\b[^\n]*", re.M)


def unquote(path):
    return re.sub(r"\\(.)", r"\1", path)


def preprocessed(text, submission):
    """(tokens, includes): the tokens of preprocessor output that stand in the submitted file
    (whose path is `submission`, as the compiler was given it), and the files the submission
    includes directly [(line, path)], from the line markers (flag 1: entering a file)."""
    out, includes = [], []
    current, line = None, 1  # the file the output stands in now, and its line
    own_paths = {submission}
    # the line markers that go back into the submission (a header's text is skipped whole)
    back = re.compile(r'#[ \t]*\d+[ \t]+"' + re.escape(submission.replace("\\", "\\\\").replace('"', '\\"')) + '"')
    i, n = 0, len(text)
    at_line_start = True
    spelled_here = False  # the last annotation names the submission
    while i < n:
        if at_line_start:
            # annotations may stand before a line marker
            while True:
                a = ANNOTATION.match(text, i)
                if not a:
                    break
                spelled_here = a.group(1) in own_paths
                i = a.end()
            m = LINE_MARKER.match(text, i)
            if m:
                path, flags = unquote(m.group(2)), m.group(3).split()
                if "1" in flags and current == submission:
                    includes.append((line, path))
                current, line = path, int(m.group(1))
                i = m.end() + 1
                continue
            if current != submission:
                # a header's text: skip to the next line marker
                nxt = back.search(text, i)
                if not nxt:
                    break
                # count nothing: a marker sets the line
                i = nxt.start()
                continue
            p = PRAGMA.match(text, i)
            if p:  # a pragma line (from #pragma or _Pragma): no annotations, the file's own
                _scan(text, p.start(), p.end(), lambda _: line, True, out)
                i = p.end()
                continue
            at_line_start = False
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c == "{":
            a = ANNOTATION.match(text, i)
            if a:
                spelled_here = a.group(1) in own_paths
                i = a.end()
                continue
        m = TOKEN.match(text, i)
        kind = m.lastgroup
        if kind == "raw":
            stop = _raw_end(text, i)
            out.append(Token("string", text[i:stop], line, spelled_here))
            line += text.count("\n", i, stop)
            i = stop
            continue
        if kind not in ("ws", "comment"):
            out.append(Token(kind, m.group(0), line, spelled_here))
        i = m.end()
    return out, includes


# ---- what rules are matched on ----------------------------------------------------------------
TIGHT = {".", "->", "::", ".*", "->*"}  # written without spaces: p->read is a member, not read()


def rule_text(tokens):
    """(text, starts): the tokens joined into one string, string literals as "" and character
    literals as '' (so that a variant's description never matches), a newline where the line
    changes; starts[k] is where token k begins in the text."""
    parts, starts, pos, prev = [], [], 0, None
    for t in tokens:
        if t.kind == "newline":
            continue
        body = '""' if t.kind == "string" else "''" if t.kind == "char" else t.text
        if prev is None:
            sep = ""
        elif t.line != prev.line:
            sep = "\n"
        elif t.text in TIGHT or prev.text in TIGHT:
            sep = ""
        else:
            sep = " "
        parts.append(sep)
        pos += len(sep)
        starts.append(pos)
        parts.append(body)
        pos += len(body)
        prev = t
    return "".join(parts), starts
