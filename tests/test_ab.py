"""experiments/kernels_e2e/ab.py: the in-process A/B compiles eqsat's and MLIR 22's code of one
kernel, finds them bit-exact, times them in alternate rounds and pairs the ratios; an LLVM IR
file given with --ir is a row like the others (eqsat's own IR saved with --save-eqsat-ir times
the same code again)."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat.targets import load_target
from experiments.kernels_e2e import ab
from tests.mlir_tools import missing_tools

pytestmark = [
    pytest.mark.skipif(bool(missing_tools(22)), reason="MLIR 22's tools are not installed"),
    pytest.mark.skipif(not load_target("avx2").runs_on_host(), reason="the host lacks AVX2"),
]


def test_rows_are_compiled_checked_and_paired(tmp_path: Path) -> None:
    saved = tmp_path / "{kernel}.ll"
    first = ab.run_one("transpose3_210_2x4x8_f32", "avx2", [], 2, 0.2, None,
                       save_ir=str(saved))  # fmt: skip
    ir = tmp_path / "transpose3_210_2x4x8_f32.ll"
    assert ir.read_text().lstrip().startswith("; ModuleID")
    res = ab.run_one("transpose3_210_2x4x8_f32", "avx2", ["mlir-loops-default"], 3, 0.2,
                     tmp_path / "dump", {"again": str(saved)})  # fmt: skip
    rows = res["rows"]
    assert list(rows) == ["eqsat", "mlir-default", "mlir-loops-default", "again"]
    assert all(r["bit_exact"] for r in rows.values())
    assert rows["eqsat"]["ratio_median"] == 1.0
    assert all(r["min_ns"] > 0 and r["calls_per_sample"] >= 1 for r in rows.values())
    assert (tmp_path / "dump" / "transpose3_210_2x4x8_f32.again.s").read_text().count("ret") >= 1
    assert list(first["rows"]) == ["eqsat", "mlir-default"]


def test_an_unknown_variant_or_kernel_is_a_clear_error() -> None:
    with pytest.raises(ab.UsageError, match="no such variant"):
        ab.run_one("transpose3_210_2x4x8_f32", "avx2", ["mlir-contract-nonsense"], 1, 0.1, None)
    assert ab.main(["no_such_kernel_9"]) == 2
    assert ab.main(["transpose3_210_2x4x8_f32", "--ir", "broken"]) == 2
