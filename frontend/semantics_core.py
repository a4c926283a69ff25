"""Element types, storage conventions and exact rounding for the numpy reference semantics.

Storage conventions (shared by every ``semantics_*`` module):

* a vector is a numpy array (a 0-D vector is a 0-D array); a scalar is a numpy scalar (a 0-D
  array is accepted wherever a scalar is);
* a signless integer ``iN`` is stored in the smallest numpy *signed* integer of at least N bits,
  always wrapped to N bits (two's complement); ``i1`` is ``np.bool_`` and ``index`` is ``int64``;
* ``f16``/``f32``/``f64`` are stored natively; ``bf16`` is stored as ``float32`` values that are
  always exactly representable in bf16 (see :func:`round_bf16`).

Nothing here imports the rest of the project: the op table calls into these modules.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = [
    "FLOAT_ELEMS",
    "SemanticsError",
    "as_elem",
    "bitwidth",
    "dtype_of",
    "elem_of_dtype",
    "from_bits",
    "from_unsigned",
    "is_float",
    "is_int",
    "round_bf16",
    "round_rational",
    "to_bits",
    "to_signed",
    "to_unsigned",
]


class SemanticsError(Exception):
    """A runtime fault the reference refuses to give a value to (out-of-bounds access, division
    by zero, other undefined behaviour), or an operand combination the op cannot take."""


FLOAT_ELEMS = ("f16", "bf16", "f32", "f64")

_FLOAT_DTYPES = {
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(np.float32),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}

# (precision incl. hidden bit, minimum normal exponent, maximum exponent) of each float format.
_FLOAT_FORMATS = {
    "f16": (11, -14, 15),
    "bf16": (8, -126, 127),
    "f32": (24, -126, 127),
    "f64": (53, -1022, 1023),
}


def is_float(elem: str) -> bool:
    """True for the floating-point element types f16, bf16, f32, f64."""
    return elem in _FLOAT_DTYPES


def is_int(elem: str) -> bool:
    """True for signless integers iN (1 <= N <= 64) and index."""
    if elem == "index":
        return True
    return elem.startswith("i") and elem[1:].isdigit() and 1 <= int(elem[1:]) <= 64


def bitwidth(elem: str) -> int:
    """Bit width of an element type (index is 64 bits, bf16 is 16 bits)."""
    if elem == "index":
        return 64
    if is_int(elem):
        return int(elem[1:])
    if is_float(elem):
        return {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}[elem]
    raise SemanticsError(f"unsupported element type {elem!r}")


def dtype_of(elem: str) -> np.dtype:
    """numpy storage dtype of an element type (bf16 is stored in float32, iN in the smallest
    signed int holding N bits, i1 in bool)."""
    if is_float(elem):
        return _FLOAT_DTYPES[elem]
    w = bitwidth(elem)
    if w == 1:
        return np.dtype(np.bool_)
    for bits, dt in ((8, np.int8), (16, np.int16), (32, np.int32), (64, np.int64)):
        if w <= bits:
            return np.dtype(dt)
    raise SemanticsError(f"unsupported element type {elem!r}")  # pragma: no cover


def _unsigned_dtype(elem: str) -> np.dtype:
    return np.dtype(f"u{max(dtype_of(elem).itemsize, 1)}")


def elem_of_dtype(dtype: Any) -> str:
    """Best-guess element type of a numpy dtype (float32 maps to f32, never bf16)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return "i1"
    if dt.kind in "iu":
        return f"i{dt.itemsize * 8}"
    if dt.kind == "f" and dt.itemsize in (2, 4, 8):
        return {2: "f16", 4: "f32", 8: "f64"}[dt.itemsize]
    raise SemanticsError(f"no element type for numpy dtype {dt}")


def _like(result: Any, *inputs: Any) -> Any:
    """Array result if any input was an ndarray (a vector), else a numpy scalar."""
    r = np.asarray(result)
    if any(isinstance(i, np.ndarray) for i in inputs):
        return r
    return r[()]


# --------------------------------------------------------------------------- integers


def _wrap_pyint(v: Any, w: int) -> int:
    v = int(v) & ((1 << w) - 1)
    return v - (1 << w) if v >> (w - 1) else v


def as_elem(x: Any, elem: str) -> Any:
    """Coerce a value to the storage of `elem`: integers wrap to the width (i1 keeps bit 0),
    floats round to the type's precision (round-to-nearest-even). Keeps array-ness."""
    a = np.asarray(x)
    if is_int(elem):
        dt, w = dtype_of(elem), bitwidth(elem)
        if a.dtype.kind == "f":
            raise SemanticsError(f"cannot store floating-point value {x!r} as {elem}")
        if a.dtype == object:
            a = np.asarray(np.frompyfunc(lambda v: _wrap_pyint(v, w), 1, 1)(a), dtype=object)
            a = a.astype(np.int64)
        if w == 1:
            r = (a.astype(np.int64) & 1).astype(np.bool_) if a.dtype != np.bool_ else a
        elif w in (8, 16, 32, 64):
            r = a.astype(dt) if a.dtype != dt else a
        else:
            u = a.astype(np.int64).astype(np.uint64) & np.uint64((1 << w) - 1)
            sign = (u >> np.uint64(w - 1)) & np.uint64(1)
            r = (u.astype(np.int64) - (sign.astype(np.int64) << w)).astype(dt)
        return _like(r, x)
    if is_float(elem):
        if a.dtype == object:
            a = a.astype(np.float64)
        if elem == "bf16":
            return _like(round_bf16(a), x)
        with np.errstate(all="ignore"):
            r = a.astype(_FLOAT_DTYPES[elem]) if a.dtype != _FLOAT_DTYPES[elem] else a
        return _like(r, x)
    raise SemanticsError(f"unsupported element type {elem!r}")


def to_signed(x: Any, elem: str) -> np.ndarray:
    """Signed reading of a signless integer as an ndarray (i1 true reads as -1)."""
    a = np.asarray(as_elem(x, elem))
    if bitwidth(elem) == 1:
        return np.where(a, -1, 0).astype(np.int8)
    return a


def to_unsigned(x: Any, elem: str) -> np.ndarray:
    """Unsigned reading (bit pattern) of a signless integer, as an unsigned ndarray."""
    a = np.asarray(as_elem(x, elem))
    w = bitwidth(elem)
    if w == 1:
        return a.astype(np.uint8)
    u = np.array(a, order="C").view(_unsigned_dtype(elem)).reshape(a.shape)
    if w not in (8, 16, 32, 64):
        u = u & u.dtype.type((1 << w) - 1)
    return u


def from_unsigned(u: Any, elem: str) -> np.ndarray:
    """Storage value of the low bitwidth(elem) bits of an unsigned/int array (wrap-around)."""
    a = np.asarray(u)
    w = bitwidth(elem)
    if a.dtype.kind == "i":
        a = a.astype(np.int64).astype(np.uint64)
    elif a.dtype == np.bool_:
        a = a.astype(np.uint64)
    if w == 1:
        return (a & 1).astype(np.bool_)
    a = a.astype(np.uint64) & np.uint64((1 << w) - 1)
    if w < 64:
        sign = (a >> np.uint64(w - 1)) & np.uint64(1)
        a = a | (sign * np.uint64(((1 << 64) - 1) ^ ((1 << w) - 1)))
    return a.view(np.int64).reshape(a.shape).astype(dtype_of(elem))


# --------------------------------------------------------------------------- floats


def _f64_to_f32_round_to_odd(d: np.ndarray) -> np.ndarray:
    """float64 -> float32 with round-to-odd, so that a second RNE rounding to <= 22 bits is a
    correctly rounded single rounding (round-to-odd composes)."""
    with np.errstate(all="ignore"):
        f = d.astype(np.float32)
        back = f.astype(np.float64)
        inexact = (back != d) & np.isfinite(d)
        toward_zero = inexact & (np.abs(back) > np.abs(d))
        f = np.where(toward_zero, np.nextafter(f, np.float32(0)), f).astype(np.float32)
    bits = np.array(f, order="C").view(np.uint32) | inexact.astype(np.uint32)
    return bits.view(np.float32).reshape(d.shape)


def round_bf16(x: Any) -> Any:
    """Round to the nearest bf16 value (ties to even; a NaN stays a NaN with its sign),
    returned as float32; float64 inputs are rounded once, not via float32; idempotent."""
    a = np.asarray(x)
    if a.dtype == np.float64 or a.dtype.kind in "iuOb":
        f = _f64_to_f32_round_to_odd(a.astype(np.float64))
    else:
        f = a.astype(np.float32)
    bits = np.array(f, order="C").view(np.uint32).astype(np.uint64)
    rounded = (bits + np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1))) & np.uint64(
        0xFFFF0000
    )
    # a NaN that already is a bf16 value is kept bit-exact (payload, signalling bit: bitcasts
    # must round-trip); any other NaN is truncated and quietened
    exact = (bits & np.uint64(0xFFFF)) == 0
    quiet_nan = np.where(
        exact, bits, (bits & np.uint64(0xFFFF0000)) | np.uint64(0x00400000)
    ).astype(np.uint64)
    out = np.where(np.isnan(f), quiet_nan, rounded).astype(np.uint32)
    return _like(out.view(np.float32).reshape(a.shape), x)


def round_rational(q: Fraction, elem: str) -> float:
    """Correctly rounded (ties-to-even, gradual underflow, overflow to inf) value of the exact
    rational `q` in float format `elem`, as a Python float (0 maps to +0.0)."""
    p, emin, emax = _FLOAT_FORMATS[elem]
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    n, d = abs(q.numerator), q.denominator
    e = n.bit_length() - d.bit_length()  # 2^(e-1) < |q| < 2^(e+1)
    if (n << max(0, -e)) < (d << max(0, e)):
        e -= 1  # now 2^e <= |q| < 2^(e+1)
    e = max(e, emin)
    sh = p - 1 - e  # |q| * 2^sh has p significant bits (fewer when subnormal)
    num, den = (n << sh, d) if sh >= 0 else (n, d << -sh)
    m, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and m & 1):
        m += 1
    if m >= (1 << p):  # rounding carried into the next binade
        m >>= 1
        sh -= 1
        e += 1
    if e > emax:
        return sign * float("inf")
    return sign * math.ldexp(float(m), -sh)


# --------------------------------------------------------------------------- raw bits


def to_bits(x: Any, elem: str) -> np.ndarray:
    """Bit patterns of the elements as uint64 (bf16 as its 16 bits, i1 as 0/1)."""
    a = np.asarray(x)
    if is_int(elem):
        return to_unsigned(a, elem).astype(np.uint64)
    a = np.array(as_elem(a, elem), order="C")
    if elem == "f16":
        return a.view(np.uint16).reshape(a.shape).astype(np.uint64)
    if elem == "bf16":
        return (a.view(np.uint32).reshape(a.shape) >> np.uint32(16)).astype(np.uint64)
    if elem == "f32":
        return a.view(np.uint32).reshape(a.shape).astype(np.uint64)
    if elem == "f64":
        return a.view(np.uint64).reshape(a.shape).copy()
    raise SemanticsError(f"unsupported element type {elem!r}")  # pragma: no cover


def from_bits(bits: Any, elem: str) -> np.ndarray:
    """Elements whose bit patterns are the low bitwidth(elem) bits of `bits` (inverse of
    to_bits)."""
    b = np.array(np.asarray(bits).astype(np.uint64), order="C")
    if is_int(elem):
        return from_unsigned(b, elem)
    if elem == "f16":
        return b.astype(np.uint16).view(np.float16).reshape(b.shape)
    if elem == "bf16":
        return (b.astype(np.uint32) << np.uint32(16)).view(np.float32).reshape(b.shape)
    if elem == "f32":
        return b.astype(np.uint32).view(np.float32).reshape(b.shape)
    if elem == "f64":
        return b.view(np.float64).reshape(b.shape).copy()
    raise SemanticsError(f"unsupported element type {elem!r}")  # pragma: no cover
