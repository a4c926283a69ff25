"""Re-price the tuning study's timed alternatives under the current cost model, without timing
them again: how a change of the model moves its ranking on the same measurements.

Reads a tuning run's records (``experiments/tune_costs.py``: each alternative of a generated
corpus kernel, its program, predicted cost and ns per call under the shipped table), extracts
each alternative again under the current model (``tuning_runs.run_alternative`` without
timing) and pairs its new cost with the time of the program it now extracts: the same program
as before, or another timed alternative of the same kernel that is that program. An
alternative whose new program was never timed is left out and counted. Scores both
(``tune_costs.scores``: pair tau, tau-b over groups of >= 4, regret of the one priced lowest)
per split, on the alternatives both can price, and lists the worst-ranked pairs.

    python experiments/cost_reprice.py --target avx2 [--records experiments/results/tuning/records.jsonl]
        [--split held-out] [--out experiments/results/cost_reprice/avx2]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `experiments` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.cost_corpus import held_out
from experiments.tune_costs import applicable, scores

RECORDS = Path(__file__).resolve().parent / "results" / "tuning" / "records.jsonl"


def timed_rows(records: Sequence[Mapping[str, Any]], target: str, cost_hash: str | None = None
               ) -> list[dict[str, Any]]:
    """The target's checked, timed alternatives under its shipped table as it was when
    ``cost_hash`` (default: the first such record's) was its hash: one run's timings, the last
    record of each kernel and alternative, as ``tune_costs.applicable`` rows."""
    last: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        spec = r.get("spec", {})
        if r.get("study") != "tune-alt" or r.get("target") != target or spec.get("costs"):
            continue
        cost_hash = cost_hash or r.get("cost_hash")
        if r.get("cost_hash") != cost_hash:
            continue
        if r.get("status") != "ok" or not r["result"].get("applies"):
            continue
        p = spec["params"]
        last[(p["kernel"], p["alternative"])] = {**r["result"], "kernel": p["kernel"],
                                                 "alternative": p["alternative"]}  # fmt: skip
    return applicable(list(last.values()))


def reprice(rows: Sequence[Mapping[str, Any]], target: str) -> list[dict[str, Any]]:
    """Each row's alternative extracted again under the current model: its new predicted cost
    and program, and the time of that program when some row of the kernel timed it."""
    from experiments.lib.tuning_runs import run_alternative
    from experiments.sweeplib import Spec

    times = {(r["kernel"], r["program"]): r["ns_per_call"] for r in rows}
    out = []
    for r in rows:
        spec = Spec("tune-alt", "experiments.lib.tuning_runs:run_alternative",
                    {"kernel": r["kernel"], "alternative": r["alternative"], "time": False},
                    target=target)  # fmt: skip
        got = run_alternative(spec)
        out.append({"kernel": r["kernel"], "alternative": r["alternative"],
                    "old_cost": r["predicted_cost"], "old_ns": r["ns_per_call"],
                    "new_cost": got["predicted_cost"], "same_program": got["program"] == r["program"],
                    "new_ns": times.get((r["kernel"], got["program"]))})  # fmt: skip
    return out


def compare(priced: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Scores before and after per split, over the alternatives whose new program was timed
    (a program two alternatives now share counts once)."""
    out: dict[str, Any] = {}
    for split in ("tuning", "held_out"):
        want = split == "held_out"
        part = [p for p in priced if held_out(p["kernel"]) == want]
        old = [{"kernel": p["kernel"], "ns_per_call": p["old_ns"]} for p in part]
        seen: set[tuple[str, float]] = set()
        new = []
        for p in part:
            key = (p["kernel"], p["new_ns"])
            if p["new_ns"] is None or key in seen:
                continue
            seen.add(key)
            new.append({"kernel": p["kernel"], "ns_per_call": p["new_ns"], "cost": p["new_cost"]})
        out[split] = {
            "before": scores(old, [p["old_cost"] for p in part]),
            "after": scores(new, [p["cost"] for p in new]),
            "untimed": sum(p["new_ns"] is None for p in part),
            "changed": sum(not p["same_program"] for p in part),
        }
    return out


def worst_pairs(priced: Sequence[Mapping[str, Any]], key: str, n: int = 15) -> list[dict[str, Any]]:
    """The pairs of one kernel's alternatives ranked most wrongly by ``key`` (``old`` or
    ``new``): opposite order of predicted cost and time, by the product of the log ratios."""
    out = []
    for i, a in enumerate(priced):
        for b in priced[i + 1 :]:
            ta, tb = a[f"{key}_ns"], b[f"{key}_ns"]
            ca, cb = a[f"{key}_cost"], b[f"{key}_cost"]
            if a["kernel"] != b["kernel"] or not ta or not tb or ta == tb or min(ca, cb) <= 0:
                continue
            if (ca - cb) * (ta - tb) < 0:
                weight = abs(math.log(ta / tb)) * abs(math.log(ca / cb))
                out.append({"kernel": a["kernel"], "weight": weight,
                            "a": a["alternative"], "a_ns": ta, "a_cost": ca,
                            "b": b["alternative"], "b_ns": tb, "b_cost": cb})  # fmt: skip
    return sorted(out, key=lambda x: -x["weight"])[:n]


def markdown(target: str, data: Mapping[str, Any], prov: Mapping[str, Any]) -> str:
    from experiments.lib.provenance import markdown_header

    f = lambda x: "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"  # noqa: E731
    pc = lambda x: "-" if x is None else f"{x:.1%}"  # noqa: E731
    lines = [markdown_header(prov), "",
             f"Target {target}: the timed alternatives of `{data['records']}` re-priced under "
             "the current model (no new timings; an alternative whose new program was never "
             "timed is left out, `untimed`).", "",
             "| split | pair tau before -> after (pairs) | tau-b >= 4 before -> after (groups) "
             "| regret geomean before -> after | worst before -> after | programs changed | untimed |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for split, s in data["scores"].items():
        b, a = s["before"], s["after"]
        lines.append(f"| {split} | {f(b['tau'])} -> {f(a['tau'])} ({b['pairs']} / {a['pairs']}) | "
                     f"{f(b['tau_b4'])} -> {f(a['tau_b4'])} ({b['groups4']} / {a['groups4']}) | "
                     f"{pc(b['regret_geomean'])} -> {pc(a['regret_geomean'])} | "
                     f"{pc(b['regret_worst'])} -> {pc(a['regret_worst'])} | {s['changed']} | "
                     f"{s['untimed']} |")  # fmt: skip
    for key, title in (("old", "before"), ("new", "after")):
        lines += ["", f"Worst-ranked pairs {title} (time ns / predicted cost):", "",
                  "| kernel | alternative | ns | cost | alternative | ns | cost |",
                  "|---|---|---|---|---|---|---|"]  # fmt: skip
        for w in data[f"worst_{key}"]:
            lines.append(f"| {w['kernel']} | {w['a']} | {w['a_ns']:.1f} | {w['a_cost']:g} | "
                         f"{w['b']} | {w['b_ns']:.1f} | {w['b_cost']:g} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from experiments.lib.provenance import record

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target", required=True)
    p.add_argument("--records", default=str(RECORDS))
    p.add_argument("--out", help="results prefix (default experiments/results/cost_reprice/T)")
    p.add_argument("--cost-hash", help="the table version whose timings to re-price (a "
                   "record's cost_hash; default: the target's first record's)")
    p.add_argument("--split", choices=["all", "held-out"], default="all",
                   help="re-price the held-out kernels only (a shorter run)")
    args = p.parse_args(argv)
    path = Path(args.records)
    if not path.is_file():
        print(f"error: --records {path}: no such file", file=sys.stderr)
        return 2
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rows = [r for r in timed_rows(records, args.target, args.cost_hash)
            if args.split == "all" or held_out(r["kernel"])]
    if not rows:
        print(f"error: {path}: no timed alternatives for target {args.target}", file=sys.stderr)
        return 1
    priced = reprice(rows, args.target)
    data = {"target": args.target, "records": str(path), "priced": priced,
            "scores": compare(priced), "worst_old": worst_pairs(priced, "old"),
            "worst_new": worst_pairs(priced, "new")}  # fmt: skip
    out = Path(args.out or Path(__file__).resolve().parent / "results" / "cost_reprice" / args.target)
    out.parent.mkdir(parents=True, exist_ok=True)
    prov = record(sys.argv if argv is None else ["cost_reprice.py", *argv])
    out.with_suffix(".json").write_text(json.dumps({"provenance": prov, **data}, indent=1))
    out.with_suffix(".md").write_text(markdown(args.target, data, prov))
    print(out.with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
