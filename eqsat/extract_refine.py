"""Refining a greedy DAG extraction against a whole-program cost term (register pressure).

The greedy extractor (``eqsat.extract``) prices each e-node on its own; a target's pressure
term (``program_cost``: spills over the block's schedule, ``eqsat.targets.pressure``) depends on
the whole chosen program. ``refine`` starts from the greedy choice and, while the program
term is positive, tries the other e-nodes of the e-classes holding the widest values (each
with the greedy choice below it), keeping a swap when the total (DAG cost plus program term)
drops. Each try is one pass over the chosen term, so the refinement costs a few dozen passes
at most (``OptimizeResult.seconds["refine"]``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace

from eqsat.extract import (
    DAG_SET_CAP,
    TILE_LEAVES,
    CostFn,
    Extraction,
    Snapshot,
    _knuth,
    postorder,
)

# e-classes whose alternatives are tried, widest values first; passes over them.
WIDEST = 8
PASSES = 2
# A trial is dropped on its DAG cost's lower bound only by more than this share of the best
# total (the bound sums in another order than the exact cost: rounding must not drop a gain).
MARGIN = 1e-9


def refine(
    snap: Snapshot,
    root: int,
    cost: CostFn,
    greedy: Extraction,
    program_cost: Callable[[Snapshot, int, Mapping[int, int]], float],
    width: Callable[[int], float],
    below: Mapping[int, int] | None = None,
) -> Extraction:
    """``greedy`` with its ``cost`` raised by the program term, or a better choice found by
    swapping e-nodes of the widest e-classes (``width``: e-class -> registers of its value).
    ``below``: the greedy DAG choice for every e-class reachable from ``root`` (computed here
    when not given; ``Snapshot.extract(..., every=...)`` gives it with the greedy term)."""
    extra = program_cost(snap, root, greedy.choice)
    best_total = greedy.dag_cost + extra
    if extra <= 0 or not math.isfinite(best_total):
        return replace(greedy, cost=best_total, program_cost=extra)
    if below is None:
        below = _knuth(snap, root, cost, True, full=True)  # a greedy choice for every class
    current = dict(below) | dict(greedy.choice)
    best = greedy
    for _ in range(PASSES):
        improved = False
        chosen = sorted(best.choice, key=width, reverse=True)[:WIDEST]
        for cls in chosen:
            for node in snap.members[cls]:
                if node == current.get(cls):
                    continue
                trial = dict(current)
                trial[cls] = node
                if not _acyclic(snap, root, trial):
                    continue
                # Priced first, the DAG cost bounded before it is computed; the term is built
                # only for a swap that is kept.
                order = postorder(snap, root, trial)
                extra_t = program_cost(snap, root, {c: trial[c] for c in order})
                lower = _dag_lower_bound(snap, root, trial, cost)
                if lower is not None and lower + extra_t >= best_total + MARGIN * abs(best_total):
                    continue  # the DAG cost is at least ``lower``: no gain
                dag = snap._dag_cost(root, order, trial, cost, None)
                if not math.isfinite(dag) or dag >= best_total:
                    continue
                if dag + extra_t < best_total:
                    ex = snap.result(root, trial, cost, dag=True)
                    best_total, best, current, extra = dag + extra_t, ex, trial, extra_t
                    improved = True
        if not improved or extra <= 0:
            break
    return replace(best, cost=best_total, program_cost=extra)


def _dag_lower_bound(
    snap: Snapshot, root: int, choice: Mapping[int, int], cost: CostFn
) -> float | None:
    """A lower bound of the DAG cost of ``choice`` (``Snapshot._dag_cost``) in one pass,
    without the capped sets below every class that the exact cost needs; None when a kernel
    is not simple enough to bound this way.

    Why it is one: the exact cost pays each class reached without entering a kernel once, and
    each ``Tiled`` node ``count`` times the classes of its kernel's set that its sources' sets
    lack. Those sets hold only classes reached without entering a kernel (``seen`` here), so
    the kernel classes outside ``seen`` are paid at least. A kernel whose classes (tile leaves
    and leaf classes included) number at most ``DAG_SET_CAP`` and reach no other class of
    ``seen`` and no nested ``Tiled`` has exactly those classes as its set."""
    ops, kids_of, lits = snap.ops, snap.kids, snap.cost_lits

    def own(node: int) -> float:
        return cost(ops[node], lits[node], (0.0,) * len(kids_of[node]))

    total = 0.0
    seen = {root}
    todo = [root]
    tiled = []
    while todo:
        node = choice[todo.pop()]
        k = kids_of[node]
        if ops[node] == "Tiled" and len(k) >= 2:
            tiled.append(node)
            k = (k[0],) + k[2:]
        else:
            total += own(node)
        for kid in k:
            if kid not in seen:
                seen.add(kid)
                todo.append(kid)
    for node in tiled:
        kernel = _kernel_classes(snap, kids_of[node][1], choice, seen)
        if kernel is None:
            return None
        count: float = lits[node][0]  # type: ignore[assignment]
        total += own(node) + count * sum(own(choice[x]) for x in kernel if x not in seen)
    return total


def _kernel_classes(
    snap: Snapshot, top: int, choice: Mapping[int, int], seen: set[int]
) -> set[int] | None:
    """The classes of the kernel rooted at ``top`` down to its tile leaves, or None unless the
    kernel's DAG set is exactly them (see ``_dag_lower_bound``)."""
    out = {top}
    todo = [top]
    while todo:
        x = todo.pop()
        node = choice[x]
        op = snap.ops[node]
        if op in TILE_LEAVES:
            continue
        if op == "Tiled" or (x in seen and snap.kids[node]):
            return None
        for kid in snap.kids[node]:
            if kid not in out:
                out.add(kid)
                if len(out) > DAG_SET_CAP:
                    return None
                todo.append(kid)
    return out


def _acyclic(snap: Snapshot, root: int, choice: Mapping[int, int]) -> bool:
    """Whether the term ``choice`` picks from ``root`` is finite (no class reaches itself)."""
    state: dict[int, int] = {}  # 1: on the path, 2: done
    stack: list[tuple[int, bool]] = [(root, False)]
    while stack:
        cls, leaving = stack.pop()
        if leaving:
            state[cls] = 2
            continue
        s = state.get(cls)
        if s == 2:
            continue
        if s == 1:
            return False
        node = choice.get(cls)
        if node is None:
            return False
        state[cls] = 1
        stack.append((cls, True))
        for k in snap.kids[node]:
            if state.get(k) == 1:
                return False
            if state.get(k) != 2:
                stack.append((k, False))
    return True
