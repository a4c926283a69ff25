"""Helpers shared by the dialect tables: errors tied to an op, typed operand access."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from frontend.attributes import ArrayAttr
from frontend.errors import VerifyError
from frontend.ir import Operation
from frontend.types import Type, VectorType


def fail(op: Operation, message: str) -> VerifyError:
    """A verifier error at the op, phrased like MLIR's ``'vector.x' op ...``."""
    return VerifyError(f"'{op.name}' op {message}", op.loc)


def verify_symbol_parent(op: Operation) -> None:
    """A symbol (func.func, a named builtin.module) must sit directly in a symbol table:
    the top level, or a builtin.module (the only op with the SymbolTable trait here)."""
    parent = op.parent.parent.parent if op.parent and op.parent.parent else None
    if parent is not None and parent.name != "builtin.module":
        raise fail(op, "symbol's parent must have the SymbolTable trait")


def operand_type(op: Operation, name: str) -> Type | None:
    v = op.operand(name)
    return None if v is None else v.type


def vec(op: Operation, name: str) -> VectorType:
    t = operand_type(op, name)
    if not isinstance(t, VectorType):
        raise fail(op, f"operand '{name}' must be a vector, but got {t}")
    return t


_value = attrgetter("value")


def ints(attr: Any) -> tuple[int, ...]:
    """Integer values of a DenseArrayAttr or an ArrayAttr of IntegerAttr."""
    if attr is None:
        return ()
    # An ArrayAttr tested first and read at C level: verifying a slice reads three of these,
    # and ``hasattr`` costs a raised AttributeError when it says no.
    if attr.__class__ is not ArrayAttr and hasattr(attr, "element"):
        return tuple(attr.values)
    return tuple(map(_value, attr.values))


def is_permutation(perm: tuple[int, ...], n: int) -> bool:
    return sorted(perm) == list(range(n))


def cast_format(src: str, dst: str) -> str:
    """The assembly format of a one-operand conversion: ``$src attr-dict : type to type``."""
    return f"${src} attr-dict `:` type(${src}) `to` type(${dst})"
