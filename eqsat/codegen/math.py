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

from eqsat.codegen.emitter import FuncEmitter, mangle
from eqsat.codegen.nans import quieted
from eqsat.codegen.types import F32, F64, I1, I32
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


def _libm(name: str) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        def f(*xs: ir.Value) -> ir.Value:
            if isinstance(xs[0].type, ir.VectorType):
                return _vector_call(em, name, list(xs))
            return _scalar_call(em, em.b, name, list(xs))

        return em.map_chunks(op, f)

    return lower


def _libm_function(
    em: FuncEmitter, name: str, et: ir.Type, arity: int
) -> tuple[ir.Function, ir.Type]:
    """The C library's function for elements of type ``et`` (``expf`` for f32, f16 and bf16,
    ``exp`` for f64) and the type it computes in."""
    c_name, wt = (name, F64) if et == F64 else (name + "f", F32)
    fn = em.m.declare(c_name, wt, [wt] * arity)
    # Not a builtin to LLVM: it would fold a call on a constant with the double function
    # rounded to float (coshf(1) one ulp off the library's), or rewrite it.
    fn.attributes.add("nobuiltin")
    return fn, wt


def _scalar_call(em: FuncEmitter, b: ir.IRBuilder, name: str, args: list[ir.Value]) -> ir.Value:
    et = args[0].type
    fn, wt = _libm_function(em, name, et, len(args))
    wide = [a if a.type == wt else b.fpext(a, wt) for a in args]
    if len(wide) > 1:  # pow(1, y), pow(x, 0): 1 for a quiet NaN, NaN for a signalling one
        wide = [quieted(b, a) for a in wide]  # (libm sees every NaN quiet)
    r = b.call(fn, wide)
    return r if et == wt else b.fptrunc(r, et)


def _vector_call(em: FuncEmitter, name: str, xs: list[ir.Value]) -> ir.Value:
    """The function on every lane, through a helper that reads its arguments from memory and
    writes its results there (``_eqsat_<name>_<type>``, never inlined).

    Why not extract, call and insert in place: each call clobbers every vector register, so
    LLVM spills each lane's argument taken out of the register (a shuffle, a store and a load
    a lane), where MLIR's ``llvm.exp.v256f32``, split by LLVM, reads each lane from the
    spilled vector in one instruction: 1,184 stack moves a softmax row against MLIR's 550
    (278 through the helper)."""
    vt: ir.VectorType = xs[0].type  # type: ignore[assignment]
    helper = _lanes_helper(em, name, vt, len(xs))
    slots = []
    for x in [*xs, None]:
        slot = em.alloca(vt)
        if x is not None:
            em.b.store(x, slot)
        slots.append(slot)
    em.b.call(helper, [slots[-1], *slots[:-1]])
    return em.b.load(slots[-1])


def _lanes_helper(em: FuncEmitter, name: str, vt: ir.VectorType, arity: int) -> ir.Function:
    """``void _eqsat_<name>_<vNtype>(<N x T>* out, <N x T>* in...)``: out[i] = f(in[i]...)
    for every lane, in a loop that LLVM may unroll but not vectorize (the calls are not
    builtins)."""
    fname = f"_eqsat_{name}_{mangle(vt)}"
    got = em.m.module.globals.get(fname)
    if got is not None:
        return got  # type: ignore[return-value]
    ptr = vt.as_pointer()
    fn = ir.Function(em.m.module, ir.FunctionType(ir.VoidType(), [ptr] * (arity + 1)), fname)
    fn.linkage = "internal"
    fn.attributes.add("noinline")
    entry, loop, done = (fn.append_basic_block(n) for n in ("entry", "lane", "done"))
    b = ir.IRBuilder(entry)
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32)
    i.add_incoming(I32(0), entry)
    out, *ins = (b.bitcast(p, vt.element.as_pointer()) for p in fn.args)
    args = [b.load(b.gep(p, [i])) for p in ins]
    b.store(_scalar_call(em, b, name, args), b.gep(out, [i]))
    nxt = b.add(i, I32(1))
    i.add_incoming(nxt, loop)
    b.cbranch(b.icmp_unsigned("<", nxt, I32(vt.count)), loop, done)
    b.position_at_end(done)
    b.ret_void()
    return fn


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
