"""``eqsat opt --explain``: alternatives told apart, every round explained, union-only rules
credited, wide ops priced by their split and the DAG cost set against per-op totals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eqsat.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "examples" / "matmul_transpose.mlir")


def _explain(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["opt", *args, "--explain", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_alternatives_are_distinct_and_say_what_tells_them_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _explain(capsys, EXAMPLE, "--target", "avx2")
    contract = next(r for r in data["ops"] if r["op"] == "vector.contract")
    shown = [(a["form"], a.get("detail", ""), a["own"], a["cost"]) for a in contract["alternatives"]]
    assert len(shown) == len(set(shown))
    labels = [a["form"] for a in contract["alternatives"]]
    for a in contract["alternatives"]:
        if labels.count(a["form"]) > 1:
            assert a["detail"].startswith(("of (", "with "))  # operands, or literals
    assert {"own", "cost"} <= set(contract["chosen"])


def test_the_dag_cost_is_explained_next_to_per_op_totals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["opt", EXAMPLE, "--target", "avx2", "--explain"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("extracted cost") and "DAG cost" in first
    assert "own " in out and "total " in out


def test_second_round_choices_are_explained(capsys: pytest.CaptureFixture[str]) -> None:
    """matvec 16x16 on avx2: the outer-product lowering emits a transpose, which the second
    round lowers; its choice must be in the explanation."""
    path = ROOT / "experiments" / "bench_kernels" / "matvec_16x16.mlir"
    data = _explain(capsys, str(path), "--target", "avx2")
    rounds = {r["round"] for r in data["ops"]}
    assert rounds == {1, 2}
    assert any(r["op"] == "vector.transpose" for r in data["ops"] if r["round"] == 2)


def test_rules_that_only_union_are_credited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "tt.mlir"
    f.write_text(
        "func.func @f(%a: vector<4x8xf32>) -> vector<4x8xf32> {\n"
        "  %t = vector.transpose %a, [1, 0] : vector<4x8xf32> to vector<8x4xf32>\n"
        "  %u = vector.transpose %t, [1, 0] : vector<8x4xf32> to vector<4x8xf32>\n"
        "  return %u : vector<4x8xf32>\n}\n"
    )
    data = _explain(capsys, str(f))
    second = next(r for r in data["ops"] if r["line"] == 3)
    assert second["chosen"]["form"] == "Arg"
    assert any(r["union_only"] for r in second["rules"]), second["rules"]


def test_a_wide_add_costs_its_split_and_nothing_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An add over 8 AVX2 registers costs 8 adds' cycles, one form as much as its tiles: no
    form carries a penalty, and none is flagged as one."""
    from eqsat.targets import load_target

    f = tmp_path / "wide.mlir"
    f.write_text(
        "func.func @f(%a: vector<64xf32>, %b: vector<64xf32>) -> vector<64xf32> {\n"
        "  %s = arith.addf %a, %b : vector<64xf32>\n"
        "  return %s : vector<64xf32>\n}\n"
    )
    data = _explain(capsys, str(f), "--target", "avx2", "--emit", "vv")
    add = next(r for r in data["ops"] if r["op"] == "arith.addf")
    one = load_target("avx2").cost_model().per_register("arith.addf", "f32")
    forms = [add["chosen"], *add["alternatives"]]
    assert add["chosen"]["cost"] == 8 * one
    assert any(a["form"] == "ArithAddf" and a["own"] == 8 * one for a in forms)
    assert not any("penalty" in a for a in forms)
