"""The contraction MLIR's vectorizer leaves as mulf + multi_reduction over broadcasting reads
(rules/canonicalize/contract_recognize.egg) is optimized as a vector.contract: the extracted
program holds no iteration-space (3-D) product any more, and computes the same bits."""

from __future__ import annotations

import numpy as np

from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from eqsat.targets import load_target
from frontend import parse

# mlir-opt-22 --transform-interpreter (transform.structured.vectorize on linalg.matmul, no
# contraction folding) --canonicalize; its ub.poison padding spelled as a constant.
VECTORIZED_MATMUL = """
#map = affine_map<(d0, d1) -> (d0, 0, d1)>
#map1 = affine_map<(d0, d1) -> (0, d1, d0)>
func.func @mm(%arg0: memref<8x4xf32>, %arg1: memref<4x8xf32>, %arg2: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %0 = arith.constant 0.0 : f32
  %1 = vector.transfer_read %arg0[%c0, %c0], %0 {in_bounds = [true, true, true], permutation_map = #map} : memref<8x4xf32>, vector<8x8x4xf32>
  %2 = vector.transfer_read %arg1[%c0, %c0], %0 {in_bounds = [true, true, true], permutation_map = #map1} : memref<4x8xf32>, vector<8x8x4xf32>
  %3 = vector.transfer_read %arg2[%c0, %c0], %0 {in_bounds = [true, true]} : memref<8x8xf32>, vector<8x8xf32>
  %4 = arith.mulf %1, %2 : vector<8x8x4xf32>
  %5 = vector.multi_reduction <add>, %4, %3 [2] : vector<8x8x4xf32> to vector<8x8xf32>
  vector.transfer_write %5, %arg2[%c0, %c0] {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x8xf32>
  return
}
"""


def _run(module, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    out = c.copy()
    Interpreter(module).call("mm", a.copy(), b.copy(), out)
    return out


def test_vectorized_matmul_becomes_a_contraction_with_the_same_bits() -> None:
    module = parse(VECTORIZED_MATMUL)
    result = optimize_module(module, target=load_target("avx2"), emit="vv")
    names = [op.name for op in result.module.walk()]
    types = {str(r.type) for op in result.module.walk() for r in op.results}
    assert "vector.multi_reduction" not in names
    assert not any(t.startswith("vector<8x8x4") for t in types), types
    rng = np.random.default_rng(0)
    a = rng.standard_normal((8, 4)).astype(np.float32)
    b = rng.standard_normal((4, 8)).astype(np.float32)
    c = rng.standard_normal((8, 8)).astype(np.float32)
    want = _run(module, a, b, c)
    got = _run(result.module, a, b, c)
    assert want.tobytes() == got.tobytes()
