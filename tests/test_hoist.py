"""eqsat.hoist: accumulator tiles carried in registers across a loop, invariant reads read
once; and the cases where moving a transfer would change what the program computes."""

from __future__ import annotations

import numpy as np

from eqsat.hoist import hoist_module
from eqsat.interpreter import Interpreter
from frontend import parse
from frontend.ir import Module

HEAD = """
func.func @gemm(%A: memref<8x16xf32>, %B: memref<16x16xf32>, %C: memref<8x16xf32>, %bias: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %p = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c4 {
    scf.for %k = %c0 to %c16 step %c8 {
      %a = vector.transfer_read %A[%i, %k], %p {in_bounds = [true, true]} : memref<8x16xf32>, vector<4x8xf32>
      %b = vector.transfer_read %B[%k, %c0], %p {in_bounds = [true, true]} : memref<16x16xf32>, vector<8x16xf32>
      %c = vector.transfer_read %C[%i, %c0], %p {in_bounds = [true, true]} : memref<8x16xf32>, vector<4x16xf32>
      %z = vector.transfer_read %bias[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
      %zb = vector.broadcast %z : vector<16xf32> to vector<4x16xf32>
      %d = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf32>, vector<8x16xf32> into vector<4x16xf32>
      %e = arith.addf %d, %zb : vector<4x16xf32>
      vector.transfer_write %e, %C[%i, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, memref<8x16xf32>
"""
TAIL = """
    }
  }
  return
}
"""
GEMM = HEAD + TAIL
# Another write to C in the k loop (the first rows): the pair no longer owns C in the loop.
OTHER_WRITE = HEAD + """
      vector.transfer_write %e, %C[%c0, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, memref<8x16xf32>
""" + TAIL


def _run(module: Module, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    args = [
        rng.standard_normal(s).astype(np.float32) for s in ((8, 16), (16, 16), (8, 16), (16,))
    ]
    Interpreter(module).call("gemm", *args)
    return args


def _loops(module: Module) -> list:
    return [op for op in module.walk() if op.name == "scf.for"]


def test_accumulator_tile_becomes_an_iter_arg_and_bias_read_leaves_both_loops() -> None:
    module = parse(GEMM)
    assert hoist_module(module) == 4  # the C pair (2 ops), the bias read out of each loop
    outer, inner = _loops(module)
    inner_ops = [op.name for op in inner.walk()]
    assert "vector.transfer_write" not in inner_ops
    assert inner_ops.count("vector.transfer_read") == 2  # A and B tiles only
    assert len(inner.results) == 1 and len(inner.regions[0].blocks[0].args) == 2
    func_body = module.body.ops[0].regions[0].blocks[0].ops
    assert [op.name for op in func_body].count("vector.transfer_read") == 1  # the bias
    for got, want in zip(_run(module), _run(parse(GEMM))):
        assert got.tobytes() == want.tobytes()


def test_a_second_write_to_the_memref_keeps_the_pair_in_the_loop() -> None:
    module = parse(OTHER_WRITE)
    hoist_module(module)
    inner = _loops(module)[1]
    assert not inner.results
    assert [op.name for op in inner.walk()].count("vector.transfer_write") == 2
    for got, want in zip(_run(module), _run(parse(OTHER_WRITE))):
        assert got.tobytes() == want.tobytes()


def test_a_view_of_the_memref_stops_the_pass() -> None:
    text = GEMM.replace(
        "  %p = arith.constant 0.0 : f32\n",
        "  %p = arith.constant 0.0 : f32\n"
        "  %v = memref.cast %C : memref<8x16xf32> to memref<8x16xf32>\n",
    )
    module = parse(text)
    assert hoist_module(module) == 2  # the bias read only (out of each loop)
    assert [op.name for op in _loops(module)[1].walk()].count("vector.transfer_write") == 1


def test_optimize_module_hoists_before_saturation_and_leaves_its_input_alone() -> None:
    from eqsat.optimizer import optimize_module
    from eqsat.targets import load_target

    module = parse(GEMM)
    result = optimize_module(module, target=load_target("avx2"), emit="vv")
    assert not _loops(module)[1].results  # the caller's module is not changed
    assert len(_loops(result.module)[1].results) == 1
    for got, want in zip(_run(result.module), _run(module)):
        assert got.tobytes() == want.tobytes()
