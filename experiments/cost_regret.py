"""Regret of eqsat's cost model against the full field, and how well it ranks, on the generated
corpus (``experiments/cost_corpus.py``).

Per kernel and target: eqsat's own choice, each of eqsat's forced alternatives (one MLIR
strategy forced per op kind, ``experiments.lib.kernel_variants``, and each strategy of ours that
MLIR has no name for, ``eqsat.forced_strategies.own_strategies``) with its predicted cost, and
MLIR 22's strategy space (``eqsat.bench``: child processes, the same LLVM options for every
row; ``--space full``, the default, is the benchmark's whole space: forced and combined
strategies and the transfer options). Regret = eqsat's time over the best time of any row,
minus one. A kernel whose eqsat choice has fewer than ``MIN_RIVALS`` rivals (distinct checked
programs besides its own) is reported apart and left out of the regret figures. Each eqsat
alternative is priced by the extraction round that chose it
(``kernel_variants.first_round_cost``). Kendall tau of predicted
cost against measured time over each kernel's eqsat alternatives (distinct programs, groups of
at least ``MIN_GROUP``), and the same tau with ``llvm-mca-22``'s cycle estimate of the same
compiled assembly as the predictor.

``--fp-contract``: the whole study in fp-contract mode (float contractions fuse each
multiply-add, as MLIR's outerproduct lowering does): eqsat's choice and alternatives are
optimized and compiled in it and the reference interpreter runs in it, so the bit-exact field
is the rows with the fused bits, MLIR's fused rows among them (like with like for the
contractions, whose fastest MLIR rows fuse; ``eqsat.bench``'s ``fp_contract``).

    python experiments/cost_regret.py --targets avx2,x86-64-v2 --kernels N [--split held-out]
        [--space single|full] [--only NAME,...] [--fp-contract]
        [--out experiments/results/cost_regret]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.cost_corpus import corpus, held_out  # noqa: E402

MIN_GROUP = 4
MIN_RIVALS = 2
MCA = "llvm-mca-22"
#: Measured times within this fraction of each other are a tie (run-to-run noise on this host:
#: the same program timed twice differs by up to ~10%); the tie-aware tau and tune_costs.py's
#: pair tau use it, for every predictor alike.
NOISE = 0.05


def kendall_tau(xs: list[float], ys: list[float], noise: float = 0.0) -> float | None:
    """Kendall's tau-b of two equally long lists (None with fewer than two points); with
    ``noise``, two ``ys`` within that fraction of the smaller are a tie (measured times that
    noise cannot order: neither concordant nor discordant, for any predictor ``xs``)."""
    n = len(xs)
    if n < 2:
        return None
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            a, b = xs[i] - xs[j], ys[i] - ys[j]
            if abs(b) <= noise * min(abs(ys[i]), abs(ys[j])):
                b = 0
            if a == 0 and b == 0:
                continue
            if a == 0:
                tx += 1
            elif b == 0:
                ty += 1
            elif (a > 0) == (b > 0):
                conc += 1
            else:
                disc += 1
    denom = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / denom if denom else None


def assembly(ir: str, target: Any, entry: str) -> list[str]:
    """The entry function's O3 assembly lines (the code that is timed)."""
    from eqsat.codegen.jit import parse_and_optimize, target_machine
    from experiments.lib.kernel_variants import function_assembly

    tm = target_machine(target)
    return function_assembly(tm.emit_assembly(parse_and_optimize(ir, tm, target.triple)), entry)


def mca_cycles(asm: list[str], target: Any) -> float | None:
    """llvm-mca-22's total cycles for one pass over a function's instructions (``asm``: its
    O3 assembly lines, as ``assembly`` gives them)."""
    if shutil.which(MCA) is None:
        return None
    body = [line for line in asm if not re.match(r"^\s*(j\w+|ret|call)\b", line)]
    cpu = {"avx2": "haswell", "x86-64-v2": "nehalem", "avx512": "skylake-avx512"}.get(
        target.name, target.cpu
    )
    proc = subprocess.run([MCA, f"-mcpu={cpu}", "-iterations=1", "-"], input="\n".join(body),
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    m = re.search(r"Total Cycles:\s+(\d+)", proc.stdout)
    return float(m.group(1)) if m else None


def repetitions_per_pass(module: Any, asm: list[str]) -> int:
    """Repetitions of the kernel's loop (its outermost ``scf.for``) that one pass over its O3
    assembly runs: the loop's step (eqsat's loop pass unrolls small bodies by 4) while the
    assembly keeps a backward branch, all of them when LLVM unrolled the loop away, 1 without a
    loop. ``mca_cycles`` of one pass over it divided by this is cycles per repetition, which
    ranks programs unrolled differently like with like."""
    from frontend.printer import print_module

    text = print_module(module)
    loop = re.search(r"scf\.for %\S+ = (%\S+) to (%\S+) step (%\S+)", text)
    if loop is None:
        return 1
    consts = dict(re.findall(r"(%\S+) = arith\.constant (\d+) : index", text))
    lb, ub, step = (int(consts.get(v, "0")) for v in loop.groups())
    if step <= 0 or ub <= lb:
        return 1
    branches = any(re.match(r"^\s*j(?!mp\b)\w+\s+\.LBB", line) for line in asm)
    return step if branches else ub - lb


def alternatives(name: str, text: str, target: Any,
                 fp_contract: bool = False) -> dict[str, dict[str, Any]]:
    """eqsat's choice and its distinct forced alternatives: predicted cost, LLVM IR and O3
    assembly lines each (the lines also feed ``mca_cycles``: each is compiled once). Distinct
    means distinct O3 assembly: two LLVM IRs LLVM compiles to the same instructions are one
    program (timed apart they differed by up to 21% here, which is noise, not a
    rival)."""
    from eqsat.forced_strategies import own_strategies
    from experiments.lib.kernel_variants import (
        eqsat_variant,
        forced_choices,
        op_kinds,
        strategy_applies,
    )
    from frontend import parse

    module = parse(text, f"{name}.mlir")
    own = eqsat_variant(module, target, emit="hwv", fp_contract=fp_contract)
    mine = assembly(own.ir, target, name)
    alts: dict[str, dict[str, Any]] = {"eqsat": {"cost": own.predicted_cost, "ir": own.ir,
                                                 "asm": mine,
                                                 "reps": repetitions_per_pass(own.module, mine)}}
    seen = {"\n".join(mine): "eqsat"}
    ours = [(kind, s) for kind in op_kinds(module) for s in own_strategies(kind)]
    for kind, strategy in forced_choices(module, False) + ours:
        v = eqsat_variant(module, target, {kind: strategy}, emit="hwv", fp_contract=fp_contract)
        if not strategy_applies(v, kind) or not math.isfinite(v.predicted_cost):
            continue
        lines = assembly(v.ir, target, name)
        asm = "\n".join(lines)
        if asm in seen:
            continue
        label = f"eqsat-forced-{kind.split('.')[-1]}-{strategy}"
        seen[asm] = label
        alts[label] = {"cost": v.predicted_cost, "ir": v.ir, "asm": lines,
                       "reps": repetitions_per_pass(v.module, lines)}
    return alts


def run_kernel(name: str, text: str, target: Any, space: str, repeats: int,
               fp_contract: bool = False) -> dict[str, Any]:
    from eqsat.bench.run import bench
    from eqsat.bench.variants import Variant

    alts = alternatives(name, text, target, fp_contract)
    extra = [Variant(k, (lambda ir=a["ir"]: ir)) for k, a in alts.items() if k != "eqsat"]
    t0 = time.time()
    report = bench(text, f"{name}.mlir", name, target, baseline="mlir", repeats=repeats,
                   sample_seconds=0.01, placements=1, extra=extra, space=space,
                   fp_contract=fp_contract)  # fmt: skip
    # Checked rows only (a row whose outputs were not compared is no rival); a copy of another
    # row's LLVM IR is that row (``same_as``), listed once.
    checked = [r for r in report.rows
               if r.ns_per_call is not None and r.group == "" and r.equal and not r.same_as]  # fmt: skip
    rows = {r.variant: r.ns_per_call for r in checked}
    for k, a in alts.items():
        a["ns"] = rows.get(k)
        a["mca"] = mca_cycles(a.pop("asm"), target)
        a["mca_rep"] = a["mca"] / a["reps"] if a["mca"] else None
        del a["ir"]
    mlir = {k: v for k, v in rows.items() if k.startswith("mlir")}
    # Like with like: the rows whose outputs are the interpreter's bits (MLIR's rows may fuse a
    # multiply-add or reorder a sum, within the benchmark's tolerance but other bits).
    exact = sorted(r.variant for r in checked if r.exact)
    return {"kernel": name, "target": target.name, "held_out": held_out(name),
            "fp_contract": fp_contract, "eqsat": alts, "mlir": mlir, "exact": exact, "bench_s": time.time() - t0}  # fmt: skip


def rivals(record: dict[str, Any]) -> int:
    """Distinct checked programs competing with eqsat's choice: eqsat's timed alternatives
    (distinct O3 assembly by construction) and MLIR's rows (copies left out)."""
    ours = sum(1 for k, a in record["eqsat"].items() if k != "eqsat" and a.get("ns"))
    return ours + len(record["mlir"])


def summarize(records: list[dict[str, Any]], held_only: bool = True) -> dict[str, Any]:
    """Per target: regret figures over every record, tau over the held-out groups of
    >= ``MIN_GROUP`` (``held_only=False``: over every group, for a tuning-split run)."""
    out: dict[str, Any] = {}
    for t in sorted({r["target"] for r in records}):
        timed = [r for r in records if r["target"] == t and r["eqsat"]["eqsat"].get("ns")]
        rs = [r for r in timed if rivals(r) >= MIN_RIVALS]
        apart = [r["kernel"] for r in timed if rivals(r) < MIN_RIVALS]
        regrets, wins = [], 0
        taus: dict[str, list[float | None]] = {k: [] for k in TAU_KEYS}
        exact_regrets, exact_wins = [], 0
        for r in rs:
            ours = r["eqsat"]["eqsat"]["ns"]
            field = [a["ns"] for a in r["eqsat"].values() if a.get("ns")] + list(r["mlir"].values())
            regrets.append(ours / min(field) - 1)
            wins += not r["mlir"] or ours <= min(r["mlir"].values())
            if "exact" in r:  # runs before the field was recorded have no bit-exact figures
                best, mlir_best = exact_field(r)
                exact_regrets.append(ours / min(best, ours) - 1)
                exact_wins += mlir_best is None or ours <= mlir_best
            pts = [a for a in r["eqsat"].values() if a.get("ns")]
            if len(pts) >= MIN_GROUP and (r["held_out"] or not held_only):
                ns = [a["ns"] for a in pts]
                for noise, sfx in ((0.0, ""), (NOISE, "_ties")):
                    taus["tau" + sfx].append(group_tau([a["cost"] for a in pts], ns, noise))
                    for key in ("mca", "mca_rep"):
                        if all(a.get(key) for a in pts):
                            taus[key + "_tau" + sfx].append(
                                group_tau([a[key] for a in pts], ns, noise))
        geo = geomean(regrets)
        means = {k: _mean([x for x in v if x is not None]) for k, v in taus.items()}
        out[t] = {
            "kernels": len(rs),
            "apart": apart,
            "geomean_regret": geo,
            "worst_regret": max(regrets) if regrets else None,
            "over_25pct": sum(x > 0.25 for x in regrets),
            "at_least_mlir_best": wins,
            "tau_split": "held-out" if held_only else "all",
            "tau_groups": len([x for x in taus["tau"] if x is not None]),
            "tau_mean": means["tau"],
            "mca_tau_mean": means["mca_tau"],
            # the same with measured times within NOISE of each other counted as ties
            "tau_ties_mean": means["tau_ties"],
            "mca_tau_ties_mean": means["mca_tau_ties"],
            # llvm-mca per repetition of the kernel's loop (``repetitions_per_pass``)
            "mca_rep_tau_mean": means["mca_rep_tau"],
            "mca_rep_tau_ties_mean": means["mca_rep_tau_ties"],
            "exact_kernels": len(exact_regrets),
            "exact_geomean_regret": geomean(exact_regrets),
            "exact_worst_regret": max(exact_regrets) if exact_regrets else None,
            "exact_at_least_mlir_best": exact_wins,
        }
    return out


def group_tau(predicted: list[float], ns: list[float], noise: float) -> float | None:
    """A group's tau for one predictor; one that prices every alternative alike ranks nothing
    and scores 0 there (tau-b is undefined: left out, it would drop the predictor's misses)."""
    if len(set(predicted)) == 1 and kendall_tau(ns, ns, noise) is not None:
        return 0.0
    return kendall_tau(predicted, ns, noise)


TAU_KEYS = ("tau", "mca_tau", "tau_ties", "mca_tau_ties", "mca_rep_tau", "mca_rep_tau_ties")


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def geomean(regrets: list[float]) -> float | None:
    """Geometric mean of (1 + regret), minus one."""
    return math.exp(sum(math.log1p(x) for x in regrets) / len(regrets)) - 1 if regrets else None


def exact_field(record: dict[str, Any]) -> tuple[float, float | None]:
    """The best time of any bit-exact row (eqsat's own choice counts: the interpreter defines
    its bits) and MLIR's best bit-exact time (None when no MLIR row is bit-exact)."""
    exact = set(record.get("exact", []))
    ours = [a["ns"] for k, a in record["eqsat"].items()
            if a.get("ns") and (k == "eqsat" or k in exact)]  # fmt: skip
    mlir = [t for k, t in record["mlir"].items() if k in exact]
    return min(ours + mlir), min(mlir) if mlir else None


def markdown(data: dict[str, Any]) -> str:
    """The report: provenance, per-target summary against the goals, one row per kernel."""
    from experiments.lib.provenance import markdown_header

    lines = [markdown_header(data["provenance"]), ""]
    if any(r.get("fp_contract") for r in data["records"]):
        lines += ["**fp-contract mode**: float contractions fuse each multiply-add in eqsat's "
                  "programs and in the reference interpreter, so \"bit-exact\" below means the "
                  "fused bits (MLIR's outerproduct rows compute them).", ""]
    for prov in data.get("runs", [])[1:]:  # merged runs: each one's own header
        lines += ["Merged with:", "", markdown_header(prov), ""]
    lines += [
             "Regret = eqsat's time / best time of any row (eqsat's forced alternatives and "
             "MLIR 22's strategies) - 1; medians of `--repeats` samples in child processes "
             "(`eqsat.bench`), one placement. Tau: Kendall tau-b of predicted cost against "
             f"measured time over each kernel's eqsat alternatives (groups of >= {MIN_GROUP}; "
             "held-out kernels only unless the column says otherwise), the mean over groups; "
             f"'ties': the same with measured times within {NOISE:.0%} of each other counted as "
             "ties (noise), for both predictors.",
             "", "| target | kernels | geomean regret (goal <= 3%) | worst (goal <= 25%) | "
             "eqsat <= MLIR's best (goal 90%) | tau groups | tau model (goal >= 0.8) | "
             "tau llvm-mca | tau model, ties | tau llvm-mca, ties | tau llvm-mca per repetition "
             "(strict / ties) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    pct = lambda x: "-" if x is None else f"{x:.1%}"  # noqa: E731
    num = lambda x: "-" if x is None else f"{x:.2f}"  # noqa: E731
    for t, s in data["summary"].items():
        share = s["at_least_mlir_best"] / s["kernels"] if s["kernels"] else None
        lines.append(f"| {t} | {s['kernels']} | {pct(s['geomean_regret'])} | "
                     f"{pct(s['worst_regret'])} | {pct(share)} | {s['tau_groups']}"
                     f"{' (all splits)' if s.get('tau_split') == 'all' else ''} | "
                     f"{num(s['tau_mean'])} | {num(s['mca_tau_mean'])} | "
                     f"{num(s.get('tau_ties_mean'))} | {num(s.get('mca_tau_ties_mean'))} | "
                     f"{num(s.get('mca_rep_tau_mean'))} / {num(s.get('mca_rep_tau_ties_mean'))} |")  # fmt: skip
    if any(s.get("exact_kernels") for s in data["summary"].values()):
        lines += ["", "Like with like: the same figures against the bit-exact rows only (outputs "
                  "bit for bit the interpreter's, as eqsat's; MLIR rows that fuse a multiply-add "
                  "or reorder a sum are equal within the benchmark's tolerance but other bits).",
                  "", "| target | kernels | geomean regret, bit-exact field | worst | "
                  "eqsat <= MLIR's best bit-exact |", "|---|---|---|---|---|"]  # fmt: skip
        for t, s in data["summary"].items():
            if s.get("exact_kernels"):
                share = s["exact_at_least_mlir_best"] / s["exact_kernels"]
                lines.append(f"| {t} | {s['exact_kernels']} | {pct(s['exact_geomean_regret'])} | "
                             f"{pct(s['exact_worst_regret'])} | {pct(share)} |")  # fmt: skip
    for t, s in data["summary"].items():
        if s.get("apart"):
            lines += ["", f"{t}: reported apart (fewer than {MIN_RIVALS} rivals, not in the "
                      f"figures above): {', '.join(s['apart'])}."]
    lines += ["", "| target | kernel | held out | rivals | eqsat ns | best eqsat alternative ns | "
              "MLIR's best ns | regret | MLIR's best bit-exact ns | regret, bit-exact | "
              "alternatives (cost / ns / mca cycles) |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in data["records"]:
        if "error" in r:
            lines.append(f"| {r['target']} | {r['kernel']} | | | error: {r['error'][:80]} "
                         "| | | | | | |")
            continue
        e = r["eqsat"]
        ours = e["eqsat"].get("ns")
        alt = min((a["ns"] for a in e.values() if a.get("ns")), default=None)
        mb = min(r["mlir"].values()) if r["mlir"] else None
        best = min(x for x in (alt, mb) if x is not None) if (alt or mb) else None
        reg = ours / best - 1 if ours and best else None
        ebest, emb = exact_field(r) if ours and "exact" in r else (None, None)
        ereg = ours / min(ebest, ours) - 1 if ebest else None
        detail = "; ".join(f"{k.replace('eqsat-forced-', '')} {a['cost']:g}/"
                           f"{a['ns']:.0f}/{a.get('mca') or '-'}" if a.get("ns") else k
                           for k, a in e.items())  # fmt: skip
        lines.append(f"| {r['target']} | {r['kernel']} | {'yes' if r['held_out'] else 'no'} | "
                     f"{rivals(r)} | {num(ours)} | {num(alt)} | {num(mb)} | {pct(reg)} | {num(emb)} | {pct(ereg)} | {detail} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def fill_mca(path: Path) -> int:
    """Recompute each record's alternatives (deterministic) and add llvm-mca's estimate."""
    from eqsat.targets import load_target

    data = json.loads(path.read_text())
    texts = dict(corpus())
    for r in data["records"]:
        if "error" in r:
            continue
        target = load_target(r["target"])
        alts = alternatives(r["kernel"], texts[r["kernel"]], target, r.get("fp_contract", False))
        for k, a in r["eqsat"].items():
            if k in alts:
                a["mca"] = mca_cycles(alts[k]["asm"], target)
                a["reps"] = alts[k]["reps"]
                a["mca_rep"] = a["mca"] / a["reps"] if a["mca"] else None
    data["summary"] = summarize([r for r in data["records"] if "error" not in r])
    path.write_text(json.dumps(data, indent=1))
    path.with_suffix(".md").write_text(markdown(data))
    return 0


def merge_records(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records of several runs, in order; a later run's record of a (target, kernel)
    replaces an earlier one's in place (a re-run of the kernels a change affects)."""
    latest = {(r["target"], r["kernel"]): r for d in runs for r in d["records"]}
    return list(latest.values())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--targets", default="avx2,x86-64-v2")
    p.add_argument("--kernels", type=int, default=12, help="kernels per target (a spread subset)")
    p.add_argument("--start", type=int, default=0, help="offset of the spread subset")
    p.add_argument("--split", choices=["held-out", "all"], default="held-out")
    p.add_argument("--only", metavar="NAMES",
                   help="these kernels (comma-separated corpus names) instead of a spread subset")
    p.add_argument("--space", choices=["single", "full"], default="full")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--fp-contract", action="store_true",
                   help="fp-contract mode: contractions fuse each multiply-add, in eqsat's "
                        "programs and the reference alike (the bit-exact field: the fused bits)")
    p.add_argument("--out", default="experiments/results/cost_regret")
    p.add_argument("--mca-only", metavar="JSON",
                   help="fill llvm-mca estimates into an earlier run's records (and write its "
                        ".md report), time nothing")
    p.add_argument("--merge", nargs="+", metavar="JSON",
                   help="merge the records of several runs into --out (.json and .md); a "
                        "later run's record of a kernel and target replaces an earlier one's")
    args = p.parse_args()
    if args.mca_only:
        return fill_mca(Path(args.mca_only))
    if args.merge:
        runs = [json.loads(Path(f).read_text()) for f in args.merge]
        modes = {bool(r.get("fp_contract")) for d in runs for r in d["records"]}
        if len(modes) > 1:
            p.error("--merge: these runs mix fp-contract mode and the default mode; their bit-"
                    "exact fields are other bits, so merge each mode's runs apart")
        records = merge_records(runs)
        data = {"provenance": runs[0]["provenance"], "runs": [d["provenance"] for d in runs],
                "records": records,
                "summary": summarize([r for r in records if "error" not in r],
                                     not any(r.get("held_out") is False for r in records))}  # fmt: skip
        Path(f"{args.out}.json").write_text(json.dumps(data, indent=1))
        Path(f"{args.out}.md").write_text(markdown(data))
        return 0
    from eqsat.targets import load_target
    from experiments.lib.provenance import record

    kernels = [(n, t) for n, t in corpus() if args.split == "all" or held_out(n)]
    step = max(1, len(kernels) // args.kernels)
    subset = kernels[args.start :: step][: args.kernels]
    if args.only:
        wanted = args.only.split(",")
        known = dict(kernels)
        missing = [n for n in wanted if n not in known]
        if missing:
            p.error(f"--only: no kernel {', '.join(missing)} in the {args.split} split")
        subset = [(n, known[n]) for n in wanted]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any]] = []
    for tname in args.targets.split(","):
        target = load_target(tname)
        if not target.runs_on_host():
            print(f"{tname}: this host cannot run its code; skipped", file=sys.stderr)
            continue
        for name, text in subset:
            try:
                records.append(run_kernel(name, text, target, args.space, args.repeats,
                                          args.fp_contract))
            except Exception as e:  # one kernel's failure is a record, not the end of the run
                records.append({"kernel": name, "target": tname, "error": str(e)[:300]})
            Path(f"{out}.json").write_text(json.dumps(
                {"provenance": record(sys.argv), "records": records,
                 "summary": summarize([r for r in records if "error" not in r],
                                      args.split == "held-out")}, indent=1))  # fmt: skip
            print(f"{tname} {name} done", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
