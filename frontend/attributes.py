"""MLIR attributes as immutable, hashable values that print themselves in MLIR syntax."""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from typing import Any

from frontend.affine import AffineMap
from frontend.types import FloatType, IndexType, IntegerType, Type, i1, i64


class Attribute:
    """Base of every attribute; subclasses are frozen dataclasses."""


@dataclass(frozen=True, slots=True)
class IntegerAttr(Attribute):
    value: int
    type: Type = i64

    def __str__(self) -> str:
        if self.type == i1:
            return "true" if self.value else "false"
        return str(self.value) if self.type == i64 else f"{self.value} : {self.type}"


_PLAIN = re.compile(r"[ !#-\[\]-~]*")  # printable ASCII but '"' and '\\': quoted as is
_BARE_KEY = re.compile(r"[A-Za-z_][\w$.]*")
_BARE_SYMBOL = re.compile(r"[A-Za-z_$.][\w$.\-]*")


def fit_int(value: int, t: Type) -> int | None:
    """``value`` as MLIR stores it in ``t`` (``255 : i8`` is -1), or None if it does not fit.

    Signless integers wrap from the unsigned range, as MLIR's APInt does (``siN`` does not:
    MLIR rejects ``255 : si8``); ``i1`` stays 0/1 (it prints as ``false``/``true``).
    """
    width = 64 if isinstance(t, IndexType) else t.width  # type: ignore[attr-defined]
    unsigned = isinstance(t, IntegerType) and t.signedness == "unsigned"
    signed = isinstance(t, IntegerType) and t.signedness == "signed"
    lo = 0 if unsigned else -(1 << (width - 1))
    hi = 1 << (width - 1 if signed and width > 1 else width)  # siN: no wrap from the top
    if not lo <= value < hi:
        return None
    if unsigned or width == 1 or value < (1 << (width - 1)):
        return value if width != 1 else value & 1
    return value - (1 << width)


# Mantissa bits of the narrow float types. A NaN of one of them is held in a Python float
# with its mantissa shifted up into float64's: its quiet bit and payload survive (a C
# float -> double conversion would quiet a signalling NaN, and struct's f16 drops payloads).
_MANTISSA = {"f16": 10, "bf16": 7, "f32": 23}


def narrow_nan_to_float(bits: int, type_name: str) -> float:
    """The Python float holding the NaN of ``type_name`` with IEEE bit pattern ``bits``."""
    m = _MANTISSA[type_name]
    width = {"f16": 16, "bf16": 16, "f32": 32}[type_name]
    sign = bits >> (width - 1) & 1
    mantissa = bits & ((1 << m) - 1)
    wide = sign << 63 | 0x7FF << 52 | mantissa << (52 - m)
    return struct.unpack("<d", wide.to_bytes(8, "little"))[0]


def float_to_narrow_nan(value: float, type_name: str) -> int:
    """The bit pattern of NaN ``value`` in ``type_name`` (inverse of ``narrow_nan_to_float``;
    a payload only in bits the type lacks becomes the quiet NaN)."""
    m = _MANTISSA[type_name]
    width = {"f16": 16, "bf16": 16, "f32": 32}[type_name]
    wide = struct.unpack("<Q", struct.pack("<d", value))[0]
    mantissa = (wide & ((1 << 52) - 1)) >> (52 - m) or 1 << (m - 1)
    return (wide >> 63) << (width - 1) | ((1 << (width - 1 - m)) - 1) << m | mantissa


def round_float(value: float, type_name: str) -> float:
    """``value`` rounded to the precision of ``type_name`` (overflow gives +-inf, as in MLIR)."""
    if value != value and type_name in _MANTISSA:  # NaN: keep what the type can hold
        return narrow_nan_to_float(float_to_narrow_nan(value, type_name), type_name)
    if type_name in _PACK and type_name != "f64" and math.isfinite(value):
        try:
            return struct.unpack(_PACK[type_name], struct.pack(_PACK[type_name], value))[0]
        except (OverflowError, struct.error):
            return math.copysign(math.inf, value)
    if type_name == "bf16" and math.isfinite(value):
        bits = struct.unpack("<I", struct.pack("<f", round_float(value, "f32")))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even
        return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    return value


def BoolAttr(value: bool) -> IntegerAttr:
    return IntegerAttr(int(bool(value)), i1)


_PACK = {"f16": "<e", "f32": "<f", "f64": "<d"}


def format_float(value: float, type_name: str = "f64") -> str:
    """A float literal that reads back to the same value in ``type_name``'s precision.

    MLIR prints ``%e`` with six digits when that round-trips; otherwise it needs more
    digits. NaNs keep their payload through the hexadecimal form, as MLIR prints them.
    """
    if math.isnan(value) and type_name in _MANTISSA:
        digits = {"f16": 4, "bf16": 4, "f32": 8}[type_name]
        return f"0x{float_to_narrow_nan(value, type_name):0{digits}X}"
    if math.isnan(value) or math.isinf(value):
        if type_name in _PACK:
            raw = struct.pack(_PACK[type_name], value)
            return "0x" + raw[::-1].hex().upper()
        if type_name == "bf16":
            raw = struct.pack("<f", value)
            return "0x" + raw[::-1].hex().upper()[:4]
    short = f"{value:.6e}"
    if _same_in(float(short), value, type_name):
        return short
    return (
        repr(float(value))
        if "e" in repr(float(value)) or "." in repr(float(value))
        else (f"{value:.17e}")
    )


def _same_in(a: float, b: float, type_name: str) -> bool:
    if type_name in ("f16", "f32"):
        try:
            return struct.pack(_PACK[type_name], a) == struct.pack(_PACK[type_name], b)
        except (OverflowError, struct.error):
            return False
    if type_name == "bf16":
        return struct.pack("<f", a)[2:] == struct.pack("<f", b)[2:] and a == b
    return a == b


@dataclass(frozen=True, slots=True)
class FloatAttr(Attribute):
    value: float
    type: Type

    def __str__(self) -> str:
        return f"{format_float(self.value, str(self.type))} : {self.type}"


@dataclass(frozen=True, slots=True)
class StringAttr(Attribute):
    value: str

    def __str__(self) -> str:
        return quote(self.value)


def quote(s: str) -> str:
    """MLIR string literal: printable ASCII kept, quotes/backslashes/others as ``\\XX``."""
    if _PLAIN.fullmatch(s):
        return f'"{s}"'
    out = []
    for ch in s.encode("utf-8", errors="surrogateescape"):
        c = chr(ch)
        if c in '"\\' or not (32 <= ch < 127):
            out.append("\\" + format(ch, "02X") if c not in '"\\' else "\\" + c)
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


@dataclass(frozen=True, slots=True)
class UnitAttr(Attribute):
    def __str__(self) -> str:
        return "unit"


@dataclass(frozen=True, slots=True)
class ArrayAttr(Attribute):
    values: tuple[Attribute, ...]

    def __str__(self) -> str:
        return f"[{', '.join(map(str, self.values))}]"

    def __iter__(self):
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def ints(self) -> tuple[int, ...]:
        return tuple(v.value for v in self.values)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class DictAttr(Attribute):
    entries: tuple[tuple[str, Attribute], ...]

    def __post_init__(self) -> None:
        # Sorted by name like MLIR's DictionaryAttr: equal dictionaries compare equal.
        object.__setattr__(self, "entries", tuple(sorted(self.entries, key=lambda e: e[0])))

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.entries:
            if key == name:
                return value
        return default

    def __str__(self) -> str:
        return "{" + ", ".join(format_entry(k, v) for k, v in self.entries) + "}"


def format_key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else quote(name)


def format_entry(name: str, value: Attribute) -> str:
    known = _ENTRIES.get(id(value))  # by identity, as types.VectorType.__str__
    if known is not None and known[0] is value and known[1] == name:
        return known[2]
    text = format_key(name) if isinstance(value, UnitAttr) else f"{format_key(name)} = {value}"
    if len(_ENTRIES) >= 4096:
        _ENTRIES.clear()
    _ENTRIES[id(value)] = (value, name, text)
    return text


_ENTRIES: dict[int, tuple[Attribute, str, str]] = {}  # the dictionary entries printed lately


@dataclass(frozen=True, slots=True)
class DenseArrayAttr(Attribute):
    """``array<i64: 1, 2>``: the element type name and the values."""

    element: str
    values: tuple[Any, ...]

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element}>"
        if self.element == "i1":
            body = ", ".join("true" if v else "false" for v in self.values)
        elif self.element.startswith("f"):
            body = ", ".join(format_float(v, self.element) for v in self.values)
        else:
            body = ", ".join(map(str, self.values))
        return f"array<{self.element}: {body}>"

    def __iter__(self):
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


@dataclass(frozen=True, slots=True)
class DenseElementsAttr(Attribute):
    """``dense<...> : vector<2x2xf32>``; ``values`` is flat, row-major; one value is a splat."""

    type: Type
    values: tuple[Any, ...]

    def __post_init__(self) -> None:
        # Equal elements are stored as a splat, as MLIR does: one value, one spelling.
        vals = self.values
        if len(vals) > 1:
            first = _bits(vals[0])
            if all(_bits(v) == first for v in vals):
                object.__setattr__(self, "values", vals[:1])

    @property
    def is_splat(self) -> bool:
        return len(self.values) == 1

    def __str__(self) -> str:
        elem = getattr(self.type, "element", self.type)
        shape = tuple(getattr(self.type, "shape", ()))
        count = math.prod(shape)
        if count == 0:
            return f"dense<> : {self.type}"

        def lit(v: Any) -> str:
            if isinstance(elem, IntegerType) and elem.width == 1:
                return "true" if v else "false"
            if isinstance(elem, FloatType):
                return format_float(v, elem.name)
            return str(int(v))

        if self.is_splat:
            return f"dense<{lit(self.values[0])}> : {self.type}"

        def nest(vals: list[str], dims: tuple[int, ...]) -> str:
            if not dims:
                return vals[0]
            step = len(vals) // dims[0]
            parts = [nest(vals[i * step : (i + 1) * step], dims[1:]) for i in range(dims[0])]
            return "[" + ", ".join(parts) + "]"

        return f"dense<{nest([lit(v) for v in self.values], shape)}> : {self.type}"


def _bits(v: Any) -> Any:
    """Identity of an element: floats by bit pattern (``-0.0`` differs, NaN equals itself)."""
    return struct.pack("<d", v) if isinstance(v, float) else v


@dataclass(frozen=True, slots=True)
class AffineMapAttr(Attribute):
    map: AffineMap

    def __str__(self) -> str:
        return f"affine_map<{self.map}>"


@dataclass(frozen=True, slots=True)
class TypeAttr(Attribute):
    type: Type

    def __str__(self) -> str:
        return str(self.type)


@dataclass(frozen=True, slots=True)
class SymbolRefAttr(Attribute):
    root: str
    nested: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "::".join(f"@{format_symbol(n)}" for n in (self.root, *self.nested))


def format_symbol(name: str) -> str:
    return name if _BARE_SYMBOL.fullmatch(name) else quote(name)


@dataclass(frozen=True, slots=True)
class EnumAttr(Attribute):
    """A dialect enum such as ``#vector.kind<add>`` or ``#arith.fastmath<fast>``.

    ``mnemonic`` is ``vector.kind``; ``value`` the keyword (several joined by ``,``).
    """

    mnemonic: str
    value: str

    def __str__(self) -> str:
        return f"#{self.mnemonic}<{self.value}>"


@dataclass(frozen=True, slots=True)
class StridedLayoutAttr(Attribute):
    """``strided<[?, 1], offset: ?>``; ``None`` stands for a dynamic ``?``."""

    strides: tuple[int | None, ...]
    offset: int | None = 0

    def __str__(self) -> str:
        strides = ", ".join("?" if s is None else str(s) for s in self.strides)
        if self.offset == 0:
            return f"strided<[{strides}]>"
        off = "?" if self.offset is None else str(self.offset)
        return f"strided<[{strides}], offset: {off}>"


@dataclass(frozen=True, slots=True)
class OpaqueAttr(Attribute):
    """An attribute of a dialect we do not model, kept verbatim (``#gpu.address_space<..>``)."""

    text: str

    def __str__(self) -> str:
        return self.text


def int_attr(value: int, type: Type = i64) -> IntegerAttr:
    return IntegerAttr(int(value), type)


def index_attr(value: int) -> IntegerAttr:
    return IntegerAttr(int(value), IndexType())


def i64_array(values: tuple[int, ...] | list[int]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(int(v) for v in values))


def int_array(values: tuple[int, ...] | list[int]) -> ArrayAttr:
    """The older ``[1, 2]`` ArrayAttr of i64 that strided-slice ops still use."""
    return ArrayAttr(tuple(IntegerAttr(int(v)) for v in values))
