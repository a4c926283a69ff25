"""Extracted terms -> IR: rebuild each block from its chosen term DAG.

Values are emitted on demand, dependencies first, and memoized per term so sharing
survives. Effects are emitted in state-chain order; a read of memory state ``S`` is emitted
before the first op that consumes ``S`` (otherwise a later write could overtake it).
Barriers are re-created with their regions decoded from their own extracted roots.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

from eqsat.encode import EncodedBlock
from eqsat.extract import Term
from eqsat.memory import MemoryBudget
from eqsat.strategies import STRATEGIES
from eqsat.strategy_kit import slice_op
from eqsat.schema import READ_OP, Arg, Constructor, by_constructor
from eqsat.terms import DecodeError, decode_type, term_list
from frontend.affine import AffineMap
from frontend.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    EnumAttr,
    IntegerAttr,
    UnitAttr,
)
from frontend.ir import Block, Operation, Region, Value, new_op
from frontend.ops import kinds as K
from frontend.ops import lookup
from frontend.ops.spec import MASKABLE, READS, OpSpec, segments_attr
from frontend.parse_attrs import AttrParser
from frontend.types import IntegerType, Type, VectorType, i64


def decode_attr(arg: Arg, spec: OpSpec, value: Any, iterators: int) -> Attribute | None:
    """Inverse of ``encode.encode_attr``; ``iterators`` sizes contract maps."""
    d = spec.attr_def(arg.name)
    assert d is not None
    kind = d.kind
    if arg.sort == "String":
        if value == "" and (d.optional or d.default is not None or arg.kind == "optional"):
            return None  # absent: an attribute with a default takes it
        if kind.enum is not None:
            return EnumAttr(kind.enum, value)
        if kind is K.UNIT:
            return UnitAttr()
        return AttrParser(value).parse_attribute()
    if arg.sort == "i64":
        width = {id(K.I32): IntegerType(32), id(K.BOOL): IntegerType(1)}.get(id(kind), i64)
        return IntegerAttr(int(value), width)
    if arg.sort == "IVec":
        if kind is K.I64_LIST:
            return DenseArrayAttr("i64", tuple(value))
        if kind is K.BOOL_ARRAY:
            return ArrayAttr(tuple(BoolAttr(bool(v)) for v in value))
        if kind is K.ITERATOR_ARRAY:
            names = ("parallel", "reduction")
            return ArrayAttr(tuple(EnumAttr("vector.iterator_type", names[v]) for v in value))
        return ArrayAttr(tuple(IntegerAttr(int(v)) for v in value))
    if arg.sort == "Map":
        n, positions = value.args
        return AffineMapAttr(_map(n, positions))
    if arg.sort == "MapList":
        return ArrayAttr(tuple(AffineMapAttr(_map(iterators, p)) for p in value))
    raise DecodeError(f"no decoding for sort {arg.sort}")


def _map(n: int, positions: tuple[int, ...]) -> AffineMap:
    return AffineMap.from_dims(n, tuple(None if p < 0 else p for p in positions))


def _tile_leaves(kernel: Term) -> list[Term]:
    out, seen, stack = [], set(), [kernel]
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        if t.op in ("TileOf", "TileAt"):
            out.append(t)
        else:
            stack.extend(t.children)
    return out


def _read_in(t: Term) -> Term | None:
    """``t`` if it reads memory (a read op or a read strategy, whose last argument is the
    state it reads), else the first read among its operands, depth first; None if none."""
    if _reads_memory(t.op):
        return t
    for a in t.args:
        if isinstance(a, Term):
            got = _read_in(a)
            if got is not None:
                return got
    return None


@cache
def _reads_memory(op: str) -> bool:
    """Whether constructor ``op`` reads memory: a read op or a read strategy (both take the
    state they read last)."""
    c = by_constructor().get(op)
    if c is not None and c.effect == READ_OP:
        return True
    s = STRATEGIES.get(op)
    return s is not None and s.reads


def clone_region(region: Region, mapping: dict[int, Value]) -> Region:
    """A copy of ``region`` whose uses of outside values go through ``mapping``."""
    new = Region()
    for blk in region.blocks:
        nb = new.append(Block([a.type for a in blk.args], blk.label))
        mapping.update({id(a): na for a, na in zip(blk.args, nb.args)})
    for blk, nb in zip(region.blocks, new.blocks):
        for op in blk.ops:
            copy = Operation(
                op.name,
                [mapping[id(v)] for v in op.operands],
                op.result_types,
                dict(op.attributes),
                [clone_region(r, mapping) for r in op.regions],
                op.loc,
            )
            mapping.update({id(r): nr for r, nr in zip(op.results, copy.results)})
            nb.append(copy)
    return new


@cache
def _op_plan(
    cons: str,
) -> tuple[Constructor, OpSpec, tuple[int, ...], int | None, _Attrs, _Roles] | None:
    """What ``_BlockDecoder.op`` reads of constructor ``cons`` (None for an unknown one): the
    constructor, its op's spec, the positions of its state arguments and of its iterator
    types (which size a contraction's maps), looked up once instead of once per op; the
    memo of its decoded attributes; and each other argument's position, role and ``Arg``."""
    c = by_constructor().get(cons)
    if c is None:
        return None
    spec = lookup(c.op)
    assert spec is not None
    states = tuple(i for i, arg in enumerate(c.args) if arg.role == "state")
    iterators = next((i for i, arg in enumerate(c.args) if arg.name == "iterator_types"), None)
    roles = tuple(
        (i, _OPERANDS if arg.role == "operand" and arg.kind != "single" else _ROLE_CODES[arg.role],
         arg)
        for i, arg in enumerate(c.args)
        if arg.role in _ROLE_CODES
    )  # fmt: skip
    return c, spec, states, iterators, _Attrs(spec), roles


# What ``_BlockDecoder.op`` does with a constructor argument, by its role (``_op_plan``): the
# result type, one operand, a list of operands, an attribute (a state is emitted before).
_TYPE, _OPERAND, _OPERANDS, _ATTR = range(4)
_ROLE_CODES = {"type": _TYPE, "operand": _OPERAND, "attr": _ATTR}  # (a list: ``_OPERANDS``)
type _Roles = tuple[tuple[int, int, Arg], ...]  # (position, role code, the argument)


class _Attrs:
    """A constructor's attributes decoded once per argument value (``decode_attr`` is a pure
    function of the argument, its value and the iterator count, and attributes are
    immutable): the ops of one signature share their attribute objects, so they are printed
    and verified once (``frontend.print_templates``, ``frontend.verifier``). The values are
    egglog's strings, integers and tuples of them, and terms; ``1`` and ``True`` do not
    occur apart (``decode_attr`` reads both as the same integer)."""

    __slots__ = ("memo", "spec")

    def __init__(self, spec: OpSpec) -> None:
        self.spec = spec
        self.memo: dict[tuple[Any, ...], Attribute | None] = {}

    def get(self, arg: Arg, value: Any, iterators: int) -> Attribute | None:
        key = (arg.name, value, iterators)
        try:
            return self.memo[key]
        except KeyError:
            pass
        except TypeError:  # (an unhashable value: decoded each time)
            return decode_attr(arg, self.spec, value, iterators)
        got = decode_attr(arg, self.spec, value, iterators)
        if len(self.memo) >= 4096:
            self.memo.clear()
        self.memo[key] = got
        return got


# The terms ``_BlockDecoder.value`` handles itself (every other one is an op or a strategy).
_SPECIAL = frozenset({"Arg", "Outer", "Res", "ListAt", "Masked", "Tiled", "TileOf", "TileAt"})

_FRAMES_PER_OP = 12  # value -> op -> value, plus strategy expanders and state chains


class Decoder:
    """Rebuilds blocks from extracted roots (``roots[block index]``). ``budget``, when given,
    is checked every few hundred ops emitted; ``where`` names the function for its message."""

    def __init__(
        self, roots: dict[int, Term], budget: MemoryBudget | None = None, where: str = ""
    ) -> None:
        self.roots = roots
        self.budget = budget
        self.where = where
        self.emitted = 0  # ops emitted so far, over every block

    def decode_block(
        self, enc: EncodedBlock, out: Block, outer: dict[int, Value]
    ) -> list[Value]:
        """Append ``enc``'s ops to ``out``; returns the values of its window outputs."""
        # Decoding recurses along def-use chains (a few Python frames per op), so a long chain
        # needs more than Python's default 1,000 frames. Python 3.12 keeps Python-to-Python
        # calls off the C stack, so a limit that grows with the block is safe.
        limit = sys.getrecursionlimit()
        ops = enc.ops or len(enc.block.ops)
        sys.setrecursionlimit(max(limit, _FRAMES_PER_OP * ops + 1_000))
        try:
            return _BlockDecoder(self, enc, out, outer).run()
        finally:
            sys.setrecursionlimit(limit)


class _BlockDecoder:
    def __init__(
        self, dec: Decoder, enc: EncodedBlock, out: Block, outer: dict[int, Value]
    ) -> None:
        self.dec, self.enc, self.out, self.outer = dec, enc, out, outer
        self.values: dict[int, Any] = {}  # id(term) -> Value | Operation (multi) | None (state)
        self.types: dict[int, Type] = {}  # id(type term) -> its IR type (terms share type terms)
        self.reads: dict[int, list[Term]] = {}  # id(state term) -> reads of that state

    def run(self) -> list[Value]:
        root = self.dec.roots[self.enc.index]
        self._collect_reads(root)
        outs, mem, io = root.args
        self.state(mem)  # type: ignore[arg-type]
        self.state(io)  # type: ignore[arg-type]
        values = [self.value(t) for t in term_list(outs)]  # type: ignore[arg-type]
        last = self.enc.terminator
        if last is not None:
            self.emit(Operation(last.name, values, [], dict(last.attributes), [], last.loc))
        return values

    def _collect_reads(self, root: Term) -> None:
        seen: set[int] = set()
        stack = [root]
        while stack:
            t = stack.pop()
            if id(t) in seen:
                continue
            seen.add(id(t))
            if t.op == "Masked":  # a masked read is emitted whole, as a read of its state
                inner = t.args[3]
                read = _read_in(inner)  # type: ignore[arg-type]
                if read is not None:  # (the read itself, or one under a transpose, never
                    # emitted: only its operands are, and the mask at its state)
                    self.reads.setdefault(id(read.args[-1]), []).append(t)
                    inner = read
                stack.extend(t.args[1:3])  # type: ignore[arg-type]
                stack.append(t.args[5])  # type: ignore[arg-type]
                stack.extend(inner.children)  # type: ignore[union-attr]
                continue
            if _reads_memory(t.op):
                self.reads.setdefault(id(t.args[-1]), []).append(t)
            stack.extend(t.children)

    # -- emission ------------------------------------------------------------------------
    def emit(self, op: Operation) -> Operation:
        self.out.append(op)
        dec = self.dec
        n = dec.emitted = dec.emitted + 1
        budget = dec.budget
        # ``budget.tick``, its test inlined: this runs once per output op (millions)
        if budget is not None and n % budget.every == 0:
            budget.check("decode", lambda: f"at output op {dec.emitted}{dec.where}")
        return op

    def value(self, t: Term) -> Value:
        got = self.values.get(id(t))
        if got is not None:
            return got
        op = t.op
        if op in _SPECIAL:  # one test for the common case, an op or a strategy
            if op == "Arg":
                v = self.out.args[t.args[1]]  # type: ignore[index]
            elif op == "Outer":
                v = self.outer[id(self.enc.captures[t.args[1]])]  # type: ignore[index]
            elif op == "Res":
                multi, i, _ = t.args
                v = self.multi(multi).results[i]  # type: ignore[arg-type,index]
            elif op == "ListAt":  # element #i of an operand list
                v = self.value(term_list(t.args[0])[t.args[1]])  # type: ignore[arg-type,index]
            elif op == "Masked":
                v = self.masked(t)
            elif op == "Tiled":
                v = self.tiled(t)
            else:  # TileOf, TileAt
                v = self.tile_of(t)
        else:
            strategy = STRATEGIES.get(op)
            if strategy is not None:
                v = strategy.expand(self, t)
            else:
                v = self.op(t).results[0]
        self.values[id(t)] = v
        return v

    def type_of(self, t: Term) -> Type:
        """``decode_type(t)``, looked up by the term's identity (hashing a term and comparing
        it with the cached one cost more than the rest of decoding an op's type)."""
        got = self.types.get(id(t))
        if got is None:
            got = self.types[id(t)] = decode_type(t)
        return got

    def masked(self, t: Term) -> Value:
        """``vector.mask mask, passthru { op; vector.yield }``: always the original op (side
        table entry id) on the decoded operands, its operands and the memory state it reads
        emitted before the mask. The inner term extraction picked is only a value equal to the
        *unmasked* op (a lowering strategy, a legalized form, a transposed read): emitting it
        inside the mask could mask other lanes than the original's, so it is never emitted;
        rules that fold a mask away (rules/canonicalize/mask.egg) give the alternatives."""
        ty, mask_t, passthru_t, inner, mid, operands_t = t.args
        mask = self.value(mask_t)  # type: ignore[arg-type]
        passthru = [self.value(x) for x in term_list(passthru_t)]  # type: ignore[arg-type]
        if self.enc is None:  # a term on its own (eqsat check-rules): inner is the op as written
            return self._masked_as_written(ty, mask, passthru, inner)  # type: ignore[arg-type]
        original = self.enc.masked.get(mid)  # type: ignore[arg-type]
        if original is None:
            raise DecodeError(f"Masked {mid} has no original op")
        if original.spec is not None and original.spec.has(READS):
            # The state the read sees: that of the read the inner term is or holds (a
            # transposed read: the read of whole rows under its transpose), registered as a
            # read of that state by _collect_reads.
            read = _read_in(inner)  # type: ignore[arg-type]
            if read is None:  # no state to order the read by: refuse rather than misplace it
                what = f"masked {original.name} extracted as {inner.op}"  # type: ignore[union-attr]
                raise DecodeError(f"{what}, which reads no memory")
            self.state(read.args[-1])  # type: ignore[arg-type]
        values = [self.value(x) for x in term_list(operands_t)]  # type: ignore[arg-type]
        op = Operation(original.name, values, original.result_types,
                       dict(original.attributes), [], original.loc)  # fmt: skip
        return self._mask_around(ty, mask, passthru, op)

    def _masked_as_written(
        self, ty: Term, mask: Value, passthru: list[Value], inner: Term
    ) -> Value:
        """A ``Masked`` term decoded without its block's side table (``eqsat check-rules``
        decodes rule sides on their own): ``inner`` is the op as the program wrote it."""
        c = by_constructor().get(inner.op)
        spec = lookup(c.op) if c is not None else None
        if c is None or spec is None or not spec.has(MASKABLE):
            raise DecodeError(f"{inner.op} inside Masked has no single-op form")
        for arg, a in zip(c.args, inner.args):
            if arg.role == "state":
                self.state(a)  # type: ignore[arg-type]
            elif arg.role == "operand":
                for x in [a] if arg.kind == "single" else term_list(a):
                    self.value(x)  # type: ignore[arg-type]
        op = self.op(inner)  # ``op`` memoizes nothing: its value exists only in the region
        self.out.ops.remove(op)  # it belongs inside the region
        return self._mask_around(ty, mask, passthru, op)

    def _mask_around(self, ty: Term, mask: Value, passthru: list[Value], op: Operation) -> Value:
        """Emit ``vector.mask mask, passthru { op; vector.yield }``; its result."""
        body = Block()
        body.append(op)
        body.append(Operation("vector.yield", [op.results[0]], [], {}))
        region = Region([body])
        mask_op = Operation(
            "vector.mask", [mask, *passthru], [decode_type(ty)], {}, [region]  # type: ignore
        )
        return self.emit(mask_op).results[0]

    # -- symbolic tiles ----------------------------------------------------------------------
    def tiled(self, t: Term) -> Value:
        """Materialize ``(Tiled t count tile kernel)``: the kernel once per tile offset, each
        result inserted into the full vector (unroll-and-jam, as MLIR's unrolling does)."""
        from itertools import product

        from eqsat.strategies import Emit

        ty, _, tile, kernel, _srcs = t.args
        full: VectorType = decode_type(ty)  # type: ignore[assignment]
        e = Emit(self)
        acc = e.zeros(full)
        grid = [range(0, n, s) for n, s in zip(full.shape, tile)]  # type: ignore[arg-type]
        saved_offsets = getattr(self, "offsets", None)
        for leaf in _tile_leaves(kernel):  # the whole operands, emitted once, outside the tiles
            self.value(leaf.args[-1])
        values = self.values
        for offsets in product(*grid):
            # What the kernel decodes for one tile is that tile's alone: the memo entries it
            # adds are dropped after it (the memo only grows, and a dict pops its newest
            # entries first: cheaper than a copy of the whole memo per tile).
            known = len(values)
            self.offsets = offsets
            piece = self.value(kernel)  # type: ignore[arg-type]
            for _ in range(len(values) - known):
                values.popitem()
            acc = e.op(
                "vector.insert_strided_slice",
                [piece, acc],
                full,
                offsets=list(offsets),
                strides=[1] * len(offsets),
            )
        self.offsets = saved_offsets
        return acc

    def tile_of(self, t: Term) -> Value:
        if t.op == "TileAt":  # offsets picked from the grid by dim, -1 meaning 0
            tile, dims, x = t.args
            offsets = [0 if d < 0 else self.offsets[d] for d in dims]  # type: ignore[union-attr]
        else:
            tile, x = t.args
            offsets = list(self.offsets)
        whole = self.value(x)  # type: ignore[arg-type]
        sizes = tuple(tile)  # type: ignore[arg-type]
        if sizes == whole.type.shape:  # type: ignore[attr-defined]
            return whole
        return self.emit(slice_op(whole, tuple(offsets), sizes)).results[0]

    def multi(self, t: Term) -> Operation:
        got = self.values.get(id(t))
        if got is None:
            got = self.barrier(t) if t.op == "Barrier" else self.op(t)
            self.values[id(t)] = got
        return got

    def state(self, t: Term) -> None:
        if id(t) in self.values:
            return
        self.values[id(t)] = True
        if t.op == "StInit":
            return
        if t.op in ("MemOut", "IOOut"):
            self.multi(t.args[0])  # type: ignore[arg-type]
            return
        from eqsat.strategies import STRATEGIES

        strategy = STRATEGIES.get(t.op)
        if strategy is not None:  # a write strategy: its expander emits the writes
            strategy.expand(self, t)
            return
        self.op(t)

    def _before_consuming(self, s: Term) -> None:
        """Emit the state chain up to ``s`` and every read of ``s`` before ``s`` is consumed."""
        self.state(s)
        for r in self.reads.pop(id(s), []):
            c = by_constructor().get(r.op)
            if c is not None and c.sort == "Multi":  # a read with several results
                self.multi(r)
            else:
                self.value(r)

    def op(self, t: Term) -> Operation:
        plan = _op_plan(t.op)
        if plan is None:
            raise DecodeError(f"unknown constructor {t.op}")
        c, spec, states, iterators_at, decoded_attrs, roles = plan
        args = t.args
        if states:
            before = self.state if c.effect == READ_OP else self._before_consuming
            for i in states:
                before(args[i])  # type: ignore[arg-type]
        operands: list[Value] = []
        sizes: list[int] = []
        attrs: dict[str, Attribute] = {}
        result_types: list[Type] | None = None
        iterators = len(args[iterators_at]) if iterators_at is not None else 0  # type: ignore
        for i, role, arg in roles:
            a = args[i]
            if role == _OPERAND:
                operands.append(self.value(a))  # type: ignore[arg-type]
                sizes.append(1)
            elif role == _TYPE:
                result_types = [self.type_of(a)]  # type: ignore[arg-type]
            elif role == _ATTR:
                decoded = decoded_attrs.get(arg, a, iterators)
                if decoded is not None:
                    attrs[arg.name] = decoded
            else:
                vals = [self.value(x) for x in term_list(a)]  # type: ignore[arg-type]
                operands.extend(vals)
                sizes.append(len(vals))
        if spec.needs_segments():
            attrs["operandSegmentSizes"] = segments_attr(sizes)
        op = new_op(spec, operands, result_types or [], attrs)
        if result_types is None and spec.results:
            op.results = [Value(rt, op, i) for i, rt in enumerate(spec.infer(op))]  # type: ignore
        return self.emit(op)

    def barrier(self, t: Term) -> Operation:
        bid, inputs, mem, io = t.args
        self._before_consuming(mem)  # type: ignore[arg-type]
        self._before_consuming(io)  # type: ignore[arg-type]
        old = self.enc.barriers[bid]  # type: ignore[index]
        values = [self.value(x) for x in term_list(inputs)]  # type: ignore[arg-type]
        n = len(old.operands)
        captured = self.enc.barrier_captures[bid]  # type: ignore[index]
        inner_outer = {id(v): nv for v, nv in zip(captured, values[n:])}
        op = Operation(old.name, values[:n], old.result_types, dict(old.attributes), [], old.loc)
        nested = self.enc.nested[bid]  # type: ignore[index]
        if nested is None:  # a frozen region: the same ops, reading the new inputs
            for old_region in old.regions:
                op.regions.append(clone_region(old_region, dict(inner_outer)))
                op.regions[-1].parent = op
            return self.emit(op)
        for region_encs, old_region in zip(nested, old.regions):
            region = Region()
            for benc, old_block in zip(region_encs, old_region.blocks):
                nb = region.append(Block([a.type for a in old_block.args], old_block.label))
                self.dec.decode_block(benc, nb, inner_outer)
            op.regions.append(region)
            region.parent = op
        return self.emit(op)
