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


def _block_mask() -> list[int]:
    """Lane i*16 + j of a transposed 16x16 block reads lane j*16 + i of the block."""
    return [j * BLOCK + i for i in range(BLOCK) for j in range(BLOCK)]


def _shuffle16_cost(lits: tuple[Any, ...]) -> float:
    shape = result_shape(lits) or (BLOCK, BLOCK)
    blocks = prod(shape) // (BLOCK * BLOCK)
    return ops_cost(3 if blocks == 1 else 5 * blocks + 1)


@strategy("TransposeShuffle16x16", ("Type", "Term", "IVec"), cost=_shuffle16_cost)
def transpose_shuffle16(dec: Any, t: Any) -> Value:
    """transpose(x : RxC, [1, 0]) with R, C multiples of 16 == for every 16x16 block:
    insert_strided_slice(shape_cast(shuffle(flat(block), flat(block), 16x16 transpose mask)))
    at the mirrored offset (MLIR's ``shuffle_16x16``, one 1-D shuffle per block)."""
    e, src, rt, _ = _decode(dec, t)
    rows, cols = src.type.shape  # type: ignore[attr-defined]
    elem = rt.element
    flat_t = VectorType((BLOCK * BLOCK,), elem)
    block_t = VectorType((BLOCK, BLOCK), elem)
    mask = _block_mask()
    if (rows, cols) == (BLOCK, BLOCK):
        flat = e.shape_cast(src, flat_t)
        return e.shape_cast(e.shuffle(flat, flat, mask), rt)
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
            flat = e.shape_cast(block, flat_t)
            moved = e.shape_cast(e.shuffle(flat, flat, mask), block_t)
            acc = e.op(
                "vector.insert_strided_slice", [moved, acc], rt, offsets=[bj, bi], strides=[1, 1]
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
