"""vector.mask around one op takes part in optimization (eqsat/encode.py masked_op,
rules/canonicalize/mask.egg): an all-true mask disappears, masked reductions and reads become
unmasked forms they equal (the cost model chooses), and the optimized program computes the same bits."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from eqsat.interpret import Interpreter
from eqsat.optimize import optimize_module
from eqsat.targets import load_target
from frontend import parse

PROGRAM = """
func.func @f(%x: vector<4x8xf32>, %acc: vector<4xf32>, %m: memref<16xf32>, %n: index, %s: f32) -> (vector<4xf32>, vector<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 2.5 : f32
  %k = vector.create_mask %n, %n : vector<4x8xi1>
  %0 = vector.mask %k { vector.multi_reduction <add>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %k1 = vector.create_mask %n : vector<8xi1>
  %1 = vector.mask %k1 { vector.transfer_read %m[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  %all = vector.constant_mask [8] : vector<8xi1>
  %2 = vector.mask %all { vector.reduction <add>, %1, %s : vector<8xf32> into f32 } : vector<8xi1> -> f32
  return %0, %1, %2 : vector<4xf32>, vector<8xf32>, f32
}
"""


@pytest.mark.parametrize("n", [0, 3, 8])
def test_masked_ops_are_optimized_and_compute_the_same_bits(n: int) -> None:
    module = parse(PROGRAM)
    result = optimize_module(module, target=load_target("avx2"), emit="vv")
    names = Counter(op.name for op in result.module.walk())
    # the all-true mask is gone, the read carries its mask itself; the masked reduction is
    # the cost model's choice (the mask, or a select feeding the bare reduction)
    assert names["vector.constant_mask"] == 0 and names["vector.mask"] <= 1, names
    reads = [op for op in result.module.walk() if op.name == "vector.transfer_read"]
    assert len(reads) == 1 and len(reads[0].operands) == 4  # source, index, padding, mask
    rng = np.random.default_rng(n)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    acc = rng.standard_normal(4).astype(np.float32)
    mem = rng.standard_normal(16).astype(np.float32)
    s = np.float32(rng.standard_normal())
    want = Interpreter(module).call("f", x, acc, mem.copy(), n, s)
    got = Interpreter(result.module).call("f", x, acc, mem.copy(), n, s)
    for a, b in zip(want, got):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


def test_a_mask_the_rules_cannot_remove_round_trips_as_a_mask() -> None:
    text = """
func.func @g(%x: vector<8xf32>, %n: index) -> f32 {
  %k = vector.create_mask %n : vector<8xi1>
  %0 = vector.mask %k { vector.reduction <mul>, %x : vector<8xf32> into f32 } : vector<8xi1> -> f32
  return %0 : f32
}
"""
    module = parse(text)
    result = optimize_module(module, emit="vv")
    assert Counter(op.name for op in result.module.walk())["vector.mask"] == 1
    x = np.arange(1, 9, dtype=np.float32)
    want = Interpreter(module).call("g", x, 5)
    got = Interpreter(result.module).call("g", x, 5)
    assert np.asarray(want).tobytes() == np.asarray(got).tobytes() and float(got) == 120.0
