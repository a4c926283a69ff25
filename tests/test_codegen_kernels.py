"""Compiled kernels against the interpreter on random inputs (runtime code paths: the corpus
programs' constants fold away at compile time). Bit-exact, in both layouts, and within a
tolerance with reassociation on; and random well-typed programs (the generator of
tests/test_random_programs.py) bit-exact."""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eqsat.codegen import compile
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from experiments.lib.kernels import MATMUL, MULTI_REDUCTION, TRANSFER, TRANSPOSE
from frontend import parse
from frontend.ops.runtime import elem
from frontend.semantics import dtype_of
from frontend.types import MemRefType, VectorType
from tests.test_random_programs import programs

OUTER = MULTI_REDUCTION.replace("[1]", "[0]")
MATVEC = """
func.func @matvec(%a: vector<8x16xf32>, %x: vector<16xf32>, %y: vector<8xf32>) -> vector<8xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>,
      affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} %a, %x, %y
      : vector<8x16xf32>, vector<16xf32> into vector<8xf32>
  return %0 : vector<8xf32>
}
"""
MASKED = """
func.func @masked(%m: memref<?x?xf32>, %i: index, %j: index, %n: index) -> vector<4x8xf32> {
  %pad = arith.constant -7.0 : f32
  %c3 = arith.constant 3 : index
  %mask = vector.create_mask %c3, %n : vector<4x8xi1>
  %v = vector.transfer_read %m[%i, %j], %pad, %mask : memref<?x?xf32>, vector<4x8xf32>
  %t = vector.transfer_read %m[%j, %i], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x8xf32>
  %s = arith.addf %v, %t : vector<4x8xf32>
  vector.transfer_write %s, %m[%i, %i], %mask : vector<4x8xf32>, memref<?x?xf32>
  %g = vector.gather %m[%i, %j] [%mask2], %mask, %s : memref<?x?xf32>, vector<4x8xi32>, vector<4x8xi1>, vector<4x8xf32> into vector<4x8xf32>
  return %g : vector<4x8xf32>
}
""".replace("%mask2", "%idx").replace(
    "  %s = arith.addf", "  %idx = arith.constant dense<3> : vector<4x8xi32>\n  %s = arith.addf"
)
KERNELS = {
    "matmul4": MATMUL.format(m=4, n=4, k=4),
    "matmul8": MATMUL.format(m=8, n=8, k=8),
    "matmul_rect": MATMUL.format(m=3, n=5, k=6),
    "transpose8": TRANSPOSE.format(m=8, n=8),
    "reduce_inner": MULTI_REDUCTION.format(m=16, n=16),
    "reduce_outer": OUTER.format(m=16, n=16).replace("vector<{m}xf32>", "vector<16xf32>"),
    "matvec": MATVEC,
    "transfer": TRANSFER,
    "masked": MASKED,
}


def _target() -> str:
    for t in ("avx2", "x86-64-v2"):
        if load_target(t).runs_on_host():
            return t
    pytest.skip("this host runs none of the x86 targets")


def _inputs(fn, rng) -> list:
    out = []
    for t in fn.attributes["function_type"].type.inputs:
        if isinstance(t, (VectorType, MemRefType)):
            shape = tuple(s if s is not None else 12 for s in t.shape)
            out.append(rng.standard_normal(shape).astype(dtype_of(elem(t))))
        else:
            out.append(np.int64(2))
    return out


@pytest.mark.parametrize("layout", ["nested", "flat"])
@pytest.mark.parametrize("name", KERNELS)
def test_kernel_matches_interpreter(name: str, layout: str) -> None:
    module = parse(KERNELS[name])
    ((fname, fn),) = module.functions().items()
    args = _inputs(fn, np.random.default_rng(1))
    mine = [copy.deepcopy(a) for a in args]
    want = Interpreter(module).call(fname, *args)
    got = compile(module, _target(), layout=layout)[fname](*mine)
    if want is None:
        assert got is None
    else:
        assert np.array_equal(np.asarray(got), np.asarray(want)), (got, want)
    for a, b in zip(args, mine):
        assert np.array_equal(a, b)  # memrefs written the same


@pytest.mark.parametrize("name", ["matmul8", "reduce_inner", "matvec"])
def test_kernel_with_reassociation_is_close(name: str) -> None:
    module = parse(KERNELS[name])
    ((fname, fn),) = module.functions().items()
    args = _inputs(fn, np.random.default_rng(2))
    want = Interpreter(module).call(fname, *args)
    got = compile(module, _target(), reassoc=True)[fname](*args)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.integers(0, 2**32 - 1), st.sampled_from(["nested", "flat"]))
def test_random_programs_compile_to_the_interpreters_bits(case, seed, layout) -> None:
    text, shapes = case
    module = parse(text)
    rng = np.random.default_rng(seed)
    args = [rng.normal(0, 2, s).astype(np.float32) for s in shapes]
    want = Interpreter(module).call("f", *[a.copy() for a in args])
    got = compile(module, _target(), layout=layout).f(*args)
    assert np.array_equal(np.asarray(want), np.asarray(got), equal_nan=True), text


def test_fma_without_an_fma_unit_rounds_once_unless_fast_math(capsys) -> None:
    """x86-64-v2 has no FMA unit: the exact fused multiply-add of f32 is computed in double
    registers (round to odd, eqsat/codegen/fma.py), never a libm call per lane; with
    --reassoc it may round twice (llvm.fmuladd), a multiply and an add, as MLIR lowers it.
    The results stay within a rounding of the exact ones."""
    from pathlib import Path

    from eqsat.cli import main

    path = str(Path(__file__).parent.parent / "experiments" / "bench_kernels" / "axpy_8x32.mlir")
    assert main(["opt", path, "--target", "x86-64-v2", "--emit", "asm"]) == 0
    exact = capsys.readouterr().out
    assert main(["opt", path, "--target", "x86-64-v2", "--emit", "asm", "--reassoc"]) == 0
    fast = capsys.readouterr().out
    assert "fmaf" not in exact and "mulpd" in exact and "cvtpd2ps" in exact
    assert "fmaf" not in fast and "mulps" in fast and "addps" in fast and "mulpd" not in fast
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((2, 8, 32), np.float32)
    text = Path(path).read_text()
    if not load_target("x86-64-v2").runs_on_host():
        return
    from eqsat.optimizer import optimize_module

    outs = []
    for reassoc in (False, True):
        target = load_target("x86-64-v2")
        hwv = optimize_module(parse(text), target=target, emit="hwv", fast_math=reassoc).module
        fn = compile(hwv, target=target, reassoc=reassoc)["axpy_8x32"]
        out = y.copy()
        fn(np.float32(0.75), x, out)
        outs.append(out)
    want = y.copy()
    Interpreter(parse(text)).call("axpy_8x32", np.float32(0.75), x, want)
    assert np.array_equal(outs[0], want) and np.allclose(outs[1], want, rtol=1e-6, atol=1e-6)


def test_fast_math_8x8x8_matmul_is_pair_broadcasts_without_spills(capsys) -> None:
    """With --reassoc the avx2 8x8x8 f32 matmul is pair broadcasts: 32 64-bit broadcast loads
    feed 56 FMAs (the outer product needs 64 broadcast loads, as many loads as FMAs), and
    top-down scheduling (costs/avx2.toml) keeps its rows in order: at most a couple of
    accumulator spills. On the host (when it runs avx2) the results are the contraction's
    within a few ulps."""
    from pathlib import Path

    from eqsat.cli import main
    from eqsat.optimizer import optimize_module

    path = Path(__file__).parent.parent / "experiments" / "bench_kernels" / "matmul_8x8x8.mlir"
    assert main(["opt", str(path), "--target", "avx2", "--emit", "asm", "--reassoc"]) == 0
    asm = capsys.readouterr().out.split("_eqsat_packed")[0]  # the kernel, not its wrapper
    count = lambda mnemonic: len(re.findall(rf"^\s+{mnemonic}\s", asm, re.M))  # noqa: E731
    assert count("vbroadcastsd") == 32 and count("vbroadcastss") == 0
    assert count("vfmadd\\d+ps") == 56
    assert len(re.findall(r"\(%rsp\)", asm)) <= 8, "accumulators spilled"
    target = load_target("avx2")
    if not target.runs_on_host():
        return
    text = path.read_text()
    hwv = optimize_module(parse(text), target=target, emit="hwv", fast_math=True).module
    rng = np.random.default_rng(3)
    a, b, c = (rng.standard_normal((8, 8)).astype(np.float32) for _ in range(3))
    got = c.copy()
    compile(hwv, target=target, reassoc=True)["matmul_8x8x8"](a, b, got)
    want = c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
