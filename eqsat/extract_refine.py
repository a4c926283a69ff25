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
    _settled,
    _knuth,
    dag_below,
    dag_total,
    outer_classes,
    postorder,
)

# e-classes whose alternatives are tried, widest values first; passes over them.
WIDEST = 8
PASSES = 2


def refine(
    snap: Snapshot,
    root: int,
    cost: CostFn,
    greedy: Extraction,
    program_cost: Callable[..., float],
    width: Callable[[int], float],
    below: Mapping[int, int] | None = None,
) -> Extraction:
    """``greedy`` with its ``cost`` raised by the program term, or a better choice found by
    swapping e-nodes of the widest e-classes (``width``: e-class -> registers of its value).
    ``below``: the greedy DAG choice for every e-class reachable from ``root`` (computed here
    when not given; ``Snapshot.extract(..., every=...)`` gives it with the greedy term).
    ``program_cost(snap, root, choice, order)`` may be given the choice's schedule ``order``
    (``eqsat.extract.postorder``)."""
    extra = program_cost(snap, root, greedy.choice)
    best_total = greedy.dag_cost + extra
    if extra <= 0 or not math.isfinite(best_total):
        return replace(greedy, cost=best_total, program_cost=extra)
    if below is None:
        below = _knuth(snap, root, cost, True, full=True)  # a greedy choice for every class
    current = dict(below) | dict(greedy.choice)
    best = greedy
    kernels = KernelSets(snap, cost)  # the kernel sets of ``current``, kept while it holds
    for _ in range(PASSES):
        improved = False
        chosen = sorted(best.choice, key=width, reverse=True)[:WIDEST]
        for cls in chosen:
            for node in snap.members[cls]:
                if node == current.get(cls):
                    continue
                trial = dict(current)
                trial[cls] = node
                order = acyclic_postorder(snap, root, trial)
                if order is None:
                    continue
                # Priced first, the DAG cost bounded before it is computed; the term is built
                # only for a swap that is kept.
                extra_t = program_cost(snap, root, {c: trial[c] for c in order}, order)
                lower = _dag_lower_bound(snap, root, trial, cost, kernels.changing(cls))
                if lower is not None and lower + extra_t >= best_total:
                    continue  # the DAG cost is at least ``lower``: no gain
                dag = snap._dag_cost(root, order, trial, cost, None)
                if not math.isfinite(dag) or dag >= best_total:
                    continue
                if dag + extra_t < best_total:
                    ex = snap.result(root, trial, cost, dag=True)
                    best_total, best, current, extra = dag + extra_t, ex, trial, extra_t
                    kernels = KernelSets(snap, cost)
                    improved = True
        if not improved or extra <= 0:
            break
    return replace(best, cost=best_total, program_cost=extra)


def _dag_lower_bound(
    snap: Snapshot,
    root: int,
    choice: Mapping[int, int],
    cost: CostFn,
    kernels: KernelSets | None = None,
) -> float | None:
    """A lower bound of the DAG cost of ``choice`` (``Snapshot._dag_cost``) without the capped
    sets below every class that the exact cost needs; None when some kernel is not simple
    enough to bound this way.

    Why it is one: the exact cost pays each class reached without entering a kernel once (the
    same walk, ``dag_total``), and each ``Tiled`` node ``count`` times the classes of its
    kernel's set that its sources' sets lack. The sources' sets hold only classes reached
    without entering a kernel (``seen``), so a kernel class outside ``seen`` is surely paid.
    A simple kernel (at most ``DAG_SET_CAP`` classes down to its tile leaves, no nested
    ``Tiled``, no class of ``seen`` but leaves) has the same set here as in the exact cost,
    built by the same code in the same order; with no negative cost left out, the bound is at
    most the exact cost as computed (rounding is monotonic), and equal to the last bit when
    the kernel classes in ``seen`` cost nothing. ``kernels``: the sets of a choice that
    differs from ``choice`` in at most one class, reused where that class is not below."""
    ops, kids_of, lits = snap.ops, snap.kids, snap.cost_lits
    outer = list(outer_classes(snap, root, choice))
    seen = set(outer)
    if kernels is None:
        kernels = KernelSets(snap, cost)

    def tiled(node: int) -> float | None:
        _, kernel, inner, whole = kernels.get(kids_of[node][1], choice)
        count = lits[node][0]
        if kernel is None or not count >= 0 or not seen.isdisjoint(inner):  # type: ignore[operator]
            return None
        own = cost(ops[node], lits[node], (0.0,) * len(kids_of[node]))
        if seen.isdisjoint(kernel):  # the usual case: the sum below over every class, in order
            return own + count * whole  # type: ignore[operator]
        if any(v < 0 for c, v in kernel.items() if c in seen):
            return None
        return own + count * sum(v for c, v in kernel.items() if c not in seen)  # type: ignore

    return dag_total(snap, root, choice, cost, tiled, outer)


# A kernel's walk: the classes whose choice it read, its DAG set (None: not simple), its
# classes below the top with children (a kernel reaching one of those outside is not simple),
# and the sum of its set's costs, in the set's order (what a term that pays none of its classes
# outside adds, to the last bit: ``_dag_lower_bound``).
KernelEntry = tuple[frozenset[int], "dict[int, float] | None", tuple[int, ...], float]


class KernelSets:
    """The DAG sets of the kernels (``Tiled`` nodes' kernel classes) under one choice, for the
    refinement's trials that differ from it in one class (``changing``): a kernel's set reads
    only the choices of its own classes, so a trial reuses every set whose kernel does not
    hold the changed class, and most trials change no kernel (issue 20's programs: about 600
    kernels per window, each rebuilt per trial before)."""

    def __init__(self, snap: Snapshot, cost: CostFn) -> None:
        self.snap, self.cost = snap, cost
        self.memo: dict[int, KernelEntry] = {}
        self.changed: int | None = None

    def changing(self, cls: int) -> KernelSets:
        """This memo for a trial that changes the choice of ``cls`` (and of no other class)."""
        self.changed = cls
        return self

    def get(self, top: int, choice: Mapping[int, int]) -> KernelEntry:
        """The kernel rooted at ``top`` under ``choice`` (see ``KernelEntry``)."""
        hit = self.memo.get(top)
        if hit is not None and self.changed not in hit[0]:
            return hit
        entry = _kernel_set(self.snap, top, choice, self.cost)
        if self.changed is None or self.changed not in entry[0]:
            self.memo[top] = entry  # read no class the trial changed: the base choice's too
        return entry


def _kernel_set(
    snap: Snapshot, top: int, choice: Mapping[int, int], cost: CostFn
) -> KernelEntry:
    """The DAG set of the kernel rooted at ``top`` (what the exact cost computes for it), or
    None unless the kernel is simple (see ``_dag_lower_bound``; whether it reaches a class
    the term pays outside is for the caller, from the entry's inner classes)."""
    classes = {top}
    inner: list[int] = []
    todo = [top]
    while todo:
        node = choice[todo.pop()]
        if snap.ops[node] in TILE_LEAVES:
            continue
        if snap.ops[node] == "Tiled":
            return frozenset(classes), None, (), 0.0
        for kid in snap.kids[node]:
            if kid not in classes:
                if snap.kids[choice[kid]]:
                    inner.append(kid)
                classes.add(kid)
                if len(classes) > DAG_SET_CAP:
                    return frozenset(classes), None, (), 0.0
                todo.append(kid)
    sets: dict[int, dict[int, float]] = {}
    for c in postorder(snap, top, choice, stop=TILE_LEAVES):
        own, below = dag_below(snap, choice[c], sets, cost)
        sets[c] = _settled(below, c, own)
    return frozenset(classes), sets[top], tuple(inner), sum(sets[top].values())


def _acyclic(snap: Snapshot, root: int, choice: Mapping[int, int]) -> bool:
    """Whether the term ``choice`` picks from ``root`` is finite (no class reaches itself)."""
    return acyclic_postorder(snap, root, choice) is not None


def acyclic_postorder(snap: Snapshot, root: int, choice: Mapping[int, int]) -> list[int] | None:
    """``postorder(snap, root, choice)`` (the same order), or None when the chosen term is not
    finite: a class reaches itself or has no choice. One walk for the refinement's two
    questions about a trial.

    Why a kid that is open (expanded, not done) is a cycle: when a class is expanded, the
    open classes are exactly its ancestors on the walk's path (each marker below it on the
    stack is one), so such a kid reaches one of its own ancestors."""
    kids = snap.kids
    order: list[int] = []
    done: set[int] = set()
    open_: set[int] = set()
    stack: list[tuple[int, bool]] = [(root, False)]
    while stack:
        cls, expanded = stack.pop()
        if cls in done:
            continue
        if expanded:
            open_.discard(cls)
            done.add(cls)
            order.append(cls)
            continue
        node = choice.get(cls)
        if node is None:
            return None
        open_.add(cls)
        stack.append((cls, True))
        for k in kids[node]:
            if k in open_:
                return None
            if k not in done:
                stack.append((k, False))
    return order
