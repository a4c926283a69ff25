"""Memrefs in SSA: MLIR's descriptor (allocated pointer, aligned pointer, offset, sizes,
strides) as separate LLVM values, packed into MLIR's struct only at returns and calls."""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from eqsat.codegen.types import I64, CodegenError, memref_struct
from frontend.attributes import StridedLayoutAttr
from frontend.types import MemRefType


@dataclass
class MemDesc:
    """A memref in SSA: the fields of MLIR's descriptor as separate LLVM values."""

    type: MemRefType
    allocated: ir.Value
    aligned: ir.Value
    offset: ir.Value
    sizes: list[ir.Value]
    strides: list[ir.Value]

    def fields(self) -> list[ir.Value]:
        return [self.allocated, self.aligned, self.offset, *self.sizes, *self.strides]


def layout_of(t: MemRefType) -> tuple[list[int | None], int | None]:
    """Static strides (None where dynamic) and offset of a memref type."""
    lay = t.layout
    if isinstance(lay, StridedLayoutAttr):
        return list(lay.strides), lay.offset
    if lay is not None and hasattr(lay, "map"):
        m = lay.map
        if not getattr(m, "is_identity", lambda: False)():
            raise CodegenError(f"memref layout {lay} is not supported (use strided<...>)")
    strides: list[int | None] = []
    acc: int | None = 1
    for s in reversed(t.shape):
        strides.append(acc)
        acc = None if acc is None or s is None else acc * s
    return list(reversed(strides)), 0


# The name of a size checked mode zeroed (a refused buffer or view: every access through it
# is out of bounds). ``with_static`` keeps such a size, and so does every view made from it.
REFUSED = "refused"


def _refused(v: ir.Value) -> bool:
    return isinstance(v, ir.Instruction) and v.name.startswith(REFUSED)


def with_static(d: MemDesc) -> MemDesc:
    """d with the type's static sizes, strides and offset as constants (but a size checked
    mode refused stays zero where it was refused)."""
    strides, offset = layout_of(d.type)
    d.sizes = [
        I64(s) if s is not None and not _refused(v) else v for s, v in zip(d.type.shape, d.sizes)
    ]
    d.strides = [I64(s) if s is not None else v for s, v in zip(strides, d.strides)]
    if offset is not None:
        d.offset = I64(offset)
    return d


def pack_memref(b: ir.IRBuilder, d: MemDesc) -> ir.Value:
    """The descriptor struct of d (for returns and results)."""
    st = memref_struct(d.type)
    agg: ir.Value = ir.Constant(st, ir.Undefined)
    agg = b.insert_value(agg, d.allocated, 0)
    agg = b.insert_value(agg, d.aligned, 1)
    agg = b.insert_value(agg, d.offset, 2)
    for i, s in enumerate(d.sizes):
        agg = b.insert_value(agg, s, [3, i])
    for i, s in enumerate(d.strides):
        agg = b.insert_value(agg, s, [4, i])
    return agg


def unpack_memref(b: ir.IRBuilder, agg: ir.Value, t: MemRefType) -> MemDesc:
    r = len(t.shape)
    return MemDesc(
        t,
        b.extract_value(agg, 0),
        b.extract_value(agg, 1),
        b.extract_value(agg, 2),
        [b.extract_value(agg, [3, i]) for i in range(r)],
        [b.extract_value(agg, [4, i]) for i in range(r)],
    )


@dataclass
class UnrankedDesc:
    """An unranked memref (``memref<*xT>``) in SSA: the ranked descriptor it was cast from.
    MLIR's ABI form ``{i64 rank, ptr to the ranked descriptor}`` is built only where the
    value leaves the function (``eqsat.codegen.memref_views.unranked_abi``)."""

    type: object
    ranked: MemDesc
