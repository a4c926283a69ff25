"""The HWV op names a target file may price before (or without) an op spec for them: the
vocabulary agreed for the HWV level (LLVM intrinsics and the x86vector / arm_neon ops). Ops of
the frontend's op table are known through it; these are the ones it may not hold yet."""

from __future__ import annotations

LLVM_INTRINSICS = (
    "llvm.intr.fma",
    "llvm.intr.fmuladd",
    "llvm.intr.vector.reduce.fadd",
    "llvm.intr.vector.reduce.fmul",
    "llvm.intr.vector.reduce.add",
    "llvm.intr.vector.reduce.mul",
    "llvm.intr.vector.reduce.and",
    "llvm.intr.vector.reduce.or",
    "llvm.intr.vector.reduce.xor",
    "llvm.intr.vector.reduce.smax",
    "llvm.intr.vector.reduce.smin",
    "llvm.intr.vector.reduce.umax",
    "llvm.intr.vector.reduce.umin",
    "llvm.intr.vector.reduce.fmax",
    "llvm.intr.vector.reduce.fmin",
    "llvm.intr.vector.reduce.fmaximum",
    "llvm.intr.vector.reduce.fminimum",
    "llvm.intr.masked.load",
    "llvm.intr.masked.store",
    "llvm.intr.masked.gather",
    "llvm.intr.masked.scatter",
    "llvm.intr.masked.expandload",
    "llvm.intr.masked.compressstore",
    "llvm.intr.matrix.multiply",
    "llvm.intr.matrix.transpose",
    "llvm.call_intrinsic",
)
X86 = (
    "x86vector.avx.intr.dot",
    "x86vector.avx512.mask.compress",
    "x86vector.avx512.intr.mask.rndscale",
)
ARM_NEON = ("arm_neon.intr.sdot", "arm_neon.2d.sdot", "arm_neon.intr.smull")

HWV_NAMES: frozenset[str] = frozenset(LLVM_INTRINSICS + X86 + ARM_NEON)
