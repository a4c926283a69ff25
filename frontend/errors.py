"""Diagnostics that point at the source: ``FILE:LINE:COL: error: message``."""

from __future__ import annotations

import difflib


class SourceLoc:
    """A position in a named source text: 1-based ``line`` and ``col`` and the text of that
    line. Every op records one, so they are computed from the offset only when asked (when an
    error is reported): counting lines for each op would make parsing quadratic."""

    __slots__ = ("_resolved", "_text", "file", "offset")

    def __init__(self, file: str, text: str, offset: int) -> None:
        self.file = file
        if not 0 <= offset <= len(text):
            offset = max(0, min(offset, len(text)))
        self.offset = offset
        self._text = text
        self._resolved: tuple[int, int, str] | None = None

    def _resolve(self) -> tuple[int, int, str]:
        if self._resolved is None:
            text, offset = self._text, self.offset
            start = text.rfind("\n", 0, offset) + 1
            end = text.find("\n", offset)
            line_text = text[start : end if end >= 0 else len(text)]
            self._resolved = (text.count("\n", 0, offset) + 1, offset - start + 1, line_text)
        return self._resolved

    @property
    def line(self) -> int:
        return self._resolve()[0]

    @property
    def col(self) -> int:
        return self._resolve()[1]

    @property
    def source_line(self) -> str:
        return self._resolve()[2]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SourceLoc) and (self.file, self.offset) == (
            other.file,
            other.offset,
        )

    def __hash__(self) -> int:
        return hash((self.file, self.offset))

    def __repr__(self) -> str:
        return f"SourceLoc({self})"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class Source:
    """A named source text, for the places in it that are only located when asked."""

    __slots__ = ("file", "text")

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text

    def at(self, offset: int) -> SourceLoc:
        return SourceLoc(self.file, self.text, offset)


def locate(file: str, text: str, offset: int) -> SourceLoc:
    """The location of a character offset (line and column are worked out on demand)."""
    return SourceLoc(file, text, offset)


class MLIRError(Exception):
    """A syntax, type or runtime error tied to a place in the input."""

    def __init__(self, message: str, loc: SourceLoc | None = None, kind: str = "error") -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.kind = kind

    def __str__(self) -> str:
        if self.loc is None:
            return f"<unknown>: {self.kind}: {self.message}"
        head = f"{self.loc}: {self.kind}: {self.message}"
        if not self.loc.source_line:
            return head
        caret = " " * (self.loc.col - 1) + "^"
        return f"{head}\n{self.loc.source_line}\n{caret}"


class ParseError(MLIRError):
    """The text is not MLIR we can read."""


class VerifyError(MLIRError):
    """The IR is well-formed text but breaks an op's type rules."""


class RuntimeFault(MLIRError):
    """Running the program went wrong at this op: out-of-bounds access, division by zero, a
    call to a function without a body, other undefined behaviour."""


def decode_source(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text; a ``ParseError`` at the line and column of the first byte that
    is not UTF-8 otherwise (binary junk gets a position like every other error)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = len(data[: e.start].decode("utf-8"))
        shown = data.decode("utf-8", errors="replace")  # the valid prefix keeps its offsets
        byte = data[e.start]
        raise ParseError(
            f"invalid UTF-8 byte 0x{byte:02x}: the input must be UTF-8 text",
            SourceLoc(file, shown, good),
        ) from None


def did_you_mean(name: str, known: set[str] | frozenset[str]) -> str:
    """``; did you mean 'X'?`` for the closest names in ``known``, or ``""``."""
    close = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
