"""Lowerings of the vector ops that move elements (and build masks and constants).

Static ops become index maps computed by the interpreter's kernels (``frontend.semantics``)
on ``arange`` arrays and are emitted by ``eqsat.codegen.gather``; ops with dynamic positions
select among the statically computed alternatives.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.gather import arange, gather, result_chunks, size
from eqsat.codegen.types import I1, I32, I64, PTR, CodegenError, bit_width, vector_of
from frontend import semantics as S
from frontend.ir import Operation
from frontend.ops.common import ints
from frontend.ops.spec import DYNAMIC_INDEX
from frontend.types import VectorType


def _rt(op: Operation) -> Any:
    return op.results[0].type


def _src(em: FuncEmitter, op: Operation, i: int = 0) -> tuple[ir.Value, Any]:
    v = op.operands[i]
    return em.get(v), v.type


def _unary_map(
    fn: Callable[[Operation, np.ndarray], np.ndarray],
) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        x = _src(em, op)
        return gather(em, [x], fn(op, arange(x[1])), _rt(op))

    return lower


def flat_transpose(em: FuncEmitter, op: Operation) -> Any:
    """The interpreter's transpose of a flat matrix, in the run's matrix layout."""
    x = _src(em, op)
    a = op.attributes
    rows, columns = a["rows"].value, a["columns"].value
    idx = S.flat_transpose(arange(x[1]), rows, columns, em.m.matrix_layout)
    return gather(em, [x], idx, _rt(op))


def _broadcast_index(op: Operation, a: np.ndarray) -> np.ndarray:
    rt = _rt(op)
    return np.broadcast_to(a, rt.shape if isinstance(rt, VectorType) else ())


LOWER_UNARY = {
    "vector.transpose": lambda op, a: np.transpose(a, ints(op.attributes["permutation"])),
    "vector.broadcast": _broadcast_index,
    "vector.splat": _broadcast_index,
    "vector.shape_cast": lambda op, a: a.reshape(_rt(op).shape),
    "vector.extract_strided_slice": lambda op, a: S.extract_strided_slice(
        a,
        ints(op.attributes["offsets"]),
        ints(op.attributes["sizes"]),
        ints(op.attributes["strides"]),
    ),
    "vector.scalable.extract": lambda op, a: S.scalable_extract(
        a, op.attributes["pos"].value, _rt(op).shape[0]
    ),
}


def _positions(
    em: FuncEmitter, op: Operation, group: str
) -> tuple[list[int], list[tuple[int, ir.Value]]]:
    """Static positions (dynamic ones as -2 placeholders) and the dynamic (slot, value) pairs."""
    static = ints(op.attributes["static_position"])
    dyn = iter(em.get(v) for v in op.operand_groups()[group])
    out: list[tuple[int, ir.Value]] = []
    for k, s in enumerate(static):
        if s == DYNAMIC_INDEX:
            out.append((k, next(dyn)))
    return static, out


def _select_dynamic(
    em: FuncEmitter, op: Operation, dims: tuple[int, ...], build: Callable[[list[int]], ir.Value]
) -> ir.Value:
    """build(position) for every value of the dynamic slots, chosen by compare-and-select."""
    static, dyn = _positions(em, op, "dynamic_position")
    if not dyn:
        return build(static)
    choices = itertools.product(*[range(dims[k]) for k, _ in dyn])
    result: ir.Value | None = None
    for combo in choices:
        pos = list(static)
        cond: ir.Value = ir.Constant(I1, 1)
        for (k, v), c in zip(dyn, combo):
            pos[k] = c
            cond = em.b.and_(cond, em.b.icmp_signed("==", v, ir.Constant(v.type, c)))
        val = build(pos)
        result = val if result is None else em.b.select(cond, val, result)
    assert result is not None
    return result


def _whole_rows(em: FuncEmitter, op: Operation, piece: Any) -> list[int] | None:
    """The static position of an extract/insert that moves whole rows of a nested aggregate
    (the piece is a vector of rank >= 1): one extractvalue/insertvalue, nothing gathered."""
    if em.layout.kind != "nested" or not isinstance(piece, VectorType) or piece.rank < 1:
        return None
    static, dyn = _positions(em, op, "dynamic_position")
    return list(static) if static and not dyn and min(static) >= 0 else None


def extract(em: FuncEmitter, op: Operation) -> Any:
    x = _src(em, op)
    pos = _whole_rows(em, op, _rt(op))
    if pos is not None:
        return em.b.extract_value(x[0], pos)

    def build(pos: list[int]) -> ir.Value:
        return gather(em, [x], np.asarray(S.extract(arange(x[1]) + 1, pos)) - 1, _rt(op))

    return _select_dynamic(em, op, x[1].shape, build)


def insert(em: FuncEmitter, op: Operation) -> Any:
    s, d = _src(em, op, 0), _src(em, op, 1)
    pos = _whole_rows(em, op, s[1])
    if pos is not None:
        return em.b.insert_value(d[0], s[0], pos)
    ns = size(s[1])

    def build(pos: list[int]) -> ir.Value:
        idx = S.insert(arange(s[1]) + 1, arange(d[1], ns) + 1, pos)
        return gather(em, [s, d], np.asarray(idx) - 1, _rt(op))

    return _select_dynamic(em, op, d[1].shape, build)


def extractelement(em: FuncEmitter, op: Operation) -> Any:
    v = em.get(op.operands[0])
    pos = em.get(op.operands[1]) if len(op.operands) > 1 else I32(0)
    return em.b.extract_element(v, pos)


def insertelement(em: FuncEmitter, op: Operation) -> Any:
    s, d = em.get(op.operands[0]), em.get(op.operands[1])
    pos = em.get(op.operands[2]) if len(op.operands) > 2 else I32(0)
    return em.b.insert_element(d, s, pos)


def insert_strided_slice(em: FuncEmitter, op: Operation) -> Any:
    s, d = _src(em, op, 0), _src(em, op, 1)
    a = op.attributes
    idx = S.insert_strided_slice(
        arange(s[1]), arange(d[1], size(s[1])), ints(a["offsets"]), ints(a["strides"])
    )
    return gather(em, [s, d], idx, _rt(op))


def scalable_insert(em: FuncEmitter, op: Operation) -> Any:
    s, d = _src(em, op, 0), _src(em, op, 1)
    idx = S.scalable_insert(arange(s[1]), arange(d[1], size(s[1])), op.attributes["pos"].value)
    return gather(em, [s, d], idx, _rt(op))


def shuffle(em: FuncEmitter, op: Operation) -> Any:
    a, b = _src(em, op, 0), _src(em, op, 1)
    idx = S.shuffle(arange(a[1]) + 1, arange(b[1], size(a[1])) + 1, ints(op.attributes["mask"]))
    return gather(em, [a, b], np.asarray(idx) - 1, _rt(op))


def interleave(em: FuncEmitter, op: Operation) -> Any:
    a, b = _src(em, op, 0), _src(em, op, 1)
    return gather(em, [a, b], S.interleave(arange(a[1]), arange(b[1], size(a[1]))), _rt(op))


def deinterleave(em: FuncEmitter, op: Operation) -> Any:
    x = _src(em, op)
    even, odd = S.deinterleave(arange(x[1]))
    return [gather(em, [x], even, op.results[0].type), gather(em, [x], odd, op.results[1].type)]


def from_elements(em: FuncEmitter, op: Operation) -> Any:
    srcs = [(em.get(v), v.type) for v in op.operands]
    rt = _rt(op)
    return gather(em, srcs, np.arange(len(srcs)).reshape(rt.shape), rt)


def _mask_const(em: FuncEmitter, rt: VectorType, m: np.ndarray) -> ir.Value:
    flat = np.asarray(m).reshape(-1)
    pieces = [
        ir.Constant(ir.VectorType(I1, len(c)), [int(b) for b in flat[c]])
        for c in result_chunks(em, rt)
    ]
    return em.from_chunks(pieces, rt)


def constant_mask(em: FuncEmitter, op: Operation) -> Any:
    rt = _rt(op)
    return _mask_const(em, rt, S.constant_mask(ints(op.attributes["mask_dim_sizes"]), rt.shape))


def step(em: FuncEmitter, op: Operation) -> Any:
    rt = _rt(op)
    return ir.Constant(em.ty(rt), [ir.Constant(em.ty(rt.element), i) for i in range(rt.shape[0])])


def create_mask(em: FuncEmitter, op: Operation) -> Any:
    """Lane p is on iff p[d] < bound[d] in every dim (bounds compared signed, as clamping)."""
    rt = _rt(op)
    bounds = [em.get(v) for v in op.operands]
    if rt.rank == 0:
        return vector_of(em.b, [em.b.icmp_signed(">", bounds[0], I64(0))])
    coords = np.indices(rt.shape).reshape(rt.rank, -1)
    pieces = []
    for c in result_chunks(em, rt):
        on: ir.Value | None = None
        for d, bound in enumerate(bounds):
            lanes = coords[d][c]
            cv = ir.Constant(ir.VectorType(I64, len(c)), [int(x) for x in lanes])
            bv = em.splat(em.b.sext(bound, I64) if bound.type != I64 else bound, len(c))
            t = em.b.icmp_signed("<", cv, bv)
            on = t if on is None else em.b.and_(on, t)
        pieces.append(on)
    return em.from_chunks(pieces, rt)  # type: ignore[arg-type]


def vscale(em: FuncEmitter, op: Operation) -> Any:
    raise CodegenError("vector.vscale: scalable vectors are not supported by these targets", op)


def bitcast(em: FuncEmitter, op: Operation) -> Any:
    """Row by row; a row whose element widths do not divide one another goes through
    memory (``bitcast_through_memory``)."""
    rt = _rt(op)
    et = em.ty(rt.element)
    to_bits = bit_width(et)

    def row(a: ir.Value) -> ir.Value:
        from_bits = bit_width(a.type.element)
        to = ir.VectorType(et, a.type.count * from_bits // to_bits)
        if from_bits % to_bits == 0 or to_bits % from_bits == 0:
            return em.b.bitcast(a, to)
        return bitcast_through_memory(em, a, to)

    return em.map_chunks(op, row)


def bitcast_through_memory(em: FuncEmitter, a: ir.Value, to: ir.VectorType) -> ir.Value:
    """``a`` read back as ``to`` after a volatile copy on the stack, for widths neither of
    which divides the other (``vector<2xi24>`` to ``vector<3xi16>``, ``vector<5xi8>`` to
    ``vector<8xi5>``). LLVM 22 folds such a bitcast of a constant wrongly: the bits of
    ``vector<16xi5>`` to ``vector<10xi8>`` come out unpacked, and widening ones fail an
    assertion. Any bitcast chain in their place is merged back into the one bitcast, and
    integer packing trips other folds, so the copy is volatile: nothing folds across it.
    Vectors of any element width lie bit-packed in memory, so the store and the load give
    the bitcast's bits; tests/test_codegen_bitcast.py checks them against the interpreter."""
    count = (a.type.count * bit_width(a.type.element) + 7) // 8
    src, dst = em.alloca(a.type), em.alloca(to)
    em.b.store(a, src)
    src.type = dst.type = PTR  # opaque, as llvm.memcpy's declaration has them
    em.intrinsic("memcpy", [dst, src, I64(count), I1(1)], over=[PTR, PTR, I64],
                 ret=ir.VoidType())  # fmt: skip
    return em.b.load(dst, typ=to)


def fma(em: FuncEmitter, op: Operation) -> Any:
    return em.map_chunks(op, em.fma)


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    **{name: _unary_map(fn) for name, fn in LOWER_UNARY.items()},
    "vector.extract": extract,
    "vector.insert": insert,
    "vector.extractelement": extractelement,
    "vector.insertelement": insertelement,
    "vector.insert_strided_slice": insert_strided_slice,
    "vector.scalable.insert": scalable_insert,
    "vector.shuffle": shuffle,
    "vector.interleave": interleave,
    "vector.deinterleave": deinterleave,
    "vector.from_elements": from_elements,
    "vector.constant_mask": constant_mask,
    "vector.create_mask": create_mask,
    "vector.step": step,
    "vector.vscale": vscale,
    "vector.bitcast": bitcast,
    "vector.fma": fma,
    "vector.flat_transpose": flat_transpose,
}
