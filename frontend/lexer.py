"""Character-level scanning shared by every grammar layer of the parser.

MLIR's grammar is context-sensitive at the token level (``4x8xf32`` is one shape, not an
integer and an identifier), so instead of a token stream we keep a cursor into the text and
match compiled regular expressions at it. Naming rule (as in xDSL): ``try_*`` returns None
(or False) and consumes nothing when the input does not fit; ``expect_*``/``parse_*`` raise
a ``ParseError`` that points at the offending character.
"""

from __future__ import annotations

import re

from frontend.errors import ParseError, locate

_WS = re.compile(r"(?:[ \t\n\r\f\v]+|//[^\n]*)*")
WS_FIRST = frozenset(" \t\n\r\f\v/")  # characters that may start whitespace or a comment
_FOUND = re.compile(r"[\w%#@^!.$\-]+|\S")
BARE_ID = re.compile(r"[A-Za-z_][\w$.]*")
SUFFIX_ID = r"(?:\d+|[A-Za-z_$.\-][\w$.\-]*)"
SSA_ID = re.compile(r"%" + SUFFIX_ID + r"(?:#\d+)?")
BLOCK_ID = re.compile(r"\^" + SUFFIX_ID)
SYMBOL_ID = re.compile(r"@(?:" + SUFFIX_ID + r'|"(?:[^"\\]|\\.)*")')
ALIAS_ID = re.compile(r"[#!][A-Za-z_][\w$.]*")
INTEGER = re.compile(r"-?(?:0x[0-9a-fA-F]+|\d+)")
FLOAT = re.compile(r"[-+]?\d+\.\d*(?:[eE][-+]?\d+)?")
_INT_NOT_FLOAT = re.compile(r"-?(?:0x[0-9a-fA-F]+|\d+(?![\d.]))")
_INT_LIST = re.compile(r"\[[ \t\n]*(-?\d+(?:[ \t\n]*,[ \t\n]*-?\d+)*)?[ \t\n]*\]")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{2})|(.))")


_WS_FIRST_OR_END = WS_FIRST | {""}


def skip_space(text: str, pos: int) -> int:
    """The offset after the whitespace and comments at ``pos``; a single space between two
    tokens, the usual case, is skipped without the expression."""
    if text[pos : pos + 1] == " " and text[pos + 1 : pos + 2] not in _WS_FIRST_OR_END:
        return pos + 1
    return _WS.match(text, pos).end()


def unquote(literal: str) -> str:
    """The value of an MLIR string literal (``\\n``, ``\\t``, ``\\"``, ``\\\\``, ``\\XX``)."""

    body, out, pos = literal[1:-1], bytearray(), 0
    for m in _ESCAPE.finditer(body):
        out += body[pos : m.start()].encode("utf-8")
        if m.group(1):
            out.append(int(m.group(1), 16))
        else:
            out += {"n": "\n", "t": "\t"}.get(m.group(2), m.group(2)).encode("utf-8")
        pos = m.end()
    out += body[pos:].encode("utf-8")
    # The literal's bytes as UTF-8; a byte that is not (``\FF``) is kept as a lone surrogate
    # (Python's surrogateescape), so that printing and quoting give that byte back.
    return out.decode("utf-8", errors="surrogateescape")


class Lexer:
    """A cursor over one source text with the primitive matchers."""

    __slots__ = ("end", "file", "pos", "text")

    def __init__(self, text: str, file: str = "<input>") -> None:
        self.text = text
        self.file = file
        self.pos = 0
        self.end = len(text)

    # -- diagnostics --------------------------------------------------------------------
    def error(self, message: str, pos: int | None = None) -> ParseError:
        if pos is None:
            self.skip_ws()
            pos = self.pos
        return ParseError(message, locate(self.file, self.text, pos))

    def found(self) -> str:
        """What stands at the cursor, for 'expected X, found Y' messages."""
        self.skip_ws()
        if self.pos >= len(self.text):
            return "end of input"
        m = _FOUND.match(self.text, self.pos)
        if not m:
            return "end of input"
        tok = m.group(0)
        if not tok.isprintable():  # a control character: show it, do not print it
            return "character " + ascii(tok)
        return f"'{tok}'"

    # -- primitives ---------------------------------------------------------------------
    # The hot paths: a cursor usually already sits on a token, so whitespace is only looked
    # at when the next character could start some (see skip_space).
    def skip_ws(self) -> None:
        pos = self.pos
        if pos >= self.end or self.text[pos] in WS_FIRST:
            self.pos = skip_space(self.text, pos)

    def at_end(self) -> bool:
        self.skip_ws()
        return self.pos >= self.end

    def peek(self, s: str) -> bool:
        pos = self.pos
        if pos >= self.end or self.text[pos] in WS_FIRST:
            pos = self.pos = skip_space(self.text, pos)
        return self.text.startswith(s, pos)

    def try_punct(self, s: str) -> bool:
        pos = self.pos
        if pos >= self.end or self.text[pos] in WS_FIRST:
            pos = self.pos = skip_space(self.text, pos)
        if self.text.startswith(s, pos):
            self.pos = pos + len(s)
            return True
        return False

    def expect_punct(self, s: str, context: str = "") -> None:
        pos = self.pos  # try_punct, inline
        if pos >= self.end or self.text[pos] in WS_FIRST:
            pos = self.pos = skip_space(self.text, pos)
        if self.text.startswith(s, pos):
            self.pos = pos + len(s)
            return
        where = f" {context}" if context else ""
        raise self.error(f"expected '{s}'{where}, found {self.found()}")

    def try_regex(self, pattern: re.Pattern[str]) -> str | None:
        pos = self.pos
        if pos >= self.end or self.text[pos] in WS_FIRST:
            pos = skip_space(self.text, pos)
        m = pattern.match(self.text, pos)
        if m is None:
            self.pos = pos
            return None
        self.pos = m.end()
        return m.group(0)

    def try_keyword(self, word: str) -> bool:
        """Consume ``word`` only as a whole identifier (``to`` does not match ``total``)."""
        self.skip_ws()
        text, end = self.text, self.pos + len(word)
        if text.startswith(word, self.pos) and not (
            end < self.end and (text[end].isalnum() or text[end] in "_$.")
        ):
            self.pos = end
            return True
        return False

    def expect_keyword(self, word: str, context: str = "") -> None:
        if not self.try_keyword(word):
            where = f" {context}" if context else ""
            raise self.error(f"expected '{word}'{where}, found {self.found()}")

    def try_bare_id(self) -> str | None:
        return self.try_regex(BARE_ID)

    def expect_bare_id(self, what: str = "identifier") -> str:
        name = self.try_bare_id()
        if name is None:
            raise self.error(f"expected {what}, found {self.found()}")
        return name

    def try_int(self) -> int | None:
        self.skip_ws()
        m = _INT_NOT_FLOAT.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return int(m.group(0), 0) if "x" in m.group(0) else int(m.group(0))

    def try_int_list(self) -> tuple[int, ...] | None:
        """``[0, 2, -1]``: a bracketed list of decimal i64s; None (nothing consumed) else."""
        self.skip_ws()
        m = _INT_LIST.match(self.text, self.pos)
        if m is None:
            return None
        values = tuple(map(int, m.group(1).split(","))) if m.group(1) else ()
        if not all(-(1 << 63) <= v < (1 << 63) for v in values):
            return None
        self.pos = m.end()
        return values

    def expect_int(self, what: str = "integer") -> int:
        value = self.try_int()
        if value is None:
            raise self.error(f"expected {what}, found {self.found()}")
        return value

    def expect_i64(self, what: str = "integer") -> int:
        """An integer that must fit in 64 signed bits (static positions, sizes, strides)."""
        self.skip_ws()
        start = self.pos
        value = self.expect_int(what)
        if not -(1 << 63) <= value < (1 << 63):
            raise self.error(f"integer constant {value} out of range for i64", start)
        return value

    def try_string(self) -> str | None:
        lit = self.try_regex(STRING)
        return None if lit is None else unquote(lit)

    def expect_string(self, what: str = "string literal") -> str:
        value = self.try_string()
        if value is None:
            if self.text.startswith('"', self.pos):
                raise self.error("unterminated string literal (missing '\"' on this line)")
            raise self.error(f"expected {what}, found {self.found()}")
        return value

    def balanced(self, open_: str, close: str) -> str:
        """The text of a balanced ``<...>``/``(...)`` group at the cursor, consumed whole."""
        self.skip_ws()
        start, depth = self.pos, 0
        text = self.text
        i = self.pos
        while i < len(text):
            c = text[i]
            if c == '"':
                m = STRING.match(text, i)
                i = m.end() if m else i + 1
                continue
            if c == open_:
                depth += 1
            elif c == close and not (close == ">" and i > 0 and text[i - 1] == "-"):
                depth -= 1
                if depth == 0:
                    self.pos = i + 1
                    return text[start : i + 1]
            i += 1
        raise self.error(f"unbalanced '{open_}'", start)
