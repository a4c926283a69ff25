"""The exact text `vector.print` emits through MLIR's C runner utils (measured, mlir-runner-22).

* vectors nest as ``( a, b )`` per dim; a 0-D vector prints as ``( x )``;
* floats use C ``%g`` of the value widened to double (f16/bf16 are widened first, so f16 0.1
  prints ``0.0999756``), NaN prints ``nan`` or ``-nan`` by its sign bit, infinities ``inf`` and
  ``-inf``, negative zero ``-0``;
* integers print signed (i1 as ``0``/``1``), but ``index`` and unsigned ``uiN`` elements print
  UNSIGNED (printU64): an index -1 prints ``18446744073709551615``, a ``ui4`` holding the bits
  of -8 prints ``8``;
* punctuation after the value: newline ``\\n`` (default), comma ``, ``, open ``( ``, close
  `` )``, no_punctuation nothing; a print with no value emits just the punctuation;
* ``str "..."`` emits the string as is, with NO newline, and may not be combined with a value or
  a punctuation.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .semantics_core import SemanticsError, as_elem, is_float, is_int

__all__ = ["PUNCTUATION", "format_print", "format_scalar", "format_value", "write_text"]

PUNCTUATION = {
    "newline": "\n",
    "comma": ", ",
    "open": "( ",
    "close": " )",
    "no_punctuation": "",
}


def format_scalar(x: Any, elem: str, unsigned: bool = False) -> str:
    """One element as printF32/printF64 (%g) or printI64/printU64 print it (``unsigned``: the
    element type is ``uiN``, whose bits print as an unsigned number)."""
    if is_float(elem):
        v = float(np.asarray(as_elem(x, elem)))
        if math.isnan(v):
            return "-nan" if math.copysign(1.0, v) < 0 else "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return format(v, "g")  # same as C printf %g for finite doubles
    if is_int(elem):
        v = int(np.asarray(as_elem(x, elem)).astype(np.int64))
        if elem == "index":
            return str(v & ((1 << 64) - 1))
        if elem == "i1":
            return "1" if v else "0"
        if unsigned:
            return str(v & ((1 << int(elem[1:])) - 1))
        return str(v)
    raise SemanticsError(f"vector.print of element type {elem!r} is not supported")


def format_value(
    value: Any, elem: str, vector: bool | None = None, unsigned: bool = False
) -> str:
    """The printed form of a vector (nested parentheses) or a scalar; `vector` says whether a
    0-D array is a 0-D vector (default: any ndarray is a vector, numpy scalars are scalars)."""
    is_vec = isinstance(value, np.ndarray) if vector is None else vector
    a = np.asarray(value)
    if not is_vec:
        if a.ndim:
            raise SemanticsError(f"a scalar was expected, got shape {a.shape}")
        return format_scalar(a[()], elem, unsigned)
    if a.ndim == 0:
        return f"( {format_scalar(a[()], elem, unsigned)} )"

    def rec(x: np.ndarray) -> str:
        if x.ndim == 1:
            return "( " + ", ".join(format_scalar(e, elem, unsigned) for e in x) + " )"
        return "( " + ", ".join(rec(sub) for sub in x) + " )"

    return rec(a)


def write_text(out: Any, text: str) -> None:
    """Write printed text; bytes of a string literal that are not UTF-8 (``"\\FF"``, kept as
    lone surrogates by ``frontend.lexer.unquote``) go out as those bytes, as mlir-runner's."""
    try:
        out.write(text)
        return
    except UnicodeEncodeError:
        pass
    data = text.encode("utf-8", errors="surrogateescape")
    if hasattr(out, "buffer"):
        out.flush()
        out.buffer.write(data)
    else:
        out.write(data.decode("utf-8", errors="replace"))


def format_print(
    value: Any = None,
    elem: str | None = None,
    punctuation: str = "newline",
    string: str | None = None,
    vector: bool | None = None,
    unsigned: bool = False,
) -> str:
    """The exact stdout text of one vector.print: value text + punctuation text, or the bare
    (already unescaped) string for `str`, which adds no newline."""
    if punctuation not in PUNCTUATION:
        raise SemanticsError(f"unknown vector.print punctuation {punctuation!r}")
    if string is not None:
        if value is not None or punctuation != "newline":
            raise SemanticsError("vector.print: `str` excludes a source and a punctuation")
        return string.split("\0", 1)[0]  # a C string to the runner's printString
    if value is None:
        return PUNCTUATION[punctuation]
    if elem is None:
        raise SemanticsError("vector.print of a value needs its element type")
    return format_value(value, elem, vector, unsigned) + PUNCTUATION[punctuation]
