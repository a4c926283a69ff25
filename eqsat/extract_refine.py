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

from eqsat.extract import CostFn, Extraction, Snapshot, _knuth, postorder

# e-classes whose alternatives are tried, widest values first; passes over them.
WIDEST = 8
PASSES = 2


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
                # Priced first; the term is built only for a swap that is kept.
                order = postorder(snap, root, trial)
                dag = snap._dag_cost(root, order, trial, cost, None)
                if not math.isfinite(dag) or dag >= best_total:
                    continue
                extra_t = program_cost(snap, root, {c: trial[c] for c in order})
                if dag + extra_t < best_total:
                    ex = snap.result(root, trial, cost, dag=True)
                    best_total, best, current, extra = dag + extra_t, ex, trial, extra_t
                    improved = True
        if not improved or extra <= 0:
            break
    return replace(best, cost=best_total, program_cost=extra)


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
