"""A long ordered float reduction (softmax's row sum) is emitted as one chain of scalar steps
on lanes of the source vector, not as ``llvm.vector.reduce.fadd`` calls on 8-lane shuffles: the
latter, expanded late in LLVM's O3 pipeline, left shuffles and a ``-0.0 +`` start in the
optimized IR and compiled to code measured 10% slower on softmax 64x256 (README, "Real
programs"). The order of the additions, hence every bit, is the interpreter's."""

from __future__ import annotations

import numpy as np
import pytest

from eqsat.codegen.api import compile, emit_llvm_ir
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from frontend import parse


def _kernel(kind: str, n: int) -> str:
    return (f"func.func @f(%v: vector<{n}xf32>) -> f32 {{\n"
            f"  %r = vector.reduction <{kind}>, %v : vector<{n}xf32> into f32\n"
            f"  return %r : f32\n}}\n")  # fmt: skip


@pytest.mark.parametrize("kind,op", [("add", "fadd"), ("mul", "fmul")])
def test_a_long_ordered_reduction_is_one_chain_of_scalar_steps(kind: str, op: str) -> None:
    ir_text = emit_llvm_ir(_kernel(kind, 256), "avx2")
    body = ir_text.split("define ", 2)[1]
    assert "llvm.vector.reduce" not in body and "shufflevector" not in body
    assert body.count(f"= {op} float") == 256
    assert body.count("extractelement <256 x float>") == 256


@pytest.mark.skipif(not load_target("avx2").runs_on_host(), reason="the host lacks AVX2")
@pytest.mark.parametrize("kind", ["add", "mul"])
def test_the_chain_keeps_the_interpreters_bits(kind: str) -> None:
    module = parse(_kernel(kind, 40))
    program = compile(module, "avx2", "f")
    rng = np.random.default_rng(3)
    for scale in (1.0, 1e30, 1e-30):
        v = (rng.uniform(-1, 1, 40) * scale).astype(np.float32)
        v[::7] = -0.0
        want = np.float32(Interpreter(module).call("f", v))
        got = np.float32(program(v))
        assert got.view(np.uint32) == want.view(np.uint32), (kind, scale, got, want)
