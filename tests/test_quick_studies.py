"""Studies at their ``--quick`` size, as a user runs them first (the research-workflow issue:
each runs with --quick in under two minutes; the time is printed by the scripts, never
asserted). Each must write its table, CSV and plot, and the figures its table quotes must be
the ones its own rows give (recomputed here from the CSV): a study whose analysis drifted
from its measurements fails. (The scaling and nested-vs-flat studies are checked the same way
at their ``--smoke`` size, in tests/test_sweeps.py and tests/test_studies.py.)"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from eqsat.targets import load_target
from experiments import lowering_choices, scaling
from experiments import tune_costs as tc
from tests.test_studies import assert_regrets_match, assert_study_properties
from tests.test_tuning import assert_taus_match

QUIET = ["--cluster", "serial", "--no-progress"]


def _written(directory: Path, names: list[str]) -> None:
    for name in names:
        assert (directory / name).stat().st_size > 0, name


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open() as fh:
        return list(csv.DictReader(fh))


def test_fit_slope_of_known_growth() -> None:
    xs = [1, 2, 4, 8, 16]
    assert scaling.fit_slope(xs, [3 * x * x for x in xs]) == pytest.approx(2.0)
    assert scaling.fit_slope(xs, [5 * x for x in xs]) == pytest.approx(1.0)
    assert scaling.fit_slope(xs, [7.0] * 5) == pytest.approx(0.0, abs=1e-12)
    assert scaling.fit_slope([4, 4], [1.0, 2.0]) is None


needs_avx2 = pytest.mark.skipif(
    not load_target("avx2").runs_on_host(), reason="this host cannot execute avx2 code"
)


@needs_avx2
def test_lowering_choices_quick(tmp_path: Path) -> None:
    assert lowering_choices.main(["--quick", "--out", str(tmp_path), *QUIET]) == 0
    stem = lowering_choices.STUDY
    _written(tmp_path, [f"{stem}.csv", f"{stem}.md", f"{stem}.png"])
    assert_regrets_match(tmp_path)
    kernels, _, _, _, _ = lowering_choices.PLANS["quick"]
    assert_study_properties(tmp_path, set(kernels or []))
    rows = _rows(tmp_path / f"{stem}.csv")
    transpose = {r["kind"] for r in rows if r["kernel"] == "transpose_8x8"}
    assert "mlir-combined" in transpose  # e.g. a transpose strategy with the AVX2 8x8 one


@needs_avx2
def test_tune_costs_quick(tmp_path: Path) -> None:
    assert tc.main(["--quick", "--target", "avx2", "--dir", str(tmp_path), *QUIET]) == 0
    _written(tmp_path, ["tuning.md", "avx2.png", "avx2-alternatives.csv", "avx2-tuned.toml"])
    assert_taus_match(tmp_path, "avx2")
