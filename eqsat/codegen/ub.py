"""Lowering of ``ub.poison``: zeros, the filling the interpreter gives poison too
(``frontend.ops.ub``), so compiled and interpreted runs print the same bytes. LLVM's own
``poison`` would let LLVM fold each use to a different value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.types import CodegenError
from frontend.ir import Operation
from frontend.types import FloatType, IndexType, IntegerType, VectorType


def poison(em: FuncEmitter, op: Operation) -> Any:
    t = op.results[0].type
    scalar = t.element if isinstance(t, VectorType) else t
    if not isinstance(scalar, (IntegerType, IndexType, FloatType)):
        raise CodegenError(f"cannot lower ub.poison of type {t}", op)
    return ir.Constant(em.ty(t), None)  # zeroinitializer, nested layouts included


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {"ub.poison": poison}
