"""Lowering choices: kernel suite x runnable target x {eqsat's own choice, every forced eqsat
strategy, MLIR 22's strategy space}, measured, predicted, and the regret of eqsat's choice.

    python experiments/lowering_choices.py [--quick | --smoke] [--out DIR] [--emit vv|hwv]
                                           [--cluster ADDR] [--workers N] [--fresh]

One sweep spec per (kernel, target, reassociation): its run compiles every variant of the
kernel, checks each against eqsat's reference interpreter and times them together (samples
interleaved, so a slow moment of a shared machine spreads over all variants). Variants that
produce the same LLVM IR share one timing. eqsat variants are priced by the target's cost model
(``--emit`` level; ``hwv`` by default, as ``eqsat opt --target``; native widths of the target), one strategy forced per op
kind by pricing its siblings out (``eqsat.forced_strategies``).

Regret of eqsat's choice = its time / the best checked variant's time - 1 (>= 0); with
reassociation off, a variant that gives other bits than the program's (within the tolerance,
say MLIR's unfused ``vector.fma`` on x86-64-v2) is timed and listed but is no rival. Kendall tau
(``scipy.stats.kendalltau``, tau-b) between predicted cost and measured time over the distinct
eqsat variants of each (kernel, target). Goal: geometric-mean regret under 3%, no kernel over 5%.

MLIR's rivals are the benchmark's strategy space (``eqsat.bench.mlir_baseline.strategy_variants``:
its default, each strategy forced alone, every combination of them, and the default strategies
with each transfer option). Each eqsat variant is priced by the extraction round that made its
choice (``kernel_variants.first_round_cost``), so that two variants are never priced by
different rounds' rules. A run whose eqsat choice has fewer than two rivals (distinct checked
programs besides its own) says little about the choice: such runs are reported apart and left
out of the regret figures.
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.lib import kernel_variants as kv  # noqa: E402
from experiments.sweeplib import Spec, run_sweep  # noqa: E402
from experiments.sweeplib.runner import (  # noqa: E402
    add_plan_arguments,
    add_sweep_arguments,
    executor_from_args,
    plan_of,
)

STUDY = "lowering_choices"
RUN = "experiments.lowering_choices:run"
TARGETS = ("avx2", "x86-64-v2")
GOAL_GEOMEAN, GOAL_WORST = 0.03, 0.05

#: plan -> (kernels or None for all, targets, reassociation settings, repeats, sample seconds)
PLANS: dict[str, tuple[list[str] | None, tuple[str, ...], tuple[bool, ...], int, float]] = {
    "full": (None, TARGETS, (False, True), 9, 0.02),
    "quick": (["transpose_8x8", "reduce_outer_64x16"], ("avx2",), (False,), 3, 0.002),
    "smoke": (["reduce_outer_64x16"], ("avx2",), (False,), 1, 0.001),
}
#: Fewer rivals than this: the run is reported apart (see the module docstring).
MIN_RIVALS = 2
COLUMNS = (
    "target",
    "kernel",
    "reassoc",
    "variant",
    "kind",
    "forced",
    "ns_per_call",
    "ns_min",
    "ns_max",
    "predicted_cost",
    "checked",
    "exact",
    "same_as",
    "note",
)


def specs(plan: str, emit: str = "hwv", layout: str = "nested",
          reassoc: str = "plan") -> list[Spec]:
    """The plan's runs; ``reassoc`` ``off`` keeps only the runs without reassociation."""
    from eqsat.targets import load_target

    kernels, targets, flags, repeats, sample = PLANS[plan]
    if reassoc == "off":
        flags = (False,)
    out = []
    for tname in targets:
        if not load_target(tname).runs_on_host():
            continue
        for path in kv.kernel_paths(kernels):
            for reassoc in flags:
                params = {
                    "kernel": path.stem,
                    "emit": emit,
                    "layout": layout,
                    "repeats": repeats,
                    "sample_s": sample,
                }
                out.append(Spec(STUDY, RUN, params, target=tname, fast_math=reassoc))
    return out


def _candidates(spec: Spec, module: Any, text: str, target: Any) -> list[dict[str, Any]]:
    """Every variant of the spec's kernel: name, what it forces, LLVM IR (or a note why none)."""
    from concurrent.futures import ThreadPoolExecutor

    from eqsat.bench.mlir_baseline import (
        CannotLower,
        ToolMissing,
        lower_to_llvm_ir,
        strategy_variants,
    )

    reassoc, p = spec.fast_math, spec.params
    out: list[dict[str, Any]] = []
    choices: list[tuple[str, dict[str, str] | None]] = [("eqsat", None)]
    for kind, strategy in kv.forced_choices(module, reassoc):
        choices.append((f"eqsat:{kv.SHORT_KIND[kind]}={strategy}", {kind: strategy}))
    for name, choice in choices:
        kind = next(iter(choice)) if choice else ""
        row: dict[str, Any] = {"variant": name, "forced": bool(choice), "layout": "row-major",
                               "kind": "eqsat-forced" if choice else "eqsat"}
        try:
            v = kv.eqsat_variant(module, target, choice, p["emit"], reassoc, p["layout"])
        except Exception as e:  # a variant that cannot compile is a finding, not a crash
            row["note"] = f"eqsat cannot compile it: {type(e).__name__}: {e}"[:300]
            out.append(row)
            continue
        row["predicted_cost"] = v.predicted_cost
        if choice and not kv.strategy_applies(v, kind):
            row["note"] = f"strategy does not apply ({kind} kept)"
        else:
            row["ir"] = v.ir
        out.append(row)
    space = strategy_variants(text, "+reassoc" if reassoc else "", "avx2" in target.requires)

    def lower(v: Any) -> dict[str, Any]:
        row = {"variant": v.name, "forced": v.name != "mlir-default" + "+reassoc" * reassoc,
               "layout": v.matrix_layout, "kind": mlir_kind(v)}
        try:
            row["ir"] = lower_to_llvm_ir(text, v)
        except (CannotLower, ToolMissing) as e:
            row["note"] = str(e)
        return row

    with ThreadPoolExecutor(2) as pool:  # mlir-opt child processes, two at a time
        out += list(pool.map(lower, space))
    return out


def mlir_kind(v: Any) -> str:
    """``mlir-default``, ``mlir-forced`` (one strategy option set), ``mlir-combined`` (two or
    more, or a strategy with a transfer option) or ``mlir-transfer`` (a transfer option
    alone): where an MLIR variant sits in the benchmark's strategy space."""
    from eqsat.bench.mlir_baseline import DEFAULTS, STRATEGY_KEYS

    diff = [k for k in DEFAULTS if k != "reassoc" and v.options[k] != DEFAULTS[k]]
    strategies = [k for k in diff if k in STRATEGY_KEYS]
    if not diff:
        return "mlir-default"
    if not strategies:
        return "mlir-transfer"
    return "mlir-forced" if len(diff) == 1 else "mlir-combined"


def run(spec: Spec) -> dict[str, Any]:
    """Compile, check and time every variant of one kernel on one target."""
    from eqsat.bench.harness import Compiled, compare, make_inputs, sampled_ns, signature
    from eqsat.bench.run import RTOL, RTOL_REASSOC, interpret
    from eqsat.codegen.llvm_options import LlvmOptions

    target, path, text, module = kv.load_kernel(spec)
    sig = signature(module, path.stem)
    inputs = make_inputs(sig, kv.kernel_args(text), spec.seed)
    oracle = interpret(module, sig, inputs)
    rows = _candidates(spec, module, text, target)
    compiled: dict[str, tuple[dict[str, Any], Compiled]] = {}
    for row in rows:
        ir = row.pop("ir", None)
        if ir is None:
            continue
        key = f"{row['layout']}\n{ir}"
        if key in compiled:
            row["same_as"] = compiled[key][0]["variant"]
            continue
        try:  # every variant compiles under the target's LLVM options (like with like)
            c = Compiled(ir, sig, target, LlvmOptions.of(target, row["layout"]))
        except Exception as e:
            row["note"] = f"LLVM cannot compile it: {e}"[:300]
            continue
        agreement = compare(oracle, c.run(inputs), RTOL_REASSOC if spec.fast_math else RTOL)
        row["checked"] = agreement.equal
        row["exact"] = agreement.exact
        row["max_rel"] = agreement.max_rel
        if agreement.equal:
            compiled[key] = (row, c)
            if not agreement.exact and not spec.fast_math:
                row["note"] = f"other bits (max rel. error {agreement.max_rel:.1e}): not a rival"
        else:
            row["note"] = f"wrong result (max rel. error {agreement.max_rel:.1e})"
    timers = []
    for _, c in compiled.values():
        t = c.timer(inputs)
        t.calibrate(float(spec.params["sample_s"]))
        timers.append(t)
    samples = sampled_ns(timers, int(spec.params["repeats"]))
    for (row, _), ns in zip(compiled.values(), samples):
        row["ns_per_call"] = statistics.median(ns)
        row["ns_min"], row["ns_max"] = min(ns), max(ns)  # the spread: error bars
    by_name = {r["variant"]: r for r in rows}
    for row in rows:
        if "same_as" in row:
            first = by_name[row["same_as"]]
            row["ns_per_call"], row["checked"] = first.get("ns_per_call"), first.get("checked")
            row["ns_min"], row["ns_max"] = first.get("ns_min"), first.get("ns_max")
        row.pop("layout", None)
    return {"kernel": path.stem, "target": spec.target, "reassoc": spec.fast_math, "rows": rows}


# -- analysis ---------------------------------------------------------------------------------


def table(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for rec in records:
        res = rec["result"]
        for r in res["rows"]:
            out.append(
                {
                    "target": res["target"],
                    "kernel": res["kernel"],
                    "reassoc": res["reassoc"],
                    "variant": r["variant"],
                    "kind": r.get("kind", ""),
                    "forced": r["forced"],
                    "ns_per_call": _round(r.get("ns_per_call"), 2),
                    "ns_min": _round(r.get("ns_min"), 2),  # absent in older records
                    "ns_max": _round(r.get("ns_max"), 2),
                    "predicted_cost": r.get("predicted_cost"),
                    "checked": bool(r.get("checked")),
                    "exact": r.get("exact"),
                    "same_as": r.get("same_as", ""),
                    "note": r.get("note", ""),
                }
            )
    return out


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def groups(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, bool], list[Mapping]]:
    out: dict[tuple[str, str, bool], list[Mapping]] = {}
    for r in rows:
        out.setdefault((r["target"], r["kernel"], r["reassoc"]), []).append(r)
    return out


def best_row(
    group: Sequence[Mapping[str, Any]], eqsat_only: bool = False
) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]:
    """(eqsat's row, the fastest checked rival's row, eqsat's own row included), or Nones.
    ``eqsat_only``: among eqsat's own alternatives only."""
    timed = [r for r in group if r["checked"] and r["ns_per_call"] and _rival(r)]
    if eqsat_only:
        timed = [r for r in timed if r["variant"].startswith("eqsat")]
    ours = next((r for r in timed if r["variant"] == "eqsat"), None)
    if ours is None or not timed:
        return None, None
    return ours, min(timed, key=lambda r: r["ns_per_call"])


def regret(
    group: Sequence[Mapping[str, Any]], eqsat_only: bool = False
) -> tuple[float | None, str]:
    """eqsat's time over the best checked variant's, minus 1; and the best variant's name.
    ``eqsat_only``: over eqsat's own alternatives (the cost model's share of the regret, code
    generation's quality against MLIR's left out)."""
    ours, best = best_row(group, eqsat_only)
    if ours is None or best is None:
        return None, ""
    return ours["ns_per_call"] / best["ns_per_call"] - 1, best["variant"]


def rivals(group: Sequence[Mapping[str, Any]]) -> int:
    """Distinct checked, timed programs that compete with eqsat's choice: every rival variant
    but eqsat's own and the copies of another (same LLVM IR)."""
    return sum(1 for r in group if r["checked"] and r["ns_per_call"] and _rival(r)
               and r["variant"] != "eqsat" and not r["same_as"])


def _rival(row: Mapping[str, Any]) -> bool:
    """Like with like: with reassociation off, only variants giving the program's exact bits
    compete (MLIR's ``vector.fma`` is ``llvm.fmuladd``, two roundings without an FMA unit)."""
    return bool(row["reassoc"]) or row.get("exact", True) is not False


def tau_points(group: Sequence[Mapping[str, Any]]) -> list[tuple[float, float]]:
    """(predicted, measured) of the distinct eqsat variants (a copy counts once)."""
    pts = []
    for r in group:
        if not r["variant"].startswith("eqsat") or r["same_as"] and r["same_as"].startswith("eq"):
            continue
        if r["checked"] and r["ns_per_call"] and r["predicted_cost"] is not None:
            pts.append((float(r["predicted_cost"]), float(r["ns_per_call"])))
    return pts


def tau_spreads(
    group: Sequence[Mapping[str, Any]],
) -> dict[tuple[float, float], tuple[float, float]]:
    """(predicted cost, median ns) -> (min, max) ns of the samples, for the points of
    ``tau_points`` that recorded their spread."""
    out = {}
    for r in group:
        if not r["variant"].startswith("eqsat") or r["same_as"] and r["same_as"].startswith("eq"):
            continue
        if r["checked"] and r.get("ns_min") is not None and r["predicted_cost"] is not None:
            key = (float(r["predicted_cost"]), float(r["ns_per_call"]))
            out[key] = (float(r["ns_min"]), float(r["ns_max"]))
    return out


def kendall(pts: Sequence[tuple[float, float]]) -> float | None:
    from scipy.stats import kendalltau

    if len(pts) < 2:
        return None
    tau = kendalltau([p for p, _ in pts], [m for _, m in pts]).statistic
    return None if tau is None or math.isnan(tau) else float(tau)


def pooled_tau(all_pts: Sequence[Sequence[tuple[float, float]]]) -> tuple[float | None, int]:
    """Tau-a over every pair of alternatives of the same (kernel, target): (concordant -
    discordant) / pairs; ties in either count as neither."""
    c = d = n = 0
    for pts in all_pts:
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                s = (pts[i][0] - pts[j][0]) * (pts[i][1] - pts[j][1])
                n += 1
                c += s > 0
                d += s < 0
    return ((c - d) / n if n else None), n


def summary(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for (tname, kernel, reassoc), g in groups(rows).items():
        reg, best = regret(g)
        _, best_r = best_row(g)
        pts = tau_points(g)
        ours = next(r for r in g if r["variant"] == "eqsat")
        same = [r["variant"].removeprefix("eqsat:") for r in g if r["same_as"] == "eqsat"]
        out.append(
            {
                "target": tname,
                "kernel": kernel,
                "reassoc": reassoc,
                "eqsat_ns": ours["ns_per_call"],
                "eqsat_is": ", ".join(same) or "own plan (no forced twin)",
                "best": best,
                "best_ns": best_r["ns_per_call"] if best_r else None,  # the best variant's
                "regret": reg,
                "rivals": rivals(g),
                "kinds": sorted({r["kind"] for r in g if r.get("kind")}),
                "regret_eqsat": regret(g, eqsat_only=True)[0],
                "tau": kendall(pts),
                "alternatives": len(pts),
                "points": pts,
                "spreads": tau_spreads(g),
            }
        )
    return out


def _fmt(x: float | None, spec: str = ".1f") -> str:
    return "n/a" if x is None else format(x, spec)


def markdown(rows: Sequence[Mapping], summ: Sequence[Mapping], records: Sequence[Mapping],
             command: str) -> str:  # fmt: skip
    host = records[0]["host"] if records else {}
    git = records[0]["git"] if records else {}
    spec = records[0]["spec"] if records else {}
    version = records[0]["version"] if records else "?"
    p = spec.get("params", {})
    from experiments.lib.provenance import markdown_header, record

    lines = [
        "# Lowering choices: regret of eqsat's choice",
        "",
        markdown_header(record(command.split()[1:])),
        "",
        f"Runs (their records): {host.get('cpu')} ({host.get('cpus')} CPUs, shared with other "
        f"work), Python {host.get('python')}, eqsat {version} at "
        f"{(git.get('commit') or '?')[:10]}{' (dirty)' if git.get('dirty') else ''}. "
        "eqsat variants: cost model of the target at "
        f"emit={p.get('emit')}, {p.get('layout')} layout; median of {p.get('repeats')} samples of "
        f"{1000 * float(p.get('sample_s', 0)):.0f} ms, ns per call in thread CPU time.",
        "",
        "## Regret per kernel",
        "",
        f"Runs where eqsat's choice has at least {MIN_RIVALS} rivals (distinct checked programs: "
        "eqsat's forced strategies and MLIR's strategy space, default, forced, combined).",
        "",
    ]
    lines += _regret_table([s for s in summ if s["rivals"] >= MIN_RIVALS])
    few = [s for s in summ if s["rivals"] < MIN_RIVALS]
    lines += ["", f"## Runs with fewer than {MIN_RIVALS} rivals (apart: not in the figures below)",
              ""]
    lines += _regret_table(few) if few else ["None."]
    lines += ["", "## Against the goal", ""] + verdict(summ) + ["", "## Every variant", ""]
    lines += [
        "| target | kernel | reassoc | variant | kind | ns/call | predicted cost | checked | note |",
        "|---|---|---|---|---|---:|---:|---|---|",
    ]
    for r in rows:
        note = r["note"] or (f"same LLVM IR as {r['same_as']}" if r["same_as"] else "")
        lines.append(
            f"| {r['target']} | {r['kernel']} | {'on' if r['reassoc'] else 'off'} | "
            f"{r['variant']} | {r.get('kind', '')} | {_fmt(r['ns_per_call'])} | "
            f"{_fmt(r['predicted_cost'], '.4g')} | "
            f"{'yes' if r['checked'] else 'no'} | {note.replace('|', '/')} |"
        )
    return "\n".join(lines) + "\n"


def _regret_table(summ: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = [
        "| target | kernel | reassoc | eqsat picks | eqsat ns | best variant | best ns | regret "
        "| regret among eqsat's alternatives | rivals | Kendall tau (n) |",
        "|---|---|---|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for s in summ:
        lines.append(
            f"| {s['target']} | {s['kernel']} | {'on' if s['reassoc'] else 'off'} | "
            f"{s['eqsat_is']} | {_fmt(s['eqsat_ns'])} | {s['best']} | {_fmt(s['best_ns'])} | "
            f"{_fmt(None if s['regret'] is None else 100 * s['regret'], '.1f')}% | "
            f"{_fmt(None if s['regret_eqsat'] is None else 100 * s['regret_eqsat'], '.1f')}% | "
            f"{s['rivals']} | {_fmt(s['tau'], '.2f')} ({s['alternatives']}) |"
        )
    return lines


def verdict(summ: Sequence[Mapping[str, Any]]) -> list[str]:
    apart = [f"{s['target']}/{s['kernel']}{'+r' if s['reassoc'] else ''} ({s['rivals']})"
             for s in summ if s["rivals"] < MIN_RIVALS]
    summ = [s for s in summ if s["rivals"] >= MIN_RIVALS]
    regs = [s for s in summ if s["regret"] is not None]
    missing = [f"{s['target']}/{s['kernel']}" for s in summ if s["regret"] is None]
    out = []
    if regs:
        geo = kv.geomean([1 + s["regret"] for s in regs])
        worst = max(regs, key=lambda s: s["regret"])
        over = [s for s in regs if s["regret"] > GOAL_WORST]
        names = [f"{s['kernel']}@{s['target']}{'+r' if s['reassoc'] else ''}" for s in over]
        gm = (geo or 1) - 1
        out.append(
            f"- Geometric-mean regret over {len(regs)} (kernel, target, reassociation) runs: "
            f"**{100 * gm:.1f}%** (goal < {100 * GOAL_GEOMEAN:.0f}%: "
            f"{'met' if gm < GOAL_GEOMEAN else 'NOT met'})."
        )
        out.append(
            f"- Worst: **{worst['kernel']}** on {worst['target']} "
            f"(reassociation {'on' if worst['reassoc'] else 'off'}), {100 * worst['regret']:.1f}% "
            f"(eqsat picks {worst['eqsat_is']}, best is {worst['best']}); "
            f"{len(over)} over {100 * GOAL_WORST:.0f}% (goal: none: "
            f"{'met' if not over else 'NOT met, ' + ', '.join(names)})."
        )
    own = [s["regret_eqsat"] for s in summ if s["regret_eqsat"] is not None]
    if own:
        gm = (kv.geomean([1 + r for r in own]) or 1) - 1
        out.append(
            f"- Among eqsat's own alternatives only (the cost model's choice, code generation "
            f"against MLIR's left out): geometric mean {100 * gm:.1f}%, worst "
            f"{100 * max(own):.1f}%, {sum(r > GOAL_WORST for r in own)} over "
            f"{100 * GOAL_WORST:.0f}%."
        )
    if missing:
        out.append(f"- No regret (eqsat variant missing or wrong): {', '.join(missing)}.")
    if apart:
        out.append(f"- Reported apart, fewer than {MIN_RIVALS} rivals (count in brackets): "
                   f"{', '.join(apart)}.")
    taus = [s["tau"] for s in summ if s["tau"] is not None]
    pooled, pairs = pooled_tau([s["points"] for s in summ])
    if taus:
        out.append(
            f"- Kendall tau between predicted cost and measured time over eqsat's alternatives: "
            f"mean per kernel {sum(taus) / len(taus):.2f} over {len(taus)} kernels with 2+ "
            f"distinct alternatives; pooled tau-a over all {pairs} within-kernel pairs "
            f"{_fmt(pooled, '.2f')}."
        )
    return out


def write_csv(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)


def plot(summ: Sequence[Mapping[str, Any]], path: Path, plan: str = "full") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from experiments.lib.plot_style import label_plan, legend_outside, series_style, without_penalties

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(17, 6.5))
    labels = [f"{s['kernel']} {s['target']}{' +r' if s['reassoc'] else ''}" for s in summ]
    vals = [100 * (s["regret"] or 0) for s in summ]
    colors = ["tab:red" if v > 100 * GOAL_WORST else "tab:blue" for v in vals]
    ax.bar(range(len(vals)), vals, color=colors)
    ax.axhline(100 * GOAL_GEOMEAN, color="orange", ls="--", label="3% (geo-mean goal)")
    ax.axhline(100 * GOAL_WORST, color="red", ls=":", label="5% (per-kernel goal)")
    ax.set_xticks(range(len(vals)), labels, rotation=75, ha="right", fontsize=6)
    ax.set_yscale("symlog", linthresh=5)
    ax.set_ylabel("regret of eqsat's choice (%, linear below 5%)")
    ax.legend(fontsize=8)
    ax.set_title("eqsat's choice vs the best measured variant")
    dropped = 0
    spread_seen = False
    for i, s in enumerate(summ):
        pts = sorted(s["points"])
        if len(pts) < 2:
            continue
        best = min(m for _, m in pts)
        xs, ys, n = without_penalties([p for p, _ in pts], [m / best for _, m in pts])
        dropped += n
        style = series_style(i)
        bx.plot(xs, ys, ms=4, alpha=0.75, label=f"{s['kernel']} {s['target']}", **style)
        spreads = s.get("spreads", {})
        bars = [(p, m / best, spreads[(p, m)]) for p, m in pts if (p, m) in spreads and p in xs]
        if bars:  # min-max of the samples, relative to the fastest alternative's median
            spread_seen = True
            bx.errorbar([x for x, _, _ in bars], [y for _, y, _ in bars],
                        yerr=[[max(0.0, y - lo / best) for _, y, (lo, _) in bars],
                              [max(0.0, hi / best - y) for _, y, (_, hi) in bars]],
                        fmt="none", ecolor=style["color"], alpha=0.6, capsize=2)  # fmt: skip
        if xs:  # eqsat's choice: the alternative its cost model priced lowest
            bx.plot(xs[0], ys[0], marker="*", ms=13, color=style["color"], mec="black",
                    linestyle="none")  # fmt: skip
    bx.plot([], [], marker="*", ms=11, color="grey", mec="black", linestyle="none",
            label="eqsat's choice (lowest predicted cost)")  # fmt: skip
    bx.set_xscale("log")
    bx.set_xlabel("predicted cost (target cost model)")
    bx.set_ylabel("measured time / fastest eqsat alternative")
    bars = "error bars: min-max of the samples" if spread_seen else "no spread recorded"
    bx.set_title(f"predicted cost vs measured time (eqsat alternatives; {bars})"
                 + (f"\n{dropped} alternatives with a penalty cost not drawn" if dropped else ""))
    legend_outside(bx)
    label_plan(fig, plan)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_plan_arguments(ap, quick="no reassociation, 3 short samples", smoke="two kernels on avx2 (tests)")
    ap.add_argument("--out", type=Path, default=None, help="output directory")
    ap.add_argument("--emit", choices=("vv", "hwv"), default="hwv", help="extraction level")
    ap.add_argument("--layout", choices=("nested", "flat"), default="nested")
    ap.add_argument("--reassoc", choices=("plan", "off"), default="plan",
                    help="off: only the runs without reassociation (half the full study)")
    add_sweep_arguments(ap)
    args = ap.parse_args(argv)
    if args.workers is None and args.cluster is None:
        args.workers = 1  # timings: one run at a time unless asked otherwise
    plan = plan_of(args)
    here = Path(__file__).resolve().parent
    out = args.out or here / "results" / (STUDY if plan == "full" else f"{STUDY}-{plan}")
    out.mkdir(parents=True, exist_ok=True)
    records_path = out / "records.jsonl"
    if args.fresh:
        records_path.unlink(missing_ok=True)
    todo = specs(plan, args.emit, args.layout, args.reassoc)
    if not todo:
        print("error: none of the study's targets runs on this host", file=sys.stderr)
        return 1
    result = run_sweep(todo, records_path, executor_from_args(args),
                       progress=not args.no_progress, desc=f"{STUDY} ({plan})")  # fmt: skip
    if result.failed:
        print(f"error: {result.failed} runs failed (see {records_path}); rerun to retry them",
              file=sys.stderr)  # fmt: skip
        return 1
    rows = table(result.records)
    summ = summary(rows)
    command = f"python experiments/{STUDY}.py" + {"full": "", "quick": " --quick",
                                                   "smoke": " --smoke"}[plan]  # fmt: skip
    if args.emit != "vv":
        command += f" --emit {args.emit}"
    if args.reassoc != "plan":
        command += f" --reassoc {args.reassoc}"
    write_csv(rows, out / f"{STUDY}.csv")
    (out / f"{STUDY}.md").write_text(markdown(rows, summ, result.records, command))
    plot(summ, out / f"{STUDY}.png", plan)
    print("\n".join(verdict(summ)))
    print(f"({result.ran} runs now, {result.skipped} from earlier records) -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
