"""The lowering studies end to end at their ``--smoke`` size (outputs written, their shape, the
figures they quote recomputed from their own rows), and the analysis on synthetic timings
whose regret and Kendall tau are known."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from eqsat.targets import load_target
from experiments.lib import kernel_variants as kv
from experiments import lowering_choices, nested_vs_flat

pytestmark = pytest.mark.skipif(
    not load_target("avx2").runs_on_host(), reason="this host cannot execute avx2 code"
)


def _csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open() as fh:
        r = csv.DictReader(fh)
        return list(r.fieldnames or []), list(r)


def assert_regrets_match(out: Path) -> None:
    """The regrets the study's table quotes are eqsat's time over the fastest checked rival's,
    recomputed from its CSV rows; the best-variant and best-time columns name the same row."""
    name = lowering_choices.STUDY
    _, rows = _csv(out / f"{name}.csv")
    summ = lowering_choices.summary(lowering_choices.table(_records(out)))
    assert summ
    md = (out / f"{name}.md").read_text()
    for s in summ:
        group = [r for r in rows if r["kernel"] == s["kernel"] and r["target"] == s["target"]
                 and r["reassoc"] == str(s["reassoc"])]
        timed = [r for r in group if r["checked"] == "True" and r["ns_per_call"]
                 and (s["reassoc"] or r["exact"] != "False")]
        best = min(float(r["ns_per_call"]) for r in timed)
        ours = next(float(r["ns_per_call"]) for r in group if r["variant"] == "eqsat")
        assert s["regret"] == pytest.approx(ours / best - 1)
        named = next(r for r in timed if r["variant"] == s["best"])
        assert float(named["ns_per_call"]) == pytest.approx(s["best_ns"]) == pytest.approx(best)
        distinct = [r for r in timed if r["variant"] != "eqsat" and not r["same_as"]]
        assert s["rivals"] == len(distinct)
        assert f"{100 * s['regret']:.1f}%" in md  # the table quotes it
    assert "Geometric-mean regret" in md and "Kendall tau" in md


def assert_study_properties(out: Path, kernels: set[str]) -> None:
    """What a sound study's rows show: MLIR's rivals span its default, forced and combined
    strategies; a variant that compiles to eqsat's own program has eqsat's predicted cost (one
    round's prices); eqsat's choice is priced no higher than any forced alternative that
    applies (it is the cheapest under its own model); every eqsat variant ran checked."""
    name = lowering_choices.STUDY
    cols, rows = _csv(out / f"{name}.csv")
    assert cols == list(lowering_choices.COLUMNS)
    assert {r["kernel"] for r in rows} == kernels
    for kernel in kernels:
        group = [r for r in rows if r["kernel"] == kernel]
        kinds = {r["kind"] for r in group}
        assert {"eqsat", "eqsat-forced", "mlir-default", "mlir-forced"} <= kinds, kinds
        ours = next(r for r in group if r["variant"] == "eqsat")
        assert ours["checked"] == "True" and float(ours["ns_per_call"]) > 0
        cost = float(ours["predicted_cost"])
        for r in group:
            if r["kind"] != "eqsat-forced" or "does not apply" in r["note"]:
                continue
            assert float(r["predicted_cost"]) >= cost - 1e-9, (r["variant"], cost)
            if r["same_as"] == "eqsat":
                assert float(r["predicted_cost"]) == pytest.approx(cost, rel=1e-12)


def _records(out: Path) -> list[dict]:
    from experiments.sweeplib.records import load_records

    return list(load_records(out / "records.jsonl").values())


def test_nested_vs_flat_smoke(tmp_path: Path) -> None:
    argv = ["--smoke", "--out", str(tmp_path), "--cluster", "serial", "--no-progress"]
    assert nested_vs_flat.main(argv) == 0
    name = nested_vs_flat.STUDY
    for ext in ("csv", "md", "png"):
        assert (tmp_path / f"{name}.{ext}").stat().st_size > 0
    cols, rows = _csv(tmp_path / f"{name}.csv")
    assert cols == list(nested_vs_flat.COLUMNS)
    seen = {(r["target"], r["kernel"], r["layout"]) for r in rows}
    for target in ("avx2", "avx512", "neon"):
        for kernel in ("matmul_8x8x8", "transpose_8x8"):
            for layout in ("nested", "flat"):
                assert (target, kernel, layout) in seen
    for r in rows:
        assert r["note"] or int(r["instructions"]) > 0
        if r["target"] == "avx2" and not r["note"]:
            assert r["checked"] == "True" and float(r["ns_per_call"]) > 0
    md = (tmp_path / f"{name}.md").read_text()
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


def test_count_instructions() -> None:
    asm = "\n".join(
        [
            "\t.text",
            "f:",
            "# %bb.0:",
            "\tvmovups (%rsi), %ymm0  # load",
            ".LBB0_1:",
            "\tvaddps %ymm0, %ymm0, %ymm0",
            "\tretq",
            ".Lfunc_end0:",
            "g:",
            "\tretq",
        ]
    )
    assert kv.count_instructions(asm, "f") == 3
    assert kv.count_instructions(asm, "g") == 1
    with pytest.raises(ValueError):
        kv.count_instructions(asm, "h")


def _row(variant: str, ns: float | None, predicted: float | None = None, checked: bool = True,
         exact: bool | None = True, reassoc: bool = False, same_as: str = "") -> dict:
    return {"target": "avx2", "kernel": "k", "reassoc": reassoc, "variant": variant,
            "forced": variant.removeprefix("eqsat:"), "ns_per_call": ns,
            "predicted_cost": predicted, "checked": checked, "exact": exact,
            "same_as": same_as, "note": ""}


def test_regret_from_known_timings() -> None:
    group = [
        _row("eqsat", 12.0, 5.0),
        _row("eqsat:a", 10.0, 6.0),
        _row("eqsat:b", 9.0, 7.0, checked=False),  # wrong output: no rival
        _row("mlir-default", 8.0),
        _row("mlir-fma", 6.0, exact=False),  # other bits without reassociation: no rival
    ]
    assert lowering_choices.regret(group) == (pytest.approx(0.5), "mlir-default")
    assert lowering_choices.regret(group, eqsat_only=True) == (pytest.approx(0.2), "eqsat:a")
    reassoc = [dict(r, reassoc=True) for r in group]
    assert lowering_choices.regret(reassoc) == (pytest.approx(1.0), "mlir-fma")
    # eqsat fastest: no regret; eqsat missing: none.
    assert lowering_choices.regret([_row("eqsat", 5.0), _row("mlir-default", 8.0)])[0] == 0
    assert lowering_choices.regret([_row("mlir-default", 8.0)]) == (None, "")


def test_tau_from_known_rankings() -> None:
    preds = [1.0, 2.0, 3.0, 4.0]
    same = [_row(f"eqsat:{i}", 10.0 * p, p) for i, p in enumerate(preds)]
    assert lowering_choices.kendall(lowering_choices.tau_points(same)) == pytest.approx(1.0)
    reverse = [_row(f"eqsat:{i}", 10.0 * (5 - p), p) for i, p in enumerate(preds)]
    assert lowering_choices.kendall(lowering_choices.tau_points(reverse)) == pytest.approx(-1.0)
    # One swapped pair of six: (5 concordant - 1 discordant) / 6.
    swapped = [_row(f"eqsat:{i}", ns, p) for i, (p, ns) in
               enumerate(zip(preds, [10.0, 30.0, 20.0, 40.0]))]
    pts = lowering_choices.tau_points(swapped)
    assert lowering_choices.kendall(pts) == pytest.approx(4 / 6)
    assert lowering_choices.pooled_tau([pts, pts]) == (pytest.approx(4 / 6), 12)
    # Copies of another eqsat variant, unchecked and untimed variants are no points.
    extra = [*swapped, _row("eqsat:copy", 1.0, 9.0, same_as="eqsat:0"),
             _row("eqsat:bad", 1.0, 9.0, checked=False), _row("eqsat:none", None, 9.0),
             _row("mlir-default", 1.0, 9.0)]
    assert lowering_choices.tau_points(extra) == pts
    assert lowering_choices.kendall(pts[:1]) is None


def test_summary_of_known_timings() -> None:
    group = [_row("eqsat", 12.0, 5.0), _row("eqsat:a", 10.0, 6.0, same_as=""),
             _row("eqsat:b", 12.0, 5.0, same_as="eqsat"), _row("mlir-default", 8.0)]
    (s,) = lowering_choices.summary(group)
    assert s["regret"] == pytest.approx(0.5) and s["best"] == "mlir-default"
    assert s["regret_eqsat"] == pytest.approx(0.2)
    assert s["eqsat_is"] == "b" and s["best_ns"] == 8.0
    assert s["tau"] == pytest.approx(-1.0)  # predicted 5 < 6 but measured 12 > 10


def test_best_time_is_the_best_rivals_time() -> None:
    """The fastest row that is no rival (other bits without reassociation) names neither the
    best variant nor the best time: both columns come from the same row."""
    group = [_row("eqsat", 12.0, 5.0), _row("eqsat:a", 10.0, 6.0), _row("mlir-default", 8.0),
             _row("mlir-fma", 6.0, exact=False)]
    (s,) = lowering_choices.summary(group)
    assert (s["best"], s["best_ns"]) == ("mlir-default", 8.0)
    assert s["rivals"] == 2  # eqsat:a and mlir-default; mlir-fma gives other bits


def test_runs_with_fewer_than_two_rivals_are_reported_apart() -> None:
    lonely = [dict(r, kernel="lonely") for r in
              (_row("eqsat", 10.0, 5.0), _row("eqsat:a", 10.0, 5.0, same_as="eqsat"),
               _row("mlir-default", 5.0))]  # one rival: regret 100%, but apart
    full = [_row("eqsat", 10.0, 5.0), _row("eqsat:a", 11.0, 6.0), _row("mlir-default", 10.0)]
    summ = lowering_choices.summary(lonely + full)
    assert [s["rivals"] for s in summ] == [1, 2]
    lines = "\n".join(lowering_choices.verdict(summ))
    assert "over 1 (kernel, target, reassociation) runs: **0.0%**" in lines
    assert "fewer than 2 rivals" in lines and "avx2/lonely (1)" in lines
    md = lowering_choices.markdown(lonely + full, summ, [], "python x.py")
    apart = md.split("## Runs with fewer than 2 rivals")[1].split("## Against the goal")[0]
    assert "| lonely |" in apart and "| k |" not in apart


def test_mlir_rivals_span_forced_and_combined_strategies() -> None:
    from eqsat.bench.mlir_baseline import strategy_variants

    text = (kv.KERNELS / "matmul_8x8x8.mlir").read_text()
    kinds = {v.name: lowering_choices.mlir_kind(v) for v in strategy_variants(text, "", True)}
    assert kinds["mlir-default"] == "mlir-default"
    assert kinds["mlir-contract-outerproduct"] == "mlir-forced"
    assert kinds["mlir-transfer-full_unroll"] == "mlir-transfer"
    assert kinds["mlir-contract-outerproduct-transpose-shuffle_1d"] == "mlir-combined"
