"""Lowerings of the vector ops that combine elements: reduction, multi_reduction, contract,
outerproduct, matrix_multiply, scan.

The plain lowering folds in exactly the interpreter's order (``frontend.semantics_vector``):
each result piece starts from its accumulator and combines one item per reduction point, in
row-major order of the reduction dims, lane-parallel across the piece; products are rounded
before they are added (contract; in fp-contract mode, ``ModuleEmitter.fp_contract``, each
float add step is one fma, as ``frontend.semantics_vector.contract(fused=True)``),
outerproduct's float add is fused. With reassociation on
(``--reassoc``), float add folds use ``llvm.vector.reduce.fadd`` with the ``reassoc`` flag.
Which items a step combines is an index map computed with numpy, as for the shape ops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter, ZeroWitness
from eqsat.codegen.gather import Sources, arange, result_chunks, size, zip_map
from eqsat.codegen.types import I32, CodegenError, bit_width, shuffle_mask, vector_of
from frontend import semantics as S
from frontend.ir import Operation
from frontend.ops.common import ints
from frontend.ops.runtime import elem, enum
from frontend.semantics_vector import _move_to_end, _to_iteration_space
from frontend.types import FloatType, VectorType

_INT = {"add": "add", "mul": "mul", "and": "and_", "or": "or_", "xor": "xor"}
_INT_MINMAX = {
    "minsi": ("<", True),
    "maxsi": (">", True),
    "minui": ("<", False),
    "maxui": (">", False),
}
_FLOAT = {"add": "fadd", "mul": "fmul"}
_FLOAT_INTR = {
    "minnumf": "minnum",
    "maxnumf": "maxnum",
    "minimumf": "minimum",
    "maximumf": "maximum",
}


_NUM = ("minnumf", "maxnumf")


def combine(
    em: FuncEmitter, kind: str, a: ir.Value, b: ir.Value, is_float: bool, zero_sign: bool = True
) -> ir.Value:
    """a <kind> b on scalars or 1-D vectors (the semantics of frontend.semantics.combine).
    ``zero_sign=False``: minnumf/maxnumf as LLVM's bare minnum/maxnum, whose result for
    zeros of opposite signs is either; a fold of such steps gets its zeros' signs right once,
    at its end (``eqsat.codegen.emitter.ZeroWitness``)."""
    if is_float:
        if kind in _FLOAT:
            return getattr(em.b, _FLOAT[kind])(a, b)
        if kind in _NUM:
            if not zero_sign:
                return em.intrinsic(_FLOAT_INTR[kind], [a, b])
            return em.min_max_num(_FLOAT_INTR[kind], a, b)
        if kind in _FLOAT_INTR:
            return em.intrinsic(_FLOAT_INTR[kind], [a, b])
    else:
        if kind in _INT:
            return getattr(em.b, _INT[kind])(a, b)
        if kind in _INT_MINMAX:
            pred, signed = _INT_MINMAX[kind]
            cmp = em.b.icmp_signed if signed else em.b.icmp_unsigned
            return em.b.select(cmp(pred, a, b), a, b)
    raise CodegenError(f"combining kind <{kind}> is not defined on this element type")


def neutral(em: FuncEmitter, kind: str, e: str, t: ir.Type) -> ir.Value:
    v = S.neutral(kind, e)
    from eqsat.codegen.arith import scalar_constant

    c = scalar_constant(t.element if isinstance(t, ir.VectorType) else t, v, e)
    return ir.Constant(t, [c] * t.count) if isinstance(t, ir.VectorType) else c


def _mask_sources(em: FuncEmitter) -> Sources | None:
    if em.mask is None:
        return None
    v, t = em.mask
    return Sources.of(em, [(v, t)])


def fold(
    em: FuncEmitter,
    rt: Any,
    kind: str,
    e: str,
    start: Callable[[np.ndarray], ir.Value],
    operands: list[tuple[Sources, np.ndarray]],
    item: Callable[..., ir.Value],
    mask: tuple[Sources, np.ndarray] | None = None,
    step: Callable[..., ir.Value] | None = None,
) -> ir.Value:
    """Result of type rt: piece c = start(c) <kind> item(step 0) <kind> item(step 1) ...;
    each operand's index map has rt's shape plus a last axis of steps. ``step`` (acc, then
    the operands' chunks) replaces ``acc <kind> item(...)`` (the fused contraction's fma)."""
    is_float = e.startswith("f") or e == "bf16"
    steps = operands[0][1].shape[-1] if operands else 0
    flat_ops = [(s, np.asarray(idx).reshape(-1, steps)) for s, idx in operands]
    flat_mask = None if mask is None else (mask[0], np.asarray(mask[1]).reshape(-1, steps))
    reducible = kind in (_FLOAT if is_float else _REDUCE_INT)
    per_element = (
        step is None
        and mask is None
        and steps > 1
        and reducible
        and (em.m.reassoc and is_float or _items_are_pieces(flat_ops))
    )
    flags = ["reassoc"] if em.m.reassoc and is_float else []
    late_zero = is_float and kind in _NUM and step is None and flat_mask is None
    pieces = []
    for c in result_chunks(em, rt):
        acc = start(c)
        witness = ZeroWitness(em, _FLOAT_INTR[kind], acc.type) if late_zero and steps else None
        # a piece of several lanes adds each item beside its step; a fold of one lane (a
        # vector.reduction's lanes, one by one) after the fold, in general-purpose registers:
        # beside it, avx2's 16x64 maximum over rows (reduce_maxnumf_16x64_d1_f32) ran 1.5x
        # slower in one A/B
        one_lane = not isinstance(acc.type, ir.VectorType) or acc.type.count == 1
        later = [acc] if witness is not None and one_lane else []
        if witness is not None and not later:
            witness.add(acc)
        if per_element:  # acc_p <kind> reduce(items of p): llvm.vector.reduce.* per element
            outs = []
            for lane, p in enumerate(c):
                items = item(*[s.chunk(em, idx[p]) for s, idx in flat_ops])
                a = em.b.extract_element(acc, I32(lane))
                outs.append(_reduce(em, kind, a, items, is_float, flags))
            pieces.append(vector_of(em.b, outs))
            continue
        for k in range(steps):
            chunks = [s.chunk(em, idx[c, k]) for s, idx in flat_ops]
            if witness is not None:  # the step, then the item into the witness while live
                x = item(*chunks)
                acc = combine(em, kind, acc, x, is_float, zero_sign=False)
                if later:
                    later.append(x)
                else:
                    witness.add(x)
                continue
            new = step(acc, *chunks) if step else combine(em, kind, acc, item(*chunks), is_float)
            if flat_mask is not None:
                new = em.b.select(flat_mask[0].chunk(em, flat_mask[1][c, k]), new, acc)
            acc = new
        if witness is not None:
            acc = witness.settle(acc, later)
        pieces.append(acc)
    if not isinstance(rt, VectorType):
        return em.b.extract_element(pieces[0], I32(0))
    return em.from_chunks(pieces, rt)


# An ordered float reduction of more than 2 * _PART lanes is a chain of scalar steps on the
# source's lanes: ``llvm.vector.reduce.fadd`` of 8-lane parts, expanded late in O3, left
# shuffles and a ``-0.0 +`` start in the optimized IR and ran 10% slower on softmax's row sum.
_PART = 8
_REDUCE_INT = {
    "add": "add",
    "mul": "mul",
    "and": "and",
    "or": "or",
    "xor": "xor",
    "minsi": "smin",
    "maxsi": "smax",
    "minui": "umin",
    "maxui": "umax",
}


def _items_are_pieces(flat_ops: list[tuple[Sources, np.ndarray]]) -> bool:
    """Each result element's items are one whole source piece in order (an inner reduction):
    then one ordered reduce per element beats lane-parallel steps of gathered lanes."""
    for s, idx in flat_ops:
        row = idx[0]
        piece = {s.where[i][0] for i in row if i >= 0}
        if len(piece) != 1 or [s.where[i][1] for i in row] != list(range(len(row))):
            return False
        if s.pieces[piece.pop()].type.count != len(row):
            return False
    return True


def _reduce(
    em: FuncEmitter, kind: str, acc: ir.Value, items: ir.Value, is_float: bool, flags: list[str]
) -> ir.Value:
    """acc <kind> items[0] <kind> items[1] ...: llvm.vector.reduce.fadd/fmul take the start
    value and are ordered unless flagged reassoc; integer kinds do not depend on order."""
    if is_float:
        name = "vector.reduce.fadd" if kind == "add" else "vector.reduce.fmul"
        n = items.type.count
        if not flags and n > 2 * _PART:  # ordered: a chain of scalar steps
            op = em.b.fadd if kind == "add" else em.b.fmul
            for k in range(n):
                acc = op(acc, em.b.extract_element(items, I32(k)))
            return acc
        return em.intrinsic(name, [acc, items], over=[items.type], ret=acc.type, flags=flags)
    r = em.intrinsic("vector.reduce." + _REDUCE_INT[kind], [items], ret=acc.type)
    return combine(em, kind, acc, r, False)


def _start(
    em: FuncEmitter, acc: tuple[ir.Value, Any] | None, kind: str, e: str, rt: Any
) -> Callable[[np.ndarray], ir.Value]:
    """Accumulator pieces: the acc operand's, or the neutral element."""
    et = em.ty(rt.element if isinstance(rt, VectorType) else rt)
    if acc is None:
        return lambda c: neutral(em, kind, e, ir.VectorType(et, len(c)))
    src = Sources.of(em, [acc])
    full = arange(acc[1]).reshape(-1)
    return lambda c: src.chunk(em, full[c])


def pairwise_tree(
    em: FuncEmitter, kind: str, x: ir.Value, is_float: bool = True, fix_zero: bool = True
) -> ir.Value:
    """Halve until one lane is left: lanes [0, h) with [h, 2h), an odd last lane carried
    (frontend.semantics_hwv.pairwise_tree), as shuffles and lane-wise ops; minnumf/maxnumf
    with bare minnum/maxnum steps and the zero's sign fixed once at the end (``fix_zero``;
    else left to the caller)."""
    late_zero = is_float and kind in _NUM
    whole = x
    undef = ir.Constant(x.type, ir.Undefined)
    n = x.type.count
    while n > 1:
        h = n // 2
        lo = em.b.shuffle_vector(x, undef, shuffle_mask(list(range(h))))
        hi = em.b.shuffle_vector(x, undef, shuffle_mask(list(range(h, 2 * h))))
        y = combine(em, kind, lo, hi, is_float, zero_sign=not late_zero)
        if n % 2:
            rest = em.b.shuffle_vector(x, undef, shuffle_mask([n - 1] * h))
            y = em.b.shuffle_vector(y, rest, shuffle_mask(list(range(h)) + [h]))
        x, n = y, y.type.count
        undef = ir.Constant(x.type, ir.Undefined)
    r = em.b.extract_element(x, I32(0))
    if fix_zero and late_zero and whole.type.count > 1:
        return _as_the_fold(em, kind, r, [whole], whole)
    return r


def _as_the_fold(
    em: FuncEmitter, kind: str, r: ir.Value, items: list[ir.Value], x: ir.Value
) -> ir.Value:
    """``r``, the minnum/maxnum of ``items`` in any order with bare steps, made the ordered
    fold's bits: the zero's sign (``fix_zero_sign``), and a fold of NaNs only is its last NaN
    (the interpreter's ``maxnumf(NaN, y)`` is ``y``), taken from ``x``'s last lane whenever
    ``r`` is NaN (a bare min/max is NaN only when both operands are). LLVM's own pick of a NaN
    differs: f16 steps, widened to f32 and back, gave another payload (158 of 200 all-NaN
    vectors of llvm.intr.vector.reduce.fmax on avx2, before)."""
    w = ZeroWitness(em, _FLOAT_INTR[kind], r.type)
    return w.settle(r, items, nans=True)


def _min_max_num(em: FuncEmitter, kind: str, x: ir.Value, acc: ir.Value | None) -> ir.Value:
    """vector.reduction <minnumf|maxnumf> of ``x`` (after ``acc``), unmasked: the fold's value
    in any order but the two cases ``_as_the_fold`` settles, so a pairwise tree (log depth),
    not a chain of one step per lane: the 16x64 f32 maximum over rows
    (reduce_maxnumf_16x64_d1_f32) was a 64-step scalar chain per row, 4-5x MLIR 22's time
    (experiments/results/ab_rmax_tree_*.md)."""
    r = pairwise_tree(em, kind, x, fix_zero=False)
    if acc is not None:
        r = em.intrinsic(_FLOAT_INTR[kind], [acc, r])
    return _as_the_fold(em, kind, r, [x] if acc is None else [acc, x], x)


def reduction(em: FuncEmitter, op: Operation) -> Any:
    v = op.operands[0]
    acc = (em.get(op.operands[1]), op.operands[1].type) if len(op.operands) > 1 else None
    kind, e, rt = enum(op, "kind"), elem(v.type), op.results[0].type
    x = em.get(v)
    if kind in _NUM and em.mask is None and isinstance(x.type, ir.VectorType) and x.type.count > 1:
        return _min_max_num(em, kind, x, None if acc is None else acc[0])
    items = arange(v.type).reshape(1, -1)
    src = Sources.of(em, [(em.get(v), v.type)])
    m = _mask_sources(em)
    mask = None if m is None else (m, items)
    return fold(em, rt, kind, e, _start(em, acc, kind, e, rt), [(src, items)], lambda x: x, mask)


def multi_reduction(em: FuncEmitter, op: Operation) -> Any:
    src_v, acc_v = op.operands[0], op.operands[1]
    dims = ints(op.attributes["reduction_dims"])
    if not dims:
        return em.get(src_v)
    kind, e, rt = enum(op, "kind"), elem(src_v.type), op.results[0].type
    items = _move_to_end(arange(src_v.type), sorted(dims))
    src = Sources.of(em, [(em.get(src_v), src_v.type)])
    m = _mask_sources(em)
    mask = None if m is None else (m, items)
    start = _start(em, (em.get(acc_v), acc_v.type), kind, e, rt)
    return fold(em, rt, kind, e, start, [(src, items)], lambda x: x, mask)


def _promote(em: FuncEmitter, x: ir.Value, src: str, dst: str, dst_t: ir.Type) -> ir.Value:
    """As frontend.semantics contract's promote: ints sign-extended, floats converted."""
    if src == dst:
        return x
    t = ir.VectorType(dst_t, x.type.count)
    if dst.startswith("i") or dst == "index":
        sw, dw = x.type.element.width, dst_t.width
        return em.b.sext(x, t) if dw > sw else em.b.trunc(x, t) if dw < sw else x
    if src.startswith("i"):
        raise CodegenError(f"contract of {src} operands into {dst} is not supported")
    return em.b.fpext(x, t) if bit_width(dst_t) > bit_width(x.type.element) else em.b.fptrunc(x, t)


def _contract_maps(
    op: Operation, lhs_t: Any, rhs_t: Any, acc_t: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(lhs index, rhs index, iteration-space index) per result element and reduction step,
    in acc order: the index maps of frontend.semantics.contract."""
    maps = [m.map.result_positions() for m in op.attributes["indexing_maps"].values]
    its = [v.value for v in op.attributes["iterator_types"].values]
    n = len(its)
    lm, rm, am = maps
    red = [d for d in range(n) if its[d] == "reduction"]
    par = [d for d in range(n) if its[d] == "parallel"]
    lf = _to_iteration_space(arange(lhs_t), lm, n)
    rf = _to_iteration_space(arange(rhs_t), rm, n)
    full = np.broadcast_shapes(lf.shape, rf.shape)
    order = [par.index(d) for d in am] + [len(par)]

    def in_acc_order(x: np.ndarray) -> np.ndarray:
        return np.transpose(_move_to_end(np.broadcast_to(x, full), red), order)

    it = np.arange(int(np.prod(full))).reshape(full)
    return in_acc_order(lf), in_acc_order(rf), in_acc_order(it)


def contract(em: FuncEmitter, op: Operation) -> Any:
    lhs_v, rhs_v, acc_v = op.operands
    rt = op.results[0].type
    kind = enum(op, "kind") if "kind" in op.attributes else "add"
    e = elem(rt)
    li, ri, iti = _contract_maps(op, lhs_v.type, rhs_v.type, acc_v.type)
    ls = Sources.of(em, [(em.get(lhs_v), lhs_v.type)])
    rs = Sources.of(em, [(em.get(rhs_v), rhs_v.type)])
    el, er = elem(lhs_v.type), elem(rhs_v.type)
    et = em.ty(rt.element if isinstance(rt, VectorType) else rt)
    is_float = isinstance(rt.element if isinstance(rt, VectorType) else rt, FloatType)

    def item(a: ir.Value, b: ir.Value) -> ir.Value:
        return combine(em, "mul", _promote(em, a, el, e, et), _promote(em, b, er, e, et), is_float)

    def fused(acc: ir.Value, a: ir.Value, b: ir.Value) -> ir.Value:
        return em.fma(_promote(em, a, el, e, et), _promote(em, b, er, e, et), acc)

    m = _mask_sources(em)
    mask = None if m is None else (m, iti)
    start = _start(em, (em.get(acc_v), acc_v.type), kind, e, rt)
    step = fused if em.m.fp_contract and kind == "add" and is_float else None
    return fold(em, rt, kind, e, start, [(ls, li), (rs, ri)], item, mask, step)


def matrix_multiply(em: FuncEmitter, op: Operation) -> Any:
    a = op.attributes
    r, k, c = a["lhs_rows"].value, a["lhs_columns"].value, a["rhs_columns"].value
    lhs_v, rhs_v = op.operands
    rt = op.results[0].type
    e = elem(rt)
    # per result position p, the lhs and rhs elements of step k, in the run's matrix layout
    p, kk = np.meshgrid(np.arange(r * c), np.arange(k), indexing="ij")
    if em.m.matrix_layout == "column-major":
        i, j = p % r, p // r
        li, ri = kk * r + i, j * k + kk
    else:
        i, j = p // c, p % c
        li, ri = i * k + kk, kk * c + j
    ls = Sources.of(em, [(em.get(lhs_v), lhs_v.type)])
    rs = Sources.of(em, [(em.get(rhs_v), rhs_v.type)])
    is_float = isinstance(rt.element, FloatType)
    start = _start(em, None, "add", e, rt)
    return fold(
        em,
        rt,
        "add",
        e,
        start,
        [(ls, li), (rs, ri)],
        lambda x, y: combine(em, "mul", x, y, is_float),
        None,
    )


def outerproduct(em: FuncEmitter, op: Operation) -> Any:
    """res[i, j] = acc[i, j] <kind> lhs[i] * rhs[j]; float add fused (llvm.fma)."""
    lhs_v, rhs_v = op.operands[0], op.operands[1]
    acc_v = op.operands[2] if len(op.operands) > 2 else None
    rt: VectorType = op.results[0].type
    kind = enum(op, "kind") if "kind" in op.attributes else "add"
    is_float = isinstance(rt.element, FloatType)
    full = np.arange(size(rt)).reshape(rt.shape)
    if isinstance(rhs_v.type, VectorType):
        li, ri = full // rt.shape[1], full % rt.shape[1]
    else:
        li, ri = full, np.zeros_like(full)
    ops = [
        (Sources.of(em, [(em.get(lhs_v), lhs_v.type)]), li),
        (Sources.of(em, [(em.get(rhs_v), rhs_v.type)]), ri),
    ]
    if acc_v is not None:
        ops.append((Sources.of(em, [(em.get(acc_v), acc_v.type)]), full))
    m = _mask_sources(em)
    if m is not None:
        ops.append((m, full))

    def piece(a: ir.Value, b: ir.Value, *rest: ir.Value) -> ir.Value:
        acc = rest[0] if acc_v is not None else None
        mask = rest[-1] if m is not None else None
        if acc is None:
            r = combine(em, "mul", a, b, is_float)
            return r if mask is None else em.b.select(mask, r, ir.Constant(r.type, None))
        if kind == "add" and is_float:
            r = em.fma(a, b, acc)
        else:
            r = combine(em, kind, acc, combine(em, "mul", a, b, is_float), is_float)
        return r if mask is None else em.b.select(mask, r, acc)

    return zip_map(em, rt, ops, piece)


def scan(em: FuncEmitter, op: Operation) -> Any:
    """Element by element, in the order of frontend.semantics.scan."""
    src_v, init_v = op.operands
    a = op.attributes
    kind, dim, inclusive = enum(op, "kind"), a["reduction_dim"].value, bool(a["inclusive"].value)
    st: VectorType = src_v.type
    is_float = isinstance(st.element, FloatType)
    src = Sources.of(em, [(em.get(src_v), src_v.type)])
    ini = Sources.of(em, [(em.get(init_v), init_v.type)])
    moved = np.moveaxis(arange(st), dim, 0)  # [i, rest...] -> flat source index
    rest = moved.shape[1:]
    n = moved.shape[0]
    out: dict[int, ir.Value] = {}
    init_idx = np.arange(int(np.prod(rest))).reshape(rest) if rest else np.array(0)
    last: list[ir.Value] = []
    for r in np.ndindex(*rest) if rest else [()]:
        col = moved[(slice(None),) + r]
        if inclusive:
            cur = src.element(em, int(col[0]))
            out[int(col[0])] = cur
            for i in range(1, n):
                cur = combine(em, kind, cur, src.element(em, int(col[i])), is_float)
                out[int(col[i])] = cur
        else:
            cur = ini.element(em, int(init_idx[r]))
            out[int(col[0])] = cur
            for i in range(1, n):
                cur = combine(em, kind, cur, src.element(em, int(col[i - 1])), is_float)
                out[int(col[i])] = cur
        last.append(cur)
    dest = em.layout.from_elems(em.b, [out[i] for i in range(size(st))], st)
    it = op.results[1].type
    if isinstance(it, VectorType):
        acc = em.layout.from_elems(em.b, last, it)
    else:
        acc = last[0]
    return [dest, acc]


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "vector.reduction": reduction,
    "vector.multi_reduction": multi_reduction,
    "vector.contract": contract,
    "vector.matrix_multiply": matrix_multiply,
    "vector.outerproduct": outerproduct,
    "vector.scan": scan,
}
