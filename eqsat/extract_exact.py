"""Exact DAG extraction as an integer linear program (HiGHS, through ``highspy``).

The fast extractor (``extract(..., dag=True)``) is greedy: it finalizes e-classes cheapest first
and can miss a choice that is dearer locally but shares more. This one is optimal for DAG cost
(each chosen e-class paid once, own costs from the cost function with zero child costs), on
graphs small enough (``NODE_LIMIT`` reachable e-nodes, and a time limit: the cycle constraints
are weak, and a graph saturated with associativity and commutativity takes HiGHS 30 s at 1,200
e-nodes, while the kernel suite's acyclic graphs of a few hundred take milliseconds): it exists to measure how far the fast
one is from optimal (``experiments/extractors.py``) and for users who can afford it.

Model: a binary x_n per reachable e-node with a finite own cost; the root class picks one node;
a chosen node needs one chosen node in each child class; minimize the sum of own costs. Cycles:
within each strongly connected component of the class graph, a level per class with
``level(parent) >= level(child) + 1`` whenever the parent's node is chosen (big-M = component
size), so the chosen nodes form a DAG. A ``Tiled`` node's kernel is repeated ``count`` times and
not shared, so it is not part of the program: its kernel is priced and chosen as the fast
extractor does, and only its sources are children in the ILP.
"""

from __future__ import annotations

import math

import numpy as np

from eqsat.extract import (
    CostFn,
    Extraction,
    ExtractionError,
    Snapshot,
    _knuth,
    _reachable,
    _union,
    postorder,
)

NODE_LIMIT = 20_000
# Stand-in for an infinite own cost (an op the target forbids): such nodes are chosen only
# where nothing else exists, as the fast extractor does; the result's cost is still ``inf``.
FORBIDDEN = 1e12


def extract_exact(
    snap: Snapshot,
    root: str | tuple,
    cost: CostFn,
    *,
    node_limit: int = NODE_LIMIT,
    time_limit: float = 30.0,
) -> Extraction:
    """The minimum-DAG-cost term for ``root`` (``ExtractionError`` when the graph is too big,
    has no finite term, or the solver gives up)."""
    import highspy

    rcls = snap.root(root)
    nodes = _reachable(snap, rcls)
    if len(nodes) > node_limit:
        raise ExtractionError(
            f"the exact extractor handles at most {node_limit} e-nodes; this graph has "
            f"{len(nodes)} reachable from the root (use --extractor fast)"
        )
    greedy = _knuth(snap, rcls, cost, dag=True, full=True)
    sets = _greedy_sets(snap, greedy, cost)
    ops, owner, lits, kids = snap.ops, snap.owner, snap.cost_lits, snap.kids

    own: dict[int, float] = {}
    needs: dict[int, tuple[int, ...]] = {}
    for n in nodes:
        c = cost(ops[n], lits[n], (0.0,) * len(kids[n]))
        k = kids[n]
        if ops[n] == "Tiled" and len(k) >= 2:
            if k[1] not in sets:
                continue  # the kernel has no finite term
            outside = _union(sets, tuple(x for x in (k[0],) + k[2:] if x in sets))
            count: int = lits[n][0]  # type: ignore[assignment]
            c += count * sum(v for cl, v in sets[k[1]].items() if cl not in outside)
            needs[n] = tuple(dict.fromkeys((k[0],) + k[2:]))
        else:
            needs[n] = tuple(dict.fromkeys(k))
        if owner[n] not in needs[n] and not math.isnan(c):
            own[n] = c if math.isfinite(c) else FORBIDDEN
    col = {n: i for i, n in enumerate(own)}
    by_class: dict[int, list[int]] = {}
    for n in own:
        by_class.setdefault(owner[n], []).append(col[n])
    if rcls not in by_class:
        raise ExtractionError(f"root {root!r} has no finite term")

    h = _quiet_highs()
    h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("mip_rel_gap", 0.0)
    ncols = len(col)
    inf = highspy.kHighsInf
    h.addVars(ncols, np.zeros(ncols), np.ones(ncols))
    idx = np.arange(ncols, dtype=np.int32)
    h.changeColsIntegrality(ncols, idx, np.full(ncols, highspy.HighsVarType.kInteger))
    h.changeColsCost(ncols, idx, np.array([own[n] for n in own], dtype=np.float64))

    rows: list[tuple[float, float, list[int], list[float]]] = []
    root_cols = by_class[rcls]
    rows.append((1.0, 1.0, root_cols, [1.0] * len(root_cols)))
    for n, i in col.items():
        for c in needs[n]:  # x_n <= sum of the child class's x
            members = by_class.get(c, [])
            rows.append((-inf, 0.0, [i] + members, [1.0] + [-1.0] * len(members)))
    # Acyclicity inside strongly connected components of the class graph.
    edges: dict[int, set[int]] = {}
    for n in own:
        edges.setdefault(owner[n], set()).update(needs[n])
    comp = _components(edges)
    sizes: dict[int, int] = {}
    for c in comp.values():
        sizes[c] = sizes.get(c, 0) + 1
    level: dict[int, int] = {}
    for cls, c in comp.items():
        if sizes[c] > 1:
            level[cls] = ncols + len(level)
    if level:
        upper = np.array([float(sizes[comp[c]]) for c in level])
        h.addVars(len(level), np.zeros(len(level)), upper)
        for n, i in col.items():
            a = owner[n]
            for c in needs[n]:
                if a in level and c in level and comp[a] == comp[c]:
                    m = float(sizes[comp[a]]) + 1.0  # L_a - L_c - M x_n >= 1 - M
                    rows.append((1.0 - m, inf, [level[a], level[c], i], [1.0, -1.0, -m]))
    _add_rows(h, rows)
    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise ExtractionError(
            f"the exact extractor stopped: {h.modelStatusToString(status)} after "
            f"{time_limit:g} s on {len(nodes)} e-nodes (use --extractor fast)"
        )
    values = h.getSolution().col_value
    best: dict[int, int] = {}
    for n, i in col.items():
        if values[i] > 0.5:
            best.setdefault(owner[n], n)
    for cls, n in greedy.items():  # Tiled kernels: as the fast extractor chose them
        best.setdefault(cls, n)
    return snap.result(rcls, best, cost, dag=True)


def _quiet_highs() -> object:
    """A HiGHS instance that prints nothing: its constructor writes a banner to file
    descriptor 1 (C level, past ``sys.stdout``), which would corrupt ``eqsat opt``'s output."""
    import os
    import sys

    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    h.setOptionValue("output_flag", False)
    return h


def _greedy_sets(
    snap: Snapshot, best: dict[int, int], cost: CostFn
) -> dict[int, dict[int, float]]:
    """Classes below each class (own costs) for the greedy choices, as the fast one has them."""
    from eqsat.extract import dag_below

    sets: dict[int, dict[int, float]] = {}
    for cls in best:
        if cls in sets:
            continue
        for c in postorder(snap, cls, best):
            if c not in sets:
                own, below = dag_below(snap, best[c], sets, cost)
                below[c] = own
                sets[c] = below
    return sets


def _add_rows(h: object, rows: list[tuple[float, float, list[int], list[float]]]) -> None:
    starts, index, value = [], [], []
    for _, _, cols, vals in rows:
        starts.append(len(index))
        index.extend(cols)
        value.extend(vals)
    h.addRows(  # type: ignore[attr-defined]
        len(rows),
        np.array([r[0] for r in rows]),
        np.array([r[1] for r in rows]),
        len(index),
        np.array(starts, dtype=np.int32),
        np.array(index, dtype=np.int32),
        np.array(value, dtype=np.float64),
    )


def _components(edges: dict[int, set[int]]) -> dict[int, int]:
    """Strongly connected components (Tarjan, iterative): class -> component number."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    comp: dict[int, int] = {}
    stack: list[int] = []
    on: set[int] = set()
    counter = 0
    for start in list(edges):
        if start in index:
            continue
        work = [(start, iter(edges.get(start, ())))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(edges.get(w, ()))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp[w] = v
                    if w == v:
                        break
    return comp
