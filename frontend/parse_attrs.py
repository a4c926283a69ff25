"""The type and attribute layer of the grammar (builtin dialect, affine maps, vector enums)."""

from __future__ import annotations

import re
import struct

from frontend.affine import (
    AffineBinary,
    AffineConstant,
    AffineDim,
    AffineExpr,
    AffineMap,
    AffineSymbol,
)
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
    OpaqueAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    fit_int,
    round_float,
)
from frontend.lexer import ALIAS_ID, FLOAT, SYMBOL_ID, Lexer, unquote
from frontend.types import (
    ComplexType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    OpaqueType,
    TensorType,
    TupleType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
    i64,
)

MAX_INT_WIDTH = 16777215  # MLIR's IntegerType::kMaxWidth
_SCALAR = re.compile(r"(?:(s|u)?i([1-9]\d*)|index|bf16|f16|f32|f64|f80|f128|tf32|none)(?![\w$.])")
_SIMPLE_VECTOR = re.compile(r"vector<((?:\[?\d+\]?x)*)([a-z]+\d*)>")
_DIM = re.compile(r"\s*(?:(\d+)|(\?)|\[(\d+)\])\s*x")
# Enum attributes of the dialects we model: mnemonic -> allowed keywords.
ENUMS: dict[str, tuple[str, ...]] = {
    "vector.kind": (
        "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf",
        "and", "or", "xor", "maximumf", "minimumf",
    ),
    "vector.iterator_type": ("parallel", "reduction"),
    "vector.punctuation": ("no_punctuation", "newline", "comma", "open", "close"),
    "arith.fastmath": (
        "none", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "fast",
    ),
    "arith.overflow": ("none", "nsw", "nuw"),
    "arith.roundingmode": (
        "to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away",
    ),
}


class AttrParser(Lexer):
    """Types, attributes and affine maps; aliases come from ``#name = ...`` definitions."""

    def __init__(self, text: str, file: str = "<input>") -> None:
        super().__init__(text, file)
        self.attr_aliases: dict[str, Attribute] = {}
        self.type_aliases: dict[str, Type] = {}
        self._type_cache: dict[str, Type] = {}

    # -- types --------------------------------------------------------------------------
    def parse_type(self, what: str = "type") -> Type:
        t = self.try_type()
        if t is None:
            raise self.error(f"expected {what}, found {self.found()}")
        return t

    def try_type(self) -> Type | None:
        self.skip_ws()
        text, pos = self.text, self.pos
        m = _SCALAR.match(text, pos)
        if m:
            self.pos = m.end()
            return self._scalar(m)
        if text.startswith("vector<", pos):
            m = _SIMPLE_VECTOR.match(text, pos)
            if m:  # fast path: the common case is cached by its spelling
                key = m.group(0)
                t = self._type_cache.get(key)
                if t is None:
                    t = self._vector()
                    self._type_cache[key] = t
                else:
                    self.pos = m.end()
                return t
            return self._vector()
        if text.startswith("memref<", pos):
            return self._memref()
        if text.startswith("tensor<", pos):
            return self._tensor()
        if self.try_keyword("tuple"):
            self.expect_punct("<")
            types = [] if self.peek(">") else self.parse_type_list()
            self.expect_punct(">")
            return TupleType(tuple(types))
        if self.try_keyword("complex"):
            self.expect_punct("<")
            elem = self.parse_type()
            self.expect_punct(">")
            return ComplexType(elem)
        if text.startswith("(", pos):
            return self.parse_function_type()
        if text.startswith("!", pos):
            return self._dialect_type()
        return None

    def _scalar(self, m: re.Match[str]) -> Type:
        word = m.group(0)
        if m.group(2):
            sign = {"s": "signed", "u": "unsigned", None: "signless"}[m.group(1)]
            width = int(m.group(2))
            if width > MAX_INT_WIDTH:
                raise self.error(f"integer bitwidth is limited to {MAX_INT_WIDTH} bits",
                                 m.start(2))
            return IntegerType(width, sign)
        if word == "index":
            return IndexType()
        if word == "none":
            return NoneType()
        return FloatType(word)

    def parse_type_list(self) -> list[Type]:
        types = [self.parse_type()]
        while self.try_punct(","):
            types.append(self.parse_type())
        return types

    def parse_function_type(self) -> FunctionType:
        self.expect_punct("(")
        inputs = [] if self.peek(")") else self.parse_type_list()
        self.expect_punct(")")
        self.expect_punct("->", "in function type")
        return FunctionType(tuple(inputs), tuple(self.parse_result_types()))

    def parse_result_types(self) -> list[Type]:
        """``T`` or ``(T, U)`` after an arrow; ``()`` for none."""
        if self.peek("("):
            save = self.pos
            self.expect_punct("(")
            if self.try_punct(")"):
                if self.peek("->"):  # `() -> T` is itself a function type
                    self.pos = save
                    return [self.parse_type()]
                return []
            types = self.parse_type_list()
            self.expect_punct(")")
            if self.peek("->"):
                self.pos = save
                return [self.parse_type()]
            return types
        return [self.parse_type()]

    def _dims(self, allow_dynamic: bool) -> tuple[list[int | None], list[bool]]:
        """A ``4x?x[8]x`` prefix: sizes (None for ``?``) and scalable flags."""
        shape: list[int | None] = []
        scalable: list[bool] = []
        while True:
            start = self.pos
            m = _DIM.match(self.text, self.pos)
            if not m:
                return shape, scalable
            if m.group(2) and not allow_dynamic:
                raise self.error("vector dimensions must be static", start)
            if m.group(3) is not None:
                shape.append(int(m.group(3)))
                scalable.append(True)
            else:
                shape.append(None if m.group(2) else int(m.group(1)))
                scalable.append(False)
            self.pos = m.end()

    def _vector(self) -> VectorType:
        start = self.pos
        self.pos += len("vector<")
        shape, scalable = self._dims(allow_dynamic=False)
        if self.peek("["):
            raise self.error("expected a scalable dimension '[N]' followed by 'x'")
        elem_pos = self.pos
        elem = self.parse_type("vector element type")
        if not isinstance(elem, (IntegerType, IndexType, FloatType)) or (
            isinstance(elem, FloatType) and elem.name in ("f80", "f128")
        ):
            raise self.error(f"vector elements must be integer, index or float, not {elem}",
                             elem_pos)
        self.expect_punct(">", "to close vector type")
        if any(s == 0 for s in shape):
            raise self.error("vector types must have positive constant sizes", start)
        return VectorType(tuple(shape), elem, tuple(scalable))  # type: ignore[arg-type]

    def _memref(self) -> Type:
        self.pos += len("memref<")
        if self.try_punct("*"):
            self.expect_keyword("x")
            elem = self.parse_type("memref element type")
            space = self.parse_attribute() if self.try_punct(",") else None
            self.expect_punct(">")
            return UnrankedMemRefType(elem, space)
        shape, _ = self._dims(allow_dynamic=True)
        elem = self.parse_type("memref element type")
        layout = space = None
        if self.try_punct(","):
            first = self.parse_attribute()
            if isinstance(first, (StridedLayoutAttr, AffineMapAttr)):
                layout = first
                if self.try_punct(","):
                    space = self.parse_attribute()
            else:
                space = first
        self.expect_punct(">", "to close memref type")
        return MemRefType(tuple(shape), elem, layout, space)

    def _tensor(self) -> Type:
        self.pos += len("tensor<")
        if self.try_punct("*"):
            self.expect_keyword("x")
            elem = self.parse_type()
            self.expect_punct(">")
            return UnrankedTensorType(elem)
        shape, _ = self._dims(allow_dynamic=True)
        elem = self.parse_type("tensor element type")
        encoding = self.parse_attribute() if self.try_punct(",") else None
        self.expect_punct(">")
        return TensorType(tuple(shape), elem, encoding)

    def _dialect_type(self) -> Type:
        start = self.pos
        name = self.try_regex(ALIAS_ID)
        if name is None:
            raise self.error("expected type alias or dialect type after '!'")
        if name in self.type_aliases and not self.text.startswith("<", self.pos):
            return self.type_aliases[name]
        if self.text.startswith("<", self.pos):
            self.balanced("<", ">")
        elif "." not in name:
            raise self.error(f"undefined type alias {name}", start)
        return OpaqueType(self.text[start : self.pos])

    # -- attributes ---------------------------------------------------------------------
    def parse_attribute(self, what: str = "attribute") -> Attribute:
        a = self.try_attribute()
        if a is None:
            raise self.error(f"expected {what}, found {self.found()}")
        return a

    def try_attribute(self) -> Attribute | None:
        self.skip_ws()
        text, pos = self.text, self.pos
        c = text[pos : pos + 1]
        if c == "[":
            self.pos += 1
            items: list[Attribute] = []
            if not self.try_punct("]"):
                items.append(self.parse_attribute())
                while self.try_punct(","):
                    items.append(self.parse_attribute())
                self.expect_punct("]", "to close array attribute")
            return ArrayAttr(tuple(items))
        if c == "{":
            return self.parse_attr_dict()
        if c == '"':
            value = self.expect_string()
            if self.try_punct(":"):  # a typed string is still a string for us
                self.parse_type()
            return StringAttr(value)
        if c == "@":
            return self._symbol_ref()
        if c == "#":
            return self._hash_attribute()
        if FLOAT.match(text, pos):
            value = float(self.try_regex(FLOAT))  # type: ignore[arg-type]
            t = self.parse_type() if self.try_punct(":") else FloatType("f64")
            if not isinstance(t, FloatType):
                raise self.error(f"floating point value not valid for type {t}", pos)
            return FloatAttr(round_float(value, t.name), t)
        if c.isdigit() or (c == "-" and text[pos + 1 : pos + 2].isdigit()):
            return self._integer_attr()
        for word, build in _KEYWORD_ATTRS.items():
            if text.startswith(word, pos) and self.try_keyword(word):
                return build(self)
        t = self.try_type()
        return None if t is None else TypeAttr(t)

    def _integer_attr(self) -> Attribute:
        start = self.pos
        value = self.expect_int()
        literal = self.text[start : self.pos]
        t = self.parse_type() if self.try_punct(":") else i64
        if isinstance(t, FloatType):  # only a hexadecimal bit pattern may denote a float
            if "x" not in literal:
                raise self.error("unexpected decimal integer literal for a floating point "
                                 "value (add a '.' to make it a float)", start)
            if value < 0:
                raise self.error("hexadecimal float literal should not have a leading minus",
                                 start)
            try:
                return FloatAttr(bits_to_float(value, t.name), t)
            except ValueError as e:
                raise self.error(str(e), start) from None
        if not isinstance(t, (IntegerType, IndexType)):
            raise self.error(f"integer literal with non-integer type {t}", start)
        fitted = fit_int(value, t)
        if fitted is None:
            raise self.error(f"integer constant out of range for type {t}", start)
        return IntegerAttr(fitted, t)

    def parse_attr_dict(self) -> DictAttr:
        self.expect_punct("{")
        entries: list[tuple[str, Attribute]] = []
        seen: set[str] = set()
        if not self.try_punct("}"):
            while True:
                start = self.pos
                name = self.try_bare_id() or self.try_string()
                if name is None:
                    raise self.error(f"expected attribute name, found {self.found()}")
                if name in seen:
                    raise self.error(f"duplicate key '{name}' in dictionary attribute", start)
                seen.add(name)
                value = self.parse_attribute() if self.try_punct("=") else UnitAttr()
                entries.append((name, value))
                if self.try_punct("}"):
                    break
                self.expect_punct(",", "or '}' in attribute dictionary")
        return DictAttr(tuple(entries))

    def _symbol_ref(self) -> SymbolRefAttr:
        names = [self._symbol_name()]
        while self.try_punct("::"):
            names.append(self._symbol_name())
        return SymbolRefAttr(names[0], tuple(names[1:]))

    def _symbol_name(self) -> str:
        tok = self.try_regex(SYMBOL_ID)
        if tok is None:
            raise self.error(f"expected symbol reference, found {self.found()}")
        return unquote(tok[1:]) if tok[1] == '"' else tok[1:]

    def _hash_attribute(self) -> Attribute:
        start = self.pos
        name = self.try_regex(ALIAS_ID)
        if name is None:
            raise self.error("expected attribute alias or dialect attribute after '#'")
        mnemonic = name[1:]
        if mnemonic in ENUMS and self.peek("<"):
            return EnumAttr(mnemonic, self.parse_enum_body(mnemonic))
        if not self.text.startswith("<", self.pos):
            if name in self.attr_aliases:
                return self.attr_aliases[name]
            raise self.error(f"undefined attribute alias {name}", start)
        self.balanced("<", ">")
        return OpaqueAttr(self.text[start : self.pos])

    def parse_enum_body(self, mnemonic: str) -> str:
        """``<kw>`` or ``<kw1,kw2>`` with keywords from ``ENUMS[mnemonic]``."""
        self.expect_punct("<")
        words = [self._enum_word(mnemonic)]
        while self.try_punct(","):
            words.append(self._enum_word(mnemonic))
        self.expect_punct(">")
        return ",".join(words)

    def _enum_word(self, mnemonic: str) -> str:
        start = self.pos
        word = self.try_bare_id()
        if word not in ENUMS[mnemonic]:
            self.pos = start
            allowed = ", ".join(ENUMS[mnemonic])
            raise self.error(f"expected #{mnemonic} value (one of {allowed}), found {self.found()}")
        return word  # type: ignore[return-value]

    # -- keyword-led attributes -----------------------------------------------------------
    def _affine_map_attr(self) -> AffineMapAttr:
        self.expect_punct("<")
        m = self.parse_affine_map()
        self.expect_punct(">", "to close affine_map")
        return AffineMapAttr(m)

    def parse_affine_map(self) -> AffineMap:
        """``(d0, d1)[s0] -> (exprs)``; dim and symbol names may be any identifiers."""
        self.expect_punct("(", "to open affine map dimensions")
        names: dict[str, AffineExpr] = {}
        dims = self._id_list(")")
        for i, n in enumerate(dims):
            names[n] = AffineDim(i)
        syms: list[str] = []
        if self.try_punct("["):
            syms = self._id_list("]")
            for i, n in enumerate(syms):
                names[n] = AffineSymbol(i)
        self.expect_punct("->", "in affine map")
        self.expect_punct("(")
        results: list[AffineExpr] = []
        if not self.try_punct(")"):
            results.append(self._affine_expr(names))
            while self.try_punct(","):
                results.append(self._affine_expr(names))
            self.expect_punct(")", "to close affine map results")
        return AffineMap(len(dims), len(syms), tuple(results))

    def _id_list(self, close: str) -> list[str]:
        ids: list[str] = []
        if self.try_punct(close):
            return ids
        ids.append(self.expect_bare_id("affine dimension or symbol name"))
        while self.try_punct(","):
            ids.append(self.expect_bare_id("affine dimension or symbol name"))
        self.expect_punct(close)
        return ids

    def _affine_expr(self, names: dict[str, AffineExpr]) -> AffineExpr:
        lhs = self._affine_term(names)
        while True:
            if self.try_punct("+"):
                lhs = AffineBinary("+", lhs, self._affine_term(names))
            elif self.peek("-") and not self.peek("->"):
                self.expect_punct("-")
                rhs = self._affine_term(names)
                lhs = AffineBinary("+", lhs, _negate(rhs))
            else:
                return lhs

    def _affine_term(self, names: dict[str, AffineExpr]) -> AffineExpr:
        lhs = self._affine_factor(names)
        while True:
            if self.try_punct("*"):
                op = "*"
            else:
                op = next((w for w in ("floordiv", "ceildiv", "mod") if self.try_keyword(w)), "")
                if not op:
                    return lhs
            lhs = AffineBinary(op, lhs, self._affine_factor(names))

    def _affine_factor(self, names: dict[str, AffineExpr]) -> AffineExpr:
        if self.try_punct("("):
            e = self._affine_expr(names)
            self.expect_punct(")")
            return e
        if self.peek("-") and not self.peek("->"):
            self.expect_punct("-")
            return _negate(self._affine_factor(names))
        value = self.try_int()
        if value is not None:
            return AffineConstant(value)
        start = self.pos
        name = self.try_bare_id()
        if name is None or name not in names:
            self.pos = start
            raise self.error(f"expected affine dimension, symbol or constant, found {self.found()}")
        return names[name]

    def _dense_array(self) -> DenseArrayAttr:
        self.expect_punct("<")
        start = self.pos
        elem = self.expect_bare_id("dense array element type")
        if not re.fullmatch(r"i(1|8|16|32|64)|f(32|64)", elem):
            raise self.error(f"unsupported dense array element type '{elem}'", start)
        values: list[object] = []
        if self.try_punct(":"):
            values.append(self._array_element(elem))
            while self.try_punct(","):
                values.append(self._array_element(elem))
        self.expect_punct(">", "to close array<...>")
        return DenseArrayAttr(elem, tuple(values))

    def _array_element(self, elem: str) -> object:
        if elem == "i1":
            if self.try_keyword("true"):
                return True
            self.expect_keyword("false")
            return False
        if elem.startswith("f"):
            f = self.try_regex(FLOAT)
            value = float(f) if f is not None else float(self.expect_int("float"))
            return round_float(value, elem)
        self.skip_ws()
        start = self.pos
        value = fit_int(self.expect_int(), IntegerType(int(elem[1:])))
        if value is None:
            raise self.error(f"integer constant out of range for {elem}", start)
        return value

    def _dense(self) -> DenseElementsAttr:
        self.expect_punct("<")
        start = self.pos
        literal: object = None
        if self.peek(">"):
            literal = []
        elif self.peek('"'):
            literal = self.expect_string()
        else:
            literal = self._dense_literal()
        self.expect_punct(">", "to close dense<...>")
        self.expect_punct(":", "and a type after dense<...>")
        type_pos = self.pos
        t = self.parse_type()
        shape = getattr(t, "shape", None)
        elem = getattr(t, "element", None)
        if shape is None or any(s is None for s in shape):
            raise self.error(f"dense<...> needs a statically shaped type, not {t}", type_pos)
        from frontend.dense import flatten_dense

        try:
            values = flatten_dense(literal, shape, elem)
        except ValueError as e:
            raise self.error(str(e), start) from None
        return DenseElementsAttr(t, values)

    def _dense_literal(self) -> object:
        if self.try_punct("["):
            items: list[object] = []
            if not self.try_punct("]"):
                items.append(self._dense_literal())
                while self.try_punct(","):
                    items.append(self._dense_literal())
                self.expect_punct("]")
            return items
        if self.try_punct("("):  # complex (re, im)
            re_ = self._dense_literal()
            self.expect_punct(",")
            im = self._dense_literal()
            self.expect_punct(")")
            return (re_, im)
        if self.try_keyword("true"):
            return True
        if self.try_keyword("false"):
            return False
        f = self.try_regex(FLOAT)
        if f is not None:
            return float(f)
        for word, value in (("inf", float("inf")), ("nan", float("nan"))):
            if self.try_keyword(word):
                return value
        self.skip_ws()
        hex_start = self.pos
        v = self.expect_int("dense element")
        if self.text.startswith("0x", hex_start):
            return ("hex", v)
        return v

    def _strided(self) -> StridedLayoutAttr:
        self.expect_punct("<")
        self.expect_punct("[")
        strides: list[int | None] = []
        if not self.try_punct("]"):
            strides.append(self._int_or_dynamic())
            while self.try_punct(","):
                strides.append(self._int_or_dynamic())
            self.expect_punct("]")
        offset: int | None = 0
        if self.try_punct(","):
            self.expect_keyword("offset")
            self.expect_punct(":")
            offset = self._int_or_dynamic()
        self.expect_punct(">")
        return StridedLayoutAttr(tuple(strides), offset)

    def _int_or_dynamic(self) -> int | None:
        if self.try_punct("?"):
            return None
        return self.expect_i64("stride, offset or '?'")

    def _opaque_keyword(self, word: str) -> OpaqueAttr:
        body = self.balanced("<", ">") if self.peek("<") else ""
        if word == "distinct":
            body = self.balanced("[", "]") + self.balanced("<", ">")
        if self.try_punct(":"):
            body += " : " + str(self.parse_type())
        return OpaqueAttr(word + body)


def _negate(e: AffineExpr) -> AffineExpr:
    if isinstance(e, AffineConstant):
        return AffineConstant(-e.value)
    return AffineBinary("*", e, AffineConstant(-1))


_FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def bits_to_float(bits: int, type_name: str) -> float:
    """A float from its IEEE bit pattern (``0x7FC00000 : f32`` is a NaN)."""
    width = _FLOAT_BITS.get(type_name)
    if width is None:
        raise ValueError(f"hexadecimal float literals of type {type_name} are not supported")
    if not 0 <= bits < (1 << width):
        raise ValueError(f"hexadecimal float constant out of range for type {type_name}")
    if type_name == "f16":
        return struct.unpack("<e", bits.to_bytes(2, "little"))[0]
    if type_name == "bf16":
        return struct.unpack("<f", (bits << 16).to_bytes(4, "little"))[0]
    if type_name == "f32":
        return struct.unpack("<f", bits.to_bytes(4, "little"))[0]
    return struct.unpack("<d", bits.to_bytes(8, "little"))[0]


_KEYWORD_ATTRS = {
    "true": lambda p: IntegerAttr(1, IntegerType(1)),
    "false": lambda p: IntegerAttr(0, IntegerType(1)),
    "unit": lambda p: UnitAttr(),
    "affine_map": AttrParser._affine_map_attr,
    "array": AttrParser._dense_array,
    "dense": AttrParser._dense,
    "strided": AttrParser._strided,
    "dense_resource": lambda p: p._opaque_keyword("dense_resource"),
    "sparse": lambda p: p._opaque_keyword("sparse"),
    "affine_set": lambda p: p._opaque_keyword("affine_set"),
    "distinct": lambda p: p._opaque_keyword("distinct"),
    "opaque": lambda p: p._opaque_keyword("opaque"),
}
