"""Transpose lowering strategies (MLIR ``vector-transpose-lowering=eltwise|flat_transpose|
shuffle_16x16|shuffle_1d``).
Rules: ``rules/explore/transpose.egg``."""

from __future__ import annotations

from itertools import product as cartesian
from typing import Any

from eqsat.strategy_kit import Emit, _strides, ops_cost, prod, result_shape, strategy
from eqsat.terms import decode_type
from frontend.attributes import DenseArrayAttr
from frontend.ir import Value
from frontend.types import VectorType


def _decode(dec: Any, t: Any) -> tuple[Emit, Value, VectorType, tuple[int, ...]]:
    ty, x, perm = t.args[:3]
    return Emit(dec), dec.value(x), decode_type(ty), tuple(perm)  # type: ignore[return-value]


def _elementwise_cost(lits: tuple[Any, ...]) -> float:
    shape = result_shape(lits) or ()
    return ops_cost(2 * prod(shape) + 1)


@strategy("TransposeElementwise", ("Type", "Term", "IVec"), cost=_elementwise_cost)
def transpose_elementwise(dec: Any, t: Any) -> Value:
    """transpose(x, p) == insert(extract(x, i o p^-1), ...) for every element i of the result:
    one scalar extract and insert per element (MLIR's ``eltwise``)."""
    e, src, rt, perm = _decode(dec, t)
    acc = e.zeros(rt)
    for idx in cartesian(*(range(n) for n in rt.shape)):
        sidx = [0] * len(perm)
        for i, p in enumerate(perm):
            sidx[p] = idx[i]
        acc = e.insert(e.extract(src, sidx), acc, idx)
    return acc


@strategy("TransposeFlat", ("Type", "Term", "IVec"), cost=lambda lits: ops_cost(3))
def transpose_flat(dec: Any, t: Any) -> Value:
    """transpose(x : RxC, [1, 0]) == shape_cast(flat_transpose(shape_cast(x) : R*C, rows = R,
    columns = C)) : CxR, with the project's row-major matrix convention (MLIR's
    ``flat_transpose``, the counterpart of ``llvm.matrix.transpose``)."""
    e, src, rt, _ = _decode(dec, t)
    rows, cols = src.type.shape  # type: ignore[attr-defined]
    flat_t = VectorType((rows * cols,), rt.element)
    flat = e.shape_cast(src, flat_t)
    moved = e.op("vector.flat_transpose", [flat], flat_t, rows=rows, columns=cols)
    return e.shape_cast(moved, rt)


BLOCK = 16
# The four stages of MLIR's 16x16 transpose, two-input shuffles of 16-lane rows: interleave
# 32-bit lanes, then 64-bit pairs, then take 128-bit and 256-bit halves (each stage maps to one
# AVX/AVX-512 shuffle per row: unpck*ps, unpck*pd, shuf_f32x4, ...).
_LO32 = [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29]
_LO64 = [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29]
_HALF = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]


def _plus(mask: list[int], k: int) -> list[int]:
    return [i + k for i in mask]


def _transpose16_rows(e: Emit, rows: list[Value]) -> list[Value]:
    """The rows of the transpose of 16 rows of 16 lanes, in 64 shuffles (4 stages of 16)."""
    lo32, hi32, lo64, hi64 = _LO32, _plus(_LO32, 2), _LO64, _plus(_LO64, 2)
    lo, hi = _HALF, _plus(_HALF, 4)
    t: list[Value] = []
    for p in range(0, BLOCK, 2):
        t += [e.shuffle(rows[p], rows[p + 1], lo32), e.shuffle(rows[p], rows[p + 1], hi32)]
    u: list[Value] = []
    for g in range(0, BLOCK, 4):
        for a, b in ((t[g], t[g + 2]), (t[g + 1], t[g + 3])):
            u += [e.shuffle(a, b, lo64), e.shuffle(a, b, hi64)]
    v: list[Value] = [rows[0]] * BLOCK
    for h in (0, 8):
        for i in range(4):
            v[h + i] = e.shuffle(u[h + i], u[h + i + 4], lo)
            v[h + 4 + i] = e.shuffle(u[h + i], u[h + i + 4], hi)
    w = [e.shuffle(v[i], v[i + 8], lo) for i in range(8)]
    return w + [e.shuffle(v[i], v[i + 8], hi) for i in range(8)]


def _shuffle16_cost(lits: tuple[Any, ...]) -> float:
    shape = result_shape(lits) or (BLOCK, BLOCK)
    blocks = prod(shape) // (BLOCK * BLOCK)
    return ops_cost(blocks * (64 + 2 * BLOCK) + (2 * blocks if blocks > 1 else 0))


@strategy("TransposeShuffle16x16", ("Type", "Term", "IVec"), cost=_shuffle16_cost)
def transpose_shuffle16(dec: Any, t: Any) -> Value:
    """transpose(x : RxC, [1, 0]) with R, C multiples of 16 == for every 16x16 block: its 16
    rows through four stages of two-input row shuffles (interleave 32-bit lanes, 64-bit pairs,
    128-bit then 256-bit halves), inserted back as rows at the mirrored offset (MLIR's
    ``shuffle_16x16``, the same 64 shuffles per block)."""
    e, src, rt, _ = _decode(dec, t)
    rows, cols = src.type.shape  # type: ignore[attr-defined]
    block_t = VectorType((BLOCK, BLOCK), rt.element)

    def transposed(block: Value) -> Value:
        moved = _transpose16_rows(e, [e.extract(block, [i]) for i in range(BLOCK)])
        out = e.zeros(block_t)
        for i, row in enumerate(moved):
            out = e.insert(row, out, [i])
        return out

    if (rows, cols) == (BLOCK, BLOCK):
        return transposed(src)
    acc = e.zeros(rt)
    for bi in range(0, rows, BLOCK):
        for bj in range(0, cols, BLOCK):
            block = e.op(
                "vector.extract_strided_slice",
                [src],
                block_t,
                offsets=[bi, bj],
                sizes=[BLOCK, BLOCK],
                strides=[1, 1],
            )
            acc = e.op(
                "vector.insert_strided_slice",
                [transposed(block), acc],
                rt,
                offsets=[bj, bi],
                strides=[1, 1],
            )
    return acc


# -- transpose ----------------------------------------------------------------------------------------
@strategy("TransposeShuffle", ("Type", "Term", "IVec"), cost=lambda lits: 3.0)
def transpose_shuffle(dec: Any, t: Any) -> Value:
    """transpose(x, p) == shape_cast(shuffle(flat(x), flat(x), [source index of each lane]))
    : one 1-D shuffle over the flattened vector (MLIR's ``shuffle_1d`` strategy)."""
    ty, x, perm = t.args
    e = Emit(dec)
    src = dec.value(x)
    st: VectorType = src.type
    rt: VectorType = decode_type(ty)  # type: ignore[assignment]
    n = st.num_elements()
    flat_t = VectorType((n,), st.element)
    flat = e.shape_cast(src, flat_t)
    src_strides = _strides(st.shape)
    mask = []
    for lin in range(n):
        idx, rem = [], lin
        for s in _strides(rt.shape):
            idx.append(rem // s)
            rem %= s
        mask.append(sum(idx[i] * src_strides[perm[i]] for i in range(len(perm))))
    shuffled = e.op("vector.shuffle", [flat, flat], flat_t, mask=DenseArrayAttr("i64", tuple(mask)))
    return e.shape_cast(shuffled, rt)
