"""Reference semantics of the `arith` element-wise ops (numpy, exact wrap-around).

Every function takes arrays or scalars plus the element-type string and returns an array when
any operand is an array, else a numpy scalar. Integers are signless: the op decides whether the
bits read as signed or unsigned. Float ops compute in the type's precision (f16 through numpy's
float16 loops, bf16 in float32 rounded once to bf16: both are correctly rounded for + - * / sqrt
because float32 has more than 2p+2 bits).

NaN signs: a NaN operand propagates; a NaN an op *produces* (0/0, inf-inf, sqrt(-1)) carries
whatever sign the host gives (x86: -nan, which is also what MLIR's JIT prints at run time;
MLIR/LLVM constant folding gives +nan instead). LLVM leaves that sign unspecified, so compare
NaN signs leniently.
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

__all__ = [
    "addf",
    "addi",
    "addui_extended",
    "andi",
    "ceildivsi",
    "ceildivui",
    "cmpf",
    "cmpi",
    "divf",
    "divsi",
    "divui",
    "extf",
    "extsi",
    "extui",
    "floordivsi",
    "fptosi",
    "fptoui",
    "index_cast",
    "index_castui",
    "maximumf",
    "maxnumf",
    "maxsi",
    "maxui",
    "minimumf",
    "minnumf",
    "minsi",
    "minui",
    "mulf",
    "muli",
    "mulsi_extended",
    "mului_extended",
    "negf",
    "ori",
    "remf",
    "remsi",
    "remui",
    "select",
    "shli",
    "shrsi",
    "shrui",
    "sitofp",
    "subf",
    "subi",
    "truncf",
    "trunci",
    "uitofp",
    "xori",
]


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
    return _ubin(a, b, elem, lambda x, s: np.where(s >= w, 0, x << np.minimum(s, w - 1)), "shli")


def shrui(a: Any, b: Any, elem: str) -> Any:
    """Logical right shift; b (read unsigned) >= w gives 0 (poison in MLIR)."""
    w = bitwidth(elem)
    return _ubin(a, b, elem, lambda x, s: np.where(s >= w, 0, x >> np.minimum(s, w - 1)), "shrui")


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
    with np.errstate(all="ignore"):  # IEEE results (inf, NaN) are the semantics, not errors
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


def _nan_ignored(x: Any, y: Any, r: Any) -> Any:
    """``r`` where neither operand is NaN, else the other operand. np.fmax/np.fmin return NaN
    for a signalling NaN on some SIMD paths and not on others: the semantics must not depend on
    the host (LLVM's maxnum allows either; we always ignore the NaN, quiet or signalling)."""
    return np.where(np.isnan(x), y, np.where(np.isnan(y), x, r))


def minnumf(a: Any, b: Any, elem: str) -> Any:
    """IEEE minNum: a NaN operand is ignored; -0 < +0 (measured: minnumf(0, -0) = -0)."""
    return _fbin(
        a, b, elem,
        lambda x, y: _nan_ignored(
            x, y, _zero_sign_fix(np.fmin(x, y), x, y, np.signbit(x) | np.signbit(y))
        ),
        "minnumf",
    )  # fmt: skip


def maxnumf(a: Any, b: Any, elem: str) -> Any:
    """IEEE maxNum: a NaN operand is ignored; +0 > -0 (measured: maxnumf(-0, 0) = 0)."""
    return _fbin(
        a, b, elem,
        lambda x, y: _nan_ignored(
            x, y, _zero_sign_fix(np.fmax(x, y), x, y, np.signbit(x) & np.signbit(y))
        ),
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

    with np.errstate(invalid="ignore"):  # a signalling NaN: not an error here
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
