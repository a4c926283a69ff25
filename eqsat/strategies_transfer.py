"""Transfer lowering strategies (MLIR's transfer_read/transfer_write lowering patterns: plain
loads and stores, masked, gather/scatter, and n-D transfers split into 1-D ones).
Rules: ``rules/explore/transfer.egg``.

Reads are ``Term`` strategies that end with the memory state they read (the decoder emits
them before a later write consumes that state); writes are ``State`` strategies whose
expander emits the writes once the state they consume is complete.
"""

from __future__ import annotations

from itertools import product as cartesian
from typing import Any

from eqsat.strategy_kit import Emit, ops_cost, prod, result_shape, strategy
from frontend.affine import AffineMap
from frontend.attributes import AffineMapAttr
from frontend.ir import Value
from frontend.types import IndexType, IntegerType, VectorType

READ = ("Type", "Term", "TermList", "Term", "TermList", "Map", "IVec", "State")
WRITE = ("Term", "Term", "TermList", "TermList", "Map", "IVec", "State")


class Transfer:
    """A decoded transfer: memref, indices, optional mask, map positions and in_bounds."""

    def __init__(self, dec: Any, t: Any, read: bool) -> None:
        from eqsat.terms import decode_type, term_list

        self.e = e = Emit(dec)
        if read:
            ty, s, idx, pad, mask, pm, ib = t.args[:7]
            e.after(t.args[-1])
            self.rt: VectorType = decode_type(ty)  # type: ignore[assignment]
            self.pad: Value | None = dec.value(pad)
            self.value: Value | None = None
        else:
            v, s, idx, mask, pm, ib = t.args[:6]
            e.consume(t.args[-1])
            self.value = dec.value(v)
            self.rt = self.value.type  # type: ignore[assignment]
            self.pad = None
        self.src: Value = dec.value(s)
        self.indices: list[Value] = [dec.value(x) for x in term_list(idx)]
        masks = [dec.value(x) for x in term_list(mask)]
        self.mask: Value | None = masks[0] if masks else None
        self.rank, positions = pm.args
        self.positions: tuple[int, ...] = tuple(positions)
        self.in_bounds: tuple[int, ...] = tuple(ib)

    @property
    def lanes(self) -> int:
        return self.rt.shape[-1]

    def bound_mask(self) -> Value:
        """The lanes of a 1-D minor-identity transfer that lie inside the memref (create_mask
        of dim - index, clamped by its semantics), and-ed with the transfer's own mask."""
        e = self.e
        mask_t = VectorType((self.lanes,), IntegerType(1))
        m = None
        if not self.in_bounds[-1]:
            j = self.rank - 1
            dim = e.op("memref.dim", [self.src, e.index(j)], IndexType())
            left = e.op("arith.subi", [dim, self.indices[j]], IndexType())
            m = e.op("vector.create_mask", [left], mask_t)
        if self.mask is not None:
            m = self.mask if m is None else e.op("arith.andi", [m, self.mask], mask_t)
        if m is None:
            m = e.op("vector.constant_mask", [], mask_t, mask_dim_sizes=[self.lanes])
        return m

    def padding(self) -> Value:
        assert self.pad is not None
        return self.e.broadcast(self.pad, VectorType((self.lanes,), self.rt.element))

    def row_indices(
        self, lead: tuple[int, ...], cache: dict[tuple[int, int], Value]
    ) -> list[Value]:
        """The indices of the 1-D transfer of row ``lead``: each leading vector dim moves the
        memref dim it maps to (broadcast dims move nothing)."""
        idx = list(self.indices)
        for t, i in enumerate(lead):
            j = self.positions[t]
            if j < 0 or i == 0:
                continue
            got = cache.get((j, i))
            if got is None:
                got = cache[(j, i)] = self.e.op(
                    "arith.addi", [self.indices[j], self.e.index(i)], IndexType()
                )
            idx[j] = got
        return idx

    def row_attrs(self) -> dict[str, Any]:
        last = self.positions[-1]
        m = AffineMap.from_dims(self.rank, (None if last < 0 else last,))
        return {"permutation_map": AffineMapAttr(m), "in_bounds": [bool(self.in_bounds[-1])]}


def _masked_cost(lits: tuple[Any, ...]) -> float:
    return ops_cost(6 if 0 in lits[0] else 2)  # type: ignore[operator]


def _split_rows(shape: tuple[int, ...]) -> float:
    return 2 * prod(shape[:-1]) + sum(shape[:-1]) + 1


# -- reads -------------------------------------------------------------------------------------------
@strategy("TransferReadPlain", READ, cost=lambda lits: ops_cost(1))
def transfer_read_plain(dec: Any, t: Any) -> Value:
    """transfer_read(m[idx], pad) with every dim in bounds, no mask and a minor-identity map ==
    vector.load m[idx] ("a transfer_read can be lowered to a simple load if all dimensions
    are specified to be within bounds and no mask was specified")."""
    x = Transfer(dec, t, read=True)
    return x.e.op("vector.load", [x.src] + x.indices, x.rt)


@strategy("TransferReadMasked", READ, cost=_masked_cost)
def transfer_read_masked(dec: Any, t: Any) -> Value:
    """transfer_read(m[idx], pad, mask?) : vector<N> with a minor-identity map ==
    maskedload(m[idx], create_mask(dim(m, last) - idx_last) and mask, broadcast(pad)): the
    lanes past the end of the memref (or masked off) keep the padding."""
    x = Transfer(dec, t, read=True)
    mask = x.bound_mask()
    return x.e.op("vector.maskedload", [x.src] + x.indices + [mask, x.padding()], x.rt)


@strategy("TransferReadGather", READ, cost=lambda lits: ops_cost(7 if 0 in lits[0] else 4))
def transfer_read_gather(dec: Any, t: Any) -> Value:
    """transfer_read(m[idx], pad, mask?) : vector<N> with a minor-identity map ==
    gather(m[idx][step N], bound mask and mask, broadcast(pad)): lane i reads m[..., idx_last
    + i] where it is inside the memref (and not masked off)."""
    x = Transfer(dec, t, read=True)
    e = x.e
    mask = x.bound_mask()
    step = e.op("vector.step", [], VectorType((x.lanes,), IndexType()))
    return e.op("vector.gather", [x.src] + x.indices + [step, mask, x.padding()], x.rt)


@strategy(
    "TransferReadSplit", READ, cost=lambda lits: ops_cost(_split_rows(result_shape(lits) or (1,)))
)
def transfer_read_split(dec: Any, t: Any) -> Value:
    """transfer_read(m[idx], pad) : vector<AxBx..xN> (leading dims in bounds, no mask) ==
    insert(transfer_read(m[idx + i placed by the map], pad) : vector<N>, acc, i) for every
    leading index i: one 1-D transfer per row (MLIR's unrolled n-D transfer lowering)."""
    x = Transfer(dec, t, read=True)
    e = x.e
    row_t = VectorType((x.lanes,), x.rt.element)
    attrs = x.row_attrs()
    cache: dict[tuple[int, int], Value] = {}
    acc = e.zeros(x.rt)
    for lead in cartesian(*(range(s) for s in x.rt.shape[:-1])):
        idx = x.row_indices(lead, cache)
        row = e.op(
            "vector.transfer_read",
            [x.src] + idx + [x.pad],
            row_t,  # type: ignore
            segments=[1, len(idx), 1, 0],
            **attrs,
        )
        acc = e.insert(row, acc, lead)
    return acc


# -- writes ------------------------------------------------------------------------------------------
@strategy("TransferWritePlain", WRITE, cost=lambda lits: ops_cost(1), sort="State")
def transfer_write_plain(dec: Any, t: Any) -> None:
    """transfer_write(v, m[idx]) with every dim in bounds, no mask and a minor-identity map ==
    vector.store v, m[idx]."""
    x = Transfer(dec, t, read=False)
    x.e.op("vector.store", [x.value, x.src] + x.indices, None)  # type: ignore[list-item]


@strategy(
    "TransferWriteMasked", WRITE, cost=lambda lits: ops_cost(5 if 0 in lits[0] else 1), sort="State"
)
def transfer_write_masked(dec: Any, t: Any) -> None:
    """transfer_write(v : vector<N>, m[idx], mask?) with a minor-identity map ==
    maskedstore(m[idx], create_mask(dim(m, last) - idx_last) and mask, v): lanes past the end
    of the memref (or masked off) are not written."""
    x = Transfer(dec, t, read=False)
    mask = x.bound_mask()
    x.e.op("vector.maskedstore", [x.src] + x.indices + [mask, x.value], None)  # type: ignore


@strategy(
    "TransferWriteScatter",
    WRITE,
    cost=lambda lits: ops_cost(6 if 0 in lits[0] else 3),
    sort="State",
)
def transfer_write_scatter(dec: Any, t: Any) -> None:
    """transfer_write(v : vector<N>, m[idx], mask?) with a minor-identity map ==
    scatter(m[idx][step N], bound mask and mask, v)."""
    x = Transfer(dec, t, read=False)
    e = x.e
    mask = x.bound_mask()
    step = e.op("vector.step", [], VectorType((x.lanes,), IndexType()))
    e.op("vector.scatter", [x.src] + x.indices + [step, mask, x.value], None)  # type: ignore


@strategy(
    "TransferWriteSplit",
    WRITE[:-1] + ("IVec", "State"),
    cost=lambda lits: ops_cost(_split_rows(tuple(lits[1]))),
    sort="State",
)  # type: ignore
def transfer_write_split(dec: Any, t: Any) -> None:
    """transfer_write(v : vector<AxBx..xN>, m[idx]) (leading dims in bounds, no mask) ==
    transfer_write(v[i] : vector<N>, m[idx + i placed by the map]) for every leading index i,
    in order. The IVec before the state is the vector shape, for the cost."""
    x = Transfer(dec, t, read=False)
    e = x.e
    attrs = x.row_attrs()
    cache: dict[tuple[int, int], Value] = {}
    for lead in cartesian(*(range(s) for s in x.rt.shape[:-1])):
        idx = x.row_indices(lead, cache)
        row = e.extract(x.value, lead)  # type: ignore[arg-type]
        e.op(
            "vector.transfer_write", [row, x.src] + idx, None, segments=[1, 1, len(idx), 0], **attrs
        )
