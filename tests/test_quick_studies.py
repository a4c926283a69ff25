"""Every study at its ``--quick`` size, as a user runs it first (the research-workflow issue:
each runs with --quick in under two minutes; the time is printed by the scripts, never
asserted). Each must write its table, CSV and plot, and the figures its table quotes must be
the ones its own rows give (recomputed here from the CSV): a study whose analysis drifted
from its measurements fails."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from eqsat.targets import load_target
from experiments.lib import kernel_variants as kv
from experiments import lowering_choices, nested_vs_flat, scaling
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


def test_scaling_quick(tmp_path: Path) -> None:
    assert scaling.main(["--quick", "--out", str(tmp_path), *QUIET]) == 0
    _written(tmp_path, ["scaling.csv", "scaling.md", "scaling.png", "records.jsonl"])
    rows = _rows(tmp_path / "scaling.csv")
    planned = {(f, s) for f, sizes in scaling.PLANS["quick"].items() for s in sizes}
    assert {(r["family"], int(r["size"])) for r in rows} == planned
    for r in rows:
        phases = sum(float(r[f"{p}_ms"]) for p in ("encode", "saturate", "extract", "decode"))
        assert float(r["total_ms"]) >= phases - 0.05, r  # total spans every phase
        assert int(r["out_ops"]) > 0 and int(r["nodes"]) > 0, r
        if r["family"] == "chain":  # a chain of n ops is n ops in, and as many out
            assert int(r["ops"]) == int(r["size"]) == int(r["out_ops"]), r
    # The growth table quotes the slopes of the CSV's own figures.
    table = [{**r, **{m: float(r[m]) for m in scaling.METRICS}, "size": int(r["size"]),
              "ops": int(r["ops"])} for r in rows]
    md = (tmp_path / "scaling.md").read_text()
    for family, by_metric in scaling.slopes(table).items():
        if by_metric["nodes"] is not None:
            x = "n" if family in scaling.SIZE_FAMILIES else "ops"
            line = next(ln for ln in md.splitlines() if ln.startswith(f"| {family} | {x} |"))
            assert scaling.growth(by_metric["nodes"]) in line, (family, line)


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
def test_nested_vs_flat_quick(tmp_path: Path) -> None:
    assert nested_vs_flat.main(["--quick", "--out", str(tmp_path), *QUIET]) == 0
    _written(tmp_path, ["nested_vs_flat.csv", "nested_vs_flat.md", "nested_vs_flat.png"])
    rows = _rows(tmp_path / "nested_vs_flat.csv")
    md = (tmp_path / "nested_vs_flat.md").read_text()
    for target in {r["target"] for r in rows}:
        both: dict[str, dict[str, int]] = {}
        for r in rows:
            if r["target"] == target and r["instructions"]:
                both.setdefault(r["kernel"], {})[r["layout"]] = int(r["instructions"])
        ratios = [d["flat"] / d["nested"] for d in both.values() if len(d) == 2]
        if ratios:  # the summary quotes the geometric mean of the CSV's own counts
            gm = kv.geomean(ratios)
            assert gm is not None and math.isfinite(gm)
            assert f"{target}: flat / nested instructions, geometric mean **{gm:.2f}**" in md


@needs_avx2
def test_tune_costs_quick(tmp_path: Path) -> None:
    assert tc.main(["--quick", "--target", "avx2", "--dir", str(tmp_path), *QUIET]) == 0
    _written(tmp_path, ["tuning.md", "avx2.png", "avx2-alternatives.csv", "avx2-tuned.toml"])
    assert_taus_match(tmp_path, "avx2")
