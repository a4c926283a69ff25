"""Loop-level work after saturation: unroll innermost ``scf.for`` loops by a small factor.

After ``eqsat.hoist`` a register-tile loop carries its accumulators as ``iter_args`` and its
body is a short chain (a few reads, one contraction). Each iteration pays the loop's own
counter, compare and branch, and LLVM's O3 leaves such a loop rolled (checked on the
whole-kernel GEMM: ``eqsat opt --emit asm``). Unrolled by ``factor``, the body holds ``factor``
copies in order, iteration ``s`` reading ``iv + s * step`` and the iter_args the copy before it
yielded: the same ops in the same order on the same values, so every bit is kept.

Only loops whose bounds and step are ``arith.constant`` values, whose trip count is a multiple
of ``factor`` (no remainder loop is needed) and above it, and whose body has no nested region
(innermost) and is short are unrolled: at most ``MAX_BODY_LANES`` lanes of results in all (a
scalar counts one). A register tile's step is short (the 4x16 GEMM step computes about 200
lanes before lowering, 400 after); a long body already amortises the counter and branch, and
copies of it only grow the code (softmax's row, 256-lane vectors through eight ops and 256
``expf`` calls, about 2,300 lanes). Lanes, not ops, so that a program gets the same answer
before lowering (MLIR's input, ``optimize.loop_level``) and after (eqsat's).
"""

from __future__ import annotations

from frontend.attributes import IntegerAttr
from frontend.ir import Block, Module, Operation, Value
from frontend.types import IndexType, VectorType

FACTOR = 4
MAX_BODY_LANES = 1024


def unroll_module(module: Module, factor: int = FACTOR) -> int:
    """Unroll every eligible innermost loop of ``module`` (in place); how many were."""
    done = 0
    for op in list(module.walk()):
        if op.name == "scf.for" and _eligible(op, factor):
            _unroll(op, factor)
            done += 1
    return done


def int_constant(v: Value) -> int | None:
    """The value of an integer ``arith.constant`` (None for anything else)."""
    op = v.owner
    if isinstance(op, Operation) and op.name == "arith.constant":
        attr = op.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return int(attr.value)
    return None


def _eligible(loop: Operation, factor: int) -> bool:
    lb, ub, step = (int_constant(v) for v in loop.operands[:3])
    if lb is None or ub is None or step is None or step <= 0 or factor < 2:
        return False
    trips = max(0, -(-(ub - lb) // step))
    body = loop.regions[0].blocks[0]
    return (trips > factor and trips % factor == 0
            and all(not o.regions for o in body.ops)
            and _lanes(body) <= MAX_BODY_LANES)  # fmt: skip


def _lanes(body: Block) -> int:
    """The lanes of results the body computes (a vector's elements, 1 for a scalar)."""
    return sum(
        t.num_elements() if isinstance(t, VectorType) else 1
        for op in body.ops
        for t in op.result_types
    )


def index_constant(value: int, before: Operation) -> Value:
    """A new index ``arith.constant`` placed right before ``before``."""
    t = IndexType()
    c = Operation("arith.constant", [], [t], {"value": IntegerAttr(value, t)})
    block = before.parent
    assert block is not None
    block.ops.insert(block.ops.index(before), c)
    c.parent = block
    return c.results[0]


def _unroll(loop: Operation, factor: int) -> None:
    body: Block = loop.regions[0].blocks[0]
    iv, carried = body.args[0], body.args[1:]
    step = int_constant(loop.operands[2])
    assert step is not None
    *ops, term = body.ops
    assert term.name == "scf.yield"
    original = list(term.operands)
    yielded = original
    for s in range(1, factor):
        offset = Operation("arith.constant", [], [IndexType()],
                           {"value": IntegerAttr(s * step, IndexType())})  # fmt: skip
        shifted = Operation("arith.addi", [iv, offset.results[0]], [IndexType()])
        mapping: dict[int, Value] = {id(iv): shifted.results[0]}
        mapping.update({id(a): y for a, y in zip(carried, yielded)})
        copies = [offset, shifted]
        for op in ops:
            copy = Operation(op.name, [mapping.get(id(v), v) for v in op.operands],
                             op.result_types, dict(op.attributes), [], op.loc)  # fmt: skip
            mapping.update({id(r): n for r, n in zip(op.results, copy.results)})
            copies.append(copy)
        for c in copies:
            body.ops.insert(len(body.ops) - 1, c)
            c.parent = body
        yielded = [mapping.get(id(v), v) for v in original]
    term.operands = yielded
    loop.operands[2] = index_constant(step * factor, loop)
