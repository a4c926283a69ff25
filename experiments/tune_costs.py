"""Cost-model tuning: fit a target's [cost] table so that the cost extraction uses (register
pressure included) ranks lowerings as measured time does, on the generated corpus.

Two sweeps (``experiments/lib/tuning_runs.py``): micro-benchmarks (one VV/HWV op repeated over
1, 2, 4, 8 native registers; each must keep its work after O3) and the alternatives of the
generated corpus's kernels (``experiments/cost_corpus.py``: each MLIR strategy of the kernel's
contract / transpose / multi_reduction forced, and eqsat's own choice), priced as extraction
prices them (DAG cost plus spills), checked element by element against the interpreter and
timed on this machine.

The fit sees the tuning split only (``cost_corpus.held_out`` is False): a start from the
micro-benchmarks' non-negative least squares (ns per register, in units of ``arith.addf``)
or the shipped table, whichever ranks better, then a coordinate search over the entries the
alternatives spend their cost on, maximizing Kendall tau between predicted cost and measured
time over pairs of alternatives of the same kernel, less the log of the geometric-mean regret
of the alternatives it prices lowest (pairs may not be bought with slow choices). Its
generalization is estimated by ``FOLDS``-fold cross-validation over the tuning kernels; the held-out kernels score the final
table once (tau, and the regret of the alternative it prices lowest). The tuned table goes to
its own complete target file, its scores in its header; the shipped ``costs/*.toml`` is never
written. To calibrate a target file to this host (the ``eqsat tune`` of the cost-model issue):

    python experiments/tune_costs.py --target avx2 --out my-avx2.toml   # then eqsat opt --costs my-avx2.toml
    python experiments/tune_costs.py [--quick | --smoke] [--target avx2] [--dir DIR]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script: make `experiments` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.cost_corpus import held_out
from experiments.cost_regret import NOISE  # times this close are ties (noise)
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
#: Kendall tau-b per kernel is reported over groups of at least this many alternatives.
MIN_GROUP = 4
FOLDS = 5
MULTIPLIERS = (0.1, 0.25, 0.5, 0.67, 0.8, 0.9, 1.1, 1.25, 1.5, 2.0, 4.0, 10.0)
#: Small kernels of both splits, for the quick and smoke plans.
SMALL_TUNING = ("reduce_add_4x8_d0_f32", "reduce_add_4x8_d1_f32", "transpose_8x8_i32")
SMALL_HELD_OUT = ("reduce_add_4x8_d0_i32",)
PLANS: dict[str, dict[str, Any]] = {
    "full": {"ops": tr.MICRO_OPS, "tuning": None, "held_out": None, "repeats": 5,
             "seconds": 0.005, "widths": None},
    "quick": {"ops": ("arith.addf", "vector.load"), "tuning": SMALL_TUNING,
              "held_out": SMALL_HELD_OUT, "repeats": 3, "seconds": 0.002, "widths": (1, 2)},
    "smoke": {"ops": ("arith.addf",), "tuning": SMALL_TUNING[:2], "held_out": SMALL_HELD_OUT,
              "repeats": 1, "seconds": 0.001, "widths": (1,)},
}  # fmt: skip


# -- specs --------------------------------------------------------------------------------------
def kernels(plan: str, split: str, limit: int | None = None) -> list[str]:
    """The plan's kernels of one split (``tuning`` or ``held_out``) of the generated corpus
    that have alternatives to rank (eqsat's choice alone ranks nothing); ``limit``: a spread
    subset of at most that many (every k-th, in corpus order)."""
    named = PLANS[plan][split]
    want = split == "held_out"
    names = list(named) if named is not None else tr.kernel_names()
    out = [k for k in names if held_out(k) == want and len(tr.alternatives(k)) >= 2]
    if limit is not None and len(out) > limit:
        step = len(out) / limit
        out = [out[int(i * step)] for i in range(limit)]
    return out


def specs(plan: str, target: str, limit: int | None = None) -> list[Spec]:
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
    for k in kernels(plan, "tuning", limit) + kernels(plan, "held_out", limit):
        for alt in tr.alternatives(k):
            out.append(Spec("tune-alt", "experiments.lib.tuning_runs:run_alternative",
                            {"kernel": k, "alternative": alt, **timing}, target=target))
    return out


# -- ranking ------------------------------------------------------------------------------------
def applicable(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Alternatives to rank: distinct programs of each kernel (a strategy extracting the same
    program as another counts once; one that does not apply is no alternative), each timed and
    matching the interpreter's outputs element by element (``checked``)."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for r in rows:
        key = (r["kernel"], r["program"])
        if key in seen or r.get("ns_per_call") is None or not r.get("checked"):
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


def kendall_b(predicted: Sequence[float], measured: Sequence[float]) -> float | None:
    """scipy's tau-b of one group (None when undefined)."""
    from scipy.stats import kendalltau

    if len(predicted) < 2:
        return None
    t = kendalltau(predicted, measured).statistic
    return None if t is None or math.isnan(t) else float(t)


def by_kernel(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        out.setdefault(r["kernel"], []).append(i)
    return out


def scores(rows: Sequence[Mapping[str, Any]], predicted: Sequence[float]) -> dict[str, Any]:
    """How ``predicted`` ranks ``rows``: pooled pair tau (``pair_tau``), mean tau-b over the
    kernels with at least ``MIN_GROUP`` alternatives, and the regret of the alternative priced
    lowest (its time over the kernel's best, minus one; the first listed on a tie, eqsat's own
    choice first): geometric mean and worst over the kernels with two or more alternatives."""
    times = [r["ns_per_call"] for r in rows]
    tau, pairs = pair_tau([r["kernel"] for r in rows], predicted, times)
    taus, regrets, worst = [], [], None
    for k, idx in by_kernel(rows).items():
        if len(idx) >= MIN_GROUP:
            t = kendall_b([predicted[i] for i in idx], [times[i] for i in idx])
            if t is not None:
                taus.append(t)
        if len(idx) >= 2:
            pick = min(idx, key=lambda i: (predicted[i], i))
            regrets.append(times[pick] / min(times[i] for i in idx) - 1)
            if regrets[-1] == max(regrets):
                worst = k
    geo = math.exp(sum(math.log1p(x) for x in regrets) / len(regrets)) - 1 if regrets else None
    return {"tau": tau, "pairs": pairs, "groups4": len(taus),
            "tau_b4": sum(taus) / len(taus) if taus else None, "kernels": len(regrets),
            "regret_geomean": geo, "regret_worst": max(regrets) if regrets else None,
            "worst_kernel": worst}


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


def shipped_value(table: Mapping[str, Any], key: str) -> float:
    """The entry's f32 (else default) number."""
    e = table.get(key, table.get("default", 1.0))
    if isinstance(e, Mapping):
        return float(e.get(tr.F32, e.get("default", 1.0)))
    return float(e)


def predict(rows: Sequence[Mapping[str, Any]], scales: Mapping[str, float]) -> list[float]:
    """Each program's full cost (as extraction prices it, spills included) with entry ``k``
    scaled by ``scales[k]``: the cost is linear in every entry, ``sum of share x scale``, plus
    the part no entry prices linearly (``const``)."""
    return [sum(v * (1.0 if k == "const" else scales.get(k, 1.0)) for k, v in r["shares"].items())
            for r in rows]


def fit(rows: Sequence[Mapping[str, Any]], table: Mapping[str, Any],
        units: Mapping[str, float], passes: int = 6) -> tuple[dict[str, float], dict[str, Any]]:
    """Scales per entry: the NNLS start or the shipped table (whichever ranks ``rows`` better),
    then a coordinate search on ``_Ranker.objective`` (pair tau less the log of the
    geometric-mean regret of the lowest-priced alternatives). ``rows`` must hold no held-out
    kernel."""
    leaked = sorted({r["kernel"] for r in rows if held_out(r["kernel"])})
    if leaked:
        raise ValueError(f"held-out kernels given to the fit: {', '.join(leaked)}")
    keys = sorted({k for r in rows for k in r["shares"] if k != "const"})
    start = {k: max(v, 0.05) / shipped_value(table, k) for k, v in units.items() if k in keys}
    ranker = _Ranker(rows, keys)
    tau0, tau_nnls = ranker.tau({}), ranker.tau(start)
    obj0, obj_nnls = ranker.objective({}), ranker.objective(start)
    best = dict(start) if obj_nnls > obj0 else {}
    best_obj = max(obj0, obj_nnls)
    for _ in range(passes):
        improved = False
        for k in keys:
            for m in MULTIPLIERS:
                trial = dict(best)
                trial[k] = best.get(k, 1.0) * m
                if trial[k] * shipped_value(table, k) < 0.05:
                    continue
                t = ranker.objective(trial)
                if t > best_obj + 1e-12:
                    best, best_obj, improved = trial, t, True
        if not improved:
            break
    return best, {"tau_shipped": tau0, "tau_nnls": tau_nnls, "tau_tuned": ranker.tau(best)}


class _Ranker:
    """``pair_tau`` of ``predict`` for many scalings of one set of rows, in numpy: the pairs
    (same kernel, times apart by more than ``NOISE``) and the shares are laid out once."""

    def __init__(self, rows: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> None:
        self.keys = list(keys)
        self.shares = np.array([[r["shares"].get(k, 0.0) for k in self.keys] for r in rows])
        self.const = np.array([r["shares"].get("const", 0.0) for r in rows])
        ii, jj, sign = [], [], []
        for idx in by_kernel(rows).values():
            for a, i in enumerate(idx):
                for j in idx[a + 1:]:
                    ti, tj = rows[i]["ns_per_call"], rows[j]["ns_per_call"]
                    if abs(ti - tj) > NOISE * min(ti, tj):
                        ii.append(i)
                        jj.append(j)
                        sign.append(1.0 if ti > tj else -1.0)
        self.i, self.j, self.sign = np.array(ii, int), np.array(jj, int), np.array(sign)
        self.groups = [np.array(idx) for idx in by_kernel(rows).values() if len(idx) >= 2]
        times = np.array([r["ns_per_call"] for r in rows], dtype=float)
        # log of each alternative's time over its kernel's fastest
        self.log_ratio = np.zeros(len(rows))
        for idx in self.groups:
            self.log_ratio[idx] = np.log(times[idx] / times[idx].min())

    def predicted(self, scales: Mapping[str, float]) -> np.ndarray:
        return self.shares @ np.array([scales.get(k, 1.0) for k in self.keys]) + self.const

    def objective(self, scales: Mapping[str, float]) -> float:
        """Pair tau minus the log of the geometric-mean regret of the alternatives priced
        lowest: a ranking may not buy pairs with a slow choice."""
        pred = self.predicted(scales)
        if not self.groups:
            return self.tau(scales, pred)
        regret = np.mean([self.log_ratio[idx[np.argmin(pred[idx])]] for idx in self.groups])
        return self.tau(scales, pred) - float(regret)

    def tau(self, scales: Mapping[str, float], pred: np.ndarray | None = None) -> float:
        if not len(self.sign):
            return 0.0
        pred = self.predicted(scales) if pred is None else pred
        pi, pj = pred[self.i], pred[self.j]
        dp = pi - pj
        tie = np.abs(dp) <= 1e-9 * np.maximum(np.maximum(np.abs(pi), np.abs(pj)), 1.0)
        agree = np.where(tie, 0.0, np.sign(dp) * self.sign)
        return float(agree.sum() / len(self.sign))


def folds(names: Sequence[str], k: int = FOLDS) -> list[list[str]]:
    """The tuning kernels dealt into ``k`` folds (sorted names, round robin: deterministic)."""
    ordered = sorted(set(names))
    k = max(1, min(k, len(ordered)))
    return [ordered[i::k] for i in range(k)]


def cross_validate(rows: Sequence[Mapping[str, Any]], table: Mapping[str, Any],
                   units: Mapping[str, float]) -> dict[str, Any]:
    """``FOLDS``-fold cross-validation over the tuning kernels: fit on the other folds, score
    each fold's kernels with that fit; the scores of every fold's predictions together."""
    parts = folds([r["kernel"] for r in rows])
    if len(parts) < 2:
        return scores([], [])
    predicted = [0.0] * len(rows)
    for part in parts:
        inside = set(part)
        scales, _ = fit([r for r in rows if r["kernel"] not in inside], table, units)
        idx = [i for i, r in enumerate(rows) if r["kernel"] in inside]
        for i, p in zip(idx, predict([rows[i] for i in idx], scales)):
            predicted[i] = p
    return {**scores(rows, predicted), "folds": len(parts)}


def check_specs(plan: str, target: str, tuned: Path, limit: int | None = None) -> list[Spec]:
    """eqsat's own choice per held-out kernel under the tuned file (``Spec.costs``: its hash
    is in the record, so a refit measures again)."""
    p = PLANS[plan]
    return [Spec("tune-check", "experiments.lib.tuning_runs:run_alternative",
                 {"kernel": k, "alternative": "eqsat", "repeats": p["repeats"],
                  "seconds": p["seconds"]}, target=target, costs=str(tuned))
            for k in kernels(plan, "held_out", limit)]


def tuned_choices(held: Sequence[Mapping[str, Any]], checks: Sequence[Mapping[str, Any]]
                  ) -> dict[str, Any]:
    """Per held-out kernel: whether eqsat's choice under the tuned file is another program than
    under the shipped one, and its regret against the best measured alternative (times of
    separate runs: noise of a shared machine included)."""
    best = {k: min(held[i]["ns_per_call"] for i in idx) for k, idx in by_kernel(held).items()}
    shipped = {r["kernel"]: r for r in held if r["alternative"] == "eqsat"}
    out = []
    for r in checks:
        k = r["spec"]["params"]["kernel"]
        res = r["result"]
        if r["status"] != "ok" or k not in best or not res.get("checked"):
            continue
        changed = k in shipped and shipped[k]["program"] != res["program"]
        out.append({"kernel": k, "changed": changed, "ns": res["ns_per_call"],
                    "regret": res["ns_per_call"] / best[k] - 1})
    regs = [c["regret"] for c in out]
    geo = math.exp(sum(math.log1p(max(x, -0.99)) for x in regs) / len(regs)) - 1 if regs else None
    return {"kernels": out, "changed": sum(c["changed"] for c in out),
            "regret_geomean": geo, "regret_worst": max(regs) if regs else None}


# -- the tuned target file ----------------------------------------------------------------------
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


def file_tag(target: str) -> str:
    """The name a target's output files start with: a target file's stem (``--target
    path/mine.toml`` writes ``mine-*`` inside ``--dir``, never next to the file)."""
    return Path(target).stem if target.endswith(".toml") else target


def _shipped(target: str) -> str:
    return str(HERE.parent / "costs" / f"{target}.toml")


# -- outputs ------------------------------------------------------------------------------------
def analyse(records: Sequence[Mapping[str, Any]], target: str, out_toml: Path, outdir: Path,
            command: str) -> dict[str, Any]:
    """Cross-validate, fit, score on the held-out kernels, write the tuned file, the CSVs and
    the plot of one target; returns the summary."""
    from eqsat.targets import load_target

    t = load_target(target)
    ok = [r for r in records if r["status"] == "ok" and r["target"] == target]
    micro = [{**r["spec"]["params"], **r["result"]} for r in ok if r["study"] == "tune-micro"]
    alts = [{**r["spec"]["params"], **r["result"]} for r in ok if r["study"] == "tune-alt"]
    rows = applicable(alts)
    train = [r for r in rows if not held_out(r["kernel"])]
    held = [r for r in rows if held_out(r["kernel"])]
    units = nnls_units(micro) if micro else {}
    cv = cross_validate(train, t.cost, units)
    scales, taus = fit(train, t.cost, units)
    s = {"train_shipped": scores(train, predict(train, {})),
         "train_tuned": scores(train, predict(train, scales)),
         "held_shipped": scores(held, predict(held, {})),
         "held_tuned": scores(held, predict(held, scales)), "cv": cv}
    hs, ht = s["held_shipped"], s["held_tuned"]
    note = (f"Tuned by `{command}` from {t.path} on {len({r['kernel'] for r in train})} kernels "
            f"of the generated corpus's tuning split.\n"
            f"{cv.get('folds', 0)}-fold cross-validation: tau {_num(cv['tau'])}, regret "
            f"{_pct(cv['regret_geomean'])} geomean.\n"
            f"Held-out kernels ({hs['kernels']} with 2+ alternatives, never seen by the fit): "
            f"pair tau {_num(hs['tau'])} -> {_num(ht['tau'])}, tau-b over groups of >= "
            f"{MIN_GROUP} {_num(hs['tau_b4'])} -> {_num(ht['tau_b4'])} ({ht['groups4']}), "
            f"regret of the lowest-priced alternative {_pct(hs['regret_geomean'])} -> "
            f"{_pct(ht['regret_geomean'])} geomean, worst {_pct(hs['regret_worst'])} -> "
            f"{_pct(ht['regret_worst'])}.\nGenerated file: the shipped target file is unchanged.")
    out_toml.parent.mkdir(parents=True, exist_ok=True)
    out_toml.write_text(tuned_text(t.path if Path(t.path).exists() else _shipped(target),
                                   t.cost, scales, note))
    tuned = load_target(str(out_toml))  # a valid target file, or this raises
    mismatched = [r["kernel"] for r in alts if r["alternative"] == "eqsat"
                  and not math.isclose(r["predicted_cost"], r["extracted_cost"], rel_tol=1e-9)]
    summary = {
        "target": target, **s, "taus": taus, "tuned_file": str(out_toml),
        "tuned_name": tuned.name, "alternatives": len(alts), "distinct": len(rows),
        "train_rows": len(train), "held_rows": len(held),
        "not_applying": sum(1 for r in alts if not r.get("applies", True)),
        "wrong_output": sum(1 for r in alts if r.get("ns_per_call") is not None
                            and not r.get("checked")),
        "const_share": sum(abs(r["shares"].get("const", 0.0)) for r in rows),
        "priced_unlike_extraction": mismatched, "micro": len(micro),
        "changes": {k: (shipped_value(t.cost, k), shipped_value(t.cost, k) * v)
                    for k, v in sorted(scales.items()) if abs(v - 1) > 1e-9},
        "units": units,
    }
    before, after = predict(rows, {}), predict(rows, scales)
    with open(outdir / f"{file_tag(target)}-alternatives.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "split", "alternative", "ns_per_call", "predicted_before",
                    "predicted_after"])
        for r, b, a in zip(rows, before, after):
            w.writerow([r["kernel"], "held-out" if held_out(r["kernel"]) else "tuning",
                        r["alternative"], repr(r["ns_per_call"]), repr(b), repr(a)])
    with open(outdir / f"{file_tag(target)}-micro.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["op", "width", "vector_instructions_after_o3", "ns_per_call"])
        for r in micro:
            w.writerow([r["op"], r["width"], r.get("vector_instructions", ""),
                        f"{r['ns_per_call']:.2f}"])
    plan = next((p for p in ("quick", "smoke") if f"--{p}" in command), "full")
    plot(rows, before, after, summary, outdir / f"{file_tag(target)}.png", plan)
    return summary


def _micro_error(record: Mapping[str, Any]) -> str:
    p = record["spec"]["params"]
    last = (record.get("error") or "").strip().splitlines()[-1:] or ["?"]
    return f"{record['target']} micro-benchmark {p['op']} x{p['width']}: {last[0]}"


def _num(x: float | None) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def plot(rows: Sequence[Mapping[str, Any]], before: Sequence[float], after: Sequence[float],
         s: Mapping[str, Any], path: Path, plan: str = "full") -> None:
    """Per kernel, each alternative's predicted cost and time relative to the kernel's
    cheapest and fastest: a good ranking puts the points along the diagonal."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from experiments.lib.plot_style import label_plan

    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    groups = by_kernel(rows)
    for ax, pred, name in ((axes[0], before, "shipped"), (axes[1], after, "tuned")):
        for split, color in (("tuning", "tab:blue"), ("held-out", "tab:red")):
            xs, ys = [], []
            for k, idx in groups.items():
                if (split == "held-out") != held_out(k) or len(idx) < 2:
                    continue
                lo_p = min(pred[i] for i in idx) or 1.0
                lo_t = min(rows[i]["ns_per_call"] for i in idx)
                xs += [pred[i] / lo_p for i in idx]
                ys += [rows[i]["ns_per_call"] / lo_t for i in idx]
            ax.scatter(xs, ys, s=12, alpha=0.6, color=color, label=f"{split} kernels")
        tau = s[f"held_{name}"]["tau"]
        ax.set_title(f"{s['target']} {name} table: held-out pair tau {_num(tau)}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("predicted cost / kernel's cheapest")
        ax.set_ylabel("measured time / kernel's fastest")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    label_plan(fig, plan)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def markdown(summaries: Sequence[Mapping[str, Any]], command: str) -> str:
    from experiments.lib.provenance import markdown_header, record

    out = ["# Cost-model tuning on the generated corpus", "", markdown_header(record(command.split()[1:])),
           "",
           "Predicted cost is the full cost extraction gives a program (DAG cost plus register "
           "pressure: spills and reloads). Pair tau: Kendall tau over all pairs of alternatives "
           f"of the same kernel whose times differ by more than {NOISE:.0%} (a predicted tie "
           f"counts as neither). Tau-b: mean over kernels with >= {MIN_GROUP} distinct "
           "alternatives (their count in brackets). Regret: time of the alternative the table "
           "prices lowest over the kernel's fastest alternative, minus one (geometric mean / "
           "worst). Alternatives are distinct programs whose outputs match the interpreter "
           "element by element. The fit and the cross-validation see the tuning split only; "
           "the held-out split scores the final table once.", "",
           "| target | distinct alternatives (tuning / held-out) | CV pair tau | CV regret | "
           "held-out pair tau shipped -> tuned | held-out tau-b (groups) shipped -> tuned | "
           "held-out regret shipped -> tuned | eqsat's choice under the tuned file: regret "
           "(kernels changed) | tuned file |",
           "|---|---|---:|---|---|---|---|---|---|"]
    for s in summaries:
        cv, hs, ht = s["cv"], s["held_shipped"], s["held_tuned"]
        ch = s.get("choices") or {}
        out.append(
            f"| {s['target']} | {s['train_rows']} / {s['held_rows']} | {_num(cv['tau'])} | "
            f"{_pct(cv['regret_geomean'])} / {_pct(cv['regret_worst'])} | "
            f"{_num(hs['tau'])} -> {_num(ht['tau'])} ({ht['pairs']} pairs) | "
            f"{_num(hs['tau_b4'])} -> {_num(ht['tau_b4'])} ({ht['groups4']}) | "
            f"{_pct(hs['regret_geomean'])} / {_pct(hs['regret_worst'])} -> "
            f"{_pct(ht['regret_geomean'])} / {_pct(ht['regret_worst'])} | "
            f"{_pct(ch.get('regret_geomean'))} / {_pct(ch.get('regret_worst'))} "
            f"({ch.get('changed', 0)} of {len(ch.get('kernels', []))}) | "
            f"`{Path(s['tuned_file']).name}` |")
    for s in summaries:
        tr_, tt = s["train_shipped"], s["train_tuned"]
        out += ["", f"## {s['target']}", "",
                f"- Runs: {s['alternatives']} alternatives measured, {s['not_applying']} where the "
                f"forced strategy does not apply, {s['wrong_output']} with outputs other than the "
                f"interpreter's, {s['distinct']} distinct programs ranked; {s['micro']} "
                "micro-benchmarks, each keeping its vector work after O3.",
                f"- Worst regret: cross-validation {s['cv'].get('worst_kernel')}, held-out "
                f"{s['held_shipped'].get('worst_kernel')} (shipped) / "
                f"{s['held_tuned'].get('worst_kernel')} (tuned).",
                f"- Micro-benchmarks that failed, left out of the fit: "
                f"{'; '.join(s.get('micro_errors') or []) or 'none'}.",
                f"- Tuning split (fit on it: optimistic): pair tau {_num(tr_['tau'])} -> "
                f"{_num(tt['tau'])}, regret {_pct(tr_['regret_geomean'])} -> "
                f"{_pct(tt['regret_geomean'])}; start {s['taus'].get('tau_shipped', 0):.3f} "
                f"(shipped) / {s['taus'].get('tau_nnls', 0):.3f} (micro-benchmark NNLS).",
                f"- eqsat's own programs priced as extraction reported them: "
                f"{'all' if not s['priced_unlike_extraction'] else 'NOT ' + ', '.join(s['priced_unlike_extraction'])}"
                f"; cost no entry prices linearly (sum over programs): {s['const_share']:.3g}.",
                "", "| entry | shipped (f32) | tuned | micro-benchmark NNLS (addf = 1) |",
                "|---|---:|---:|---:|"]
        for k, (a, b) in s["changes"].items():
            u = s["units"].get(k)
            out.append(f"| `{k}` | {a:.3g} | {b:.3g} | {'' if u is None else f'{u:.3g}'} |")
        out += ["", f"![{s['target']}]({file_tag(s['target'])}.png)"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    from eqsat.targets import load_target

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_plan_arguments(ap, quick="three tuning kernels, one held out, two micro-benchmarks",
                       smoke="two tuning kernels, one held out, one micro-benchmark (tests)")
    ap.add_argument("--target", default=None, help="one target (default: every runnable one)")
    ap.add_argument("--out", type=Path, default=None, help="tuned target file (one target)")
    ap.add_argument("--dir", type=Path, default=None, help="results directory")
    ap.add_argument("--kernels", type=int, default=None, metavar="N",
                    help="a spread subset of at most N kernels of each split (a shorter run)")
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
    command += f" --kernels {args.kernels}" if args.kernels else ""
    all_specs = [s for n in targets for s in specs(plan, n, args.kernels)]
    result = run_sweep(all_specs, records_path, executor, progress=not args.no_progress,
                       desc=f"tuning ({plan})")
    failed = [r for r in result.records if r["status"] != "ok"]
    if any(r["study"] != "tune-micro" for r in failed):
        print(f"error: {len(failed)} runs failed (see {records_path})", file=sys.stderr)
        return 1
    for r in failed:  # a micro-benchmark LLVM folds away: left out of the fit, and said so
        print(f"error: {_micro_error(r)}", file=sys.stderr)
    summaries = []
    for n in targets:
        out_toml = args.out or outdir / f"{file_tag(n)}-tuned.toml"
        summary = analyse(result.records, n, out_toml, outdir, command)
        check = run_sweep(check_specs(plan, n, out_toml, args.kernels), records_path, executor,
                          progress=not args.no_progress, desc=f"tuned choices {n}")
        if check.failed:
            print(f"error: {check.failed} runs failed (see {records_path})", file=sys.stderr)
            return 1
        held = [r for r in applicable([{**r["spec"]["params"], **r["result"]}
                                       for r in result.records if r["status"] == "ok"
                                       and r["target"] == n and r["study"] == "tune-alt"])
                if held_out(r["kernel"])]
        summary["choices"] = tuned_choices(held, check.records)
        summary["micro_errors"] = [_micro_error(r) for r in failed if r["target"] == n]
        summaries.append(summary)
    from experiments.lib.provenance import record

    (outdir / "tuning.md").write_text(markdown(summaries, command))
    (outdir / "tuning.json").write_text(json.dumps(
        {"provenance": record(command.split()[1:]), "summaries": summaries}, indent=1, default=str))
    print((outdir / "tuning.md").read_text())
    print(f"({result.ran} runs now, {result.skipped} from earlier records) -> {outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
