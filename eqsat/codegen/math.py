"""Lowerings of the ``math`` dialect.

Exact ops (sqrt, abs, floor, ...) are LLVM intrinsics. Transcendentals call the C library's
function of the element's precision on each element (``exp`` on f64, ``expf`` on f32, and on
f16/bf16 widened to f32, then rounded back), exactly as the interpreter computes them
(``frontend.semantics_math``), so compiled and interpreted programs agree bit for bit, and
with MLIR's own lowering, whose LLVM intrinsics become the same calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.types import F32, F64, I1, I32, vector_of
from frontend.ir import Operation

LIBM = {
    "exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2",
    "log10": "log10", "log1p": "log1p", "tanh": "tanh", "sinh": "sinh", "cosh": "cosh",
    "sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan",
    "asinh": "asinh", "acosh": "acosh", "atanh": "atanh", "erf": "erf", "erfc": "erfc",
    "cbrt": "cbrt", "atan2": "atan2", "powf": "pow",
}  # fmt: skip
INTRINSIC = {
    "sqrt": "sqrt", "absf": "fabs", "ceil": "ceil", "floor": "floor", "trunc": "trunc",
    "roundeven": "roundeven", "round": "round", "copysign": "copysign",
    "ctpop": "ctpop",
}  # fmt: skip


def _scalars(em: FuncEmitter, x: ir.Value) -> list[ir.Value]:
    if isinstance(x.type, ir.VectorType):
        return [em.b.extract_element(x, I32(i)) for i in range(x.type.count)]
    return [x]


def _libm(name: str) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        arity = len(op.operands)

        def f(*xs: ir.Value) -> ir.Value:
            lanes = list(zip(*(_scalars(em, x) for x in xs)))
            et = lanes[0][0].type
            c_name, wt = (name, F64) if et == F64 else (name + "f", F32)
            fn = em.m.declare(c_name, wt, [wt] * arity)
            # Not a builtin to LLVM: it would fold a call on a constant with the double
            # function rounded to float (coshf(1) one ulp off the library's), or rewrite it.
            fn.attributes.add("nobuiltin")
            outs = []
            for args in lanes:
                wide = [a if a.type == wt else em.b.fpext(a, wt) for a in args]
                r = em.b.call(fn, wide)
                outs.append(r if et == wt else em.b.fptrunc(r, et))
            return vector_of(em.b, outs) if isinstance(xs[0].type, ir.VectorType) else outs[0]

        return em.map_chunks(op, f)

    return lower


def _intr(name: str) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        return em.map_chunks(op, lambda *xs: em.intrinsic(name, xs))

    return lower


def _bits(name: str) -> Callable[[FuncEmitter, Operation], Any]:
    """ctlz/cttz/absi: the intrinsic with its 'poison at zero/min' flag off."""

    def lower(em: FuncEmitter, op: Operation) -> Any:
        return em.map_chunks(
            op, lambda x: em.intrinsic(name, [x, I1(0)], over=[x.type], ret=x.type)
        )

    return lower


def rsqrt(em: FuncEmitter, op: Operation) -> Any:
    return em.map_chunks(op, lambda x: em.b.fdiv(em.like(x, 1.0), em.intrinsic("sqrt", [x])))


def ipowi(em: FuncEmitter, op: Operation) -> Any:
    """a^b mod 2^w by square-and-multiply over the bits of b; b < 0 as the interpreter
    (1 for a == 1, +-1 for a == -1, else 0; a == 0 faults)."""

    def f(a: ir.Value, b: ir.Value) -> ir.Value:
        w = a.type.element.width if isinstance(a.type, ir.VectorType) else a.type.width
        res, base = em.like(a, 1), a
        for i in range(w - 1):
            bit = em.b.icmp_unsigned("!=", em.b.and_(b, em.like(b, 1 << i)), em.like(b, 0))
            res = em.b.select(bit, em.b.mul(res, base), res)
            base = em.b.mul(base, base)
        neg = em.b.icmp_signed("<", b, em.like(b, 0))
        em.fault_if(
            em.b.and_(neg, em.b.icmp_signed("==", a, em.like(a, 0))),
            "math.ipowi: 0 to a negative power divides by zero",
            op,
        )
        odd = em.b.icmp_unsigned("!=", em.b.and_(b, em.like(b, 1)), em.like(b, 0))
        m1 = em.b.select(odd, em.like(a, -1), em.like(a, 1))
        negres = em.b.select(
            em.b.icmp_signed("==", a, em.like(a, 1)),
            em.like(a, 1),
            em.b.select(em.b.icmp_signed("==", a, em.like(a, -1)), m1, em.like(a, 0)),
        )
        return em.b.select(neg, negres, res)

    return em.map_chunks(op, f)


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    **{f"math.{k}": _libm(v) for k, v in LIBM.items()},
    **{f"math.{k}": _intr(v) for k, v in INTRINSIC.items()},
    "math.ctlz": _bits("ctlz"),
    "math.cttz": _bits("cttz"),
    "math.absi": _bits("abs"),
    "math.rsqrt": rsqrt,
    "math.ipowi": ipowi,
    "math.fma": lambda em, op: em.map_chunks(op, em.fma),
}
