"""The lowering studies end to end at their ``--smoke`` size: outputs written, their shape, and
the invariants the analysis rests on (regret >= 0, both layouts present)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from eqsat.targets import load_target
from experiments import kernel_variants as kv
from experiments import lowering_choices, nested_vs_flat

pytestmark = pytest.mark.skipif(
    not load_target("avx2").runs_on_host(), reason="this host cannot execute avx2 code"
)


def _csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open() as fh:
        r = csv.DictReader(fh)
        return list(r.fieldnames or []), list(r)


def test_lowering_choices_smoke(tmp_path: Path) -> None:
    argv = ["--smoke", "--out", str(tmp_path), "--cluster", "serial", "--no-progress"]
    assert lowering_choices.main(argv) == 0
    name = lowering_choices.STUDY
    for ext in ("csv", "md", "png"):
        assert (tmp_path / f"{name}.{ext}").stat().st_size > 0
    cols, rows = _csv(tmp_path / f"{name}.csv")
    assert cols == list(lowering_choices.COLUMNS)
    kernels = {r["kernel"] for r in rows}
    assert kernels == {"matmul_8x8x8", "transpose_8x8"}
    for kernel in kernels:
        variants = {r["variant"]: r for r in rows if r["kernel"] == kernel}
        ours = variants["eqsat"]
        assert ours["checked"] == "True" and float(ours["ns_per_call"]) > 0
        assert float(ours["predicted_cost"]) > 0
        forced = [v for v in variants if v.startswith("eqsat:")]
        assert len(forced) >= 2  # every strategy of the kernel's op kind is tried
        assert "mlir-default" in variants
    summ = lowering_choices.summary(lowering_choices.table(_records(tmp_path)))
    for s in summ:
        assert s["regret"] is not None and s["regret"] >= 0
        assert s["regret_eqsat"] is not None and s["regret_eqsat"] >= 0
        assert s["tau"] is None or -1 <= s["tau"] <= 1
    md = (tmp_path / f"{name}.md").read_text()
    assert "Geometric-mean regret" in md and "Kendall tau" in md


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
