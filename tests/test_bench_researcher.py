"""Researcher variants as named rows of ``eqsat bench`` (``--costs``, ``--rules``, ``--cost``):
each row is eqsat's code under that change, and bad files fail before anything is timed."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat.bench.researcher import researcher_variants
from eqsat.bench.run import eqsat_llvm_ir
from eqsat.cli import main
from eqsat.targets import load_target
from frontend import parse

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "experiments" / "bench_kernels" / "matvec_16x16.mlir"


def test_rows_are_named_and_built_with_their_change(tmp_path: Path) -> None:
    costs = tmp_path / "pricey.toml"
    costs.write_text("[ops]\nvector.outerproduct = 50\n")
    rules = tmp_path / "mine.egg"
    rules.write_text("(ruleset mine)\n; law: a + b = b + a\n"
                     "(rewrite (ArithAddf t a b fm) (ArithAddf t b a fm) :ruleset mine)\n")
    module = parse(KERNEL.read_text(), str(KERNEL))
    target = load_target("avx2")
    rows = researcher_variants(module, target, "nested", [str(costs)], [str(rules)],
                               {"vector.transpose": 100.0})
    assert [v.name for v in rows] == [
        "eqsat[costs=pricey]", "eqsat[rules=mine]", "eqsat[cost vector.transpose=100]"
    ]
    ours = eqsat_llvm_ir(module, target, "", "nested")
    irs = {v.name: v.llvm_ir() for v in rows}
    # Outer products priced out: another lowering, other code; the others change nothing here.
    assert irs["eqsat[costs=pricey]"] != ours
    assert irs["eqsat[rules=mine]"] == ours


def test_bad_researcher_files_fail_before_timing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    costs = tmp_path / "bad.toml"
    costs.write_text("[ops]\nvector.outerprod = 50\n")
    args = ["bench", str(KERNEL), "--entry", "matvec_16x16", "--placements", "1"]
    assert main([*args, "--costs", str(costs)]) == 1
    err = capsys.readouterr().err
    assert f"{costs}:2: error:" in err and "did you mean 'vector.outerproduct'" in err
    with pytest.raises(SystemExit) as e:
        main([*args, "--cost", "vector.transpos=1"])
    assert e.value.code == 2
