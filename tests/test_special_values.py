"""The special values every rule check and fuzz run draws, and the comparison they use."""

from __future__ import annotations

import numpy as np
import pytest

from eqsat import special_values as sv
from frontend import parse, print_module
from frontend.semantics_arith import maxnumf, minnumf


@pytest.mark.parametrize("elem", ["f16", "bf16", "f32", "f64"])
def test_float_specials_cover_the_ieee_classes(elem: str) -> None:
    values = sv.float_specials(elem)
    arr = np.asarray(values)
    assert np.isnan(arr).sum() == 4  # quiet and signalling, both signs
    assert np.isposinf(arr).sum() == 1 and np.isneginf(arr).sum() == 1
    zeros = arr[arr == 0]
    assert sorted(np.signbit(zeros).tolist()) == [False, True]
    finite = arr[np.isfinite(arr)]
    tiny = np.finfo(np.float32 if elem == "bf16" else arr.dtype).tiny
    assert (np.abs(finite[finite != 0]) < tiny).any() or elem == "bf16"  # denormals
    if elem != "bf16":
        assert np.max(finite) == np.finfo(arr.dtype).max


@pytest.mark.parametrize("elem", ["f16", "f32", "f64"])
def test_signalling_nans_are_signalling(elem: str) -> None:
    bits = {"f16": (np.uint16, 9), "f32": (np.uint32, 22), "f64": (np.uint64, 51)}
    ut, quiet_bit = bits[elem]
    nans = [v for v in sv.float_specials(elem) if np.isnan(v)]
    quiet = [(int(np.asarray(v).view(ut)) >> quiet_bit) & 1 for v in nans]
    assert sorted(quiet) == [0, 0, 1, 1]


@pytest.mark.parametrize(("elem", "lo", "hi"), [("i8", -128, 127), ("i32", -(2**31), 2**31 - 1),
                                                 ("i64", -(2**63), 2**63 - 1)])
def test_int_specials(elem: str, lo: int, hi: int) -> None:
    assert {lo, hi, -1, 0}.issubset(sv.int_specials(elem))
    assert sv.int_specials("i1") == [0, 1]


def test_every_special_value_appears_within_the_covering_trials() -> None:
    rng = np.random.default_rng(0)
    seen = set()
    for trial in range(1, sv.covering_trials("f32", 4) + 1):
        seen.update(sv.draw("f32", (4,), rng, trial).view(np.uint32).tolist())
    assert seen == {int(np.asarray(v).view(np.uint32)) for v in sv.float_specials("f32")}


def test_same_bits_tells_signed_zeros_apart_and_equates_nans() -> None:
    assert not sv.same_bits(np.float32(0.0), np.float32(-0.0))
    assert sv.same_bits(np.float32(np.nan), -np.float32(np.nan))
    assert not sv.same_bits(np.float32(np.nan), np.float32(1.0))
    assert not sv.same_bits(np.zeros(2, np.float32), np.zeros(2, np.float64))
    assert sv.same_bits(np.array([1, -1], np.int8), np.array([1, -1], np.int8))


@pytest.mark.parametrize("elem", ["f16", "f32", "f64"])
def test_maxnum_minnum_ignore_signalling_nans_on_every_host(elem: str) -> None:
    """np.fmax returns NaN for a signalling NaN on some SIMD paths: found by check-rules."""
    snan = [v for v in sv.float_specials(elem) if np.isnan(v)][1]
    five = np.asarray(5.5, dtype=np.asarray(snan).dtype)
    for f in (maxnumf, minnumf):
        assert f(snan, five, elem) == 5.5 and f(five, snan, elem) == 5.5
        assert f(np.array([snan] * 4), np.array([five] * 4), elem).tolist() == [5.5] * 4


def test_signalling_nan_constants_print_back_bit_exact() -> None:
    """Found by the fuzzer: NaN constants lost their signalling bit (and f16 payloads) in a
    print/parse round trip."""
    text = (
        "func.func @f() -> (vector<3xf16>, vector<2xf32>, vector<2xbf16>) {\n"
        "  %0 = arith.constant dense<[0x7C01, 0xFE00, 0x7E05]> : vector<3xf16>\n"
        "  %1 = arith.constant dense<[0x7F800001, 0xFFC00000]> : vector<2xf32>\n"
        "  %2 = arith.constant dense<[0x7F81, 0xFFC0]> : vector<2xbf16>\n"
        "  return %0, %1, %2 : vector<3xf16>, vector<2xf32>, vector<2xbf16>\n}\n"
    )
    printed = print_module(parse(text))
    for literal in ("0x7C01, 0xFE00, 0x7E05", "0x7F800001, 0xFFC00000", "0x7F81, 0xFFC0"):
        assert literal in printed
    assert print_module(parse(printed)) == printed
