"""Cost-model tuning: fit a target's [cost] table so predicted cost ranks lowerings as time does.

Two sweeps (``tuning_runs.py``): micro-benchmarks (one VV/HWV op repeated over 1, 2, 4, 8
native registers) and the alternatives of the kernel suite (each MLIR strategy of the kernel's
contract / transpose / multi_reduction forced, and eqsat's own choice), measured on this
machine. The fit: non-negative least squares of micro-benchmark time on the registers each op
runs (ns per register, in units of ``arith.addf``) as a start, then a coordinate search over
the entries the alternatives spend their cost on, maximizing Kendall tau between predicted cost
and measured time over all pairs of alternatives of the same kernel. The tuned table goes to
its own file (a complete target file); the shipped ``costs/*.toml`` is never written.

    python experiments/tune_costs.py [--quick | --smoke] [--target avx2] [--out FILE.toml]
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script: make `experiments` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.lib import tuning_runs as tr
from experiments.sweeplib import Spec, run_sweep
from experiments.sweeplib.runner import (
    add_plan_arguments,
    add_sweep_arguments,
    executor_for,
    plan_of,
)

HERE = Path(__file__).resolve().parent
RUNNABLE = ("avx2", "x86-64-v2")
#: Pairs of alternatives whose measured times differ by less than this are ties (noise).
NOISE = 0.05
MULTIPLIERS = (0.1, 0.25, 0.5, 0.67, 0.8, 0.9, 1.1, 1.25, 1.5, 2.0, 4.0, 10.0)
PLANS: dict[str, dict[str, Any]] = {
    "full": {"ops": tr.MICRO_OPS, "kernels": None, "repeats": 7, "seconds": 0.02, "widths": None},
    "quick": {"ops": tr.MICRO_OPS, "kernels": None, "repeats": 3, "seconds": 0.004,
              "widths": (1, 8)},
    "smoke": {"ops": ("arith.addf", "vector.load", "vector.transpose"),
              "kernels": ("transpose_8x8",), "repeats": 1, "seconds": 0.001, "widths": (1, 2)},
}  # fmt: skip


# -- specs --------------------------------------------------------------------------------------
def specs(plan: str, target: str) -> list[Spec]:
    from eqsat.targets import load_target

    p = PLANS[plan]
    lanes = load_target(target).lanes(tr.F32) or 8
    timing = {"repeats": p["repeats"], "seconds": p["seconds"]}
    out = []
    for op in (tr.BASE, *p["ops"]):
        widths = [w for w in tr.micro_widths(op, lanes) if not p["widths"] or w in p["widths"]]
        for w in widths or tr.micro_widths(op, lanes)[:1]:
            out.append(Spec("tune-micro", "experiments.lib.tuning_runs:run_micro",
                            {"op": op, "width": w, **timing}, target=target))
            if op == "vector.reduction":
                out.append(Spec("tune-micro", "experiments.lib.tuning_runs:run_micro",
                                {"op": op, "width": w, "reassoc": True, **timing},
                                target=target))
    for k in p["kernels"] or tr.kernel_names():
        for alt in tr.alternatives(k):
            out.append(Spec("tune-alt", "experiments.lib.tuning_runs:run_alternative",
                            {"kernel": k, "alternative": alt, **timing}, target=target))
    return out


# -- ranking ------------------------------------------------------------------------------------
def agrees(row: Mapping[str, Any], reference: Mapping[str, Any] | None) -> bool:
    """Whether an alternative's outputs (their sums) match eqsat's own choice on the same
    inputs (1e-3 of the magnitude: lowerings round differently), a check that every ranked
    program computes the kernel."""
    if reference is None or row["alternative"] == "eqsat":
        return True
    got, ref = row.get("outputs_digest", []), reference.get("outputs_digest", [])
    return len(got) == len(ref) and all(
        abs(a - b) <= 1e-3 * max(1.0, abs(b)) for a, b in zip(got, ref)
    )


def applicable(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Alternatives to rank: distinct programs of each kernel (a strategy extracting the same
    program as another, or not applying, is the same alternative), each measured and agreeing
    with eqsat's choice (see ``agrees``)."""
    refs = {r["kernel"]: r for r in rows if r["alternative"] == "eqsat"}
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for r in rows:
        key = (r["kernel"], r["program"])
        if key in seen or r.get("ns_per_call") is None or not agrees(r, refs.get(r["kernel"])):
            continue
        seen.add(key)
        out.append(dict(r))
    return out


def pair_tau(kernels: Sequence[str], predicted: Sequence[float], measured: Sequence[float]
             ) -> tuple[float, int]:
    """Kendall tau over all pairs of alternatives of the same kernel whose measured times
    differ by more than ``NOISE``: (concordant - discordant) / pairs, a predicted tie counting
    as neither. Returns (tau, pairs)."""
    c = d = n = 0
    for i in range(len(kernels)):
        for j in range(i + 1, len(kernels)):
            if kernels[i] != kernels[j]:
                continue
            ti, tj = measured[i], measured[j]
            if abs(ti - tj) <= NOISE * min(ti, tj):
                continue
            n += 1
            dp = predicted[i] - predicted[j]
            if abs(dp) <= 1e-9 * max(abs(predicted[i]), abs(predicted[j]), 1.0):
                continue
            if (dp > 0) == (ti > tj):
                c += 1
            else:
                d += 1
    return ((c - d) / n if n else float("nan")), n


def discordant(rows: Sequence[Mapping[str, Any]], predicted: Sequence[float]) -> list[str]:
    """The pairs ``pair_tau`` counts against: same kernel, time apart, ranked the other way."""
    out = []
    for i, a in enumerate(rows):
        for j in range(i + 1, len(rows)):
            b = rows[j]
            ta, tb = a["ns_per_call"], b["ns_per_call"]
            if a["kernel"] != b["kernel"] or abs(ta - tb) <= NOISE * min(ta, tb):
                continue
            if predicted[i] != predicted[j] and (predicted[i] > predicted[j]) != (ta > tb):
                out.append(f"{a['kernel']}: {a['alternative']} {ta:.1f} ns, cost "
                           f"{predicted[i]:.4g} vs {b['alternative']} {tb:.1f} ns, cost "
                           f"{predicted[j]:.4g}")
    return out


def global_tau(predicted: Sequence[float], measured: Sequence[float]) -> float:
    """scipy's tau-b over every (kernel, alternative) point, across kernels."""
    from scipy.stats import kendalltau

    return float(kendalltau(predicted, measured).statistic) if len(predicted) > 1 else math.nan


# -- fitting ------------------------------------------------------------------------------------
def nnls_units(micro: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """ns per native register of each micro-benchmarked entry (non-negative least squares with
    a per-call intercept), in units of ``arith.addf``'s."""
    from scipy.optimize import nnls

    cols = sorted({k for r in micro for k in r["features"]})
    a = np.array([[r["features"].get(k, 0.0) for k in cols] for r in micro])
    y = np.array([r["ns_per_call"] for r in micro])
    scale = np.maximum(y, 1e-9)  # relative error: every benchmark counts alike
    x, _ = nnls(a / scale[:, None], y / scale)
    ns = dict(zip(cols, x))
    ns.pop("call", None)
    unit = ns.get("arith.addf") or float(np.median([v for v in ns.values() if v > 0] or [1.0]))
    return {k: v / unit for k, v in ns.items()}


def shipped_value(table: Mapping[str, Any], key: str) -> float:
    """The entry's f32 (else default) number."""
    e = table.get(key, table.get("default", 1.0))
    if isinstance(e, Mapping):
        return float(e.get(tr.F32, e.get("default", 1.0)))
    return float(e)


def predict(rows: Sequence[Mapping[str, Any]], scales: Mapping[str, float],
            penalty: bool = False) -> list[float]:
    """Each program's cost with entry ``k`` scaled by ``scales[k]`` (cost is linear in every
    entry: ``sum of share x scale``). ``const`` is the part no single entry prices (pseudo-op
    pieces such as spills), left out unless ``penalty``."""
    return [sum(v * scales.get(k, 1.0) for k, v in r["shares"].items() if k != "const")
            + (r["shares"].get("const", 0.0) if penalty else 0.0) for r in rows]


def fit(rows: Sequence[Mapping[str, Any]], table: Mapping[str, Any],
        units: Mapping[str, float], passes: int = 8) -> tuple[dict[str, float], dict[str, Any]]:
    """Scales per entry: NNLS start, then coordinate search on pairwise tau."""
    kernels = [r["kernel"] for r in rows]
    times = [r["ns_per_call"] for r in rows]
    start = {k: max(v, 0.05) / shipped_value(table, k) for k, v in units.items() if k in table}
    start = {k: v for k, v in start.items() if any(k in r["shares"] for r in rows)}
    keys = sorted({k for r in rows for k in r["shares"] if k != "const"})
    tau0, _ = pair_tau(kernels, predict(rows, {}), times)
    tau_nnls, _ = pair_tau(kernels, predict(rows, start), times)
    # Start from whichever ranks better: the micro-benchmarks' NNLS or the shipped table.
    best = dict(start) if tau_nnls >= tau0 else {}
    best_tau = max(tau0, tau_nnls)
    for _ in range(passes):
        improved = False
        for k in keys:
            for m in MULTIPLIERS:
                trial = dict(best)
                trial[k] = best.get(k, 1.0) * m
                if trial[k] * shipped_value(table, k) < 0.05:
                    continue
                t, _ = pair_tau(kernels, predict(rows, trial), times)
                if t > best_tau + 1e-12:
                    best, best_tau, improved = trial, t, True
        if not improved:
            break
    return best, {"tau_shipped": tau0, "tau_nnls": tau_nnls, "tau_tuned": best_tau}


def check_specs(plan: str, target: str, tuned: Path) -> list[Spec]:
    """eqsat's own choice per kernel under the tuned file (``Spec.costs``: its hash is in the
    record, so a refit measures again)."""
    p = PLANS[plan]
    return [Spec("tune-check", "experiments.lib.tuning_runs:run_alternative",
                 {"kernel": k, "alternative": "eqsat", "repeats": p["repeats"],
                  "seconds": p["seconds"]}, target=target, costs=str(tuned))
            for k in p["kernels"] or tr.kernel_names()]


def choices(records: Sequence[Mapping[str, Any]], checks: Sequence[Mapping[str, Any]],
            target: str) -> list[dict[str, Any]]:
    """Per kernel: eqsat's choice under the shipped and the tuned table, and their times."""
    shipped = {r["spec"]["params"]["kernel"]: r["result"] for r in records
               if r["status"] == "ok" and r["target"] == target and r["study"] == "tune-alt"
               and r["spec"]["params"]["alternative"] == "eqsat"}
    out = []
    for r in checks:
        k = r["spec"]["params"]["kernel"]
        if r["status"] != "ok" or k not in shipped:
            continue
        a, b = shipped[k], r["result"]
        out.append({"kernel": k, "changed": a["program"] != b["program"],
                    "shipped_ns": a["ns_per_call"], "tuned_ns": b["ns_per_call"]})
    return out


# -- the tuned target file ----------------------------------------------------------------------
def cross_validated_tau(rows: Sequence[Mapping[str, Any]], table: Mapping[str, Any],
                        units: Mapping[str, float]) -> float:
    """Leave one kernel out: fit on the other kernels' alternatives, rank the held-out
    kernel's; tau pooled over every held-out pair (how the fit does on kernels it never saw)."""
    c = n = 0.0
    for k in sorted({r["kernel"] for r in rows}):
        held = [r for r in rows if r["kernel"] == k]
        if len(held) < 2:
            continue
        scales, _ = fit([r for r in rows if r["kernel"] != k], table, units)
        tau, pairs = pair_tau([k] * len(held), predict(held, scales),
                              [r["ns_per_call"] for r in held])
        if pairs:
            c += tau * pairs
            n += pairs
    return c / n if n else float("nan")


def _fmt(v: float) -> str:
    return f"{v:.3g}"


def tuned_text(path: str, table: Mapping[str, Any], scales: Mapping[str, float],
               note: str) -> str:
    """The shipped target file with the scaled [cost] entries rewritten (comments kept);
    entries the file does not list (priced by ``default``) are added to its [cost] section."""
    lines = Path(path).read_text().splitlines()
    done: set[str] = set()
    section = ""
    last_cost = len(lines)
    for i, line in enumerate(lines):
        m = re.match(r"^\s*\[([^\]]+)\]", line)
        if m:
            section = m.group(1).strip()
            continue
        if section != "cost":
            continue
        last_cost = i + 1
        m = re.match(r'^(\s*"?([\w.\-]+)"?\s*=\s*)(.*?)(\s*#.*)?$', line)
        if not m or m.group(2) not in scales:
            continue
        key = m.group(2)
        lines[i] = m.group(1) + _value(table, key, scales[key]) + (m.group(4) or "")
        done.add(key)
    extra = [f'"{k}" = {_value(table, k, s)}' for k, s in sorted(scales.items())
             if k not in done and k != "default"]
    if extra:
        lines[last_cost:last_cost] = ["# Added by tuning (priced by `default` before)", *extra]
    header = [f"# {line}".rstrip() for line in note.splitlines()]
    return "\n".join(header + lines) + "\n"


def _value(table: Mapping[str, Any], key: str, scale: float) -> str:
    e = table.get(key, table.get("default", 1.0))
    if isinstance(e, Mapping):
        return "{ " + ", ".join(f"{t} = {_fmt(float(v) * scale)}" for t, v in e.items()) + " }"
    return _fmt(float(e) * scale)


# -- outputs ------------------------------------------------------------------------------------
def analyse(records: Sequence[Mapping[str, Any]], target: str, out_toml: Path, outdir: Path,
            command: str) -> dict[str, Any]:
    """Fit, write the tuned file, CSV, markdown and plot of one target; returns the summary."""
    from eqsat.targets import load_target

    t = load_target(target)
    ok = [r for r in records if r["status"] == "ok" and r["target"] == target]
    micro = [{**r["spec"]["params"], **r["result"]} for r in ok if r["study"] == "tune-micro"]
    alts = [{**r["spec"]["params"], **r["result"]} for r in ok if r["study"] == "tune-alt"]
    rows = applicable(alts)
    refs = {r["kernel"]: r for r in alts if r["alternative"] == "eqsat"}
    units = nnls_units(micro)
    scales, taus = fit(rows, t.cost, units)
    note = (f"Tuned by `{command}` from {t.path} (tau {taus['tau_shipped']:.2f} -> "
            f"{taus['tau_tuned']:.2f} over pairs of alternatives).\nGenerated file: the shipped "
            "target file is unchanged.")
    out_toml.parent.mkdir(parents=True, exist_ok=True)
    out_toml.write_text(tuned_text(t.path if Path(t.path).exists() else _shipped(target),
                                   t.cost, scales, note))
    tuned = load_target(str(out_toml))  # a valid target file, or this raises
    before = predict(rows, {})
    after = predict(rows, scales)
    times = [r["ns_per_call"] for r in rows]
    kernels = [r["kernel"] for r in rows]
    tau_b, pairs = pair_tau(kernels, before, times)
    tau_a, _ = pair_tau(kernels, after, times)
    summary = {
        "target": target, "tau_before": tau_b, "tau_after": tau_a, "pairs": pairs,
        "tau_cv": cross_validated_tau(rows, t.cost, units),
        "discordant": discordant(rows, after),
        "penalised": sum(1 for r in rows if r["shares"].get("const", 0.0) > 1e-6),
        "model_before": pair_tau(kernels, predict(rows, {}, True), times)[0],
        "model_after": pair_tau(kernels, predict(rows, scales, True), times)[0],
        "tau_nnls": taus["tau_nnls"], "global_before": global_tau(before, times),
        "global_after": global_tau(after, times), "alternatives": len(rows),
        "duplicates": len(alts) - len({(r["kernel"], r["program"]) for r in alts}),
        "disagree": sum(1 for r in alts if not agrees(r, refs.get(r["kernel"]))),
        "micro": len(micro), "tuned_file": str(out_toml),
        "tuned_name": tuned.name,
        "changes": {k: (shipped_value(t.cost, k), shipped_value(t.cost, k) * s)
                    for k, s in sorted(scales.items()) if abs(s - 1) > 1e-9},
        "units": units,
    }
    with open(outdir / f"{file_tag(target)}-alternatives.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "alternative", "ns_per_call", "predicted_before", "predicted_after"])
        for r, b, a in zip(rows, before, after):
            w.writerow([r["kernel"], r["alternative"], f"{r['ns_per_call']:.2f}", b, f"{a:.4g}"])
    with open(outdir / f"{file_tag(target)}-micro.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["op", "width", "reassoc", "ns_per_call"])
        for r in micro:
            w.writerow([r["op"], r["width"], r.get("reassoc", False), f"{r['ns_per_call']:.2f}"])
    plan = next((p for p in ("quick", "smoke") if f"--{p}" in command), "full")
    plot(rows, before, after, summary, outdir / f"{file_tag(target)}.png", plan)
    return summary


def file_tag(target: str) -> str:
    """The name a target's output files start with: a target file's stem (``--target
    path/mine.toml`` writes ``mine-*`` inside ``--dir``, never next to the file)."""
    return Path(target).stem if target.endswith(".toml") else target


def _shipped(target: str) -> str:
    return str(HERE.parent / "costs" / f"{target}.toml")


def plot(rows: Sequence[Mapping[str, Any]], before: Sequence[float], after: Sequence[float],
         s: Mapping[str, Any], path: Path, plan: str = "full") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from experiments.lib.plot_style import label_plan, legend_outside, series_style, without_penalties

    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
    kernels = sorted({r["kernel"] for r in rows})
    for ax, pred, title in ((axes[0], before, f"shipped: tau {s['tau_before']:.2f}"),
                            (axes[1], after, f"tuned: tau {s['tau_after']:.2f}")):
        dropped = 0
        for i, k in enumerate(kernels):
            pts = sorted((p, r["ns_per_call"]) for p, r in zip(pred, rows) if r["kernel"] == k)
            xs, ys, n = without_penalties([p for p, _ in pts], [t for _, t in pts])
            dropped += n
            ax.plot(xs, ys, label=k, alpha=0.8, ms=5, **series_style(i))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("predicted cost")
        ax.set_ylabel("measured ns per call")
        note = f"\n{dropped} points with a penalty cost not drawn" if dropped else ""
        ax.set_title(f"{s['target']} {title}{note}")
        ax.grid(True, which="both", alpha=0.3)
    legend_outside(axes[1])
    label_plan(fig, plan)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(fig)


def markdown(summaries: Sequence[Mapping[str, Any]], command: str) -> str:
    out = ["# Cost-model tuning", "", f"Command: `{command}`", "",
           "Kendall tau between predicted cost and measured time over all pairs of alternatives "
           f"of the same kernel whose times differ by more than {NOISE:.0%} (goal: 0.8 or "
           "more after tuning); global tau-b over every (kernel, alternative) point for "
           "reference.", "",
           "Alternatives are the distinct programs of a kernel (forced strategies extracting the "
           "same program, or not applying, count once). Predicted cost is the table's price of "
           "the program; a part no single entry prices (pseudo-op pieces such as spills) is "
           "left out of the fit: the last tau column ranks by the model's full cost, that part "
           "included.", "",
           "| target | alternatives (duplicates, penalised, wrong output) | pairs | tau shipped | "
           "tau NNLS start | tau tuned | tau tuned, held-out kernel | "
           "global tau-b shipped / tuned | "
           "tau with penalty shipped / tuned | tuned file |",
           "|---|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for s in summaries:
        out.append(f"| {s['target']} | {s['alternatives']} ({s['duplicates']}, "
                   f"{s['penalised']}, {s['disagree']}) | {s['pairs']} | "
                   f"{s['tau_before']:.3f} | {s['tau_nnls']:.3f} | {s['tau_after']:.3f} | "
                   f"{s['tau_cv']:.3f} | {s['global_before']:.3f} / {s['global_after']:.3f} | "
                   f"{s['model_before']:.3f} / {s['model_after']:.3f} | "
                   f"`{Path(s['tuned_file']).name}` |")
    for s in summaries:
        out += ["", f"## {s['target']}: entries changed (f32 value, shipped -> tuned)", "",
                "| entry | shipped | tuned | micro-benchmark NNLS (addf = 1) |",
                "|---|---:|---:|---:|"]
        for k, (a, b) in s["changes"].items():
            u = s["units"].get(k)
            out.append(f"| `{k}` | {a:.3g} | {b:.3g} | {'' if u is None else f'{u:.3g}'} |")
        out += ["", "Micro-benchmark NNLS, ns per native register in units of `arith.addf`'s: "
                + ", ".join(f"`{k}` {v:.3g}" for k, v in sorted(s["units"].items()))]
        n_disc = len(s["discordant"])
        out += ["", f"Pairs still ranked against measured time after tuning ({n_disc}):",
                ""] + [f"- {d}" for d in s["discordant"]]
        ch = s.get("choices", [])
        changed = [c for c in ch if c["changed"]]
        out += ["", f"eqsat's own choice under the tuned table: {len(changed)} of {len(ch)} "
                "kernels extract another program"
                + (":" if changed else ".")]
        if changed:
            out += ["", "| kernel | ns shipped choice | ns tuned choice |", "|---|---:|---:|"]
            out += [f"| {c['kernel']} | {c['shipped_ns']:.1f} | {c['tuned_ns']:.1f} |"
                    for c in changed]
        out += ["", f"![{s['target']}]({file_tag(s['target'])}.png)"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    from eqsat.targets import load_target

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_plan_arguments(ap, quick="widths 1 and 8, fewer repeats", smoke="three ops, one kernel (tests)")
    ap.add_argument("--target", default=None, help="one target (default: every runnable one)")
    ap.add_argument("--out", type=Path, default=None, help="tuned target file (one target)")
    ap.add_argument("--dir", type=Path, default=None, help="results directory")
    add_sweep_arguments(ap)
    args = ap.parse_args(argv)
    plan = plan_of(args)
    names = [args.target] if args.target else list(RUNNABLE)
    if args.out is not None and len(names) != 1:
        ap.error("--out needs --target (one tuned file per target)")
    targets = []
    for n in names:
        try:
            t = load_target(n)
        except Exception as e:  # TargetError: its message is FILE:LINE: error: ...
            print(e, file=sys.stderr)
            return 2
        if not t.runs_on_host():
            print(f"note: skipping {n}: its code does not run on this machine", file=sys.stderr)
            continue
        targets.append(n)
    if not targets:
        print("error: no runnable target", file=sys.stderr)
        return 1
    outdir = args.dir or HERE / "results" / ("tuning" if plan == "full" else f"tuning-{plan}")
    outdir.mkdir(parents=True, exist_ok=True)
    records_path = outdir / "records.jsonl"
    if args.fresh:
        records_path.unlink(missing_ok=True)
    try:  # timing runs share the machine: one worker unless told otherwise
        executor = executor_for(args.cluster, args.workers or 1)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    command = "python experiments/tune_costs.py" + {"full": "", "quick": " --quick",
                                                    "smoke": " --smoke"}[plan]
    command += f" --target {args.target}" if args.target else ""
    all_specs = [s for n in targets for s in specs(plan, n)]
    result = run_sweep(all_specs, records_path, executor, progress=not args.no_progress,
                       desc=f"tuning ({plan})")
    if result.failed:
        print(f"error: {result.failed} runs failed (see {records_path})", file=sys.stderr)
        return 1
    summaries = []
    for n in targets:
        out_toml = args.out or outdir / f"{file_tag(n)}-tuned.toml"
        summary = analyse(result.records, n, out_toml, outdir, command)
        check = run_sweep(check_specs(plan, n, out_toml), records_path, executor,
                          progress=not args.no_progress, desc=f"tuned choices {n}")
        if check.failed:
            print(f"error: {check.failed} runs failed (see {records_path})", file=sys.stderr)
            return 1
        summary["choices"] = choices(result.records, check.records, n)
        summaries.append(summary)
    (outdir / "tuning.md").write_text(markdown(summaries, command))
    print((outdir / "tuning.md").read_text())
    print(f"({result.ran} runs now, {result.skipped} from earlier records) -> {outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
