"""The attribute layer of the grammar (builtin dialect, affine maps, vector enums); types are
``frontend.parse_types``."""

from __future__ import annotations

import re

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
    narrow_nan_to_float,
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
from frontend.dense import bits_to_float
from frontend.lexer import ALIAS_ID, FLOAT, SYMBOL_ID, unquote
from frontend.parse_types import TypeParser
from frontend.types import (
    FloatType,
    IndexType,
    IntegerType,
    i64,
)

# The fast-math flags, the same in the arith and llvm dialects.
_FASTMATH_FLAGS = ("none", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "fast")

# Enum attributes of the dialects we model: mnemonic -> allowed keywords.
ENUMS: dict[str, tuple[str, ...]] = {
    "vector.kind": (
        "add",
        "mul",
        "minui",
        "minsi",
        "minnumf",
        "maxui",
        "maxsi",
        "maxnumf",
        "and",
        "or",
        "xor",
        "maximumf",
        "minimumf",
    ),
    "vector.iterator_type": ("parallel", "reduction"),
    "vector.punctuation": ("no_punctuation", "newline", "comma", "open", "close"),
    "arith.fastmath": _FASTMATH_FLAGS,
    "llvm.fastmath": _FASTMATH_FLAGS,
    "arith.overflow": ("none", "nsw", "nuw"),
    "arith.roundingmode": (
        "to_nearest_even",
        "downward",
        "upward",
        "toward_zero",
        "to_nearest_away",
    ),
}


class AttrParser(TypeParser):
    """Types, attributes and affine maps; aliases come from ``#name = ...`` definitions."""

    def __init__(self, text: str, file: str = "<input>") -> None:
        super().__init__(text, file)
        self.attr_aliases: dict[str, Attribute] = {}

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
                raise self.error(
                    "unexpected decimal integer literal for a floating point "
                    "value (add a '.' to make it a float)",
                    start,
                )
            if value < 0:
                raise self.error("hexadecimal float literal should not have a leading minus", start)
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
            if "." in mnemonic:  # a dialect attribute without parameters: #ub.poison
                return OpaqueAttr(name)
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
            start = self.pos
            rhs = self._affine_factor(names)
            if op == "*" and not (_symbolic(lhs) or _symbolic(rhs)):
                raise self.error("non-affine expression: at least one of the multiply operands "
                                 "has to be either a constant or symbolic", start)
            if op != "*" and not _symbolic(rhs):
                raise self.error(f"non-affine expression: right operand of {op} has to be "
                                 "either a constant or symbolic", start)
            lhs = AffineBinary(op, lhs, rhs)

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
        self.skip_ws()  # no `inf`/`nan` words: MLIR spells them as hex bit patterns
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


def _symbolic(e: AffineExpr) -> bool:
    """No dimension in ``e``: constants and symbols only (what MLIR allows as a divisor)."""
    if isinstance(e, AffineDim):
        return False
    if isinstance(e, AffineBinary):
        return _symbolic(e.lhs) and _symbolic(e.rhs)
    return True


def _negate(e: AffineExpr) -> AffineExpr:
    if isinstance(e, AffineConstant):
        return AffineConstant(-e.value)
    return AffineBinary("*", e, AffineConstant(-1))


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
