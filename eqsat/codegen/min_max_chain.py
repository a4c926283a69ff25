"""``arith.maxnumf``/``minnumf`` in chains: the signed zero fixed once per chain, not per op.

A reduction over the outer dim that eqsat lowers to lane-wise ops (``innerparallel``) is a chain
``max(max(max(acc, r0), r1), r2) ...`` of ``arith.maxnumf``, each result used only by the
next. Each op alone must return the interpreter's zero (+0 > -0 for the maximum, LLVM's
``maxnum`` may return either: ``FuncEmitter.min_max_num``'s compare, and and select), but a
value used only inside the chain is never seen: its ops are bare ``llvm.maxnum`` and the op
that ends the chain fixes the zero's sign from the chain's operands
(``FuncEmitter.fix_zero_sign``). Measured on a 16x64 f32 maximum over rows: the per-op fix was
the whole gap to MLIR 22's code (README, cost-model regret).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eqsat.codegen.emitter import FuncEmitter
from frontend.ir import Operation, Value
from frontend.types import VectorType


def _inner(em: FuncEmitter, op: Operation) -> bool:
    """Is op's result used once, by an op of the same name in the same block (the chain goes
    on there, after op)?"""
    users = em.users(op.results[0])
    return (len(users) == 1 and users[0].name == op.name and users[0].parent is op.parent
            and users[0].results[0].type == op.results[0].type)  # fmt: skip


def _leaves(em: FuncEmitter, op: Operation) -> list[Value]:
    """The operands of the chain that ends at op (the values its inner ops do not make), in
    order; iterative, for chains longer than Python's recursion limit."""
    out: list[Value] = []
    stack = list(reversed(op.operands))
    while stack:
        v = stack.pop()
        src = v.owner
        if isinstance(src, Operation) and src.name == op.name and _inner(em, src):
            stack.extend(reversed(src.operands))
        else:
            out.append(v)
    return out


def lower(name: str) -> Callable[[FuncEmitter, Operation], Any]:
    """The lowering of ``arith.maxnumf`` (``name`` ``maxnum``) or ``arith.minnumf``."""

    def bare(em: FuncEmitter, op: Operation) -> Any:
        return em.map_chunks(op, lambda a, b: em.intrinsic(name, [a, b]))

    def one(em: FuncEmitter, op: Operation) -> Any:
        if _inner(em, op):
            return bare(em, op)
        leaves = _leaves(em, op)
        if len(leaves) <= 2:  # a chain of one op: its own fix is as short
            return em.map_chunks(op, lambda a, b: em.min_max_num(name, a, b))
        t = op.results[0].type
        n = len(em.chunks_count(t))

        def pieces(v: Value, x: Any) -> list[Any]:
            return em.chunks(x, v.type) if isinstance(v.type, VectorType) else [x] * n

        rows = pieces(op.results[0], bare(em, op))
        per_leaf = [pieces(v, em.get(v)) for v in leaves]
        fixed = [em.fix_zero_sign(name, row, [p[i] for p in per_leaf])
                 for i, row in enumerate(rows)]  # fmt: skip
        return em.from_chunks(fixed, t)

    return one
