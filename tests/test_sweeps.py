"""The sweep runner: records, resume, failures, provenance; executors (serial, process pool,
Dask, Ray where installed); the scaling study end to end in its smallest mode."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from experiments.sweeplib import Spec, executor_for, load_records, run_sweep
from experiments.sweeplib.provenance import ruleset_hash

TOY = "tests.sweep_toy:square"


def toy_specs(xs: range, **kw: object) -> list[Spec]:
    return [Spec("toy", TOY, {"x": x, **kw}, seed=7) for x in xs]


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_records_are_self_describing(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    res = run_sweep(toy_specs(range(3)), out, executor_for("serial"), progress=False)
    assert (res.skipped, res.ran, res.failed) == (0, 3, 0)
    recs = lines(out)
    assert sorted(r["result"]["y"] for r in recs) == [0, 1, 4]
    r = recs[0]
    for field in (
        "version",
        "git",
        "host",
        "target",
        "ruleset_hash",
        "cost_hash",
        "budget",
        "seed",
        "started",
        "finished",
        "spec",
        "key",
        "study",
    ):
        assert field in r, field
    assert r["seed"] == 7 and r["status"] == "ok" and r["host"]["cpus"] >= 1
    assert Spec.from_dict(r["spec"]).key == r["key"]


def test_rerun_resumes_and_retries_failures(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_sweep(toy_specs(range(3)), out, executor_for("serial"), progress=False)
    # A sweep killed mid-write leaves a torn line: it is ignored and closed off.
    with out.open("a") as fh:
        fh.write('{"format": "eqsat-sweep-rec')
    specs = toy_specs(range(5)) + [Spec("toy", TOY, {"x": 9, "fail": True})]
    res = run_sweep(specs, out, executor_for("serial"), progress=False)
    assert (res.skipped, res.ran, res.failed) == (3, 3, 1)
    assert [r["status"] for r in res.records] == ["ok"] * 5 + ["error"]
    assert "configured to fail" in res.records[-1]["error"]
    res = run_sweep(specs, out, executor_for("serial"), progress=False)
    assert (res.skipped, res.ran, res.failed) == (5, 1, 1)  # only the failed one runs again
    assert len(load_records(out)) == 5


def test_local_process_pool(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    res = run_sweep(toy_specs(range(4)), out, executor_for("local", 2), progress=False)
    assert res.ran == 4 and sorted(r["result"]["y"] for r in res.records) == [0, 1, 4, 9]


def test_provenance_hashes_follow_the_files() -> None:
    base = Spec("s", TOY, {})
    assert ruleset_hash(base) == ruleset_hash(Spec("s", TOY, {"other": 1}))
    assert ruleset_hash(base) != ruleset_hash(Spec("s", TOY, {}, fast_math=True))
    assert ruleset_hash(base) != ruleset_hash(Spec("s", TOY, {}, phases=("canonicalize",)))


def test_spec_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="module:function"):
        Spec("s", "no_colon", {})
    with pytest.raises(ValueError, match="dask://"):
        executor_for("tcp://1.2.3.4:8786")


def scaling_specs() -> list[Spec]:
    from experiments import scaling

    return [s for s in scaling.specs("smoke") if s.params["size"] in (4, 8)]


def test_dask_cluster_runs_the_study_unchanged(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        host="127.0.0.1",
        protocol="tcp",
        scheduler_port=0,
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        specs = scaling_specs() + toy_specs(range(2))
        out = tmp_path / "r.jsonl"
        ex = executor_for("dask://" + address.removeprefix("tcp://"))
        try:
            res = run_sweep(specs, out, ex, progress=False)
            assert (res.ran, res.failed) == (len(specs), 0)
            again = run_sweep(specs, out, ex, progress=False)
        finally:
            ex.close()
    assert (again.skipped, again.ran) == (len(specs), 0)
    study = [r for r in res.records if r["study"] == "scaling"]
    assert {r["result"]["family"] for r in study} == {"contract", "transpose"}
    assert all(r["target"] == "avx2" and r["cost_hash"] for r in study)
    assert all(r["result"]["nodes"] > 0 for r in study)


def test_ray_cluster(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="ray is not installed (optional extra `cluster`)")
    ex = executor_for("ray://local", 1)
    try:
        res = run_sweep(toy_specs(range(3)), tmp_path / "r.jsonl", ex, progress=False)
    finally:
        ex.close()
    assert res.ran == 3 and sorted(r["result"]["y"] for r in res.records) == [0, 1, 4]


def test_scaling_study_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from experiments import scaling

    args = ["--smoke", "--out", str(tmp_path), "--cluster", "serial", "--no-progress"]
    assert scaling.main(args) == 0
    first = re.search(r"\((\d+) runs now, 0 from earlier records\)", capsys.readouterr().out)
    assert first and int(first.group(1)) > 0
    for name in ("records.jsonl", "scaling.csv", "scaling.md", "scaling.png"):
        assert (tmp_path / name).stat().st_size > 0, name
    md = (tmp_path / "scaling.md").read_text()
    assert "DialEgg" in md and "| contract | 16 |" in md and "Observed growth" in md
    assert (tmp_path / "scaling.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with (tmp_path / "scaling.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    planned = {(f, s) for f, sizes in scaling.PLANS["smoke"].items() for s in sizes}
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
    for family, by_metric in scaling.slopes(table).items():
        if by_metric["nodes"] is not None:
            x = "n" if family in scaling.SIZE_FAMILIES else "ops"
            line = next(ln for ln in md.splitlines() if ln.startswith(f"| {family} | {x} |"))
            assert scaling.growth(by_metric["nodes"]) in line, (family, line)
    # A rerun reads every record back and runs nothing.
    assert scaling.main(args) == 0
    assert f"(0 runs now, {first.group(1)} from earlier records)" in capsys.readouterr().out


def test_bad_cluster_address_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from experiments import scaling

    with pytest.raises(SystemExit) as exit_:
        scaling.main(["--smoke", "--out", str(tmp_path), "--cluster", "tcp://host:1"])
    assert exit_.value.code == 2
    assert "dask:// or ray://" in capsys.readouterr().err


def test_sweep_cli_runs_specs_from_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from experiments import sweep

    specs = tmp_path / "specs.jsonl"
    specs.write_text("\n".join(json.dumps(s.to_dict()) for s in toy_specs(range(3))) + "\n")
    out = tmp_path / "r.jsonl"
    args = [str(specs), "--out", str(out), "--cluster", "serial", "--no-progress"]
    assert sweep.main(args) == 0
    assert "3 runs now (0 failed), 0 from earlier records" in capsys.readouterr().out
    assert sweep.main(args) == 0
    assert "0 runs now (0 failed), 3 from earlier records" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"study": "s", "run": "m:f"}\n{"study": "s"}\n')
    assert sweep.main([str(bad), "--out", str(out)]) == 1
    assert f"{bad}:2:1: error: bad spec" in capsys.readouterr().err
