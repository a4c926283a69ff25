"""Inputs that break unsound rewrites: the values IEEE-754 and two's complement treat apart.

Random finite floats never hit ``-0.0`` (``x + 0.0 -> x`` is wrong only there) or NaN (a max
fold that forgets NaN propagation is wrong only there). ``check-rules`` and the program fuzzer
draw their inputs here: after a trial of ordinary values, trials made of these values in turn
(every one of them appears), then random mixes of special and ordinary values.

Comparing results is bit-exact, except NaNs: any NaN equals any NaN. LLVM, and so MLIR, leave
the sign and payload of a NaN result unspecified (LangRef, "Floating-point semantics"), and
numpy itself does not keep signalling NaNs signalling; a rewrite that changes them is sound.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend.semantics_core import bitwidth, dtype_of, is_float

# (exponent bits, mantissa bits) of each float format; bf16 is stored in float32.
_FORMATS = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}


def _float_bits(elem: str, sign: int, exponent: int, mantissa: int) -> Any:
    """The numpy scalar of ``elem`` with these fields (bf16 as the float32 it is stored in)."""
    e_bits, m_bits = _FORMATS[elem]
    bits = (sign << (e_bits + m_bits)) | (exponent << m_bits) | mantissa
    if elem == "bf16":
        return np.array([bits << 16], dtype=np.uint32).view(np.float32)[0]
    width = 1 + e_bits + m_bits
    return np.array([bits], dtype=f"uint{width}").view(dtype_of(elem))[0]


def float_specials(elem: str) -> list[Any]:
    """NaN (quiet and signalling, both signs), +-inf, +-0, the smallest and largest denormals,
    the smallest normal, the largest finite values, +-1 of float type ``elem``."""
    e_bits, m_bits = _FORMATS[elem]
    top = (1 << e_bits) - 1
    quiet = 1 << (m_bits - 1)
    out = []
    for sign in (0, 1):
        out += [
            _float_bits(elem, sign, top, quiet),  # quiet NaN
            _float_bits(elem, sign, top, 1),  # signalling NaN (payload 1)
            _float_bits(elem, sign, top, 0),  # infinity
            _float_bits(elem, sign, 0, 0),  # zero
            _float_bits(elem, sign, 0, 1),  # smallest denormal
            _float_bits(elem, sign, 0, (1 << m_bits) - 1),  # largest denormal
            _float_bits(elem, sign, 1, 0),  # smallest normal
            _float_bits(elem, sign, top - 1, (1 << m_bits) - 1),  # largest finite
            _float_bits(elem, sign, (1 << (e_bits - 1)) - 1, 0),  # one
        ]
    return out


def int_specials(elem: str) -> list[int]:
    """INT_MIN, INT_MAX, -1, 0, 1 (and INT_MIN + 1) of integer type ``elem`` (i1: 0 and 1);
    ``index`` stays small, as it addresses memory."""
    if elem == "index":
        return [0, 1, 2, 3]
    w = bitwidth(elem)
    if w == 1:
        return [0, 1]
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    return [lo, hi, -1, 0, 1, lo + 1]


def specials(elem: str) -> list[Any]:
    return float_specials(elem) if is_float(elem) else int_specials(elem)


def ordinary(elem: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Random ordinary values: floats at full precision, small integers."""
    if is_float(elem):
        data: Any = rng.normal(0, 3, shape)
    elif elem == "index":
        data = rng.integers(0, 2, shape)
    elif bitwidth(elem) == 1:
        data = rng.integers(0, 2, shape).astype(bool)
    else:
        w = bitwidth(elem)
        data = rng.integers(max(-8, -(1 << (w - 1))), min(9, 1 << (w - 1)), shape)
    return np.asarray(data).astype(dtype_of(elem))


def covering_trials(elem: str, size: int) -> int:
    """How many special trials show every special value of ``elem`` in an array of ``size``."""
    return -(-len(specials(elem)) // max(size, 1))


def draw(
    elem: str, shape: tuple[int, ...], rng: np.random.Generator, trial: int, leaf: int = 0
) -> np.ndarray:
    """An input array for ``trial``: ordinary values on trial 0; then, for the first
    ``covering_trials`` trials, special values only, in turn, so that every one appears (input
    ``leaf`` starts further along, so that two inputs pair different values); after that,
    random mixes of special (3 in 4) and ordinary values."""
    out = ordinary(elem, shape, rng)
    if trial == 0 or out.size == 0:
        return out
    values = np.asarray(specials(elem)).astype(dtype_of(elem))
    m, n = len(values), out.size
    flat = out.reshape(-1)
    if trial <= covering_trials(elem, n):
        flat[:] = values[(np.arange(n) + (trial - 1) * n + 5 * leaf) % m]
    else:
        special = rng.random(n) < 0.75
        flat[special] = values[rng.integers(0, m, n)][special]
    return flat.reshape(shape)


def same_bits(a: Any, b: Any) -> bool:
    """Bit-exact equality, but every NaN equals every NaN (see the module's docstring)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind != "f":
        return bool(np.array_equal(a, b))
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not np.array_equal(nan_a, nan_b):
        return False
    bits = f"u{a.dtype.itemsize}"
    return bool(np.array_equal(a.view(bits)[~nan_a], b.view(bits)[~nan_b]))


def first_difference(a: Any, b: Any) -> str:
    """Where two results of one type differ, for a report."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"shape/type {a.shape} {a.dtype} vs {b.shape} {b.dtype}"
    for idx in np.ndindex(a.shape):
        if not same_bits(a[idx], b[idx]):
            return f"at {list(idx)}: {a[idx]!r} vs {b[idx]!r}"
    return "equal"
