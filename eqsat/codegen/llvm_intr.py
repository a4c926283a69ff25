"""Lowerings of the ``llvm`` dialect's target-independent vector intrinsics (HWV level):
``llvm.intr.fma``/``fmuladd``, ``vector.reduce.*`` and ``matrix.*``.

Semantics are ``frontend.semantics_hwv``'s. ``fmuladd`` rounds once there, so it is emitted
as ``llvm.fma`` (with fast-math, as LLVM's own ``fmuladd``). The reductions without
``reassoc`` are the interpreter's ordered fold (the plain ``vector.reduction`` lowering with the op's kind and start value); ``fadd``/``fmul``
with ``reassoc`` are the interpreter's fixed pairwise tree, emitted as explicit shuffles and
lane-wise ops (never LLVM's own reassociated order), the start value combined last. The
matrix intrinsics use the plain lowerings of ``vector.matrix_multiply``/``flat_transpose``:
products and sums in the interpreter's order, in the run's matrix layout (row-major unless
``compile(..., matrix_layout="column-major")``), so LLVM's ``-matrix-default-layout`` never
matters and ``llvm.matrix.*`` (which aborts without ``--enable-matrix``) is never emitted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.gather import Sources, arange
from eqsat.codegen.vector_reduce import (
    _start,
    combine,
    fold,
    matrix_multiply,
    pairwise_tree,
)
from eqsat.codegen.vector_shape import flat_transpose
from frontend.ir import Operation
from frontend.ops.llvm import _reassoc
from frontend.ops.runtime import elem
from frontend.semantics_core import is_float
from frontend.semantics_hwv import REDUCE_KINDS
from frontend.types import VectorType


def fma(em: FuncEmitter, op: Operation) -> Any:
    """fma, and fmuladd without fast-math: one rounding (scalars or vectors of any rank, piece
    by piece)."""
    return em.map_chunks(op, em.fma)


def fmuladd(em: FuncEmitter, op: Operation) -> Any:
    """With fast-math (``--reassoc``), LLVM's own fmuladd: fused where the target has an FMA
    unit, a multiply then an add (two roundings) where it has none (x86-64-v2), as MLIR's
    lowering of ``vector.fma`` gives. Without, the one rounding the interpreter computes."""
    if not em.m.reassoc:
        return fma(em, op)
    return em.map_chunks(op, lambda a, b, c: em.intrinsic("fmuladd", [a, b, c]))


def _reduce(name: str) -> Callable[[FuncEmitter, Operation], Any]:
    kind = REDUCE_KINDS[name]
    ordered = name in ("fadd", "fmul")

    def lower(em: FuncEmitter, op: Operation) -> Any:
        v = op.operands[-1]
        rt = op.results[0].type
        e = elem(rt)
        if ordered and _reassoc(op):
            start = em.get(op.operands[0])
            return combine(em, kind, start, pairwise_tree(em, kind, em.get(v)), True)
        if not ordered and isinstance(v.type, VectorType) and v.type.rank == 1:
            # min/max, and/or/xor and integer add/mul give the same value in any order: the
            # tree's log depth instead of a chain of n - 1 dependent steps
            return pairwise_tree(em, kind, em.get(v), is_float=is_float(e))
        acc = (em.get(op.operands[0]), op.operands[0].type) if ordered else None
        items = arange(v.type).reshape(1, -1)
        src = Sources.of(em, [(em.get(v), v.type)])
        start = _start(em, acc, kind, e, rt)
        return fold(em, rt, kind, e, start, [(src, items)], lambda x: x, None)

    return lower


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "llvm.intr.fma": fma,
    "llvm.intr.fmuladd": fmuladd,
    **{f"llvm.intr.vector.reduce.{name}": _reduce(name) for name in REDUCE_KINDS},
    "llvm.intr.matrix.multiply": matrix_multiply,
    "llvm.intr.matrix.transpose": flat_transpose,
}
