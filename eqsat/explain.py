"""``eqsat opt --explain``: why each op of the input became what it became.

For every op of the input (each block of every function, loop bodies included) it gives the
form extracted for the op's e-class (its constructor), that form's cost, the other forms the
e-graph held for the same value with their costs, and the rules that produced the chosen form.

Costs are per form, as an optimal tree extractor sees them: the form's own cost plus the
cheapest cost of each operand (``Snapshot.class_costs``). A DAG extractor may choose a form
that is not the cheapest here when its operands are shared with other ops: the ``shared``
flag says so.

Which rules produced a form: the rules that (1) fired in this run (matches per rule in the
saturation report), (2) build the chosen constructor in their right-hand side, and (3) when
any such rule does, read the input op's own constructor in their left-hand side. This is
sound (every listed rule can build the form and did fire) but not a proof trace: egglog keeps
no record of which match created which node.
"""

from __future__ import annotations

import json
import math
from typing import Any

from eqsat.optimize import OptimizeResult
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
    """One record per explained input op (see module docstring)."""
    snap, enc, cost = result.snapshot, result.encoder, result.cost_model
    assert snap is not None and enc is not None and cost is not None
    fired: dict[str, int] = {}
    for phase in result.report.phases:
        for key, n in phase.applied.items():
            fired[key] = fired.get(key, 0) + n
    rules = [(rf, r) for rf in result.rule_files for r in rf.rules]
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
                cls = snap.root(f"$b{b.index}_{n}")
            except Exception:  # not extractable (a barrier's multi-result, ...)
                continue
            forms = []
            for node in snap.members[cls]:
                kid_costs = tuple(value.get(k, math.inf) for k in snap.kids[node])
                lits = snap.cost_lits[node]
                own = cost(snap.ops[node], lits, kid_costs)
                forms.append((_label(snap.ops[node], lits), own, node))
            forms.sort(key=lambda f: (f[1], f[0]))
            node = chosen.get(cls)
            used = node is not None
            if node is None:
                node = best_tree.get(cls, forms[0][2] if forms else None)
            pick = next((f for f in forms if f[2] == node), forms[0] if forms else None)
            if pick is None:
                continue
            loc = op.loc
            record: dict[str, Any] = {
                "block": b.index,
                "op": op.name,
                "line": loc.line if loc is not None else None,
                "chosen": {"form": pick[0], "op": _form(snap.ops[pick[2]]), "cost": _num(pick[1])},
                "in_output": used,
                "shared": used and pick[2] != best_tree.get(cls),
                "alternatives": [
                    {"form": f, "op": _form(snap.ops[m]), "cost": _num(x)}
                    for f, x, m in forms
                    if m != pick[2]
                ],
                "rules": _rules(snap.ops[pick[2]], c.name, rules, fired),
            }
            if snap.ops[pick[2]] == "Tiled":  # what runs on each tile
                kernel = snap.kids[pick[2]][1]
                inner = chosen.get(kernel, best_tree.get(kernel))
                if inner is not None:
                    record["kernel"] = {
                        "form": _label(snap.ops[inner], snap.cost_lits[inner]),
                        "op": _form(snap.ops[inner]),
                    }
            out.append(record)
    return out


def _rules(
    chosen: str, original: str, rules: list[tuple[Any, Any]], fired: dict[str, int]
) -> list[dict[str, Any]]:
    if chosen == original:
        return []
    hits = [
        (rf, r)
        for rf, r in rules
        if chosen in r.builds and sum(fired.get(k, 0) for k in r.keys) > 0
    ]
    on_op = [(rf, r) for rf, r in hits if original in r.reads]
    return [
        {
            "rule": r.label,
            "file": f"{rf.path.parent.name}/{rf.path.name}",
            "line": r.line,
            "applied": sum(fired.get(k, 0) for k in r.keys),
            "law": r.law,
        }
        for rf, r in (on_op or hits)
    ]


def explain(result: OptimizeResult, module: Module, fmt: str = "text") -> str:
    """The explanation as text (for people) or JSON (``{"cost": ..., "ops": [...]}``)."""
    records = explanations(result)
    if fmt == "json":
        return json.dumps({"cost": _num(result.cost), "ops": records}, indent=2) + "\n"
    lines = [f"extracted cost {result.cost:g}"]
    for r in records:
        where = f"line {r['line']}" if r["line"] else f"block {r['block']}"
        ch = r["chosen"]
        note = "" if r["in_output"] else "  (not in the output: folded into other ops)"
        lines.append(f"{where}: {r['op']}{note}")
        form = ch["form"] + (f" ({ch['op']})" if ch["op"] != ch["form"].split()[0] else "")
        if "kernel" in r:
            form += f" of {r['kernel']['form']} per tile"
        shared = "  [DAG choice: its operands are shared]" if r["shared"] else ""
        lines.append(f"  chosen  {form}  cost {_show(ch['cost'])}{shared}")
        for a in r["alternatives"]:
            lines.append(f"  other   {a['form']}  cost {_show(a['cost'])}")
        for rule in r["rules"]:
            lines.append(
                f"  by rule {rule['rule']} ({rule['file']}:{rule['line']}, "
                f"applied {rule['applied']}x): {rule['law']}"
            )
    return "\n".join(lines) + "\n"


def _show(x: float | str) -> str:
    return x if isinstance(x, str) else f"{x:g}"
