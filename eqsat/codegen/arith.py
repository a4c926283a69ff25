"""Lowerings of the ``arith`` dialect: element-wise, on scalars and vectors alike.

Each op maps over the pieces of its vector operands (``FuncEmitter.map_chunks``); the
semantics are the interpreter's (``frontend.semantics_arith``): integer division by zero is a
runtime fault, ``INT_MIN / -1`` wraps, float ops are IEEE and never fused or reassociated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir

from eqsat.codegen import min_max_chain
from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.types import I1, CodegenError, scalar_type
from frontend.attributes import DenseElementsAttr, FloatAttr, IntegerAttr
from frontend.ir import Operation
from frontend.ops.runtime import elem
from frontend.semantics import as_elem
from frontend.types import IntegerType, Type, VectorType

_CMPF = {
    1: ("o", "=="), 2: ("o", ">"), 3: ("o", ">="), 4: ("o", "<"), 5: ("o", "<="),
    6: ("o", "!="), 7: ("o", "ord"), 8: ("u", "=="), 9: ("u", ">"), 10: ("u", ">="),
    11: ("u", "<"), 12: ("u", "<="), 13: ("u", "!="), 14: ("u", "uno"),
}  # fmt: skip
_CMPI = {
    0: ("s", "=="), 1: ("s", "!="), 2: ("s", "<"), 3: ("s", "<="), 4: ("s", ">"), 5: ("s", ">="),
    6: ("u", "<"), 7: ("u", "<="), 8: ("u", ">"), 9: ("u", ">="),
}  # fmt: skip


def _bin(method: str) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        return em.map_chunks(op, lambda a, b: getattr(em.b, method)(a, b))

    return lower


def _intr(name: str) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        return em.map_chunks(op, lambda *xs: em.intrinsic(name, xs))

    return lower


def _cast(method: str) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        rt = op.results[0].type
        return em.map_chunks(op, lambda a: getattr(em.b, method)(a, _piece_type(em, rt, a)))

    return lower


def _piece_type(em: FuncEmitter, rt: Type, like: ir.Value) -> ir.Type:
    """The result type of one piece: rt's element over like's lane count."""
    e = scalar_type(rt.element if isinstance(rt, VectorType) else rt)
    return ir.VectorType(e, like.type.count) if isinstance(like.type, ir.VectorType) else e


def _width(t: Type) -> int:
    s = t.element if isinstance(t, VectorType) else t
    return s.width if isinstance(s, IntegerType) else 64


def _int_cast(unsigned: bool) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        src, rt = op.operands[0].type, op.results[0].type
        ws, wr = _width(src), _width(rt)

        def cast(a: ir.Value) -> ir.Value:
            t = _piece_type(em, rt, a)
            if wr < ws:
                return em.b.trunc(a, t)
            if wr > ws:
                return em.b.zext(a, t) if unsigned else em.b.sext(a, t)
            return a

        return em.map_chunks(op, cast)

    return lower


def _guard_zero(em: FuncEmitter, op: Operation, b: ir.Value) -> ir.Value:
    """Fault when b has a zero lane; a divisor that cannot trap (zeros replaced by 1)."""
    zero = em.b.icmp_unsigned("==", b, em.like(b, 0))
    em.fault_if(zero, f"{op.name}: integer division by zero", op)
    return em.b.select(zero, em.like(b, 1), b)


def _signed_div(em: FuncEmitter, op: Operation, a: ir.Value, b: ir.Value, rem: bool) -> ir.Value:
    """a sdiv/srem b with b != 0 and INT_MIN / -1 wrapping (x86 would trap)."""
    b = _guard_zero(em, op, b)
    minus1 = em.b.icmp_signed("==", b, em.like(b, -1))
    safe = em.b.select(minus1, em.like(b, 1), b)
    if rem:
        return em.b.select(minus1, em.like(a, 0), em.b.srem(a, safe))
    return em.b.select(minus1, em.b.sub(em.like(a, 0), a), em.b.sdiv(a, safe))


def divsi(em: FuncEmitter, op: Operation) -> Any:
    return em.map_chunks(op, lambda a, b: _signed_div(em, op, a, b, False))


def remsi(em: FuncEmitter, op: Operation) -> Any:
    return em.map_chunks(op, lambda a, b: _signed_div(em, op, a, b, True))


def divui(em: FuncEmitter, op: Operation) -> Any:
    return em.map_chunks(op, lambda a, b: em.b.udiv(a, _guard_zero(em, op, b)))


def remui(em: FuncEmitter, op: Operation) -> Any:
    return em.map_chunks(op, lambda a, b: em.b.urem(a, _guard_zero(em, op, b)))


def _floor_ceil_si(ceil: bool) -> Callable[[FuncEmitter, Operation], Any]:
    """floor/ceil of a / b: the truncated quotient moved by one where the remainder is not 0
    and its sign (relative to b) points the wrong way."""

    def lower(em: FuncEmitter, op: Operation) -> Any:
        def f(a: ir.Value, b: ir.Value) -> ir.Value:
            q = _signed_div(em, op, a, b, False)
            r = _signed_div(em, op, a, b, True)
            zero = em.like(a, 0)
            nonzero = em.b.icmp_signed("!=", r, zero)
            same_sign = em.b.icmp_signed(
                "==", em.b.icmp_signed("<", r, zero), em.b.icmp_signed("<", b, zero)
            )
            if ceil:
                return em.b.select(em.b.and_(nonzero, same_sign), em.b.add(q, em.like(a, 1)), q)
            return em.b.select(
                em.b.and_(nonzero, em.b.not_(same_sign)), em.b.sub(q, em.like(a, 1)), q
            )

        return em.map_chunks(op, f)

    return lower


def ceildivui(em: FuncEmitter, op: Operation) -> Any:
    def f(a: ir.Value, b: ir.Value) -> ir.Value:
        b = _guard_zero(em, op, b)
        q = em.b.udiv(a, b)
        r = em.b.urem(a, b)
        return em.b.select(
            em.b.icmp_unsigned("!=", r, em.like(r, 0)), em.b.add(q, em.like(q, 1)), q
        )

    return em.map_chunks(op, f)


def _shift(method: str) -> Callable[[FuncEmitter, Operation], Any]:
    """Shifts by the bit width or more give 0 (or the sign for shrsi), as the interpreter."""

    def lower(em: FuncEmitter, op: Operation) -> Any:
        w = _width(op.results[0].type)

        def f(a: ir.Value, b: ir.Value) -> ir.Value:
            big = em.b.icmp_unsigned(">=", b, em.like(b, w))
            safe = em.b.select(big, em.like(b, w - 1), b)
            r = getattr(em.b, method)(a, safe)
            return r if method == "ashr" else em.b.select(big, em.like(a, 0), r)

        return em.map_chunks(op, f)

    return lower


def _minmax_int(pred: str, signed: bool) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        cmp = em.b.icmp_signed if signed else em.b.icmp_unsigned
        return em.map_chunks(op, lambda a, b: em.b.select(cmp(pred, a, b), a, b))

    return lower


def cmpf(em: FuncEmitter, op: Operation) -> Any:
    p = op.attributes["predicate"].value

    def f(a: ir.Value, b: ir.Value) -> ir.Value:
        if p in (0, 15):
            t = ir.VectorType(I1, a.type.count) if isinstance(a.type, ir.VectorType) else I1
            return em.const(t, int(p == 15))
        kind, pred = _CMPF[p]
        return (em.b.fcmp_ordered if kind == "o" else em.b.fcmp_unordered)(pred, a, b)

    return em.map_chunks(op, f)


def cmpi(em: FuncEmitter, op: Operation) -> Any:
    kind, pred = _CMPI[op.attributes["predicate"].value]
    cmp = em.b.icmp_signed if kind == "s" else em.b.icmp_unsigned
    return em.map_chunks(op, lambda a, b: cmp(pred, a, b))


def select(em: FuncEmitter, op: Operation) -> Any:
    return em.map_chunks(op, lambda c, a, b: em.b.select(c, a, b))


def negf(em: FuncEmitter, op: Operation) -> Any:
    return em.map_chunks(op, lambda a: em.b.fneg(a))


def bitcast(em: FuncEmitter, op: Operation) -> Any:
    rt = op.results[0].type
    return em.map_chunks(op, lambda a: em.b.bitcast(a, _piece_type(em, rt, a)))


# -- constants --------------------------------------------------------------------------------
def scalar_constant(t: ir.Type, value: Any, e: str) -> ir.Constant:
    """A constant of LLVM scalar type t holding value rounded to element type e."""
    v = np.asarray(as_elem(np.asarray(value), e))[()]
    if e.startswith("f") or e == "bf16":
        return ir.Constant(t, float(v))
    bits = int(np.asarray(v).astype(np.int64))
    return ir.Constant(t, bits & ((1 << t.width) - 1))


def constant_value(em: FuncEmitter, attr: Any, t: Type, op: Operation | None = None) -> ir.Value:
    """The LLVM constant of an attribute (integer, float, dense splat or elements)."""
    e = elem(t)
    if isinstance(t, VectorType):
        if not isinstance(attr, DenseElementsAttr):
            raise CodegenError(f"cannot lower vector constant {attr}", op)
        st = scalar_type(t.element)
        vals = list(attr.values)
        n = max(1, int(np.prod(t.shape)))
        if len(vals) == 1:
            vals = vals * n
        elems = [scalar_constant(st, v, e) for v in vals]
        return _const_vector(em, elems, t)
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        return scalar_constant(scalar_type(t), attr.value, e)
    if isinstance(attr, DenseElementsAttr) and len(attr.values) == 1:
        return scalar_constant(scalar_type(t), attr.values[0], e)
    raise CodegenError(f"cannot lower constant {attr} of type {t}", op)


def _const_vector(em: FuncEmitter, elems: list[ir.Constant], t: VectorType) -> ir.Constant:
    lt = em.ty(t)
    if isinstance(lt, ir.VectorType):
        return ir.Constant(lt, elems)

    def build(ty: ir.Type, flat: list[ir.Constant]) -> ir.Constant:
        if isinstance(ty, ir.VectorType):
            return ir.Constant(ty, flat)
        k = len(flat) // ty.count
        return ir.Constant(
            ty, [build(ty.element, flat[i * k : i * k + k]) for i in range(ty.count)]
        )

    return build(lt, elems)


def constant(em: FuncEmitter, op: Operation) -> Any:
    return constant_value(em, op.attributes["value"], op.results[0].type, op)


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "arith.constant": constant,
    "arith.addi": _bin("add"),
    "arith.subi": _bin("sub"),
    "arith.muli": _bin("mul"),
    "arith.andi": _bin("and_"),
    "arith.ori": _bin("or_"),
    "arith.xori": _bin("xor"),
    "arith.divsi": divsi,
    "arith.remsi": remsi,
    "arith.divui": divui,
    "arith.remui": remui,
    "arith.floordivsi": _floor_ceil_si(False),
    "arith.ceildivsi": _floor_ceil_si(True),
    "arith.ceildivui": ceildivui,
    "arith.shli": _shift("shl"),
    "arith.shrsi": _shift("ashr"),
    "arith.shrui": _shift("lshr"),
    "arith.maxsi": _minmax_int(">", True),
    "arith.minsi": _minmax_int("<", True),
    "arith.maxui": _minmax_int(">", False),
    "arith.minui": _minmax_int("<", False),
    "arith.addf": _bin("fadd"),
    "arith.subf": _bin("fsub"),
    "arith.mulf": _bin("fmul"),
    "arith.divf": _bin("fdiv"),
    "arith.remf": _bin("frem"),
    "arith.negf": negf,
    "arith.maximumf": _intr("maximum"),
    "arith.minimumf": _intr("minimum"),
    "arith.maxnumf": min_max_chain.lower("maxnum"),
    "arith.minnumf": min_max_chain.lower("minnum"),
    "arith.cmpf": cmpf,
    "arith.cmpi": cmpi,
    "arith.select": select,
    "arith.extf": _cast("fpext"),
    "arith.truncf": _cast("fptrunc"),
    "arith.extsi": _cast("sext"),
    "arith.extui": _cast("zext"),
    "arith.trunci": _cast("trunc"),
    "arith.sitofp": _cast("sitofp"),
    "arith.uitofp": _cast("uitofp"),
    "arith.fptosi": _cast("fptosi"),
    "arith.fptoui": _cast("fptoui"),
    "arith.index_cast": _int_cast(False),
    "arith.index_castui": _int_cast(True),
    "arith.bitcast": bitcast,
}
