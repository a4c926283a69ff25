"""A small subset of LLVM's FileCheck, enough for MLIR's integration tests.

Directives (for a prefix P, ``CHECK`` by default): ``P:``, ``P-NEXT:``, ``P-SAME:``,
``P-LABEL:``, ``P-NOT:``, ``P-EMPTY:``, ``P-COUNT-n:`` (n plain matches in a row). Patterns
are literal text with ``{{regex}}`` blocks, ``[[VAR:regex]]`` definitions and ``[[VAR]]``
uses (a variable keeps its value for the rest of the file). As FileCheck does by default,
runs of spaces and tabs count as one space in both the input and the patterns, and a
pattern's leading and trailing blanks are ignored.

Left out (reported as a ``CheckError``, never silently ignored): ``-DAG``, numeric
``[[#...]]`` expressions, ``@LINE``. ``-LABEL`` is matched like a plain check (it does not
split the input into independent blocks), which gives the same verdict on inputs where
labels are unique, as they are in the tests this is for.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

KINDS = ("", "-NEXT", "-SAME", "-LABEL", "-NOT", "-EMPTY", "-COUNT")
_UNSUPPORTED_KINDS = ("-DAG",)
_BLANKS = re.compile(r"[ \t]+")


class CheckError(ValueError):
    """The check file itself cannot be used (bad pattern, unsupported directive, no checks)."""


@dataclass(frozen=True)
class Directive:
    kind: str  # one of KINDS, without the prefix
    pattern: str
    line: int  # 1-based line in the check file
    count: int = 1  # -COUNT-n: n


@dataclass
class Result:
    """The verdict: ``ok``, and where not, a one-line reason naming the check file's line."""

    ok: bool
    reason: str = ""
    matched: int = 0
    directives: int = 0
    variables: dict[str, str] = field(default_factory=dict)


def directives(text: str, prefixes: tuple[str, ...] = ("CHECK",)) -> list[Directive]:
    """The check directives of ``text`` for ``prefixes``, in file order."""
    alt = "|".join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True))
    rx = re.compile(rf"(?<![\w-])({alt})(-[A-Z]+)?(?:-(\d+))?:")
    found: list[Directive] = []
    for n, line in enumerate(text.splitlines(), 1):
        m = rx.search(line)
        if m is None:
            continue
        kind = m.group(2) or ""
        if (kind == "-COUNT") != (m.group(3) is not None):
            continue  # CHECK-COUNT: without n, or CHECK-NEXT-2: are not directives
        if kind in _UNSUPPORTED_KINDS:
            raise CheckError(f"line {n}: {m.group(1)}{kind} is not supported by this subset")
        if kind not in KINDS:
            continue  # e.g. CHECK-FOO: is not a directive of FileCheck either
        pattern = line[m.end() :].strip(" \t")
        if kind != "-EMPTY" and not pattern:
            raise CheckError(f"line {n}: found empty check string with prefix '{m.group(1)}:'")
        count = int(m.group(3)) if m.group(3) else 1
        if kind == "-COUNT" and count < 1:
            raise CheckError(f"line {n}: invalid count in -COUNT specification")
        found.append(Directive(kind, pattern, n, count))
    if not found:
        raise CheckError(f"no check strings found with prefix {', '.join(prefixes)}")
    if found[0].kind in ("-NEXT", "-SAME", "-EMPTY"):
        raise CheckError(f"line {found[0].line}: {found[0].kind[1:]} cannot be the first check")
    return found


def _tokens(text: str) -> list[tuple[int, int, str, str]]:
    """``{{regex}}`` and ``[[var...]]`` blocks as (start, end, kind, body); a ``[[`` block
    ends at the first ``]]`` outside brackets, as in FileCheck (``[[N:[0-9]]]``)."""
    out = []
    i = 0
    while i < len(text):
        if text.startswith("{{", i):
            j = text.find("}}", i + 2)
            if j < 0:
                raise CheckError("unterminated {{ in pattern")
            out.append((i, j + 2, "{", text[i + 2 : j]))
            i = j + 2
        elif text.startswith("[[", i):
            depth, j = 0, i + 2
            while j < len(text):
                c = text[j]
                if c == "\\":
                    j += 2
                    continue
                if c == "[":
                    depth += 1
                elif c == "]":
                    if depth == 0 and text.startswith("]]", j):
                        break
                    depth = max(depth - 1, 0)
                j += 1
            if j >= len(text):
                raise CheckError("unterminated [[ in pattern")
            out.append((i, j + 2, "[", text[i + 2 : j]))
            i = j + 2
        else:
            i += 1
    return out


_VAR_NAME = re.compile(r"^[A-Za-z_][\w]*$")


def _compile(d: Directive, variables: dict[str, str]) -> tuple[re.Pattern[str], list[str]]:
    """The regex of one pattern and the variables it defines (group names)."""
    parts: list[str] = []
    defined: list[str] = []
    pos = 0
    text = _BLANKS.sub(" ", d.pattern)
    try:
        tokens = _tokens(text)
    except CheckError as e:
        raise CheckError(f"line {d.line}: {e}") from None
    for start, end, kind, body in tokens:
        parts.append(re.escape(text[pos:start]))
        pos = end
        if kind == "{":
            try:
                re.compile(body)
            except re.error as e:
                raise CheckError(f"line {d.line}: bad regex {{{{{body}}}}}: {e}") from None
            parts.append(f"(?:{body})")
            continue
        if body.startswith("#") or body.startswith("@"):
            raise CheckError(f"line {d.line}: [[{body}]] expressions are not supported")
        name, colon, rx = body.partition(":")
        if not _VAR_NAME.match(name):
            raise CheckError(f"line {d.line}: bad variable [[{body}]]")
        if colon:
            try:
                re.compile(rx)
            except re.error as e:
                raise CheckError(f"line {d.line}: bad regex in [[{body}]]: {e}") from None
            parts.append(f"(?P<{name}>{rx})")
            defined.append(name)
        elif name in defined:
            parts.append(f"(?P={name})")
        elif name in variables:
            parts.append(re.escape(variables[name]))
        else:
            raise CheckError(f"line {d.line}: use of undefined variable [[{name}]]")
    parts.append(re.escape(text[pos:]))
    try:
        return re.compile("".join(parts)), defined
    except re.error as e:
        raise CheckError(f"line {d.line}: bad pattern: {e}") from None


def validate(text: str, prefixes: tuple[str, ...] = ("CHECK",)) -> list[Directive]:
    """The directives, every pattern compiled once (raises ``CheckError`` for a check file
    this subset cannot use, before any output is checked against it)."""
    ds = directives(text, prefixes)
    known: dict[str, str] = {}
    for d in ds:
        if d.kind != "-EMPTY":
            for name in _compile(d, known)[1]:
                known[name] = ""
    return ds


class _Input:
    """The output under test, blanks canonicalized, with a line index."""

    def __init__(self, text: str) -> None:
        self.text = "\n".join(_BLANKS.sub(" ", line) for line in text.split("\n"))
        self.starts = [0] + [i + 1 for i, c in enumerate(self.text) if c == "\n"]

    def line_of(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos) - 1

    def line_end(self, line: int) -> int:
        nxt = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return nxt

    def quote(self, line: int) -> str:
        if line >= len(self.starts):
            return "<end of output>"
        s = self.text[self.starts[line] : self.line_end(line)]
        return repr(s if len(s) <= 80 else s[:77] + "...")


def check(
    output: str, check_text: str, prefixes: tuple[str, ...] = ("CHECK",), full_lines: bool = False
) -> Result:
    """Match ``output`` against the directives of ``check_text`` (FileCheck's verdict).

    ``full_lines``: FileCheck's ``--match-full-lines`` (a pattern must match a whole line).
    Raises ``CheckError`` when the check text itself cannot be used."""
    ds = directives(check_text, prefixes)
    inp = _Input(output)
    variables: dict[str, str] = {}
    pos, line = 0, -1  # end of the previous match, and its line (-1: none yet)
    nots: list[tuple[Directive, re.Pattern[str]]] = []

    def fail(d: Directive, what: str) -> Result:
        return Result(False, f"check line {d.line} ({d.kind[1:] or 'CHECK'} {d.pattern!r}): {what}",
                      matched, len(ds), variables)

    def forbidden(lo: int, hi: int) -> Result | None:
        for d, rx in nots:
            m = rx.search(inp.text, lo, hi)
            if m is not None:
                return fail(d, f"excluded text found on output line {inp.line_of(m.start()) + 1}")
        return None

    matched = 0
    for d in ds:
        if d.kind == "-NOT":
            nots.append((d, _compile(d, variables)[0]))
            continue
        if d.kind == "-EMPTY":
            nxt = line + 1
            if nxt >= len(inp.starts) or inp.starts[nxt] != inp.line_end(nxt):
                return fail(d, f"output line {nxt + 1} is not empty: {inp.quote(nxt)}")
            bad = forbidden(pos, inp.starts[nxt])
            if bad:
                return bad
            nots.clear()
            pos, line = inp.starts[nxt], nxt
            matched += 1
            continue
        rx, defined = _compile(d, variables)
        for i in range(d.count):
            m = _search(rx, inp, pos, d.kind == "-SAME", full_lines)
            if m is None:
                where = f"after output line {line + 1}" if line >= 0 else "in the output"
                nth = f" (match {i + 1} of {d.count})" if d.count > 1 else ""
                return fail(d, f"no match{nth} {where}; next line: {inp.quote(line + 1)}")
            at = inp.line_of(m.start())
            if d.kind == "-NEXT" and at != line + 1:
                return fail(d, f"matched on output line {at + 1}, not the next line {line + 2}")
            if d.kind == "-SAME" and at != line:
                return fail(d, f"matched on output line {at + 1}, not on line {line + 1}")
            bad = forbidden(pos, m.start())
            if bad:
                return bad
            nots.clear()
            for name in defined:
                variables[name] = m.group(name)
            pos, line = m.end(), inp.line_of(max(m.end() - 1, m.start()))
        matched += 1
    bad = forbidden(pos, len(inp.text))
    if bad:
        return bad
    return Result(True, "", matched, len(ds), variables)


def _search(
    rx: re.Pattern[str], inp: _Input, pos: int, same_line: bool, full_lines: bool
) -> re.Match[str] | None:
    """The first match at or after ``pos`` that lies within one line (and, with ``full_lines``,
    spans it)."""
    start = pos
    while True:
        m = rx.search(inp.text, start)
        if m is None:
            return None
        ln = inp.line_of(m.start())
        if "\n" in m.group(0):
            start = m.start() + 1
        elif full_lines and not _spans_line(inp, m, ln):
            start = m.start() + 1
        else:
            return m
        if same_line and inp.line_of(start) != inp.line_of(pos):
            return None


def _spans_line(inp: _Input, m: re.Match[str], ln: int) -> bool:
    lo, hi = inp.starts[ln], inp.line_end(ln)
    return not inp.text[lo : m.start()].strip(" ") and not inp.text[m.end() : hi].strip(" ")
