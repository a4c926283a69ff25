"""Lowerings of the target-specific HWV ops: ``llvm.call_intrinsic`` (SSE3/AVX ``hadd``,
NEON ``faddp``), ``x86vector.avx.intr.dot``, ``x86vector.avx512.mask.compress`` and the
``arm_neon`` dot products and widening multiply.

Each has two lowerings with the interpreter's semantics (``frontend.semantics_hwv``): the real
intrinsic, emitted only when the target's triple and features have it (LLVM aborts in
instruction selection on an intrinsic the target lacks), and a portable one in generic LLVM
IR (shuffles, lane-wise arithmetic), so every program runs on every target the interpreter
runs it on. The portable forms compute the same operations in the same order (products
rounded, then the pairs added as the instruction does), so both agree bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir

from eqsat.codegen.arith import constant_value
from eqsat.codegen.emitter import FuncEmitter, mangle
from eqsat.codegen.types import I8, I32, concat, shuffle_mask
from frontend.ir import Operation
from frontend.ops.llvm import INTRINSICS
from frontend.types import VectorType

# target intrinsic -> the features it needs ("x86"/"aarch64": the triple's architecture)
_NEEDS: dict[str, tuple[str, ...]] = {
    "llvm.x86.sse3.hadd.ps": ("x86", "sse3"),
    "llvm.x86.sse3.hadd.pd": ("x86", "sse3"),
    "llvm.x86.avx.hadd.ps.256": ("x86", "avx"),
    "llvm.x86.avx.hadd.pd.256": ("x86", "avx"),
    "llvm.aarch64.neon.faddp.v2f32": ("aarch64", "neon"),
    "llvm.aarch64.neon.faddp.v4f32": ("aarch64", "neon"),
    "llvm.aarch64.neon.faddp.v2f64": ("aarch64", "neon"),
}


def _call(em: FuncEmitter, name: str, args: list[ir.Value], ret: ir.Type) -> ir.Value:
    fn = em.m.declare(name, ret, [a.type for a in args])
    return em.b.call(fn, args)


def _flat(em: FuncEmitter, op: Operation, i: int) -> ir.Value:
    """Operand i as one 1-D LLVM vector (its rows end to end in the nested layout)."""
    v = op.operands[i]
    return concat(em.b, em.chunks(em.get(v), v.type))


def pairwise_add(em: FuncEmitter, a: ir.Value, b: ir.Value, block: int) -> ir.Value:
    """Per block of lanes: a's adjacent pairs added, then b's (x86 hadd, NEON faddp)."""
    n = a.type.count
    evens: list[int] = []
    odds: list[int] = []
    for s in range(0, n, block):
        for base in (s, n + s):
            evens += [base + k for k in range(0, block, 2)]
            odds += [base + k + 1 for k in range(0, block, 2)]
    x = em.b.shuffle_vector(a, b, shuffle_mask(evens))
    y = em.b.shuffle_vector(a, b, shuffle_mask(odds))
    return em.b.fadd(x, y)


def call_intrinsic(em: FuncEmitter, op: Operation) -> Any:
    name = op.attributes["intrin"].value  # type: ignore[attr-defined]
    a, b = (em.get(v) for v in op.operand_groups()["args"])
    if em.m.has(*_NEEDS[name]):
        return _call(em, name, [a, b], a.type)
    return pairwise_add(em, a, b, INTRINSICS[name].block)


def avx_dot(em: FuncEmitter, op: Operation) -> Any:
    """vdpps with mask 0xff: per 4-lane half, (p0 + p1) + (p2 + p3) broadcast to the half."""
    a, b = em.get(op.operands[0]), em.get(op.operands[1])
    if em.m.has("x86", "avx"):
        return _call(em, "llvm.x86.avx.dp.ps.256", [a, b, I8(0xFF)], a.type)
    p = em.b.fmul(a, b)
    undef = ir.Constant(p.type, ir.Undefined)

    def lanes(k: int) -> ir.Value:  # lane h + k of each half, broadcast over the half
        return em.b.shuffle_vector(p, undef, shuffle_mask([k] * 4 + [4 + k] * 4))

    lo = em.b.fadd(lanes(0), lanes(1))
    hi = em.b.fadd(lanes(2), lanes(3))
    return em.b.fadd(lo, hi)


def _compress_intrinsic(em: FuncEmitter, vt: ir.VectorType) -> str | None:
    """The AVX-512 compress intrinsic for this vector type, if the target has it."""
    width = {"float": 32, "double": 64, "i32": 32, "i64": 64}.get(str(vt.element))
    if width is None:
        return None  # i8/i16 compress needs avx512vbmi2, half floats have none: portable
    bits = vt.count * width
    ok = (bits == 512 and em.m.has("x86", "avx512f")) or (
        bits in (128, 256) and em.m.has("x86", "avx512f", "avx512vl")
    )
    return f"llvm.x86.avx512.mask.compress.{mangle(vt)}" if ok else None


def mask_compress(em: FuncEmitter, op: Operation) -> Any:
    """The set lanes of a packed low, the rest from src (the operand, constant_src, or 0)."""
    g = op.operand_groups()
    t: VectorType = op.results[0].type
    k, a = em.get(g["k"][0]), em.get(g["a"][0])
    if g["src"]:
        src = em.get(g["src"][0])
    elif "constant_src" in op.attributes:
        src = constant_value(em, op.attributes["constant_src"], t, op)
    else:
        src = ir.Constant(a.type, None)
    name = _compress_intrinsic(em, a.type)
    if name is not None:
        return _call(em, name, [a, src, k], a.type)
    # portable: lane i goes to position j = number of set lanes before i (j <= i < n)
    out, j = src, I32(0)
    for i in range(a.type.count):
        on = em.b.extract_element(k, I32(i))
        x = em.b.extract_element(a, I32(i))
        old = em.b.extract_element(out, j)
        out = em.b.insert_element(out, em.b.select(on, x, old), j)
        j = em.b.add(j, em.b.zext(on, I32))
    return out


def sdot(em: FuncEmitter, op: Operation) -> Any:
    """acc[i] + sum_k sext(a[i, k]) * sext(b[i, k]), wrapping in i32 (arm_neon sdot)."""
    acc = em.get(op.operands[0])
    x, y = _flat(em, op, 1), _flat(em, op, 2)
    n, m = acc.type.count, x.type.count
    if em.m.has("aarch64", "dotprod"):
        return _call(em, f"llvm.aarch64.neon.sdot.v{n}i32.v{m}i8", [acc, x, y], acc.type)
    wide = ir.VectorType(acc.type.element, m)
    p = em.b.mul(em.b.sext(x, wide), em.b.sext(y, wide))
    undef = ir.Constant(wide, ir.Undefined)
    per = m // n
    for k in range(per):
        part = em.b.shuffle_vector(p, undef, shuffle_mask([i * per + k for i in range(n)]))
        acc = em.b.add(acc, part)
    return acc


def smull(em: FuncEmitter, op: Operation) -> Any:
    """sext(a) * sext(b) at twice the width (never overflows)."""
    a, b = em.get(op.operands[0]), em.get(op.operands[1])
    rt = em.ty(op.results[0].type)
    if em.m.has("aarch64", "neon"):
        return _call(em, f"llvm.aarch64.neon.smull.{mangle(rt)}", [a, b], rt)
    return em.b.mul(em.b.sext(a, rt), em.b.sext(b, rt))


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "llvm.call_intrinsic": call_intrinsic,
    "x86vector.avx.intr.dot": avx_dot,
    "x86vector.avx512.mask.compress": mask_compress,
    "arm_neon.intr.sdot": sdot,
    "arm_neon.2d.sdot": sdot,
    "arm_neon.intr.smull": smull,
}
