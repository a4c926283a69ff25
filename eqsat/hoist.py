"""Loop-level work before saturation: keep accumulator tiles in registers across a loop and
read loop-invariant tiles once.

The e-graph sees one straight-line block at a time (``eqsat/encode.py``: an ``scf.for`` is a
barrier whose body is a block of its own), so what crosses iterations is decided here, on the
IR, as MLIR's ``hoistRedundantVectorTransfers`` does. In an ``scf.for`` body:

- a ``vector.transfer_read`` / ``vector.transfer_write`` pair of the same memref, the same
  loop-invariant indices, type, map and ``in_bounds``, unmasked, the read first, becomes an
  ``iter_args`` value: the read moves before the loop, the written value is yielded, the write
  moves after the loop;
- any other unmasked ``vector.transfer_read`` with loop-invariant operands of a memref the loop
  does not write moves before the loop.

Soundness follows MLIR's conditions: no other op in the loop (nested ones included) touches
that memref value, no view of it exists anywhere in the function (``memref.subview``,
``memref.cast``, ...: any op with a memref result that uses it), and the loop holds no op with
unknown effects (calls, unknown ops). Like MLIR's, it takes distinct memref values to be
distinct buffers (function arguments that alias each other are outside its contract). A loop
with zero trips still writes back what it read, which leaves memory unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator

from frontend.ir import Block, Module, Operation, Value
from frontend.ops.spec import PURE, READS, WRITES
from frontend.types import MemRefType

# Ops inside a loop whose effects the pass understands; anything else stops it.
_TRANSFERS = ("vector.transfer_read", "vector.transfer_write")
_REGION_OPS = ("scf.for", "scf.if", "scf.yield", "vector.mask", "vector.yield")


def hoist_module(module: Module) -> int:
    """Hoist in every function of ``module`` (in place); returns how many ops moved."""
    moved = 0
    for op in module.body.ops:
        if op.name == "func.func" and op.regions and op.regions[0].blocks:
            views = viewed_memrefs(op)
            for loop in _loops_innermost_first(op):
                moved += _hoist_loop(loop, views)
    return moved


def _loops_innermost_first(op: Operation) -> list[Operation]:
    out: list[Operation] = []

    def visit(o: Operation) -> None:
        for region in o.regions:
            for block in region.blocks:
                for inner in block.ops:
                    visit(inner)
        if o.name == "scf.for":
            out.append(o)

    visit(op)
    return out


def viewed_memrefs(func: Operation) -> set[int]:
    """Memref values some op turns into another memref value (a view or cast of it)."""
    out: set[int] = set()
    for o in func.walk():
        if any(isinstance(r.type, MemRefType) for r in o.results):
            out.update(id(v) for v in o.operands if isinstance(v.type, MemRefType))
    return out


def _defined_inside(loop: Operation) -> set[int]:
    ids: set[int] = set()
    for region in loop.regions:
        for block in region.blocks:
            ids.update(id(a) for a in block.args)
            for top in block.ops:
                for o in top.walk():
                    ids.update(id(r) for r in o.results)
    return ids


def nested_ops(loop: Operation) -> Iterator[Operation]:
    for region in loop.regions:
        for block in region.blocks:
            for top in block.ops:
                yield from top.walk()


def known_effects(loop: Operation) -> bool:
    """Every op in the loop is pure, a transfer, or a structured op around such ops."""
    for o in nested_ops(loop):
        if o.spec is None:
            return False
        if o.name in _TRANSFERS or o.name in _REGION_OPS:
            continue
        if o.spec.has(PURE) and not o.regions:
            continue
        if (o.spec.has(READS) or o.spec.has(WRITES)) and not o.regions:
            continue  # memory ops of known operands: checked per memref below
        return False
    return True


def _memref_users(loop: Operation, memref: Value) -> list[Operation]:
    return [o for o in nested_ops(loop) if any(v is memref for v in o.operands)]


def _transfer_key(op: Operation) -> tuple:
    g = op.operand_groups()
    return (
        id(g["source"][0]),
        tuple(id(v) for v in g["indices"]),
        str(op.attributes.get("permutation_map")),
        str(op.attributes.get("in_bounds")),
    )


def _unmasked(op: Operation) -> bool:
    """No mask operand (an op inside a vector.mask region is never a direct child of the loop
    body, the only place the pass looks)."""
    return not op.operand_groups().get("mask")


def _hoist_loop(loop: Operation, views: set[int]) -> int:
    if not known_effects(loop):
        return 0
    body = loop.regions[0].blocks[0]
    moved = 0
    changed = True
    while changed:
        changed = False
        inside = _defined_inside(loop)
        for op in list(body.ops):
            if op.name != "vector.transfer_read" or not _unmasked(op):
                continue
            g = op.operand_groups()
            memref = g["source"][0]
            if not isinstance(memref.type, MemRefType) or id(memref) in views:
                continue
            if any(id(v) in inside for v in op.operands):
                continue  # reads something the loop computes
            users = _memref_users(loop, memref)
            others = [u for u in users if u is not op]
            if not others:
                _move_before(op, loop)
                moved += 1
                changed = True
                break
            writes = [u for u in others if u.name == "vector.transfer_write"]
            if len(others) == 1 and len(writes) == 1:
                w = writes[0]
                if (
                    w.parent is body
                    and _unmasked(w)
                    and _transfer_key(w) == _transfer_key(op)
                    and w.operand_groups()["vector"][0].type == op.results[0].type
                    and body.ops.index(w) > body.ops.index(op)
                ):
                    _carry(loop, body, op, w)
                    moved += 2
                    changed = True
                    break
    return moved


def _move_before(op: Operation, loop: Operation) -> None:
    body = op.parent
    assert body is not None and loop.parent is not None
    body.ops.remove(op)
    outer = loop.parent
    outer.ops.insert(outer.ops.index(loop), op)
    op.parent = outer


def _replace_uses(root: Block, old: Value, new: Value) -> None:
    for top in root.ops:
        for o in top.walk():
            o.operands = [new if v is old else v for v in o.operands]


def _carry(loop: Operation, body: Block, read: Operation, write: Operation) -> None:
    """read -> before the loop (its value the new iter_arg's init), the written value ->
    yielded, the write -> after the loop, writing the loop's new result."""
    value = write.operand_groups()["vector"][0]
    _move_before(read, loop)
    arg = body.add_arg(read.results[0].type)
    _replace_uses(body, read.results[0], arg)
    body.ops.remove(write)
    term = body.ops[-1]
    assert term.name == "scf.yield"
    term.operands.append(value)
    loop.operands.append(read.results[0])
    result = Value(read.results[0].type, loop, len(loop.results))
    loop.results.append(result)
    outer = loop.parent
    assert outer is not None
    write.operands = [result if v is value else v for v in write.operands]
    outer.ops.insert(outer.ops.index(loop) + 1, write)
    write.parent = outer
