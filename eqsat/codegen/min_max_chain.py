"""``arith.maxnumf``/``minnumf`` in chains: the signed zero fixed once per chain, not per op.

A reduction over the outer dim that eqsat lowers to lane-wise ops (``innerparallel``) is a chain
``max(max(max(acc, r0), r1), r2) ...`` of ``arith.maxnumf``, each result used only by the
next. Each op alone must return the interpreter's zero (+0 > -0 for the maximum, LLVM's
``maxnum`` may return either: ``FuncEmitter.min_max_num``'s compare, and and select), but a
value used only inside the chain is never seen: its ops are bare ``llvm.maxnum`` and the op
that ends the chain fixes the zero's sign from the chain's operands
(``eqsat.codegen.emitter.ZeroWitness``). Measured on a 16x64 f32 maximum over rows: the per-op
fix was the whole gap to MLIR 22's code (README, cost-model regret). Each op adds its operands
to the witness right after its own step, while they are in registers: a witness built by the
op that ends the chain kept every operand live to the end (on x86-64-v2, 16 rows of 4 lanes
spilled, 1.7x MLIR 22's time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter, ZeroWitness
from frontend.ir import Operation, Value
from frontend.types import VectorType


def _inner(em: FuncEmitter, op: Operation) -> bool:
    """Is op's result used once, by an op of the same name in the same block (the chain goes
    on there, after op)?"""
    users = em.users(op.results[0])
    return (len(users) == 1 and users[0].name == op.name and users[0].parent is op.parent
            and users[0].results[0].type == op.results[0].type)  # fmt: skip


def _chained(em: FuncEmitter, op: Operation, v: Value) -> bool:
    """Is operand v of op made by an inner op of op's chain?"""
    src = v.owner
    return isinstance(src, Operation) and src.name == op.name and _inner(em, src)


def _leaves(em: FuncEmitter, op: Operation) -> list[Value]:
    """The operands of the chain that ends at op (the values its inner ops do not make), in
    order; iterative, for chains longer than Python's recursion limit."""
    out: list[Value] = []
    stack = list(reversed(op.operands))
    while stack:
        v = stack.pop()
        if _chained(em, op, v):
            stack.extend(reversed(v.owner.operands))  # type: ignore[union-attr]
        else:
            out.append(v)
    return out


def lower(name: str) -> Callable[[FuncEmitter, Operation], Any]:
    """The lowering of ``arith.maxnumf`` (``name`` ``maxnum``) or ``arith.minnumf``."""

    def one(em: FuncEmitter, op: Operation) -> Any:
        inner = _inner(em, op)
        chained = [_chained(em, op, v) for v in op.operands]
        if not inner and not any(chained):  # a chain of one op: its own fix is as short
            return em.map_chunks(op, lambda a, b: em.min_max_num(name, a, b))
        t = op.results[0].type
        n = len(em.chunks_count(t))

        def pieces(v: Value) -> list[Any]:
            x = em.get(v)
            return em.chunks(x, v.type) if isinstance(v.type, VectorType) else [x] * n

        a, b = pieces(op.operands[0]), pieces(op.operands[1])
        if not isinstance(a[0].type, ir.VectorType) or a[0].type.count == 1:
            # one lane (general-purpose registers for the witness): the witness after the
            # chain, from all its leaves, as vector_reduce.fold does for one-lane folds
            out = [em.intrinsic(name, [x, y]) for x, y in zip(a, b)]
            if inner:
                return em.from_chunks(out, t)
            per_leaf = [pieces(v) for v in _leaves(em, op)]
            return em.from_chunks([em.fix_zero_sign(name, r, [p[i] for p in per_leaf])
                                   for i, r in enumerate(out)], t)  # fmt: skip
        # per piece: the witness of the chain so far (the chained operands' merged), the
        # step, then this op's leaves into the witness while they are in registers
        mine: list[ZeroWitness] | None = None
        for v, c in zip(op.operands, chained):
            if c:
                theirs = em.zero_witnesses.pop(v)
                mine = theirs if mine is None else [x.merge(y) for x, y in zip(mine, theirs)]
        if mine is None:
            mine = [ZeroWitness(em, name, x.type) for x in a]
        right = [w.last for w in theirs] if chained[1] else b  # the chain's last item so far
        out = []
        for i in range(n):
            out.append(em.intrinsic(name, [a[i], b[i]]))
            for leaf, c in ((a[i], chained[0]), (b[i], chained[1])):
                if not c:
                    mine[i].add(leaf)
            mine[i].last = right[i]
        if inner:
            em.zero_witnesses[op.results[0]] = mine
            return em.from_chunks(out, t)
        return em.from_chunks([w.settle(r) for w, r in zip(mine, out)], t)

    return one
