"""Building IR from Python, without text: the seeds' "notional vector language".

Everything goes through the op table: operands are grouped by the spec's operand list,
attributes are converted from Python values by each attribute kind's ``build`` (lists become
dense arrays or array attributes as the spec says, ``"add"`` becomes ``#vector.kind<add>``,
``AffineMap`` objects become ``affine_map<...>``), and result types come from the spec's
``infer`` unless given. ::

    b = Builder()
    with b.function("entry", [vector_type([4, 8], "f32")]) as (f, args):
        t = b.op("vector.transpose", [args[0]], permutation=[1, 0])
        b.ret(t)
    module = b.module()  # verified
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from frontend.affine import AffineMap
from frontend.attributes import (
    Attribute,
    DenseElementsAttr,
    FloatAttr,
    IntegerAttr,
    TypeAttr,
    fit_int,
    round_float,
)
from frontend.ir import Block, Module, Operation, Region, Value
from frontend.ops import lookup
from frontend.ops.spec import SINGLE, OpSpec, segments_attr
from frontend.parse_attrs import AttrParser
from frontend.types import FloatType, FunctionType, IndexType, IntegerType, Type, VectorType
from frontend.verifier import verify_module

Operands = Sequence["Value | Sequence[Value] | None"]


def parse_type(text: str) -> Type:
    """``parse_type("vector<4x[8]xf32>")``: any type in MLIR syntax."""
    p = AttrParser(text, "<type>")
    t = p.parse_type()
    if not p.at_end():
        raise p.error(f"unexpected text after the type: {p.found()}")
    return t


def affine_map(text: str) -> AffineMap:
    """``affine_map("(i, j, k) -> (i, k)")``: an affine map in MLIR syntax."""
    p = AttrParser(text, "<affine map>")
    m = p.parse_affine_map()
    if not p.at_end():
        raise p.error(f"unexpected text after the affine map: {p.found()}")
    return m


def vector_type(
    shape: Sequence[int], element: Type | str, scalable: Sequence[bool] = ()
) -> VectorType:
    elem = parse_type(element) if isinstance(element, str) else element
    return VectorType(tuple(shape), elem, tuple(scalable))


def typed_attr(value: Any, type: Type | str) -> Attribute:
    """The attribute ``arith.constant`` needs for a Python/numpy ``value`` of ``type``."""
    t = parse_type(type) if isinstance(type, str) else type
    shape = getattr(t, "shape", None)
    elem = getattr(t, "element", t)
    if isinstance(elem, FloatType):
        convert: Any = lambda v: round_float(float(v), elem.name)
    elif isinstance(elem, IntegerType) and elem.width == 1:
        convert = bool
    elif isinstance(elem, (IntegerType, IndexType)):

        def convert(v: Any) -> int:
            fitted = fit_int(int(v), elem)
            if fitted is None:
                raise ValueError(f"{v} does not fit in {elem}")
            return fitted
    else:
        raise ValueError(f"cannot make a constant of type {t}")
    if shape is None:
        v = convert(value)
        return FloatAttr(v, t) if isinstance(elem, FloatType) else IntegerAttr(int(v), t)
    arr = np.asarray(value)
    if arr.ndim and arr.shape != tuple(shape):
        raise ValueError(f"value of shape {arr.shape} does not match {t}")
    return DenseElementsAttr(t, tuple(convert(v) for v in arr.reshape(-1).tolist()))


class Builder:
    """Appends ops to the innermost open block; ``module()`` returns the verified result."""

    def __init__(self) -> None:
        self.top: list[Operation] = []
        self.blocks: list[Block] = []

    # -- regions ------------------------------------------------------------------------
    @contextmanager
    def region(self, arg_types: Sequence[Type] = ()) -> Iterator[tuple[Region, list[Value]]]:
        """A one-block region whose ops are built inside the ``with``; yields its arguments."""
        block = Block(list(arg_types))
        region = Region([block])
        self.blocks.append(block)
        try:
            yield region, block.args
        finally:
            self.blocks.pop()

    @contextmanager
    def function(
        self,
        name: str,
        arg_types: Sequence[Type],
        result_types: Sequence[Type] | None = None,
    ) -> Iterator[tuple[Operation, list[Value]]]:
        """``func.func @name``; without ``result_types`` the ``return`` inside decides them."""
        body = Region([Block(list(arg_types))])
        ftype = FunctionType(tuple(arg_types), tuple(result_types or ()))
        func = self.op("func.func", regions=[body], sym_name=name, function_type=ftype)
        self.blocks.append(body.blocks[0])
        try:
            yield func, body.blocks[0].args
        finally:
            self.blocks.pop()
        if result_types is None:
            term = body.blocks[-1].terminator
            results = tuple(v.type for v in term.operands) if term is not None else ()
            func.attributes["function_type"] = TypeAttr(FunctionType(tuple(arg_types), results))

    # -- operations -----------------------------------------------------------------------
    def op(
        self,
        name: str,
        operands: Operands = (),
        result_types: Sequence[Type] | None = None,
        regions: Sequence[Region] = (),
        **attrs: Any,
    ) -> Any:
        """Build op ``name`` at the end of the innermost open block (or at the top level);
        returns its result if it has exactly one, else the op.

        ``operands`` is a flat list, or one entry per operand group of the spec (a value, a
        list for variadic groups, None or [] for an absent optional one).
        """
        spec = lookup(name)
        if spec is None:
            raise ValueError(f"unknown operation '{name}'")
        flat, sizes = _group(spec, operands)
        attributes = self._attributes(spec, attrs)
        if spec.needs_segments():
            attributes["operandSegmentSizes"] = segments_attr(sizes)
        op = Operation(name, flat, [], attributes, list(regions))
        if result_types is None:
            if spec.infer is None and spec.results:
                raise ValueError(f"'{name}' cannot infer its result types: give result_types")
            result_types = spec.infer(op) if spec.infer is not None else []
        op.results = [Value(t, op, i) for i, t in enumerate(result_types)]
        if spec.complete is not None:
            spec.complete(op)
        if self.blocks:
            self.blocks[-1].append(op)
        else:
            self.top.append(op)
        return op.results[0] if len(op.results) == 1 else op

    def ret(self, *values: Value) -> Operation:
        return self.op("func.return", list(values))

    def constant(self, value: Any, type: Type | str) -> Value:
        """``arith.constant``: a scalar, or a (nested) list / numpy array for a vector type."""
        return self.op("arith.constant", value=typed_attr(value, type))

    def module(self) -> Module:
        module = Module(self.top)
        verify_module(module)
        return module

    @staticmethod
    def _attributes(spec: OpSpec, attrs: dict[str, Any]) -> dict[str, Attribute]:
        out: dict[str, Attribute] = {}
        for key, value in attrs.items():
            d = spec.attr_def(key)
            if d is not None:
                try:
                    out[key] = d.kind.convert(value)
                except ValueError as e:
                    raise ValueError(f"{spec.name}: attribute '{key}': {e}") from None
            elif isinstance(value, Attribute):
                out[key] = value  # a discardable attribute
            else:
                raise ValueError(f"{spec.name} has no attribute '{key}'")
        for d in spec.attrs:
            if d.name not in out and d.default is not None:
                out[d.name] = d.default
        return out


def _group(spec: OpSpec, operands: Operands) -> tuple[list[Value], list[int]]:
    """Flat operands and the size of each operand group of ``spec``."""
    grouped = spec.needs_segments() or any(not isinstance(x, Value) for x in operands)
    if not grouped:  # at most one variadic group: it takes what the single ones leave
        rest = len(operands) - sum(o.kind == SINGLE for o in spec.operands)
        return list(operands), [1 if o.kind == SINGLE else rest for o in spec.operands]
    if len(operands) > len(spec.operands):
        raise ValueError(
            f"{spec.name} has {len(spec.operands)} operand groups, {len(operands)} given"
        )
    groups: list[list[Value]] = []
    for i, o in enumerate(spec.operands):
        x = operands[i] if i < len(operands) else None
        values = [] if x is None else [x] if isinstance(x, Value) else list(x)
        if o.kind == SINGLE and len(values) != 1:
            raise ValueError(f"{spec.name}: operand '{o.name}' needs exactly one value")
        groups.append(values)
    return [v for g in groups for v in g], [len(g) for g in groups]
