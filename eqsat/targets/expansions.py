"""What each lowering strategy expands to, as priceable pieces: ``(MLIR op, lanes, element type,
widest value touched, count)``. A target prices a strategy node as the sum of its pieces under
its own model, so that a strategy is cheap on a target only if the ops it emits are.

Each profile mirrors its expander in ``eqsat.strategies_*`` (the docstring there states the
law); it reads the node's literals: its own arguments, then ``("operands", types...)`` and the
result type that ``Snapshot`` appends (see ``eqsat.extract.Snapshot._with_types``). The counts
are what the expander emits, up to constants and shape_casts (free on every target).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eqsat.strategies_transpose import PAIR_MASKS, stage_masks
from eqsat.strategy_kit import FLOAT_KIND_OPS, INT_KIND_OPS
from eqsat.targets.widths import contract_space, lanes_apart, node_types, type_lanes

# ``(op, lanes, element type, width, count)``; for a "vector.shuffle" piece ``width`` may be its
# mask instead (two sources of ``lanes`` lanes), priced by what the mask moves.
type Piece = tuple[str, int, str | None, int | tuple[int, ...] | None, float]

# A pseudo-op piece: ``lanes`` kept live as accumulators across a reduction, ``n`` times. The
# target prices the registers beyond its ``accumulators`` as spills (see costmodel).
LIVE = "live-accumulators"
# A pseudo-op piece: ``lanes`` of operands a strategy makes once and keeps in registers while
# it runs, read ``n`` times. They get the registers the accumulators leave; the target prices
# each register beyond those as a spill reloaded at every read (see costmodel).
HELD = "held-operands"
# A pseudo-op piece: a one-shuffle permutation of ``lanes`` lanes in which consecutive output
# lanes come from ``width`` different source rows (a transpose): each output register gathers
# from up to that many source registers, merged two at a time (see costmodel).
GATHER = "gather-shuffle"
# A pseudo-op piece: a transpose a strategy's expansion emits (``width``: the rows gathered
# into each output row). The next round of extraction lowers it on its own, so the model
# prices it as the cheaper of a gather (GATHER) and staged block shuffles (see costmodel).
EMITTED_TRANSPOSE = "emitted-transpose"
# A pseudo-op piece: a ``lanes``-lane piece taken out of a row or put into one. Free when the
# piece is whole native registers (it is those registers), a shuffle per register otherwise.
REGROUP = "regroup"
# A pseudo-op piece: a float add or mul reduction, whose order is fixed unless reassociation
# is allowed (the model prices it as a chain of scalar ops, or as a tree when it is).
FOLD = "vector.reduction:fold"


def reduction_op(kind: str, elem: str | None) -> str:
    """The piece of a ``vector.reduction`` of ``kind``: FOLD when its order matters."""
    return FOLD if kind in ("add", "mul") and (elem or "")[:1] in ("f", "b") else "vector.reduction"
type Profile = Callable[[tuple[Any, ...], "Shape"], list[Piece]]


class Shape:
    """The types of a strategy node: result lanes and shape, element type, operand shapes."""

    def __init__(self, literals: tuple[Any, ...]) -> None:
        res, operands = node_types(literals)
        got = type_lanes(res)
        self.lanes, self.elem = got if got else (1, None)
        self.shape: tuple[int, ...] = tuple(res[1]) if res is not None and len(res) == 3 else ()
        self.operands: tuple[Any, ...] = operands

    def operand_shape(self, i: int) -> tuple[int, ...] | None:
        t = self.operands[i] if i < len(self.operands) else None
        return tuple(t[1]) if isinstance(t, tuple) and len(t) == 3 else None

    def piece(
        self, op: str, lanes: int, n: float = 1, width: int | tuple[int, ...] | None = None
    ) -> Piece:
        return (op, lanes, self.elem, width, n)


def _prod(xs: Any) -> int:
    n = 1
    for x in xs:
        n *= int(x)
    return n


def _mul_op(elem: str | None) -> str:
    return "arith.mulf" if (elem or "f")[0] in "fb" else "arith.muli"


def _combine_op(kind: str, elem: str | None) -> str:
    float_elem = bool(elem) and elem[0] in "fb"  # type: ignore[index]
    table = FLOAT_KIND_OPS if float_elem else INT_KIND_OPS
    return table.get(kind, "arith.addf" if float_elem else "arith.addi")


# -- transpose -------------------------------------------------------------------------------------
def _transpose_shuffle(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    perm = tuple(lits[0])
    moves_rows = bool(perm) and perm[-1] != len(perm) - 1
    return [s.piece(GATHER, s.lanes, 1, s.shape[-1] if moves_rows and s.shape else 1)]


def _transpose_elementwise(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    # The expander's chain of one-lane extracts and inserts is a permutation of the source's
    # lanes: LLVM's InstCombine folds such a chain into one shufflevector (tests/test_costmodel.py
    # checks the O3 code has no lane-by-lane moves left), so it costs what the one-shuffle
    # transpose costs.
    return _transpose_shuffle(lits, s)


def _transpose_flat(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    return [s.piece("vector.flat_transpose", s.lanes)]


def _staged(block: int, pairs: bool = False) -> Profile:
    """A staged B x B block transpose (``pairs``: TransposeShuffle4x4Pairs's masks)."""
    stages = block.bit_length() - 1

    def profile(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
        blocks = max(1, s.lanes // (block * block))
        rows, cols = (s.shape + (block, block))[:2] if len(s.shape) == 2 else (block, block)
        out = [
            s.piece("vector.extract", cols, rows),  # result rows: rows of the source's width
            s.piece("vector.insert", rows, cols),
        ]
        # each stage: half its B shuffles take the "lo" mask, half the "hi" one (priced by
        # their masks: a target whose shuffles stay within lanes pays for crossing them)
        masks = PAIR_MASKS if pairs else stage_masks(block)
        names = ["lo32", "hi32", "lo64", "hi64"] + ["lo", "hi"] * (stages - 2)
        for name in names:
            out.append(s.piece("vector.shuffle", block, block // 2 * blocks, tuple(masks[name])))
        if blocks > 1:  # 1-D pieces of rows in and out
            out += [  # pieces of source rows out, result rows joined from pieces
                s.piece(REGROUP, block, block * blocks),
                s.piece(REGROUP, block, block * blocks),
            ]
        return out

    return profile


# -- shapes ----------------------------------------------------------------------------------------
def _broadcast_unrolled(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    last = s.shape[-1] if s.shape else 1
    rows = _prod(s.shape[:-1])
    return [s.piece("vector.broadcast", last, rows), s.piece("vector.insert", last, rows)]


def _shape_cast_unrolled(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    src = tuple(lits[0])
    if src and s.shape and src[-1] == s.shape[-1]:
        rows = s.lanes // s.shape[-1]
        return [
            s.piece("vector.extract", s.shape[-1], rows),
            s.piece("vector.insert", s.shape[-1], rows),
        ]
    return [s.piece("vector.extract", 1, s.lanes), s.piece("vector.insert", 1, s.lanes)]


def _slice_shuffle(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    return [s.piece("vector.shuffle", s.lanes)]


# -- multi_reduction -------------------------------------------------------------------------------
def _reduction_split(lits: tuple[Any, ...]) -> tuple[str, list[int], int, int, tuple[int, ...]]:
    kind, dims, shape = lits[0], sorted(int(d) for d in lits[1]), tuple(lits[2])
    par = [d for d in range(len(shape)) if d not in dims]
    return kind, dims, _prod(shape[d] for d in dims), _prod(shape[d] for d in par), shape


def _rest(shape: tuple[int, ...], dims: list[int]) -> list[int]:
    return [d for d in range(len(shape)) if d not in dims]


def _moved(s: Shape, shape: tuple[int, ...], order: list[int]) -> Piece:
    """A source of ``shape`` transposed to ``order``: a gather when the innermost dim moves."""
    moves = bool(order) and order[-1] != len(shape) - 1
    return s.piece(EMITTED_TRANSPOSE, _prod(shape), 1, shape[order[-1]] if moves else 1)


def _inner_parallel(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    kind, dims, r, p, shape = _reduction_split(lits)
    out = [s.piece("vector.extract", p, r), s.piece(_combine_op(kind, s.elem), p, r)]
    if dims != list(range(len(dims))):  # reduced dims not already outermost
        out.append(_moved(s, shape, dims + _rest(shape, dims)))
    return out


def _inner_reduction(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    kind, dims, r, p, shape = _reduction_split(lits)
    out = [
        s.piece("vector.extract", r, p),
        s.piece(reduction_op(kind, s.elem), r, p),
        s.piece("vector.extract", 1, p),
        s.piece("vector.from_elements", p),
    ]
    if dims != list(range(len(shape) - len(dims), len(shape))):  # not already innermost
        out.append(_moved(s, shape, _rest(shape, dims) + dims))
    return out


# -- contract --------------------------------------------------------------------------------------
class _Contract:
    """Dim sizes of a contraction node (maps, iterators, operand types)."""

    def __init__(self, lits: tuple[Any, ...], s: Shape) -> None:
        self.maps = tuple(tuple(m) for m in lits[0])
        self.its = tuple(lits[1])
        self.kind = str(lits[2])
        self.sizes: dict[int, int] = {}
        for i, m in enumerate(self.maps):
            sh = s.operand_shape(i)
            if sh is not None:
                self.sizes.update(zip(m, sh))
        self.space = contract_space(self.maps, s.operands) or s.lanes
        self.red = [d for d, it in enumerate(self.its) if it == 1]
        self.k = _prod(self.sizes.get(d, 1) for d in self.red)
        par = [d for d, it in enumerate(self.its) if it == 0]
        self.lf = [d for d in par if d in self.maps[0]]  # free dims of lhs, then of rhs
        self.rf = [d for d in par if d in self.maps[1]]

    def size(self, dims: list[int]) -> int:
        return _prod(self.sizes.get(d, 1) for d in dims)

    def lanes(self, i: int) -> int:
        return self.size(list(self.maps[i]))

    def transposed(self, i: int, order: list[int]) -> bool:
        """Whether operand ``i`` needs a transpose to be laid out in ``order``."""
        present = [d for d in order if d in self.maps[i]]
        return [self.maps[i].index(d) for d in present] != sorted(range(len(present)))

    def transpose(self, s: Shape, i: int, order: list[int], n: float = 1) -> Piece:
        """Operand ``i`` laid out in ``order``: a gather whose output rows come from the
        source rows of its new innermost dim (when the innermost dim moves)."""
        present = [d for d in order if d in self.maps[i]]
        inner = present[-1] if present else None
        moves = inner is not None and inner != self.maps[i][-1]
        return s.piece(
            EMITTED_TRANSPOSE, self.lanes(i), n, self.sizes.get(inner, 1) if moves else 1
        )


    def layout(self, s: Shape, orders: tuple[tuple[int, list[int]], ...]) -> list[Piece]:
        """The transposes that lay lhs and rhs out in their ``(operand, dims)`` orders and the
        accumulator out as (lhs free, rhs free) and back."""
        out = [self.transpose(s, i, dims) for i, dims in orders if self.transposed(i, dims)]
        if self.transposed(2, self.lf + self.rf):
            out.append(self.transpose(s, 2, self.lf + self.rf, 2))
        return out


def _contract_dot(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    c = _Contract(lits, s)
    lp, rp = c.lf, c.rf
    rows = c.size(lp) + c.size(rp)
    products = c.size(lp) * c.size(rp)
    out = [
        s.piece("vector.extract", c.k, rows),
        s.piece("arith.mulf" if (s.elem or "f")[0] in "fb" else "arith.muli", c.k, products),
        s.piece(reduction_op(c.kind, s.elem), c.k, s.lanes),
        s.piece("vector.extract", 1, s.lanes),
        s.piece("vector.from_elements", s.lanes),
    ]
    for i, dims in ((0, lp + c.red), (1, rp + c.red)):
        if c.transposed(i, dims):
            out.append(c.transpose(s, i, dims))
    return out


def _contract_outer(lits: tuple[Any, ...], s: Shape, fuse_add: bool = False) -> list[Piece]:
    """``ContractOuter``'s pieces; ``fuse_add``: ``ContractOuterFused``'s, whose float add
    steps are one fused multiply-add each."""
    c = _Contract(lits, s)
    lf, rf = c.lf, c.rf
    float_add = c.kind == "add" and (s.elem or "")[:1] in ("f", "b")
    fma = fuse_add and float_add
    unfused = float_add and not fma
    if lf and rf:  # one AXPY per accumulator row and reduction point, rows in blocks
        rows, width = c.size(lf), c.size(rf)
        block = min(rows, max(1, int(lits[4])))
        out = [
            s.piece("vector.extract", 1, rows * c.k, rows * c.k),
            # rhs rows, loaded again by each block (a block's accumulators take the registers)
            s.piece("vector.load", width, c.k * -(-rows // block)),
            s.piece("vector.broadcast", 1, rows * c.k),  # AXPY: lhs[i, k] splat once
            s.piece("vector.fma" if fma else _mul_op(s.elem), width, rows * c.k),
            s.piece("vector.extract", width, rows),
            s.piece("vector.insert", width, rows),
            s.piece(LIVE, block * width, rows * c.k),  # a block's accumulators, each step
        ]
        orders = ((0, lf + c.red), (1, c.red + rf))
    else:  # AXPY on the whole accumulator
        width, rows = c.size(lf or rf), 1
        out = [
            s.piece("vector.extract", max(1, c.size(lf)), c.k),
            s.piece("vector.extract", max(1, c.size(rf)), c.k),
            s.piece("vector.outerproduct", width, c.k),
        ]
        orders = ((0, c.red + lf), (1, c.red + rf))
    if unfused or (lf and rf and not fma):  # row AXPYs combine apart from the multiply
        out.append(s.piece(_combine_op(c.kind, s.elem), width, rows * c.k))
    return out + c.layout(s, orders)


def _contract_outer_fused(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    return _contract_outer(lits, s, fuse_add=True)


def _contract_pair_broadcast(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    c = _Contract(lits, s)
    rows, width, pairs = c.size(c.lf), c.size(c.rf), c.k // 2
    steps = rows * pairs
    out = [
        s.piece("vector.extract", width, c.k),  # rhs rows
        s.piece("vector.shuffle", width, 2 * pairs),  # their mixes, made once
        s.piece("vector.extract", c.k, rows),  # lhs rows
        s.piece("vector.shuffle", width, steps),  # a pair broadcast per row and step
        s.piece("vector.extract", width, rows),
        s.piece("vector.shuffle", width, rows),  # swap Q's lanes back
        s.piece("arith.addf", width, rows),  # P + swap(Q)
        s.piece("vector.insert", width, rows),
        s.piece(LIVE, 2 * width, 2 * steps),  # P and Q, each step
        s.piece(HELD, 2 * pairs * width, steps),  # the mixes, read by every step
    ]
    # P starts from the accumulator row, Q from a product: per row k - 1 multiply-adds
    if int(lits[4]):
        out += [s.piece("vector.fma", width, 2 * steps - rows), s.piece("arith.mulf", width, rows)]
    else:
        out += [
            s.piece("arith.mulf", width, 2 * steps),
            s.piece("arith.addf", width, 2 * steps - rows),
        ]
    return out + c.layout(s, ((0, c.lf + c.red), (1, c.red + c.rf)))


def _contract_matmul(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    c = _Contract(lits, s)
    widest = max(c.lanes(0), c.lanes(1), s.lanes)
    return [
        s.piece("vector.matrix_multiply", c.space, 1, widest),
        s.piece("arith.addf" if (s.elem or "f")[0] in "fb" else "arith.addi", s.lanes),
    ]


def _contract_parallel(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    c = _Contract(lits, s)
    n = c.space
    out = [s.piece("arith.mulf" if (s.elem or "f")[0] in "fb" else "arith.muli", n)]
    for i in (0, 1):
        if len(c.maps[i]) < len(c.its):
            out.append(s.piece("vector.broadcast", n))
        if c.transposed(i, list(range(len(c.its)))):
            out.append(c.transpose(s, i, list(range(len(c.its)))))
    if c.red:
        out.append(s.piece("vector.multi_reduction", n))
    else:
        out.append(s.piece(_combine_op(c.kind, s.elem), n))
    return out


# -- transfers -------------------------------------------------------------------------------------
def _masked(lits: tuple[Any, ...]) -> bool:
    return 0 in tuple(lits[0])


def _read(op: str, extra: list[str]) -> Profile:
    def profile(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
        out = [s.piece(op, s.lanes)] + [s.piece(x, s.lanes) for x in extra]
        if _masked(lits) and op != "vector.load":
            out.append(s.piece("vector.create_mask", s.lanes))
        return out

    return profile


def _read_split(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    last = s.shape[-1] if s.shape else 1
    rows = s.lanes // max(1, last)
    read = "vector.gather" if lanes_apart(s.operands) else "vector.transfer_read"
    return [s.piece(read, last, rows), s.piece("vector.insert", last, rows)]


def _write(op: str, extra: list[str]) -> Profile:
    def profile(lits: tuple[Any, ...], s: Shape) -> list[Piece]:  # s: the vector written
        out = [s.piece(op, s.lanes)] + [s.piece(x, s.lanes) for x in extra]
        if _masked(lits) and op != "vector.store":
            out.append(s.piece("vector.create_mask", s.lanes))
        return out

    return profile


def _write_split(lits: tuple[Any, ...], s: Shape) -> list[Piece]:
    shape = tuple(lits[1])
    rows = _prod(shape[:-1])
    last = shape[-1] if shape else 1
    write = "vector.scatter" if lanes_apart(s.operands) else "vector.transfer_write"
    return [s.piece("vector.extract", last, rows), s.piece(write, last, rows)]


PROFILES: dict[str, Profile] = {
    "TransposeShuffle": _transpose_shuffle,
    "TransposeElementwise": _transpose_elementwise,
    "TransposeFlat": _transpose_flat,
    "TransposeShuffle16x16": _staged(16),
    "TransposeShuffle8x8": _staged(8),
    "TransposeShuffle4x4": _staged(4),
    "TransposeShuffle4x4Pairs": _staged(4, pairs=True),
    "BroadcastUnrolled": _broadcast_unrolled,
    "ShapeCastUnrolled": _shape_cast_unrolled,
    "ExtractStridedSliceShuffle": _slice_shuffle,
    "InsertStridedSliceShuffle": _slice_shuffle,
    "MultiReductionInnerParallel": _inner_parallel,
    "MultiReductionInnerReduction": _inner_reduction,
    "ContractDot": _contract_dot,
    "ContractOuter": _contract_outer,
    "ContractOuterFused": _contract_outer_fused,
    "ContractPairBroadcast": _contract_pair_broadcast,
    "ContractMatmul": _contract_matmul,
    "ContractParallel": _contract_parallel,
    "TransferReadPlain": _read("vector.load", []),
    "TransferReadMasked": _read("vector.maskedload", ["vector.broadcast"]),
    "TransferReadGather": _read("vector.gather", ["vector.step", "vector.broadcast"]),
    "TransferReadSplit": _read_split,
    "TransferWritePlain": _write("vector.store", []),
    "TransferWriteMasked": _write("vector.maskedstore", []),
    "TransferWriteScatter": _write("vector.scatter", ["vector.step"]),
    "TransferWriteSplit": _write_split,
}


def expansion(strategy: str, literals: tuple[Any, ...]) -> list[Piece] | None:
    """The pieces ``strategy`` expands to on a node with these literals (None: no profile)."""
    profile = PROFILES.get(strategy)
    return None if profile is None else profile(literals, Shape(literals))
