"""multi_reduction lowering strategies (MLIR ``--lower-vector-multi-reduction``, options
``innerparallel`` and ``innerreduction``). Rules: ``rules/explore/multi_reduction.egg``.

Both fold the source into the accumulator in row-major order of the reduced dims, as
``frontend.semantics.multi_reduction`` does, so they are exact for every kind.
"""

from __future__ import annotations

from typing import Any

from eqsat.strategy_kit import Emit, ops_cost, prod, strategy
from frontend.ir import Value
from frontend.types import VectorType

MULTI_REDUCTION = ("Type", "Term", "Term", "String", "IVec", "IVec")


def _split(dims: Any, shape: Any) -> tuple[list[int], list[int], int, int]:
    """(reduced dims, kept dims, reduced size, kept size) of a source shape."""
    red = sorted(int(d) for d in dims)
    par = [d for d in range(len(shape)) if d not in red]
    return red, par, prod(shape[d] for d in red), prod(shape[d] for d in par)


def _decode(dec: Any, t: Any) -> tuple[Emit, Any, Value, Value, str, list[int], list[int]]:
    from eqsat.terms import decode_type

    ty, x, acc, kind, _dims, _shape = t.args
    red, par, _, _ = _split(_dims, _shape)
    return Emit(dec), decode_type(ty), dec.value(x), dec.value(acc), kind, red, par


def _inner_parallel_cost(lits: tuple[Any, ...]) -> float:
    _, _, r, _ = _split(lits[1], lits[2])  # kind, dims, source shape, type
    return ops_cost(2 * r + 4)


@strategy("MultiReductionInnerParallel", MULTI_REDUCTION, cost=_inner_parallel_cost)
def multi_reduction_inner_parallel(dec: Any, t: Any) -> Value:
    """multi_reduction<kind>(x, acc, dims) == acc <kind> x'[0] <kind> x'[1] ... element-wise,
    x' = shape_cast(transpose(x, dims ++ kept) : R x P): the reduced dims moved outermost and
    the rows combined with element-wise arith (MLIR's ``innerparallel``). The last literal is
    the source shape, for the cost; needs a kept dim (a vector result)."""
    e, rt, x, acc, kind, red, par = _decode(dec, t)
    _, _, r, p = _split(red, x.type.shape)  # type: ignore[attr-defined]
    rows = e.reshape(e.transpose(x, red + par), (r, p))
    out = e.reshape(acc, (p,))
    for i in range(r):
        out = e.combine(kind, out, e.extract(rows, [i]))
    return e.shape_cast(out, rt)


def _inner_reduction_cost(lits: tuple[Any, ...]) -> float:
    _, _, _, p = _split(lits[1], lits[2])
    return ops_cost(3 * p + 5)


@strategy("MultiReductionInnerReduction", MULTI_REDUCTION, cost=_inner_reduction_cost)
def multi_reduction_inner_reduction(dec: Any, t: Any) -> Value:
    """multi_reduction<kind>(x, acc, dims)[p] == reduction<kind>(x'[p], acc[p]) for every kept
    element p, x' = shape_cast(transpose(x, kept ++ dims) : P x R): the reduced dims moved
    innermost, one vector.reduction per row, rebuilt with from_elements (MLIR's
    ``innerreduction``). The last literal is the source shape, for the cost."""
    e, rt, x, acc, kind, red, par = _decode(dec, t)
    _, _, r, p = _split(red, x.type.shape)  # type: ignore[attr-defined]
    moved = e.transpose(x, par + red)
    if not par:
        return e.reduction(kind, e.reshape(moved, (r,)), acc)
    rows = e.reshape(moved, (p, r))
    accs = e.reshape(acc, (p,))
    out = [e.reduction(kind, e.extract(rows, [i]), e.extract(accs, [i])) for i in range(p)]
    flat = e.from_elements(out, VectorType((p,), rt.element))
    return e.shape_cast(flat, rt)
