"""The IR every stage shares: values, operations, blocks, regions and modules.

Types and attributes are immutable values (``frontend.types``, ``frontend.attributes``);
operations are mutable containers so that builders and rewriters can edit them. Each
operation knows its ``OpSpec`` (``frontend.ops``), the single description of its syntax,
types and semantics.

This module is the bottom layer: it imports no op table, parser or printer. The op table
installs its lookup (``use_op_table``) and the printer its module printer (``use_printer``)
when they are imported; ``import frontend`` imports both.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from frontend.attributes import Attribute
from frontend.errors import Source, SourceLoc
from frontend.types import Type

if TYPE_CHECKING:
    from collections.abc import Callable

_lookup: Callable[[str], Any] = lambda name: None  # noqa: E731 - until the op table installs
_print_module: Callable[[Module], str] | None = None


def use_op_table(lookup: Callable[[str], Any]) -> None:
    """Install the op table's ``lookup(name) -> OpSpec | None`` (done by ``frontend.ops``)."""
    global _lookup
    _lookup = lookup


def use_printer(print_module: Callable[[Module], str]) -> None:
    """Install how a ``Module`` prints itself (done by ``frontend.printer``)."""
    global _print_module
    _print_module = print_module


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while building or walking a large IR.

    Parsing allocates hundreds of thousands of objects and no garbage; the collections those
    allocations trigger cost ~45% of the parse time. The collector resumes afterwards (and
    then finds any cycles an aborted parse left behind).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def gc_settling() -> Iterator[Callable[..., None]]:
    """Yields ``settle(collect=True)``: collect the garbage made so far, then freeze what
    survives (``gc.freeze``) until the ``with`` ends, so that later collections skip it.

    Why: a long run builds its output piece by piece (``eqsat.optimizer``'s windows), and every
    full collection walks all the objects alive, so on a program of millions of ops the cyclic
    collector's cost grows with the square of its size (at 32,000 ops 3.4 CPU s of full
    collections against 1.4 at 16,000). Settled after each piece, a collection walks only what
    the pieces since made. Does nothing when the collector is off. (``gc.unfreeze`` at the end
    also returns objects frozen before, such as the interpreter's own at start-up, to the
    oldest generation: later collections walk them again, nothing more.)

    ``settle(collect=False)`` only freezes: for a piece made with the collector paused and
    known to leave no garbage cycle (a cycle made then stays until the ``with`` ends). Why:
    the collection walks every object the piece made, a window's million of them, 0.25 to
    0.4 s a window at 100,000 ops, to find nothing."""
    own = gc.isenabled()

    def settle(collect: bool = True) -> None:
        if own:
            if collect:
                gc.collect()
            gc.freeze()

    try:
        yield settle
    finally:
        if own:
            gc.unfreeze()


class Value:
    """An SSA value: an op result or a block argument. ``name`` is a printing hint."""

    __slots__ = ("index", "name", "owner", "type")

    def __init__(
        self,
        type: Type,
        owner: Operation | Block | None = None,
        index: int = 0,
        name: str | None = None,
    ) -> None:
        self.type = type
        self.owner = owner
        self.index = index
        self.name = name

    def __repr__(self) -> str:
        return f"<Value %{self.name or '?'} : {self.type}>"


class Operation:
    """One op: name, operands, results, attributes (inherent and discardable), regions."""

    __slots__ = (
        "_loc",
        "_offset",
        "attributes",
        "name",
        "operands",
        "parent",
        "regions",
        "results",
        "spec",
    )

    def __init__(
        self,
        name: str,
        operands: list[Value] | None = None,
        result_types: list[Type] | None = None,
        attributes: dict[str, Attribute] | None = None,
        regions: list[Region] | None = None,
        loc: SourceLoc | None = None,
    ) -> None:
        self.name = name
        self.spec: Any = _lookup(name)  # the OpSpec, or None for an unknown op
        self.operands = list(operands or [])
        self.results = [Value(t, self, i) for i, t in enumerate(result_types or [])]
        self.attributes = dict(attributes or {})
        self.regions = list(regions or [])
        for r in self.regions:
            r.parent = self
        self._loc: SourceLoc | Source | None = loc
        self.parent: Block | None = None

    @property
    def loc(self) -> SourceLoc | None:
        """Where the op was written. The parser records only the offset and its ``Source``;
        the location is made on first use (errors, mostly)."""
        loc = self._loc
        if loc.__class__ is Source:
            loc = self._loc = loc.at(self._offset)  # type: ignore[union-attr]
        return loc  # type: ignore[return-value]

    @loc.setter
    def loc(self, loc: SourceLoc | None) -> None:
        self._loc = loc

    @property
    def result(self) -> Value:
        assert len(self.results) == 1, f"{self.name} has {len(self.results)} results"
        return self.results[0]

    @property
    def result_types(self) -> list[Type]:
        return [r.type for r in self.results]

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attributes.get(name, default)

    def operand_groups(self) -> dict[str, list[Value]]:
        """Operands by their spec names (variadic and optional groups resolved)."""
        assert self.spec is not None
        return self.spec.group_operands(self)

    def operand(self, name: str) -> Value | None:
        """The first value of operand group ``name`` (None if the group is empty)."""
        spec = self.spec
        assert spec is not None
        pos = spec.positions.get(name)
        if pos is not None:  # a single operand at a fixed place (see OpSpec.operand_span)
            operands = self.operands
            if pos < 0:
                pos += len(operands)
            return operands[pos] if 0 <= pos < len(operands) else None
        start, size = spec.operand_span(self, name)
        return self.operands[start] if size else None

    def walk(self) -> Iterator[Operation]:
        """This op and every op nested in its regions, in textual order."""
        yield self
        for region in self.regions:
            for block in region.blocks:
                for op in block.ops:
                    if op.regions:
                        yield from op.walk()
                    else:  # (no generator per op: a body of 2 M ops walks 3x faster)
                        yield op

    def __repr__(self) -> str:
        return f"<Operation {self.name}>"


_new = object.__new__


def make_op(
    spec: Any,
    operands: list[Value],
    attributes: dict[str, Attribute],
    source: Source,
    offset: int,
) -> Operation:
    """A region-less op of a known spec, written at ``offset`` of ``source``, that takes
    ownership of ``operands`` and ``attributes`` (for the parser; ``Operation(...)`` copies
    them). Its results are left empty for the caller to fill."""
    op = _new(Operation)
    op.name = spec.name
    op.spec = spec
    op.operands = operands
    op.results = []
    op.attributes = attributes
    op.regions = []
    op._loc = source
    op._offset = offset
    op.parent = None
    return op


def signature(op: Operation, spec: Any) -> tuple[Any, ...]:
    """What an op of a ``LOCAL`` spec is verified and printed by, besides its operands' names:
    the spec, its attribute names and objects, its operand count and the type objects of its
    operands and results, by identity (equal-looking objects that print differently, ``0.0``
    and ``-0.0``, are never taken for one another). A memo keyed by it holds
    ``signature_objects`` too, so the identities stay theirs (``frontend.verifier``,
    ``frontend.print_templates``)."""
    attrs = op.attributes
    operands = op.operands
    return (id(spec), *attrs, *[id(a) for a in attrs.values()], len(operands),
            *[id(v.type) for v in operands], *[id(v.type) for v in op.results])  # fmt: skip


def signature_objects(op: Operation, spec: Any) -> tuple[Any, ...]:
    """The objects ``signature(op, spec)`` names by identity (a memo keeps them alive)."""
    return (spec, list(op.attributes.values()), [v.type for v in op.operands],
            [v.type for v in op.results])  # fmt: skip


def new_op(
    spec: Any,
    operands: list[Value],
    result_types: list[Type],
    attributes: dict[str, Attribute],
) -> Operation:
    """``Operation(spec.name, operands, result_types, attributes)`` of a known spec, without
    regions or location, that takes ownership of ``operands`` and ``attributes`` (for the
    decoder, which builds millions of ops from fresh lists: ``Operation(...)`` looks the spec
    up and copies both)."""
    op = _new(Operation)
    op.name = spec.name
    op.spec = spec
    op.operands = operands
    op.results = (
        [Value(result_types[0], op)]
        if len(result_types) == 1
        else [Value(t, op, i) for i, t in enumerate(result_types)]
    )
    op.attributes = attributes
    op.regions = []
    op._loc = None
    op.parent = None
    return op


class Block:
    """A list of ops with typed arguments (``^bb0(%x: f32):``)."""

    __slots__ = ("args", "label", "ops", "parent")

    def __init__(self, arg_types: list[Type] | None = None, label: str | None = None) -> None:
        self.args = [Value(t, self, i) for i, t in enumerate(arg_types or [])]
        self.ops: list[Operation] = []
        self.label = label
        self.parent: Region | None = None

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.ops.append(op)
        return op

    def add_arg(self, type: Type, name: str | None = None) -> Value:
        v = Value(type, self, len(self.args), name)
        self.args.append(v)
        return v

    @property
    def terminator(self) -> Operation | None:
        return self.ops[-1] if self.ops else None


class Region:
    """A list of blocks owned by an op (``scf.for``'s body, ``func.func``'s body)."""

    __slots__ = ("blocks", "parent")

    def __init__(self, blocks: list[Block] | None = None) -> None:
        self.blocks = list(blocks or [])
        for b in self.blocks:
            b.parent = self
        self.parent: Operation | None = None

    def append(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def block(self) -> Block:
        return self.blocks[0]


class Module:
    """A ``builtin.module``: its attributes and a body of top-level ops (functions, globals)."""

    def __init__(
        self,
        ops: list[Operation] | None = None,
        attributes: dict[str, Attribute] | None = None,
        name: str | None = None,
        source: str = "<input>",
    ) -> None:
        self.body = Block()
        for op in ops or []:
            self.body.append(op)
        self.attributes = dict(attributes or {})
        self.name = name
        self.source = source

    @property
    def ops(self) -> list[Operation]:
        return self.body.ops

    def functions(self) -> dict[str, Operation]:
        return {
            op.attributes["sym_name"].value: op  # type: ignore[attr-defined]
            for op in self.body.ops
            if op.name == "func.func"
        }

    def lookup_symbol(self, name: str) -> Operation | None:
        for op in self.body.ops:
            sym = op.attributes.get("sym_name")
            if sym is not None and getattr(sym, "value", None) == name:
                return op
        return None

    def walk(self) -> Iterator[Operation]:
        for op in self.body.ops:
            if op.regions:
                yield from op.walk()
            else:
                yield op

    def __str__(self) -> str:
        if _print_module is None:
            return f"<Module of {len(self.body.ops)} ops; import frontend.printer to print it>"
        return _print_module(self)
