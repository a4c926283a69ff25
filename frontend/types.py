"""MLIR builtin types as immutable, hashable values.

Each class prints itself in MLIR's syntax (``str(t)``); the parser builds them. Being frozen
dataclasses they can be dictionary keys, e-graph literals and cache keys alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Type:
    """Base of every type; subclasses are frozen dataclasses."""

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class IntegerType(Type):
    """``iN`` (signless), ``siN`` (signed) or ``uiN`` (unsigned)."""

    width: int
    signedness: str = "signless"  # "signless" | "signed" | "unsigned"

    def __str__(self) -> str:
        return f"{_INT_PREFIX[self.signedness]}{self.width}"


_INT_PREFIX = {"signless": "i", "signed": "si", "unsigned": "ui"}


@dataclass(frozen=True, slots=True)
class IndexType(Type):
    """The target word-sized integer ``index`` (64 bits for us)."""

    def __str__(self) -> str:
        return "index"


FLOAT_WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128, "tf32": 19}


@dataclass(frozen=True, slots=True)
class FloatType(Type):
    """``f16``, ``bf16``, ``f32``, ``f64`` (and the rarer ``f80``, ``f128``, ``tf32``)."""

    name: str

    @property
    def width(self) -> int:
        return FLOAT_WIDTHS[self.name]

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class NoneType(Type):
    def __str__(self) -> str:
        return "none"


@dataclass(frozen=True, slots=True)
class ComplexType(Type):
    element: Type

    def __str__(self) -> str:
        return f"complex<{self.element}>"


@dataclass(frozen=True, slots=True)
class TupleType(Type):
    types: tuple[Type, ...]

    def __str__(self) -> str:
        return f"tuple<{', '.join(map(str, self.types))}>"


@dataclass(frozen=True, slots=True)
class FunctionType(Type):
    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __str__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"({ins}) -> {self.results[0]}"
        return f"({ins}) -> ({', '.join(map(str, self.results))})"


@dataclass(frozen=True, slots=True)
class VectorType(Type):
    """``vector<4x[8]xf32>``: a fixed shape, per-dim scalable flags; ``vector<f32>`` is 0-D."""

    shape: tuple[int, ...]
    element: Type
    scalable: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        if not self.scalable:
            object.__setattr__(self, "scalable", (False,) * len(self.shape))

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_scalable(self) -> bool:
        return any(self.scalable)

    def num_elements(self, vscale: int = 1) -> int:
        n = 1
        for size, scalable in zip(self.shape, self.scalable):
            n *= size * (vscale if scalable else 1)
        return n

    def runtime_shape(self, vscale: int = 1) -> tuple[int, ...]:
        return tuple(s * (vscale if sc else 1) for s, sc in zip(self.shape, self.scalable))

    def with_shape(self, shape: tuple[int, ...], scalable: tuple[bool, ...] = ()) -> VectorType:
        return VectorType(tuple(shape), self.element, tuple(scalable))

    def __str__(self) -> str:
        known = _SPELLING.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        dims = "".join(
            (f"[{s}]" if sc else f"{s}") + "x" for s, sc in zip(self.shape, self.scalable)
        )
        return _spelled(self, f"vector<{dims}{self.element}>")


# The spelling of the shaped types printed lately, by identity (printing a big module spells
# the same few type objects over and over; types are immutable, so a spelling never goes
# stale, and an entry holds its type, so its id is not reused while it is there).
_SPELLING: dict[int, tuple[Type, str]] = {}


def _spelled(t: Type, text: str) -> str:
    if len(_SPELLING) >= 4096:
        _SPELLING.clear()
    _SPELLING[id(t)] = (t, text)
    return text


DYNAMIC = None  # a `?` dimension in memref and tensor shapes


def _shape_str(shape: tuple[int | None, ...]) -> str:
    return "".join(("?" if s is None else str(s)) + "x" for s in shape)


@dataclass(frozen=True, slots=True)
class MemRefType(Type):
    """``memref<4x?xf32, strided<[?, 1]>, 3>``; ``None`` dims are dynamic (``?``)."""

    shape: tuple[int | None, ...]
    element: Type
    layout: Any = None  # an Attribute (StridedLayoutAttr, AffineMapAttr) or None for identity
    memory_space: Any = None  # an Attribute or None

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def has_static_shape(self) -> bool:
        return all(s is not None for s in self.shape)

    def __str__(self) -> str:
        known = _SPELLING.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        extra = "".join(f", {a}" for a in (self.layout, self.memory_space) if a is not None)
        return _spelled(self, f"memref<{_shape_str(self.shape)}{self.element}{extra}>")


@dataclass(frozen=True, slots=True)
class UnrankedMemRefType(Type):
    element: Type
    memory_space: Any = None

    def __str__(self) -> str:
        extra = f", {self.memory_space}" if self.memory_space is not None else ""
        return f"memref<*x{self.element}{extra}>"


@dataclass(frozen=True, slots=True)
class TensorType(Type):
    shape: tuple[int | None, ...]
    element: Type
    encoding: Any = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __str__(self) -> str:
        extra = f", {self.encoding}" if self.encoding is not None else ""
        return f"tensor<{_shape_str(self.shape)}{self.element}{extra}>"


@dataclass(frozen=True, slots=True)
class UnrankedTensorType(Type):
    element: Type

    def __str__(self) -> str:
        return f"tensor<*x{self.element}>"


@dataclass(frozen=True, slots=True)
class OpaqueType(Type):
    """A dialect type we do not model, kept verbatim: ``!llvm.ptr``, ``!foo<"bar">``."""

    text: str

    def __str__(self) -> str:
        return self.text


# Short names used all over the project.
i1, i8, i16, i32, i64 = (IntegerType(w) for w in (1, 8, 16, 32, 64))
index = IndexType()
f16, bf16, f32, f64 = (FloatType(n) for n in ("f16", "bf16", "f32", "f64"))

ShapedType = VectorType | MemRefType | TensorType


def is_integer_like(t: Type) -> bool:
    return isinstance(t, (IntegerType, IndexType))


def is_float(t: Type) -> bool:
    return isinstance(t, FloatType)


def element_type(t: Type) -> Type:
    """The element type of a shaped type, or the type itself for a scalar."""
    return getattr(t, "element", t)


def bit_width(t: Type) -> int:
    if isinstance(t, IndexType):
        return 64
    return t.width  # type: ignore[attr-defined]


def elem_code(t: Type) -> str:
    """The element-type string the numpy semantics use: 'i32', 'index', 'f16', ..."""
    t = element_type(t)
    if isinstance(t, IntegerType):
        return f"i{t.width}"
    return str(t)
