"""MLIR types as LLVM types, and the two layouts of n-D vectors.

``nested`` (the seeds' choice, MLIR's own): ``vector<4x8xf32>`` is ``[4 x <8 x float>]``, one
1-D LLVM vector per innermost row, so LLVM keeps each row in a register. ``flat``: the same
value as one ``<32 x float>``. A 0-D ``vector<f32>`` is ``<1 x float>`` in both (as MLIR).
Every lowering sees vectors through ``rows``/``from_rows`` and ``elems``/``from_elems``, so
it works in both layouts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from llvmlite import ir

from frontend.errors import MLIRError
from frontend.types import FloatType, IndexType, IntegerType, MemRefType, Type, VectorType


class CodegenError(MLIRError):
    """An input we accept but cannot compile for this target (reported, never an abort)."""

    def __init__(self, message: str, op: object = None) -> None:
        super().__init__(message, getattr(op, "loc", None))

    def __str__(self) -> str:
        return super().__str__() if self.loc is not None else f"eqsat: error: {self.message}"


class _BFloat(ir.types._BaseFloatType):  # llvmlite 0.50 has no bfloat type
    null = "0.0"
    intrinsic_name = "bf16"

    def __str__(self) -> str:
        return "bfloat"

    def format_constant(self, value: float) -> str:
        bits = int(np.array([value], np.float32).view(np.uint32)[0]) >> 16
        return f"0xR{bits:04X}"


_BFloat._create_instance()
BFLOAT = _BFloat()
I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)
F32, F64 = ir.FloatType(), ir.DoubleType()
PTR = ir.PointerType()
_FLOATS = {"f16": ir.HalfType(), "bf16": BFLOAT, "f32": F32, "f64": F64}


def bit_width(t: ir.Type) -> int:
    """Bits of an LLVM scalar type (integer or float)."""
    if isinstance(t, ir.IntType):
        return t.width
    return {"half": 16, "bfloat": 16, "float": 32, "double": 64}[str(t)]


def stored_int(t: ir.Type) -> ir.IntType | None:
    """The integer an element of LLVM type ``t`` occupies in a numpy array, where that is not
    ``t`` itself: i1 a byte (0 or 1, numpy's bool), an integer of another width the smallest
    of i8/i16/i32/i64 that holds it, sign-extended (``frontend.semantics.dtype_of``'s
    container, holding the interpreter's value). LLVM would store ``<5 x i5>`` bit-packed and
    leave a stored i5's upper bits unspecified."""
    if not isinstance(t, ir.IntType) or t.width in (8, 16, 32, 64) or t.width > 64:
        return None
    return I8 if t.width == 1 else ir.IntType(max(8, 1 << (t.width - 1).bit_length()))


def to_stored(b: ir.IRBuilder, v: ir.Value) -> ir.Value:
    """``v`` (a scalar or a vector) widened to its ``stored_int`` (as it is)."""
    lane = v.type.element if isinstance(v.type, ir.VectorType) else v.type
    wide = stored_int(lane)
    if wide is None:
        return v
    to = ir.VectorType(wide, v.type.count) if isinstance(v.type, ir.VectorType) else wide
    return b.zext(v, to) if lane.width == 1 else b.sext(v, to)


def from_stored(b: ir.IRBuilder, v: ir.Value, t: ir.Type) -> ir.Value:
    """The inverse of ``to_stored``: ``v`` as read from memory, as the type ``t``."""
    return v if v.type == t else b.trunc(v, t)


def scalar_type(t: Type, op: object = None) -> ir.Type:
    """The LLVM type of a scalar (signless, signed and unsigned integers alike)."""
    if isinstance(t, IntegerType):
        return ir.IntType(t.width)
    if isinstance(t, IndexType):
        return I64
    if isinstance(t, FloatType) and t.name in _FLOATS:
        return _FLOATS[t.name]
    if str(t) == "!llvm.ptr":
        return PTR
    raise CodegenError(f"no LLVM lowering for element type {t}", op)


def is_float(t: Type) -> bool:
    return isinstance(t, FloatType)


def memref_struct(t: MemRefType, op: object = None) -> ir.LiteralStructType:
    """MLIR's memref descriptor: {allocated ptr, aligned ptr, offset, sizes[r], strides[r]}."""
    r = len(t.shape)
    if r == 0:
        return ir.LiteralStructType([PTR, PTR, I64])
    arr = ir.ArrayType(I64, r)
    return ir.LiteralStructType([PTR, PTR, I64, arr, arr])


@dataclass(frozen=True)
class Layout:
    """How n-D vectors are laid out in LLVM values: 'nested' or 'flat'."""

    kind: str = "nested"

    def __post_init__(self) -> None:
        if self.kind not in ("nested", "flat"):
            raise CodegenError(f"unknown vector layout {self.kind!r} (nested or flat)")

    # -- types ------------------------------------------------------------------------------
    def type_of(self, t: Type, op: object = None) -> ir.Type:
        """The LLVM type of a value of MLIR type t (memrefs: the descriptor struct)."""
        if isinstance(t, VectorType):
            if t.is_scalable:
                raise CodegenError(f"scalable vectors ({t}) have no lowering for these targets", op)
            e = scalar_type(t.element, op)
            if t.rank <= 1 or self.kind == "flat":
                return ir.VectorType(e, max(1, math.prod(t.shape)))
            ty: ir.Type = ir.VectorType(e, t.shape[-1])
            for n in reversed(t.shape[:-1]):
                ty = ir.ArrayType(ty, n)
            return ty
        if isinstance(t, MemRefType):
            return memref_struct(t, op)
        return scalar_type(t, op)

    def row_len(self, t: VectorType) -> int:
        return t.shape[-1] if t.rank else 1

    def num_rows(self, t: VectorType) -> int:
        return math.prod(t.shape[:-1]) if t.rank > 1 else 1

    # -- rows: 1-D LLVM vectors of the innermost dim, in row-major order --------------------
    def rows(self, b: ir.IRBuilder, v: ir.Value, t: VectorType) -> list[ir.Value]:
        if t.rank <= 1:
            return [v]
        n = t.shape[-1]
        if self.kind == "flat":
            return [
                b.shuffle_vector(v, v, _mask(range(r * n, r * n + n)))
                for r in range(self.num_rows(t))
            ]
        out: list[ir.Value] = []
        for idx in np.ndindex(*t.shape[:-1]):
            out.append(b.extract_value(v, list(idx)))
        return out

    def from_rows(self, b: ir.IRBuilder, rows: list[ir.Value], t: VectorType) -> ir.Value:
        if t.rank <= 1:
            return rows[0]
        if self.kind == "flat":
            return concat(b, rows)
        agg: ir.Value = ir.Constant(self.type_of(t), ir.Undefined)
        for row, idx in zip(rows, np.ndindex(*t.shape[:-1])):
            agg = b.insert_value(agg, row, list(idx))
        return agg

    # -- elements: scalars in row-major order ------------------------------------------------
    def elems(self, b: ir.IRBuilder, v: ir.Value, t: VectorType) -> list[ir.Value]:
        n = self.row_len(t)
        return [b.extract_element(row, I32(i)) for row in self.rows(b, v, t) for i in range(n)]

    def from_elems(self, b: ir.IRBuilder, elems: list[ir.Value], t: VectorType) -> ir.Value:
        n = self.row_len(t)
        rows = [vector_of(b, elems[r * n : r * n + n]) for r in range(self.num_rows(t))]
        return self.from_rows(b, rows, t)


def _mask(idx: object) -> ir.Constant:
    return ir.Constant(ir.VectorType(I32, len(list(idx))), [I32(i) for i in idx])  # type: ignore[arg-type]


def shuffle_mask(idx: list[int]) -> ir.Constant:
    return ir.Constant(ir.VectorType(I32, len(idx)), [I32(i) for i in idx])


def vector_of(b: ir.IRBuilder, elems: list[ir.Value]) -> ir.Value:
    """A 1-D LLVM vector of these scalars (constants fold into a constant vector)."""
    vt = ir.VectorType(elems[0].type, len(elems))
    if all(isinstance(e, ir.Constant) for e in elems):
        return ir.Constant(vt, list(elems))
    v: ir.Value = ir.Constant(vt, ir.Undefined)
    for i, e in enumerate(elems):
        v = b.insert_element(v, e, I32(i))
    return v


def concat(b: ir.IRBuilder, rows: list[ir.Value]) -> ir.Value:
    """One LLVM vector of the rows end to end (pairwise shuffles, then element moves)."""
    if len(rows) == 1:
        return rows[0]
    if len({r.type.count for r in rows}) == 1 and len(rows) & (len(rows) - 1) == 0:
        while len(rows) > 1:
            n = rows[0].type.count
            rows = [
                b.shuffle_vector(rows[i], rows[i + 1], _mask(range(2 * n)))
                for i in range(0, len(rows), 2)
            ]
        return rows[0]
    elems = [b.extract_element(r, I32(i)) for r in rows for i in range(r.type.count)]
    return vector_of(b, elems)


def splat(b: ir.IRBuilder, x: ir.Value, n: int) -> ir.Value:
    """A 1-D vector of n copies of scalar x."""
    vt = ir.VectorType(x.type, n)
    if isinstance(x, ir.Constant):
        return ir.Constant(vt, [x] * n)
    v = b.insert_element(ir.Constant(vt, ir.Undefined), x, I32(0))
    return b.shuffle_vector(v, ir.Constant(vt, ir.Undefined), _mask([0] * n))
