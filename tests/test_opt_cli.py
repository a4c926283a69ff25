"""`eqsat opt`, `eqsat schema`, `eqsat check-rules` from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "examples" / "matmul_transpose.mlir")
MATMUL = """
func.func @f(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
    affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
    iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c
    : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}
"""
EXPENSIVE = ["--cost", "Contract=1e6", "--cost", "ContractDot=1e6", "--cost",
             "ContractOuter=1e6", "--cost", "ContractParallel=1e6"]


def test_opt_prints_valid_mlir_and_stats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opt", EXAMPLE, "--stats"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("module {") and "vector.transpose" not in out
    assert "phase canonicalize: saturated" in err and "transpose-compose" in err
    assert "type-of-" not in err  # the typing analysis is not a rule users wrote


def test_cost_overrides_pick_another_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opt", EXAMPLE, "--cost", "Transpose=1000", "--cost", "Contract=1000"]) == 0
    out = capsys.readouterr().out
    assert "vector.contract" not in out


def test_float_matrix_intrinsic_only_with_fast_math(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "mm.mlir"
    f.write_text(MATMUL)
    assert main(["opt", str(f), *EXPENSIVE]) == 0
    assert "matrix_multiply" not in capsys.readouterr().out
    assert main(["opt", str(f), *EXPENSIVE, "--fast-math"]) == 0
    assert "vector.matrix_multiply" in capsys.readouterr().out


def test_bad_rule_file_is_reported_at_its_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.egg"
    bad.write_text("(ruleset r)\n; law\n(rewrite (Transpose t x p) (Bogus x) :ruleset r)\n")
    assert main(["opt", EXAMPLE, "--rules", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:3:" in err and "error:" in err and "Bogus" in err


def test_missing_rule_file_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opt", EXAMPLE, "--rules", "no/such/file.egg"]) == 1
    assert "no rule file" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["f32=eight", "f32=0", "q7=8", "junk"])
def test_bad_native_spec_is_a_usage_error(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["opt", EXAMPLE, "--native", spec])
    assert exit.value.code == 2
    assert "--native expects" in capsys.readouterr().err


def test_schema_documents_every_constructor(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    out = capsys.readouterr().out
    assert "(constructor Transpose (Type Term IVec) Term)" in out
    assert "; vector.transpose: Vector transpose operation" in out
    assert "(constructor TransposeShuffle" in out and "(constructor Tiled" in out
