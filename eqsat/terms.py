"""Reading extracted terms: types and operand lists, shared by the decoder and the strategy
expanders (kept below both so that imports run one way: decode -> strategies -> terms)."""

from __future__ import annotations

from functools import cache
from typing import Any

from frontend.parse_attrs import AttrParser
from frontend.types import Type, VectorType


class DecodeError(Exception):
    """An extracted term that does not describe valid IR (a bug in a rule)."""


@cache
def decode_type(t: Any) -> Type:
    """The IR type of a ``(VT shape elem)`` or ``(TT text)`` term."""
    if t.op == "VT":
        shape, elem = t.args
        return VectorType(tuple(shape), AttrParser(elem).parse_type())  # type: ignore[arg-type]
    if t.op == "TT":
        return AttrParser(t.args[0]).parse_type()  # type: ignore[arg-type]
    raise DecodeError(f"not a type term: {t}")


def term_list(t: Any) -> list[Any]:
    """The elements of a ``TCons``/``TNil`` list term."""
    out: list[Any] = []
    while t.op == "TCons":
        out.append(t.args[0])
        t = t.args[1]
    return out
