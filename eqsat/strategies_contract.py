"""Contraction lowering strategies (MLIR ``vector-contract-lowering=outerproduct|dot|
matmulintrinsics|parallelarith``). Rules: ``rules/explore/contract.egg``.

Every expansion computes what ``frontend.semantics.contract`` computes: lhs and rhs are first
promoted to the accumulator's element type (``arith.extf``/``arith.extsi``), every product is
rounded, and the products are folded into the accumulator with the kind, one reduction point
at a time in row-major order of the reduction dims. Where MLIR's own lowering differs (its
outerproduct lowering fuses float multiply-adds) the expansion follows the semantics; the one
exception is ``ContractMatmul`` (see there). In fp-contract mode (the contraction's float add
steps fused) only ``ContractOuterFused`` lowers float add contractions (``eqsat.optimizer``
leaves the others out).
"""

from __future__ import annotations

from itertools import product as cartesian
from typing import Any

from eqsat.strategy_kit import (
    Emit,
    _shape,
    elem_of,
    is_float,
    ops_cost,
    prod,
    result_shape,
    strategy,
)
from frontend.ir import Value
from frontend.types import Type, VectorType

CONTRACT = ("Type", "Term", "Term", "Term", "MapList", "IVec", "String")
FLOAT_ELEMS = ("f16", "bf16", "f32", "f64", "f8", "f4", "tf32")


class Contraction:
    """A decoded contraction: operands (promoted), maps, iterator kinds and dim sizes."""

    def __init__(self, dec: Any, t: Any) -> None:
        from eqsat.terms import decode_type

        ty, l, r, a, maps, its, kind = t.args[:7]
        e = self.e = Emit(dec)
        self.rt: Type = decode_type(ty)
        self.elem = elem_of(self.rt)
        self.lhs: Value = e.promote(dec.value(l), self.elem)
        self.rhs: Value = e.promote(dec.value(r), self.elem)
        self.acc: Value = dec.value(a)
        self.ml, self.mr, self.ma = (tuple(m) for m in maps)  # type: ignore[union-attr]
        self.its: tuple[int, ...] = tuple(its)  # type: ignore[arg-type]
        self.kind: str = kind  # type: ignore[assignment]
        self.sizes: dict[int, int] = {}
        for m, v in ((self.ml, self.lhs), (self.mr, self.rhs), (self.ma, self.acc)):
            for d, s in zip(m, _shape(v.type)):
                self.sizes[d] = s
        n = len(self.its)
        self.red = [d for d in range(n) if self.its[d] == 1]
        self.par = [d for d in range(n) if self.its[d] == 0]
        # the free (parallel) dims each operand indexes: lhs's and rhs's
        self.lf = [d for d in self.par if d in self.ml]
        self.rf = [d for d in self.par if d in self.mr]

    def size(self, dims: list[int]) -> int:
        return prod(self.sizes[d] for d in dims)

    def shape(self, dims: list[int]) -> tuple[int, ...]:
        return tuple(self.sizes[d] for d in dims)

    def arrange(self, v: Value, vmap: tuple[int, ...], dims: list[int]) -> Value:
        """``v`` (its axis j indexed by iteration dim vmap[j]) laid out over ``dims``, in that
        order: transposed, and broadcast along the dims ``v`` does not index."""
        assert set(vmap) <= set(dims), (vmap, dims)
        present = [d for d in dims if d in vmap]
        v = self.e.transpose(v, [vmap.index(d) for d in present])
        if len(present) < len(dims):
            v = self.e.reshape(v, [self.sizes[d] if d in vmap else 1 for d in dims])
            v = self.e.broadcast(v, VectorType(self.shape(dims), self.elem))
        return v

    def matmul_rows(self) -> tuple[Value, Value, Value]:
        """lhs as rows x k, rhs as k x width and acc as rows x width (rows: lhs's free dims,
        width: rhs's), the layout of the row-by-row lowerings."""
        e, lf, rf, k = self.e, self.lf, self.rf, self.size(self.red)
        rows, width = self.size(lf), self.size(rf)
        return (
            e.reshape(self.arrange(self.lhs, self.ml, lf + self.red), (rows, k)),
            e.reshape(self.arrange(self.rhs, self.mr, self.red + rf), (k, width)),
            e.reshape(self.arrange(self.acc, self.ma, lf + rf), (rows, width)),
        )

    def restore(self, v: Value, dims: list[int]) -> Value:
        """A value laid out over ``dims`` back in the accumulator's layout."""
        v = self.e.reshape(v, self.shape(dims))
        return self.e.transpose(v, [dims.index(d) for d in self.ma])


# -- dot ---------------------------------------------------------------------------------------------
def _dot_cost(lits: tuple[Any, ...]) -> float:
    return ops_cost(3 * prod(result_shape(lits) or ()) + 4)


@strategy("ContractDot", CONTRACT, cost=_dot_cost)
def contract_dot(dec: Any, t: Any) -> Value:
    """contract(lhs, rhs, acc)[p] == reduction<kind>(lhs_row(p) * rhs_row(p), acc[p]) for every
    result element p, where the rows list the operands over the reduction dims in row-major
    order (MLIR's ``dot``: arith.mul + vector.reduction per element, rebuilt with
    from_elements)."""
    c = Contraction(dec, t)
    e = c.e
    lp, rp = c.lf, c.rf
    k = c.size(c.red)
    lrows = e.reshape(c.arrange(c.lhs, c.ml, lp + c.red), (c.size(lp), k))
    rrows = e.reshape(c.arrange(c.rhs, c.mr, rp + c.red), (c.size(rp), k))
    rows: dict[tuple[str, int], Value] = {}
    products: dict[tuple[int, int], Value] = {}

    def row(which: str, m: Value, dims: list[int], point: dict[int, int]) -> tuple[int, Value]:
        i = 0
        for d in dims:
            i = i * c.sizes[d] + point[d]
        got = rows.get((which, i))
        if got is None:
            got = rows[(which, i)] = e.extract(m, [i])
        return i, got

    acc_shape = _shape(c.acc.type)
    out = []
    for idx in cartesian(*(range(n) for n in acc_shape)):
        point = dict(zip(c.ma, idx))
        i, lrow = row("l", lrows, lp, point)
        j, rrow = row("r", rrows, rp, point)
        p = products.get((i, j))
        if p is None:
            p = products[(i, j)] = e.mul(lrow, rrow)
        out.append(e.reduction(c.kind, p, e.extract(c.acc, idx) if acc_shape else c.acc))
    if not acc_shape:
        return out[0]
    flat = e.from_elements(out, VectorType((len(out),), c.elem))
    return e.shape_cast(flat, c.rt)


# -- outer products ------------------------------------------------------------------------------------
def _outer_cost(lits: tuple[Any, ...], fused: bool = False) -> float:
    maps, its, kind, lhs_shape = lits[:4]
    k = prod(s for s, d in zip(lhs_shape, maps[0]) if its[d] == 1)  # type: ignore[index]
    t = lits[-1]
    float_add = kind == "add" and isinstance(t, tuple) and str(t[-1]).startswith(FLOAT_ELEMS)
    return ops_cost(k * (4 if float_add and not fused else 3) + 5)


def _outer_fused_cost(lits: tuple[Any, ...]) -> float:
    return _outer_cost(lits, fused=True)


@strategy(
    "ContractOuter", CONTRACT + ("IVec", "i64"), cost=_outer_cost, params=(("rows", 4),)
)
def contract_outer(dec: Any, t: Any) -> Value:
    """contract(lhs, rhs, acc) == acc <kind> outer(lhs[k], rhs[k]) <kind> ... for k over the
    reduction dims in row-major order (MLIR's ``outerproduct``), without batch dims and with a
    free dim in lhs or rhs (the rules check). Literals after the contraction's: the lhs shape
    (for the cost) and the row block.

    With free dims on both sides the accumulator is kept as rows, and each step is one AXPY
    per row, ``row_i <kind>= rhs[k] * lhs[i, k]``: what MLIR's own lowering of a 2-D
    ``vector.outerproduct`` unrolls to, written out so that every op spans one row (a register
    budget sees what the hardware runs) and lhs needs no transpose. Rows are done a block at a
    time, all of k for one block before the next, so that a block's accumulators stay in
    registers (the target's cost model picks the block). With one free dim the chain is AXPY on
    the whole accumulator. For float ``add`` each product is rounded before it is added
    (outerproduct without accumulator, then arith.addf), as the contraction is."""
    return _outer(dec, t, fuse_add=False)


@strategy(
    "ContractOuterFused",
    CONTRACT + ("IVec", "i64"),
    cost=_outer_fused_cost,
    params=(("rows", 4),),
)
def contract_outer_fused(dec: Any, t: Any) -> Value:
    """fp-contract mode (``rules/fp-contract/``): contract<add>(lhs, rhs, acc) over floats ==
    the ``ContractOuter`` chain with each step one fused ``vector.outerproduct`` with
    accumulator, ``row_i = fma(rhs[k], lhs[i, k], row_i)`` for k ascending: exactly the fused
    contraction's bits (``frontend.semantics_vector.contract(fused=True)``), as MLIR's own
    ``outerproduct`` lowering computes. Literals as ``ContractOuter``'s."""
    return _outer(dec, t, fuse_add=True)


def _outer(dec: Any, t: Any, fuse_add: bool) -> Value:
    """The outer-product chain; float add steps fused when ``fuse_add``, else rounded."""
    c = Contraction(dec, t)
    e = c.e
    lf, rf = c.lf, c.rf
    assert lf or rf, "outerproduct lowering needs a free dim"
    assert not set(lf) & set(rf), "outerproduct lowering cannot have batch dims"
    k = c.size(c.red)
    fused = fuse_add or not (c.kind == "add" and is_float(c.elem))

    def step(acc: Value, x: Value, y: Value) -> Value:
        if fused:
            return e.op("vector.outerproduct", [x, y, acc], acc.type, kind=c.kind)
        return e.combine("add", acc, e.op("vector.outerproduct", [x, y], acc.type, kind=c.kind))

    if lf and rf:
        rows = c.size(lf)
        a, b, acc = c.matmul_rows()
        blk = max(1, int(t.args[8]))  # type: ignore[arg-type]
        for i0 in range(0, rows, blk):
            block = range(i0, min(rows, i0 + blk))
            out = {i: e.extract(acc, [i]) for i in block}
            for j in range(k):
                y = e.extract(b, [j])
                for i in block:
                    out[i] = step(out[i], y, e.extract(a, [i, j]))
            for i in block:
                acc = e.insert(out[i], acc, [i])
        return c.restore(acc, lf + rf)
    free = lf or rf
    a = e.reshape(c.arrange(c.lhs, c.ml, c.red + lf), (k, c.size(lf)) if lf else (k,))
    b = e.reshape(c.arrange(c.rhs, c.mr, c.red + rf), (k, c.size(rf)) if rf else (k,))
    acc = e.reshape(c.arrange(c.acc, c.ma, free), (c.size(free),))
    for j in range(k):
        x, y = e.extract(a, [j]), e.extract(b, [j])
        acc = step(acc, *((x, y) if lf else (y, x)))  # AXPY: the vector operand first
    return c.restore(acc, free)


# -- pair broadcasts (fast-math) ---------------------------------------------------------------------
def _pair_cost(lits: tuple[Any, ...]) -> float:
    k = prod(lits[3]) // max(1, (result_shape(lits) or (1,))[0])  # lhs is rows x k
    return ops_cost(k * 2 + 6)


@strategy(
    "ContractPairBroadcast",
    CONTRACT + ("IVec", "i64"),
    cost=_pair_cost,
    params=(("fused", 8),),
)
def contract_pair_broadcast(dec: Any, t: Any) -> Value:
    """fast-math: contract<add>(lhs, rhs, acc) for a float matmul (free dims on both sides, the
    reduction length k and the row width n even; the rules check) == per accumulator row i,
    acc[i] + P + swap(Q) where, over k in steps of two, with v the pair (lhs[i, k],
    lhs[i, k+1]) repeated along the row:
    P += v * mix(rhs[k], rhs[k+1]) (even lanes from rhs[k], odd lanes from rhs[k+1]) and
    Q += v * cross(rhs[k], rhs[k+1]) (lane 2j is rhs[k, 2j+1], lane 2j+1 is rhs[k+1, 2j]);
    swap exchanges adjacent lanes. Each lane of P and of swap(Q) sums the products of half the
    reduction points: the sum is reassociated, and with ``fused`` (last literal 1) each
    multiply-add is one ``vector.fma``.

    Why: the outer product broadcasts one lhs element per AXPY (a broadcast load each, which
    x86 issues two per cycle, as many as FMAs); here one 64-bit pair broadcast feeds two FMAs,
    and the rhs mixes are made once for every row."""
    c = Contraction(dec, t)
    e = c.e
    rows, width, k = c.size(c.lf), c.size(c.rf), c.size(c.red)
    assert c.lf and c.rf and k % 2 == 0 and width % 2 == 0, "pair broadcasts need even k, width"
    fused = bool(int(t.args[8]))  # type: ignore[arg-type]
    a, b, acc = c.matmul_rows()
    mix = [l + width * (l % 2) for l in range(width)]  # even lanes from x, odd lanes from y
    cross = [l + 1 if l % 2 == 0 else width + l - 1 for l in range(width)]
    swap = [l ^ 1 for l in range(width)]
    mixes = []
    for j in range(0, k, 2):
        x, y = e.extract(b, [j]), e.extract(b, [j + 1])
        mixes.append((j, e.shuffle(x, y, mix), e.shuffle(x, y, cross)))

    def madd(v: Value, w: Value, into: Value | None) -> Value:
        if into is None:
            return e.mul(v, w)
        if fused:
            return e.op("vector.fma", [v, w, into], into.type)
        return e.combine("add", into, e.mul(v, w))

    for i in range(rows):
        row = e.extract(a, [i])
        p: Value = e.extract(acc, [i])
        q: Value | None = None
        for j, m, x in mixes:
            v = e.shuffle(row, row, [j, j + 1] * (width // 2))
            p, q = madd(v, m, p), madd(v, x, q)
        assert q is not None
        acc = e.insert(e.combine("add", p, e.shuffle(q, q, swap)), acc, [i])
    return c.restore(acc, c.lf + c.rf)


# -- LLVM matrix intrinsic ---------------------------------------------------------------------------
@strategy("ContractMatmul", CONTRACT, cost=lambda lits: ops_cost(6))
def contract_matmul(dec: Any, t: Any) -> Value:
    """contract<add>(lhs : MxK, rhs : KxN, acc) == acc + shape_cast(matrix_multiply(
    shape_cast(lhs), shape_cast(rhs), M, K, N)) for a 2-D matmul-shaped contraction (one
    reduction dim, lhs and rhs each indexing it and one distinct parallel dim; transposes
    bring them to MxK and KxN, row-major; MLIR's ``matmulintrinsics``). Exact on integers; on
    floats the accumulator is added after the K products are summed (as MLIR does), not
    before, so the last bit can differ from the contraction's order."""
    c = Contraction(dec, t)
    e = c.e
    (k,) = c.red
    (m,) = [d for d in c.ml if d != k]
    (n,) = [d for d in c.mr if d != k]
    mm, kk, nn = c.sizes[m], c.sizes[k], c.sizes[n]
    a = e.reshape(c.arrange(c.lhs, c.ml, [m, k]), (mm * kk,))
    b = e.reshape(c.arrange(c.rhs, c.mr, [k, n]), (kk * nn,))
    prod_t = VectorType((mm * nn,), c.elem)
    p = e.op("vector.matrix_multiply", [a, b], prod_t, lhs_rows=mm, lhs_columns=kk, rhs_columns=nn)
    return e.combine("add", c.acc, c.restore(p, [m, n]))


# -- parallel arithmetic -----------------------------------------------------------------------------
def _parallel_cost(lits: tuple[Any, ...]) -> float:
    maps, its = lits[0], lits[1]
    n = 3  # mul, multi_reduction, and a transpose or broadcast on average
    for m in maps[:2]:  # type: ignore[index]
        n += (list(m) != sorted(m)) + 2 * (len(m) < len(its))  # type: ignore[arg-type]
    n += 2 * (list(maps[2]) != sorted(maps[2]))  # type: ignore[index]
    return ops_cost(n)


@strategy("ContractParallel", CONTRACT, cost=_parallel_cost)
def contract_parallel(dec: Any, t: Any) -> Value:
    """contract(lhs, rhs, acc) == multi_reduction<kind>(L * R, acc', reduction dims) where L
    and R are lhs and rhs transposed and broadcast over the whole iteration space and acc' is
    acc in iteration order (MLIR's ``parallelarith``: element-wise arithmetic, then a
    multi-dim reduction); with no reduction dim, acc <kind> L * R."""
    c = Contraction(dec, t)
    e = c.e
    dims = list(range(len(c.its)))
    products = e.mul(c.arrange(c.lhs, c.ml, dims), c.arrange(c.rhs, c.mr, dims))
    vector_acc = isinstance(c.acc.type, VectorType)
    acc = c.arrange(c.acc, c.ma, c.par) if vector_acc else c.acc
    if not c.red:
        return c.restore(e.combine(c.kind, acc, products), c.par)
    rt = VectorType(c.shape(c.par), c.elem) if vector_acc else c.elem
    red = e.op("vector.multi_reduction", [products, acc], rt, kind=c.kind, reduction_dims=c.red)
    return c.restore(red, c.par) if vector_acc else red
