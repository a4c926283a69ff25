"""A fused multiply-add that rounds once on every target.

Where the target has an FMA unit (or is not x86), ``llvm.fma``. An x86 target without one
(x86-64-v2) would turn ``llvm.fma`` into a libm ``fmaf`` call per lane (13x MLIR's unfused
``fmuladd`` on ``axpy_8x32``, experiments/results/bench_x86-64-v2.md). For elements of at most
24 bits of precision (f32, f16, bf16) the one rounding is computed in vector registers instead,
as the interpreter computes it (``frontend.semantics_math.fma``): the product is exact in
double; the sum is rounded to odd in double (TwoSum gives the sum's exact error; an inexact sum
is truncated toward zero and gets its last bit set); one rounding to nearest to the element
type is then the correctly rounded result (Boldo and Melquiond, "Emulation of FMA and
correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 2008: double has
53 >= 2 x 24 + 2 bits). Non-finite operands give a NaN error, which leaves the sum as it is.
f64 keeps ``llvm.fma``: there is no wider type to compute in.
"""

from __future__ import annotations

from llvmlite import ir

from eqsat.codegen.types import F64, I64

NARROW = ("float", "half", "bfloat")  # at most 24 bits of precision


def needs_emulation(x: ir.Value, triple: str, has_fma: bool) -> bool:
    """Would ``llvm.fma`` on x's type be a libm call per lane here?"""
    elem = x.type.element if isinstance(x.type, ir.VectorType) else x.type
    return triple.startswith("x86_64") and not has_fma and str(elem) in NARROW


def fma_round_to_odd(b: ir.IRBuilder, x: ir.Value, y: ir.Value, z: ir.Value) -> ir.Value:
    """x * y + z rounded once, for elements of at most 24 bits (scalars or vectors)."""
    n = x.type.count if isinstance(x.type, ir.VectorType) else None
    wide = F64 if n is None else ir.VectorType(F64, n)
    bits_t = I64 if n is None else ir.VectorType(I64, n)

    def const(t: ir.Type, v: float | int) -> ir.Constant:
        return ir.Constant(t, [v] * n) if n is not None else ir.Constant(t, v)

    xd, yd, zd = (b.fpext(v, wide) for v in (x, y, z))
    p = b.fmul(xd, yd)  # exact
    s = b.fadd(p, zd)  # rounded to nearest
    bp = b.fsub(s, zd)  # TwoSum: s + err == p + zd exactly
    bz = b.fsub(s, bp)
    err = b.fadd(b.fsub(p, bp), b.fsub(zd, bz))
    # Round to odd: toward zero (one ulp down in magnitude when the error points toward zero),
    # then the last bit set when the sum was inexact. A NaN error (some operand was not
    # finite) leaves the sum as it is.
    inexact = b.zext(b.fcmp_ordered("one", err, const(wide, 0.0)), bits_t)
    bits = b.bitcast(s, bits_t)
    toward_zero = b.lshr(b.xor(b.bitcast(err, bits_t), bits), const(bits_t, 63))  # signs differ
    rz = b.sub(bits, b.and_(toward_zero, inexact))
    return b.fptrunc(b.bitcast(b.or_(rz, inexact), wide), x.type)
