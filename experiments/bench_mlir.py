"""The benchmark table: every kernel of ``experiments/bench_kernels/`` timed per variant on the
targets this host runs (``avx2``, ``x86-64-v2``), against MLIR 22's own lowerings.

Writes ``<out>.md`` (one table per target and reassociation setting, ns per call) and
``<out>.csv`` (every row: target, kernel, variant, ns_per_call, equal, compile_ms, note).
The eqsat variant's results are checked against the reference interpreter, the others' against
the eqsat variant's.

    python experiments/bench_mlir.py [--quick] [--targets avx2,x86-64-v2] [--out PATH]
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eqsat.bench.harness import file_scalar_args as kernel_args  # noqa: E402
from experiments.kernel_variants import geomean, machine  # noqa: E402
from eqsat.bench.mlir_baseline import DEFAULTS, STRATEGIES  # noqa: E402
from eqsat.bench.run import Report, bench  # noqa: E402
from eqsat.targets import load_target  # noqa: E402

KERNELS = Path(__file__).resolve().parent / "bench_kernels"
#: Columns of the markdown tables: MLIR's default, then the strategies that differ from it.
FORCED = [f"{fam}-{name}" for fam, name, value in STRATEGIES if DEFAULTS[fam] != value]
SHORT = {
    "contract-outerproduct": "outerprod",
    "contract-llvmintr": "c-llvmintr",
    "contract-parallelarith": "parallelarith",
    "transpose-shuffle_1d": "shuffle_1d",
    "transpose-shuffle_16x16": "shuffle_16x16",
    "transpose-llvmintr": "t-llvmintr",
    "multi_reduction-innerreduction": "innerred",
}


def _ns(report: Report, variant: str) -> float | None:
    row = report.row(variant)
    return row.ns_per_call if row else None


def _best(report: Report, reassoc: bool) -> tuple[str, float] | None:
    rows = [
        r
        for r in report.rows
        if r.variant.startswith("mlir-") and r.reassoc == reassoc and r.ns_per_call and r.equal
    ]
    if not rows:
        return None
    best = min(rows, key=lambda r: r.ns_per_call or math.inf)
    return best.variant, best.ns_per_call or math.inf


def _cell(ns: float | None, equal: bool | None = True) -> str:
    if ns is None:
        return "n/a"
    return f"{ns:.1f}" + ("" if equal else " (wrong)")


def markdown(reports: list[Report], reassoc: bool) -> str:
    suffix = "+reassoc" if reassoc else ""
    cols = ["mlir-default"] + [f"mlir-{f}" for f in FORCED]
    head = ["kernel", f"eqsat{suffix}"] + [c.removeprefix("mlir-") for c in cols]
    head = [SHORT.get(h, h) for h in head] + ["best MLIR", "default / best", "eqsat / best"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    ratios = []
    ours_to_best: list[float] = []
    ours_to_default: list[float] = []
    compile_ms: list[float] = []
    for rep in reports:
        ours = rep.row(f"eqsat{suffix}")
        cells = [rep.entry, _cell(ours.ns_per_call, ours.equal) if ours else "-"]
        for c in cols:
            row = rep.row(c + suffix)
            cells.append(_cell(row.ns_per_call, row.equal) if row else "n/a")
        best = _best(rep, reassoc)
        default = _ns(rep, "mlir-default" + suffix)
        if best and default:
            ratios.append(default / best[1])
            cells += [SHORT.get(best[0][5:].removesuffix(suffix), best[0][5:]),
                      f"{default / best[1]:.2f}x"]  # fmt: skip
        else:
            cells += ["-", "-"]
        if best and default and ours and ours.ns_per_call and ours.equal:
            ours_to_best.append(ours.ns_per_call / best[1])
            ours_to_default.append(ours.ns_per_call / default)
            cells.append(f"{ours.ns_per_call / best[1]:.2f}x")
        else:
            cells.append("-")
        if ours and ours.compile_s:
            compile_ms.append(1000 * ours.compile_s)
        lines.append("| " + " | ".join(cells) + " |")
    if ratios:
        geo = geomean(ratios)
        lines.append(f"\nMLIR's default vs its best forced strategy: geometric mean {geo:.2f}x "
                     f"slower (range {min(ratios):.2f}x to {max(ratios):.2f}x).")  # fmt: skip
    if ours_to_best:
        geo_best = geomean(ours_to_best)
        lines.append(
            f"eqsat{suffix}'s time over MLIR's best forced strategy: geometric mean "
            f"{geo_best:.2f}x (range {min(ours_to_best):.2f}x to {max(ours_to_best):.2f}x; goals: "
            f"at most 0.90x in geometric mean, no kernel above 1.10x); over MLIR's default: "
            f"geometric mean {geomean(ours_to_default):.2f}x."
        )
    if compile_ms:
        lines.append(f"Compile latency of eqsat{suffix} (parse to callable): "
                     f"{min(compile_ms):.0f} to {max(compile_ms):.0f} ms (aim: under 500).")
    return "\n".join(lines) + "\n"


def peaks(reports: list[Report], reassoc: bool) -> str:
    """GFLOP/s and share of peak of the contraction kernels (clock measured per kernel), for
    eqsat's row and MLIR's rows with the same reassociation setting."""
    ours_name, suffix = ("eqsat+reassoc", "+reassoc") if reassoc else ("eqsat", "")
    lines = []
    for rep in reports:
        peak = rep.peak_gflops()
        if not rep.flops or not peak or not rep.clock:
            continue
        ours = _ns(rep, ours_name)
        shown = [(ours_name, ours), (f"mlir-default{suffix}", _ns(rep, f"mlir-default{suffix}"))]
        best = _best(rep, reassoc)
        if best:
            shown.append((f"best MLIR ({best[0]})", best[1]))
        parts = [f"{name} {rep.flops / ns:.1f} GFLOP/s = {rep.flops / ns / peak:.0%}"
                 for name, ns in shown if ns]  # fmt: skip
        if rep.call_ns:
            parts.append(f"call overhead {rep.call_ns:.1f} ns alone (empty function, same "
                         "signature; it overlaps the kernel's work)")
        lines.append(f"- {rep.entry} (peak {peak:.0f} GFLOP/s at {rep.clock[0]:.2f} GHz): "
                     + "; ".join(parts))  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 repeats of 5 ms samples")
    ap.add_argument("--targets", default="avx2,x86-64-v2")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / "bench"))
    args = ap.parse_args()
    repeats, sample = (3, 0.005) if args.quick else (9, 0.02)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    kernels = sorted(KERNELS.glob("*.mlir"))
    md = [
        f"Command: `python experiments/bench_mlir.py{' --quick' if args.quick else ''}`; "
        f"machine: {machine()}; {time.strftime('%Y-%m-%d', time.gmtime())}.",
        f"Median of {repeats} samples of {sample * 1000:.0f} ms, ns per call in thread CPU time "
        "of a JIT-compiled call loop; (wrong) marks results that differ from eqsat's; n/a: not "
        "lowered.",
        "Columns other than mlir-default force one strategy (others at MLIR's default); "
        "dot, eltwise and innerparallel are the defaults.",
    ]
    csv_rows = []
    for tname in args.targets.split(","):
        target = load_target(tname)
        if not target.runs_on_host():
            md.append(f"\n{tname}: not run (this host cannot execute it).")
            continue
        reports = []
        for path in kernels:
            text = path.read_text()
            rep = bench(text, path.name, path.stem, target, scalars=kernel_args(text),
                        repeats=repeats, sample_seconds=sample, reassoc=True)  # fmt: skip
            reports.append(rep)
            print(f"{tname} {path.stem}: " + ", ".join(
                f"{r.variant}={r.ns_per_call:.1f}" for r in rep.rows[:1] if r.ns_per_call
            ), flush=True)  # fmt: skip
            for r in rep.rows:
                csv_rows.append([tname, path.stem, r.variant,
                                 f"{r.ns_per_call:.2f}" if r.ns_per_call else "",
                                 r.equal, f"{r.compile_s * 1000:.0f}" if r.compile_s else "",
                                 r.note])  # fmt: skip
        for reassoc in (False, True):
            md.append(f"\n### {tname}, reassociation {'on' if reassoc else 'off'} "
                      "(ns per call)\n")  # fmt: skip
            md.append(markdown(reports, reassoc))
        for reassoc in (False, True):
            p = peaks(reports, reassoc)
            if p:
                md.append(f"\nContraction kernels on {tname}, reassociation "
                          f"{'on' if reassoc else 'off'} (peak = 2 FMA units x "
                          f"{target.lanes('f32')} lanes x 2 flops x clock, the clock measured "
                          "with a dependent-add chain after each kernel's timings):\n\n"
                          f"{p}\n")  # fmt: skip
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    with out.with_suffix(".csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["target", "kernel", "variant", "ns_per_call", "equal", "compile_ms", "note"])
        w.writerows(csv_rows)
    print(f"wrote {out.with_suffix('.md')} and {out.with_suffix('.csv')}")


if __name__ == "__main__":
    main()
