"""Lowerings of the HWV level's pointer ops and the ``llvm`` dialect's masked memory
intrinsics: a memref's aligned pointer as an integer, ``inttoptr``, ``getelementptr`` (one
index: constant, scalar, or a vector giving a vector of pointers) as real pointer arithmetic,
then ``llvm.masked.load``/``store``/``expandload``/``compressstore``/``gather``/``scatter``
called as themselves (semantics: ``frontend.semantics_pointer``, which is LLVM's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.types import I32, I64, PTR, scalar_type
from eqsat.codegen.vector_memory import _bits, _unbits
from frontend.ir import Operation
from frontend.ops.llvm_memory import DYNAMIC
from frontend.types import VectorType


def aligned_pointer(em: FuncEmitter, op: Operation) -> Any:
    return em.b.ptrtoint(em.get(op.operands[0]).aligned, I64)


def inttoptr(em: FuncEmitter, op: Operation) -> Any:
    return em.b.inttoptr(em.get(op.operands[0]), PTR)


def getelementptr(em: FuncEmitter, op: Operation) -> Any:
    raw = op.attributes["rawConstantIndices"].values  # type: ignore[attr-defined]
    et = scalar_type(op.attributes["elem_type"].type, op)  # type: ignore[attr-defined]
    base = em.get(op.operands[0])
    inbounds = op.attributes.get("noWrapFlags") is not None and bool(
        op.attributes["noWrapFlags"].value  # type: ignore[attr-defined]
    )
    if raw[0] != DYNAMIC:
        return em.b.gep(base, [I64(int(raw[0]))], inbounds=inbounds, source_etype=et)
    index = em.get(op.operands[1])
    if not isinstance(op.operands[1].type, VectorType):
        return em.b.gep(base, [index], inbounds=inbounds, source_etype=et)
    n = index.type.count
    g = em.b.gep(em.splat(base, n), [index], inbounds=inbounds, source_etype=et)
    g.type = ir.VectorType(PTR, n)  # llvmlite does not type vector GEPs itself
    return g


def _align(op: Operation, t: ir.Type) -> ir.Constant:
    a = op.attributes.get("alignment")
    if a is not None and a.value > 0:  # type: ignore[attr-defined]
        return I32(a.value)  # type: ignore[attr-defined]
    return I32(1)


def masked_load(em: FuncEmitter, op: Operation) -> Any:
    p, m, pt = (em.get(v) for v in op.operands)
    b = _bits(em, pt)
    r = em.intrinsic("masked.load", [p, _align(op, b), m, b], over=[b.type, PTR], ret=b.type)
    return _unbits(em, r, pt.type)


def masked_store(em: FuncEmitter, op: Operation) -> Any:
    v, p, m = (em.get(x) for x in op.operands)
    v = _bits(em, v)
    em.intrinsic("masked.store", [v, p, _align(op, v), m], over=[v.type, PTR], ret=ir.VoidType())


def gather(em: FuncEmitter, op: Operation) -> Any:
    ps, m, pt = (em.get(v) for v in op.operands)
    b = _bits(em, pt)
    r = em.intrinsic(
        "masked.gather", [ps, _align(op, b), m, b], over=[b.type, ps.type], ret=b.type
    )
    return _unbits(em, r, pt.type)


def scatter(em: FuncEmitter, op: Operation) -> Any:
    v, ps, m = (em.get(x) for x in op.operands)
    v = _bits(em, v)
    em.intrinsic(
        "masked.scatter", [v, ps, _align(op, v), m], over=[v.type, ps.type], ret=ir.VoidType()
    )


def expandload(em: FuncEmitter, op: Operation) -> Any:
    p, m, pt = (em.get(v) for v in op.operands)
    b = _bits(em, pt)
    r = em.intrinsic("masked.expandload", [p, m, b], over=[b.type], ret=b.type)
    return _unbits(em, r, pt.type)


def compressstore(em: FuncEmitter, op: Operation) -> Any:
    v, p, m = (em.get(x) for x in op.operands)
    v = _bits(em, v)
    em.intrinsic("masked.compressstore", [v, p, m], over=[v.type], ret=ir.VoidType())


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "memref.extract_aligned_pointer_as_index": aligned_pointer,
    "llvm.inttoptr": inttoptr,
    "llvm.getelementptr": getelementptr,
    "llvm.intr.masked.load": masked_load,
    "llvm.intr.masked.store": masked_store,
    "llvm.intr.masked.gather": gather,
    "llvm.intr.masked.scatter": scatter,
    "llvm.intr.masked.expandload": expandload,
    "llvm.intr.masked.compressstore": compressstore,
}
