"""Reading what the user hands the command line: files (or stdin) and numeric options."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from frontend.errors import decode_source


def read_input(path: str) -> tuple[str, str]:
    """(text, name) of an MLIR file, or of stdin for ``-``; a clean exit when unreadable,
    a ``ParseError`` at the first byte that is not UTF-8."""
    if path == "-":
        if sys.stdin is None:  # started with file descriptor 0 closed
            raise SystemExit("eqsat: error: cannot read <stdin>: standard input is closed")
        try:
            data = sys.stdin.buffer.read()
        except OSError as e:
            raise SystemExit(f"eqsat: error: cannot read <stdin>: {e.strerror}") from None
        return decode_source(data, "<stdin>"), "<stdin>"
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise SystemExit(f"eqsat: error: cannot read {path}: {e.strerror}") from None
    return decode_source(data, path), path


def positive(text: str) -> int:
    """An argparse type: an integer >= 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {n}")
    return n


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < x < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text}")
    return x


def memory_size(text: str) -> int:
    """An argparse type: a memory size such as ``4G`` or ``500M``, in bytes."""
    from eqsat.memory import parse_size

    try:
        return parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def egraph_file(text: str) -> str:
    """An argparse type: a file ``eqsat.export.dump`` can write (.json, .dot or .svg)."""
    from pathlib import Path

    from eqsat.export import FORMATS

    if Path(text).suffix.lower() not in FORMATS:
        raise argparse.ArgumentTypeError(
            f"expected a file name ending in {', '.join(FORMATS)}, got {text!r}"
        )
    return text
