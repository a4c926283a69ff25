"""Data-movement ops lowered to 1-D pieces (MLIR's broadcast, shape_cast and strided-slice
lowering patterns). Rules: ``rules/explore/broadcast.egg``, ``shape_cast.egg``,
``strided_slice.egg``."""

from __future__ import annotations

from itertools import product as cartesian
from typing import Any

from eqsat.strategy_kit import Emit, ops_cost, prod, result_shape, strategy, unravel
from frontend.ir import Value
from frontend.types import VectorType


def _rows_cost(lits: tuple[Any, ...]) -> float:
    shape = result_shape(lits) or (1,)
    return ops_cost(2 * prod(shape[:-1]) + 2)


@strategy("BroadcastUnrolled", ("Type", "Term"), cost=_rows_cost)
def broadcast_unrolled(dec: Any, t: Any) -> Value:
    """broadcast(x) : vector<...xN> == insert(row(i), acc, i) for every leading index i, where
    row(i) is the 1-D broadcast of the part of x that feeds row i (x itself, x[j], or a
    scalar; stretched dims read index 0) (MLIR's n-D broadcast lowering)."""
    from eqsat.terms import decode_type

    ty, x = t.args
    e = Emit(dec)
    rt: VectorType = decode_type(ty)  # type: ignore[assignment]
    src = dec.value(x)
    st = src.type
    if isinstance(st, VectorType) and st.rank == 0:  # a 0-D vector: broadcast its element
        src = e.op("vector.extract", [src], st.element, static_position=[])
        st = st.element
    k = st.rank if isinstance(st, VectorType) else 0
    shape, n = rt.shape, rt.rank
    row_t = VectorType((shape[-1],), rt.element)
    rows: dict[tuple[int, ...], Value] = {}
    acc = e.zeros(rt)
    for lead in cartesian(*(range(s) for s in shape[:-1])):
        key = tuple(
            lead[n - k + i] if st.shape[i] == shape[n - k + i] else 0  # type: ignore
            for i in range(k - 1)
        )
        row = rows.get(key)
        if row is None:
            row = rows[key] = e.broadcast(e.extract(src, key) if k else src, row_t)
        acc = e.insert(row, acc, lead)
    return acc


def _shape_cast_cost(lits: tuple[Any, ...]) -> float:
    src, dst = lits[0], result_shape(lits) or ()
    n = prod(dst)
    if src and dst and src[-1] == dst[-1]:  # type: ignore[index]
        return ops_cost(2 * (n // dst[-1]) + 1)
    return ops_cost(2 * n + 1)


@strategy("ShapeCastUnrolled", ("Type", "Term", "IVec"), cost=_shape_cast_cost)
def shape_cast_unrolled(dec: Any, t: Any) -> Value:
    """shape_cast(x) == insert(extract(x, unravel(i, src)), acc, unravel(i, dst)) for every
    row i when source and result end in the same dim, else for every element i (MLIR's
    shape_cast lowering). The last literal is the source shape, for the cost."""
    from eqsat.terms import decode_type

    ty, x, _ = t.args
    e = Emit(dec)
    rt: VectorType = decode_type(ty)  # type: ignore[assignment]
    src = dec.value(x)
    sshape, dshape = src.type.shape, rt.shape  # type: ignore[attr-defined]
    if sshape[-1] == dshape[-1]:  # move whole rows
        lead_s, lead_d = sshape[:-1], dshape[:-1]
        if not lead_d:
            return e.extract(src, unravel(0, lead_s))
        acc = e.zeros(rt)
        for i in range(prod(lead_d)):
            acc = e.insert(e.extract(src, unravel(i, lead_s)), acc, unravel(i, lead_d))
        return acc
    acc = e.zeros(rt)
    for i in range(prod(dshape)):
        acc = e.insert(e.extract(src, unravel(i, sshape)), acc, unravel(i, dshape))
    return acc


@strategy(
    "ExtractStridedSliceShuffle",
    ("Type", "Term", "IVec", "IVec", "IVec"),
    cost=lambda lits: ops_cost(1),
)
def extract_strided_slice_shuffle(dec: Any, t: Any) -> Value:
    """extract_strided_slice(x : N, [o], [n], [s]) == shuffle(x, x, [o, o + s, ...,
    o + (n - 1) s]) for a 1-D x (MLIR's 1-D strided-slice lowering)."""
    _, x, offsets, sizes, strides = t.args
    e = Emit(dec)
    src = dec.value(x)
    o, n, s = offsets[0], sizes[0], strides[0]
    return e.shuffle(src, src, [o + i * s for i in range(n)])


@strategy(
    "InsertStridedSliceShuffle",
    ("Type", "Term", "Term", "IVec", "IVec"),
    cost=lambda lits: ops_cost(1),
)
def insert_strided_slice_shuffle(dec: Any, t: Any) -> Value:
    """insert_strided_slice(x : n, d : N, [o], [1]) == shuffle(d, x, m) with m[i] = N + i - o
    for o <= i < o + n, else i, for 1-D x and d (MLIR's 1-D strided-slice lowering)."""
    _, x, d, offsets, _ = t.args
    e = Emit(dec)
    src, dest = dec.value(x), dec.value(d)
    big, n, o = dest.type.shape[0], src.type.shape[0], offsets[0]  # type: ignore[attr-defined]
    return e.shuffle(dest, src, [big + i - o if o <= i < o + n else i for i in range(big)])
