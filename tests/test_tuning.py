"""The cost-model tuning study (experiments/tune_costs.py): its pieces, and a smoke run."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

pytest.importorskip("scipy", reason="the experiments extra (scipy) is not installed")

from eqsat.cli import main as eqsat_main  # noqa: E402
from eqsat.targets import load_target  # noqa: E402
from experiments.lib import kernel_variants as kv  # noqa: E402
from experiments import tune_costs as tc  # noqa: E402
from experiments.lib import tuning_runs as tr  # noqa: E402
from frontend import parse  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KERNEL = ROOT / "experiments" / "bench_kernels" / "transpose_8x8.mlir"


def test_pair_tau_counts_pairs_within_kernels_only() -> None:
    kernels = ["a", "a", "a", "b", "b"]
    measured = [1.0, 2.0, 3.0, 10.0, 1.0]
    assert tc.pair_tau(kernels, [1, 2, 3, 5, 4], measured) == (1.0, 4)
    assert tc.pair_tau(kernels, [3, 2, 1, 4, 5], measured) == (-1.0, 4)
    # A predicted tie ranks neither way; a measured near-tie (within NOISE) is no pair.
    assert tc.pair_tau(kernels, [1, 1, 3, 5, 4], measured) == (0.75, 4)
    assert tc.pair_tau(["a", "a"], [1, 2], [1.0, 1.01])[1] == 0


def test_nnls_recovers_per_register_costs() -> None:
    truth = {"call": 2.0, "arith.addf": 0.5, "vector.load": 1.0, "vector.store": 1.5}
    micro = []
    for adds, loads, stores in ((0, 2, 1), (8, 2, 1), (16, 2, 1), (8, 10, 1), (0, 2, 9)):
        for w in (1, 2, 4):
            f = {"call": 1.0, "vector.load": loads * w, "vector.store": stores * w,
                 "arith.addf": adds * w}
            micro.append({"features": f, "ns_per_call": sum(truth[k] * v for k, v in f.items())})
    units = tc.nnls_units(micro)
    assert units["arith.addf"] == pytest.approx(1.0)
    assert units["vector.load"] == pytest.approx(2.0, rel=1e-6)
    assert units["vector.store"] == pytest.approx(3.0, rel=1e-6)


@pytest.mark.parametrize("op", [tr.BASE, *tr.MICRO_OPS])
def test_micro_kernels_parse_and_count_registers(op: str) -> None:
    for lanes in (8, 4):
        width = tr.micro_widths(op, lanes)[-1]
        text, feats = tr.micro_module(op, width, lanes)
        parse(text, f"<{op}>")
        assert feats["call"] == 1.0 and feats["vector.store"] >= width
        if op != tr.BASE:
            assert feats[op] >= width


@pytest.mark.parametrize("op", tr.MICRO_OPS)
def test_micro_kernels_do_their_work_after_o3(op: str) -> None:
    """LLVM at O3 must not fold the measured chain away (abs of abs, a transpose of a
    transpose, shuffles composed into one, a store a later one covers): beyond the base
    kernel's loads and stores, every native register of ``op`` the features count needs at
    least one vector instruction. ``check_not_folded`` is the check every tuning run makes."""
    for width in tr.micro_widths(op, 8)[:2]:
        extra, need = tr.check_not_folded(op, width, load_target("avx2"), 8)
        assert need > 0 and extra >= need, (op, width, extra, need)


def test_a_micro_benchmark_that_folds_away_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chain LLVM folds to nothing (a transpose of a transpose is the input) is an error."""
    real = tr.micro_module

    def folding(op: str, width: int, lanes: int = 8) -> tuple[str, dict[str, float]]:
        if op == tr.BASE:
            return real(op, width, lanes)
        t, m = "vector<8x8xf32>", "memref<8x8xf32>"
        text = (f"func.func @micro(%A: {m}, %B: {m}, %C: {m}) {{\n"
                "  %c0 = arith.constant 0 : index\n"
                f"  %a = vector.load %A[%c0, %c0] : {m}, {t}\n"
                f"  %p = vector.transpose %a, [1, 0] : {t} to {t}\n"
                f"  %q = vector.transpose %p, [1, 0] : {t} to {t}\n"
                f"  vector.store %q, %C[%c0, %c0] : {m}, {t}\n  return\n}}\n")
        return text, {"call": 1.0, "vector.load": 8, "vector.store": 8, op: 16}

    monkeypatch.setattr(tr, "micro_module", folding)
    with pytest.raises(ValueError, match="folded the measured chain away"):
        tr.check_not_folded("vector.transpose", 8, load_target("avx2"), 8)


def test_shares_reprice_the_full_cost_extraction_gives() -> None:
    """A program's shares (``decompose``, pressure included) predict its full cost under a
    scaled table exactly as re-pricing it with that table does (the fit relies on it), and
    eqsat's own program is priced as its extraction reported."""
    import dataclasses

    from eqsat.optimizer import optimize_module

    target = load_target("avx2")
    module, _ = tr.kernel_module("reduce_add_16x64_d0_f32")
    result = optimize_module(module, target=target, emit=tr.EMIT, rounds=1)
    total, shares = tr.program_shares(result, target)
    assert total == pytest.approx(result.cost, rel=1e-12)
    scales = {"arith.addf": 3.0, "vector.load": 0.5, "vector.store": 2.0, "vector.shuffle": 1.7}
    scaled = dataclasses.replace(target, cost=tr.scaled_table(target.cost, scales))
    model = scaled.cost_model(emit=tr.EMIT)
    direct = sum(
        tr.full_cost(result.snapshot, result.snapshot.root(b.root),
                     result.extractions[b.index].choice, model)
        for b in result.encoder.blocks
    )
    (predicted,) = tc.predict([{"shares": shares}], scales)
    assert predicted == pytest.approx(direct, rel=1e-9)
    assert direct != pytest.approx(total)  # the scaling changed the price


def test_the_fit_never_sees_a_held_out_kernel() -> None:
    from experiments.cost_corpus import corpus, held_out

    names = [n for n, _ in corpus()]
    held = next(n for n in names if held_out(n))
    rows = [{"kernel": held, "ns_per_call": 1.0, "shares": {"arith.addf": 1.0}}]
    with pytest.raises(ValueError, match="held-out"):
        tc.fit(rows, load_target("avx2").cost, {})
    specs = tc.specs("smoke", "avx2")
    split = {s.params["kernel"]: held_out(s.params["kernel"]) for s in specs
             if s.study == "tune-alt"}
    assert set(split) == set(tc.kernels("smoke", "tuning")) | set(tc.kernels("smoke", "held_out"))
    every = tc.kernels("full", "tuning")
    assert every and not any(held_out(k) for k in every)
    assert all(held_out(k) for k in tc.kernels("full", "held_out"))
    # --kernels N: a spread subset of the split, in corpus order, first and middle included
    some = tc.kernels("full", "tuning", 10)
    assert len(set(some)) == 10 and some == [k for k in every if k in some]
    assert some[0] == every[0] and every[len(every) // 2] in some


def test_cross_validation_folds_partition_the_kernels() -> None:
    names = [f"k{i}" for i in range(12)] * 2
    parts = tc.folds(names)
    assert len(parts) == tc.FOLDS
    flat = [k for part in parts for k in part]
    assert sorted(flat) == sorted(set(names)) and len(flat) == len(set(flat))
    assert tc.folds(list(reversed(names))) == parts  # deterministic


def test_scores_of_known_rankings() -> None:
    def row(k: str, ns: float) -> dict[str, object]:
        return {"kernel": k, "ns_per_call": ns}

    rows = [row("a", 10.0), row("a", 20.0), row("a", 30.0), row("a", 40.0),
            row("b", 5.0), row("b", 4.0)]
    s = tc.scores(rows, [1.0, 2.0, 3.0, 4.0, 1.0, 2.0])
    # a: ranked right (6 pairs, tau-b 1); b: the cheaper one is 25% slower (1 pair wrong).
    assert s["pairs"] == 7 and s["tau"] == pytest.approx(5 / 7)
    assert s["groups4"] == 1 and s["tau_b4"] == pytest.approx(1.0)
    assert s["regret_worst"] == pytest.approx(0.25)
    assert s["regret_geomean"] == pytest.approx(1.25**0.5 - 1)


def test_tuned_text_rewrites_entries_and_keeps_the_file_valid(tmp_path: Path) -> None:
    t = load_target("avx2")
    shipped = ROOT / "costs" / "avx2.toml"
    scales = {"arith.divf": 2.0, "vector.load": 0.5, "arith.remf": 3.0}
    out = tmp_path / "t.toml"
    out.write_text(tc.tuned_text(str(shipped), t.cost, scales, "note"))
    tuned = load_target(str(out))
    assert tuned.cost["arith.divf"] == {"default": 10.0, "f64": 16.0}
    assert tuned.cost["vector.load"] == t.cost["vector.load"] * 0.5
    assert tuned.cost["arith.remf"] == 3.0  # priced by default (1) before
    assert tuned.cost["arith.addf"] == t.cost["arith.addf"]
    assert tuned.width == t.width and tuned.triple == t.triple


def test_out_needs_one_target(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        tc.main(["--smoke", "--out", "x.toml"])
    assert e.value.code == 2


def test_tuning_smoke_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runnable = [n for n in tc.RUNNABLE if load_target(n).runs_on_host()]
    if not runnable:
        pytest.skip("no tuning target (avx2, x86-64-v2) runs on this machine")
    if "avx2" in runnable:
        pytest.skip("tests/test_tutorial.py runs this smoke run for avx2 as the tutorial "
                    "writes it, and checks it with check_smoke_tuning")
    name = runnable[0]
    shipped = ROOT / "costs" / f"{name}.toml"
    before = hashlib.sha256(shipped.read_bytes()).hexdigest()
    out = tmp_path / "tuned.toml"
    args = ["--smoke", "--target", name, "--out", str(out), "--dir", str(tmp_path),
            "--cluster", "serial", "--no-progress"]
    assert tc.main(args) == 0
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == before
    check_smoke_tuning(tmp_path, out, name)
    # `eqsat opt --costs FILE` accepts the tuned file.
    assert eqsat_main(["opt", str(KERNEL), "--costs", str(out)]) == 0


def check_smoke_tuning(directory: Path, tuned_file: Path, name: str) -> None:
    """What a `tune_costs.py --smoke` run into ``directory`` must have written: a tuned target
    file of the target's width that states its held-out scores and has no register-cap
    pricing, and a study whose taus are its own alternatives'."""
    tuned = load_target(str(tuned_file))
    assert tuned.width == load_target(name).width
    assert "max_registers" not in tuned_file.read_text()
    assert "Held-out kernels" in tuned_file.read_text()  # the file states its held-out scores
    assert_taus_match(directory, name)
    md = (directory / "tuning.md").read_text()
    assert "eqsat's own programs priced as extraction reported them: all" in md


def assert_taus_match(directory: Path, name: str) -> None:
    """The table's held-out pair taus and alternative counts are those of the alternatives
    CSV's own rows (``scores`` of their predicted costs against their measured times), and
    the tuning and held-out rows are the splits ``held_out`` says."""
    import csv

    from experiments.cost_corpus import held_out

    with (directory / f"{name}-alternatives.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert rows
    assert all((r["split"] == "held-out") == held_out(r["kernel"]) for r in rows)
    held = [{"kernel": r["kernel"], "ns_per_call": float(r["ns_per_call"])} for r in rows
            if r["split"] == "held-out"]
    md = (directory / "tuning.md").read_text()
    row = next(line for line in md.splitlines() if line.startswith(f"| {name} |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    train, held_n = (int(x) for x in cells[1].split(" / "))
    assert held_n == len(held) and train == len(rows) - len(held)
    for col, cell in (("predicted_before", 0), ("predicted_after", 1)):
        s = tc.scores(held, [float(r[col]) for r in rows if r["split"] == "held-out"])
        quoted = cells[4].split(" (")[0].split(" -> ")[cell]
        assert quoted == tc._num(s["tau"]), (col, row)


def test_applicable_keeps_distinct_checked_programs() -> None:
    def row(alt: str, program: str, checked: bool, ns: float | None = 1.0) -> dict[str, object]:
        return {"kernel": "k", "alternative": alt, "program": program, "ns_per_call": ns,
                "checked": checked, "shares": {}}

    rows = [row("eqsat", "p1", True), row("a", "p1", True), row("b", "p2", True),
            row("c", "p3", False), row("d", "p4", True, None)]
    assert [r["alternative"] for r in tc.applicable(rows)] == ["eqsat", "b"]
