"""Windows: a long block optimized a few thousand ops at a time, each window in an e-graph of
its own (``eqsat.optimizer``), so that the memory and time of every phase grow linearly with the
program instead of with the product of its length and the depth of its data flow.

Why: one egglog command (loading a program, one saturation step) cannot be interrupted, and
greedy DAG extraction holds a set per e-class of what lies below it. In a window both are
bounded by the window's size, and between windows the memory budget is checked. What a window
costs: rewrites whose pattern spans a window boundary (a transpose of a transpose in two
windows) do not fire, and a value that several windows use is computed once, where it is
defined, whatever the later windows would have preferred. A block no longer than one window is
optimized whole, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eqsat.saturate import PhaseReport, SaturationReport, StopReason
from frontend.ir import Block, Operation, Value

# Ops per window: large enough that boundaries are rare (one op pair in 4,096), small enough
# that one window's e-graph stays within tens of MB.
WINDOW_OPS = 4096


@dataclass
class Window:
    """``ops[start:end]`` of a block, and the values it defines that later ops use."""

    start: int
    end: int
    ops: list[Operation]
    outputs: list[Value]


def plan_windows(block: Block, size: int = WINDOW_OPS) -> list[Window]:
    """The block's top-level ops cut into windows of ``size`` (the terminator in the last);
    one window when the block is no longer than ``size``. Linear in the block, nested ops
    included (a later op's region may use a value of an earlier window)."""
    ops = block.ops
    if len(ops) <= size:
        return [Window(0, len(ops), list(ops), [])]
    defined: dict[int, int] = {}  # id(value) -> index of the top-level op defining it
    for i, op in enumerate(ops):
        for r in op.results:
            defined[id(r)] = i
    last_use: dict[int, int] = {}  # id(value) -> last top-level op using it (nested uses too)
    for i, op in enumerate(ops):
        for o in op.walk() if op.regions else (op,):
            for v in o.operands:
                if id(v) in defined:
                    last_use[id(v)] = i
    out = []
    for start in range(0, len(ops), size):
        end = min(start + size, len(ops))
        window = ops[start:end]
        outputs = [r for op in window for r in op.results if last_use.get(id(r), -1) >= end]
        out.append(Window(start, end, window, outputs))
    return out


def merge_reports(reports: Sequence[SaturationReport]) -> SaturationReport:
    """One report for the windows: per phase, sizes and times summed, the peak the largest,
    and the stop reason the first one that is not saturation (what held some window back)."""
    if len(reports) == 1:
        return reports[0]
    by_name: dict[str, list[PhaseReport]] = {}
    for report in reports:
        for p in report.phases:
            by_name.setdefault(p.name, []).append(p)
    phases = []
    for name, ps in by_name.items():
        stops = [p.stop for p in ps if p.stop != StopReason.SATURATED]
        applied: dict[str, int] = {}
        searched: dict[str, int] = {}
        for p in ps:
            for rule, n in p.applied.items():
                applied[rule] = applied.get(rule, 0) + n
            for rule, n in p.searched.items():
                searched[rule] = searched.get(rule, 0) + n
        classes = [p.classes for p in ps]
        phases.append(
            PhaseReport(
                name=name,
                stop=stops[0] if stops else StopReason.SATURATED,
                iterations=tuple(it for p in ps for it in p.iterations),
                start_nodes=sum(p.start_nodes for p in ps),
                nodes=sum(p.nodes for p in ps),
                peak_nodes=max(p.peak_nodes for p in ps),
                classes=None if None in classes else sum(classes),  # type: ignore[arg-type]
                seconds=sum(p.seconds for p in ps),
                applied=applied,
                searched=searched,
                banned=tuple(sorted({r for p in ps for r in p.banned})),
            )
        )
    return SaturationReport(tuple(phases))
