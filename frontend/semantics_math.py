"""Reference semantics of the `math` element-wise ops, computed in the element's precision.

Exact ops (abs, ceil, floor, round, sqrt, ...) run numpy's loop for the storage dtype: IEEE
fixes their results. Transcendentals (exp, log, sin, cbrt, pow, ...) do not have fixed results,
and numpy picks a SIMD implementation per host CPU whose last bits differ between hosts. So
they run the C library's scalar function of the element's precision (``libm``, through ctypes;
Python's ``math`` in double where no libm is found): ``exp`` for f64, ``expf`` for f32, and for
f16 and bf16 ``expf`` on the value widened to f32, rounded back once. That is what LLVM makes of
MLIR's lowering (``llvm.exp.v8f32`` becomes one ``expf`` call per lane, f16 is promoted to f32),
so compiled code, the interpreter and MLIR's own code agree bit for bit on one host, and the
same bits on every host with the same C library. (``expf`` is not always correctly rounded,
glibc's is within 0.502 ulp; rounding ``exp`` in double would be, at twice the time per lane.)
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from .semantics_arith import _fbin, _fcompute, _need_float, _need_int, _pyint_op
from .semantics_core import (
    SemanticsError,
    _like,
    as_elem,
    bitwidth,
    from_unsigned,
    round_rational,
    to_signed,
    to_unsigned,
)

__all__ = [
    "absf",
    "absi",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "ctlz",
    "ctpop",
    "cttz",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expm1",
    "floor",
    "fma",
    "fpowi",
    "ipowi",
    "isfinite",
    "isinf",
    "isnan",
    "log",
    "log1p",
    "log2",
    "log10",
    "powf",
    "round",
    "roundeven",
    "rsqrt",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "trunc",
]


def _funary(x: Any, elem: str, f: Callable[[Any], Any], op: str) -> Any:
    _need_float(elem, op)
    return _fcompute(elem, f, x)


def _libm() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("m")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


_LIBM = _libm()


def _scalar(name: str, arity: int = 1, single: bool = False) -> Callable[..., float]:
    """libm's ``name`` (``namef`` on floats if ``single``) as a Python function (C semantics:
    inf on overflow, NaN on a domain error, no exceptions)."""
    c_name, c_type = (name + "f", ctypes.c_float) if single else (name, ctypes.c_double)
    fn = getattr(_LIBM, c_name, None) if _LIBM is not None else None
    if fn is not None:
        fn.restype = c_type
        fn.argtypes = [c_type] * arity
        return fn
    py = getattr(math, {"exp2": "exp2", "pow": "pow"}.get(name, name))

    def fallback(*xs: float) -> float:  # Python's math raises where C returns inf or NaN
        try:
            return py(*xs)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan

    return fallback


_QUIET = np.uint64(1 << 51)  # the quiet bit of a float64 NaN


def _widen(x: np.ndarray) -> np.ndarray:
    """x in float64, every NaN quiet, as libm sees it in compiled code (an f16 or f32 value
    widened by a conversion, which quiets, and every operand of pow/atan2 quieted)."""
    with np.errstate(all="ignore"):
        w = np.array(x, dtype=np.float64, copy=True, ndmin=1)
    bits = w.view(np.uint64)
    nan = np.isnan(w)
    bits[nan] |= _QUIET
    return w.reshape(np.shape(x))


def _via_libm(name: str, arity: int = 1) -> Callable[..., Any]:
    """libm's scalar ``name`` of the element's precision, element-wise (rounded to the type
    afterwards by ``_fcompute``): the double function on f64 storage, the float one on the
    others, no host-dependent SIMD path.

    NaN inputs: libm sees every NaN quiet (``_widen``). The unary functions return a quiet NaN
    for any NaN; C's ``pow(1, y)`` and ``pow(x, 0)`` are 1 for a quiet NaN but NaN for a
    signalling one, and which NaN an earlier op returns (and whether quiet) is not specified
    (LLVM's ``maximum`` of two NaNs keeps either; found by compiled fuzzing: a
    ``vector.scan <maximumf>`` into ``powf``), so the compiled code quiets the operands of the
    two-operand functions too (``eqsat.codegen.math``)."""
    double = np.frompyfunc(_scalar(name, arity), arity, 1)
    single = np.frompyfunc(_scalar(name, arity, single=True), arity, 1)

    def g(*xs: np.ndarray) -> np.ndarray:
        wide = xs[0].dtype == np.float64
        fn, dt = (double, np.float64) if wide else (single, np.float32)
        return np.asarray(fn(*(_widen(x) for x in xs)), dtype=dt)

    return g


def sqrt(x: Any, elem: str) -> Any:
    """Correctly rounded square root (NaN for negatives, -0 for -0)."""
    return _funary(x, elem, np.sqrt, "sqrt")


def rsqrt(x: Any, elem: str) -> Any:
    """1 / sqrt(x) (two roundings, like MLIR's expansion)."""
    return _funary(x, elem, lambda v: np.reciprocal(np.sqrt(v)), "rsqrt")


def _mk_unary(name: str, f: Callable[[Any], Any], law: str) -> Callable[[Any, str], Any]:
    def op(x: Any, elem: str) -> Any:
        return _funary(x, elem, f, name)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = law
    return op


exp = _mk_unary("exp", _via_libm("exp"), "e^x in the element precision.")
exp2 = _mk_unary("exp2", _via_libm("exp2"), "2^x in the element precision.")
expm1 = _mk_unary("expm1", _via_libm("expm1"), "e^x - 1, accurate near 0.")
log = _mk_unary("log", _via_libm("log"), "Natural logarithm (NaN below 0, -inf at 0).")
log2 = _mk_unary("log2", _via_libm("log2"), "Base-2 logarithm.")
log10 = _mk_unary("log10", _via_libm("log10"), "Base-10 logarithm.")
log1p = _mk_unary("log1p", _via_libm("log1p"), "log(1 + x), accurate near 0.")
tanh = _mk_unary("tanh", _via_libm("tanh"), "Hyperbolic tangent.")
sinh = _mk_unary("sinh", _via_libm("sinh"), "Hyperbolic sine.")
cosh = _mk_unary("cosh", _via_libm("cosh"), "Hyperbolic cosine.")
sin = _mk_unary("sin", _via_libm("sin"), "Sine (radians).")
cos = _mk_unary("cos", _via_libm("cos"), "Cosine (radians).")
tan = _mk_unary("tan", _via_libm("tan"), "Tangent (radians).")
asin = _mk_unary("asin", _via_libm("asin"), "Arc sine.")
acos = _mk_unary("acos", _via_libm("acos"), "Arc cosine.")
atan = _mk_unary("atan", _via_libm("atan"), "Arc tangent.")
asinh = _mk_unary("asinh", _via_libm("asinh"), "Inverse hyperbolic sine.")
acosh = _mk_unary("acosh", _via_libm("acosh"), "Inverse hyperbolic cosine.")
atanh = _mk_unary("atanh", _via_libm("atanh"), "Inverse hyperbolic tangent.")
erf = _mk_unary("erf", _via_libm("erf"), "Error function.")
erfc = _mk_unary("erfc", _via_libm("erfc"), "1 - erf(x).")
cbrt = _mk_unary("cbrt", _via_libm("cbrt"), "Real cube root (negative for negative x).")
absf = _mk_unary("absf", np.abs, "|x| (clears the sign bit, also of NaN).")
ceil = _mk_unary("ceil", np.ceil, "Smallest integral value >= x.")
floor = _mk_unary("floor", np.floor, "Largest integral value <= x.")
trunc = _mk_unary("trunc", np.trunc, "Integral part, rounding toward zero.")
roundeven = _mk_unary("roundeven", np.rint, "Nearest integral value, ties to even.")


def _round_half_away(v: np.ndarray) -> np.ndarray:
    mag = np.abs(v)
    fl = np.floor(mag)
    r = fl + (mag - fl >= 0.5)
    return np.where(np.isfinite(v), np.copysign(r, v), v)


round = _mk_unary("round", _round_half_away, "Nearest integral value, ties away from zero.")


def atan2(y: Any, x: Any, elem: str) -> Any:
    """Angle of (x, y) in (-pi, pi]."""
    return _fbin(y, x, elem, _via_libm("atan2", 2), "atan2")


def powf(a: Any, b: Any, elem: str) -> Any:
    """a^b (C pow semantics: pow(x, 0) = 1, NaN for negative base with non-integer exponent)."""
    return _fbin(a, b, elem, _via_libm("pow", 2), "powf")


def copysign(a: Any, b: Any, elem: str) -> Any:
    """|a| with the sign bit of b."""
    return _fbin(a, b, elem, np.copysign, "copysign")


_POW = _via_libm("pow", 2)


def fpowi(a: Any, n: Any, elem: str, int_elem: str = "i32") -> Any:
    """a^n for an integer exponent n (computed as pow in the element precision)."""
    _need_float(elem, "fpowi")
    nn = to_signed(n, int_elem).astype(np.float64)
    return _fcompute(elem, lambda x: _POW(x, nn), a)


def isnan(x: Any, elem: str) -> Any:
    """True for NaN."""
    _need_float(elem, "isnan")
    return _like(np.isnan(np.asarray(as_elem(x, elem))), x)


def isinf(x: Any, elem: str) -> Any:
    """True for +-inf."""
    _need_float(elem, "isinf")
    return _like(np.isinf(np.asarray(as_elem(x, elem))), x)


def isfinite(x: Any, elem: str) -> Any:
    """True unless NaN or +-inf."""
    _need_float(elem, "isfinite")
    return _like(np.isfinite(np.asarray(as_elem(x, elem))), x)


def _fma64_exact(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Correctly rounded float64 fma of finite doubles via exact rationals."""

    def one(x: float, y: float, z: float) -> float:
        q = Fraction(x) * Fraction(y) + Fraction(z)
        if q == 0:  # IEEE: exact zero is -0 only if both x*y and z are -0
            neg_prod = (math.copysign(1.0, x) * math.copysign(1.0, y)) < 0
            return -0.0 if (x * y == 0 and neg_prod and math.copysign(1.0, z) < 0) else 0.0
        return round_rational(q, "f64")

    return np.asarray(np.frompyfunc(one, 3, 1)(a, b, c), dtype=np.float64)


def _two_sum_round_to_odd(p: np.ndarray, c: np.ndarray) -> np.ndarray:
    """p + c (doubles, finite) rounded to odd in float64, via the exact TwoSum error."""
    s = p + c
    bp = s - c
    bc = s - bp
    err = (p - bp) + (c - bc)
    bits = np.array(s, order="C").view(np.uint64)
    even = (bits & np.uint64(1)) == 0
    toward = np.where(err > 0, np.inf, -np.inf)
    return np.where((err != 0) & even, np.nextafter(s, toward), s)


def fma(a: Any, b: Any, c: Any, elem: str) -> Any:
    """a*b + c with a single rounding to the element type (IEEE fusedMultiplyAdd)."""
    _need_float(elem, "fma")
    with np.errstate(all="ignore"):  # widening a signalling NaN raises "invalid": not an error
        x, y, z = (np.asarray(as_elem(v, elem)).astype(np.float64) for v in (a, b, c))
    x, y, z = np.broadcast_arrays(x, y, z)
    finite = np.isfinite(x) & np.isfinite(y) & np.isfinite(z)
    with np.errstate(all="ignore"):
        naive = x * y + z  # right for non-finite x or y (inf*0 = nan, inf - inf = nan, ...)
        # but not for finite x, y and infinite z: the exact product is finite, so the sum is z
        # (x*y may overflow to inf in float64 and give inf - inf = nan)
        naive = np.where(np.isfinite(x) & np.isfinite(y) & np.isinf(z), z, naive)
        if elem == "f64":
            exact = np.where(finite, 0.0, naive)
            if finite.any():
                exact[finite] = _fma64_exact(x[finite], y[finite], z[finite])
            r = exact
        else:  # p <= 24 bits: x*y is exact in float64, TwoSum + round-to-odd then one RNE
            r = np.where(finite, _two_sum_round_to_odd(x * y, z), naive)
    return _like(as_elem(np.asarray(r, dtype=np.float64), elem), a, b, c)


# --------------------------------------------------------------------------- integer math


def absi(x: Any, elem: str) -> Any:
    """|x| modulo 2^w (abs(INT_MIN) = INT_MIN)."""
    _need_int(elem, "absi")
    s = to_signed(x, elem).astype(np.int64)
    with np.errstate(all="ignore"):
        return _like(from_unsigned(np.abs(s), elem), x)


def ctpop(x: Any, elem: str) -> Any:
    """Number of set bits."""
    _need_int(elem, "ctpop")
    u = to_unsigned(x, elem).astype(np.uint64)
    return _like(from_unsigned(np.bitwise_count(u).astype(np.uint64), elem), x)


def ctlz(x: Any, elem: str) -> Any:
    """Number of leading zero bits in the w-bit pattern (w for 0)."""
    _need_int(elem, "ctlz")
    w = bitwidth(elem)
    u = to_unsigned(x, elem).astype(np.uint64)
    n = np.frompyfunc(lambda v: w - int(v).bit_length(), 1, 1)(u)
    return _like(from_unsigned(np.asarray(n, dtype=np.uint64), elem), x)


def cttz(x: Any, elem: str) -> Any:
    """Number of trailing zero bits (w for 0)."""
    _need_int(elem, "cttz")
    w = bitwidth(elem)
    u = to_unsigned(x, elem).astype(np.uint64)
    n = np.frompyfunc(lambda v: w if v == 0 else (int(v) & -int(v)).bit_length() - 1, 1, 1)(u)
    return _like(from_unsigned(np.asarray(n, dtype=np.uint64), elem), x)


def ipowi(a: Any, b: Any, elem: str) -> Any:
    """a^b modulo 2^w (signed); for b < 0 (MLIR's expansion): 1 if a == 1, +-1 if a == -1,
    0 otherwise, and a == 0 raises (it divides by zero)."""
    w = bitwidth(elem)

    def ipowi(x: int, y: int) -> int:
        if y < 0:
            if x == 0:
                raise SemanticsError("math.ipowi: 0 to a negative power divides by zero")
            if x == 1:
                return 1
            if x == -1:
                return -1 if y & 1 else 1
            return 0
        return pow(x, y, 1 << w)

    return _pyint_op(a, b, elem, ipowi, signed=True)
