"""fp-contract mode: a float ``vector.contract<add>`` fuses each multiply-add (acc = fma(l_k,
r_k, acc), k ascending; ``frontend.semantics_vector.contract(fused=True)``). The interpreter,
the compiled code (avx2's ``llvm.fma`` and x86-64-v2's emulated fma) and MLIR 22's
``outerproduct`` lowering agree bit for bit; the default mode is unchanged."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from eqsat.cli import main
from eqsat.codegen.api import compile, emit_llvm_ir
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from frontend import parse
from frontend.semantics_vector import contract
from tests import mlir_tools

MM = ((0, 2), (2, 1), (0, 1))
ITS = ("parallel", "parallel", "reduction")
X = 1.000244140625  # 1 + 2^-12: x*x = 1 + 2^-11 + 2^-24 is a tie in f32, fma keeps the 2^-24

# acc = -7; k=0: 3 * 2 - 7 = -1 exactly; k=1: x * x - 1 = 2^-11 + 2^-24 fused, 2^-11 rounded
HAND = """
func.func @entry() {
  %a = arith.constant dense<[[3.0, 1.000244140625], [0.5, 0.25]]> : vector<2x2xf32>
  %b = arith.constant dense<[[2.0, 1.0], [1.000244140625, 3.0]]> : vector<2x2xf32>
  %c = arith.constant dense<[[-7.0, 0.0], [0.0, 0.0]]> : vector<2x2xf32>
  %r = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
      affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
      %a, %b, %c : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  vector.print %r : vector<2x2xf32>
  return
}
"""
FUSED_OUT = "( ( 0.000488341, 6.00073 ), ( 1.25006, 1.25 ) )"
ROUNDED_OUT = "( ( 0.000488281, 6.00073 ), ( 1.25006, 1.25 ) )"

# a tile kernel as the whole-kernel GEMM has it, with f16 operands promoted and a scalar dot
KERNEL = """
func.func @k(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>,
             %h: memref<2x8xf16>, %g: memref<8x8xf16>, %d: memref<2x8xf32>,
             %s: memref<1xf32>) {
  %i0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %ph = arith.constant 0.0 : f16
  %va = vector.transfer_read %a[%i0, %i0], %p : memref<4x8xf32>, vector<4x8xf32>
  %vb = vector.transfer_read %b[%i0, %i0], %p : memref<8x16xf32>, vector<8x16xf32>
  %vc = vector.transfer_read %c[%i0, %i0], %p : memref<4x16xf32>, vector<4x16xf32>
  %r = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
      affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
      %va, %vb, %vc : vector<4x8xf32>, vector<8x16xf32> into vector<4x16xf32>
  vector.transfer_write %r, %c[%i0, %i0] : vector<4x16xf32>, memref<4x16xf32>
  %vh = vector.transfer_read %h[%i0, %i0], %ph : memref<2x8xf16>, vector<2x8xf16>
  %vg = vector.transfer_read %g[%i0, %i0], %ph : memref<8x8xf16>, vector<8x8xf16>
  %vd = vector.transfer_read %d[%i0, %i0], %p : memref<2x8xf32>, vector<2x8xf32>
  %e = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
      affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
      %vh, %vg, %vd : vector<2x8xf16>, vector<8x8xf16> into vector<2x8xf32>
  vector.transfer_write %e, %d[%i0, %i0] : vector<2x8xf32>, memref<2x8xf32>
  %x = vector.extract %va[0] : vector<8xf32> from vector<4x8xf32>
  %y = vector.extract %vb[1] : vector<16xf32> from vector<8x16xf32>
  %y8 = vector.extract_strided_slice %y {offsets = [0], sizes = [8], strides = [1]}
      : vector<16xf32> to vector<8xf32>
  %s0 = memref.load %s[%i0] : memref<1xf32>
  %t = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>,
      affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>}
      %x, %y8, %s0 : vector<8xf32>, vector<8xf32> into f32
  memref.store %t, %s[%i0] : memref<1xf32>
  return
}
"""


def _args(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)

    def f(shape: tuple[int, ...], dt: type = np.float32) -> np.ndarray:
        return (rng.standard_normal(shape) * 4).astype(dt)

    return [f((4, 8)), f((8, 16)), f((4, 16)), f((2, 8), np.float16), f((8, 8), np.float16),
            f((2, 8)), f((1,))]  # fmt: skip


def _run(run: object, seed: int) -> list[np.ndarray]:
    args = _args(seed)
    run(*args)  # type: ignore[operator]
    return [args[2], args[5], args[6]]  # c, d, s: written in place


def _bits(outs: list[np.ndarray]) -> list[bytes]:
    return [o.tobytes() for o in outs]


def test_fused_contraction_rounds_each_multiply_add_once() -> None:
    a = np.array([[3.0, X]], dtype=np.float32)
    b = np.array([[2.0], [X]], dtype=np.float32)
    acc = np.array([[-7.0]], dtype=np.float32)
    rounded = contract(a, b, acc, *MM, ITS, "add", "f32")
    fused = contract(a, b, acc, *MM, ITS, "add", "f32", fused=True)
    assert rounded[0, 0] == np.float32(2.0**-11)
    assert fused[0, 0] == np.float32(2.0**-11 + 2.0**-24)
    # in k order: with the two points swapped, the cancellation happens last and both agree
    # with what fma(3, 2, fma(x, x, -7)) gives
    swapped = contract(a[:, ::-1], b[::-1], acc, *MM, ITS, "add", "f32", fused=True)
    step = np.float32(np.float64(X) * np.float64(X) - 7.0)
    assert swapped[0, 0] == np.float32(np.float64(step) + 6.0)
    # f64: an exact fma where the product needs 106 bits
    y = 1.0 + 2.0**-30
    d = contract(np.array([y]), np.array([y]), np.float64(-1.0), (0,), (0,), (),
                 ("reduction",), "add", "f64", fused=True)  # fmt: skip
    assert d == 2.0**-29 + 2.0**-60


def test_fused_mode_skips_masked_points_and_leaves_other_kinds_alone() -> None:
    a = np.array([[3.0, X]], dtype=np.float32)
    b = np.array([[2.0], [X]], dtype=np.float32)
    acc = np.array([[-7.0]], dtype=np.float32)
    mask = np.array([[[True, False]]])
    assert contract(a, b, acc, *MM, ITS, "add", "f32", mask=mask, fused=True)[0, 0] == -1.0
    for kind in ("maxnumf", "mul"):
        assert contract(a, b, acc, *MM, ITS, kind, "f32", fused=True) == contract(
            a, b, acc, *MM, ITS, kind, "f32"
        )
    ints = np.array([[3, 5]], dtype=np.int32), np.array([[2], [7]], dtype=np.int32)
    assert contract(*ints, np.array([[1]], dtype=np.int32), *MM, ITS, "add", "i32",
                    fused=True)[0, 0] == 42  # fmt: skip


def test_interpreter_mode_is_opt_in(capsys: pytest.CaptureFixture[str]) -> None:
    module = parse(HAND)
    Interpreter(module).call("entry")
    Interpreter(module, fp_contract=True).call("entry")
    assert capsys.readouterr().out.splitlines() == [ROUNDED_OUT, FUSED_OUT]


@pytest.mark.parametrize("target", ["avx2", "x86-64-v2"])
def test_compiled_code_matches_the_interpreter_in_each_mode(target: str) -> None:
    t = load_target(target)
    if not t.runs_on_host():
        pytest.skip(f"this host does not run {target}")
    module = parse(KERNEL)
    for fused in (False, True):
        program = compile(module, t, "k", fp_contract=fused)
        for seed in range(3):
            want = _run(lambda *a: Interpreter(module, fp_contract=fused).call("k", *a), seed)
            assert _bits(_run(program, seed)) == _bits(want), (target, fused, seed)
    fused_out = _run(lambda *a: Interpreter(module, fp_contract=True).call("k", *a), 0)
    rounded_out = _run(lambda *a: Interpreter(module).call("k", *a), 0)
    assert _bits(fused_out) != _bits(rounded_out)  # the inputs tell the modes apart


def test_fused_mode_emits_fma_and_the_default_does_not() -> None:
    module = parse(KERNEL)
    assert "llvm.fma.v16f32" in emit_llvm_ir(module, "avx2", fp_contract=True)
    assert "llvm.fma" not in emit_llvm_ir(module, "avx2")
    assert "llvm.fma" not in emit_llvm_ir(module, "x86-64-v2", fp_contract=True)  # emulated


def test_cli_run_takes_the_mode_and_rejects_a_value(tmp_path, capsys) -> None:
    path = tmp_path / "hand.mlir"
    path.write_text(HAND)
    assert main(["run", str(path), "--target", "interp", "--fp-contract"]) == 0
    assert capsys.readouterr().out.strip() == FUSED_OUT
    with pytest.raises(SystemExit) as e:
        main(["run", str(path), "--fp-contract=yes"])
    assert e.value.code == 2
    assert "--fp-contract: ignored explicit argument 'yes'" in capsys.readouterr().err


@pytest.mark.skipif(bool(mlir_tools.missing_tools(22)), reason="MLIR 22 tools not installed")
@pytest.mark.parametrize("strategy, out", [("outerproduct", FUSED_OUT), ("dot", ROUNDED_OUT),
                                           ("parallelarith", ROUNDED_OUT)])  # fmt: skip
def test_mlir_outerproduct_lowering_computes_the_fused_mode(tmp_path, strategy, out) -> None:
    """MLIR 22's outerproduct strategy computes the fused mode's bits; dot and parallelarith
    round each product (here the default mode's bits; on other data dot adds the accumulator
    after the products' sum, which the default mode does not)."""
    lowered = subprocess.run(
        [mlir_tools.find_tool("mlir-opt", 22), *mlir_tools._pipeline_22(strategy)],
        input=HAND, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    run = subprocess.run(
        [mlir_tools.find_tool("mlir-runner", 22), "-e", "entry", "-entry-point-result=void",
         f"-shared-libs={mlir_tools.runtime_for(22)}"],
        input=lowered, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert run.stdout.strip() == out


def _vt(*shape: int) -> tuple:
    return ("type", shape, "f32")


def test_fused_outer_profile_prices_the_fmas_its_expander_builds() -> None:
    """ContractOuterFused's cost profile has one fma per row and reduction point, as many as
    the fused outerproducts its expander builds (and ContractOuter a mulf and an addf each)."""
    from eqsat.optimizer import optimize_module
    from eqsat.targets.expansions import expansion

    m, k, n = 4, 8, 16
    lits = (MM, (0, 0, 1), "add", (m, k), 4, ("operands", _vt(m, k), _vt(k, n), _vt(m, n)),
            _vt(m, n))  # fmt: skip
    fused = {p[0]: p[-1] for p in expansion("ContractOuterFused", lits) or []}
    plain = {p[0]: p[-1] for p in expansion("ContractOuter", lits) or []}
    assert fused["vector.fma"] == m * k and "arith.mulf" not in fused and "arith.addf" not in fused
    assert plain["arith.mulf"] == plain["arith.addf"] == m * k and "vector.fma" not in plain
    body = KERNEL.split("%vh =")[0] + "  return\n}\n"  # the 4x8x16 tile only
    result = optimize_module(parse(body), target=load_target("avx2"), fp_contract=True)
    ops = [op.name for op in result.module.walk()]
    assert ops.count("vector.outerproduct") == m * k and "vector.contract" not in ops


@pytest.mark.parametrize("target", ["avx2", "x86-64-v2"])
def test_optimizer_in_fused_mode_keeps_the_bits(target: str) -> None:
    """Optimized in fp-contract mode, the kernel computes the fused bits (interpreted, and
    compiled where the host runs the target); no lowering with rounded products is chosen."""
    from eqsat.optimizer import optimize_module

    t = load_target(target)
    module = parse(KERNEL)
    result = optimize_module(module, target=t, fp_contract=True)
    ops = {op.name for op in result.module.walk()}
    assert not ops & {"vector.reduction", "vector.multi_reduction", "arith.mulf"}, ops
    want = _run(lambda *a: Interpreter(module, fp_contract=True).call("k", *a), 1)
    got = _run(lambda *a: Interpreter(result.module, fp_contract=True).call("k", *a), 1)
    assert _bits(got) == _bits(want)
    if t.runs_on_host():
        assert _bits(_run(compile(result.module, t, "k", fp_contract=True), 1)) == _bits(want)


def test_cli_opt_takes_the_mode(tmp_path, capsys) -> None:
    path = tmp_path / "hand.mlir"
    path.write_text(HAND)
    for mode in ([], ["--fp-contract"]):
        assert main(["opt", str(path), "--target", "avx2", "--emit", "llvm", *mode]) == 0
        assert ("llvm.fma" in capsys.readouterr().out) == bool(mode)
    with pytest.raises(SystemExit) as e:
        main(["opt", str(path), "--fp-contract=1"])
    assert e.value.code == 2
    assert "--fp-contract: ignored explicit argument '1'" in capsys.readouterr().err


def test_a_forced_outerproduct_strategy_is_the_fused_one_in_fused_mode() -> None:
    """MLIR's outerproduct strategy, forced (a transform script's choice), is ContractOuterFused
    in fp-contract mode (ContractOuter's rule is left out there) and ContractOuter outside it."""
    from eqsat.forced_strategies import forced_cost_overrides, own_strategies
    from eqsat.optimizer import optimize_module

    over = forced_cost_overrides({"vector.contract": "outerproduct"})
    assert "ContractOuterFused" not in over and "ContractOuter" not in over
    assert "ContractOuterFused" not in own_strategies("vector.contract")
    t = load_target("avx2")
    body = KERNEL.split("%vh =")[0] + "  return\n}\n"
    for fused in (True, False):
        result = optimize_module(parse(body), target=t, cost=t.cost_model(over, "hwv"),
                                 fp_contract=fused, unroll=1)  # fmt: skip
        ops = [op.name for op in result.module.walk()]
        assert "vector.contract" not in ops and ("arith.addf" in ops) is not fused, ops


def test_api_optimizes_and_compiles_in_the_mode() -> None:
    from eqsat import api

    t = load_target("avx2")
    if not t.runs_on_host():
        pytest.skip("this host does not run avx2")
    module = parse(KERNEL)
    want = _run(lambda *a: Interpreter(module, fp_contract=True).call("k", *a), 2)
    program = api.compile(KERNEL, t, optimize=True, fp_contract=True, entry="k")
    assert _bits(_run(program, 2)) == _bits(want)
    optimized = api.optimize(KERNEL, t, fp_contract=True)
    # the matmul-shaped ones become fused outer products; the dot (no free dim) has no fused
    # lowering and stays, compiled as one fma per point
    assert str(optimized).count("vector.contract") == 1


BATCHED = """
func.func @bmm(%a: memref<2x4x4xf64>, %b: memref<2x4x8xf64>, %c: memref<2x4x8xf64>) {
  %i0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f64
  %va = vector.transfer_read %a[%i0, %i0, %i0], %p : memref<2x4x4xf64>, vector<2x4x4xf64>
  %vb = vector.transfer_read %b[%i0, %i0, %i0], %p : memref<2x4x8xf64>, vector<2x4x8xf64>
  %vc = vector.transfer_read %c[%i0, %i0, %i0], %p : memref<2x4x8xf64>, vector<2x4x8xf64>
  %r = vector.contract {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>,
      affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"],
      kind = #vector.kind<add>} %va, %vb, %vc
      : vector<2x4x4xf64>, vector<2x4x8xf64> into vector<2x4x8xf64>
  vector.transfer_write %r, %c[%i0, %i0, %i0] : vector<2x4x8xf64>, memref<2x4x8xf64>
  return
}
"""


@pytest.mark.parametrize("fused", [True, False])
def test_a_batched_contraction_is_lowered_per_batch_entry(fused: bool) -> None:
    """A batch dim is split into one 2-D contraction per entry (``contract-batch-2-per-entry``,
    MLIR's ``lowerParallel``), so the batched matmul gets the outer-product lowering (fused in
    fp-contract mode, where it had only the lane-by-lane fold) with the interpreter's bits."""
    from eqsat.optimizer import optimize_module

    t = load_target("avx2")
    module = parse(BATCHED)
    result = optimize_module(module, target=t, fp_contract=fused)
    ops = [op.name for op in result.module.walk()]
    assert "vector.contract" not in ops and ops.count("vector.insert") >= 8, ops
    assert ("vector.fma" in ops or "vector.outerproduct" in ops) and ("arith.addf" in ops) is not fused
    rng = np.random.default_rng(3)
    args = [rng.standard_normal(s) for s in ((2, 4, 4), (2, 4, 8), (2, 4, 8))]

    def run(f: object) -> bytes:
        xs = [x.copy() for x in args]
        f(*xs)  # type: ignore[operator]
        return xs[2].tobytes()

    want = run(lambda *a: Interpreter(module, fp_contract=fused).call("bmm", *a))
    assert run(lambda *a: Interpreter(result.module, fp_contract=fused).call("bmm", *a)) == want
    if t.runs_on_host():
        assert run(compile(result.module, t, "bmm", fp_contract=fused)) == want
