"""IR -> e-graph terms: each block of straight-line code becomes egglog bindings, one row per
op in a table of the block's values (``(set (BoundTerm block n) term)``, ``eqsat.egraph
.BINDING_TABLES``), its root a ``let``.

Sharing is preserved (one binding per op), pure ops float freely, effects are threaded
through the ``mem`` and ``io`` state tokens, and ops with regions become ``Barrier`` nodes
whose region blocks are encoded as blocks of their own (with their own roots) in the same
e-graph. ``decode`` reverses all of this.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from eqsat.schema import (
    PRINT_OP,
    PURE_OP,
    READ_OP,
    WRITE_OP,
    Arg,
    Constructor,
    constructors,
)
from frontend.affine import AffineMap
from frontend.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    EnumAttr,
)
from eqsat.egraph import BINDING_TABLES
from eqsat.memory import MemoryBudget
from frontend.ir import Block, Operation, Value
from frontend.types import Type, VectorType


def located(op: Operation) -> str:
    """``at op NAME (FILE:LINE:COL)``: where a phase was working, for budget messages."""
    loc = op.loc
    return f"at op {op.name}" + (f" ({loc})" if loc is not None else "")


def egg_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ivec(values: tuple[int, ...] | list[int]) -> str:
    return f"(vec-of {' '.join(map(str, values))})" if values else "(vec-empty)"


def encode_type(t: Type) -> str:
    if isinstance(t, VectorType) and not t.is_scalable:
        return f"(VT {ivec(t.shape)} {egg_string(str(t.element))})"
    return f"(TT {egg_string(str(t))})"


def map_positions(m: AffineMap) -> list[int]:
    pos = m.result_positions()
    assert pos is not None, f"not a projected permutation: {m}"
    return [-1 if p is None else p for p in pos]


def encode_attr(arg: Arg, attr: Attribute | None) -> str:
    """An attribute as the literal of ``arg.sort`` (see ``schema.ATTR_SORTS``)."""
    if arg.sort == "String":
        if attr is None:
            return '""'
        return egg_string(attr.value if isinstance(attr, EnumAttr) else str(attr))
    assert attr is not None, f"missing attribute {arg.name}"
    if arg.sort == "i64":
        return str(int(attr.value))  # type: ignore[attr-defined]
    if arg.sort == "IVec":
        if isinstance(attr, DenseArrayAttr):
            return ivec([int(v) for v in attr.values])
        assert isinstance(attr, ArrayAttr)
        return ivec(
            [
                (1 if v.value == "reduction" else 0) if isinstance(v, EnumAttr) else int(v.value)
                for v in attr.values  # type: ignore[attr-defined]
            ]
        )
    if arg.sort == "Map":
        assert isinstance(attr, AffineMapAttr)
        return f"(PMap {attr.map.num_dims} {ivec(map_positions(attr.map))})"
    if arg.sort == "MapList":
        assert isinstance(attr, ArrayAttr)
        inner = " ".join(ivec(map_positions(m.map)) for m in attr.values)  # type: ignore
        return f"(vec-of {inner})"
    raise AssertionError(f"no encoding for sort {arg.sort}")


@dataclass
class EncodedBlock:
    """One block's encoding and what decoding it needs."""

    index: int
    block: Block
    root: str  # egglog name of the block's Exit term
    captures: list[Value] = field(default_factory=list)  # values from outside, by Outer index
    barriers: dict[int, Operation] = field(default_factory=dict)
    barrier_captures: dict[int, list[Value]] = field(default_factory=dict)
    # barrier -> its regions' encoded blocks (None: a frozen region, cloned as it is)
    nested: dict[int, list[list[EncodedBlock]] | None] = field(default_factory=dict)
    masked: dict[int, Operation] = field(default_factory=dict)  # Masked id -> the masked op
    # The block's terminator, re-emitted after the ops (None: the block or window has none).
    terminator: Operation | None = None
    # A window of a block (``Encoder.encode_block(ops=...)``): the values it defines that later
    # windows use, which its root returns in place of the terminator's operands.
    outputs: list[Value] = field(default_factory=list)
    ops: int = 0  # ops encoded (a window's share of the block)


def masked_op(op: Operation) -> Operation | None:
    """The op a ``vector.mask`` masks, when the e-graph models the pair as ``(Masked type mask
    passthru inner)``: one result, a body of one pure or reading single-result op (a
    reduction, contraction, transfer_read, ...) whose result the body yields, operands all
    from outside the body. Else None (the mask stays a frozen barrier)."""
    if op.name != "vector.mask" or len(op.results) != 1 or len(op.regions) != 1:
        return None
    blocks = op.regions[0].blocks
    if len(blocks) != 1 or len(blocks[0].ops) != 2:
        return None
    inner, term = blocks[0].ops
    if inner.regions or len(inner.results) != 1 or term.operands != [inner.results[0]]:
        return None
    c = constructors().get(inner.name)
    if c is None or c.sort != "Term" or c.effect not in (PURE_OP, READ_OP):
        return None
    if inner.results[0].type != op.results[0].type:
        return None
    return inner


def masked_write(op: Operation) -> Operation | None:
    """The ``vector.transfer_write`` a ``vector.mask`` (no passthru, no result) masks, when
    the write has no mask of its own: the pair is the write with the mask as its mask operand
    (masked-off lanes are not written either way: frontend/ops/vector_eval.py transfer_write;
    MLIR's lower-vector-mask rewrites it so), and the e-graph encodes it as that write. Else
    None (the mask stays a frozen barrier)."""
    if op.name != "vector.mask" or op.results or len(op.operands) != 1 or len(op.regions) != 1:
        return None
    blocks = op.regions[0].blocks
    if len(blocks) != 1 or len(blocks[0].ops) != 2:
        return None
    inner, term = blocks[0].ops
    if inner.name != "vector.transfer_write" or inner.results or term.operands:
        return None
    if inner.operand_groups()["mask"]:
        return None
    return inner


# Regions whose body must stay one op: a vector.mask masks exactly one maskable op, so its
# body is not rewritten (a lowering strategy would turn that op into several).
FROZEN_REGIONS = frozenset({"vector.mask"})


def _nested_ops(op: Operation) -> list[Operation]:
    return [
        o for region in op.regions for blk in region.blocks for top in blk.ops for o in top.walk()
    ]


def bound(sort: str, block: int, n: int) -> str:
    """The term naming op #n of block ``block`` (an op yielding ``sort``) in the e-graph."""
    return f"({BINDING_TABLES[sort]} {block} {n})"


class _Names:
    """The egglog expression of each value visible in the block being encoded. A leaf that
    names a type (``Arg``, ``Outer``, ``Res``) is spelled at its first use, so that its type
    is too (``Encoder.type``)."""

    def __init__(self, enc: EncodedBlock, type: Callable[[Type], str],
                 bind_args: bool = True) -> None:  # fmt: skip
        self.enc = enc
        self.type = type
        self.exprs: dict[int, str] = {}
        self.leaves: dict[int, tuple[str, Type]] = {}  # value -> (its leaf's head, its type)
        for i, a in enumerate(enc.block.args if bind_args else ()):
            self.leaves[id(a)] = (f"(Arg {enc.index} {i}", a.type)

    def use(self, v: Value) -> str:
        expr = self.exprs.get(id(v))
        if expr is None:
            leaf = self.leaves.pop(id(v), None)
            if leaf is None:  # defined outside this block: a capture
                k = len(self.enc.captures)
                self.enc.captures.append(v)
                leaf = (f"(Outer {self.enc.index} {k}", v.type)
            expr = self.exprs[id(v)] = f"{leaf[0]} {self.type(leaf[1])})"
        return expr

    def uses(self, values: list[Value]) -> str:
        for v in values:  # their types met in the order the line reads them (built backwards)
            if id(v) not in self.exprs:
                self.type(v.type)
        out = "(TNil)"
        for v in reversed(values):
            out = f"(TCons {self.use(v)} {out})"
        return out

    def define_results(self, op: Operation, var: str, multi: bool) -> None:
        if multi:
            for i, r in enumerate(op.results):
                self.leaves[id(r)] = (f"(Res {var} {i}", r.type)
        elif op.results:
            self.exprs[id(op.results[0])] = var


class Encoder:
    """Encodes the blocks of a program into one egglog text, numbering blocks and barriers.

    ``budget``, when given, is checked every few hundred ops (``MemoryBudget.tick``)."""

    def __init__(self, budget: MemoryBudget | None = None) -> None:
        self.lines: list[str] = []
        self.types: dict[str, str] = {}  # a type's term -> the name it is bound to (``type``)
        self.blocks: list[EncodedBlock] = []
        self.next_barrier = 0
        self.next_alloc = 0
        self.budget = budget
        self.encoded = 0  # ops encoded so far, nested ones included

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def type(self, t: Type) -> str:
        """The name of ``t``'s term, ``$tyN``, bound by a line of its own before the first line
        that uses it (so that the e-graph meets the types in the same order as if each were
        written in place). Why: egglog spends its time per term it reads, and a type written
        in place is two terms, ``(VT (vec-of 8 8) "f32")``, in almost every line (bound once,
        loading a window of 4,096 ops took a third less)."""
        term = encode_type(t)
        name = self.types.get(term)
        if name is None:
            name = self.types[term] = f"$ty{len(self.types)}"
            self.lines.append(f"(let {name} {term})")
        return name

    def encode_block(
        self, block: Block, ops: list[Operation] | None = None, outputs: list[Value] = ()
    ) -> EncodedBlock:
        """Encode ``block``, or only ``ops``, a window of its ops (``eqsat.windows``): then
        every value from outside the window, the block's arguments included, is a capture, and
        the root returns ``outputs`` (the terminator's operands if the window ends with it)."""
        enc = EncodedBlock(len(self.blocks), block, f"$root{len(self.blocks)}")
        self.blocks.append(enc)
        b = enc.index
        names = _Names(enc, self.type, bind_args=ops is None)
        state = {"mem": f'(StInit {b} "mem")', "io": f'(StInit {b} "io")'}
        ops = block.ops if ops is None else ops
        last = ops[-1] if ops else None
        term = (
            last
            if last is not None and last.spec is not None and last.spec.has("terminator")
            else None
        )
        enc.terminator, enc.outputs, enc.ops = term, list(outputs), len(ops)
        budget = self.budget
        for n, op in enumerate(ops if term is None else ops[:-1]):
            self.encoded += 1
            if budget is not None:
                budget.tick(self.encoded, "encode", lambda op=op: located(op))
            inner = masked_op(op)
            if inner is not None:  # (Masked type mask passthru inner)
                mask, *passthru = op.operands
                ic = constructors()[inner.name]
                t = self.type(op.results[0].type)  # (types met in the order the line reads)
                for v in op.operands:
                    if id(v) not in names.exprs:
                        self.type(v.type)
                expr = self._expr(inner, ic, names, state)
                mid = self.next_barrier
                self.next_barrier += 1
                enc.masked[mid] = inner
                operands = names.uses(list(inner.operands))
                var = self._bind("Term", b, n, f"(Masked {t} {names.use(mask)} "
                                 f"{names.uses(passthru)} {expr} {mid} {operands})")  # fmt: skip
                names.define_results(op, var, False)
                continue
            write = masked_write(op)
            if write is not None:  # (TransferWrite v mem idx (mask) ...)
                c = constructors()[write.name]
                expr = self._expr(write, c, names, state, mask=op.operands[0])
                state["mem"] = self._bind(c.sort, b, n, expr)
                continue
            c = constructors().get(op.name)
            if c is None or (c.sort == "State" and op.results):  # transfer_write to a tensor
                self._barrier(enc, op, n, names, state)
                continue
            var = self._bind(c.sort, b, n, self._expr(op, c, names, state))
            if c.effect in (WRITE_OP, PRINT_OP):
                state["mem" if c.effect == WRITE_OP else "io"] = var
            names.define_results(op, var, c.sort == "Multi")
        outs = term.operands if term is not None else enc.outputs
        self.lines.append(
            f"(let {enc.root} (Exit {names.uses(list(outs))} {state['mem']} {state['io']}))"
        )
        return enc

    def _expr(
        self,
        op: Operation,
        c: Constructor,
        names: _Names,
        state: dict[str, str],
        mask: Value | None = None,
    ) -> str:
        """The constructor term of ``op`` (its operands as the block's expressions); ``mask``
        given: the value of its (empty) ``mask`` operand group."""
        groups = op.operand_groups()
        parts: list[str] = [c.name]
        for arg in c.args:
            if arg.role == "type":
                parts.append(self.type(op.results[0].type))
            elif arg.role == "id":
                parts.append(str(self.next_alloc))
                self.next_alloc += 1
            elif arg.role == "operand":
                vals = [mask] if mask is not None and arg.name == "mask" else groups[arg.name]
                parts.append(names.use(vals[0]) if arg.kind == "single" else names.uses(vals))
            elif arg.role == "attr":
                parts.append(encode_attr(arg, op.attributes.get(arg.name)))
            else:
                parts.append(state[arg.name])
        return f"({' '.join(parts)})"

    def _bind(self, sort: str, block: int, n: int, expr: str) -> str:
        """Bind op #n of ``block`` to ``expr`` (a line of its own); the term that names it.
        The bindings are rows of a table per sort (``eqsat.egraph.BINDING_TABLES``), not
        ``let``s: egglog makes a table of each ``let``, and its saturation and teardown grow
        with the number of tables."""
        var = bound(sort, block, n)
        self.lines.append(f"(set {var} {expr})")
        return var

    def _barrier(
        self, enc: EncodedBlock, op: Operation, n: int, names: _Names, state: dict[str, str]
    ) -> None:
        """An op we do not rewrite: its operands and the values its regions capture are its
        inputs, so that decoding emits them first; its region blocks get roots of their own."""
        bid = self.next_barrier
        self.next_barrier += 1
        inner = {id(v) for o in _nested_ops(op) for v in o.results}
        inner |= {id(a) for region in op.regions for blk in region.blocks for a in blk.args}
        captured: list[Value] = []
        if op.name in FROZEN_REGIONS:  # kept verbatim: their captures are what the body uses
            regions = None
            for o in _nested_ops(op):
                for v in o.operands:
                    if id(v) not in inner and all(v is not c for c in captured):
                        captured.append(v)
        else:
            regions = [[self.encode_block(blk) for blk in region.blocks] for region in op.regions]
            for encoded in regions:
                for e in encoded:
                    for v in e.captures:
                        if id(v) not in inner and all(v is not c for c in captured):
                            captured.append(v)
        enc.barriers[bid] = op
        enc.barrier_captures[bid] = captured
        enc.nested[bid] = regions
        inputs = names.uses(list(op.operands) + captured)
        var = self._bind("Multi", enc.index, n,
                         f"(Barrier {bid} {inputs} {state['mem']} {state['io']})")  # fmt: skip
        state["mem"], state["io"] = f"(MemOut {var})", f"(IOOut {var})"
        names.define_results(op, var, multi=True)
