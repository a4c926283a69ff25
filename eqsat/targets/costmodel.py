"""A target's cost model for extraction: an estimate of cycles.

``TargetCost(target)`` is a cost function for ``eqsat.extract`` (``cost(op, literals,
child_costs)``). A node's constructor maps to its MLIR op through the schema; the op's own cost
is ``registers x cycles per register`` where ``registers = ceil(lanes / native lanes)`` for the
op's element type, plus one shuffle when the lanes overflow native registers unevenly: a wide
op costs what its split into native registers costs. The cycles per register are the target
file's ``[cost]`` table (a number, or a number per element type with a ``default``, else its
``default`` key): reciprocal throughputs from public instruction tables, whose source each
shipped file names. ``inf`` marks what a target cannot do; no cost carries a penalty constant.

Ops that move a piece of a vector (extract, insert, strided slices) move whole native
registers for free (in the code generator's layout a row of whole registers is those
registers) and cost a shuffle per register otherwise; a float scalar taken out of a register's
first lane is free too (scalar float ops read it in place).

Register pressure is priced twice: inside a strategy by its profile's ``LIVE`` and ``HELD``
pieces (below), and over a whole extracted block by ``program_cost`` (``eqsat.targets.pressure``):
live vector registers over the block's schedule, and a spill and a reload for each register
beyond the target's ``registers``. Extraction picks by throughput, then refines the choice
against the pressure term (``eqsat.extract_refine``).

At ``--emit hwv`` an op with no HWV form (an n-D vector op, a vector wider than one native
register, a compound op such as ``vector.contract`` or ``vector.transpose``) costs ``HWV_GAP``
times more, so that the forms the legalize rules build (1-D native ops, LLVM intrinsics,
``x86vector``/``arm_neon`` ops) win ties against the VV ops they replace.

Horizontal reductions stream their source a register at a time: see ``reduction_price``. A
transpose done as one shuffle costs each output register one two-input shuffle per source
row it gathers from beyond the first; a shuffle that moves values across the lanes a
target's shuffles stay within (``shuffle_lane_bits``, x86 AVX: 128 bits) costs a lane
permute per source register and a blend (``shuffle_price``).

Lowering strategies cost what they expand to, under the same model (``expansions.py``), with
a few pseudo-ops that only a profile can state: ``LIVE`` (accumulators a row block keeps live:
spills beyond the target's ``accumulators``), ``HELD`` (operands made once and kept in the
registers the accumulators leave: a reload per read beyond them), ``REGROUP`` (a piece moved
in or out of a row: free when it is whole registers), ``FOLD`` (a float reduction whose order is fixed unless
``reassoc``), ``GATHER`` and ``EMITTED_TRANSPOSE`` (a transpose the expansion emits, which the
next extraction round lowers: the cheaper of a gather and staged block shuffles). ``Tiled``
nodes multiply their kernel by their tile count (see ``eqsat.cost.table_cost``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from eqsat.cost import FREE
from eqsat.extract import Literal
from eqsat.schema import by_constructor
from eqsat.strategies import STRATEGIES
from eqsat.strategies_transpose import PAIR_MASKS, stage_masks
from eqsat.targets.expansions import (
    EMITTED_TRANSPOSE,
    FOLD,
    GATHER,
    HELD,
    LIVE,
    REGROUP,
    reduction_op,
)
from eqsat.targets.widths import BITS, contract_space, lanes_apart, node_types, type_lanes

# At --emit hwv, ops without a hardware form cost this factor more.
HWV_GAP = 1.5
# Ops with a hardware form when every vector they touch is 1-D and at most native width
# (besides every arith and math op and the named HWV ops of ``hwv_names``).
HWV_VECTOR_OPS = frozenset(
    {
        "vector.broadcast",
        "vector.splat",
        "vector.shuffle",
        "vector.extract",
        "vector.insert",
        "vector.extractelement",
        "vector.insertelement",
        "vector.from_elements",
        "vector.fma",
        "vector.reduction",
        "vector.load",
        "vector.store",
        "vector.maskedload",
        "vector.maskedstore",
        "vector.gather",
        "vector.scatter",
        "vector.compressstore",
        "vector.expandload",
        "vector.create_mask",
        "vector.constant_mask",
        "vector.step",
        "vector.bitcast",
        "vector.interleave",
        "vector.deinterleave",
    }
)
HWV_DIALECTS = ("arith.", "math.", "llvm.", "x86vector.", "arm_neon.")

# Ops that move a piece of a vector: priced by the piece, not by the whole vector they index.
# Value: which type is the piece ("result" or the operand's position).
PIECE: dict[str, str | int] = {
    "vector.extract": "result",
    "vector.extractelement": "result",
    "vector.extract_strided_slice": "result",
    "vector.scalable.extract": "result",
    "vector.insert": 0,
    "vector.insertelement": 0,
    "vector.insert_strided_slice": 0,
    "vector.scalable.insert": 0,
}
# Horizontal reductions (see ``TargetCost.reduction_price``).
REDUCTIONS = frozenset(
    {"vector.reduction"}
    | {
        f"llvm.intr.vector.reduce.{k}"
        for k in (
            "fadd fmul add mul and or xor smax smin umax umin fmax fmin fmaximum fminimum"
        ).split()
    }
)
# A transfer whose map does not walk the last memref dim along the vector's last dim reads or
# writes each register's lanes from addresses apart: the code generator emits a gather or a
# scatter per register (eqsat/codegen/vector_memory.py, ``_read``/``_write``).
STRIDED = {"vector.transfer_read": "vector.gather", "vector.transfer_write": "vector.scatter"}
# Element types whose scalars live in the vector registers: a scalar op reads a register's
# first lane as it is (x86 SSE/AVX ss/sd forms; AArch64's s/d registers are the low lanes of
# v), so taking out lane 0 of a register costs nothing.
SCALAR_IN_LANE0 = frozenset({"f32", "f64"})
# LLVM reductions whose order is fixed unless their flags say ``reassoc``.
ORDERED_INTRINSICS = frozenset({"llvm.intr.vector.reduce.fadd", "llvm.intr.vector.reduce.fmul"})


class TargetCost:
    """The cost function of one target (see module docstring).

    ``overrides`` map constructor names (``Contract``) or MLIR op names to a per-register cost
    (for a strategy constructor: a flat cost replacing its expansion)."""

    def __init__(
        self,
        target: Any,
        overrides: Mapping[str, float] | None = None,
        emit: str = "vv",
        reassoc: bool = False,
    ) -> None:
        self.target = target
        self.hwv = emit == "hwv"
        self.reassoc = reassoc
        self.table: dict[str, Any] = dict(target.cost)
        default = self.table.pop("default", 1.0)
        self.default: Any = default
        self.overrides = {self._op_name(k): float(v) for k, v in (overrides or {}).items()}
        self._own: dict[tuple[str, tuple[Literal, ...]], float] = {}

    @staticmethod
    def _op_name(name: str) -> str:
        c = by_constructor().get(name)
        return c.op if c is not None else name

    # -- pricing -------------------------------------------------------------------------------
    def native(self, elem: str | None) -> int:
        """Native lanes of an element type (a guess from the register width when unlisted)."""
        lanes = self.target.lanes(elem) if elem else None
        if lanes:
            return lanes
        return max(1, self.target.vector_bits // BITS.get(elem or "", 32))

    def per_register(self, op: str, elem: str | None) -> float:
        """The ``[cost]`` entry of ``op`` for ``elem`` (overrides first, then ``default``)."""
        if op in self.overrides:
            return self.overrides[op]
        for entry in (self.table.get(op), self.default):
            if isinstance(entry, dict):
                entry = entry.get(elem, entry.get("default")) if elem else entry.get("default")
            if entry is not None:
                return float(entry)
        return 1.0

    def has_hwv_form(self, op: str, width: int, elem: str | None, rank: int = 1) -> bool:
        """Whether ``op`` on values of at most ``width`` lanes and ``rank`` dims is one
        hardware op of this target (or an intrinsic that is)."""
        if not (op.startswith(HWV_DIALECTS) or op in HWV_VECTOR_OPS):
            return False
        return rank <= 1 and width <= self.native(elem)

    def price(
        self,
        op: str,
        lanes: int,
        elem: str | None,
        width: int | None = None,
        rank: int = 1,
        gather: int = 0,
    ) -> float:
        """Own cost of ``op`` over ``lanes`` lanes of ``elem``; ``width`` (default: lanes) is
        the widest value it touches (for the HWV test); ``rank`` the most dims of a vector it touches (for the HWV test at ``--emit hwv``); ``gather`` the
        source rows each output register of a transpose reads."""
        if op == "vector.shuffle" and isinstance(width, tuple):  # a piece with its mask
            return self.shuffle_price(width, lanes, elem)
        native = self.native(elem)
        registers = max(1, -(-lanes // native))
        if op == LIVE:  # each register beyond the target's accumulators spills: store + load
            spilled = max(0, registers - self.target.accumulators)
            return spilled * (
                self.per_register("vector.store", elem) + self.per_register("vector.load", elem)
            )
        if op == HELD:  # registers the accumulators leave; beyond them, a reload per read
            spilled = max(0, registers - (self.target.registers - self.target.accumulators))
            return spilled * self.per_register("vector.load", elem)
        if op == REGROUP or op in PIECE:  # whole registers move nothing
            if lanes % native == 0:
                return 0.0
            if op == REGROUP:  # else a shuffle per register
                return registers * self.per_register("vector.shuffle", elem)
        if op in REDUCTIONS or op == FOLD:
            return self.reduction_price(op, lanes, elem, registers)
        if op == EMITTED_TRANSPOSE:
            gathered = self.price(GATHER, lanes, elem, width)
            return min([gathered] + self._staged_prices(lanes, width or 1, elem))
        sources = 1  # shuffles per output register
        if op == GATHER:  # each output register merges its source registers two at a time
            rows = min(native, max(1, width or 1))  # source registers it draws on
            op, sources, width = "vector.shuffle", max(1, rows - 1), lanes
        elif op == "vector.transpose" and gather:  # left to code generation: a gather
            sources = max(1, min(native, gather) - 1)
        per = self.per_register(op, elem)
        if per == math.inf:
            return math.inf
        cost = registers * per * sources
        if lanes > native and lanes % native:  # the ragged last register needs a shuffle
            cost += self.per_register("vector.shuffle", elem)
        if self.hwv and not self.has_hwv_form(op, width or lanes, elem, rank):
            cost *= HWV_GAP
        return cost

    def shuffle_price(self, mask: tuple[int, ...], in_lanes: int, elem: str | None) -> float:
        """A shuffle of two ``in_lanes``-lane vectors by ``mask``, per output register: nothing
        when it is a whole source register in order, else one shuffle, unless the target's
        shuffles stay within lanes (``shuffle_lane_bits``) and the register's values cross
        them without moving whole lanes: then a lane permute of each source register it reads
        and a blend (LLVM's X86 lowering: vpermpd/vpermps, vblendpd)."""
        native = self.native(elem)
        per = self.per_register("vector.shuffle", elem)
        span = self.target.shuffle_lane_bits // BITS.get(elem or "", 32) if elem else 0
        cost = 0.0
        for r in range(0, len(mask), native):
            chunk = mask[r : r + native]
            if len(chunk) == native and _whole_register(chunk, in_lanes, native):
                continue  # one source register as it is: a register move, no instruction
            if 0 < span < native and _crosses_lanes(chunk, in_lanes, native, span):
                sources = {(m // in_lanes, m % in_lanes // native) for m in chunk if m >= 0}
                cost += (len(sources) + 1) * per
            else:
                cost += per
        if len(mask) > native and len(mask) % native:  # the ragged last register
            cost += per
        if self.hwv and not self.has_hwv_form("vector.shuffle", len(mask), elem):
            cost *= HWV_GAP
        return cost

    def _staged_prices(self, lanes: int, rows: int, elem: str | None) -> list[float]:
        """A rows x (lanes / rows) transpose by staged block shuffles (TransposeShuffle4x4,
        8x8, 16x16, and TransposeShuffle4x4Pairs for 64-bit elements, as its rule requires):
        log2(B) shuffles of B lanes per row of each B x B block, plus moving the pieces in and
        out of rows when B is not whole registers."""
        out = []
        cols = lanes // max(1, rows)
        kinds = [(b, stage_masks(b)) for b in (4, 8, 16)]
        if elem in ("f64", "i64"):  # the rule: an element type whose name holds "64"
            kinds.append((4, PAIR_MASKS))
        for b, masks in kinds:
            if rows % b or cols % b:
                continue
            blocks = lanes // (b * b)
            names = ["lo32", "hi32", "lo64", "hi64"] + ["lo", "hi"] * (b.bit_length() - 3)
            cost = blocks * sum(b // 2 * self.shuffle_price(tuple(masks[n]), b, elem) for n in names)
            if blocks > 1:
                cost += 2 * blocks * b * self.price(REGROUP, b, elem)
            out.append(cost)
        return out

    def reduction_price(self, op: str, lanes: int, elem: str | None, registers: int) -> float:
        """A horizontal reduction streams its source a register at a time (no register
        budget): as a tree, one lane-wise combine per extra register and one horizontal
        reduction of the last; a float add/mul whose order is fixed (``FOLD``, or an LLVM
        intrinsic without ``reassoc``) is a chain of one lane extract and one scalar combine
        per lane, unless reassociation is allowed."""
        if op == FOLD:
            op = "vector.reduction"
            if not self.reassoc:  # per lane: take it out, add it to the running value
                taken = lanes - registers if elem in SCALAR_IN_LANE0 else lanes
                cost = taken * self.per_register("vector.extract", elem)
                cost += lanes * self.per_register("arith.addf", elem)
                return cost * self._gap(op, lanes, elem)
        own = self.per_register(op, elem)
        if own == math.inf:
            return math.inf
        tree = (registers - 1) * self.per_register("arith.addf", elem) + own
        return tree * self._gap(op, lanes, elem)

    def _gap(self, op: str, lanes: int, elem: str | None) -> float:
        return HWV_GAP if self.hwv and not self.has_hwv_form(op, lanes, elem) else 1.0

    def op_cost(self, op: str, literals: tuple[Literal, ...]) -> float:
        """Own cost of one MLIR op node from its literals (types appended by the snapshot)."""
        res, operands = node_types(literals)
        shapes = [type_lanes(t) for t in (res, *operands)]
        known = [s for s in shapes if s is not None]
        if not known:
            return self.price(op, 1, None)
        elem = next((e for _, e in known if e), None)
        rank = max((len(t[1]) for t in (res, *operands) if _is_vt(t)), default=0)
        if op == "vector.extract" and _lane0_scalar(literals[0], res, self.native(elem or "")):
            return 0.0  # the scalar is the register's first lane: no instruction
        piece = PIECE.get(op)
        if piece is not None:
            i = 0 if piece == "result" else 1 + int(piece)
            at = shapes[i] if i < len(shapes) else None
            return self.price(op, at[0] if at else 1, at[1] if at else elem, rank=rank)
        width = max(n for n, _ in known)
        lanes = width
        if op in REDUCTIONS:  # priced by the source it reduces (the last typed operand)
            src = max((t for t in shapes[1:] if t is not None), key=lambda t: t[0], default=known[0])
            if op == "vector.reduction":
                op = reduction_op(str(literals[0]), src[1] or elem)
            elif op in ORDERED_INTRINSICS and "reassoc" not in str(literals[0]):
                op = FOLD
            return self.price(op, src[0], src[1] or elem)
        if op == "vector.contract":
            lanes = contract_space(literals[0], operands) or width
        elif op == "llvm.intr.matrix.multiply" and all(isinstance(x, int) for x in literals[:3]):
            lanes = math.prod(literals[:3])  # type: ignore[arg-type]  # rows x inner x columns
        elif op == "vector.outerproduct" and shapes[0] is not None:
            lanes = shapes[0][0]
        elif op == "vector.shuffle" and _is_mask(literals[0]) and len(shapes) > 1 and shapes[1]:
            return self.shuffle_price(tuple(literals[0]), shapes[1][0], elem)  # type: ignore[arg-type]
        elif op in STRIDED and lanes_apart(operands):
            op = STRIDED[op]
        elif op == "vector.transpose" and res is not None and _is_vt(res):
            perm = tuple(literals[0])  # type: ignore[arg-type]
            moves_rows = bool(perm) and perm[-1] != len(perm) - 1
            gather = res[1][-1] if moves_rows and res[1] else 0
            return self.price(op, lanes, elem, width, rank, gather)
        return self.price(op, lanes, elem, width, rank)

    def own(self, cons: str, literals: tuple[Literal, ...]) -> float:
        """Own cost of a node (children excluded), cached per (constructor, literals)."""
        key = (cons, literals)
        got = self._own.get(key)
        if got is None:
            got = self._own[key] = self._own_uncached(cons, literals)
        return got

    def _own_uncached(self, cons: str, literals: tuple[Literal, ...]) -> float:
        if cons in FREE or cons in ("TileOf", "TileAt", "Tiled"):
            return 0.0
        strategy = STRATEGIES.get(cons)
        if strategy is not None:
            if cons in self.overrides:
                return self.overrides[cons]
            if cons in self.table:
                return self.per_register(cons, None)
            from eqsat.targets.expansions import expansion

            pieces = expansion(cons, literals)
            if pieces is None:  # no profile: its VV op count at the default price
                return strategy.cost(literals) * self.per_register("", None)
            return sum(n * self.price(op, k, elem, width) for op, k, elem, width, n in pieces)
        if cons == "Masked":
            return self.masked_cost(literals)
        c = by_constructor().get(cons)
        if c is None:
            return self.per_register(cons, None)
        return self.op_cost(c.op, literals)

    def masked_cost(self, literals: tuple[Literal, ...]) -> float:
        """What a ``vector.mask`` adds to the op it masks: one select of the op's element
        type per register of the mask (eqsat/codegen/vector_reduce.py fold selects each step
        under the mask; MLIR's lower-vector-mask selects too), so that a mask the rules fold
        away (rules/canonicalize/mask.egg: a select of the neutral element) is no dearer.
        ``--cost Masked=COST`` replaces it (``inf``: every mask a rule folds is folded; one
        that nothing else computes is kept)."""
        if "Masked" in self.overrides:
            return self.overrides["Masked"]
        res, operands = node_types(literals)
        mask = type_lanes(operands[0]) if operands else None
        data = type_lanes(res) if res is not None else None
        elem = data[1] if data else None
        return self.price("arith.select", mask[0] if mask else 1, elem or "f32")

    def program_cost(
        self, snap: Any, root: int, choice: Mapping[int, int], order: Sequence[int] | None = None
    ) -> float:
        """The whole-block term: spills and reloads of the registers live beyond the target's
        (``eqsat.targets.pressure``), in cycles; ``order``: the block's schedule
        (``eqsat.extract.postorder`` of ``choice``) when the caller has it."""
        from eqsat.targets.pressure import spill_cost

        return spill_cost(self, snap, root, choice, order)

    def class_registers(self, snap: Any) -> Callable[[int], float]:
        """e-class -> native registers its value spans (0 for non-vectors)."""
        types = snap.class_types

        def registers(cls: int) -> float:
            got = type_lanes(types[cls]) if types[cls] else None
            return -(-got[0] // self.native(got[1])) if got and got[1] else 0.0

        return registers

    def __call__(
        self, op: str, literals: tuple[Literal, ...], child_costs: tuple[float, ...]
    ) -> float:
        if op == "Tiled":  # (Tiled t count tile kernel srcs): the kernel runs once per tile
            count: int = literals[0]  # type: ignore[assignment]
            return child_costs[0] + count * child_costs[1] + sum(child_costs[2:])
        if op in ("TileOf", "TileAt"):  # a slice; its source is paid by the enclosing Tiled
            return 0.0
        return self.own(op, literals) + sum(child_costs)


def _lane0_scalar(position: Any, res: Any, native: int) -> bool:
    """Whether an extract at static ``position`` takes out a float scalar (type ``res``) that is
    the first lane of a native register (the last index a multiple of the native lanes)."""
    scalar = isinstance(res, tuple) and len(res) == 2 and res[1] in SCALAR_IN_LANE0
    if not (scalar and _is_mask(position)):
        return False
    return position[-1] >= 0 and position[-1] % native == 0


def _is_mask(x: Any) -> bool:
    return isinstance(x, tuple) and bool(x) and all(isinstance(m, int) for m in x)


def _whole_register(chunk: tuple[int, ...], in_lanes: int, native: int) -> bool:
    """Whether one output register of a shuffle is one whole native register of a source, in
    order (LLVM emits no instruction for it: the register is renamed, as for an ``extract`` of
    whole registers)."""
    first = chunk[0]
    return (
        first >= 0
        and (first % in_lanes) % native == 0
        and (first % in_lanes) + native <= in_lanes
        and all(m == first + i for i, m in enumerate(chunk))
    )


def _crosses_lanes(chunk: tuple[int, ...], in_lanes: int, native: int, span: int) -> bool:
    """Whether one output register of a shuffle (``chunk``: its mask entries, -1 undefined)
    moves a value across the ``span``-element lanes of its registers, other than as a whole
    lane in order (vperm2f128, vinsertf128: one instruction)."""
    for g in range(0, len(chunk), span):
        part = chunk[g : g + span]
        lane = g // span
        if all(m < 0 or (m % in_lanes) % native // span == lane for m in part):
            continue  # within its own lane
        first = next((m - i for i, m in enumerate(part) if m >= 0), None)
        whole = first is not None and first % span == 0
        if whole and all(m < 0 or m == first + i for i, m in enumerate(part)):
            continue  # a whole lane of a source, in order
        return True
    return False


def _is_vt(t: Any) -> bool:
    return isinstance(t, tuple) and len(t) == 3 and t[0] == "type"


__all__ = ["HWV_GAP", "TargetCost"]
