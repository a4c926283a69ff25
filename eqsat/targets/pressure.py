"""Register pressure of an extracted block: live vector registers over its schedule, and the
spills and reloads they cost when they exceed the target's ``registers``.

The schedule is the order the decoder emits the chosen term in (children before parents,
``eqsat.extract.postorder``). A value holds ``ceil(lanes / native lanes)`` registers from the
op that makes it to its last use, except values LLVM makes again where they are used instead
of keeping them (memory reads, constants, broadcasts, function arguments, and a gather
transpose of such a value: it sinks or rematerializes them) and a value whose only use is the
next op and is element-wise (both ops split into native registers and run register by
register). When the live registers rise above the target's registers, each register pushed
out costs a store and a reload.
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
# Transposes by one gather of lanes: of a value LLVM remakes (a memory read), LLVM builds each
# result register at its use from the memory lanes themselves (vbroadcastss/vmovsd/vmovhpd and
# blends in their O3 code: tests/test_costmodel.py), so the result is remade as well; a staged
# block transpose (TransposeShuffle4x4, ...) shuffles whole rows, held in registers.
GATHER_TRANSPOSES = frozenset({"TransposeShuffle", "TransposeElementwise", "Transpose"})
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
    ops, kids, types = snap.ops, snap.kids, snap.class_types
    at = {c: i for i, c in enumerate(order)}
    last: dict[int, int] = {}  # class -> position of its last user (positions only grow)
    user: dict[int, int] = {}  # class -> its one user, or -1 when it has several
    for i, c in enumerate(order):
        for k in kids[choice[c]]:
            last[k] = i
            u = user.get(k)
            if u is None:
                user[k] = c
            elif u != c:
                user[k] = -1
    regs_of: dict[Any, int] = {}  # type literal -> registers (0: none held)
    delta = [0.0] * (len(order) + 1)
    for c, end in last.items():
        i = at[c]
        node = choice[c]
        if _remade(ops[node]) or (
            ops[node] in GATHER_TRANSPOSES
            and all(types[k] is None or _remade(ops[choice[k]]) for k in kids[node])
        ):
            continue
        t = types[c]
        regs = regs_of.get(t)
        if regs is None:
            got = type_lanes(t) if t else None
            if got is None or got[1] is None or got[0] <= 1:
                regs = 0  # no lanes known, or a scalar (general-purpose registers)
            else:
                regs = -(-got[0] // model.native(got[1]))
            regs_of[t] = regs
        if not regs:
            continue
        if end == i + 1 and user[c] != -1 and _streams(ops[choice[order[end]]]):
            continue
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
