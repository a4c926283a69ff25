"""The benchmark table: every kernel of ``experiments/bench_kernels/`` timed on each target this
host runs, eqsat against MLIR 22's whole strategy space, strict, ``+reassoc`` and
``+fast-math`` (``eqsat bench --baseline mlir --reassoc --fast-math``, like with like).

Writes ``<out>.md`` (per target and group: eqsat, MLIR's default, MLIR's best and the goals),
``<out>.csv`` (every row of every table) and ``<out>.json`` (``eqsat bench --json`` rows per
kernel and target), each with provenance (``experiments.lib.provenance``: the markdown header, a
``.provenance.json`` beside the CSV, a ``provenance`` key in the JSON).

    python experiments/bench_mlir.py [--quick] [--targets avx2,x86-64-v2,avx512] [--kernels K,..]
                                     [--fp-contract]

``--fp-contract`` times the strict group only, with eqsat and the reference interpreter in
fp-contract mode (``eqsat bench --fp-contract``: each float multiply-add of a contraction
fused, in order): then MLIR's strategies that fuse the same way (outerproduct) are bit-exact
rivals, and the table's bit-exact column compares like with like in bits for fused code.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eqsat.bench.command import best_mlir, report_json  # noqa: E402
from eqsat.bench.harness import file_scalar_args as kernel_args  # noqa: E402
from eqsat.bench.run import Report, bench  # noqa: E402
from eqsat.bench.variants import GROUPS  # noqa: E402
from eqsat.targets import load_target  # noqa: E402
from experiments.lib.kernel_variants import geomean, kernel_paths  # noqa: E402
from experiments.lib.provenance import markdown_header, record, write_sidecar  # noqa: E402

#: The goals of the project against MLIR's best, like with like.
GOAL_WORST = 1.10  # eqsat's time over MLIR's best, on any kernel
GOAL_GEOMEAN = 1 / 1.1  # the same in geometric mean (at least 1.1x ahead)


def _fmt(ns: float | None, spread: tuple[float, float] | None = None) -> str:
    if ns is None:
        return "n/a"
    return f"{ns:.1f}" + (f" ({spread[0]:.1f}-{spread[1]:.1f})" if spread else "")


def table(reports: list[Report], group: str) -> str:
    """One markdown table: per kernel, eqsat's row of ``group``, MLIR's default and best. Strict,
    also MLIR's best among the variants that compute the program's bits (MLIR 22 lowers
    ``vector.fma`` and its contraction strategies to ``llvm.intr.fmuladd``, which LLVM fuses on
    an FMA target and splits without one: the program's rounding is not always kept)."""
    strict = group == ""
    head = ["kernel", f"eqsat{group} ns (spread)", "mlir-default ns", "best MLIR ns (spread)",
            "best MLIR variant", "eqsat / best"]  # fmt: skip
    if strict:
        head += ["best bit-exact MLIR ns (variant)", "eqsat / bit-exact best"]
    head.append("MLIR variants that crashed")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    ratios: list[float] = []
    exact_ratios: list[float] = []
    for rep in reports:
        ours = rep.row(f"eqsat{group}")
        default = rep.row(f"mlir-default{group}")
        best = best_mlir(rep).get(group)
        best_row = rep.row(best[0]) if best else None
        crashed = sum(1 for r in rep.rows if r.group == group and r.failure and not r.same_as)
        timed = bool(ours and ours.ns_per_call and ours.equal)
        ratio = "-"
        if timed and best:
            ratios.append(ours.ns_per_call / best[1])  # type: ignore[union-attr,operator]
            ratio = f"{ratios[-1]:.2f}x" + (" **over goal**" if ratios[-1] > GOAL_WORST else "")
        elif ours and not ours.equal:
            ratio = "eqsat wrong or not run: " + (ours.note or "results differ")
        if best and best_row and strict and not best_row.exact:
            ratio += " (MLIR's bits differ)"
        cells = [
            rep.entry,
            _fmt(ours.ns_per_call, ours.spread) if ours else "-",
            _fmt(default.ns_per_call) if default else "-",
            _fmt(best[1], best_row.spread if best_row else None) if best else "n/a",
            f"`{best[0]}`" if best else "-",
            ratio,
        ]
        if strict:
            exact = best_mlir(rep, exact=True).get(group)
            if exact and timed and ours and ours.exact:
                exact_ratios.append(ours.ns_per_call / exact[1])  # type: ignore[operator]
            cells += [
                f"{exact[1]:.1f} (`{exact[0]}`)" if exact else "none",
                f"{exact_ratios[-1]:.2f}x" if exact and timed and ours and ours.exact else "-",
            ]
        lines.append("| " + " | ".join([*cells, str(crashed)]) + " |")
    if ratios:
        lines.append("\n" + _summary(f"eqsat{group} / best MLIR", ratios))
    if exact_ratios:
        lines.append(_summary(f"eqsat / best bit-exact MLIR (like with like in bits)",
                              exact_ratios))  # fmt: skip
    return "\n".join(lines) + "\n"


def _summary(what: str, ratios: list[float]) -> str:
    geo = geomean(ratios) or math.nan
    worst = max(ratios)
    return (
        f"{what}: geometric mean **{geo:.2f}x** (goal <= {GOAL_GEOMEAN:.2f}x: "
        f"{'met' if geo <= GOAL_GEOMEAN else 'NOT met'}), worst **{worst:.2f}x** (goal <= "
        f"{GOAL_WORST:.2f}x: {'met' if worst <= GOAL_WORST else 'NOT met'}); "
        f"{len(ratios)} kernels."
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1 placement, 3 samples of 5 ms")
    ap.add_argument("--targets", default="avx2,x86-64-v2,avx512")
    ap.add_argument("--kernels", help="comma-separated kernel names (default: all)")
    ap.add_argument("--placements", type=int, default=3)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / "bench"))
    ap.add_argument("--repeats", type=int, default=5, help="samples per placement")
    ap.add_argument("--sample-ms", type=float, default=10.0)
    ap.add_argument("--fp-contract", action="store_true",
                    help="eqsat and the reference in fp-contract mode; the strict group only")
    args = ap.parse_args()
    repeats, sample, placements = ((3, 0.005, 1) if args.quick
                                   else (args.repeats, args.sample_ms / 1000, args.placements))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    kernels = kernel_paths(args.kernels.split(",") if args.kernels else None)
    prov = record()
    md = [
        markdown_header(prov),
        f"Every variant compiled {placements} time(s) in fresh processes, each placement "
        f"{repeats} samples of {sample * 1000:.0f} ms interleaved across the variants; ns per "
        "call is the median of all samples (thread CPU time of a JIT-compiled call loop), the "
        "spread the min-max of the placements' medians. Every variant compiles under the "
        "target file's LLVM options. MLIR's best is the minimum over its whole strategy space "
        "(searched in two stages, see the README) among variants whose results are right. "
        "The machine is shared: expect noise beyond the spread.",
    ]
    if args.fp_contract:
        md.append("\n**fp-contract mode**: eqsat's code and the reference interpreter fuse each "
                  "multiply-add of a float contraction, in order (`eqsat bench --fp-contract`); "
                  "`equal`/bit-exact compare with that reference; strict group only.")
    csv_rows: list[list[object]] = []
    json_out: dict[str, object] = {"provenance": prov, "runs": []}
    for tname in args.targets.split(","):
        target = load_target(tname)
        if not target.runs_on_host():
            md.append(f"\n## {tname}\n\nNot run: this host cannot run {tname} code (it lacks "
                      f"some of {', '.join(target.requires)}).\n")  # fmt: skip
            continue
        reports: list[Report] = []
        for path in kernels:
            text = path.read_text()
            t0 = time.time()
            fused = args.fp_contract
            rep = bench(text, path.name, path.stem, target, scalars=kernel_args(text),
                        repeats=repeats, sample_seconds=sample, reassoc=not fused,
                        fast_math=not fused, placements=placements,
                        fp_contract=fused)  # fmt: skip
            reports.append(rep)
            ours = rep.row("eqsat")
            print(f"{tname} {path.stem}: {time.time() - t0:.0f} s, eqsat "
                  f"{_fmt(ours.ns_per_call if ours else None)} ns", flush=True)  # fmt: skip
            rows = report_json(rep)
            json_out["runs"].append({"target": tname, "kernel": path.stem, "rows": rows,  # type: ignore[union-attr]
                                     "call_ns": rep.call_ns, "flops": rep.flops,
                                     "clock_ghz": rep.clock[0] if rep.clock else None})  # fmt: skip
            for r in rows:
                csv_rows.append([tname, path.stem, r["variant"], r["group"], r["ns_per_call"],
                                 *(r["spread"] or ["", ""]), r["equal"], r["exact"],
                                 r["compile_ms"],
                                 r["same_as"] or "", r["note"]])  # fmt: skip
            # after each kernel: a long run that is stopped keeps what it measured
            sections = _sections(tname, target, reports, args.fp_contract)
            _write(out, md + sections, csv_rows, json_out, prov)
        md += _sections(tname, target, reports, args.fp_contract)
    _write(out, md, csv_rows, json_out, prov)
    print(f"wrote {out.with_suffix('.md')}, .csv (+ .csv.provenance.json) and .json")


def _sections(
    tname: str, target: object, reports: list[Report], fp_contract: bool = False
) -> list[str]:
    """The markdown of one target: its tables, one per group (the kernels measured so far)."""
    opts = reports[0].options.label() if reports and reports[0].options else "-"
    md = [f"\n## {tname} ({getattr(target, 'cpu', '')}, LLVM options: {opts})\n"]
    for group in ("",) if fp_contract else GROUPS:
        name = {"": "fp-contract" if fp_contract else "strict IEEE",
                "+reassoc": "reductions reassociated", "+fast-math": "fast-math"}[group]
        md.append(f"\n### {tname}, {name} (eqsat{group} against mlir-*{group})\n")
        md.append(table(reports, group))
    return md


def _write(out: Path, md: list[str], csv_rows: list[list[object]], json_out: dict[str, object],
           prov: dict[str, object]) -> None:  # fmt: skip
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    with out.with_suffix(".csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["target", "kernel", "variant", "group", "ns_per_call", "spread_min",
                    "spread_max", "equal", "exact", "compile_ms", "same_as", "note"])  # fmt: skip
        w.writerows(csv_rows)
    write_sidecar(out.with_suffix(".csv"), prov)
    out.with_suffix(".json").write_text(json.dumps(json_out, indent=1) + "\n")


if __name__ == "__main__":
    main()
