"""Export a saturated e-graph in extraction-gym's JSON format, for extractor research, or as
a picture for small programs (Graphviz DOT, or SVG through Graphviz's ``dot`` when installed).

The format (github.com/egraphs-good/extraction-gym, read by ``egraph-serialize``)::

    {"nodes": {NODE_ID: {"op": str, "children": [NODE_ID, ...], "eclass": CLASS_ID,
                         "cost": float}, ...},
     "root_eclasses": [CLASS_ID, ...], "class_data": {CLASS_ID: {"type": SORT}, ...}}

A child names a node; the class it stands for is that node's ``eclass``. egglog serializes
the graph (``bindings.EGraph.serialize``); we then

- drop the nodes of analysis functions (``type-of``, ``NativeTile``, ...), which are facts
  about classes rather than terms an extractor may choose, pointing their users at a
  constructor node of the same class;
- set every node's ``cost`` to its own cost under our cost model (the model called with the
  node's literal arguments and zero child costs), primitives costing nothing. Extraction-gym
  sums own costs; ``Tiled`` multiplies its kernel's cost by the tile count in our model, which
  no additive cost can say, so a gym extractor sees the kernel paid once. Infinite costs
  (illegal ops) are written as ``ILLEGAL_COST``: JSON has no infinity.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from eqsat.cost import CostModel, vv_cost
from eqsat.egraph import EGraph

FORMATS = (".json", ".dot", ".svg")  # what ``dump`` writes, by the file's suffix
ILLEGAL_COST = 1e30


def serialize(
    egraph: EGraph, roots: Sequence[str], cost: CostModel | None = None
) -> dict[str, Any]:
    """The e-graph reachable from ``roots`` (egglog names, ``$root0``) as extraction-gym JSON
    data."""
    cost = cost or vv_cost()
    exprs = []
    for root in roots:
        (cmd,) = egraph.raw.parse_program(f"(let __eqsat_export {root})")
        exprs.append(cmd.action.rhs)
    data = json.loads(egraph.raw.serialize(exprs).to_json())
    nodes: dict[str, dict[str, Any]] = data["nodes"]
    constructors, eq_sorts = egraph.schema.constructors, egraph.schema.eq_sorts
    primitive = {k for k, n in nodes.items() if k.startswith("primitive-")}
    analysis = {k for k, n in nodes.items() if k not in primitive and n["op"] not in constructors}
    # A constructor node per class, to stand in for dropped analysis nodes.
    standin: dict[str, str] = {}
    for k, n in nodes.items():
        if k not in analysis:
            standin.setdefault(n["eclass"], k)
    keep = {k for k in analysis if nodes[k]["eclass"] not in standin}  # nothing else to use
    out: dict[str, dict[str, Any]] = {}
    for k, n in nodes.items():
        if k in analysis and k not in keep:
            continue
        children = [
            c if c not in analysis or c in keep else standin[nodes[c]["eclass"]]
            for c in n["children"]
        ]
        out[k] = {
            "op": n["op"],
            "children": children,
            "eclass": n["eclass"],
            "cost": 0.0
            if k in primitive or k in analysis
            else _own_cost(cost, n["op"], constructors[n["op"]].inputs, children, nodes, eq_sorts),
        }
    classes = {n["eclass"] for n in out.values()}
    return {
        "nodes": out,
        "root_eclasses": list(data["root_eclasses"]),
        "class_data": {c: d for c, d in data.get("class_data", {}).items() if c in classes},
    }


def _own_cost(
    cost: CostModel,
    op: str,
    sorts: Sequence[str],
    children: Sequence[str],
    nodes: Mapping[str, Mapping[str, Any]],
    eq_sorts: set[str],
) -> float:
    """The cost model's own cost of a node: its literal arguments decoded, zero child costs."""
    literals = []
    kids = 0
    for sort, child in zip(sorts, children, strict=False):
        if sort in eq_sorts:
            kids += 1
        else:
            literals.append(_literal(nodes, child))
    c = cost(op, tuple(literals), (0.0,) * kids)
    return c if math.isfinite(c) else ILLEGAL_COST


def _literal(nodes: Mapping[str, Mapping[str, Any]], key: str) -> object:
    """A primitive node back as the Python value the cost functions see."""
    n = nodes[key]
    op = n["op"]
    if op == "vec-of":
        return tuple(_literal(nodes, c) for c in n["children"])
    if op.startswith('"'):
        return json.loads(op)
    if op in ("true", "false"):
        return op == "true"
    try:
        return int(op)
    except ValueError:
        try:
            return float(op)
        except ValueError:
            return op


# A picture of more e-nodes than this is unreadable (and slow to lay out): use the JSON.
MAX_PICTURE_NODES = 1500


class ExportError(Exception):
    """The e-graph cannot be written in the asked format (too large, Graphviz missing)."""


def dump(
    egraph: EGraph, roots: Sequence[str], path: str | Path, cost: CostModel | None = None
) -> None:
    """Write ``serialize(...)`` to ``path``: JSON for ``.json``, a Graphviz picture for
    ``.dot`` and ``.svg`` (the latter runs Graphviz's ``dot``)."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ExportError(f"the file name must end in {', '.join(FORMATS)}")
    data = serialize(egraph, roots, cost)
    if suffix in (".dot", ".svg"):
        text = to_dot(data)
        if suffix == ".svg":
            text = _svg(text)
        Path(path).write_text(text, encoding="utf-8")
        return
    Path(path).write_text(json.dumps(data, allow_nan=False) + "\n", encoding="utf-8")


def to_dot(data: dict[str, Any]) -> str:
    """Graphviz DOT of serialized e-graph data: one dashed box per e-class holding its
    e-nodes (operator and own cost), an edge from each e-node to the classes it reads; root
    classes in bold."""
    nodes = data["nodes"]
    if len(nodes) > MAX_PICTURE_NODES:
        raise ExportError(
            f"{len(nodes)} e-nodes are too many to draw (at most {MAX_PICTURE_NODES}); "
            "write the e-graph as .json instead"
        )
    ids = {k: f"n{i}" for i, k in enumerate(nodes)}
    classes: dict[str, list[str]] = {}
    for k, n in nodes.items():
        classes.setdefault(n["eclass"], []).append(k)
    roots = set(data["root_eclasses"])
    out = ["digraph egraph {", "  compound=true; rankdir=TB;",
           '  node [shape=box, fontname="monospace", fontsize=10];']
    for c, (cls, members) in enumerate(sorted(classes.items())):
        style = "bold" if cls in roots else "dashed"
        out.append(f'  subgraph cluster_{c} {{ style={style}; label="{_esc(cls)}";')
        for k in members:
            n = nodes[k]
            cost = "" if k.startswith("primitive-") else f"\\n{n['cost']:g}"
            out.append(f'    {ids[k]} [label="{_esc(n["op"])}{cost}"];')
        out.append("  }")
    for k, n in nodes.items():
        for child in n["children"]:
            if child in ids:
                out.append(f"  {ids[k]} -> {ids[child]};")
    out.append("}")
    return "\n".join(out) + "\n"


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def graphviz_dot(path: str | Path) -> str | None:
    """Graphviz's ``dot`` program when ``path`` is an SVG (None for other formats);
    ``ExportError`` when it is missing, so that a run can fail before the work."""
    import shutil

    if Path(path).suffix.lower() != ".svg":
        return None
    exe = shutil.which("dot")
    if exe is None:
        raise ExportError(
            "writing SVG needs Graphviz's `dot` program on PATH (e.g. apt install graphviz); "
            "write G.dot instead and render it elsewhere"
        )
    return exe


def _svg(dot_text: str) -> str:
    """SVG from DOT through Graphviz's ``dot`` program (an optional dependency)."""
    import subprocess

    exe = graphviz_dot("g.svg")
    assert exe is not None
    done = subprocess.run([exe, "-Tsvg"], input=dot_text, capture_output=True, text=True,
                          timeout=120, check=False)
    if done.returncode != 0:
        raise ExportError(f"Graphviz's dot failed: {done.stderr.strip()[:200]}")
    return done.stdout
