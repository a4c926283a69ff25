"""The ``memref`` dialect subset vector programs use: buffers, element access, views, globals."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from frontend.attributes import (
    AffineMapAttr,
    DenseElementsAttr,
    StridedLayoutAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
    format_symbol,
)
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops.common import fail, ints
from frontend.ops.kinds import ANY_ATTR, I64, I64_LIST, STRING, SYMBOL_NAME, SYMBOL_REF, TYPE, UNIT
from frontend.ops.runtime import SemanticsError, elem, mixed, no_op, shape
from frontend.ops.spec import (
    ANY,
    DYNAMIC_INDEX,
    FREES,
    INDEX,
    MEMREF,
    PURE,
    READS,
    SYMBOL,
    VARIADIC,
    WRITES,
    Attr,
    Operand,
    OpSpec,
    Result,
)
from frontend.semantics import MemRef
from frontend.types import IndexType, MemRefType, UnrankedMemRefType

ANY_MEMREF = MEMREF.__class__(
    "memref", lambda t: isinstance(t, (MemRefType, UnrankedMemRefType))
)
ALLOC = frozenset({WRITES})  # allocation is an effect: two allocs must never merge


def _verify_alloc(op: Operation) -> None:
    t = op.results[0].type
    groups = op.operand_groups()
    dynamic = sum(s is None for s in t.shape)
    if len(groups["dynamicSizes"]) != dynamic:
        raise fail(op, f"dimension operand count does not equal memref dynamic dimension count "
                       f"({len(groups['dynamicSizes'])} vs {dynamic})")


def _alloc(name: str) -> OpSpec:
    return OpSpec(
        f"memref.{name}",
        operands=(Operand("dynamicSizes", INDEX, VARIADIC),
                  Operand("symbolOperands", INDEX, VARIADIC)),
        results=(Result("memref", MEMREF),),
        attrs=(Attr("alignment", I64, optional=True),),
        traits=ALLOC,
        format="`(` $dynamicSizes `)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
        verify=_verify_alloc,
        eval=_eval_alloc,
    )


def _indices(op: Operation) -> None:
    t = op.operand("memref").type
    if len(op.operand_groups()["indices"]) != t.rank:
        raise fail(op, f"incorrect number of indices for the memref: expected {t.rank}")


def _verify_store(op: Operation) -> None:
    _indices(op)
    if op.operand("value").type != op.operand("memref").type.element:
        raise fail(op, "value type must match the memref element type")


# -- subview --------------------------------------------------------------------------------------
def _verify_subview(op: Operation) -> None:
    src = op.operand("source").type
    for name in ("static_offsets", "static_sizes", "static_strides"):
        if len(ints(op.attributes[name])) != src.rank:
            raise fail(op, f"expected {src.rank} {name[7:]} values")
    res = op.results[0].type
    if res.element != src.element:
        raise fail(op, "result element type must match the source element type")
    sizes, strides = _subview_layout(op, src)
    want = MemRefType(tuple(sizes), src.element, None, src.memory_space)
    kept = _kept_dims(sizes, res)
    if kept is None:
        raise fail(op, f"expected result type to be {want} or a rank-reduced version. "
                       "(mismatch of result sizes)")
    lay = layout_of(res)
    exp_strides, exp_offset = strides
    if lay is None or lay[1] != exp_offset or any(
        lay[0][i] != exp_strides[k] for i, k in enumerate(kept)
    ):
        raise fail(op, f"expected result type to be {want} with strides "
                       f"{[('?' if x is None else x) for x in exp_strides]} and offset "
                       f"{'?' if exp_offset is None else exp_offset} or a rank-reduced "
                       "version. (mismatch of result layout)")


def _subview_layout(
    op: Operation, src: MemRefType
) -> tuple[list[int | None], tuple[list[int | None], int | None]]:
    """The result sizes, strides and offset a subview implies (None: dynamic)."""
    a = op.attributes
    dyn = lambda v: None if v == DYNAMIC_INDEX else v  # noqa: E731
    offs = [dyn(v) for v in ints(a["static_offsets"])]
    sizes = [dyn(v) for v in ints(a["static_sizes"])]
    steps = [dyn(v) for v in ints(a["static_strides"])]
    lay = layout_of(src)
    if lay is None:
        raise fail(op, f"expected a strided layout for source {src}")
    src_strides, src_off = lay
    strides = [None if s is None or t is None else s * t for s, t in zip(src_strides, steps)]
    offset = src_off
    for o, s in zip(offs, src_strides):
        offset = None if offset is None or o is None or s is None else offset + o * s
    return sizes, (strides, offset)


def _kept_dims(sizes: list[int | None], res: MemRefType) -> list[int] | None:
    """Which subview dims the result keeps: all, or all but some static unit dims."""
    if len(sizes) == res.rank:
        return list(range(res.rank)) if list(res.shape) == sizes else None
    drop = len(sizes) - res.rank
    if drop < 0:
        return None
    units = [i for i, s in enumerate(sizes) if s == 1]
    for dropped in combinations(units, drop):
        kept = [i for i in range(len(sizes)) if i not in dropped]
        if [sizes[i] for i in kept] == list(res.shape):
            return kept
    return None


def layout_of(t: MemRefType) -> tuple[tuple[int | None, ...], int | None] | None:
    """(strides, offset) of a memref type (None entries are dynamic); None when the layout is
    an affine map that is not the identity."""
    if isinstance(t.layout, StridedLayoutAttr):
        return tuple(t.layout.strides), t.layout.offset
    if t.layout is None or (
        isinstance(t.layout, AffineMapAttr)
        and t.layout.map.result_positions() == tuple(range(t.rank))
    ):
        strides: list[int | None] = []
        acc: int | None = 1
        for s in reversed(t.shape):
            strides.append(acc)
            acc = None if acc is None or s is None else acc * s
        return tuple(reversed(strides)), 0
    return None


# -- global ----------------------------------------------------------------------------------------
def _parse_global(p: Any, st: Any) -> None:
    """``memref.global ["private"] [constant] @name : type [= dense<..> | uninitialized]``."""
    vis = p.try_string()
    if vis is not None:
        st.attrs["sym_visibility"] = StringAttr(vis)
    if p.try_keyword("constant"):
        st.attrs["constant"] = UnitAttr()
    st.attrs["sym_name"] = StringAttr(p._symbol_name())
    p.expect_punct(":", "and the global's type")
    p.skip_ws()
    pos = p.pos
    t = p.parse_type()
    if not isinstance(t, MemRefType):
        raise p.error("memref.global needs a memref type", pos)
    st.attrs["type"] = TypeAttr(t)
    if p.try_punct("="):
        if p.try_keyword("uninitialized"):
            st.attrs["initial_value"] = UnitAttr()
        else:
            from frontend.dense import flatten_dense

            vpos = p.pos
            p.expect_keyword("dense")
            p.expect_punct("<")
            literal: Any = [] if p.peek(">") else p._dense_literal()
            p.expect_punct(">")
            try:
                values = flatten_dense(literal, t.shape, t.element)  # type: ignore[arg-type]
            except ValueError as e:
                raise p.error(str(e), vpos) from None
            from frontend.types import TensorType

            st.attrs["initial_value"] = DenseElementsAttr(TensorType(t.shape, t.element), values)
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    st.all_result_types = []


def _print_global(pr: Any, op: Operation) -> str:
    a = op.attributes
    text = ""
    if "sym_visibility" in a:
        text += f"{a['sym_visibility']} "
    if "constant" in a:
        text += "constant "
    text += f"@{format_symbol(a['sym_name'].value)} : {a['type'].type}"
    init = a.get("initial_value")
    if isinstance(init, UnitAttr):
        text += " = uninitialized"
    elif init is not None:
        body = str(init)
        text += " = " + body[: body.rindex(" : ")]
    rest = pr.attr_dict(op, {"sym_visibility", "constant", "sym_name", "type", "initial_value"})
    return text + (f" {rest}" if rest else "")


# -- semantics ---------------------------------------------------------------------------------
def _eval_alloc(ctx: Any, op: Operation, dynamic_sizes: list[Any], symbols: list[Any]) -> MemRef:
    """A fresh zero-filled row-major buffer (alloc and alloca alike)."""
    t = op.results[0].type
    dyn = iter(int(s) for s in dynamic_sizes)
    sizes = [next(dyn) if s is None else s for s in t.shape]
    if any(s < 0 for s in sizes):
        raise SemanticsError(f"{op.name} with negative size {sizes}")
    mem = MemRef.alloc(sizes, elem(t), shape(ctx, t.element))
    return ctx.heap.alloc(mem) if op.name == "memref.alloc" else ctx.heap.note(mem, op.name)


def _eval_cast(ctx: Any, op: Operation, source: MemRef) -> MemRef:
    t = op.results[0].type
    return source.cast(list(t.shape) if isinstance(t, MemRefType) else None)


def _drop_dims(sizes: list[int], result: MemRefType) -> list[int]:
    """Unit dims a rank-reducing subview drops: the leftmost choice whose kept sizes fit the
    result type (``?`` fits any size)."""
    units = [i for i, s in enumerate(sizes) if s == 1]
    for drop in combinations(units, len(sizes) - result.rank):
        kept = [s for i, s in enumerate(sizes) if i not in drop]
        if all(r in (k, None) for k, r in zip(kept, result.shape)):
            return list(drop)
    raise SemanticsError(f"subview sizes {sizes} do not reduce to {result}")


def _eval_subview(
    ctx: Any, op: Operation, source: MemRef, offsets: list, sizes: list, strides: list
) -> MemRef:
    a = op.attributes
    size_vals = mixed(a["static_sizes"], sizes)
    return source.subview(
        mixed(a["static_offsets"], offsets),
        size_vals,
        mixed(a["static_strides"], strides),
        _drop_dims(size_vals, op.results[0].type),
    )


def _eval_copy(ctx: Any, op: Operation, source: MemRef, target: MemRef) -> None:
    if source.sizes != target.sizes:
        raise SemanticsError(f"memref.copy from {source.type_str()} to {target.type_str()}")
    if 0 in target.sizes:
        return
    idx = np.moveaxis(np.indices(target.sizes, dtype=np.int64), 0, -1)
    target.buffer[target.positions(idx)] = source.to_array()


# A view's offsets, sizes and strides: dynamic operands, and the static lists that hold the
# constants (MLIR's ShapedType::kDynamic where an operand stands instead).
VIEW_INDEX_OPERANDS = (
    Operand("offsets", INDEX, VARIADIC),
    Operand("sizes", INDEX, VARIADIC),
    Operand("strides", INDEX, VARIADIC),
)
VIEW_INDEX_ATTRS = (
    Attr("static_offsets", I64_LIST),
    Attr("static_sizes", I64_LIST),
    Attr("static_strides", I64_LIST),
)


register(
    _alloc("alloc"),
    _alloc("alloca"),
    OpSpec(
        "memref.dealloc",
        operands=(Operand("memref", ANY_MEMREF),),
        traits=frozenset({WRITES, FREES}),
        format="$memref attr-dict `:` type($memref)",
        eval=lambda ctx, op, m: ctx.heap.free(m, op.name),
    ),
    OpSpec(
        "memref.load",
        operands=(Operand("memref", MEMREF), Operand("indices", INDEX, VARIADIC)),
        results=(Result("result", ANY),),
        attrs=(Attr("nontemporal", ANY_ATTR, optional=True),),
        traits=frozenset({READS}),
        format="$memref `[` $indices `]` attr-dict `:` type($memref)",
        infer=lambda op: [op.operand("memref").type.element],
        verify=_indices,
        eval=lambda ctx, op, m, indices: m.load([int(i) for i in indices]),
    ),
    OpSpec(
        "memref.store",
        operands=(Operand("value", ANY), Operand("memref", MEMREF),
                  Operand("indices", INDEX, VARIADIC)),
        attrs=(Attr("nontemporal", ANY_ATTR, optional=True),),
        traits=frozenset({WRITES}),
        format="$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)",
        verify=_verify_store,
        eval=lambda ctx, op, v, m, indices: m.store([int(i) for i in indices], v),
    ),
    OpSpec(
        "memref.cast",
        operands=(Operand("source", ANY_MEMREF),),
        results=(Result("dest", ANY_MEMREF),),
        traits=frozenset({PURE}),
        format="$source attr-dict `:` type($source) `to` type($dest)",
        eval=_eval_cast,
    ),
    OpSpec(
        "memref.subview",
        operands=(
            Operand("source", MEMREF),
            *VIEW_INDEX_OPERANDS,
        ),
        results=(Result("result", MEMREF),),
        attrs=VIEW_INDEX_ATTRS,
        traits=frozenset({PURE}),
        format="$source `` custom<DynamicIndexList>($offsets, $static_offsets) "
        "custom<DynamicIndexList>($sizes, $static_sizes) "
        "custom<DynamicIndexList>($strides, $static_strides) attr-dict `:` type($source) `to` "
        "type($result)",
        verify=_verify_subview,
        eval=_eval_subview,
    ),
    OpSpec(
        "memref.global",
        attrs=(
            Attr("sym_name", SYMBOL_NAME),
            Attr("sym_visibility", STRING, optional=True),
            Attr("type", TYPE),
            Attr("initial_value", ANY_ATTR, optional=True),
            Attr("constant", UNIT, optional=True),
            Attr("alignment", I64, optional=True),
        ),
        traits=frozenset({SYMBOL}),
        parse=_parse_global,
        print=_print_global,
        eval=no_op,  # a definition: memref.get_global reaches its buffer
    ),
    OpSpec(
        "memref.get_global",
        results=(Result("result", MEMREF),),
        attrs=(Attr("name", SYMBOL_REF),),
        traits=frozenset({PURE}),
        format="$name `:` type($result) attr-dict",
        eval=lambda ctx, op: ctx.heap.note(
            ctx.global_memref(op.attributes["name"].root), "memref.global"
        ),
    ),
    OpSpec(
        "memref.dim",
        operands=(Operand("source", ANY_MEMREF), Operand("index", INDEX)),
        results=(Result("result", INDEX),),
        traits=frozenset({PURE}),
        format="attr-dict $source `,` $index `:` type($source)",
        infer=lambda op: [IndexType()],
        eval=lambda ctx, op, m, i: np.int64(m.dim(int(i))),
    ),
    OpSpec(
        "memref.copy",
        operands=(Operand("source", ANY_MEMREF), Operand("target", ANY_MEMREF)),
        traits=frozenset({READS, WRITES}),
        format="$source `,` $target attr-dict `:` type($source) `to` type($target)",
        eval=_eval_copy,
    ),
)
