"""The benchmark table (experiments/bench_mlir.py) sets eqsat against MLIR's best twice when
strict: the fastest right variant, and the fastest that computes the program's bits (MLIR's
fmuladd may fuse what the program rounds apart). Built from hand-made reports: no timing."""

from __future__ import annotations

from eqsat.bench.command import best_mlir
from eqsat.bench.harness import Agreement
from eqsat.bench.run import Report, Row
from eqsat.targets import load_target
from experiments import bench_mlir

EXACT = Agreement(True, True, 0.0)
CLOSE = Agreement(True, False, 3e-7)  # right within the tolerance, other bits
WRONG = Agreement(False, False, 0.5)


def _report(entry: str, rows: list[Row]) -> Report:
    return Report(file=f"{entry}.mlir", entry=entry, target=load_target("avx2"), repeats=1,
                  rows=rows)  # fmt: skip


def test_best_mlir_can_ask_for_the_programs_bits() -> None:
    rep = _report("k", [
        Row("eqsat", ns_per_call=10.0, agreement=EXACT),
        Row("mlir-fused", ns_per_call=8.0, agreement=CLOSE),
        Row("mlir-wrong", ns_per_call=1.0, agreement=WRONG),
        Row("mlir-split", ns_per_call=12.0, agreement=EXACT),
        Row("mlir-screened", ns_per_call=2.0, agreement=EXACT, screened_only=True),
    ])  # fmt: skip
    assert best_mlir(rep)[""] == ("mlir-fused", 8.0)
    assert best_mlir(rep, exact=True)[""] == ("mlir-split", 12.0)


def test_strict_table_reports_both_ratios() -> None:
    reps = [
        _report("fused", [
            Row("eqsat", ns_per_call=10.0, agreement=EXACT),
            Row("mlir-default", ns_per_call=20.0, agreement=EXACT),
            Row("mlir-fused", ns_per_call=8.0, agreement=CLOSE),
        ]),
        _report("plain", [
            Row("eqsat", ns_per_call=9.0, agreement=EXACT),
            Row("mlir-default", ns_per_call=10.0, agreement=EXACT),
        ]),
        _report("no_exact", [
            Row("eqsat", ns_per_call=5.0, agreement=EXACT),
            Row("mlir-default", ns_per_call=4.0, agreement=CLOSE),
        ]),
    ]  # fmt: skip
    md = bench_mlir.table(reps, "")
    fused = next(ln for ln in md.splitlines() if ln.startswith("| fused |"))
    assert "1.25x **over goal** (MLIR's bits differ)" in fused
    assert "20.0 (`mlir-default`)" in fused and "| 0.50x |" in fused
    none = next(ln for ln in md.splitlines() if ln.startswith("| no_exact |"))
    assert "| none | - |" in none
    # geometric means over the kernels each ratio exists for
    assert "best MLIR: geometric mean **1.12x**" in md  # (1.25 * 0.9 * 1.25) ** (1/3)
    assert "best bit-exact MLIR (like with like in bits): geometric mean **0.67x**" in md
    # the groups that reassociate have no bit-exact column
    assert "bit-exact" not in bench_mlir.table([], "+reassoc")


def test_fp_contract_run_has_one_table_named_for_its_mode() -> None:
    fused = "".join(bench_mlir._sections("avx2", None, [], fp_contract=True))
    assert fused.count("### ") == 1 and "avx2, fp-contract" in fused
    strict = "".join(bench_mlir._sections("avx2", None, []))
    assert strict.count("### ") == 3 and "fp-contract" not in strict
