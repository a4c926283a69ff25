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


def _vector_instructions(text: str) -> int:
    """Instructions of ``@micro`` naming an x86 vector register, in its O3 avx2 assembly."""
    from eqsat.codegen import emit_assembly

    asm = emit_assembly(parse(text, "<micro>"), load_target("avx2"))
    body = kv.function_assembly(asm, "micro")
    return sum(1 for ln in body if re.search(r"%[xyz]mm\d", ln.split("#", 1)[0]))


@pytest.mark.parametrize("op", tr.MICRO_OPS)
def test_micro_kernels_do_their_work_after_o3(op: str) -> None:
    """LLVM at O3 must not fold the measured chain away (abs of abs, a transpose of a
    transpose, shuffles composed into one, a store a later one covers): beyond the base
    kernel's loads and stores, every native register of ``op`` the features count needs at
    least one vector instruction (loads and stores: those beyond the base kernel's)."""
    for width in tr.micro_widths(op, 8)[:2]:
        text, feats = tr.micro_module(op, width, 8)
        base, base_feats = tr.micro_module(tr.BASE, width, 8)
        extra = _vector_instructions(text) - _vector_instructions(base)
        need = feats[op] - base_feats.get(op, 0.0)
        assert need > 0 and extra >= need, (op, width, extra, need)


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
    name = runnable[0]
    shipped = ROOT / "costs" / f"{name}.toml"
    before = hashlib.sha256(shipped.read_bytes()).hexdigest()
    out = tmp_path / "tuned.toml"
    args = ["--smoke", "--target", name, "--out", str(out), "--dir", str(tmp_path),
            "--cluster", "serial", "--no-progress"]
    assert tc.main(args) == 0
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == before
    tuned = load_target(str(out))
    assert tuned.width == load_target(name).width
    assert_taus_match(tmp_path, name)
    assert (tmp_path / f"{name}.png").stat().st_size > 0
    assert (tmp_path / f"{name}-alternatives.csv").read_text().count("\n") >= 2
    # `eqsat opt --costs FILE` accepts the tuned file.
    assert eqsat_main(["opt", str(KERNEL), "--costs", str(out)]) == 0


def assert_taus_match(directory: Path, name: str) -> None:
    """The table's pair count and shipped-table tau are those of the alternatives CSV's own
    rows (``pair_tau`` of their predicted costs against their measured times)."""
    import csv

    with (directory / f"{name}-alternatives.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert rows
    tau, pairs = tc.pair_tau([r["kernel"] for r in rows],
                             [float(r["predicted_before"]) for r in rows],
                             [float(r["ns_per_call"]) for r in rows])
    md = (directory / "tuning.md").read_text()
    row = next(line for line in md.splitlines() if line.startswith(f"| {name} |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert int(cells[1].split()[0]) == len(rows)  # alternatives
    assert int(cells[2]) == pairs
    if tau is not None:
        assert float(cells[3]) == pytest.approx(tau, abs=1.5e-3), (row, tau)


def test_applicable_keeps_distinct_correct_programs() -> None:
    def row(alt: str, program: str, digest: float) -> dict[str, object]:
        return {"kernel": "k", "alternative": alt, "program": program, "ns_per_call": 1.0,
                "outputs_digest": [digest], "shares": {}}

    rows = [row("eqsat", "p1", 1.0), row("a", "p1", 1.0), row("b", "p2", 1.0000001),
            row("c", "p3", 2.0)]
    assert [r["alternative"] for r in tc.applicable(rows)] == ["eqsat", "b"]
