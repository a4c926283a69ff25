"""Every study at its ``--quick`` size, as a user runs it first (the research-workflow issue:
each runs with --quick in under two minutes; the time is printed by the scripts, never
asserted). Each must write its table, CSV and plot."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat.targets import load_target
from experiments import lowering_choices, nested_vs_flat, scaling
from experiments import tune_costs as tc

QUIET = ["--cluster", "serial", "--no-progress"]


def _written(directory: Path, names: list[str]) -> None:
    for name in names:
        assert (directory / name).stat().st_size > 0, name


def test_scaling_quick(tmp_path: Path) -> None:
    assert scaling.main(["--quick", "--out", str(tmp_path), *QUIET]) == 0
    _written(tmp_path, ["scaling.csv", "scaling.md", "scaling.png", "records.jsonl"])


needs_avx2 = pytest.mark.skipif(
    not load_target("avx2").runs_on_host(), reason="this host cannot execute avx2 code"
)


@needs_avx2
def test_lowering_choices_quick(tmp_path: Path) -> None:
    assert lowering_choices.main(["--quick", "--out", str(tmp_path), *QUIET]) == 0
    stem = lowering_choices.STUDY
    _written(tmp_path, [f"{stem}.csv", f"{stem}.md", f"{stem}.png"])
    assert "Geometric-mean regret" in (tmp_path / f"{stem}.md").read_text()


@needs_avx2
def test_nested_vs_flat_quick(tmp_path: Path) -> None:
    assert nested_vs_flat.main(["--quick", "--out", str(tmp_path), *QUIET]) == 0
    _written(tmp_path, ["nested_vs_flat.csv", "nested_vs_flat.md", "nested_vs_flat.png"])


@needs_avx2
def test_tune_costs_quick(tmp_path: Path) -> None:
    assert tc.main(["--quick", "--target", "avx2", "--dir", str(tmp_path), *QUIET]) == 0
    _written(tmp_path, ["tuning.md", "avx2.png", "avx2-alternatives.csv", "avx2-tuned.toml"])
    assert "tau" in (tmp_path / "tuning.md").read_text()
