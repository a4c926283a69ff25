"""No silent no-ops in the cost options: misspelt names, NaN, negative costs and bad widths
are errors with the closest known names (exit 2 for options, 1 at FILE:LINE for files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat.cli import main

EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "matmul_transpose.mlir")


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        (["--cost", "vector.transpos=0.25"], "did you mean 'vector.transpose'"),
        (["--cost", "Transpos=1"], "did you mean 'Transpose'"),
        (["--cost", "Transpose=nan"], "must be a number >= 0"),
        (["--cost", "Transpose=-inf"], "must be a number >= 0"),
        (["--cost", "Transpose=-1"], "must be a number >= 0"),
        (["--cost", "Transpose"], "expected NAME=NUMBER"),
        (["--native", "f32=6"], "power of two"),
        (["--native", "f3=8"], "did you mean 'f32'"),
    ],
)
def test_bad_cost_options_are_usage_errors(
    option: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["opt", EXAMPLE, *option])
    assert e.value.code == 2
    assert expected in capsys.readouterr().err


@pytest.mark.parametrize(
    ("table", "line", "expected"),
    [
        ("[ops]\nTranspose = 2\nTranspos = 3\n", 3, "did you mean 'Transpose'"),
        ("[ops]\nTranspose = nan\n", 2, "must be a number >= 0"),
        ("[ops]\nTranspose = [1]\n", 2, "must be a number, got [1]"),
        ("[ops]\nTranspose = { a = 1 }\n", 2, "unknown op or constructor 'Transpose.a'"),
        ("[op]\nTranspose = 1\n", 1, "did you mean 'ops'"),
        ("[ops]\nvector.transpose = 1\nvector.transpos = 1\n", 3, "'vector.transpos'"),
        # tables and keys beside [ops] were read by nothing, silently
        ("[ops]\nTranspose = 1\n[extra]\nx = 1\n", 3, "unknown key or table 'extra'"),
        ("x = 1\n[ops]\nTranspose = 1\n", 1, "unknown key or table 'x'"),
    ],
)
def test_bad_cost_tables_are_located(
    tmp_path: Path, table: str, line: int, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "costs.toml"
    f.write_text(table)
    assert main(["opt", EXAMPLE, "--costs", str(f)]) == 1
    err = capsys.readouterr().err
    assert f"{f}:{line}: error:" in err and expected in err


def test_op_names_price_the_vv_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``vector.transpose`` (the op) prices the VV model's Transpose (the constructor): a
    dotted TOML key and a --cost op name both reach it instead of being ignored."""
    assert main(["opt", EXAMPLE]) == 0
    plain = capsys.readouterr().out
    assert main(["opt", EXAMPLE, "--cost", "Transpose=1000", "--cost", "Contract=1000"]) == 0
    by_constructor = capsys.readouterr().out
    assert by_constructor != plain
    f = tmp_path / "costs.toml"
    f.write_text("[ops]\nvector.transpose = 1000\nvector.contract = 1000\n")
    assert main(["opt", EXAMPLE, "--costs", str(f)]) == 0
    assert capsys.readouterr().out == by_constructor
    assert main(["opt", EXAMPLE, "--cost", "vector.transpose=1000",
                 "--cost", "vector.contract=1000"]) == 0
    assert capsys.readouterr().out == by_constructor
