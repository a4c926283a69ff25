"""HWV-level programs compile: every program of the differential corpus extracted at the HWV
level for a target (``optimize_module(..., emit="hwv")``, what ``eqsat opt --target T --emit
llvm`` and ``eqsat run --target T`` compile) prints its golden when compiled for that target;
target intrinsics are emitted only where the target has the features (LLVM aborts on the
others), with portable lowerings of the same bits elsewhere.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest

from eqsat.codegen import compile, emit_assembly, emit_llvm_ir
from eqsat.codegen.types import CodegenError
from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from eqsat.targets import load_target
from frontend import parse, parse_file
from tests.mlir_tools import program_paths

PROGRAMS = Path(__file__).parent / "programs"


def _printed(module, target) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        compile(module, target)["entry"]()
    return buf.getvalue()


@pytest.mark.parametrize("target", ["avx2", "x86-64-v2"])
@pytest.mark.parametrize("path", program_paths(), ids=lambda p: p.stem)
def test_hwv_extracted_program_prints_its_golden(path: Path, target: str) -> None:
    t = load_target(target)
    if not t.runs_on_host():
        pytest.skip(f"this host cannot run {target} code")
    res = optimize_module(parse_file(path), target=t, emit="hwv")
    try:
        out = _printed(res.module, t)
    except CodegenError as e:
        if "scalable" in str(e):
            pytest.skip(f"{target} cannot compile this program: {e}")
        raise
    assert out == path.with_suffix(".expected").read_text()


def _ir(name: str, target: str) -> str:
    return emit_llvm_ir(parse_file(PROGRAMS / f"{name}.mlir"), target)


def test_target_intrinsics_only_where_the_target_has_them() -> None:
    avx, v2 = _ir("hwv_x86_avx", "avx2"), _ir("hwv_x86_avx", "x86-64-v2")
    assert "llvm.x86.avx.dp.ps.256" in avx and "llvm.x86.avx.hadd.ps.256" in avx
    assert "llvm.x86.sse3.hadd.ps" in v2  # x86-64-v2 has SSE3, not AVX
    assert "llvm.x86.avx." not in v2
    assert "llvm.x86.avx512" not in _ir("hwv_x86_avx512", "avx2")
    assert "llvm.x86.avx512.mask.compress.v16f32" in _ir("hwv_x86_avx512", "avx512")
    for target in ("avx2", "x86-64-v2"):
        assert "aarch64" not in _ir("hwv_arm_neon", target)
    neon = _ir("hwv_arm_neon", "neon")
    assert "llvm.aarch64.neon.sdot" in neon and "llvm.aarch64.neon.smull" in neon
    assert "llvm.x86" not in _ir("hwv_x86_avx", "neon")
    # instruction selection for the targets this host cannot run does not abort either
    for src, target, insn in [
        (COMPRESS, "avx512", "vcompressps"),
        (COMPRESS, "avx2", "vmovss"),  # portable: lane moves
        (SDOT, "neon", "sdot"),
        (SDOT, "x86-64-v2", "pmulld"),  # portable: widen, multiply, add
    ]:
        assert insn in emit_assembly(src, target), (target, insn)


COMPRESS = """
func.func @c(%k: vector<16xi1>, %a: vector<16xf32>, %s: vector<16xf32>) -> vector<16xf32> {
  %r = x86vector.avx512.mask.compress %k, %a, %s : vector<16xf32>, vector<16xf32>
  return %r : vector<16xf32>
}
"""
SDOT = """
func.func @d(%c: vector<4xi32>, %a: vector<16xi8>, %b: vector<16xi8>) -> vector<4xi32> {
  %r = arm_neon.intr.sdot %c, %a, %b : vector<16xi8>, vector<16xi8> to vector<4xi32>
  return %r : vector<4xi32>
}
"""


REDUCE = """
func.func @r(%s: f32, %v: vector<{n}xf32>) -> f32 {{
  %r = "llvm.intr.vector.reduce.{k}"(%s, %v) {flags} : (f32, vector<{n}xf32>) -> f32
  return %r : f32
}}
"""


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 16])
@pytest.mark.parametrize("kind", ["fadd", "fmul"])
@pytest.mark.parametrize("reassoc", [False, True])
def test_float_reductions_match_the_interpreter_bit_for_bit(
    n: int, kind: str, reassoc: bool
) -> None:
    """Ordered, or the interpreter's pairwise tree (never LLVM's own reassociated order)."""
    flags = "<{fastmathFlags = #llvm.fastmath<reassoc>}>" if reassoc else ""
    src = REDUCE.format(n=n, k=kind, flags=flags)
    rng = np.random.default_rng(n)
    v = (rng.standard_normal(n) * 10.0 ** rng.integers(-4, 8, n)).astype(np.float32)
    if kind == "fmul":
        v = (1.0 + rng.standard_normal(n) * 0.3).astype(np.float32)
    s = np.float32(1.25)
    want = Interpreter(parse(src)).call("r", s, v)
    host = next(t for t in ("avx2", "x86-64-v2") if load_target(t).runs_on_host())
    for opt in (0, 3):
        got = compile(src, host, opt=opt).r(s, v)
        assert np.float32(got).tobytes() == np.float32(want).tobytes()


@pytest.mark.parametrize("name", ["removed_matrix_multiply", "removed_flat_transpose"])
def test_matrix_ops_follow_the_runs_matrix_layout(name: str) -> None:
    """Compiled as the interpreter runs them with --matrix-layout column-major."""
    host = next(t for t in ("avx2", "x86-64-v2") if load_target(t).runs_on_host())
    path = PROGRAMS / f"{name}.mlir"
    for layout, golden in (
        ("column-major", PROGRAMS / "column_major" / f"{name}.expected"),
        ("row-major", path.with_suffix(".expected")),
    ):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            compile(parse_file(path), host, matrix_layout=layout)["entry"]()
        assert buf.getvalue() == golden.read_text()
    with pytest.raises(CodegenError, match="matrix layout"):
        compile(parse_file(path), host, matrix_layout="diagonal")


@pytest.mark.parametrize("target", ["avx512", "neon"])
def test_hwv_programs_assemble_for_targets_this_host_may_not_run(target: str) -> None:
    """Instruction selection never meets an intrinsic the target lacks (it would abort)."""
    t = load_target(target)
    for path in sorted(PROGRAMS.glob("hwv_*.mlir")):
        hwv = optimize_module(parse_file(path), target=t, emit="hwv").module
        for module in (parse_file(path), hwv):
            assert "entry:" in emit_assembly(module, t)
