"""Nested aggregate vs flattened 1-D lowering: both LLVM layouts of n-D vectors for every kernel,
time and instruction count on avx2, instruction counts from the assembly on avx512 and neon.

    python experiments/nested_vs_flat.py [--quick | --smoke] [--out DIR] [--emit vv|hwv]
                                         [--cluster ADDR] [--workers N] [--fresh]

``nested`` lowers vector<MxN> to an LLVM array of M vectors of N lanes (MLIR's convention),
``flat`` to one vector of M*N lanes. Each kernel is optimized once per target (the target's
cost model at ``--emit``, its native widths), then emitted in both layouts
(``eqsat.codegen.emit_llvm_ir(..., layout=...)``). Instructions are the lines of the kernel's
function in ``emit_assembly`` that are not labels, directives or comments. On timed targets
each layout is checked against the reference interpreter and both are timed together (samples
interleaved) with the benchmark harness.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
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

STUDY = "nested_vs_flat"
RUN = "experiments.nested_vs_flat:run"
LAYOUTS = ("nested", "flat")
#: target -> timed (when the host runs it) or assembly only
TARGETS = {"avx2": True, "avx512": False, "neon": False}
PLANS: dict[str, tuple[list[str] | None, int, float]] = {
    "full": (None, 9, 0.02),
    "quick": (None, 3, 0.004),
    "smoke": (["matmul_8x8x8", "transpose_8x8"], 1, 0.002),
}
COLUMNS = ("target", "kernel", "layout", "instructions", "ns_per_call", "checked", "note")


def specs(plan: str, emit: str = "vv") -> list[Spec]:
    kernels, repeats, sample = PLANS[plan]
    out = []
    for tname, timed in TARGETS.items():
        for path in kv.kernel_paths(kernels):
            params = {
                "kernel": path.stem,
                "emit": emit,
                "timed": timed,
                "repeats": repeats,
                "sample_s": sample,
            }
            out.append(Spec(STUDY, RUN, params, target=tname))
    return out


def run(spec: Spec) -> dict[str, Any]:
    """Both layouts of one kernel on one target: instructions, and time where it runs."""
    from eqsat.bench.harness import Compiled, compare, make_inputs, median_ns, signature
    from eqsat.bench.run import RTOL, interpret
    from eqsat.codegen import emit_assembly
    from eqsat.optimizer import optimize_module

    target, path, text, module = kv.load_kernel(spec)
    optimized = optimize_module(module, target=target, emit=spec.params["emit"]).module
    timed = bool(spec.params["timed"]) and target.runs_on_host()
    rows: dict[str, dict[str, Any]] = {}
    for layout in LAYOUTS:
        row: dict[str, Any] = {}
        try:
            asm = emit_assembly(optimized, target, layout=layout)
            row["instructions"] = kv.count_instructions(asm, path.stem)
        except Exception as e:  # a layout that cannot compile is a finding, not a crash
            row["note"] = f"cannot compile: {type(e).__name__}: {e}"[:300]
        rows[layout] = row
    if timed:
        from eqsat.codegen import emit_llvm_ir

        sig = signature(module, path.stem)
        inputs = make_inputs(sig, kv.kernel_args(text), spec.seed)
        oracle = interpret(module, sig, inputs)
        compiled = []
        for layout in LAYOUTS:
            if "note" in rows[layout]:
                continue
            c = Compiled(emit_llvm_ir(optimized, target, layout=layout), sig, target)
            agreement = compare(oracle, c.run(inputs), RTOL)
            rows[layout]["checked"] = agreement.equal
            if agreement.equal:
                compiled.append((layout, c))
            else:
                rows[layout]["note"] = f"wrong result (max rel. error {agreement.max_rel:.1e})"
        timers = []
        for _, c in compiled:
            t = c.timer(inputs)
            t.calibrate(float(spec.params["sample_s"]))
            timers.append(t)
        for (layout, _), ns in zip(compiled, median_ns(timers, int(spec.params["repeats"]))):
            rows[layout]["ns_per_call"] = ns
    return {"kernel": path.stem, "target": spec.target, "timed": timed, "layouts": rows}


# -- analysis ---------------------------------------------------------------------------------


def table(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for rec in records:
        res = rec["result"]
        for layout in LAYOUTS:
            r = res["layouts"][layout]
            ns = r.get("ns_per_call")
            out.append(
                {
                    "target": res["target"],
                    "kernel": res["kernel"],
                    "layout": layout,
                    "instructions": r.get("instructions"),
                    "ns_per_call": None if ns is None else round(ns, 2),
                    "checked": r.get("checked", "") if res["timed"] else "",
                    "note": r.get("note", ""),
                }
            )
    return out


def pairs(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One line per (target, kernel) with both layouts side by side."""
    by: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        key = (r["target"], r["kernel"])
        d = by.setdefault(key, {"target": r["target"], "kernel": r["kernel"]})
        d[f"{r['layout']}_instr"] = r["instructions"]
        d[f"{r['layout']}_ns"] = r["ns_per_call"]
    return list(by.values())


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a and b else None


def _fmt(x: Any, spec: str = ".1f") -> str:
    return "n/a" if x is None or x == "" else format(x, spec)


def summary_lines(pr: Sequence[Mapping[str, Any]]) -> list[str]:
    out = []
    for tname in TARGETS:
        ps = [p for p in pr if p["target"] == tname]
        ir = [_ratio(p.get("flat_instr"), p.get("nested_instr")) for p in ps]
        ir = [x for x in ir if x]
        if ir:
            gm = kv.geomean(ir) or 0
            fewer = sum(x < 1 for x in ir)
            out.append(
                f"- {tname}: flat / nested instructions, geometric mean **{gm:.2f}** "
                f"(range {min(ir):.2f} to {max(ir):.2f}; flat has fewer on {fewer} of {len(ir)} "
                "kernels)."
            )
        tr = [_ratio(p.get("flat_ns"), p.get("nested_ns")) for p in ps]
        tr = [x for x in tr if x]
        if tr:
            gm = kv.geomean(tr) or 0
            out.append(
                f"- {tname}: flat / nested time, geometric mean **{gm:.2f}** "
                f"(range {min(tr):.2f} to {max(tr):.2f}; flat faster on "
                f"{sum(x < 1 for x in tr)} of {len(tr)} kernels)."
            )
    return out


def markdown(rows: Sequence[Mapping], records: Sequence[Mapping], command: str) -> str:
    host = records[0]["host"] if records else {}
    git = records[0]["git"] if records else {}
    p = records[0]["spec"]["params"] if records else {}
    pr = pairs(rows)
    lines = [
        "# Nested aggregate vs flattened 1-D lowering",
        "",
        f"Command: `{command}`. Machine: {host.get('cpu')} ({host.get('cpus')} CPUs, shared "
        f"with other work), Python {host.get('python')}; eqsat at "
        f"{(git.get('commit') or '?')[:10]}{' (dirty)' if git.get('dirty') else ''}; "
        f"{time.strftime('%Y-%m-%d', time.gmtime())}. Each kernel optimized once per target "
        f"(emit={p.get('emit')}), then emitted in both layouts; avx2 timed (median of "
        f"{p.get('repeats')} samples of {1000 * float(p.get('sample_s', 0)):.0f} ms, thread CPU "
        "time), avx512 and neon: instruction counts of the assembly only.",
        "",
    ]
    lines += summary_lines(pr) + [""]
    lines += [
        "| target | kernel | nested instr | flat instr | flat/nested | nested ns | flat ns "
        "| flat/nested |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for q in pr:
        lines.append(
            f"| {q['target']} | {q['kernel']} | {_fmt(q.get('nested_instr'), 'd')} | "
            f"{_fmt(q.get('flat_instr'), 'd')} | "
            f"{_fmt(_ratio(q.get('flat_instr'), q.get('nested_instr')), '.2f')} | "
            f"{_fmt(q.get('nested_ns'))} | {_fmt(q.get('flat_ns'))} | "
            f"{_fmt(_ratio(q.get('flat_ns'), q.get('nested_ns')), '.2f')} |"
        )
    notes = [r for r in rows if r["note"]]
    if notes:
        lines += ["", "Notes:"] + [
            f"- {r['target']} {r['kernel']} {r['layout']}: {r['note']}" for r in notes
        ]
    return "\n".join(lines) + "\n"


def write_csv(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)


def plot(rows: Sequence[Mapping[str, Any]], path: Path, plan: str = "full") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pr = pairs(rows)
    kernels = sorted({q["kernel"] for q in pr})
    panels = [(t, "instr", "instructions") for t in TARGETS] + [("avx2", "ns", "ns per call")]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4.5), sharey=False)
    for ax, (tname, key, label) in zip(axes, panels):
        by = {q["kernel"]: q for q in pr if q["target"] == tname}
        for i, layout in enumerate(LAYOUTS):
            vals = [by.get(k, {}).get(f"{layout}_{key}") or 0 for k in kernels]
            ax.bar([x + 0.4 * i for x in range(len(kernels))], vals, width=0.4, label=layout)
        ax.set_xticks([x + 0.2 for x in range(len(kernels))], kernels, rotation=75, fontsize=7)
        ax.set_title(f"{tname}: {label}")
        ax.set_yscale("log")
        ax.legend(fontsize=8)
    fig.suptitle("nested aggregate vs flattened 1-D lowering of n-D vectors")
    from experiments.lib.plot_style import label_plan

    label_plan(fig, plan)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_plan_arguments(ap, quick="3 short samples", smoke="two kernels, one sample (tests)")
    ap.add_argument("--out", type=Path, default=None, help="output directory")
    ap.add_argument("--emit", choices=("vv", "hwv"), default="vv", help="extraction level")
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
    result = run_sweep(specs(plan, args.emit), records_path, executor_from_args(args),
                       progress=not args.no_progress, desc=f"{STUDY} ({plan})")  # fmt: skip
    if result.failed:
        print(f"error: {result.failed} runs failed (see {records_path}); rerun to retry them",
              file=sys.stderr)  # fmt: skip
        return 1
    rows = table(result.records)
    command = f"python experiments/{STUDY}.py" + {"full": "", "quick": " --quick",
                                                   "smoke": " --smoke"}[plan]  # fmt: skip
    if args.emit != "vv":
        command += f" --emit {args.emit}"
    write_csv(rows, out / f"{STUDY}.csv")
    (out / f"{STUDY}.md").write_text(markdown(rows, result.records, command))
    plot(rows, out / f"{STUDY}.png", plan)
    print("\n".join(summary_lines(pairs(rows))))
    print(f"({result.ran} runs now, {result.skipped} from earlier records) -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
