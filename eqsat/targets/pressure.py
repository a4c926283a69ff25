"""Register pressure of an extracted block: live vector registers over its schedule, and the
spills and reloads they cost when they exceed the target's ``registers``.

The schedule is the order the decoder emits the chosen term in (children before parents,
``eqsat.extract.postorder``). A value holds ``ceil(lanes / native lanes)`` registers from the
op that makes it to its last use, except values LLVM makes again where they are used instead
of keeping them (memory reads, constants, broadcasts, function arguments: it sinks or
rematerializes them) and a value whose only use is the next op and is element-wise (both
ops split into native registers and run register by register). When the live registers rise
above the target's registers, each register pushed out costs a store and a reload.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from eqsat.extract import Snapshot, postorder
from eqsat.schema import by_constructor
from eqsat.targets.widths import type_lanes

# MLIR ops whose values LLVM remakes at their uses rather than keeping them live.
REMADE = frozenset(
    {
        "arith.constant",
        "vector.broadcast",
        "vector.splat",
        "vector.step",
        "vector.constant_mask",
        "vector.create_mask",
        "vector.load",
        "vector.maskedload",
        "vector.transfer_read",
        "vector.gather",
        "vector.shape_cast",
    }
)
# Leaves and strategy constructors whose values are remade the same way.
REMADE_NODES = frozenset({"Arg", "Outer", "TileOf", "TileAt"})
STREAMING_PREFIXES = ("arith.", "math.", "vector.fma", "llvm.intr.fma", "llvm.intr.fmuladd")
STREAMING_OPS = frozenset({"vector.store", "vector.transfer_write", "vector.maskedstore"})


def _mlir_op(cons: str) -> str | None:
    c = by_constructor().get(cons)
    return c.op if c is not None else None


# Both read only the constructor's name: asked once per name (the refinement asks for every
# class of the block at every trial).
@cache
def _remade(cons: str) -> bool:
    if cons in REMADE_NODES or cons.startswith("TransferRead") or cons.startswith("Broadcast"):
        return True
    return _mlir_op(cons) in REMADE


@cache
def _streams(cons: str) -> bool:
    op = _mlir_op(cons) or ""
    return op.startswith(STREAMING_PREFIXES) or op in STREAMING_OPS or cons.startswith(
        "TransferWrite"
    )


def live_registers(
    model: Any,
    snap: Snapshot,
    root: int,
    choice: Mapping[int, int],
    order: Sequence[int] | None = None,
) -> list[float]:
    """Live vector registers between consecutive ops of the block's schedule (``order``: that
    schedule, ``postorder(snap, root, choice)``, when the caller has it)."""
    if order is None:
        order = postorder(snap, root, choice)
    at = {c: i for i, c in enumerate(order)}
    last: dict[int, int] = {}
    users: dict[int, set[int]] = {}
    for i, c in enumerate(order):
        for k in snap.kids[choice[c]]:
            last[k] = max(last.get(k, -1), i)
            users.setdefault(k, set()).add(c)
    delta = [0.0] * (len(order) + 1)
    for c, end in last.items():
        i = at[c]
        node = choice[c]
        if _remade(snap.ops[node]):
            continue
        got = type_lanes(snap.class_types[c]) if snap.class_types[c] else None
        if got is None or got[1] is None:
            continue
        lanes, elem = got
        if lanes <= 1:
            continue  # scalars live in general-purpose registers
        only = users[c]
        if end == i + 1 and len(only) == 1 and _streams(snap.ops[choice[order[end]]]):
            continue
        regs = -(-lanes // model.native(elem))
        delta[i] += regs  # live over the gaps after op i up to the gap before its last use
        delta[end] -= regs
    live, out = 0.0, []
    for d in delta[:-1]:
        live += d
        out.append(live)
    return out


def spill_cost(
    model: Any,
    snap: Snapshot,
    root: int,
    choice: Mapping[int, int],
    order: Sequence[int] | None = None,
) -> float:
    """Cycles of the stores and reloads of the registers pushed out over the schedule."""
    budget = model.target.registers
    spilled, before = 0.0, 0.0
    for live in live_registers(model, snap, root, choice, order):
        excess = max(0.0, live - budget)
        spilled += max(0.0, excess - before)
        before = excess
    if not spilled:
        return 0.0
    per = model.per_register("vector.store", None) + model.per_register("vector.load", None)
    return spilled * per if math.isfinite(per) else spilled
