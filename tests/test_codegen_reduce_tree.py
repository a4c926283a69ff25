"""The order-free reductions of the llvm dialect (min/max of every flavour, and/or/xor,
integer add/mul) are compiled as a pairwise tree (log depth) instead of a chain of n - 1
dependent steps; every bit must still be the interpreter's ordered fold, signed zeros, NaNs
and infinities included. That needs a minnum/maxnum that is commutative on (+0, -0), which
LLVM's is not (it may return either zero): the compiled one returns the interpreter's."""

from __future__ import annotations

import numpy as np
import pytest

from eqsat.codegen.api import compile, emit_llvm_ir
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from frontend import parse

FLOAT_KINDS = ("fmax", "fmin", "fmaximum", "fminimum")
INT_KINDS = ("add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin")
TARGETS = [t for t in ("avx2", "x86-64-v2") if load_target(t).runs_on_host()]


def _kernel(kind: str, n: int, e: str) -> str:
    return (f"func.func @f(%v: vector<{n}x{e}>) -> {e} {{\n"
            f'  %r = "llvm.intr.vector.reduce.{kind}"(%v) : (vector<{n}x{e}>) -> {e}\n'
            f"  return %r : {e}\n}}\n")  # fmt: skip


def test_a_tree_not_a_chain() -> None:
    ir_text = emit_llvm_ir(_kernel("fmax", 256, "f32"), "avx2")
    assert ir_text.count('call <128 x float> @"llvm.maxnum.v128f32"') == 1
    assert ir_text.count("call ") - 1 == ir_text.count("maxnum") // 2 == 8  # log2(256) steps
    # (the one other call is the packed entry point's call of @f)


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("kind", FLOAT_KINDS)
@pytest.mark.parametrize("n", [7, 16, 256])
def test_float_min_max_trees_keep_the_folds_bits(kind: str, n: int) -> None:
    module = parse(_kernel(kind, n, "f32"))
    programs = [compile(module, t, "f") for t in TARGETS]
    rng = np.random.default_rng(n)
    pool = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -1.0, 1e-45], np.float32)
    for _ in range(300):
        v = rng.choice(pool, n).astype(np.float32)
        want = np.float32(Interpreter(module).call("f", v))
        for program in programs:
            got = np.float32(program(v))
            assert (np.isnan(got) and np.isnan(want)) or got.view(np.uint32) == want.view(
                np.uint32
            ), (kind, v.tolist(), got, want)


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("kind", INT_KINDS)
def test_integer_trees_keep_the_folds_value(kind: str) -> None:
    module = parse(_kernel(kind, 13, "i32"))
    programs = [compile(module, t, "f") for t in TARGETS]
    rng = np.random.default_rng(13)
    for _ in range(50):
        v = rng.choice(np.array([0, 1, -1, 2**31 - 1, -(2**31), 7, -7], np.int32), 13)
        want = Interpreter(module).call("f", v)
        for program in programs:
            assert program(v) == want, (kind, v.tolist())


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("op", ["arith.maxnumf", "arith.minnumf"])
@pytest.mark.parametrize("e", ["f32", "f64", "f16"])
def test_element_wise_min_max_num_pick_the_interpreters_zero(op: str, e: str) -> None:
    text = (f"func.func @f(%a: vector<8x{e}>, %b: vector<8x{e}>) -> vector<8x{e}> {{\n"
            f"  %r = {op} %a, %b : vector<8x{e}>\n  return %r : vector<8x{e}>\n}}\n")  # fmt: skip
    module = parse(text)
    dt = {"f32": np.float32, "f64": np.float64, "f16": np.float16}[e]
    a = np.array([0.0, -0.0, 0.0, -0.0, np.nan, 1.0, -0.0, 2.0], dt)
    b = np.array([-0.0, 0.0, 0.0, -0.0, -0.0, np.nan, 1.0, 2.0], dt)
    want = np.asarray(Interpreter(module).call("f", a, b), dt)
    for t in TARGETS:
        got = np.asarray(compile(module, t, "f")(a, b), dt)
        assert np.array_equal(np.signbit(got), np.signbit(want)) and np.array_equal(
            got, want, equal_nan=True
        ), (t, got, want)
