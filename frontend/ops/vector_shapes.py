"""Types the vector ops imply rather than state: result types and expected masks.

Result types (``infer``) serve formats that leave them implicit and the builder API. Mask
types (``mask_type``, MLIR's ``MaskableOpInterface::getExpectedMaskType``) are what
``vector.mask`` requires around each maskable op; the transfer ops check their own mask
operand with the same rule. These functions read operand types and attributes only, so they
may raise on an ill-typed op: callers turn that into the op's verifier error.
"""

from __future__ import annotations

from frontend.ir import Operation
from frontend.ops.common import ints
from frontend.types import Type, VectorType, i1


# -- result types ---------------------------------------------------------------------------
def _vec(op: Operation, name: str) -> VectorType:
    return op.operand(name).type  # type: ignore[union-attr, return-value]


def _tail(src: VectorType, k: int) -> Type:
    """What indexing the first ``k`` dims of ``src`` leaves: a vector, or the element."""
    if k == src.rank:
        return src.element
    return VectorType(src.shape[k:], src.element, src.scalable[k:])


def transpose(op: Operation) -> list[Type]:
    src, perm = _vec(op, "vector"), ints(op.attributes["permutation"])
    return [src.with_shape(tuple(src.shape[p] for p in perm), tuple(src.scalable[p] for p in perm))]


def extract(op: Operation) -> list[Type]:
    return [_tail(_vec(op, "vector"), len(ints(op.attributes["static_position"])))]


def extract_strided_slice(op: Operation) -> list[Type]:
    src, sizes = _vec(op, "vector"), ints(op.attributes["sizes"])
    return [src.with_shape(tuple(sizes) + src.shape[len(sizes) :], src.scalable)]


def reduction(op: Operation) -> list[Type]:
    return [_vec(op, "vector").element]


def multi_reduction(op: Operation) -> list[Type]:
    src, dims = _vec(op, "source"), set(ints(op.attributes["reduction_dims"]))
    kept = [i for i in range(src.rank) if i not in dims]
    if not kept:
        return [src.element]
    return [src.with_shape(tuple(src.shape[i] for i in kept), tuple(src.scalable[i] for i in kept))]


def interleave(op: Operation) -> list[Type]:
    a = _vec(op, "lhs")
    if a.rank == 0:
        return [a.with_shape((2,))]
    return [a.with_shape(a.shape[:-1] + (2 * a.shape[-1],), a.scalable)]


def deinterleave(op: Operation) -> list[Type]:
    src = _vec(op, "source")
    if src.rank == 0 or src.shape[-1] % 2:
        raise ValueError("the trailing dimension of the source must be even and non-zero")
    half = src.with_shape(src.shape[:-1] + (src.shape[-1] // 2,), src.scalable)
    return [half, half]


def shuffle(op: Operation) -> list[Type]:
    v1, mask = op.operands[0].type, ints(op.attributes["mask"])
    trailing = v1.shape[1:] if v1.rank else ()  # type: ignore[attr-defined]
    return [VectorType((len(mask), *trailing), v1.element)]  # type: ignore[attr-defined]


def outerproduct(op: Operation) -> list[Type]:
    lhs, rhs = _vec(op, "lhs"), op.operand("rhs").type  # type: ignore[union-attr]
    if isinstance(rhs, VectorType):
        return [lhs.with_shape((lhs.shape[0], rhs.shape[0]), (lhs.scalable[0], rhs.scalable[0]))]
    return [lhs]


# -- mask types -----------------------------------------------------------------------------


def _i1(shape: tuple[int, ...], scalable: tuple[bool, ...] = ()) -> VectorType:
    return VectorType(tuple(shape), i1, tuple(scalable))


def mask_like_operand(name: str):
    """The mask has the shape of operand ``name`` (reduction, multi_reduction)."""

    def mask_type(op: Operation) -> VectorType:
        t = op.operand(name).type  # type: ignore[union-attr]
        return _i1(t.shape, t.scalable)

    return mask_type


def mask_like_result(op: Operation) -> VectorType:
    """The mask has the result's shape (gather, outerproduct, element-wise ops)."""
    t = op.results[0].type
    return _i1(t.shape, t.scalable)  # type: ignore[attr-defined]


def contract_mask(op: Operation) -> VectorType:
    """One mask bit per point of the iteration space ``(d0, d1, ...)``."""
    maps = [m.map for m in op.attributes["indexing_maps"].values]  # type: ignore[attr-defined]
    sizes: dict[int, tuple[int, bool]] = {}
    for m, v in zip(maps, op.operands):
        t = v.type
        if isinstance(t, VectorType):
            for e, s, sc in zip(m.results, t.shape, t.scalable):
                sizes[e.position] = (s, sc)
    dims = [sizes[d] for d in range(maps[0].num_dims)]
    return _i1(tuple(s for s, _ in dims), tuple(sc for _, sc in dims))


def transfer_mask(op: Operation) -> VectorType:
    """The vector's shape in memory-dim order, broadcast (constant 0) dims dropped."""
    m = op.attributes["permutation_map"].map  # type: ignore[attr-defined]
    vec = op.results[0].type if op.name == "vector.transfer_read" else op.operand("vector").type
    positions = m.result_positions() or ()
    kept = sorted(
        (p, vec.shape[i], vec.scalable[i]) for i, p in enumerate(positions) if p is not None
    )
    return _i1(tuple(s for _, s, _ in kept), tuple(sc for _, _, sc in kept))
