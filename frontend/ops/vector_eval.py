"""numpy semantics of the 43 vector ops, one function per op, attached by ``frontend.ops.vector``
as ``OpSpec.eval``: ``eval(ctx, op, *operands)`` with one argument per declared operand (see
``frontend.ops.spec``). They decode attributes and types and call ``frontend.semantics``.

Masking: ``vector.mask`` sets ``ctx.mask`` while its region runs. The maskable ops (trait
``maskable``) read it: reductions and contractions treat masked-off lanes as the neutral element,
transfer_read gives the padding, transfer_write and scatter-like ops do not write them. For
element-wise ops (accepted by MLIR 19) masked-off lanes take the passthru, or zero. A passthru
replaces every masked-off lane of the result when the mask has the result's shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend import semantics as S
from frontend.ir import Operation
from frontend.ops.runtime import (
    EvalContext,
    SemanticsError,
    as_memref,
    bools,
    elem,
    enum,
    ints,
    fp_contract,
    matrix_layout,
    mixed,
    shape,
)
from frontend.ops.spec import MASKABLE
from frontend.types import IntegerType, TensorType, VectorType

Ctx = EvalContext


def _rtype(op: Operation) -> Any:
    return op.results[0].type


def _idx(values: list[Any]) -> list[int]:
    return [int(v) for v in values]


def _and_mask(ctx: Ctx, mask: Any) -> Any:
    """The op's own mask operand combined with an enclosing vector.mask."""
    if ctx.mask is None:
        return mask
    return ctx.mask if mask is None else np.logical_and(mask, ctx.mask)


def _as_result(value: Any, t: Any) -> Any:
    """A vector type gets an ndarray (0-D for vector<T>), a scalar type a numpy scalar."""
    if isinstance(t, VectorType):
        return np.asarray(value)
    return value[()] if isinstance(value, np.ndarray) and value.ndim == 0 else value


# -- value-level ops --------------------------------------------------------------------------
def vscale(ctx: Ctx, op: Operation) -> Any:
    return np.int64(ctx.vscale)


def bitcast(ctx: Ctx, op: Operation, source: Any) -> Any:
    return S.bitcast(source, elem(op.operand("source").type), elem(_rtype(op)))


def broadcast(ctx: Ctx, op: Operation, source: Any) -> Any:
    return S.broadcast(source, shape(ctx, _rtype(op)))


def splat(ctx: Ctx, op: Operation, input: Any) -> Any:
    return S.splat(input, shape(ctx, _rtype(op)))


def constant_mask(ctx: Ctx, op: Operation) -> Any:
    return S.constant_mask(ints(op.attributes["mask_dim_sizes"]), shape(ctx, _rtype(op)))


def create_mask(ctx: Ctx, op: Operation, operands: list[Any]) -> Any:
    return S.create_mask(_idx(operands), shape(ctx, _rtype(op)))


def _contract_maps(op: Operation) -> tuple[Any, ...]:
    maps = [m.map.result_positions() for m in op.attributes["indexing_maps"].values]
    its = tuple(v.value for v in op.attributes["iterator_types"].values)
    return (*maps, its)


def contract(ctx: Ctx, op: Operation, lhs: Any, rhs: Any, acc: Any) -> Any:
    lm, rm, am, its = ctx.static(op, _contract_maps)
    kind = enum(op, "kind") if "kind" in op.attributes else "add"
    t = op.operands
    r = S.contract(
        lhs, rhs, acc, lm, rm, am, its, kind, elem(_rtype(op)),
        elem(t[0].type), elem(t[1].type), mask=ctx.mask, fused=fp_contract(ctx),
    )  # fmt: skip
    return _as_result(r, _rtype(op))


def deinterleave(ctx: Ctx, op: Operation, source: Any) -> tuple[Any, Any]:
    return S.deinterleave(source)


def interleave(ctx: Ctx, op: Operation, lhs: Any, rhs: Any) -> Any:
    return S.interleave(lhs, rhs)


def extract(ctx: Ctx, op: Operation, vector: Any, dynamic_position: list[Any]) -> Any:
    pos = mixed(op.attributes["static_position"], dynamic_position)
    return _as_result(S.extract(vector, pos), _rtype(op))


def insert(ctx: Ctx, op: Operation, source: Any, dest: Any, dynamic_position: list[Any]) -> Any:
    return S.insert(source, dest, mixed(op.attributes["static_position"], dynamic_position))


def extractelement(ctx: Ctx, op: Operation, vector: Any, position: Any) -> Any:
    return _as_result(S.extractelement(vector, position), _rtype(op))


def insertelement(ctx: Ctx, op: Operation, source: Any, dest: Any, position: Any) -> Any:
    return S.insertelement(source, dest, position)


def extract_strided_slice(ctx: Ctx, op: Operation, vector: Any) -> Any:
    a = op.attributes
    return S.extract_strided_slice(vector, ints(a["offsets"]), ints(a["sizes"]), ints(a["strides"]))


def insert_strided_slice(ctx: Ctx, op: Operation, source: Any, dest: Any) -> Any:
    a = op.attributes
    return S.insert_strided_slice(source, dest, ints(a["offsets"]), ints(a["strides"]))


def fma(ctx: Ctx, op: Operation, lhs: Any, rhs: Any, acc: Any) -> Any:
    return S.fma(lhs, rhs, acc, elem(_rtype(op)))


def flat_transpose(ctx: Ctx, op: Operation, matrix: Any) -> Any:
    a = op.attributes
    return S.flat_transpose(matrix, a["rows"].value, a["columns"].value, matrix_layout(ctx))


def matrix_multiply(ctx: Ctx, op: Operation, lhs: Any, rhs: Any) -> Any:
    a = op.attributes
    return S.matrix_multiply(
        lhs, rhs, a["lhs_rows"].value, a["lhs_columns"].value, a["rhs_columns"].value,
        elem(_rtype(op)), matrix_layout(ctx),
    )  # fmt: skip


def from_elements(ctx: Ctx, op: Operation, elements: list[Any]) -> Any:
    t = _rtype(op)
    return S.from_elements(elements, shape(ctx, t), elem(t))


def multi_reduction(ctx: Ctx, op: Operation, source: Any, acc: Any) -> Any:
    dims = ints(op.attributes["reduction_dims"])
    r = S.multi_reduction(enum(op, "kind"), source, acc, dims, elem(_rtype(op)), ctx.mask)
    return _as_result(r, _rtype(op))


def reduction(ctx: Ctx, op: Operation, vector: Any, acc: Any) -> Any:
    return _as_result(
        S.reduction(enum(op, "kind"), vector, acc, elem(_rtype(op)), ctx.mask), _rtype(op)
    )


def outerproduct(ctx: Ctx, op: Operation, lhs: Any, rhs: Any, acc: Any) -> Any:
    kind = enum(op, "kind") if "kind" in op.attributes else "add"
    r = S.outerproduct(lhs, rhs, acc, kind, elem(_rtype(op)), ctx.mask)
    if acc is None and ctx.mask is not None:  # no accumulator to keep: masked-off lanes are 0
        r = np.where(ctx.mask, r, np.zeros_like(r))
    return r


def print_(ctx: Ctx, op: Operation, source: Any) -> None:
    lit = op.attributes.get("stringLiteral")
    punct = enum(op, "punctuation") if "punctuation" in op.attributes else "newline"
    if lit is not None:
        S.write_text(ctx.out, S.format_print(string=lit.value))
        return
    if source is None:
        ctx.out.write(S.format_print(punctuation=punct))
        return
    t = op.operand("source").type
    e = getattr(t, "element", t)
    unsigned = isinstance(e, IntegerType) and e.signedness == "unsigned"
    ctx.out.write(
        S.format_print(source, elem(t), punct, vector=isinstance(t, VectorType), unsigned=unsigned)
    )


def scalable_extract(ctx: Ctx, op: Operation, source: Any) -> Any:
    """pos counts vscale-sized chunks when the result is scalable (as llvm.vector.extract)."""
    t = _rtype(op)
    pos = op.attributes["pos"].value * (ctx.vscale if t.is_scalable else 1)
    return S.scalable_extract(source, pos, shape(ctx, t)[0])


def scalable_insert(ctx: Ctx, op: Operation, source: Any, dest: Any) -> Any:
    """pos is scaled by vscale when the source is scalable (as llvm.vector.insert)."""
    scal = op.operand("source").type.is_scalable
    return S.scalable_insert(source, dest, op.attributes["pos"].value * (ctx.vscale if scal else 1))


def scan(ctx: Ctx, op: Operation, source: Any, initial_value: Any) -> tuple[Any, Any]:
    a = op.attributes
    dest, acc = S.scan(
        enum(op, "kind"), source, initial_value, a["reduction_dim"].value,
        bool(a["inclusive"].value), elem(op.operand("source").type),
    )  # fmt: skip
    return dest, _as_result(acc, op.results[1].type)


def shape_cast(ctx: Ctx, op: Operation, source: Any) -> Any:
    return S.shape_cast(source, shape(ctx, _rtype(op)))


def shuffle(ctx: Ctx, op: Operation, v1: Any, v2: Any) -> Any:
    return S.shuffle(v1, v2, ints(op.attributes["mask"]))


def step(ctx: Ctx, op: Operation) -> Any:
    return S.step(shape(ctx, _rtype(op))[0])


def transpose(ctx: Ctx, op: Operation, vector: Any) -> Any:
    return S.transpose(vector, ints(op.attributes["permutation"]))


# -- memory ops ---------------------------------------------------------------------------------
def load(ctx: Ctx, op: Operation, base: Any, indices: list[Any]) -> Any:
    return S.vector_load(base, _idx(indices), shape(ctx, _rtype(op)), *_bounds_policy(ctx, op))


def store(ctx: Ctx, op: Operation, value: Any, base: Any, indices: list[Any]) -> None:
    S.vector_store(base, _idx(indices), value, *_bounds_policy(ctx, op))


def maskedload(ctx: Ctx, op: Operation, base: Any, indices: list, mask: Any, pt: Any) -> Any:
    return S.maskedload(base, _idx(indices), mask, pt)


def maskedstore(ctx: Ctx, op: Operation, base: Any, indices: list, mask: Any, v: Any) -> None:
    S.maskedstore(base, _idx(indices), mask, v)


def expandload(ctx: Ctx, op: Operation, base: Any, indices: list, mask: Any, pt: Any) -> Any:
    return S.expandload(base, _idx(indices), mask, pt)


def compressstore(ctx: Ctx, op: Operation, base: Any, indices: list, mask: Any, v: Any) -> None:
    S.compressstore(base, _idx(indices), mask, v)


def gather(
    ctx: Ctx, op: Operation, base: Any, indices: list, index_vec: Any, mask: Any, pt: Any
) -> Any:
    mem = as_memref(base, op.operand("base").type)
    return S.gather(mem, _idx(indices), index_vec, _and_mask(ctx, mask), pt)


def scatter(
    ctx: Ctx, op: Operation, base: Any, indices: list, index_vec: Any, mask: Any, v: Any
) -> None:
    S.scatter(base, _idx(indices), index_vec, mask, v)


def _transfer_attrs(op: Operation) -> tuple[tuple[int | None, ...], list[bool]]:
    a = op.attributes
    return a["permutation_map"].map.result_positions(), bools(a.get("in_bounds"))


def transfer_read(
    ctx: Ctx, op: Operation, source: Any, indices: list, padding: Any, mask: Any
) -> Any:
    perm, inb = ctx.static(op, _transfer_attrs)
    mem = as_memref(source, op.operand("source").type)
    shp = shape(ctx, _rtype(op))
    m = _and_mask(ctx, mask)
    strict, on_past = _bounds_policy(ctx, op)
    return S.transfer_read(mem, _idx(indices), perm, shp, padding, inb, m, strict, on_past)


def transfer_write(
    ctx: Ctx, op: Operation, vector: Any, source: Any, indices: list, mask: Any
) -> Any:
    perm, inb = ctx.static(op, _transfer_attrs)
    st = op.operand("source").type
    m = _and_mask(ctx, mask)
    strict, on_past = _bounds_policy(ctx, op)
    if isinstance(st, TensorType):
        return S.transfer_write_tensor(
            source, elem(st), _idx(indices), perm, vector, inb, m, strict, on_past
        )
    S.transfer_write(source, _idx(indices), perm, vector, inb, m, strict, on_past)
    return None


def _bounds_policy(ctx: Ctx, op: Operation) -> tuple[bool, Any]:
    """(strict, warn callback) for transfers marked in_bounds that reach past a dimension:
    read the flat memory as MLIR does and warn (default), or fault (``ctx.strict_bounds``)."""
    warn = getattr(ctx, "warn", None)
    return bool(getattr(ctx, "strict_bounds", False)), (
        (lambda msg: warn(op, msg)) if warn is not None else None
    )


def type_cast(ctx: Ctx, op: Operation, memref: Any) -> Any:
    return S.type_cast(memref)


# -- vector.mask -----------------------------------------------------------------------------------
def _lane_mask(op: Operation, mask: np.ndarray, result_shape: tuple[int, ...]) -> Any:
    """The mask in the layout of the masked op's result (transfer masks are indexed in memref
    order with broadcast dims dropped); None when lanes do not correspond to result lanes."""
    if op.name == "vector.transfer_read":
        perm = op.attributes["permutation_map"].map.result_positions()
        mapped = [t for t, p in enumerate(perm) if p is not None]
        order = sorted(mapped, key=lambda t: perm[t])
        m = np.transpose(mask, [order.index(t) for t in mapped]) if mask.ndim else mask
        lead = result_shape[: len(perm)]
        m = m.reshape([lead[t] if t in mapped else 1 for t in range(len(perm))])
        m = m.reshape(m.shape + (1,) * (len(result_shape) - len(perm)))
        return np.broadcast_to(m, result_shape)
    return mask if mask.shape == result_shape else None


def mask(ctx: Ctx, op: Operation, mask: Any, passthru: Any) -> list[Any]:
    """Runs the region with ``ctx.mask`` set; see the module docstring for masked-off lanes."""
    block = op.regions[0].blocks[0]
    inner = block.ops[0] if len(block.ops) > 1 else None
    saved, ctx.mask = ctx.mask, np.asarray(mask, dtype=np.bool_)
    try:
        results = ctx.run_region(op.regions[0], [])
    finally:
        ctx.mask = saved
    if inner is None:
        return results
    m = np.asarray(mask, dtype=np.bool_)
    out = []
    for r in results:
        if isinstance(r, np.ndarray):
            lanes = _lane_mask(inner, m, r.shape)
            if passthru is not None and lanes is not None:
                r = np.where(lanes, r, passthru)
            elif not inner.spec.has(MASKABLE):
                if lanes is None:
                    raise SemanticsError(f"mask of shape {m.shape} does not fit {r.shape}")
                r = np.where(lanes, r, np.zeros_like(r))
        out.append(r)
    return out
