"""Diagnostics that point at the source: ``FILE:LINE:COL: error: message``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SourceLoc:
    """A position in a named source text (1-based line and column)."""

    file: str
    line: int
    col: int
    source_line: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


def locate(file: str, text: str, offset: int) -> SourceLoc:
    """The line/column of a character offset; computed only when an error is reported."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return SourceLoc(file, line, offset - start + 1, text[start : end if end >= 0 else len(text)])


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
