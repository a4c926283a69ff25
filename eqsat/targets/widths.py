"""Lanes of the types a cost function sees: the ``("type", shape, elem)`` literals the snapshot
appends to typed nodes (see ``eqsat.extract.Snapshot._with_types``), element types and bits."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a type only: the CLI's commands that need no e-graph load no egglog
    from eqsat.extract import Literal

ELEMENT_TYPES = ("f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "index")
BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "i1": 1, "i8": 8, "i16": 16, "i32": 32}


def type_lanes(t: Literal) -> tuple[int, str | None] | None:
    """(lanes, element type) of a ``("type", shape, elem)`` / ``("type", text)`` literal;
    scalars have one lane; None for types that hold no lanes (memrefs, unknown)."""
    if not (isinstance(t, tuple) and t and t[0] == "type"):
        return None
    if len(t) == 3:
        n = 1
        for d in t[1]:  # type: ignore[union-attr]
            n *= int(d)
        return n, str(t[2])
    text = str(t[1])
    if text in ELEMENT_TYPES or text[:1] in ("f", "i") and text[1:].isdigit():
        return 1, text
    return None


def node_types(literals: tuple[Literal, ...]) -> tuple[Any, tuple[Any, ...]]:
    """(result type, operand types) from the literals the snapshot appends (or None, ())."""
    res = literals[-1] if literals else None
    if not (isinstance(res, tuple) and res and res[0] == "type"):
        return None, ()
    ops = literals[-2] if len(literals) >= 2 else None
    if isinstance(ops, tuple) and ops and ops[0] == "operands":
        return res, ops[1:]
    return res, ()


def contract_space(maps: Any, operands: tuple[Any, ...]) -> int | None:
    """Size of a contraction's iteration space from its maps and operand types."""
    if not isinstance(maps, tuple) or len(operands) < 2:
        return None
    sizes: dict[int, int] = {}
    for m, t in zip(maps, operands):
        if isinstance(t, tuple) and len(t) == 3 and isinstance(m, tuple):
            for d, s in zip(m, t[1]):  # type: ignore[arg-type]
                sizes[int(d)] = int(s)
    n = 1
    for s in sizes.values():
        n *= s
    return n if sizes else None


def lanes_apart(operands: tuple[Any, ...]) -> bool:
    """Whether a transfer's map (``("map", rank, positions)`` among its operands, see
    ``Snapshot._with_types``) reads the vector's last dim from another memref dim than the
    last (or broadcasts it): its lanes are not consecutive in memory."""
    for t in operands:
        if isinstance(t, tuple) and len(t) == 3 and t[0] == "map":
            rank, positions = t[1], tuple(t[2])
            return bool(positions) and positions[-1] != rank - 1
    return False
