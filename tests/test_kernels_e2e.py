"""experiments/kernels_e2e: the checked-in kernels are what gen_kernels.py writes, the hoisting
pass keeps each accumulator tile in registers across its reduction loops, and a small tiled
GEMM optimized for avx2 computes the interpreter's bits."""

from __future__ import annotations

import numpy as np

from eqsat.hoist import hoist_module
from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from eqsat.targets import load_target
from experiments.kernels_e2e import gen_kernels
from frontend import parse


def _innermost_loop(module):  # type: ignore[no-untyped-def]
    loops = [op for op in module.walk() if op.name == "scf.for"]
    return loops[-1]


def test_checked_in_kernels_are_regenerated_exactly() -> None:
    for name, make in gen_kernels.KERNELS.items():
        assert (gen_kernels.HERE / name).read_text() == make(), name


def test_accumulators_and_invariant_reads_leave_the_loops() -> None:
    for name in ("gemm_128.mlir", "conv2d_nhwc_34x34x16x16.mlir"):
        module = parse(gen_kernels.KERNELS[name]())
        hoist_module(module)
        inner = [op.name for op in _innermost_loop(module).walk()]
        assert "vector.transfer_write" not in inner, name
        assert inner.count("vector.transfer_read") == 2, name  # the two operand tiles
    module = parse(gen_kernels.KERNELS["layernorm_64x256.mlir"]())
    hoist_module(module)
    assert [op.name for op in _innermost_loop(module).walk()].count("vector.transfer_read") == 1


def test_small_tiled_gemm_optimized_for_avx2_computes_the_same_bits() -> None:
    module = parse(gen_kernels.gemm(16, 4, 16, 1))
    result = optimize_module(module, target=load_target("avx2"), emit="vv")
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal((16, 16)).astype(np.float32) for _ in range(3))
    want, got = c.copy(), c.copy()
    Interpreter(module).call("gemm", a, b, want)
    Interpreter(result.module).call("gemm", a, b, got)
    assert want.tobytes() == got.tobytes()


def test_runners_load_and_refuse_bad_arguments(capsys) -> None:  # type: ignore[no-untyped-def]
    from experiments.kernels_e2e import quick_gemm, run

    assert run.main(["nope"]) == 2
    assert "unknown kernel(s) ['nope']" in capsys.readouterr().err
    assert quick_gemm.main(["12"]) == 2
    assert "no gemm_12.mlir" in capsys.readouterr().err
