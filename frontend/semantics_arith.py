"""Reference semantics of the `arith` and `math` element-wise ops (numpy, exact wrap-around).

Every function takes arrays or scalars plus the element-type string and returns an array when
any operand is an array, else a numpy scalar. Integers are signless: the op decides whether the
bits read as signed or unsigned. Float ops compute in the type's precision (f16 through numpy's
float16 loops, bf16 in float32 rounded once to bf16: both are correctly rounded for + - * / sqrt
because float32 has more than 2p+2 bits).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from .semantics_core import (
    SemanticsError,
    _like,
    as_elem,
    bitwidth,
    dtype_of,
    from_unsigned,
    is_float,
    is_int,
    round_bf16,
    round_rational,
    to_signed,
    to_unsigned,
)

# fmt: off
__all__ = [
    "addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi",
    "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui",
    "addf", "subf", "mulf", "divf", "remf", "negf", "maximumf", "minimumf", "maxnumf", "minnumf",
    "cmpi", "cmpf", "select", "index_cast", "index_castui", "sitofp", "uitofp", "fptosi",
    "fptoui", "extf", "truncf", "extsi", "extui", "trunci", "mulsi_extended", "mului_extended",
    "addui_extended",
    "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "tanh", "sinh",
    "cosh", "sin", "cos", "tan", "asin", "acos", "atan", "asinh", "acosh", "atanh", "atan2",
    "erf", "erfc", "absf", "absi", "ceil", "floor", "round", "roundeven", "trunc", "powf",
    "fpowi", "ipowi", "fma", "copysign", "cbrt", "ctlz", "cttz", "ctpop", "isnan", "isinf",
    "isfinite",
]
# fmt: on


def _need_int(elem: str, op: str) -> None:
    if not is_int(elem):
        raise SemanticsError(f"{op} needs an integer or index element type, got {elem}")


def _need_float(elem: str, op: str) -> None:
    if not is_float(elem):
        raise SemanticsError(f"{op} needs a floating-point element type, got {elem}")


# --------------------------------------------------------------------------- integer arithmetic


def _ubin(a: Any, b: Any, elem: str, f: Callable[[Any, Any], Any], op: str) -> Any:
    _need_int(elem, op)
    ua, ub = to_unsigned(a, elem).astype(np.uint64), to_unsigned(b, elem).astype(np.uint64)
    with np.errstate(all="ignore"):
        r = f(ua, ub)
    return _like(from_unsigned(r, elem), a, b)


def addi(a: Any, b: Any, elem: str) -> Any:
    """a + b modulo 2^w."""
    return _ubin(a, b, elem, np.add, "addi")


def subi(a: Any, b: Any, elem: str) -> Any:
    """a - b modulo 2^w."""
    return _ubin(a, b, elem, np.subtract, "subi")


def muli(a: Any, b: Any, elem: str) -> Any:
    """a * b modulo 2^w (the low half of the product; same for signed and unsigned)."""
    return _ubin(a, b, elem, np.multiply, "muli")


def andi(a: Any, b: Any, elem: str) -> Any:
    """Bitwise and."""
    return _ubin(a, b, elem, np.bitwise_and, "andi")


def ori(a: Any, b: Any, elem: str) -> Any:
    """Bitwise or."""
    return _ubin(a, b, elem, np.bitwise_or, "ori")


def xori(a: Any, b: Any, elem: str) -> Any:
    """Bitwise xor."""
    return _ubin(a, b, elem, np.bitwise_xor, "xori")


def _pyint_op(a: Any, b: Any, elem: str, f: Callable[[int, int], int], signed: bool) -> Any:
    """Apply an exact Python-int function element-wise to the signed/unsigned readings."""
    _need_int(elem, f.__name__)
    read = to_signed if signed else to_unsigned
    ra, rb = np.broadcast_arrays(read(a, elem), read(b, elem))
    out = np.frompyfunc(lambda x, y: f(int(x), int(y)), 2, 1)(ra, rb)
    return _like(as_elem(np.asarray(out, dtype=object), elem), a, b)


def _sdiv_check(x: int, y: int, elem: str, op: str) -> None:
    if y == 0:
        raise SemanticsError(f"arith.{op}: integer division by zero")
    w = bitwidth(elem)
    if x == -(1 << (w - 1)) and y == -1:
        raise SemanticsError(f"arith.{op}: signed division overflow ({x} / -1 in {elem})")


def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def divsi(a: Any, b: Any, elem: str) -> Any:
    """Signed division rounding toward zero; /0 and INT_MIN/-1 raise (UB in MLIR)."""

    def divsi(x: int, y: int) -> int:
        _sdiv_check(x, y, elem, "divsi")
        return _trunc_div(x, y)

    return _pyint_op(a, b, elem, divsi, signed=True)


def divui(a: Any, b: Any, elem: str) -> Any:
    """Unsigned division (floor); /0 raises (UB in MLIR)."""

    def divui(x: int, y: int) -> int:
        if y == 0:
            raise SemanticsError("arith.divui: integer division by zero")
        return x // y

    return _pyint_op(a, b, elem, divui, signed=False)


def ceildivsi(a: Any, b: Any, elem: str) -> Any:
    """Signed division rounding toward +inf; /0 and INT_MIN/-1 raise (UB in MLIR)."""

    def ceildivsi(x: int, y: int) -> int:
        _sdiv_check(x, y, elem, "ceildivsi")
        return -((-x) // y)

    return _pyint_op(a, b, elem, ceildivsi, signed=True)


def ceildivui(a: Any, b: Any, elem: str) -> Any:
    """Unsigned division rounding up; /0 raises (UB in MLIR)."""

    def ceildivui(x: int, y: int) -> int:
        if y == 0:
            raise SemanticsError("arith.ceildivui: integer division by zero")
        return -((-x) // y)

    return _pyint_op(a, b, elem, ceildivui, signed=False)


def floordivsi(a: Any, b: Any, elem: str) -> Any:
    """Signed division rounding toward -inf; /0 and INT_MIN/-1 raise (UB in MLIR)."""

    def floordivsi(x: int, y: int) -> int:
        _sdiv_check(x, y, elem, "floordivsi")
        return x // y

    return _pyint_op(a, b, elem, floordivsi, signed=True)


def remsi(a: Any, b: Any, elem: str) -> Any:
    """Signed remainder with the sign of the dividend (a - b*trunc(a/b)); %0 and INT_MIN%-1
    raise (UB in MLIR/LLVM srem)."""

    def remsi(x: int, y: int) -> int:
        _sdiv_check(x, y, elem, "remsi")
        return x - y * _trunc_div(x, y)

    return _pyint_op(a, b, elem, remsi, signed=True)


def remui(a: Any, b: Any, elem: str) -> Any:
    """Unsigned remainder; %0 raises (UB in MLIR)."""

    def remui(x: int, y: int) -> int:
        if y == 0:
            raise SemanticsError("arith.remui: integer division by zero")
        return x % y

    return _pyint_op(a, b, elem, remui, signed=False)


def shli(a: Any, b: Any, elem: str) -> Any:
    """a << b modulo 2^w; b (read unsigned) >= w gives 0 (poison in MLIR)."""
    w = bitwidth(elem)
    return _ubin(
        a, b, elem, lambda x, s: np.where(s >= w, 0, x << np.minimum(s, w - 1)), "shli"
    )


def shrui(a: Any, b: Any, elem: str) -> Any:
    """Logical right shift; b (read unsigned) >= w gives 0 (poison in MLIR)."""
    w = bitwidth(elem)
    return _ubin(
        a, b, elem, lambda x, s: np.where(s >= w, 0, x >> np.minimum(s, w - 1)), "shrui"
    )


def shrsi(a: Any, b: Any, elem: str) -> Any:
    """Arithmetic right shift; b (read unsigned) >= w gives the sign fill (poison in MLIR)."""
    _need_int(elem, "shrsi")
    w = bitwidth(elem)
    sa = to_signed(a, elem).astype(np.int64)
    s = np.minimum(to_unsigned(b, elem).astype(np.uint64), np.uint64(w - 1)).astype(np.int64)
    return _like(from_unsigned(sa >> s, elem), a, b)


def _pick(a: Any, b: Any, elem: str, take_a: np.ndarray) -> Any:
    return _like(np.where(take_a, as_elem(a, elem), as_elem(b, elem)), a, b)


def maxsi(a: Any, b: Any, elem: str) -> Any:
    """Signed maximum."""
    _need_int(elem, "maxsi")
    return _pick(a, b, elem, to_signed(a, elem) >= to_signed(b, elem))


def minsi(a: Any, b: Any, elem: str) -> Any:
    """Signed minimum."""
    _need_int(elem, "minsi")
    return _pick(a, b, elem, to_signed(a, elem) <= to_signed(b, elem))


def maxui(a: Any, b: Any, elem: str) -> Any:
    """Unsigned maximum."""
    _need_int(elem, "maxui")
    return _pick(a, b, elem, to_unsigned(a, elem) >= to_unsigned(b, elem))


def minui(a: Any, b: Any, elem: str) -> Any:
    """Unsigned minimum."""
    _need_int(elem, "minui")
    return _pick(a, b, elem, to_unsigned(a, elem) <= to_unsigned(b, elem))


def _extended(a: Any, b: Any, elem: str, f: Callable[[int, int], int], signed: bool) -> Any:
    w = bitwidth(elem)
    low = _pyint_op(a, b, elem, f, signed)
    high = _pyint_op(a, b, elem, lambda x, y: f(x, y) >> w, signed)
    return low, high


def mulsi_extended(a: Any, b: Any, elem: str) -> tuple[Any, Any]:
    """(low, high) halves of the full 2w-bit signed product."""
    return _extended(a, b, elem, lambda x, y: x * y, signed=True)


def mului_extended(a: Any, b: Any, elem: str) -> tuple[Any, Any]:
    """(low, high) halves of the full 2w-bit unsigned product."""
    return _extended(a, b, elem, lambda x, y: x * y, signed=False)


def addui_extended(a: Any, b: Any, elem: str) -> tuple[Any, Any]:
    """(a + b modulo 2^w, unsigned carry-out as i1)."""
    w = bitwidth(elem)
    s = addi(a, b, elem)
    carry = _pyint_op(a, b, elem, lambda x, y: (x + y) >> w, signed=False)
    return s, _like(np.asarray(carry).astype(np.bool_), a, b)


# --------------------------------------------------------------------------- float arithmetic


def _fcompute(elem: str, f: Callable[..., Any], *xs: Any) -> Any:
    """Run f on the storage arrays; bf16 results are rounded back to bf16."""
    arrs = [np.asarray(as_elem(x, elem)) for x in xs]
    with np.errstate(all="ignore"):
        r = np.asarray(f(*arrs))
    if elem == "bf16":
        r = round_bf16(r)
    else:
        r = r.astype(dtype_of(elem), copy=False)
    return _like(r, *xs)


def _fbin(a: Any, b: Any, elem: str, f: Callable[[Any, Any], Any], op: str) -> Any:
    _need_float(elem, op)
    return _fcompute(elem, f, a, b)


def addf(a: Any, b: Any, elem: str) -> Any:
    """a + b rounded once to the element type."""
    return _fbin(a, b, elem, np.add, "addf")


def subf(a: Any, b: Any, elem: str) -> Any:
    """a - b rounded once to the element type."""
    return _fbin(a, b, elem, np.subtract, "subf")


def mulf(a: Any, b: Any, elem: str) -> Any:
    """a * b rounded once to the element type."""
    return _fbin(a, b, elem, np.multiply, "mulf")


def divf(a: Any, b: Any, elem: str) -> Any:
    """a / b rounded once (x/0 = +-inf, 0/0 = nan: IEEE)."""
    return _fbin(a, b, elem, np.divide, "divf")


def remf(a: Any, b: Any, elem: str) -> Any:
    """C fmod: a - b*trunc(a/b), exact, sign of a."""
    return _fbin(a, b, elem, np.fmod, "remf")


def negf(a: Any, elem: str) -> Any:
    """Sign flip (also of zeros and NaNs)."""
    _need_float(elem, "negf")
    return _fcompute(elem, np.negative, a)


def _zero_sign_fix(r: np.ndarray, a: np.ndarray, b: np.ndarray, want_neg: np.ndarray) -> Any:
    both_zero = (a == 0) & (b == 0)
    zero = np.where(want_neg, -0.0, 0.0).astype(r.dtype)
    return np.where(both_zero, zero, r)


def minimumf(a: Any, b: Any, elem: str) -> Any:
    """IEEE-2019 minimum: NaN if either is NaN, -0 < +0."""
    return _fbin(
        a, b, elem,
        lambda x, y: _zero_sign_fix(np.minimum(x, y), x, y, np.signbit(x) | np.signbit(y)),
        "minimumf",
    )  # fmt: skip


def maximumf(a: Any, b: Any, elem: str) -> Any:
    """IEEE-2019 maximum: NaN if either is NaN, +0 > -0."""
    return _fbin(
        a, b, elem,
        lambda x, y: _zero_sign_fix(np.maximum(x, y), x, y, np.signbit(x) & np.signbit(y)),
        "maximumf",
    )  # fmt: skip


def minnumf(a: Any, b: Any, elem: str) -> Any:
    """IEEE minNum: a NaN operand is ignored; -0 < +0 (measured: minnumf(0, -0) = -0)."""
    return _fbin(
        a, b, elem,
        lambda x, y: _zero_sign_fix(np.fmin(x, y), x, y, np.signbit(x) | np.signbit(y)),
        "minnumf",
    )  # fmt: skip


def maxnumf(a: Any, b: Any, elem: str) -> Any:
    """IEEE maxNum: a NaN operand is ignored; +0 > -0 (measured: maxnumf(-0, 0) = 0)."""
    return _fbin(
        a, b, elem,
        lambda x, y: _zero_sign_fix(np.fmax(x, y), x, y, np.signbit(x) & np.signbit(y)),
        "maxnumf",
    )  # fmt: skip


# --------------------------------------------------------------------------- comparisons


_CMPI = {
    "eq": (None, np.equal),
    "ne": (None, np.not_equal),
    "slt": (True, np.less),
    "sle": (True, np.less_equal),
    "sgt": (True, np.greater),
    "sge": (True, np.greater_equal),
    "ult": (False, np.less),
    "ule": (False, np.less_equal),
    "ugt": (False, np.greater),
    "uge": (False, np.greater_equal),
}


def cmpi(predicate: str, a: Any, b: Any, elem: str) -> Any:
    """Integer comparison -> i1; s* predicates read signed, u* unsigned, eq/ne compare bits."""
    _need_int(elem, "cmpi")
    if predicate not in _CMPI:
        raise SemanticsError(f"unknown cmpi predicate {predicate!r}")
    signed, f = _CMPI[predicate]
    read = to_signed if signed else to_unsigned
    return _like(f(read(a, elem), read(b, elem)), a, b)


def cmpf(predicate: str, a: Any, b: Any, elem: str) -> Any:
    """Float comparison -> i1; o* are false and u* true when either operand is NaN."""
    _need_float(elem, "cmpf")
    x, y = np.asarray(as_elem(a, elem)), np.asarray(as_elem(b, elem))
    with np.errstate(all="ignore"):
        uno = np.isnan(x) | np.isnan(y)
        table = {
            "false": np.zeros(np.broadcast(x, y).shape, np.bool_),
            "true": np.ones(np.broadcast(x, y).shape, np.bool_),
            "oeq": x == y,
            "ogt": x > y,
            "oge": x >= y,
            "olt": x < y,
            "ole": x <= y,
            "one": (x != y) & ~uno,
            "ord": ~uno,
            "ueq": (x == y) | uno,
            "ugt": (x > y) | uno,
            "uge": (x >= y) | uno,
            "ult": (x < y) | uno,
            "ule": (x <= y) | uno,
            "une": x != y,
            "uno": uno,
        }
    if predicate not in table:
        raise SemanticsError(f"unknown cmpf predicate {predicate!r}")
    return _like(table[predicate], a, b)


def select(cond: Any, a: Any, b: Any) -> Any:
    """cond ? a : b element-wise (a scalar i1 condition selects whole vectors)."""
    return _like(np.where(np.asarray(cond, dtype=np.bool_), a, b), cond, a, b)


# --------------------------------------------------------------------------- casts


def extsi(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Sign-extend (or, when narrowing, wrap) the signed reading of x to dst_elem."""
    _need_int(src_elem, "extsi")
    _need_int(dst_elem, "extsi")
    return _like(as_elem(to_signed(x, src_elem).astype(np.int64), dst_elem), x)


def extui(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Zero-extend (or, when narrowing, wrap) the unsigned reading of x to dst_elem."""
    _need_int(src_elem, "extui")
    _need_int(dst_elem, "extui")
    return _like(from_unsigned(to_unsigned(x, src_elem), dst_elem), x)


def trunci(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Keep the low bitwidth(dst) bits."""
    return extui(x, src_elem, dst_elem)


def index_cast(x: Any, src_elem: str, dst_elem: str) -> Any:
    """int <-> index: sign-extend when widening, truncate when narrowing."""
    return extsi(x, src_elem, dst_elem)


def index_castui(x: Any, src_elem: str, dst_elem: str) -> Any:
    """int <-> index: zero-extend when widening, truncate when narrowing."""
    return extui(x, src_elem, dst_elem)


def _int_to_float(values: np.ndarray, dst_elem: str) -> np.ndarray:
    """Correctly rounded conversion of exact integers (int64/uint64 array) to dst_elem."""
    if dst_elem in ("f32", "f64"):
        return values.astype(dtype_of(dst_elem))  # C conversion: correctly rounded
    if dst_elem == "f16":  # |x| >= 2^24 overflows f16 anyway, so float32 first is exact here
        with np.errstate(all="ignore"):
            return values.astype(np.float32).astype(np.float16)
    out = np.frompyfunc(lambda v: round_rational(Fraction(int(v)), "bf16"), 1, 1)(values)
    return np.asarray(out, dtype=np.float64).astype(np.float32)


def sitofp(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Signed integer -> nearest float (ties to even, single rounding)."""
    _need_int(src_elem, "sitofp")
    _need_float(dst_elem, "sitofp")
    return _like(_int_to_float(to_signed(x, src_elem).astype(np.int64), dst_elem), x)


def uitofp(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Unsigned integer -> nearest float (ties to even, single rounding)."""
    _need_int(src_elem, "uitofp")
    _need_float(dst_elem, "uitofp")
    return _like(_int_to_float(to_unsigned(x, src_elem).astype(np.uint64), dst_elem), x)


def _fp_to_int(x: Any, src_elem: str, dst_elem: str, lo: int, hi: int) -> Any:
    def conv(v: float) -> int:
        if math.isnan(v):
            return 0
        if math.isinf(v):
            return hi if v > 0 else lo
        return min(max(math.trunc(v), lo), hi)

    vals = np.asarray(as_elem(x, src_elem)).astype(np.float64)
    out = np.frompyfunc(conv, 1, 1)(vals)
    return _like(as_elem(np.asarray(out, dtype=object), dst_elem), x)


def fptosi(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Float -> signed int rounding toward zero; out of range saturates and NaN gives 0
    (poison in MLIR)."""
    _need_float(src_elem, "fptosi")
    _need_int(dst_elem, "fptosi")
    w = bitwidth(dst_elem)
    return _fp_to_int(x, src_elem, dst_elem, -(1 << (w - 1)), (1 << (w - 1)) - 1)


def fptoui(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Float -> unsigned int rounding toward zero; out of range saturates and NaN gives 0
    (poison in MLIR)."""
    _need_float(src_elem, "fptoui")
    _need_int(dst_elem, "fptoui")
    return _fp_to_int(x, src_elem, dst_elem, 0, (1 << bitwidth(dst_elem)) - 1)


def extf(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Exact widening of a float."""
    _need_float(src_elem, "extf")
    _need_float(dst_elem, "extf")
    return _like(as_elem(np.asarray(as_elem(x, src_elem)), dst_elem), x)


def truncf(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Narrowing with one round-to-nearest-even (f64 -> bf16 is not rounded via f32)."""
    _need_float(src_elem, "truncf")
    _need_float(dst_elem, "truncf")
    return _like(as_elem(np.asarray(as_elem(x, src_elem)), dst_elem), x)


# --------------------------------------------------------------------------- math


def _funary(x: Any, elem: str, f: Callable[[Any], Any], op: str) -> Any:
    _need_float(elem, op)
    return _fcompute(elem, f, x)


def _via_f64(f: Callable[[float], float]) -> Callable[[Any], Any]:
    """A scalar libm function applied in double precision (rounded to the type afterwards)."""

    def g(x: np.ndarray) -> np.ndarray:
        def safe(v: float) -> float:
            try:
                return f(v)
            except (ValueError, OverflowError):
                return math.nan

        return np.asarray(np.frompyfunc(safe, 1, 1)(x.astype(np.float64)), dtype=np.float64)

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


exp = _mk_unary("exp", np.exp, "e^x in the element precision.")
exp2 = _mk_unary("exp2", np.exp2, "2^x in the element precision.")
expm1 = _mk_unary("expm1", np.expm1, "e^x - 1, accurate near 0.")
log = _mk_unary("log", np.log, "Natural logarithm (NaN below 0, -inf at 0).")
log2 = _mk_unary("log2", np.log2, "Base-2 logarithm.")
log10 = _mk_unary("log10", np.log10, "Base-10 logarithm.")
log1p = _mk_unary("log1p", np.log1p, "log(1 + x), accurate near 0.")
tanh = _mk_unary("tanh", np.tanh, "Hyperbolic tangent.")
sinh = _mk_unary("sinh", np.sinh, "Hyperbolic sine.")
cosh = _mk_unary("cosh", np.cosh, "Hyperbolic cosine.")
sin = _mk_unary("sin", np.sin, "Sine (radians).")
cos = _mk_unary("cos", np.cos, "Cosine (radians).")
tan = _mk_unary("tan", np.tan, "Tangent (radians).")
asin = _mk_unary("asin", np.arcsin, "Arc sine.")
acos = _mk_unary("acos", np.arccos, "Arc cosine.")
atan = _mk_unary("atan", np.arctan, "Arc tangent.")
asinh = _mk_unary("asinh", np.arcsinh, "Inverse hyperbolic sine.")
acosh = _mk_unary("acosh", np.arccosh, "Inverse hyperbolic cosine.")
atanh = _mk_unary("atanh", np.arctanh, "Inverse hyperbolic tangent.")
erf = _mk_unary("erf", _via_f64(math.erf), "Error function (libm erf in double, then rounded).")
erfc = _mk_unary("erfc", _via_f64(math.erfc), "1 - erf(x) (libm erfc in double, rounded).")
cbrt = _mk_unary("cbrt", np.cbrt, "Real cube root (negative for negative x).")
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
    return _fbin(y, x, elem, np.arctan2, "atan2")


def powf(a: Any, b: Any, elem: str) -> Any:
    """a^b (C pow semantics: pow(x, 0) = 1, NaN for negative base with non-integer exponent)."""
    return _fbin(a, b, elem, np.power, "powf")


def copysign(a: Any, b: Any, elem: str) -> Any:
    """|a| with the sign bit of b."""
    return _fbin(a, b, elem, np.copysign, "copysign")


def fpowi(a: Any, n: Any, elem: str, int_elem: str = "i32") -> Any:
    """a^n for an integer exponent n (computed as pow in the element precision)."""
    _need_float(elem, "fpowi")
    nn = to_signed(n, int_elem).astype(np.float64)
    return _fcompute(elem, lambda x: np.power(x.astype(np.float64), nn), a)


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
    bits = np.ascontiguousarray(s).view(np.uint64)
    even = (bits & np.uint64(1)) == 0
    toward = np.where(err > 0, np.inf, -np.inf)
    return np.where((err != 0) & even, np.nextafter(s, toward), s)


def fma(a: Any, b: Any, c: Any, elem: str) -> Any:
    """a*b + c with a single rounding to the element type (IEEE fusedMultiplyAdd)."""
    _need_float(elem, "fma")
    x, y, z = (np.asarray(as_elem(v, elem)).astype(np.float64) for v in (a, b, c))
    x, y, z = np.broadcast_arrays(x, y, z)
    finite = np.isfinite(x) & np.isfinite(y) & np.isfinite(z)
    with np.errstate(all="ignore"):
        naive = x * y + z  # right for every non-finite case (inf*0 = nan, inf - inf = nan, ...)
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
