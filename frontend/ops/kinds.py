"""Attribute kinds: how each attribute is spelled in custom formats and what it may hold."""

from __future__ import annotations

from typing import Any

from frontend.affine import AffineMap
from frontend.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DictAttr,
    EnumAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    format_symbol,
)
from frontend.ops.spec import AttrKind
from frontend.types import FunctionType, IndexType, Type, i1, i32, i64


def _dense_i64(a: Attribute) -> bool:
    return isinstance(a, DenseArrayAttr) and a.element == "i64"


def _parse_i64_list(p: Any) -> DenseArrayAttr:
    common = p.try_int_list()  # the usual spelling, in one match
    if common is not None:
        return DenseArrayAttr("i64", common)
    p.expect_punct("[", "to open integer list")
    values: list[int] = []
    if not p.try_punct("]"):
        values.append(p.expect_i64())
        while p.try_punct(","):
            values.append(p.expect_i64())
        p.expect_punct("]", "to close integer list")
    return DenseArrayAttr("i64", tuple(values))


def _int_values(x: Any) -> tuple[int, ...]:
    """Integers of a Python sequence, an ArrayAttr of IntegerAttr or a DenseArrayAttr."""
    if isinstance(x, (ArrayAttr, DenseArrayAttr)):
        x = [v.value if isinstance(v, IntegerAttr) else v for v in x.values]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in x):
        raise ValueError("expected integers")
    return tuple(x)


I64_LIST = AttrKind(
    "i64 dense array",
    _dense_i64,
    parse=_parse_i64_list,
    show=lambda a: "[" + ", ".join(map(str, a.values)) + "]",  # type: ignore[attr-defined]
    build=lambda x: DenseArrayAttr("i64", _int_values(x)),
    pattern=r"\[[^\[\]]*\]",
)


def _int_array(a: Attribute) -> bool:
    return isinstance(a, ArrayAttr) and all(
        isinstance(v, IntegerAttr) and v.type == i64 for v in a.values
    )


I32_DENSE = AttrKind(
    "i32 dense array",
    lambda a: isinstance(a, DenseArrayAttr) and a.element == "i32",
    build=lambda x: DenseArrayAttr("i32", _int_values(x)),
)
I64_ARRAY = AttrKind(
    "64-bit integer array attribute",
    _int_array,
    build=lambda x: ArrayAttr(tuple(IntegerAttr(v, i64) for v in _int_values(x))),
)
BOOL_ARRAY = AttrKind(
    "1-bit boolean array attribute",
    lambda a: isinstance(a, ArrayAttr)
    and all(isinstance(v, IntegerAttr) and v.type == i1 for v in a.values),
    build=lambda x: ArrayAttr(tuple(IntegerAttr(int(bool(v)), i1) for v in x)),
)


def enum_kind(mnemonic: str) -> AttrKind:
    """``#vector.kind<add>`` generically, ``<add>`` in custom formats."""

    def parse(p: Any) -> EnumAttr:
        if p.peek("#"):
            a = p.parse_attribute()
            if not (isinstance(a, EnumAttr) and a.mnemonic == mnemonic):
                raise p.error(f"expected #{mnemonic}<...>")
            return a
        return EnumAttr(mnemonic, p.parse_enum_body(mnemonic))

    return AttrKind(
        f"#{mnemonic} attribute",
        lambda a: isinstance(a, EnumAttr) and a.mnemonic == mnemonic,
        parse=parse,
        show=lambda a: f"<{a.value}>",  # type: ignore[attr-defined]
        build=lambda x: EnumAttr(mnemonic, _enum_value(mnemonic, x)),
        enum=mnemonic,
        pattern=r"<[^<>]*>",
    )


def _enum_value(mnemonic: str, x: Any) -> str:
    from frontend.parse_attrs import ENUMS

    words = x.split(",") if isinstance(x, str) else list(x)
    if not words or any(w not in ENUMS[mnemonic] for w in words):
        raise ValueError(f"expected one of {', '.join(ENUMS[mnemonic])}")
    return ",".join(words)


COMBINING_KIND = enum_kind("vector.kind")
PUNCTUATION = enum_kind("vector.punctuation")
FASTMATH = enum_kind("arith.fastmath")
LLVM_FASTMATH = enum_kind("llvm.fastmath")
OVERFLOW = enum_kind("arith.overflow")
ROUNDING = enum_kind("arith.roundingmode")


def _parse_int(p: Any) -> IntegerAttr:
    return IntegerAttr(p.expect_i64(), i64)


I64 = AttrKind(
    "64-bit signless integer attribute",
    lambda a: isinstance(a, IntegerAttr) and a.type == i64,
    parse=_parse_int,
    show=lambda a: str(a.value),  # type: ignore[attr-defined]
    build=lambda x: IntegerAttr(_int_values([x])[0], i64),
    pattern=r"-?\d+",
)
I32 = AttrKind(
    "32-bit signless integer attribute",
    lambda a: isinstance(a, IntegerAttr) and a.type == i32,
    build=lambda x: IntegerAttr(_int_values([x])[0], i32),
)
INDEX_ATTR = AttrKind(
    "index attribute",
    lambda a: isinstance(a, IntegerAttr),
    build=lambda x: IntegerAttr(_int_values([x])[0], IndexType()),
)
BOOL = AttrKind(
    "bool attribute",
    lambda a: isinstance(a, IntegerAttr) and a.type == i1,
    build=lambda x: IntegerAttr(int(bool(x)), i1),
)
UNIT = AttrKind(
    "unit attribute", lambda a: isinstance(a, UnitAttr), build=lambda x: UnitAttr() if x else x
)
STRING = AttrKind(
    "string attribute",
    lambda a: isinstance(a, StringAttr),
    parse=lambda p: StringAttr(p.expect_string()),
    show=str,
    build=StringAttr,
)
SYMBOL_NAME = AttrKind(
    "symbol name",
    lambda a: isinstance(a, StringAttr),
    parse=lambda p: StringAttr(p._symbol_name()),
    show=lambda a: f"@{format_symbol(a.value)}",  # type: ignore[attr-defined]
    build=lambda x: StringAttr(x.removeprefix("@")),
)
SYMBOL_REF = AttrKind(
    "symbol reference",
    lambda a: isinstance(a, SymbolRefAttr),
    build=lambda x: SymbolRefAttr(x.removeprefix("@")),
)
AFFINE_MAP = AttrKind(
    "AffineMap attribute", lambda a: isinstance(a, AffineMapAttr), build=AffineMapAttr
)
# Any affine map (affine.apply/min/max: sums, products, divisions): a kind of its own, so
# the e-graph keeps it as text (eqsat.schema's Map sort holds projected permutations only).
INDEX_MAP = AttrKind(
    "AffineMap attribute", lambda a: isinstance(a, AffineMapAttr), build=AffineMapAttr
)


def _map_attr(x: Any) -> AffineMapAttr:
    if isinstance(x, AffineMap):
        return AffineMapAttr(x)
    if isinstance(x, AffineMapAttr):
        return x
    raise ValueError("expected an AffineMap")


MAP_ARRAY = AttrKind(
    "array of affine maps",
    lambda a: isinstance(a, ArrayAttr) and all(isinstance(v, AffineMapAttr) for v in a.values),
    build=lambda x: ArrayAttr(tuple(_map_attr(m) for m in x)),
)
ITERATOR_ARRAY = AttrKind(
    "array of #vector.iterator_type",
    lambda a: isinstance(a, ArrayAttr)
    and all(
        (isinstance(v, EnumAttr) and v.mnemonic == "vector.iterator_type")
        or (isinstance(v, StringAttr) and v.value in ("parallel", "reduction"))
        for v in a.values
    ),
    build=lambda x: ArrayAttr(
        tuple(EnumAttr("vector.iterator_type", _enum_value("vector.iterator_type", v)) for v in x)
    ),
)


def _type_attr(x: Any) -> TypeAttr:
    if not isinstance(x, Type):
        raise TypeError("expected a type")
    return TypeAttr(x)


TYPE = AttrKind("type attribute", lambda a: isinstance(a, TypeAttr), build=_type_attr)
FUNCTION_TYPE = AttrKind(
    "function type",
    lambda a: isinstance(a, TypeAttr) and isinstance(a.type, FunctionType),
    build=_type_attr,
)
ANY_ATTR = AttrKind("attribute", lambda a: True)
TYPED_VALUE = AttrKind(
    "typed constant",
    lambda a: isinstance(a, (IntegerAttr, FloatAttr, DenseElementsAttr)),
    # `0 : index`, `1.5 : f32`, `dense<0.0> : vector<4xf32>`, `true`: read by parse_attribute
    pattern=r"(?:(?:dense<[^<>!#]*>|-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)[ \t]*:[ \t]*"
    r"(?:(?:vector|tensor)<[^<>()!#]*>|[a-z][a-z0-9]*)|true|false)",
)
DICT_ARRAY = AttrKind(
    "array of dictionaries",
    lambda a: isinstance(a, ArrayAttr) and all(isinstance(v, DictAttr) for v in a.values),
    build=lambda x: ArrayAttr(
        tuple(v if isinstance(v, DictAttr) else DictAttr(tuple(v.items())) for v in x)
    ),
)


def predicate_kind(names: tuple[str, ...]) -> AttrKind:
    """Comparison predicates: stored as i64 like MLIR, spelled by keyword in custom form."""

    def parse(p: Any) -> IntegerAttr:
        start = p.pos
        word = p.try_bare_id()
        if word is None:
            s = p.try_string()  # older spelling: "slt"
            word = s
        if word not in names:
            p.pos = start
            raise p.error(f"expected predicate (one of {', '.join(names)}), found {p.found()}")
        return IntegerAttr(names.index(word), i64)

    return AttrKind(
        "comparison predicate",
        lambda a: isinstance(a, IntegerAttr) and 0 <= a.value < len(names),
        parse=parse,
        show=lambda a: names[a.value],  # type: ignore[attr-defined]
        build=lambda x: IntegerAttr(names.index(x), i64),
        pattern=r"[A-Za-z_]\w*",
    )
