"""Lowerings of the memref view ops: new descriptors over the same buffer
(``reinterpret_cast``, ``expand_shape``, ``collapse_shape``, ``transpose``, ``view``,
``extract_strided_metadata``, ``assume_alignment``) and ``realloc`` (a fresh buffer holding
the old elements, the rest zero, as the interpreter's ``frontend.ops.memref_views``).

Sizes, strides and offsets are computed exactly as the interpreter's views compute them
(static ones folded to constants by ``with_static``); the element addressing is then the
ordinary descriptor arithmetic of ``eqsat.codegen.memref``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir

from eqsat.codegen.descriptor import MemDesc, UnrankedDesc, with_static
from eqsat.codegen import runtime_checked as checked
from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.memref import DEFAULT_ALIGN, _row_major, allocate, elem_type, size_bytes
from eqsat.codegen.types import I1, I8, I64, PTR
from frontend.ir import Operation
from frontend.ops.common import ints
from frontend.ops.memref_views import _groups, _perm
from frontend.ops.spec import DYNAMIC_INDEX
from frontend.types import MemRefType


def _source(em: FuncEmitter, op: Operation) -> MemDesc:
    d = em.get(op.operands[0])
    return d.ranked if isinstance(d, UnrankedDesc) else d


def _mixed(em: FuncEmitter, static: Any, dynamic: list[Any]) -> list[ir.Value]:
    """Static values with the dynamic operands in the DYNAMIC_INDEX slots."""
    dyn = iter(em.get(v) for v in dynamic)
    return [next(dyn) if s == DYNAMIC_INDEX else I64(s) for s in ints(static)]


def _view(t: MemRefType, d: MemDesc, off: ir.Value, sizes: list, strides: list) -> MemDesc:
    return with_static(MemDesc(t, d.allocated, d.aligned, off, list(sizes), list(strides)))


def reinterpret_cast(em: FuncEmitter, op: Operation) -> Any:
    """A view of the source's whole buffer (the offset counts from the aligned pointer)."""
    d, g, a = _source(em, op), op.operand_groups(), op.attributes
    (off,) = _mixed(em, a["static_offsets"], g["offsets"])
    sizes = _mixed(em, a["static_sizes"], g["sizes"])
    strides = _mixed(em, a["static_strides"], g["strides"])
    v = _view(op.results[0].type, d, off, sizes, strides)
    return checked.check_view(em, op, v, elem_type(em, v.type))


def expand_shape(em: FuncEmitter, op: Operation) -> Any:
    d = _source(em, op)
    sizes = _mixed(em, op.attributes["static_output_shape"], op.operand_groups()["output_shape"])
    strides: list[ir.Value] = [I64(0)] * len(sizes)
    ok: ir.Value = I1(1)
    if em.m.checked:  # the output sizes must split the source's (as the interpreter checks)
        for k, group in enumerate(_groups(op)):
            n: ir.Value = checked.I128(1)
            for i in group:
                n = em.b.mul(n, em.b.sext(sizes[i], checked.I128))
            ok = em.b.and_(ok, em.b.icmp_signed("==", n, em.b.sext(d.sizes[k], checked.I128)))
    for k, group in enumerate(_groups(op)):
        acc = d.strides[k]
        for i in reversed(group):
            strides[i] = acc
            acc = em.b.mul(acc, sizes[i])
    v = _view(op.results[0].type, d, d.offset, sizes, strides)
    msg = f"{op.name}: the output sizes do not split the source {d.type}"
    return checked.fault_unless(em, op, ok, msg, v)


def collapse_shape(em: FuncEmitter, op: Operation) -> Any:
    d = _source(em, op)
    sizes, strides = [], []
    for group in _groups(op):
        n: ir.Value = I64(1)
        for i in group:
            n = em.b.mul(n, d.sizes[i])
        sizes.append(n)
        strides.append(d.strides[group[-1]] if group else I64(1))
    return _view(op.results[0].type, d, d.offset, sizes, strides)


def transpose(em: FuncEmitter, op: Operation) -> Any:
    d, perm = _source(em, op), _perm(op)
    sizes = [d.sizes[p] for p in perm]
    strides = [d.strides[p] for p in perm]
    return _view(op.results[0].type, d, d.offset, sizes, strides)


def view(em: FuncEmitter, op: Operation) -> Any:
    """The bytes of an i8 buffer from its offset + byte_shift on, as a row-major memref."""
    d, g = _source(em, op), op.operand_groups()
    t: MemRefType = op.results[0].type
    shift = em.b.add(d.offset, em.get(g["byte_shift"][0]))
    start = em.b.gep(d.aligned, [shift], source_etype=I8)
    dyn = iter(em.get(v) for v in g["sizes"])
    sizes = [I64(s) if s is not None else next(dyn) for s in t.shape]
    v = with_static(MemDesc(t, d.allocated, start, I64(0), sizes, _row_major(em, t, sizes)))
    return checked.check_view(em, op, v, elem_type(em, t))


def extract_strided_metadata(em: FuncEmitter, op: Operation) -> Any:
    d = _source(em, op)
    base = MemDesc(op.results[0].type, d.allocated, d.aligned, I64(0), [], [])
    return [base, d.offset, *d.sizes, *d.strides]


def assume_alignment(em: FuncEmitter, op: Operation) -> Any:
    """The same descriptor; LLVM is told the aligned pointer's alignment (llvm.assume with
    an "align" operand bundle is not expressible in llvmlite: the low bits are asserted)."""
    d = _source(em, op)
    n = op.attributes["alignment"].value  # type: ignore[attr-defined]
    low = em.b.and_(em.b.ptrtoint(d.aligned, I64), I64(n - 1))
    em.intrinsic("assume", [em.b.icmp_unsigned("==", low, I64(0))], over=[], ret=ir.VoidType())
    return _view(op.results[0].type, d, d.offset, d.sizes, d.strides)


def realloc(em: FuncEmitter, op: Operation) -> Any:
    """A fresh zeroed buffer, the first min(old, new) elements copied, the old one freed."""
    d, g = _source(em, op), op.operand_groups()
    t: MemRefType = op.results[0].type
    n = em.get(g["dynamicResultSize"][0]) if g["dynamicResultSize"] else I64(t.shape[0])
    asked = op.attributes.get("alignment")
    align = max(DEFAULT_ALIGN, asked.value if asked is not None else 0)  # type: ignore[attr-defined]
    new = allocate(em, t, [n], align, op)
    new_bytes = size_bytes(em, t, new.sizes)
    old_bytes = size_bytes(em, t, [d.sizes[0]])
    keep = em.b.select(em.b.icmp_unsigned("<", old_bytes, new_bytes), old_bytes, new_bytes)
    src = em.b.gep(d.aligned, [d.offset], source_etype=elem_type(em, d.type))
    em.intrinsic("memset", [new.aligned, I8(0), new_bytes, I1(0)], over=[PTR, I64],
                 ret=ir.VoidType())  # fmt: skip
    em.intrinsic("memcpy", [new.aligned, src, keep, I1(0)], over=[PTR, PTR, I64],
                 ret=ir.VoidType())  # fmt: skip
    checked.dealloc(em, op, d.allocated)
    return new


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "memref.reinterpret_cast": reinterpret_cast,
    "memref.expand_shape": expand_shape,
    "memref.collapse_shape": collapse_shape,
    "memref.transpose": transpose,
    "memref.view": view,
    "memref.extract_strided_metadata": extract_strided_metadata,
    "memref.assume_alignment": assume_alignment,
    "memref.realloc": realloc,
}
