"""Lowering strategies: each is an e-graph constructor equal to the op it lowers, and a
Python expander that materializes it as real vector ops when the term is decoded.

MLIR picks one strategy per pass by hand (``vector-contract-lowering=outerproduct``); here
every strategy is an alternative in the same e-class and the cost model chooses, op by op.
A strategy node is compact: ``(TransposeShuffle t x p)`` is one e-node however many
shuffles it stands for; its ``count`` literal (set by the rule that introduces it) lets the
cost model price the expansion without building it.

Expanders receive the block decoder (``dec.value(term)`` emits an operand, ``dec.emit(op)``
appends an op) and the strategy term; they return the Value that replaces the op.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from frontend.attributes import DenseArrayAttr, IntegerAttr
from frontend.ir import Operation, Value
from frontend.types import Type, VectorType

Literal = Any


@dataclass(frozen=True)
class Strategy:
    """One strategy constructor: its egglog argument sorts, docs, expander and cost."""

    name: str
    sorts: tuple[str, ...]
    doc: str
    expand: Callable[[Any, Any], Value]
    # Own cost from the node's literals (count, kind, ...); children are added by the model.
    cost: Callable[[tuple[Literal, ...]], float] = lambda lits: 1.0


STRATEGIES: dict[str, Strategy] = {}


def strategy(name: str, sorts: tuple[str, ...], cost: Callable[[tuple[Literal, ...]], float]
             | None = None):
    """Register the decorated expander as strategy ``name``; its docstring is the law."""

    def register(fn: Callable[[Any, Any], Value]) -> Callable[[Any, Any], Value]:
        doc = " ".join((fn.__doc__ or "").split())
        STRATEGIES[name] = Strategy(name, sorts, doc, fn, cost or (lambda lits: 1.0))
        return fn

    return register


# -- helpers for expanders -------------------------------------------------------------------------
class Emit:
    """Small constructors for the ops expanders build (types inferred through the op table)."""

    def __init__(self, dec: Any) -> None:
        self.dec = dec

    def op(self, name: str, operands: list[Value], result: Type | None,
           **attrs: Any) -> Value:
        from frontend.ops import lookup

        spec = lookup(name)
        assert spec is not None
        converted = {}
        for key, value in attrs.items():
            d = spec.attr_def(key)
            converted[key] = d.kind.convert(value) if d is not None else value
        op = Operation(name, operands, [result] if result is not None else [], converted)
        if result is None and spec.infer is not None:
            op.results = [Value(t, op, i) for i, t in enumerate(spec.infer(op))]
        self.dec.emit(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def extract(self, v: Value, pos: list[int]) -> Value:
        t: VectorType = v.type  # type: ignore[assignment]
        k = len(pos)
        rt = t.element if k == t.rank else VectorType(t.shape[k:], t.element)
        return self.op("vector.extract", [v], rt, static_position=DenseArrayAttr("i64", tuple(pos)))

    def insert(self, src: Value, dest: Value, pos: list[int]) -> Value:
        return self.op("vector.insert", [src, dest], dest.type,
                       static_position=DenseArrayAttr("i64", tuple(pos)))

    def shape_cast(self, v: Value, t: Type) -> Value:
        return v if v.type == t else self.op("vector.shape_cast", [v], t)

    def zeros(self, t: Type) -> Value:
        from frontend.attributes import DenseElementsAttr
        from frontend.types import FloatType

        elem = t.element if isinstance(t, VectorType) else t
        zero = 0.0 if isinstance(elem, FloatType) else (False if str(elem) == "i1" else 0)
        return self.op("arith.constant", [], t, value=DenseElementsAttr(t, (zero,)))


def _shape(t: Type) -> tuple[int, ...]:
    return t.shape if isinstance(t, VectorType) else ()


def _strides(shape: tuple[int, ...]) -> list[int]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= s
    return out[::-1]


# -- transpose ----------------------------------------------------------------------------------------
@strategy("TransposeShuffle", ("Type", "Term", "IVec"), cost=lambda lits: 3.0)
def transpose_shuffle(dec: Any, t: Any) -> Value:
    """transpose(x, p) == shape_cast(shuffle(flat(x), flat(x), [source index of each lane]))
    : one 1-D shuffle over the flattened vector (MLIR's ``shuffle_1d`` strategy)."""
    from eqsat.decode import decode_type

    ty, x, perm = t.args
    e = Emit(dec)
    src = dec.value(x)
    st: VectorType = src.type
    rt: VectorType = decode_type(ty)  # type: ignore[assignment]
    n = st.num_elements()
    flat_t = VectorType((n,), st.element)
    flat = e.shape_cast(src, flat_t)
    src_strides = _strides(st.shape)
    mask = []
    for lin in range(n):
        idx, rem = [], lin
        for s in _strides(rt.shape):
            idx.append(rem // s)
            rem %= s
        mask.append(sum(idx[i] * src_strides[perm[i]] for i in range(len(perm))))
    shuffled = e.op("vector.shuffle", [flat, flat], flat_t, mask=DenseArrayAttr("i64", tuple(mask)))
    return e.shape_cast(shuffled, rt)


__all__ = ["STRATEGIES", "Emit", "IntegerAttr", "Strategy", "strategy"]
