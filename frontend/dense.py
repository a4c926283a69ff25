"""Turning ``dense<...>`` literals into flat, row-major tuples of Python numbers."""

from __future__ import annotations

import math
import struct

import numpy as np

from frontend.attributes import fit_int, narrow_nan_to_float, round_float
from frontend.types import FloatType, IndexType, IntegerType, Type


_FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def bits_to_float(bits: int, type_name: str) -> float:
    """A float from its IEEE bit pattern (``0x7FC00000 : f32`` is a NaN)."""
    width = _FLOAT_BITS.get(type_name)
    if width is None:
        raise ValueError(f"hexadecimal float literals of type {type_name} are not supported")
    if not 0 <= bits < (1 << width):
        raise ValueError(f"hexadecimal float constant out of range for type {type_name}")
    m = {"f16": 10, "bf16": 7, "f32": 23}.get(type_name)
    exp_ones = (1 << (width - 1 - m)) - 1 if m is not None else 0
    if m is not None and (bits >> m) & exp_ones == exp_ones and bits & ((1 << m) - 1):
        return narrow_nan_to_float(bits, type_name)  # a NaN: quiet bit and payload kept exactly
    if type_name == "f16":
        return struct.unpack("<e", bits.to_bytes(2, "little"))[0]
    if type_name == "bf16":
        return struct.unpack("<f", (bits << 16).to_bytes(4, "little"))[0]
    if type_name == "f32":
        return struct.unpack("<f", bits.to_bytes(4, "little"))[0]
    return struct.unpack("<d", bits.to_bytes(8, "little"))[0]


def _element(value: object, elem: Type) -> object:
    if isinstance(value, tuple) and value and value[0] == "hex":
        bits = value[1]
        if isinstance(elem, FloatType):
            return bits_to_float(bits, elem.name)
        value = bits
    if isinstance(elem, IntegerType) and elem.width == 1:
        # MLIR reads an i1 element as true/false or as the integers -1, 0, 1 (-1 is the all-ones
        # bit pattern, i.e. true); anything else is out of range.
        if isinstance(value, bool) or (isinstance(value, int) and value in (-1, 0, 1)):
            return bool(value)
        if isinstance(value, float):
            raise ValueError(f"expected a boolean (true/false) for an i1 element, found {value}")
        raise ValueError(f"integer constant {value} out of range for type i1")
    if isinstance(elem, (IntegerType, IndexType)):
        if isinstance(value, (float, bool)):
            raise ValueError(f"expected an integer element of type {elem}, found {value}")  # noqa: TRY004
        fitted = fit_int(value, elem)  # type: ignore[arg-type]
        if fitted is None:
            raise ValueError(f"integer constant {value} out of range for type {elem}")
        return fitted
    if isinstance(elem, FloatType):
        if isinstance(value, bool):
            raise ValueError(f"expected a float element of type {elem}, found {value}")  # noqa: TRY004
        if isinstance(value, int):
            raise ValueError(  # noqa: TRY004 - a literal error, reported at the literal
                "unexpected decimal integer literal for a floating point value "
                f"({value}; add a '.' to make it a float)"
            )
        return round_float(float(value), elem.name)  # type: ignore[arg-type]
    raise ValueError(f"unsupported dense element type {elem}")


def flatten_dense(literal: object, shape: tuple[int, ...], elem: Type) -> tuple[object, ...]:
    """Flat element values; a single (splat) value stays a one-element tuple."""
    if isinstance(literal, str):  # "0x..." hex blob: raw little-endian element data
        raw = bytes.fromhex(literal.removeprefix("0x"))
        if isinstance(elem, IntegerType) and elem.width == 1:  # i1: bit-packed, LSB first
            n = math.prod(shape)
            if len(raw) != (n + 7) // 8:
                raise ValueError(f"elements hex data size is invalid for {n} i1 elements")
            bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")[:n]
            return tuple(bool(b) for b in bits)
        dtype = {"f16": "<f2", "f32": "<f4", "f64": "<f8"}.get(str(elem))
        if dtype is None and isinstance(elem, (IntegerType, IndexType)):
            width = 64 if isinstance(elem, IndexType) else max(8, elem.width)
            dtype = f"<i{width // 8}"
        if dtype is None:
            raise ValueError(f"hex dense literal of {elem} is not supported")
        arr = np.frombuffer(raw, dtype=dtype)
        if arr.size not in (1, math.prod(shape)):
            raise ValueError(
                f"hex dense literal has {arr.size} elements, type needs {math.prod(shape)}"
            )
        return tuple(_element(v.item(), elem) for v in arr)
    if not isinstance(literal, list):
        return (_element(literal, elem),)
    count = math.prod(shape)
    if count == 0:
        if literal:
            raise ValueError("dense literal has elements but the type has none")
        return ()
    flat: list[object] = []

    def walk(node: object, dims: tuple[int, ...]) -> None:
        if not dims:
            if isinstance(node, list):
                raise ValueError("dense literal is nested deeper than the type's rank")
            flat.append(_element(node, elem))
            return
        if not isinstance(node, list) or len(node) != dims[0]:
            got = len(node) if isinstance(node, list) else "a scalar"
            raise ValueError(
                f"dense literal shape does not match the type: expected {dims[0]} elements "
                f"at this level, found {got}"
            )
        for child in node:
            walk(child, dims[1:])

    walk(literal, tuple(shape))
    return tuple(flat)
