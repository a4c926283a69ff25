"""Packing (``eqsat.pack``): a strided panel an inner loop nest reads again and again is copied
into a contiguous buffer before the nest, every bit kept; and the reads it must leave alone."""

from __future__ import annotations

import numpy as np
import pytest

from eqsat.codegen import compile
from eqsat.interpreter import Interpreter
from eqsat.optimizer import loop_level, optimize_module
from eqsat.pack import pack_module
from eqsat.targets import load_target
from frontend import parse
from frontend.printer import print_module
from frontend.verifier import verify_module
from tests.mlir_tools import missing_tools, validate_with_mlir_opt

# C[0:8, 0:32] += A B with B's rows 4 KiB apart: a 16x16 panel of B (per j) whose 16 lines all
# fall into one L1 set, read by both iterations of the i loop.
GEMM = """
func.func @gemm(%A: memref<8x16xf32>, %B: memref<16x1024xf32>, %C: memref<8x1024xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %klo = arith.constant {klo} : index
  %p = arith.constant 0.0 : f32
  scf.for %j = %c0 to %c32 step %c16 {{
    scf.for %i = %c0 to %c8 step %c4 {{
      scf.for %k = %klo to %c16 step %c1 {{
        %a = vector.transfer_read %A[%i, %k], %p {{in_bounds = [true, true]}} : memref<8x16xf32>, vector<4x1xf32>
        %b = vector.transfer_read %B[%k, %j], %p {{in_bounds = [true, true]}} : memref<16x1024xf32>, vector<1x16xf32>
        %c = vector.transfer_read %C[%i, %j], %p {{in_bounds = [true, true]}} : memref<8x1024xf32>, vector<4x16xf32>
        %d = vector.contract {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}} %a, %b, %c : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
        vector.transfer_write %d, %C[%i, %j] {{in_bounds = [true, true]}} : vector<4x16xf32>, memref<8x1024xf32>
        {extra}
      }}
    }}
  }}
  return
}}
"""


def _gemm(klo: int = 0, extra: str = "") -> str:
    return GEMM.format(klo=klo, extra=extra)


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [rng.standard_normal(s).astype(np.float32) for s in ((8, 16), (16, 1024), (8, 1024))]


def _run(module, inputs: list[np.ndarray]) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    args = [x.copy() for x in inputs]
    Interpreter(module, fp_contract=True).call("gemm", *args)
    return args


@pytest.mark.parametrize("klo", [0, 4])  # 4: the buffer is indexed by k - 4
def test_strided_panel_is_packed_and_every_bit_kept(klo: int) -> None:
    text = _gemm(klo)
    inputs = _inputs()
    want = _run(parse(text), inputs)
    module = parse(text)
    assert pack_module(module) == 1
    verify_module(module)
    (alloca,) = [op for op in module.walk() if op.name == "memref.alloca"]
    assert str(alloca.results[0].type) == f"memref<{16 - klo}x16xf32>"
    j_loop = module.body.ops[0].regions[0].blocks[0].ops[-2]
    copy, i_loop = [op for op in j_loop.regions[0].blocks[0].ops if op.name == "scf.for"]
    copied = [op.name for op in copy.walk() if op.name.startswith("vector.")]
    assert copied == ["vector.transfer_read", "vector.transfer_write"]
    reads = [op for op in i_loop.walk() if op.name == "vector.transfer_read"]
    assert [r.operands[0] is alloca.results[0] for r in reads] == [False, True, False]
    got = _run(parse(print_module(module)), inputs)
    assert all(w.tobytes() == g.tobytes() for w, g in zip(want, got))


def test_reads_of_one_panel_share_one_copy() -> None:
    again = "%b2 = vector.transfer_read %B[%k, %j], %p {in_bounds = [true, true]} : " \
            "memref<16x1024xf32>, vector<1x16xf32>"  # fmt: skip
    module = parse(_gemm(extra=again))
    assert pack_module(module) == 2
    verify_module(module)
    assert sum(op.name == "memref.alloca" for op in module.walk()) == 1
    assert sum(op.name == "vector.transfer_write" for op in module.walk()) == 2  # copy, C


def test_packed_gemm_optimized_and_compiled_for_avx2_keeps_the_bits() -> None:
    module = parse(_gemm())
    inputs = _inputs()
    want = _run(module, inputs)
    result = optimize_module(module, target=load_target("avx2"), fp_contract=True)
    assert any(op.name == "memref.alloca" for op in result.module.walk())
    got = [x.copy() for x in inputs]
    compile(result.module, "avx2", fp_contract=True)["gemm"](*got)
    assert all(w.tobytes() == g.tobytes() for w, g in zip(want, got))
    assert all(w.tobytes() == g.tobytes()
               for w, g in zip(want, _run(loop_level(module), inputs)))  # fmt: skip
    off = optimize_module(module, target=load_target("avx2"), fp_contract=True, pack=False)
    assert not any(op.name == "memref.alloca" for op in off.module.walk())


@pytest.mark.skipif(bool(missing_tools(22)), reason="needs MLIR 22 (mlir-opt-22)")
def test_mlir_22_runs_the_packed_program_with_the_same_bits() -> None:
    """MLIR's rows of the benchmark get eqsat's loop passes, packing included: its
    outerproduct lowering of the packed program computes the interpreter's fp-contract bits."""
    from eqsat.bench import run

    text = _gemm()
    looped = print_module(loop_level(parse(text)))
    assert "memref.alloca" in looped  # MLIR's input is packed
    ok, err = validate_with_mlir_opt(looped)
    assert ok, err
    only = ["mlir-contract-outerproduct"]
    report = run.bench(text, "gemm.mlir", "gemm", load_target("avx2"), baseline="mlir",
                       repeats=1, placements=1, sample_seconds=0.001, only=only,
                       space="single", fp_contract=True)  # fmt: skip
    packed = report.row("mlir-loops-contract-outerproduct")
    assert packed is not None and packed.exact, report.rows
    assert report.row("eqsat").exact


REFUSED = {
    # B written inside the nest: the panel could change between iterations of i
    "a write to the source": _gemm(extra="vector.transfer_write %b, %B[%c0, %c16] "
                                   "{in_bounds = [true, true]} : vector<1x16xf32>, "
                                   "memref<16x1024xf32>"),
    # a view of B exists: it could be written through
    "a view of the source": _gemm().replace(
        "  %p = arith.constant", "  %v = memref.cast %B : memref<16x1024xf32> to "
        "memref<?x1024xf32>\n  %p = arith.constant"),
    # the i loop runs once: nothing to reuse
    "no reuse": _gemm().replace("scf.for %i = %c0 to %c8", "scf.for %i = %c0 to %c4"),
    # a dynamic bound: the panel's extent is unknown
    "a dynamic bound": _gemm().replace("(%A: memref<8x16xf32>", "(%n: index, %A: memref<8x16xf32>")
                              .replace("scf.for %k = %klo to %c16", "scf.for %k = %klo to %n"),
    # the k loop may run zero times: the copy would read what the program never reads
    "an empty loop": _gemm(klo=16),
    # B's rows 64 bytes apart: the panel lies contiguous, no set conflict to remove
    "a contiguous panel": _gemm().replace("memref<16x1024xf32>", "memref<16x16xf32>")
                                 .replace("scf.for %j = %c0 to %c32", "scf.for %j = %c0 to %c16"),
    # a 1024x16 panel of B: 64 KiB, larger than L1 packed too
    "a panel larger than L1": _gemm().replace("memref<16x1024xf32>", "memref<1024x1024xf32>")
                                     .replace("memref<8x16xf32>", "memref<8x1024xf32>")
                                     .replace("to %c16 step %c1", "to %c1024 step %c1")
                                     .replace("  %p = arith.constant",
                                              "  %c1024 = arith.constant 1024 : index\n"
                                              "  %p = arith.constant"),
    # an index computed inside the nest (as conv's %y + %u): not known before the nest
    "an index computed in the nest": _gemm().replace(
        "%b = vector.transfer_read %B[%k, %j]",
        "%jj = arith.addi %j, %c0 : index\n        %b = vector.transfer_read %B[%k, %jj]"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_reads_it_cannot_prove_or_that_do_not_pay_are_left_alone(case: str) -> None:
    text = REFUSED[case]
    module = parse(text)
    before = print_module(module)
    assert pack_module(module) == 0
    assert print_module(module) == before
