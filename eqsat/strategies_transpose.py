"""Transpose lowering strategies (MLIR ``vector-transpose-lowering=eltwise|flat_transpose|
shuffle_16x16|shuffle_1d``).
Rules: ``rules/explore/transpose.egg``."""

from __future__ import annotations

from collections.abc import Callable
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


# MLIR's 16x16 transpose (``shuffle_16x16``) and the same sequence on 8x8 and 4x4 blocks (the
# classic AVX 8x8 and SSE 4x4 transposes): B rows of B lanes through log2(B) stages of two-input row shuffles that
# interleave 32-bit lanes, then 64-bit pairs, then take 4-lane blocks from rows d apart (d = 4,
# 8, ...); each stage is one AVX/AVX-512 shuffle per row (unpck*ps, unpck*pd, shuf_f32x4, ...).
def stage_masks(b: int) -> dict[str, list[int]]:
    """The masks of the staged transpose of B x B (B = 4, 8, 16), by stage: each shuffles two rows
    of B lanes (the cost profile, eqsat/targets/expansions.py, prices these same masks)."""
    groups4 = range(0, b, 4)
    return {
        "lo32": [x for g in groups4 for x in (g, b + g, g + 1, b + g + 1)],
        "hi32": [x for g in groups4 for x in (g + 2, b + g + 2, g + 3, b + g + 3)],
        "lo64": [x for g in groups4 for x in (g, g + 1, b + g, b + g + 1)],
        "hi64": [x for g in groups4 for x in (g + 2, g + 3, b + g + 2, b + g + 3)],
        "lo": [o + k + i for o in (0, b) for k in range(0, b, 8) for i in range(4)],
        "hi": [o + k + 4 + i for o in (0, b) for k in range(0, b, 8) for i in range(4)],
    }


# The 4x4 transpose by pairs: interleave the rows' lanes within each half ([a0 b0 a2 b2], [a1 b1
# a3 b3]: unpcklpd/unpckhpd on a 4 x 64-bit AVX row, NEON's trn1/trn2), then take halves of two
# rows ([0 1 4 5], [2 3 6 7]: vperm2f128/vinsertf128). Where a row of 4 spans two 128-bit
# lanes (64-bit elements on AVX), no stage moves a value across them; the lo32 stage of
# ``stage_masks(4)`` does ([a0 b0 a1 b1]: a lane permute per source and a blend each).
PAIR_MASKS: dict[str, list[int]] = {
    "lo32": [0, 4, 2, 6],
    "hi32": [1, 5, 3, 7],
    "lo64": [0, 1, 4, 5],
    "hi64": [2, 3, 6, 7],
}


def _pairs_transpose_rows(e: Emit, rows: list[Value]) -> list[Value]:
    """The rows of the transpose of 4 rows of 4 lanes by ``PAIR_MASKS``: 8 shuffles."""
    m = PAIR_MASKS
    r0, r1, r2, r3 = rows
    t0, t1 = e.shuffle(r0, r1, m["lo32"]), e.shuffle(r0, r1, m["hi32"])  # [a0 b0 a2 b2], [a1 b1 a3 b3]
    t2, t3 = e.shuffle(r2, r3, m["lo32"]), e.shuffle(r2, r3, m["hi32"])  # [c0 d0 c2 d2], [c1 d1 c3 d3]
    return [
        e.shuffle(t0, t2, m["lo64"]),  # [a0 b0 c0 d0]
        e.shuffle(t1, t3, m["lo64"]),  # [a1 b1 c1 d1]
        e.shuffle(t0, t2, m["hi64"]),  # [a2 b2 c2 d2]
        e.shuffle(t1, t3, m["hi64"]),  # [a3 b3 c3 d3]
    ]


def _staged_transpose_rows(e: Emit, rows: list[Value]) -> list[Value]:
    """The rows of the transpose of B rows of B lanes (B = 4, 8 or 16): B log2(B) shuffles."""
    b = len(rows)
    m = stage_masks(b)
    t: list[Value] = []
    for p in range(0, b, 2):
        t += [e.shuffle(rows[p], rows[p + 1], m["lo32"]), e.shuffle(rows[p], rows[p + 1], m["hi32"])]
    x: list[Value] = []
    for g in range(0, b, 4):
        for u, v in ((t[g], t[g + 2]), (t[g + 1], t[g + 3])):
            x += [e.shuffle(u, v, m["lo64"]), e.shuffle(u, v, m["hi64"])]
    d = 4
    while d < b:
        y = list(x)
        for h in range(0, b, 2 * d):
            for i in range(d):
                y[h + i] = e.shuffle(x[h + i], x[h + i + d], m["lo"])
                y[h + d + i] = e.shuffle(x[h + i], x[h + i + d], m["hi"])
        x, d = y, 2 * d
    return x


def _staged_cost(block: int) -> Callable[[tuple[Any, ...]], float]:
    stages = block.bit_length() - 1

    def cost(lits: tuple[Any, ...]) -> float:
        shape = result_shape(lits) or (block, block)
        blocks = prod(shape) // (block * block)
        return ops_cost(blocks * (block * stages + 2 * block) + (2 * blocks if blocks > 1 else 0))

    return cost


def _concat(e: Emit, pieces: list[Value]) -> Value:
    """1-D pieces joined end to end, pairwise (two-input shuffles with identity masks)."""
    while len(pieces) > 1:
        joined = []
        for a, b in zip(pieces[::2], pieces[1::2]):
            n = a.type.shape[0] + b.type.shape[0]  # type: ignore[attr-defined]
            joined.append(e.shuffle(a, b, list(range(n))))
        pieces = joined + (pieces[-1:] if len(pieces) % 2 else [])
    return pieces[0]


def _staged_transpose(
    dec: Any, t: Any, block: int,
    rows_of: Callable[[Emit, list[Value]], list[Value]] = _staged_transpose_rows,
) -> Value:  # fmt: skip
    """Blocks of ``block`` x ``block`` through ``rows_of`` (``_staged_transpose_rows``), done
    on 1-D rows: pieces of the source rows in, the result rows joined from their pieces by
    shuffles (no 2-D slice to take apart, no partial row to insert into)."""
    e, src, rt, _ = _decode(dec, t)
    rows, cols = src.type.shape  # type: ignore[attr-defined]
    src_rows = [e.extract(src, [i]) for i in range(rows)]
    if (rows, cols) == (block, block):
        moved = rows_of(e, src_rows)
    else:
        piece_t = VectorType((block,), rt.element)
        pieces: list[list[Value]] = [[] for _ in range(cols)]  # of each result row, in order
        for bi in range(0, rows, block):
            for bj in range(0, cols, block):
                ins = [
                    e.op(
                        "vector.extract_strided_slice",
                        [src_rows[bi + i]],
                        piece_t,
                        offsets=[bj],
                        sizes=[block],
                        strides=[1],
                    )
                    for i in range(block)
                ]
                for i, piece in enumerate(rows_of(e, ins)):
                    pieces[bj + i].append(piece)
        moved = [_concat(e, p) for p in pieces]
    out = e.zeros(rt)
    for i, row in enumerate(moved):
        out = e.insert(row, out, [i])
    return out


@strategy("TransposeShuffle16x16", ("Type", "Term", "IVec"), cost=_staged_cost(16))
def transpose_shuffle16(dec: Any, t: Any) -> Value:
    """transpose(x : RxC, [1, 0]) with R, C multiples of 16 == for every 16x16 block: its 16
    rows through four stages of two-input row shuffles (interleave 32-bit lanes, 64-bit pairs,
    then 4-lane blocks of rows 4 and 8 apart), inserted back as rows at the mirrored offset
    (MLIR's ``shuffle_16x16``, the same 64 shuffles per block)."""
    return _staged_transpose(dec, t, 16)


@strategy("TransposeShuffle4x4", ("Type", "Term", "IVec"), cost=_staged_cost(4))
def transpose_shuffle4(dec: Any, t: Any) -> Value:
    """transpose(x : RxC, [1, 0]) with R, C multiples of 4 == for every 4x4 block: its 4 rows
    through two stages of two-input row shuffles (the SSE/NEON 4x4 transpose: unpack 32-bit
    lanes, then 64-bit halves; 8 shuffles per block), the result rows joined from pieces."""
    return _staged_transpose(dec, t, 4)


@strategy("TransposeShuffle4x4Pairs", ("Type", "Term", "IVec"), cost=_staged_cost(4))
def transpose_shuffle4_pairs(dec: Any, t: Any) -> Value:
    """transpose(x : RxC, [1, 0]) with R, C multiples of 4 == for every 4x4 block: its 4 rows
    through two stages of two-input row shuffles, lanes interleaved within each half, then
    halves of two rows taken (the AVX 4x4 transpose of 64-bit elements, unpcklpd/unpckhpd and
    vperm2f128, no shuffle across 128-bit lanes; 8 shuffles per block), the result rows
    joined from pieces."""
    return _staged_transpose(dec, t, 4, _pairs_transpose_rows)


@strategy("TransposeShuffle8x8", ("Type", "Term", "IVec"), cost=_staged_cost(8))
def transpose_shuffle8(dec: Any, t: Any) -> Value:
    """transpose(x : RxC, [1, 0]) with R, C multiples of 8 == for every 8x8 block: its 8 rows
    through three stages of two-input row shuffles (MLIR's ``shuffle_16x16`` sequence on 8x8
    blocks, the AVX 8x8 transpose: 24 shuffles per block), inserted back at the mirrored
    offset."""
    return _staged_transpose(dec, t, 8)


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
