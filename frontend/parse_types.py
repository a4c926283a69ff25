"""The type layer of the grammar: builtin types (integers, floats, index, vectors with
scalable dims, memrefs with layouts, tensors, tuples, functions) and ``!alias`` types.

``AttrParser`` (``frontend.parse_attrs``) extends it with attributes, which memref layouts,
memory spaces and tensor encodings need; ``parse_attribute`` is declared here for them.
"""

from __future__ import annotations

import re

from frontend.attributes import AffineMapAttr, Attribute, StridedLayoutAttr
from frontend.lexer import ALIAS_ID, WS_FIRST, Lexer, skip_space
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
)

MAX_INT_WIDTH = 16777215  # MLIR's IntegerType::kMaxWidth
# Types by spelling, shared by every parser: types are immutable values, and parsing one
# spelling to one object makes most type comparisons identity checks.
TYPE_CACHE: dict[str, Type] = {}
_SCALAR = re.compile(r"(?:(s|u)?i([1-9]\d*)|index|bf16|f16|f32|f64|f80|f128|tf32|none)(?![\w$.])")
_SIMPLE_VECTOR = re.compile(r"vector<((?:\[?\d+\]?x)*)([a-z]+\d*)>")
# What a cached spelling can look like: a word, or a shaped type without nested brackets or
# aliases (parsing one of those texts gives the same type wherever it appears).
_CACHED = re.compile(r"(?:vector|memref|tensor)<[^<>()!#]*>|[a-z][a-z0-9]*(?![\w$.])")
_DIM = re.compile(r"\s*(?:(\d+)|(\?)|\[(\d+)\])\s*x")


class TypeParser(Lexer):
    """Types; ``!name = type`` aliases come from the top level of the file."""

    def __init__(self, text: str, file: str = "<input>") -> None:
        super().__init__(text, file)
        self.type_aliases: dict[str, Type] = {}
        self._type_cache = TYPE_CACHE

    def parse_attribute(self, what: str = "attribute") -> Attribute:
        raise NotImplementedError  # AttrParser's

    def parse_type(self, what: str = "type") -> Type:
        pos = self.pos  # the common case of try_type, inline: a spelling read before
        if pos >= self.end or self.text[pos] in WS_FIRST:
            pos = self.pos = skip_space(self.text, pos)
        m = _CACHED.match(self.text, pos)
        if m is not None:
            t = TYPE_CACHE.get(m.group())
            if t is not None:
                self.pos = m.end()
                return t
        t = self.try_type()
        if t is None:
            raise self.error(f"expected {what}, found {self.found()}")
        return t

    def try_type(self) -> Type | None:
        self.skip_ws()
        text, pos = self.text, self.pos
        m = _CACHED.match(text, pos)  # a spelling read before?
        if m is not None:
            t = TYPE_CACHE.get(m.group())
            if t is not None:
                self.pos = m.end()
                return t
        m = _SCALAR.match(text, pos)
        if m:
            self.pos = m.end()
            t = TYPE_CACHE.get(m.group(0))
            if t is None:
                t = TYPE_CACHE[m.group(0)] = self._scalar(m)
            return t
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
                raise self.error(f"integer bitwidth is limited to {MAX_INT_WIDTH} bits", m.start(2))
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
            if (shape[-1] or 0) >= 1 << 63:
                raise self.error("dimension size does not fit in 64 bits", start)
            self.pos = m.end()

    def _vector(self) -> VectorType:
        start = self.pos
        self.pos += len("vector<")
        shape, scalable = self._dims(allow_dynamic=False)
        if self.peek("["):
            raise self.error("expected a scalable dimension '[N]' followed by 'x'")
        elem_pos = self.pos
        elem = self.parse_type("vector element type")
        if (
            not isinstance(elem, (IntegerType, IndexType, FloatType))
            or (isinstance(elem, FloatType) and elem.name in ("f80", "f128"))
        ) and not (isinstance(elem, OpaqueType) and elem.text == "!llvm.ptr"):  # gather addresses
            raise self.error(
                f"vector elements must be integer, index or float, not {elem}", elem_pos
            )
        self.expect_punct(">", "to close vector type")
        if any(s == 0 for s in shape):
            raise self.error("vector types must have positive constant sizes", start)
        return VectorType(tuple(shape), elem, tuple(scalable))  # type: ignore[arg-type]

    def _memref(self) -> Type:
        self.pos += len("memref<")
        if self.try_punct("*"):
            self.expect_punct("x", "after '*' in an unranked memref")  # `*xf32` is one token
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
            self.expect_punct("x", "after '*' in an unranked tensor")
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
