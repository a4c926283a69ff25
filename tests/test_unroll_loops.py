"""Unrolling innermost loops (``eqsat.unroll_loops``) keeps every bit and leaves alone the
loops it cannot unroll without a remainder."""

from __future__ import annotations

import numpy as np

from eqsat.interpreter import Interpreter
from eqsat.optimizer import loop_level, optimize_module
from eqsat.targets import load_target
from eqsat.unroll_loops import unroll_module
from experiments.kernels_e2e.gen_kernels import gemm
from frontend import parse

LOOP = """
func.func @f(%m: memref<{n}xf32>) -> f32 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {n} : index
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {{
    %x = memref.load %m[%i] : memref<{n}xf32>
    %y = arith.mulf %x, %acc : f32
    %a = arith.addf %y, %x : f32
    scf.yield %a : f32
  }}
  return %s : f32
}}
"""


def _loops(module) -> list:  # type: ignore[no-untyped-def]
    return [op for op in module.walk() if op.name == "scf.for"]


def test_unrolled_loop_computes_the_same_bits() -> None:
    x = np.random.default_rng(0).standard_normal(12).astype(np.float32)
    module = parse(LOOP.format(n=12))
    want = Interpreter(module).call("f", x.copy())
    assert unroll_module(module) == 1
    (loop,) = _loops(module)
    body = loop.regions[0].blocks[0].ops
    assert sum(op.name == "arith.mulf" for op in body) == 4
    assert loop.operands[2].owner.attributes["value"].value == 4
    assert Interpreter(parse(str(module))).call("f", x.copy()).tobytes() == want.tobytes()


def test_loops_with_a_remainder_or_too_few_trips_are_left_alone() -> None:
    for n in (10, 4):  # 10 % 4 != 0; 4 trips: nothing to gain
        module = parse(LOOP.format(n=n))
        assert unroll_module(module) == 0


def test_a_long_body_is_left_alone_before_and_after_lowering() -> None:
    """softmax's row loop (256-lane vectors, an expf call per lane): nothing to amortise."""
    from pathlib import Path

    path = Path(__file__).parent.parent / "experiments" / "kernels_e2e" / "softmax_64x256.mlir"
    assert unroll_module(parse(path.read_text())) == 0
    optimized = optimize_module(parse(path.read_text()), target=load_target("avx2")).module
    assert [_step(op) for op in _loops(optimized)] == [1]


def test_optimized_tiled_gemm_is_unrolled_and_keeps_its_bits() -> None:
    text = gemm(16)
    module = parse(text)
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal((16, 16)).astype(np.float32) for _ in range(3))
    result = optimize_module(module, target=load_target("avx2"), fp_contract=True)
    assert [_step(op) for op in _innermost(result.module)] == [4]
    want, got, mlir_side = c.copy(), c.copy(), c.copy()
    Interpreter(module, fp_contract=True).call("gemm", a, b, want)
    Interpreter(result.module, fp_contract=True).call("gemm", a, b, got)
    Interpreter(loop_level(module), fp_contract=True).call("gemm", a, b, mlir_side)
    assert want.tobytes() == got.tobytes() == mlir_side.tobytes()
    off = optimize_module(module, target=load_target("avx2"), fp_contract=True, unroll=1)
    assert [_step(op) for op in _innermost(off.module)] == [1]


def _step(loop) -> int:  # type: ignore[no-untyped-def]
    return loop.operands[2].owner.attributes["value"].value


def _innermost(module) -> list:  # type: ignore[no-untyped-def]
    return [op for op in _loops(module)
            if not any(o.regions for o in op.regions[0].blocks[0].ops)]  # fmt: skip
