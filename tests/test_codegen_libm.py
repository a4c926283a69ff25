"""Transcendentals call the C library's function of the element's precision (``expf`` on f32,
f16 and bf16 widened to f32; ``exp`` on f64), in the interpreter and in compiled code alike,
as LLVM does with MLIR's ``llvm.exp.v8f32``: every bit agrees, special values included."""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np
import pytest

from eqsat.codegen.api import compile, emit_llvm_ir
from eqsat.targets import load_target
from eqsat.interpreter import Interpreter
from frontend import parse
from frontend.semantics_math import exp

N = 512
UNARY = ("exp", "log", "tanh", "sin", "erf", "cbrt")
KERNEL = """
func.func @k(%a: memref<{n}x{m}>, %b: memref<{n}x{m}>, {outs}) {{
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %n = arith.constant {n} : index
  scf.for %i = %c0 to %n step %c8 {{
    %xm = vector.load %a[%i] : memref<{n}x{m}>, vector<8x{m}>
    %ym = vector.load %b[%i] : memref<{n}x{m}>, vector<8x{m}>
{body}
  }}
  return
}}
"""
LIBM = ctypes.CDLL(ctypes.util.find_library("m")) if ctypes.util.find_library("m") else None


def _kernel(elem: str) -> str:
    """bf16 travels in f32 memrefs (numpy has no bfloat16): truncated in, extended out."""
    m = "f32" if elem == "bf16" else elem
    names = [*UNARY, "powf"]
    outs = ", ".join(f"%o{i}: memref<{N}x{m}>" for i in range(len(names)))
    body = []
    for v in "xy":
        cast = f"arith.truncf %{v}m : vector<8xf32> to vector<8xbf16>"
        body.append(f"    %{v} = {cast}" if elem == "bf16" else f"    %{v} = vector.bitcast %{v}m : vector<8x{m}> to vector<8x{m}>")
    for i, name in enumerate(names):
        args = "%x, %y" if name == "powf" else "%x"
        body.append(f"    %r{i} = math.{name} {args} : vector<8x{elem}>")
        r = f"%r{i}"
        if elem == "bf16":
            body.append(f"    %w{i} = arith.extf %r{i} : vector<8xbf16> to vector<8xf32>")
            r = f"%w{i}"
        body.append(f"    vector.store {r}, %o{i}[%i] : memref<{N}x{m}>, vector<8x{m}>")
    return KERNEL.format(n=N, m=m, outs=outs, body="\n".join(body))


def _inputs(elem: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    dt = np.float64 if elem == "f64" else np.float16 if elem == "f16" else np.float32
    a = (rng.standard_normal(N) * 2.0 ** rng.integers(-12, 8, N)).astype(dt)
    b = rng.standard_normal(N).astype(dt)
    snan = {np.float16: (np.uint16, 0x7C01), np.float32: (np.uint32, 0x7F800001),
            np.float64: (np.uint64, 0x7FF0000000000001)}[dt]  # fmt: skip
    special = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0, -1.0, 100.0, -100.0]
    a[: len(special)] = special
    b[: len(special)] = special[::-1]
    a[len(special)] = 1.0  # powf(1, sNaN) is NaN, powf(1, qNaN) is 1
    b[len(special)] = np.array([snan[1]], snan[0]).view(dt)[0]
    b[len(special) + 1] = 0.0
    a[len(special) + 1] = np.array([snan[1]], snan[0]).view(dt)[0]
    if elem == "bf16":  # values bf16 holds exactly
        a = (a.view(np.uint32) & 0xFFFF0000).view(np.float32)
        b = (b.view(np.uint32) & 0xFFFF0000).view(np.float32)
    return a, b


@pytest.mark.skipif(LIBM is None, reason="no C math library found")
def test_f32_calls_the_float_function() -> None:
    """expf, not exp rounded to f32: the two differ in the last bit on some inputs (glibc's
    expf on 2^-13 * 1.95 is one ulp above the correctly rounded value)."""
    expf = LIBM.expf
    expf.restype, expf.argtypes = ctypes.c_float, [ctypes.c_float]
    x = np.array([float.fromhex("0x1.f310ccp-13"), float.fromhex("0x1.24659p-12"), 0.5, -3.25,
                  88.0, -104.0], np.float32)  # fmt: skip
    want = np.array([expf(float(v)) for v in x], np.float32)
    assert exp(x, "f32").tobytes() == want.tobytes()
    h = np.array([0.5, -3.25, 7.5], np.float16)  # widened to f32 exactly, rounded back once
    want_h = np.array([expf(float(v)) for v in h], np.float32).astype(np.float16)
    assert exp(h, "f16").tobytes() == want_h.tobytes()


def test_the_call_is_of_the_element_precision() -> None:
    ir_f32 = emit_llvm_ir(_kernel("f32"), "avx2")
    assert "@\"expf\"(float" in ir_f32 and "@\"exp\"" not in ir_f32 and "fpext" not in ir_f32
    assert "@\"expf\"(float" in emit_llvm_ir(_kernel("f16"), "avx2")
    ir_f64 = emit_llvm_ir(_kernel("f64"), "avx2")
    assert "@\"exp\"(double" in ir_f64 and "@\"expf\"" not in ir_f64


@pytest.mark.skipif(not load_target("x86-64-v2").runs_on_host(), reason="not an x86-64 host")
@pytest.mark.parametrize("elem", ["f32", "f16", "bf16", "f64"])
def test_every_bit_agrees_with_the_interpreter(elem: str) -> None:
    text = _kernel(elem)
    program = compile(parse(text), "x86-64-v2", "k")
    a, b = _inputs(elem, np.random.default_rng(20261126))
    outs = [np.zeros_like(a) for _ in range(len(UNARY) + 1)]
    program(a, b, *outs)
    wants = [np.zeros_like(a) for _ in outs]
    Interpreter(parse(text)).call("k", a, b, *wants)
    width = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize]
    for name, out, want in zip([*UNARY, "powf"], outs, wants, strict=True):
        same = (out.view(width) == want.view(width)) | (np.isnan(out) & np.isnan(want))
        bad = np.flatnonzero(~same)[:3]
        assert same.all(), (name, [(a[i], b[i], out[i], want[i]) for i in bad])


def test_vector_lanes_are_read_from_memory_by_one_helper_per_function_and_type() -> None:
    """Every call clobbers every vector register: lanes taken out of a register before the
    calls were each spilled (a shuffle, a store and a load a lane, 1,184 stack moves a softmax
    row against the 550 of MLIR's split ``llvm.exp.v256f32``). The lanes now go through
    memory: one never-inlined helper per function and vector type loads a lane, calls, stores
    the result, in a loop; its calls are still the library's, so the bits are (above)."""
    text = _kernel("f32")
    ir = emit_llvm_ir(text, "avx2")
    for name in ("exp", "log", "pow"):
        helper = f'@"_eqsat_{name}_v8f32"'
        assert ir.count(f"define internal void {helper}") == 1, name
        assert ir.count(f"call void {helper}") == 1, name  # one call site in @k
    k = ir[ir.index('define void @"k"'):]
    k = k[: k.index("\n}")]
    assert 'call float @"expf"' not in k and "extractelement" not in k
    assert "noinline" in ir


POW_OF_A_SCAN = """
func.func @f(%x: vector<6x4xf64>, %b: vector<4xf64>, %i: vector<4xf64>) -> (vector<6x4xf64>, vector<4xf64>) {
  %s:2 = vector.scan <maximumf>, %x, %i {inclusive = true, reduction_dim = 0}
      : vector<6x4xf64>, vector<4xf64>
  %p = math.powf %x, %s#0 : vector<6x4xf64>
  %q = math.powf %b, %i : vector<4xf64>
  return %p, %q : vector<6x4xf64>, vector<4xf64>
}
"""


@pytest.mark.skipif(not load_target("x86-64-v2").runs_on_host(), reason="not an x86-64 host")
@pytest.mark.parametrize("target", ["x86-64-v2", "avx2"])
def test_pow_of_a_nan_is_the_same_whichever_nan_reached_it(target: str) -> None:
    """pow(1, NaN) and pow(x, 0) are 1 whether the NaN is quiet or signalling, so compiled code
    agrees with the interpreter although LLVM's maximum of a quiet and a signalling NaN keeps
    the other one than numpy's (a fuzz finding: 1.0 interpreted, NaN compiled)."""
    if not load_target(target).runs_on_host():
        pytest.skip(f"this host does not run {target}")
    snan = np.array([0x7FF0000000000001], dtype=np.uint64).view(np.float64)[0]
    x = np.array([[np.nan, 2.0, snan, 0.0], [-1.0, snan, np.nan, 0.0], [-0.0, 1.0, 1.0, 0.0],
                  [snan, np.nan, 3.0, 0.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
    b = np.array([1.0, snan, 1.0, snan])
    i = np.zeros(4)
    want = Interpreter(parse(POW_OF_A_SCAN)).call("f", x, b, i)
    got = compile(POW_OF_A_SCAN, target, "f")(x, b, i)
    for w, g in zip(want, got):
        assert np.array_equal(np.isnan(w), np.isnan(g)) and np.array_equal(w[~np.isnan(w)], g[~np.isnan(g)])
    assert want[0][4, 0] == 1.0 and list(want[1]) == [1.0] * 4  # pow(1, NaN), pow(NaN, 0)
