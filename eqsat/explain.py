"""``eqsat opt --explain``: why each op of the input became what it became.

For every op of the input (each block of every function, loop bodies included) it gives the
form extracted for the op's e-class (its constructor), that form's cost, the other forms the
e-graph held for the same value with their costs, and the rules that produced the chosen form.

Each form has two costs: ``own``, the op's own cost (its operands free), and ``total``, own
plus the cheapest cost of each operand as an optimal tree extractor sees them
(``Snapshot.class_costs``). The extracted cost is the DAG's (a shared value paid once), so the
totals of several ops, which count a shared operand at every use, may add up to more than it.
A DAG extractor may choose a form that is not the cheapest tree here when its operands are
shared with other ops: the ``shared`` flag says so. Forms of one constructor are told apart by
their operands' forms and, where those agree too, by the literal arguments that differ;
identical ones are counted once. When a lowering emitted
compound ops and a second round chose their forms, that round is explained after the first.

Which rules produced a form: the rules that (1) fired in this run (matches per rule in the
saturation report), (2) build the chosen constructor in their right-hand side, or union
existing terms only (they build nothing, e.g. ``transpose(transpose(x)) = x``) and read the
input op's constructor, and (3) when any such rule does, read the input op's own constructor
in their left-hand side. This is sound (every listed rule can build the form and did fire) but
not a proof trace: egglog keeps no record of which match created which node.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from eqsat.encode import bound
from eqsat.optimizer import COMPOUND_OPS, OptimizeResult
from eqsat.schema import by_constructor, constructors
from eqsat.strategies import STRATEGIES
from frontend.ir import Module


def _form(cons: str) -> str:
    c = by_constructor().get(cons)
    return c.op if c is not None else cons


def _label(cons: str, lits: tuple[Any, ...]) -> str:
    """A form's name: its constructor, with a strategy's named tuning literals."""
    s = STRATEGIES.get(cons)
    return s.label(lits) if s is not None else cons


def _num(x: float) -> float | str:
    return x if math.isfinite(x) else "inf"


def explanations(result: OptimizeResult) -> list[dict[str, Any]]:
    """One record per explained input op, for every round (see module docstring)."""
    out = _round(result, 1)
    for n, later in enumerate(result.later_rounds, 2):
        if later.snapshot is not None:  # kept: optimize_module(..., keep_rounds=True)
            # A later round re-optimizes the whole program for the compound ops the earlier
            # lowerings emitted: those are its news.
            out.extend(r for r in _round(later, n) if r["op"] in COMPOUND_OPS)
    return out


def _round(result: OptimizeResult, round_no: int) -> list[dict[str, Any]]:
    snap, enc, cost = result.snapshot, result.encoder, result.cost_model
    assert snap is not None and enc is not None and cost is not None
    fired: dict[str, int] = {}
    for phase in result.report.phases:
        for key, n in phase.applied.items():
            fired[key] = fired.get(key, 0) + n
    rules = [(rf, r) for rf in result.rule_files for r in rf.rules]
    types = {snap.owner[n] for n, op in enumerate(snap.ops) if op in ("VT", "TT")}
    out: list[dict[str, Any]] = []
    for b in enc.blocks:
        ex = result.extractions.get(b.index)
        root = snap.root(b.root)
        best_tree, value = snap.class_costs(root, cost)
        chosen = dict(ex.choice) if ex is not None else {}
        ops = b.block.ops
        last = ops[-1] if ops else None
        body = ops[:-1] if last is not None and last.spec is not None and last.spec.has(
            "terminator"
        ) else ops
        for n, op in enumerate(body):
            c = constructors().get(op.name)
            if c is None:
                continue
            try:
                cls = snap.root(bound(c.sort, b.index, n))
            except Exception:  # not extractable (a barrier's multi-result, ...)
                continue
            forms = _forms(snap, cls, cost, value, best_tree, types)
            if not forms:
                continue
            node = chosen.get(cls)
            used = node is not None
            if node is None:
                node = best_tree.get(cls, forms[0]["node"])
            pick = next((f for f in forms if f["node"] == node), forms[0])
            loc = op.loc
            record: dict[str, Any] = {
                "round": round_no,
                "block": b.index,
                "op": op.name,
                "line": loc.line if loc is not None else None,
                "chosen": _public(pick),
                "in_output": used,
                "shared": used and pick["node"] != best_tree.get(cls),
                "alternatives": _distinct([f for f in forms if f["node"] != pick["node"]]),
                "rules": _rules(snap.ops[pick["node"]], c.name, rules, fired),
            }
            if snap.ops[pick["node"]] == "Tiled":  # what runs on each tile
                kernel = snap.kids[pick["node"]][1]
                inner = chosen.get(kernel, best_tree.get(kernel))
                if inner is not None:
                    record["kernel"] = {
                        "form": _label(snap.ops[inner], snap.cost_lits[inner]),
                        "op": _form(snap.ops[inner]),
                    }
            out.append(record)
    return out


def _forms(
    snap: Any,
    cls: int,
    cost: Any,
    value: dict[int, float],
    best_tree: dict[int, int],
    types: set[int],
) -> list[dict[str, Any]]:
    """Every form of e-class ``cls``: label, own and total cost, what tells it apart."""
    forms = []
    for node in snap.members[cls]:
        kids = snap.kids[node]
        lits = snap.cost_lits[node]
        kid_costs = tuple(value.get(k, math.inf) for k in kids)
        total = cost(snap.ops[node], lits, kid_costs)
        own = cost(snap.ops[node], lits, (0.0,) * len(kids))
        operands = tuple(
            _label(snap.ops[best_tree[k]], snap.cost_lits[best_tree[k]])
            if k in best_tree else "?"
            for k in kids
            if k not in types
        )
        forms.append(
            {
                "node": node,
                "form": _label(snap.ops[node], lits),
                "op": _form(snap.ops[node]),
                "own": own,
                "cost": total,
                "operands": operands,
                "lits": snap.lits[node],
            }
        )
    forms.sort(key=lambda f: (f["cost"], f["form"]))
    # What tells forms of one label apart: their operands' forms, else differing literals.
    by_label: dict[str, list[dict[str, Any]]] = {}
    for f in forms:
        by_label.setdefault(f["form"], []).append(f)
    for group in by_label.values():
        if len(group) < 2:
            continue
        if len({f["operands"] for f in group}) > 1:
            for f in group:
                f["detail"] = "of (" + ", ".join(f["operands"]) + ")"
        else:
            differ = [
                i for i in range(min(len(f["lits"]) for f in group))
                if len({repr(f["lits"][i]) for f in group}) > 1
            ]
            for f in group:
                if differ:
                    f["detail"] = "with " + ", ".join(_lit(f["lits"][i]) for i in differ)
    return forms


def _lit(x: Any) -> str:
    if isinstance(x, tuple):
        return "[" + ", ".join(_lit(y) for y in x) + "]"
    return str(x)


def _public(f: dict[str, Any]) -> dict[str, Any]:
    out = {"form": f["form"], "op": f["op"], "own": _num(f["own"]), "cost": _num(f["cost"])}
    if f.get("detail"):
        out["detail"] = f["detail"]
    return out


def _distinct(forms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Alternatives as shown: identical ones (label, detail, costs) once, with a count."""
    counts = Counter(
        (f["form"], f.get("detail", ""), _num(f["own"]), _num(f["cost"])) for f in forms
    )
    out, seen = [], set()
    for f in forms:
        key = (f["form"], f.get("detail", ""), _num(f["own"]), _num(f["cost"]))
        if key in seen:
            continue
        seen.add(key)
        entry = _public(f)
        if counts[key] > 1:
            entry["count"] = counts[key]
        out.append(entry)
    return out


def _rules(
    chosen: str, original: str, rules: list[tuple[Any, Any]], fired: dict[str, int]
) -> list[dict[str, Any]]:
    if chosen == original:
        return []
    ran = [(rf, r) for rf, r in rules if sum(fired.get(k, 0) for k in r.keys) > 0]
    # Rules that build the form; failing those, rules on the op that only union what exists.
    hits = [(rf, r) for rf, r in ran if chosen in r.builds] or [
        (rf, r) for rf, r in ran if not r.builds and original in r.reads
    ]
    on_op = [(rf, r) for rf, r in hits if original in r.reads]
    return [
        {
            "rule": r.label,
            "file": f"{rf.path.parent.name}/{rf.path.name}",
            "line": r.line,
            "applied": sum(fired.get(k, 0) for k in r.keys),
            "law": r.law,
            "union_only": not r.builds,
        }
        for rf, r in (on_op or hits)
    ]


def explain(result: OptimizeResult, module: Module, fmt: str = "text") -> str:
    """The explanation as text (for people) or JSON (``{"cost": ..., "ops": [...]}``)."""
    records = explanations(result)
    if fmt == "json":
        return json.dumps({"cost": _num(result.cost), "ops": records}, indent=2) + "\n"
    lines = [
        f"extracted cost {result.cost:g} (DAG cost: a shared value is paid once; an op's "
        "'total' adds its operands' tree costs, which count a shared operand at every use, "
        "so totals may add up to more)"
    ]
    current = 1
    for r in records:
        if r["round"] != current:
            current = r["round"]
            lines.append(
                f"round {current}: forms chosen for the compound ops the lowerings of round "
                f"{current - 1} emitted"
            )
        where = f"line {r['line']}" if r["line"] else f"block {r['block']}"
        ch = r["chosen"]
        note = "" if r["in_output"] else "  (not in the output: folded into other ops)"
        lines.append(f"{where}: {r['op']}{note}")
        form = ch["form"] + (f" ({ch['op']})" if ch["op"] != ch["form"].split()[0] else "")
        if "kernel" in r:
            form += f" of {r['kernel']['form']} per tile"
        shared = "  [DAG choice: its operands are shared]" if r["shared"] else ""
        lines.append(f"  chosen  {_row(form, ch)}{shared}")
        for a in r["alternatives"]:
            lines.append(f"  other   {_row(a['form'], a)}")
        for rule in r["rules"]:
            how = "unions existing terms, " if rule["union_only"] else ""
            lines.append(
                f"  by rule {rule['rule']} ({rule['file']}:{rule['line']}, {how}"
                f"applied {rule['applied']}x): {rule['law']}"
            )
    return "\n".join(lines) + "\n"


def _row(form: str, f: dict[str, Any]) -> str:
    detail = f" {f['detail']}" if f.get("detail") else ""
    count = f"  (x{f['count']})" if f.get("count") else ""
    return f"{form}{detail}  own {_show(f['own'])}, total {_show(f['cost'])}{count}"


def _show(x: float | str) -> str:
    return x if isinstance(x, str) else f"{x:g}"
