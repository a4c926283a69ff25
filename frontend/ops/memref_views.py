"""The ``memref`` views and buffer ops vector programs use beyond alloc/load/store/subview.

Every view (reinterpret_cast, expand_shape, collapse_shape, transpose, view,
extract_strided_metadata, assume_alignment) aliases its source's buffer: the interpreter's
``MemRef`` is a strided window (offset, sizes, strides) on one shared numpy buffer. Views carry
the ``READS`` trait so that the e-graph threads them through the memory state: a view is never
moved or merged across a write (in particular across a ``memref.realloc`` of its source).
``realloc`` is an allocation (``WRITES``) that also reads the old buffer.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend.attributes import AffineMapAttr, ArrayAttr, IntegerAttr, StridedLayoutAttr
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops.common import fail, ints
from frontend.ops.kinds import AFFINE_MAP, I64, I64_LIST
from frontend.ops.memref import ANY_MEMREF, VIEW_INDEX_ATTRS, VIEW_INDEX_OPERANDS, layout_of
from frontend.ops.runtime import SemanticsError, mixed
from frontend.ops.spec import (
    DYNAMIC_INDEX,
    INDEX,
    MEMREF,
    OPTIONAL,
    READS,
    VARIADIC,
    WRITES,
    Attr,
    AttrKind,
    Operand,
    OpSpec,
    Result,
)
from frontend.semantics import MemRef
from frontend.semantics_core import dtype_of
from frontend.types import IndexType, IntegerType, MemRefType, VectorType

# A view aliases its source: ordered by the memory state, never merged across a write.
VIEW = frozenset({READS})

_I8 = IntegerType(8)
#: ``16`` (a bare i32, as assume_alignment spells it).
BARE_I32 = AttrKind(
    "32-bit signless integer attribute",
    lambda a: isinstance(a, IntegerAttr) and a.type == IntegerType(32),
    parse=lambda p: IntegerAttr(p.expect_i64(), IntegerType(32)),
    show=lambda a: str(a.value),  # type: ignore[attr-defined]
    build=lambda x: IntegerAttr(int(x), IntegerType(32)),
)
REASSOCIATION = AttrKind(
    "array of arrays of i64 (reassociation)",
    lambda a: isinstance(a, ArrayAttr)
    and all(
        isinstance(g, ArrayAttr) and all(isinstance(v, IntegerAttr) for v in g.values)
        for g in a.values
    ),
)


# -- layouts ----------------------------------------------------------------------------------
def _check_view(mem: MemRef, t: Any, what: str) -> MemRef:
    """Fault when a view's runtime sizes, strides or offset contradict its static type (UB in
    MLIR; a silently wrong view here)."""
    if not isinstance(t, MemRefType):
        return mem
    if any(s is not None and s != n for s, n in zip(t.shape, mem.sizes, strict=True)):
        raise SemanticsError(f"{what}: runtime sizes {list(mem.sizes)} do not fit {t}")
    lay = layout_of(t)
    if lay is not None and isinstance(t.layout, StridedLayoutAttr):
        strides, offset = lay
        bad = any(s is not None and s != r for s, r in zip(strides, mem.strides, strict=True))
        if bad or (offset is not None and offset != mem.offset):
            raise SemanticsError(
                f"{what}: runtime strides {list(mem.strides)} / offset {mem.offset} do not fit {t}"
            )
    return mem


def _groups(op: Operation) -> list[list[int]]:
    return [list(ints(g)) for g in op.attributes["reassociation"].values]


def _verify_reassociation(op: Operation, big: MemRefType, small: MemRefType) -> None:
    groups = _groups(op)
    flat = [d for g in groups for d in g]
    if flat != list(range(big.rank)) or any(not g for g in groups):
        raise fail(op, "expected reassociation map #0 to be valid and contiguous")
    if len(groups) != small.rank:
        raise fail(op, f"invalid number of reassociation groups: found {len(groups)}, "
                       f"expected {small.rank}")
    if big.element != small.element:
        raise fail(op, "element types of source and result must match")
    for i, g in enumerate(groups):
        sizes = [big.shape[d] for d in g]
        if None in sizes:
            continue
        if small.shape[i] is not None and int(np.prod(sizes)) != small.shape[i]:
            raise fail(op, f"collapsed dim ({small.shape[i]}) must equal the product of "
                           f"expanded dims ({int(np.prod(sizes))}) in group #{i}")


# -- reinterpret_cast -------------------------------------------------------------------------
def _verify_reinterpret(op: Operation) -> None:
    src, res = op.operand("source").type, op.results[0].type
    a = op.attributes
    if getattr(src, "element", None) != res.element:
        raise fail(op, "different element types specified")
    if len(ints(a["static_offsets"])) != 1:
        raise fail(op, "expected 1 offset value")
    for name in ("static_sizes", "static_strides"):
        if len(ints(a[name])) != res.rank:
            raise fail(op, f"expected {res.rank} {name[7:]} values")
    for i, (s, r) in enumerate(zip(ints(a["static_sizes"]), res.shape)):
        if _static(s) != r:
            raise fail(op, f"expected result type with size = {_show(s)} instead of {_show(r)} "
                           f"in dim = {i}")
    lay = layout_of(res)
    if lay is None:
        raise fail(op, "expected result type to have strided layout")
    strides, offset = lay
    off = ints(a["static_offsets"])[0]
    if _static(off) != offset:
        raise fail(op, f"expected result type with offset = {_show(off)} instead of "
                       f"{_show(offset)}")
    for i, (s, r) in enumerate(zip(ints(a["static_strides"]), strides)):
        if _static(s) != r:
            raise fail(op, f"expected result type with stride = {_show(s)} instead of "
                           f"{_show(r)} in dim = {i}")


def _static(v: int) -> int | None:
    """A static-list entry as a type dim: None for the dynamic marker."""
    return None if v == DYNAMIC_INDEX else v


def _show(v: int | None) -> str:
    return "dynamic" if v is None or v == DYNAMIC_INDEX else str(v)


def _eval_reinterpret(
    ctx: Any, op: Operation, source: MemRef, offsets: list, sizes: list, strides: list
) -> MemRef:
    """A view of the source's whole buffer (the offset counts from the buffer's start)."""
    a = op.attributes
    (off,) = mixed(a["static_offsets"], offsets)
    mem = MemRef(
        source.buffer, off, mixed(a["static_sizes"], sizes), mixed(a["static_strides"], strides),
        source.elem, source.vector_shape,
    )  # fmt: skip
    return _check_view(mem, op.results[0].type, op.name)


# -- realloc ----------------------------------------------------------------------------------
def _verify_realloc(op: Operation) -> None:
    src, res = op.operand("source").type, op.results[0].type
    if src.rank != 1 or res.rank != 1:
        raise fail(op, "operand #0 must be 1D memref of any type values")
    if src.element != res.element:
        raise fail(op, "different element types")
    if src.layout is not None or res.layout is not None:
        raise fail(op, "unsupported layout for source memref type " f"{src}")
    dyn = op.operand("dynamicResultSize")
    if res.shape[0] is None and dyn is None:
        raise fail(op, "missing dimension operand")
    if res.shape[0] is not None and dyn is not None:
        raise fail(op, "unnecessary dimension operand")


def _eval_realloc(ctx: Any, op: Operation, source: MemRef, size: Any) -> MemRef:
    """A fresh buffer holding the old elements (the rest zero; MLIR leaves it undefined)."""
    n = int(size) if size is not None else op.results[0].type.shape[0]
    if n < 0:
        raise SemanticsError(f"memref.realloc to negative size {n}")
    new = MemRef.alloc([n], source.elem, source.vector_shape)
    k = min(n, source.sizes[0])
    new.buffer[:k] = source.to_array()[:k]
    ctx.heap.free(source, op.name)
    return ctx.heap.alloc(new)


# -- expand_shape / collapse_shape -------------------------------------------------------------
def _verify_expand(op: Operation) -> None:
    src, res = op.operand("src").type, op.results[0].type
    if src.rank > res.rank:
        raise fail(op, "expected rank expansion, but found source rank "
                       f"{src.rank} > result rank {res.rank}")
    _verify_reassociation(op, res, src)
    static = ints(op.attributes["static_output_shape"])
    if len(static) != res.rank:
        raise fail(op, f"expected number of static shape dims to be equal to the output rank "
                       f"({res.rank}) but found {len(static)} inputs instead")
    for i, (s, r) in enumerate(zip(static, res.shape)):
        if _static(s) != r:
            raise fail(op, f"invalid output shape provided at pos {i}")
    if len(op.operand_groups()["output_shape"]) != sum(s == DYNAMIC_INDEX for s in static):
        raise fail(op, "mismatch in dynamic dims in output_shape and static_output_shape")


def _eval_expand(ctx: Any, op: Operation, src: MemRef, output_shape: list) -> MemRef:
    sizes = mixed(op.attributes["static_output_shape"], output_shape)
    strides = [0] * len(sizes)
    for d, g in enumerate(_groups(op)):
        if int(np.prod([sizes[i] for i in g])) != src.sizes[d]:
            raise SemanticsError(f"memref.expand_shape: sizes {sizes} do not split {src.sizes}")
        acc = src.strides[d]
        for i in reversed(g):
            strides[i] = acc
            acc *= sizes[i]
    mem = MemRef(src.buffer, src.offset, sizes, strides, src.elem, src.vector_shape)
    return _check_view(mem, op.results[0].type, op.name)


def _verify_collapse(op: Operation) -> None:
    src, res = op.operand("src").type, op.results[0].type
    if src.rank < res.rank:
        raise fail(op, "expected rank reduction, but found source rank "
                       f"{src.rank} < result rank {res.rank}")
    _verify_reassociation(op, src, res)


def _eval_collapse(ctx: Any, op: Operation, src: MemRef) -> MemRef:
    sizes, strides = [], []
    for g in _groups(op):
        for a, b in zip(g, g[1:]):
            if src.sizes[a] > 1 and src.strides[a] != src.strides[b] * src.sizes[b]:
                raise SemanticsError(
                    f"memref.collapse_shape: dims {g} of {src.type_str()} are not contiguous"
                )
        sizes.append(int(np.prod([src.sizes[i] for i in g])))
        strides.append(src.strides[g[-1]])
    mem = MemRef(src.buffer, src.offset, sizes, strides, src.elem, src.vector_shape)
    return _check_view(mem, op.results[0].type, op.name)


# -- transpose --------------------------------------------------------------------------------
def _parse_transpose(p: Any, st: Any) -> None:
    """``memref.transpose %m (i, j) -> (j, i) attr-dict : type to type``."""
    st.operands["in"] = [p.parse_operand()]
    st.attrs["permutation"] = AffineMapAttr(p.parse_affine_map())
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    p.expect_punct(":")
    st.operand_types["in"] = [(p.pos, p.parse_type())]
    p.expect_keyword("to")
    st.all_result_types = [p.parse_type()]


def _print_transpose(pr: Any, op: Operation) -> str:
    rest = pr.attr_dict(op, {"permutation"})
    return (
        f"{pr.value(op.operands[0])} {str(op.attributes['permutation'].map)}"
        f"{' ' + rest if rest else ''} : {op.operands[0].type} to {op.results[0].type}"
    )


def _perm(op: Operation) -> tuple[int, ...]:
    return tuple(op.attributes["permutation"].map.result_positions() or ())


def _verify_transpose(op: Operation) -> None:
    src, res = op.operands[0].type, op.results[0].type
    m = op.attributes["permutation"].map
    if not m.is_permutation():
        raise fail(op, "expected a permutation map")
    if m.num_dims != src.rank:
        raise fail(op, "expected a permutation map of same rank as the input")
    if res.element != src.element:
        raise fail(op, "result element type must match the source element type")
    perm = _perm(op)
    want = tuple(src.shape[p] for p in perm)
    if res.shape != want:
        raise fail(op, f"result type {res} is not equivalent to the canonical transposed "
                       "input type")


def _eval_transpose(ctx: Any, op: Operation, src: MemRef) -> MemRef:
    perm = _perm(op)
    mem = MemRef(
        src.buffer, src.offset, [src.sizes[p] for p in perm], [src.strides[p] for p in perm],
        src.elem, src.vector_shape,
    )  # fmt: skip
    return _check_view(mem, op.results[0].type, op.name)


# -- view -------------------------------------------------------------------------------------
def _verify_view(op: Operation) -> None:
    src, res = op.operand("source").type, op.results[0].type
    if src.rank != 1 or src.element != _I8 or src.layout is not None:
        raise fail(op, "unsupported map for base memref type " f"{src}")
    if res.layout is not None:
        raise fail(op, "unsupported map for result memref type " f"{res}")
    if src.memory_space != res.memory_space:
        raise fail(op, "different memory spaces specified for base memref type "
                       f"{src} and view memref type {res}")
    dyn = sum(s is None for s in res.shape)
    if len(op.operand_groups()["sizes"]) != dyn:
        raise fail(op, f"incorrect number of size operands for type {res}")


def _eval_view(ctx: Any, op: Operation, source: MemRef, byte_shift: Any, sizes: list) -> MemRef:
    """The bytes of an i8 buffer from ``byte_shift`` on, read as a row-major memref."""
    t = op.results[0].type
    if source.vector_shape or source.strides != (1,):
        raise SemanticsError(f"memref.view of {source.type_str()}")
    dyn = iter(int(s) for s in sizes)
    shape = [next(dyn) if s is None else s for s in t.shape]
    from frontend.ops.runtime import elem

    e = elem(t)
    dtype = np.dtype(dtype_of(e))
    vs = t.element.shape if isinstance(t.element, VectorType) else ()
    n = int(np.prod(shape)) * int(np.prod(vs)) if shape else int(np.prod(vs))
    start = source.offset + int(byte_shift)
    end = start + n * dtype.itemsize
    if start < 0 or end > source.buffer.shape[0]:
        raise SemanticsError(f"memref.view of {n} {e} at byte {start} exceeds its i8 buffer")
    if start % dtype.itemsize:
        raise SemanticsError(f"memref.view at byte {start}: not aligned for {e}")
    raw = source.buffer[start:end].view(dtype).reshape((-1,) + tuple(vs))
    strides = [int(np.prod(shape[i + 1 :])) for i in range(len(shape))]
    return MemRef(raw, 0, shape, strides, e, vs)


# -- extract_strided_metadata / assume_alignment ------------------------------------------------
def _verify_metadata(op: Operation) -> None:
    src = op.operand("source").type
    base = op.results[0].type
    if not isinstance(base, MemRefType) or base.rank != 0 or base.element != src.element:
        raise fail(op, f"base buffer must be a 0-D memref of {src.element}")
    if len(op.results) != 2 + 2 * src.rank:
        raise fail(op, f"expected {2 + 2 * src.rank} results")
    if any(not isinstance(r.type, IndexType) for r in op.results[1:]):
        raise fail(op, "offset, sizes and strides must be index")


def _infer_metadata(op: Operation) -> list[Any]:
    src = op.operand("source").type
    base = MemRefType((), src.element, None, src.memory_space)
    return [base] + [IndexType()] * (1 + 2 * src.rank)


def _eval_metadata(ctx: Any, op: Operation, source: MemRef) -> list[Any]:
    base = MemRef(source.buffer, 0, (), (), source.elem, source.vector_shape)
    return [base, np.int64(source.offset), *map(np.int64, source.sizes),
            *map(np.int64, source.strides)]  # fmt: skip


def _verify_alignment(op: Operation) -> None:
    a = op.attributes["alignment"].value
    if a <= 0 or a & (a - 1):
        raise fail(op, "alignment must be power of 2")


register(
    OpSpec(
        "memref.reinterpret_cast",
        operands=(
            Operand("source", ANY_MEMREF),
            *VIEW_INDEX_OPERANDS,
        ),
        results=(Result("result", MEMREF),),
        attrs=VIEW_INDEX_ATTRS,
        traits=VIEW,
        format="$source `to` `offset` `` `:` custom<DynamicIndexList>($offsets, $static_offsets) "
        "`` `,` `sizes` `` `:` custom<DynamicIndexList>($sizes, $static_sizes) "
        "`` `,` `strides` `` `:` custom<DynamicIndexList>($strides, $static_strides) attr-dict "
        "`:` type($source) `to` type($result)",
        verify=_verify_reinterpret,
        eval=_eval_reinterpret,
    ),
    OpSpec(
        "memref.realloc",
        operands=(Operand("source", MEMREF), Operand("dynamicResultSize", INDEX, OPTIONAL)),
        results=(Result("result", MEMREF),),
        attrs=(Attr("alignment", I64, optional=True),),
        traits=frozenset({READS, WRITES}),  # an allocation that reads the old buffer
        format="$source (`(` $dynamicResultSize^ `)`)? attr-dict `:` type($source) `to` "
        "type($result)",
        verify=_verify_realloc,
        eval=_eval_realloc,
    ),
    OpSpec(
        "memref.expand_shape",
        operands=(Operand("src", MEMREF), Operand("output_shape", INDEX, VARIADIC)),
        results=(Result("result", MEMREF),),
        attrs=(Attr("reassociation", REASSOCIATION), Attr("static_output_shape", I64_LIST)),
        traits=VIEW,
        format="$src $reassociation `output_shape` "
        "custom<DynamicIndexList>($output_shape, $static_output_shape) attr-dict `:` "
        "type($src) `into` type($result)",
        verify=_verify_expand,
        eval=_eval_expand,
    ),
    OpSpec(
        "memref.collapse_shape",
        operands=(Operand("src", MEMREF),),
        results=(Result("result", MEMREF),),
        attrs=(Attr("reassociation", REASSOCIATION),),
        traits=VIEW,
        format="$src $reassociation attr-dict `:` type($src) `into` type($result)",
        verify=_verify_collapse,
        eval=_eval_collapse,
    ),
    OpSpec(
        "memref.transpose",
        operands=(Operand("in", MEMREF),),
        results=(Result("result", MEMREF),),
        attrs=(Attr("permutation", AFFINE_MAP),),
        traits=VIEW,
        parse=_parse_transpose,
        print=_print_transpose,
        verify=_verify_transpose,
        eval=_eval_transpose,
    ),
    OpSpec(
        "memref.view",
        operands=(Operand("source", MEMREF), Operand("byte_shift", INDEX),
                  Operand("sizes", INDEX, VARIADIC)),
        results=(Result("result", MEMREF),),
        traits=VIEW,
        format="$source `[` $byte_shift `]` `` `[` $sizes `]` attr-dict `:` type($source) `to` "
        "type($result)",
        verify=_verify_view,
        eval=_eval_view,
    ),
    OpSpec(
        "memref.extract_strided_metadata",
        operands=(Operand("source", MEMREF),),
        results=(Result("base_buffer", MEMREF), Result("offset", INDEX),
                 Result("sizes_and_strides", INDEX, VARIADIC)),
        traits=VIEW,
        format="$source `:` type($source) `->` type(results) attr-dict",
        infer=_infer_metadata,
        verify=_verify_metadata,
        eval=_eval_metadata,
    ),
    OpSpec(
        "memref.assume_alignment",
        operands=(Operand("memref", MEMREF),),
        results=(Result("result", MEMREF),),
        attrs=(Attr("alignment", BARE_I32),),
        traits=VIEW,
        format="$memref `,` $alignment attr-dict `:` type($memref)",
        infer=lambda op: [op.operand("memref").type],
        verify=_verify_alignment,
        eval=lambda ctx, op, m: m,
    ),
)

__all__ = ["layout_of"]
