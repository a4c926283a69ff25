"""numpy semantics of the HWV ops: LLVM's vector intrinsics and the x86 / AArch64 ones that
MLIR's ``llvm``, ``x86vector`` and ``arm_neon`` dialects expose.

Decisions (evidence: programs in ``tests/programs/hwv_*.mlir`` run with mlir-runner-22 on
x86-64; the AArch64 ones by hand from the Arm ARM):

* ``llvm.vector.reduce.fadd``/``fmul`` are ordered (start, then lane 0, 1, ...) unless the op
  carries ``reassoc``; then they are a fixed pairwise tree: the vector is halved, the halves
  combined lane-wise, until one lane is left, which is combined with the start value last
  (LLVM's shuffle reduction). Every other reduction kind is order-independent.
* ``fmuladd`` rounds once, like ``fma`` (what LLVM selects on every FMA target we know).
* ``x86.*.hadd`` and ``aarch64.neon.faddp`` add adjacent pairs: x86 per 128-bit block (the
  pairs of ``a``'s block, then ``b``'s), faddp over the whole vector (``a``'s pairs, then ``b``'s).
* ``x86vector.avx.intr.dot`` is ``vdpps`` with mask 0xff: per 128-bit half, the products are
  rounded, summed as ``(p0 + p1) + (p2 + p3)`` and broadcast to the half.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .semantics_core import SemanticsError, as_elem, to_signed
from .semantics_vector import combine, reduction

# llvm.vector.reduce.<name> -> the vector.kind it folds with.
REDUCE_KINDS: dict[str, str] = {
    "fadd": "add",
    "fmul": "mul",
    "add": "add",
    "mul": "mul",
    "and": "and",
    "or": "or",
    "xor": "xor",
    "smax": "maxsi",
    "smin": "minsi",
    "umax": "maxui",
    "umin": "minui",
    "fmax": "maxnumf",
    "fmin": "minnumf",
    "fmaximum": "maximumf",
    "fminimum": "minimumf",
}


def pairwise_tree(kind: str, vec: Any, elem: str) -> Any:
    """Fold a 1-D vector by halving: lanes [0, h) with [h, 2h), an odd last lane carried."""
    x = np.asarray(as_elem(vec, elem))
    if x.ndim != 1 or x.shape[0] == 0:
        raise SemanticsError(f"tree reduction of a {x.shape} vector")
    while x.shape[0] > 1:
        h = x.shape[0] // 2
        y = np.asarray(combine(kind, x[:h], x[h : 2 * h], elem))
        x = np.concatenate([y, x[2 * h :]]) if x.shape[0] % 2 else y
    return x[0]


def vector_reduce(name: str, vec: Any, elem: str, start: Any = None, reassoc: bool = False) -> Any:
    """``llvm.vector.reduce.<name>``: ordered, or a pairwise tree for reassoc fadd/fmul."""
    kind = REDUCE_KINDS[name]
    if reassoc and name in ("fadd", "fmul"):
        tree = pairwise_tree(kind, vec, elem)
        return combine(kind, as_elem(start, elem), tree, elem)
    return reduction(kind, vec, start, elem)


def pairwise_add(a: Any, b: Any, elem: str, block: int) -> np.ndarray:
    """Horizontal add: per block of ``block`` lanes, a's adjacent pairs then b's."""
    x, y = np.asarray(as_elem(a, elem)), np.asarray(as_elem(b, elem))
    if x.shape != y.shape or x.ndim != 1 or x.shape[0] % block or block % 2:
        raise SemanticsError(f"pairwise add of {x.shape} and {y.shape} in blocks of {block}")
    out = []
    for s in range(0, x.shape[0], block):
        xa, ya = x[s : s + block], y[s : s + block]
        out.append(combine("add", xa[0::2], xa[1::2], elem))
        out.append(combine("add", ya[0::2], ya[1::2], elem))
    return np.asarray(np.concatenate(out))


def dot_halves(a: Any, b: Any, elem: str = "f32") -> np.ndarray:
    """``vdpps ymm, ymm, 0xff``: per 4-lane half, (p0 + p1) + (p2 + p3) in every lane."""
    x, y = np.asarray(as_elem(a, elem)), np.asarray(as_elem(b, elem))
    if x.shape != (8,) or y.shape != (8,):
        raise SemanticsError("avx.intr.dot takes two vector<8xf32>")
    p = np.asarray(combine("mul", x, y, elem))
    out = np.empty_like(p)
    for h in (0, 4):
        lo = combine("add", p[h], p[h + 1], elem)
        hi = combine("add", p[h + 2], p[h + 3], elem)
        out[h : h + 4] = combine("add", lo, hi, elem)
    return out


def compress(mask: Any, a: Any, src: Any, elem: str) -> np.ndarray:
    """The lanes of ``a`` whose mask bit is set, packed low; the other lanes from ``src``."""
    m = np.asarray(mask, dtype=np.bool_)
    x = np.asarray(as_elem(a, elem))
    out = np.array(as_elem(src, elem), copy=True) if src is not None else np.zeros_like(x)
    if m.shape != x.shape or out.shape != x.shape:
        raise SemanticsError("compress: mask, source and passthru shapes differ")
    picked = x[m]
    out[: picked.shape[0]] = picked
    return out


def dot_accumulate(acc: Any, a: Any, b: Any, elem: str, src_elem: str) -> np.ndarray:
    """``sdot``: acc[i] + sum over k < n/len(acc) of sext(a[i, k]) * sext(b[i, k]) (wraps)."""
    c = np.asarray(acc)
    x = to_signed(np.asarray(a), src_elem).astype(np.int64).reshape(c.shape[0], -1)
    y = to_signed(np.asarray(b), src_elem).astype(np.int64).reshape(c.shape[0], -1)
    total = to_signed(c, elem).astype(np.int64) + (x * y).sum(axis=1)
    return np.asarray(as_elem(total, elem))


def widening_mul(a: Any, b: Any, src_elem: str, elem: str) -> np.ndarray:
    """``smull``: sext(a) * sext(b) at twice the width (never overflows)."""
    x = to_signed(np.asarray(a), src_elem).astype(np.int64)
    y = to_signed(np.asarray(b), src_elem).astype(np.int64)
    return np.asarray(as_elem(x * y, elem))
