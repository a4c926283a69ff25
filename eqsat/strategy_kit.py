"""The strategy kit: registry, expander helpers and cost helpers shared by every strategy
family (``eqsat.strategies_*``). ``eqsat.strategies`` imports the families.

Lowering strategies: each is an e-graph constructor equal to the op it lowers, and a
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

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from frontend.attributes import Attribute, DenseArrayAttr, IntegerAttr
from frontend.ir import Operation, Value, new_op
from frontend.ops import lookup
from frontend.ops.spec import segments_attr
from frontend.types import Type, VectorType

Literal = Any


@dataclass(frozen=True)
class Strategy:
    """One strategy constructor: its egglog argument sorts, docs, expander and cost.

    ``sort`` is what the constructor yields: ``Term`` for a value, ``State`` for a write (its
    expander emits the writes and returns None). A ``Term`` strategy whose sorts include
    ``State`` (last, as for read ops) is a read: the decoder emits it before any later write
    consumes that state."""

    name: str
    sorts: tuple[str, ...]
    doc: str
    expand: Callable[[Any, Any], Value]
    # Own cost from the node's literals (count, kind, ...); children are added by the model.
    cost: Callable[[tuple[Literal, ...]], float] = lambda lits: 1.0
    sort: str = "Term"
    # Tuning literals worth naming (explanations): (name, position among the literals).
    params: tuple[tuple[str, int], ...] = ()

    def label(self, lits: tuple[Literal, ...]) -> str:
        """The constructor with its named tuning literals, e.g. ``ContractOuter rows=4``."""
        named = [f"{n}={lits[i]}" for n, i in self.params if i < len(lits)]
        return " ".join([self.name, *named])

    @property
    def reads(self) -> bool:
        return self.sort == "Term" and self.sorts[-1:] == ("State",)

    @property
    def writes(self) -> bool:
        return self.sort == "State"


STRATEGIES: dict[str, Strategy] = {}


def strategy(
    name: str,
    sorts: tuple[str, ...],
    cost: Callable[[tuple[Literal, ...]], float] | None = None,
    sort: str = "Term",
    params: tuple[tuple[str, int], ...] = (),
):
    """Register the decorated expander as strategy ``name``; its docstring is the law."""

    def register(fn: Callable[[Any, Any], Value]) -> Callable[[Any, Any], Value]:
        doc = " ".join((fn.__doc__ or "").split())
        STRATEGIES[name] = Strategy(
            name, sorts, doc, fn, cost or (lambda lits: 1.0), sort, params
        )
        return fn

    return register


# -- helpers for expanders -------------------------------------------------------------------------
FLOAT_KIND_OPS = {
    "add": "arith.addf",
    "mul": "arith.mulf",
    "minnumf": "arith.minnumf",
    "maxnumf": "arith.maxnumf",
    "minimumf": "arith.minimumf",
    "maximumf": "arith.maximumf",
}
INT_KIND_OPS = {
    "add": "arith.addi",
    "mul": "arith.muli",
    "minsi": "arith.minsi",
    "minui": "arith.minui",
    "maxsi": "arith.maxsi",
    "maxui": "arith.maxui",
    "and": "arith.andi",
    "or": "arith.ori",
    "xor": "arith.xori",
}


def elem_of(t: Type) -> Type:
    return t.element if isinstance(t, VectorType) else t


def is_float(t: Type) -> bool:
    from frontend.types import FloatType

    return isinstance(elem_of(t), FloatType)


def _converted(spec: Any, key: str, value: Any) -> Any:
    """``value`` as the attribute ``key`` of ``spec`` holds it (``AttrKind.convert``),
    memoized when it is a plain Python value: an expansion builds the same few offsets, sizes
    and strides thousands of times (attributes are immutable, so ops may share them). The memo
    key spells out each element's class, so ``1``, ``1.0`` and ``True`` stay apart."""
    d = spec.attr_def(key)
    if d is None:
        return value
    if isinstance(value, Attribute):  # checked, not built: cheap, and kept as it is
        return d.kind.convert(value)
    try:
        memo_key = (spec.name, key, _frozen(value))
    except TypeError:  # something unhashable: converted as it is, each time
        return d.kind.convert(value)
    got = _CONVERTED.get(memo_key)
    if got is None:
        if len(_CONVERTED) >= _CONVERTED_MAX:
            _CONVERTED.clear()
        got = _CONVERTED[memo_key] = d.kind.convert(value)
    return got


def _frozen(value: Any) -> tuple[Any, ...]:
    """A hashable key for a scalar or a flat sequence (TypeError for anything nested)."""
    cls = value.__class__
    if cls is list or cls is tuple:
        key = (cls, tuple(value), tuple(map(type, value)))
    else:
        key = (cls, value)
    hash(key)
    return key


# The memo of ``_converted`` (a cache of pure conversions, never state), and its bound.
_CONVERTED: dict[tuple[Any, ...], Any] = {}
_CONVERTED_MAX = 1 << 16


@lru_cache(maxsize=1024)
def vector_type(shape: tuple[int, ...], element: Type) -> VectorType:
    """``VectorType(shape, element)``, one object per type: an expansion makes the same few
    types thousands of times, and the printer spells a type object once (``frontend.types``)."""
    return VectorType(shape, element)


def i64_array(values: tuple[int, ...]) -> DenseArrayAttr:
    """``DenseArrayAttr("i64", values)``, one object per tuple of Python ints: ops that share
    their attribute objects are printed and verified once per signature
    (``frontend.print_templates``, ``frontend.verifier``)."""
    if all(v.__class__ is int for v in values):  # (``True`` == 1: kept apart)
        return _i64_array(values)
    return DenseArrayAttr("i64", values)


@lru_cache(maxsize=4096)
def _i64_array(values: tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", values)


@lru_cache(maxsize=4096)
def _slice_attributes(offsets: tuple[int, ...], sizes: tuple[int, ...]) -> dict[str, Any]:
    spec = lookup("vector.extract_strided_slice")
    attrs = {"offsets": list(offsets), "sizes": list(sizes), "strides": [1] * len(sizes)}
    return {key: _converted(spec, key, value) for key, value in attrs.items()}


def slice_op(v: Value, offsets: tuple[int, ...], sizes: tuple[int, ...]) -> Operation:
    """``vector.extract_strided_slice`` of ``v`` at unit strides (what ``Emit.op`` builds, its
    attributes made once per offsets and sizes: tiling takes hundreds of thousands of such
    slices). Its result type and attributes are looked up by the source type's identity
    (hashing a type hashes its fields, in Python)."""
    t: VectorType = v.type  # type: ignore[assignment]
    key = (id(t), offsets, sizes)
    got = _SLICES.get(key)
    if got is None or got[0] is not t:  # (an id reused by another type: made again)
        if len(_SLICES) >= 4096:
            _SLICES.clear()
        got = _SLICES[key] = (t, vector_type(sizes, t.element), _slice_attributes(offsets, sizes))
    return new_op(_slice_spec(), [v], [got[1]], dict(got[2]))


# slice_op's memo: (id of the source type, offsets, sizes) -> (that type, result type, attrs)
_SLICES: dict[tuple[Any, ...], tuple[Any, VectorType, dict[str, Any]]] = {}


@lru_cache(maxsize=1)
def _slice_spec() -> Any:
    return lookup("vector.extract_strided_slice")


class Emit:
    """Small constructors for the ops expanders build (types inferred through the op table)."""

    def __init__(self, dec: Any) -> None:
        self.dec = dec
        # Constants are emitted once per block decoder.
        if not hasattr(dec, "_strategy_consts"):
            dec._strategy_consts = {}
        self.consts: dict[Any, Value] = dec._strategy_consts

    def op(
        self,
        name: str,
        operands: list[Value],
        result: Type | None,
        segments: list[int] | None = None,
        **attrs: Any,
    ) -> Value:
        spec = lookup(name)
        assert spec is not None
        converted = {key: _converted(spec, key, value) for key, value in attrs.items()}
        if segments is not None:
            converted["operandSegmentSizes"] = segments_attr(segments)
        op = new_op(spec, list(operands), [result] if result is not None else [], converted)
        if result is None and spec.infer is not None:
            op.results = [Value(t, op, i) for i, t in enumerate(spec.infer(op))]
        self.dec.emit(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def slice(self, v: Value, offsets: tuple[int, ...], sizes: tuple[int, ...]) -> Value:
        """``vector.extract_strided_slice`` of ``v`` at unit strides (``slice_op``)."""
        return self.dec.emit(slice_op(v, offsets, sizes)).results[0]  # type: ignore[no-any-return]

    # -- effects: strategies for reads and writes must respect the state chain ---------------
    def after(self, state: Any) -> None:
        """A read of ``state``: the writes that produce it come first."""
        self.dec.state(state)

    def consume(self, state: Any) -> None:
        """A write on ``state``: its producers and every read of it come first."""
        self.dec._before_consuming(state)

    # -- values ---------------------------------------------------------------------------------
    def extract(self, v: Value, pos: list[int] | tuple[int, ...]) -> Value:
        t: VectorType = v.type  # type: ignore[assignment]
        k = len(pos)
        if k == 0:
            return v
        rt = t.element if k == t.rank else vector_type(t.shape[k:], t.element)
        return self.op("vector.extract", [v], rt, static_position=i64_array(tuple(pos)))

    def insert(self, src: Value, dest: Value, pos: list[int] | tuple[int, ...]) -> Value:
        return self.op(
            "vector.insert",
            [src, dest],
            dest.type,
            static_position=i64_array(tuple(pos)),
        )

    def shape_cast(self, v: Value, t: Type) -> Value:
        return v if v.type == t else self.op("vector.shape_cast", [v], t)

    def reshape(self, v: Value, shape: tuple[int, ...] | list[int]) -> Value:
        return self.shape_cast(v, VectorType(tuple(shape), elem_of(v.type)))

    def transpose(self, v: Value, perm: list[int] | tuple[int, ...]) -> Value:
        perm = list(perm)
        if perm == sorted(perm):
            return v
        t: VectorType = v.type  # type: ignore[assignment]
        rt = VectorType(tuple(t.shape[p] for p in perm), t.element)
        return self.op("vector.transpose", [v], rt, permutation=perm)

    def broadcast(self, v: Value, t: Type) -> Value:
        return v if v.type == t else self.op("vector.broadcast", [v], t)

    def shuffle(self, a: Value, b: Value, mask: list[int]) -> Value:
        rt = vector_type((len(mask),) + a.type.shape[1:], elem_of(a.type))  # type: ignore
        return self.op("vector.shuffle", [a, b], rt, mask=i64_array(tuple(mask)))

    def from_elements(self, elems: list[Value], t: VectorType) -> Value:
        return self.op("vector.from_elements", elems, t)

    def combine(self, kind: str, a: Value, b: Value) -> Value:
        """``a <kind> b`` element-wise, by the arith op with the combining kind's semantics."""
        name = (FLOAT_KIND_OPS if is_float(a.type) else INT_KIND_OPS)[kind]
        return self.op(name, [a, b], a.type)

    def mul(self, a: Value, b: Value) -> Value:
        return self.combine("mul", a, b)

    def reduction(self, kind: str, v: Value, acc: Value | None = None) -> Value:
        return self.op(
            "vector.reduction", [v] + ([acc] if acc is not None else []), elem_of(v.type), kind=kind
        )

    def promote(self, v: Value, elem: Type) -> Value:
        """``v`` converted to element type ``elem`` as contractions promote their operands to
        the accumulator's: extf / extsi when wider (the usual case), truncf / trunci when
        narrower, sitofp from integers to floats."""
        src = elem_of(v.type)
        if src == elem:
            return v
        t = VectorType(v.type.shape, elem) if isinstance(v.type, VectorType) else elem
        width = getattr(src, "width", 64), getattr(elem, "width", 64)
        if is_float(elem) and is_float(src):
            name = "arith.extf" if width[0] < width[1] else "arith.truncf"
        elif is_float(elem):
            name = "arith.sitofp"
        elif not is_float(src):
            name = "arith.extsi" if width[0] < width[1] else "arith.trunci"
        else:
            raise ValueError(f"cannot promote {src} to {elem}")
        return self.op(name, [v], t)

    def index(self, i: int) -> Value:
        from frontend.types import IndexType

        key = ("index", i)
        got = self.consts.get(key)
        if got is None:
            got = self.consts[key] = self.op(
                "arith.constant", [], IndexType(), value=IntegerAttr(i, IndexType())
            )
        return got

    def zeros(self, t: Type) -> Value:
        from frontend.attributes import DenseElementsAttr
        from frontend.types import FloatType

        key = ("zeros", t)
        got = self.consts.get(key)
        if got is not None:
            return got
        elem = t.element if isinstance(t, VectorType) else t
        zero = 0.0 if isinstance(elem, FloatType) else (False if str(elem) == "i1" else 0)
        got = self.consts[key] = self.op(
            "arith.constant", [], t, value=DenseElementsAttr(t, (zero,))
        )
        return got


def _shape(t: Type) -> tuple[int, ...]:
    return t.shape if isinstance(t, VectorType) else ()


def _strides(shape: tuple[int, ...]) -> list[int]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= s
    return out[::-1]


def prod(xs: Any) -> int:
    n = 1
    for x in xs:
        n *= int(x)
    return n


def unravel(i: int, shape: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The row-major multi-index of linear position ``i`` in ``shape``."""
    out = []
    for s in reversed(shape):
        out.append(i % s)
        i //= s
    return tuple(reversed(out))


def result_shape(lits: tuple[Literal, ...]) -> tuple[int, ...] | None:
    """The result shape from the ``("type", shape, elem)`` literal the extractor appends to a
    node whose first argument is its ``Type`` (None for a scalar or non-vector type)."""
    t = lits[-1] if lits else None
    if isinstance(t, tuple) and len(t) == 3 and t[0] == "type":
        return tuple(t[1])  # type: ignore[arg-type]
    return None


# Strategies cost the ops they emit; this is added so that a one-op expansion still loses a tie
# against the op it lowers (the VV model keeps the original unless a cost table says otherwise).
TIE = 0.01


def ops_cost(n: float) -> float:
    return float(n) + TIE
