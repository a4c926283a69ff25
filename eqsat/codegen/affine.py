"""Lowerings of ``affine.apply``/``min``/``max``: index arithmetic on i64, with ``floordiv``,
``ceildiv`` and ``mod`` computed as ``-lower-affine`` does (``frontend.affine.floordiv`` and
friends hold the same formulas for the interpreter); a zero divisor is a runtime fault."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.types import I64
from frontend.affine import AffineBinary, AffineConstant, AffineDim, AffineExpr, AffineSymbol
from frontend.ir import Operation


def _expr(em: FuncEmitter, op: Operation, e: AffineExpr, dims: list, syms: list) -> ir.Value:
    if isinstance(e, AffineDim):
        return dims[e.position]
    if isinstance(e, AffineSymbol):
        return syms[e.position]
    if isinstance(e, AffineConstant):
        return I64(e.value & ((1 << 64) - 1))
    assert isinstance(e, AffineBinary)
    a, b = _expr(em, op, e.lhs, dims, syms), _expr(em, op, e.rhs, dims, syms)
    bb = em.b
    if e.op == "+":
        return bb.add(a, b)
    if e.op == "*":
        return bb.mul(a, b)
    b = _nonzero(em, op, b)
    zero, one = I64(0), I64(1)
    if e.op == "mod":
        r = bb.srem(a, b)
        return bb.select(bb.icmp_signed("<", r, zero), bb.add(r, b), r)
    if e.op == "floordiv":  # a < 0 ? -1 - (-1 - a) / b : a / b
        neg = bb.icmp_signed("<", a, zero)
        minus1 = I64((1 << 64) - 1)
        q = bb.sdiv(bb.select(neg, bb.sub(minus1, a), a), b)
        return bb.select(neg, bb.sub(minus1, q), q)
    # ceildiv: a <= 0 ? -(-a / b) : (a - 1) / b + 1
    nonpos = bb.icmp_signed("<=", a, zero)
    q = bb.sdiv(bb.select(nonpos, bb.sub(zero, a), bb.sub(a, one)), b)
    return bb.select(nonpos, bb.sub(zero, q), bb.add(q, one))


def _nonzero(em: FuncEmitter, op: Operation, b: ir.Value) -> ir.Value:
    """Fault on a zero divisor; a divisor that cannot trap (0 replaced by 1)."""
    if isinstance(b, ir.Constant) and b.constant not in (0, None):
        return b
    zero = em.b.icmp_signed("==", b, I64(0))
    em.fault_if(zero, f"{op.name}: division by zero in an affine map", op)
    return em.b.select(zero, I64(1), b)


def _lower(pick: str | None) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        m = op.attributes["map"].map
        xs = [em.get(v) for v in op.operands]
        dims, syms = xs[: m.num_dims], xs[m.num_dims :]
        vals = [_expr(em, op, e, dims, syms) for e in m.results]
        out = vals[0]
        for v in vals[1:]:
            out = em.b.select(em.b.icmp_signed(pick or "<", v, out), v, out)
        return out

    return lower


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "affine.apply": _lower(None),
    "affine.min": _lower("<"),
    "affine.max": _lower(">"),
}
