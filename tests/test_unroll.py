"""Symbolic tiles: one Tiled node per op, materialized per native vector when decoded."""

from __future__ import annotations

import io

from frontend import parse, print_module
from eqsat.cost import vv_cost
from eqsat.interpreter import run_function
from eqsat.optimizer import optimize_module
from eqsat.schema import neutral_facts


def lanes_squared(literals: tuple) -> float:
    """A cost that punishes wide ops (as a target without that width would)."""
    n = 1
    for d in literals[-1][1]:
        n *= d
    return float(n * n)


def run(module) -> str:
    out = io.StringIO()
    run_function(module, out=out)
    return out.getvalue()


ELEMENTWISE = """
func.func @entry() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : vector<2x4xf32>
  %b = arith.constant dense<[[0.5, 1.0, 1.5, 2.0], [2.5, 3.0, 3.5, 4.0]]> : vector<2x4xf32>
  %c = arith.addf %a, %b : vector<2x4xf32>
  %d = arith.mulf %c, %a : vector<2x4xf32>
  vector.print %d : vector<2x4xf32>
  return
}
"""

MATMUL = """
#mm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
                        affine_map<(i, j, k) -> (i, j)>],
       iterator_types = ["parallel", "parallel", "reduction"]}
func.func @entry() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.0, 2.0, 1.0], [0.0, 1.0, 2.0, 1.0], [1.0, 1.0, 0.0, 1.0]]> : vector<3x4xf32>
  %c = arith.constant dense<0.5> : vector<2x4xf32>
  %d = vector.contract #mm %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  vector.print %d : vector<2x4xf32>
  return
}
"""


def test_elementwise_chain_is_tiled_and_fused() -> None:
    module = parse(ELEMENTWISE)
    costs = vv_cost({"ArithAddf": lanes_squared, "ArithMulf": lanes_squared})
    result = optimize_module(module, cost=costs, native={"f32": 2})
    text = print_module(result.module)
    assert text.count("vector.extract_strided_slice") == 8  # 4 tiles x 2 sources
    assert text.count("arith.addf") == 4 and text.count("arith.mulf") == 4  # fused per tile
    assert "vector<1x2xf32>" in text
    assert run(result.module) == run(module)
    # the program's own terms (the schema's neutral-element facts are table rows in every graph)
    facts = neutral_facts().count("(set (neutral-lit")
    assert result.report.phase("explore").peak_nodes - facts < 100


def test_matmul_is_tiled_over_the_result_grid() -> None:
    module = parse(MATMUL)
    no_strategies = {name: 1e9 for name in
                     ("ContractDot", "ContractOuter", "ContractMatmul", "ContractParallel")}
    costs = vv_cost({"Contract": lanes_squared, **no_strategies})
    result = optimize_module(module, cost=costs, native={"f32": 2})
    text = print_module(result.module)
    assert text.count("vector.contract") == 4  # 2x4 result, tiles of 1x2
    assert "vector<1x3xf32>, vector<3x2xf32> into vector<1x2xf32>" in text
    assert run(result.module) == run(module)


def test_without_a_native_width_nothing_is_tiled() -> None:
    module = parse(ELEMENTWISE)
    result = optimize_module(module, cost=vv_cost({"ArithAddf": lanes_squared}))
    assert "extract_strided_slice" not in print_module(result.module)


COLUMNS = """
func.func @entry() {
  %x = arith.constant dense<[[0.0, -0.0, 1.0, -2.0], [-0.0, 0.0, 0xFFC00000, 3.0],
                             [-0.0, -0.0, -1.0, 0xFFC00000]]> : vector<3x4xf32>
  %acc = arith.constant dense<[-0.0, -0.0, 0.5, -5.0]> : vector<4xf32>
  %r = vector.multi_reduction <maxnumf>, %x, %acc [0] : vector<3x4xf32> to vector<4xf32>
  vector.print %r : vector<4xf32>
  return
}
"""


def test_column_reduction_is_tiled_over_the_result() -> None:
    """multi_reduction over dim 0: a chain per native tile of the result, rows in the same
    order (the interpreter's bits, signed zeros and NaNs included)."""
    module = parse(COLUMNS)
    costs = vv_cost({"MultiReduction": lanes_squared})
    result = optimize_module(module, cost=costs, native={"f32": 2})
    text = print_module(result.module)
    assert text.count("vector.multi_reduction") == 2  # result of 4, tiles of 2
    assert "vector<3x4xf32> to vector<3x2xf32>" in text  # every row of two columns
    assert run(result.module) == run(module)
