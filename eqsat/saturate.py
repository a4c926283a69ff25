"""The saturation driver: phases of rulesets, stepped one iteration at a time, under budgets.

Like egg's ``Runner``, every phase stops for a reason given as data (``StopReason``) and records
each iteration. Two mechanisms bound growth:

- between iterations we read the e-node count (~4 us) and the clock, and stop at the limits
  (or before the time limit, when one more iteration as long as the last would overrun it);
- between iterations we also read the resident size when the phase has a memory budget, and
  stop (``StopReason.MEMORY``) before one more iteration like the last would pass
  ``SATURATE_MEMORY_SHARE`` of it (``eqsat.memory``);
- inside an iteration egglog's back-off scheduler holds back any rule whose matches exceed its
  match limit (the limit and the ban double each time the rule is banned), so one iteration
  cannot multiply the graph 30-fold before we get to look.

egglog 14 facts this relies on (measured, see experiments/bench_saturate.py):

- A scheduler declared as a top-level command, ``(let-scheduler NAME (back-off :match-limit M
  :ban-length B))``, persists across commands; ``(run-schedule (run-with NAME RULESET))`` is one
  iteration. A scheduler declared inside each ``run-schedule`` would be new every step: its
  queries re-match the whole graph and its bans never expire, so explosive rules never fire.
- ``back-off`` accepts only ``:match-limit`` (default 1000) and ``:ban-length`` (default 5);
  other keys such as ``:node-limit`` are accepted and silently ignored.
- Under the scheduler ``RunReport.updated`` is False on a step where rules were only banned, so
  "nothing changed" is not saturation by itself: a phase is saturated when a step changed nothing
  and no rule holds back matches (found by queries but not yet applied).
- A step with the scheduler reports a query pass (matches found) and an action pass (matches
  applied); both are kept, per rule.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from eqsat.egraph import EGraph
from eqsat.memory import MemoryBudget

# Defaults: egg's runner uses 30 iterations, 10,000 nodes, 5 s. Our graphs hold whole programs
# with types as terms (a 200-op program is ~1,100 e-nodes after saturation), so the node limit is
# higher; extraction of 50k e-nodes still takes well under a second.
MAX_ITERATIONS = 30
NODE_LIMIT = 50_000
TIME_LIMIT = 5.0
MATCH_LIMIT = 1000  # egglog's and egg's back-off default
BAN_LENGTH = 5  # egglog's and egg's back-off default
MAX_IDLE_STEPS = 1000  # steps where every rule with matches is banned: not counted, but capped


class StopReason(StrEnum):
    """Why a phase stopped (egg's ``StopReason``)."""

    SATURATED = "saturated"
    ITERATION_LIMIT = "iteration-limit"
    NODE_LIMIT = "node-limit"
    TIME_LIMIT = "time-limit"
    MEMORY = "memory"


# Saturation stops (stop reason "memory") when the process's resident size would pass this
# share of the memory budget after one more iteration like the last: extraction, decoding and
# printing the result need the rest.
SATURATE_MEMORY_SHARE = 0.5


@dataclass(frozen=True)
class Phase:
    """Rulesets run together until saturation or a budget runs out.

    ``match_limit=None`` runs plain ``(run RULESET 1)`` steps without the back-off scheduler.
    The time limit is checked between iterations: one iteration is never interrupted.
    """

    name: str
    rulesets: tuple[str, ...]
    max_iterations: int = MAX_ITERATIONS
    node_limit: int = NODE_LIMIT
    time_limit: float = TIME_LIMIT
    match_limit: int | None = MATCH_LIMIT
    ban_length: int = BAN_LENGTH
    memory: MemoryBudget | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rulesets", tuple(self.rulesets))
        if self.max_iterations < 0 or self.node_limit < 0 or self.time_limit < 0:
            raise ValueError(f"phase {self.name}: limits must be non-negative")
        if self.match_limit is not None and (self.match_limit < 0 or self.ban_length < 0):
            raise ValueError(f"phase {self.name}: match_limit and ban_length must be >= 0")


@dataclass(frozen=True)
class Iteration:
    """One step: sizes after it, its wall time, what it applied, which rules it held back.

    ``idle`` steps applied nothing because every rule with matches was banned; they do not count
    against ``max_iterations`` (egglog's scheduler does not fast-forward bans for us).
    """

    nodes: int
    seconds: float
    applied: int
    changed: bool
    banned: tuple[str, ...] = ()
    idle: bool = False


@dataclass(frozen=True)
class PhaseReport:
    """What one phase did. Matches are per rule, keyed by egglog's rule names."""

    name: str
    stop: StopReason
    iterations: tuple[Iteration, ...]
    start_nodes: int
    nodes: int
    peak_nodes: int
    classes: int | None  # None when not counted (``count_classes=False``)
    seconds: float
    applied: Mapping[str, int] = field(default_factory=dict)
    searched: Mapping[str, int] = field(default_factory=dict)
    banned: tuple[str, ...] = ()

    @property
    def num_iterations(self) -> int:
        """Iterations counted against the budget (idle steps excluded)."""
        return sum(1 for it in self.iterations if not it.idle)


@dataclass(frozen=True)
class SaturationReport:
    """All phases of one ``saturate`` call; ``format()`` is what ``eqsat opt --stats`` prints."""

    phases: tuple[PhaseReport, ...]

    @property
    def seconds(self) -> float:
        return sum(p.seconds for p in self.phases)

    def phase(self, name: str) -> PhaseReport:
        for p in self.phases:
            if p.name == name:
                return p
        raise KeyError(name)

    def format(self, labels: Mapping[str, str] | None = None) -> str:
        """A readable table per phase; ``labels`` maps egglog rule names to short ones."""
        out: list[str] = []
        for p in self.phases:
            idle = len(p.iterations) - p.num_iterations
            out.append(
                f"phase {p.name}: {p.stop} after {p.num_iterations} iterations"
                + (f" (+{idle} idle)" if idle else "")
                + f", {p.seconds * 1e3:.1f} ms; e-nodes {p.start_nodes} -> {p.nodes}"
                + f" (peak {p.peak_nodes})"
                + (f", e-classes {p.classes}" if p.classes is not None else "")
            )
            rules = sorted(set(p.searched) | set(p.applied), key=lambda r: -p.searched.get(r, 0))
            if not rules:
                continue
            names = [_label(r, labels) for r in rules]
            width = max(len("rule"), *(len(n) for n in names))
            out.append(f"  {'rule':<{width}}  {'found':>9}  {'applied':>9}")
            for rule, name in zip(rules, names, strict=True):
                mark = "  banned" if rule in p.banned else ""
                found, applied = p.searched.get(rule, 0), p.applied.get(rule, 0)
                out.append(f"  {name:<{width}}  {found:>9}  {applied:>9}{mark}")
        return "\n".join(out)


def _label(rule: str, labels: Mapping[str, str] | None) -> str:
    if labels and rule in labels:
        return labels[rule]
    for suffix in ("=>", "<="):
        if labels and rule.endswith(suffix) and rule[: -len(suffix)] in labels:
            return labels[rule[: -len(suffix)]] + suffix
    first = " ".join(rule.split())
    return first if len(first) <= 48 else first[:45] + "..."


def saturate(
    egraph: EGraph, phases: Phase | Iterable[Phase], *, count_classes: bool = True
) -> SaturationReport:
    """Run each phase in order on ``egraph``; return what happened.

    ``count_classes=False`` skips the e-class count at the end of each phase (O(graph)).
    """
    if isinstance(phases, Phase):
        phases = (phases,)
    return SaturationReport(tuple(_run_phase(egraph, p, count_classes) for p in phases))


def _run_phase(egraph: EGraph, phase: Phase, count_classes: bool) -> PhaseReport:
    start = time.perf_counter()
    nodes = start_nodes = peak = egraph.num_nodes()
    step = _step_command(egraph, phase)
    iterations: list[Iteration] = []
    applied: dict[str, int] = {}
    searched: dict[str, int] = {}
    pending: dict[str, int] = {}  # rule -> matches found but held back by the scheduler
    stop = StopReason.ITERATION_LIMIT
    counted = idle_run = 0
    memory = phase.memory
    resident = memory.used() if memory is not None else 0
    while step is not None and counted < phase.max_iterations:
        t0 = time.perf_counter()
        stats = egraph.run_schedule(step, f"<phase {phase.name}>")
        nodes = egraph.num_nodes()
        peak = max(peak, nodes)
        for rule, n in stats.searched.items():
            searched[rule] = searched.get(rule, 0) + n
            if n:
                pending[rule] = pending.get(rule, 0) + n
        for rule, n in stats.applied.items():
            applied[rule] = applied.get(rule, 0) + n
            pending.pop(rule, None)  # an unbanned rule applies all the matches it held
        total = sum(stats.applied.values())
        idle = not stats.changed and total == 0 and bool(pending)
        idle_run = idle_run + 1 if idle else 0
        counted += not idle
        now = time.perf_counter()
        iterations.append(
            Iteration(nodes, now - t0, total, stats.changed, tuple(sorted(pending)), idle)
        )
        if not stats.changed and not pending:
            stop = StopReason.SATURATED
            break
        if nodes > phase.node_limit:
            stop = StopReason.NODE_LIMIT
            break
        # Stop at the budget, or before it when another iteration as long as the last one
        # would end more than 10% past it: one iteration cannot be interrupted.
        if now - start >= phase.time_limit or (
            (now - start) + (now - t0) > phase.time_limit * 1.1
        ):
            stop = StopReason.TIME_LIMIT
            break
        if memory is not None:  # stop before one more step like the last passes the share
            before, resident = resident, memory.used()
            if 2 * resident - before > memory.limit * SATURATE_MEMORY_SHARE:
                stop = StopReason.MEMORY
                break
        if idle_run >= MAX_IDLE_STEPS:
            break  # bans that long mean the rules are exploding: report the iteration limit
    if step is None:
        stop = StopReason.SATURATED
    classes = egraph.num_classes() if count_classes else None
    return PhaseReport(
        name=phase.name,
        stop=stop,
        iterations=tuple(iterations),
        start_nodes=start_nodes,
        nodes=nodes,
        peak_nodes=peak,
        classes=classes,
        seconds=time.perf_counter() - start,
        applied=applied,
        searched=searched,
        banned=tuple(sorted(pending)),
    )


def _step_command(egraph: EGraph, phase: Phase) -> str | None:
    """Declare what the phase needs (combined ruleset, scheduler); return one step's command."""
    target = _target_ruleset(egraph, phase.rulesets)
    if target is None:
        return None
    if phase.match_limit is None:
        return f"(run {target} 1)"
    scheduler = egraph.fresh_name(f"bo_{_ident(phase.name)}")
    egraph.run(
        f"(let-scheduler {scheduler} (back-off :match-limit {phase.match_limit}"
        f" :ban-length {phase.ban_length}))",
        f"<phase {phase.name}>",
    )
    return f"(run-schedule (run-with {scheduler} {target}))"


def _target_ruleset(egraph: EGraph, rulesets: Sequence[str]) -> str | None:
    if not rulesets:
        return None
    if len(rulesets) == 1:
        return rulesets[0]
    name = egraph.fresh_name("phase")
    egraph.run(f"(unstable-combined-ruleset {name} {' '.join(rulesets)})", "<phase>")
    return name


def _ident(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
