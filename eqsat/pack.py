"""Loop-level work before saturation: copy a strided panel that a loop nest reads again and
again into a contiguous buffer first (packing, as BLAS libraries and linalg's promotion of
a tile's operand do).

Why: the register-tiled GEMM of ``experiments/kernels_e2e`` (loops j, i, k; 4x16 tiles)
reads ``B[k, j:j+16]`` for every k in each iteration of the i loop: a 256x16 panel of
16 KiB, the same on every i. Its rows lie 1 KiB apart in B, so they fall into 4 of L1's 64
sets: at most 32 of its 256 lines stay in L1, and every pass of the k loop streams the panel
from L2 again. Copied into a contiguous 256x16 buffer once per j, it stays in L1 for all
64 passes (the README's "Whole kernels" gives the times).

What is packed: a ``vector.transfer_read %M[...]`` (no mask, every dim in bounds, the
minor identity map; ``M`` of static shape, identity layout) that is a direct child of a
chain of ``scf.for`` loops ``L`` ⊃ ... ⊃ innermost, each index either defined outside ``L``
or the induction variable of a loop inside ``L`` whose step is the vector's extent along
that dim. The reads of one iteration of ``L`` then cover a box of ``M`` (the panel), the
same box on every iteration. A buffer of the box's shape (``memref.alloca``, 64-byte
aligned, at the top of the function) is filled right before ``L`` by a nest of the same
loops, and the read reads the buffer instead (reads of the same box share one buffer). The
outermost such ``L`` that pays is taken.

Legal (otherwise the read is left alone): every loop of the chain has constant bounds and
at least one trip (the copy reads exactly what ``L``'s first iteration reads, so nothing
out of bounds and nothing the program would not read); no op inside ``L`` but a read uses
``M``, no view of ``M`` exists in the function and ``L`` holds no op of unknown effect
(``eqsat.hoist.known_effects``), so ``M`` holds the same values throughout ``L``. As in
hoisting, distinct memref values are taken to be distinct buffers. The copy moves values
unchanged: every bit is kept.

Pays (all of): ``L`` runs at least twice (the panel is reused), the panel is no larger than
L1, and where it lies in ``M`` some L1 set would need more of its lines than the set has
ways: unpacked, its lines evict each other and every pass refetches them from L2; packed,
they are contiguous, stay in L1 when the panel and the other operands fit there, and stream
in the order the prefetcher expects when they do not (the 512^3 GEMM's 32 KiB panel of B:
56% of the FMA peak unpacked, 73% packed; README "Whole kernels"). L1 is this project's
x86 hosts' (Zen 3, Skylake): 32 KiB, 8 ways, 64-byte lines. A contiguous panel (the conv
kernel's filter) never conflicts and is left alone.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from frontend.affine import AffineMap
from frontend.attributes import AffineMapAttr, DenseArrayAttr, IntegerAttr
from frontend.ir import Block, Module, Operation, Region, Value
from frontend.types import FloatType, IndexType, IntegerType, MemRefType, VectorType, i64

from eqsat.hoist import known_effects, nested_ops, viewed_memrefs
from eqsat.unroll_loops import index_constant, int_constant

LINE_BYTES = 64
L1_SETS = 64
L1_WAYS = 8
L1_BYTES = LINE_BYTES * L1_SETS * L1_WAYS
READS_ONLY = frozenset({"vector.transfer_read", "vector.load", "memref.load"})


@dataclass
class _Panel:
    read: Operation
    nest: Operation  # L: the loop the panel is invariant in
    dims: list[Operation | None]  # per dim of M: the loop whose IV indexes it, or None
    shape: list[int]  # the buffer's


def pack_module(module: Module) -> int:
    """Pack every read of every function of ``module`` that is legal and pays (in place);
    returns how many reads now read a packed buffer."""
    done = 0
    for func in module.body.ops:
        if func.name != "func.func" or not func.regions or not func.regions[0].blocks:
            continue
        views = viewed_memrefs(func)
        cache: dict[int, _Nest] = {}
        found = [p for op in list(func.walk()) if op.name == "vector.transfer_read"
                 if (p := _panel(op, views, cache)) is not None]  # fmt: skip
        copies: dict[tuple, tuple[Value, Value]] = {}  # reads of one panel share its copy
        for p in found:
            key = _key(p)
            if key not in copies:
                copies[key] = _copy(func.regions[0].blocks[0], p)
            _redirect(p, *copies[key])
            done += 1
    return done


def _key(p: _Panel) -> tuple:
    """Reads with equal keys read the same box of the same memref on each iteration of L."""
    g = p.read.operand_groups()
    at = [id(i) if d is None else id(d) for i, d in zip(g["indices"], p.dims)]
    return (id(g["source"][0]), id(p.nest), tuple(at), tuple(p.shape),
            str(p.read.results[0].type), id(g["padding"][0]))  # fmt: skip


def _bounds(loop: Operation) -> tuple[int, int, int] | None:
    """(lb, ub, step) of a loop of constant bounds and at least one trip."""
    lb, ub, step = (int_constant(v) for v in loop.operands[:3])
    if lb is None or ub is None or step is None or step <= 0 or ub <= lb:
        return None
    return lb, ub, step


def _trips(loop: Operation) -> int:
    b = _bounds(loop)
    assert b is not None
    return -(-(b[1] - b[0]) // b[2])


def _enclosing_loops(op: Operation) -> list[Operation]:
    """The scf.for ops of which ``op`` is a direct descendant, innermost first (up to the
    first ancestor that is not a loop)."""
    loops: list[Operation] = []
    block = op.parent
    while block is not None and block.parent is not None:
        owner = block.parent.parent
        if owner is None or owner.name != "scf.for":
            break
        loops.append(owner)
        block = owner.parent
    return loops


def _element_bytes(t: MemRefType) -> int | None:
    e = t.element
    if isinstance(e, (FloatType, IntegerType)) and e.width % 8 == 0:
        return e.width // 8
    return None


def _panel(read: Operation, views: set[int], cache: dict[int, _Nest]) -> _Panel | None:
    """The panel ``read`` should read from a packed buffer, if any (see the module doc)."""
    g = read.operand_groups()
    memref, indices = g["source"][0], g["indices"]
    t, v = memref.type, read.results[0].type
    if (g.get("mask") or not isinstance(t, MemRefType) or not t.has_static_shape
            or t.layout is not None or id(memref) in views or not isinstance(v, VectorType)
            or _element_bytes(t) is None):  # fmt: skip
        return None
    pmap = read.attributes.get("permutation_map")
    if isinstance(pmap, AffineMapAttr) and pmap.map != AffineMap.minor_identity(t.rank, v.rank):
        return None
    if not all(getattr(b, "value", 0) for b in read.attributes.get("in_bounds", ())):
        return None
    extents = [1] * (t.rank - v.rank) + list(v.shape)
    loops = _enclosing_loops(read)
    for m in range(len(loops) - 1, 0, -1):  # the outermost L first
        p = _panel_in(read, indices, extents, loops[m], loops[:m], cache)
        if p is not None and _legal(_nest(p.nest, cache), memref) and _pays(p, t):
            return p
    return None


@dataclass
class _Nest:
    """What the pass needs to know of a loop L, computed once per loop."""

    defined: set[int]  # the values defined inside (its ops' results, its blocks' arguments)
    known: bool  # every op inside of known effects (eqsat.hoist.known_effects)
    touched: set[int]  # the memref values an op inside other than a read uses


def _nest(loop: Operation, cache: dict[int, _Nest]) -> _Nest:
    if id(loop) not in cache:
        ops = list(nested_ops(loop))
        args = {id(a) for o in [loop, *ops] for r in o.regions for b in r.blocks for a in b.args}
        touched = {id(v) for o in ops if o.name not in READS_ONLY for v in o.operands
                   if isinstance(v.type, MemRefType)}  # fmt: skip
        cache[id(loop)] = _Nest(args | {id(v) for o in ops for v in o.results},
                                known_effects(loop), touched)  # fmt: skip
    return cache[id(loop)]


def _panel_in(read: Operation, indices: list[Value], extents: list[int], nest: Operation,
              inner: list[Operation], cache: dict[int, _Nest]) -> _Panel | None:  # fmt: skip
    ivs = {id(_iv(loop)): loop for loop in inner}
    if not any(id(i) in ivs for i in indices):
        return None  # invariant in every loop inside L: hoisting reads it once
    if any(_bounds(loop) is None for loop in [nest, *inner]):
        return None
    inside = _nest(nest, cache).defined
    if id(read.operand_groups()["padding"][0]) in inside:
        return None
    dims: list[Operation | None] = []
    shape: list[int] = []
    for index, extent in zip(indices, extents):
        loop = ivs.get(id(index))
        if loop is None and id(index) in inside:
            return None  # computed inside L, or L's own induction variable
        if loop is not None and (loop in dims or _bounds(loop)[2] != extent):  # type: ignore[index]
            return None
        dims.append(loop)
        shape.append(extent * _trips(loop) if loop is not None else extent)
    return _Panel(read, nest, dims, shape)


def _legal(nest: _Nest, memref: Value) -> bool:
    """Nothing in the loop but reads uses ``memref``, and every op there has known effects."""
    return nest.known and id(memref) not in nest.touched


def _pays(p: _Panel, t: MemRefType) -> bool:
    """Reused, no larger than L1, and its lines conflict in L1 where it lies."""
    eb = _element_bytes(t)
    assert eb is not None
    count = 1
    for s in p.shape:
        count *= s
    if _trips(p.nest) < 2 or count * eb > L1_BYTES:
        return False
    strides = [1] * t.rank
    for d in range(t.rank - 2, -1, -1):
        strides[d] = strides[d + 1] * t.shape[d + 1]  # type: ignore[operator]
    lines: set[int] = set()
    for row in itertools.product(*(range(s) for s in p.shape[:-1])):
        start = sum(i * s for i, s in zip(row, strides)) * eb
        lines.update(range(start // LINE_BYTES, (start + p.shape[-1] * eb - 1) // LINE_BYTES + 1))
    per_set = Counter(line % L1_SETS for line in lines)
    return max(per_set.values()) > L1_WAYS


def _insert_before(op: Operation, anchor: Operation) -> Value | None:
    block = anchor.parent
    assert block is not None
    block.ops.insert(block.ops.index(anchor), op)
    op.parent = block
    return op.results[0] if op.results else None


def _offset(loop: Operation, iv: Value, anchor: Operation) -> Value:
    """``iv - lb`` of ``loop``'s bounds before ``anchor`` (``iv`` itself when lb is 0)."""
    lb = _bounds(loop)[0]  # type: ignore[index]
    if lb == 0:
        return iv
    sub = Operation("arith.subi", [iv, index_constant(lb, anchor)], [IndexType()])
    v = _insert_before(sub, anchor)
    assert v is not None
    return v


def _iv(loop: Operation) -> Value:
    return loop.regions[0].blocks[0].args[0]


def _copy(entry: Block, p: _Panel) -> tuple[Value, Value]:
    """The buffer at the top of the function and the copy nest right before ``p.nest``;
    returns the buffer and an index 0 defined before ``p.nest``."""
    read = p.read
    g = read.operand_groups()
    memref, indices, padding = g["source"][0], g["indices"], g["padding"][0]
    t: MemRefType = memref.type
    alloca = Operation("memref.alloca", [], [MemRefType(tuple(p.shape), t.element)],
                       {"alignment": IntegerAttr(64, i64),
                        "operandSegmentSizes": DenseArrayAttr("i32", (0, 0))})  # fmt: skip
    entry.ops.insert(0, alloca)
    alloca.parent = entry
    buffer = alloca.results[0]
    zero = index_constant(0, p.nest)
    # the copy: the packed dims' loops (outermost dim first), the same bounds, before p.nest
    src, dst = list(indices), [zero] * t.rank
    anchor = p.nest  # where the next op goes: before it
    for d, loop in enumerate(p.dims):
        if loop is not None:
            body = Block([IndexType()])
            body.append(Operation("scf.yield"))
            copy = Operation("scf.for", loop.operands[:3], [], {}, [Region([body])])
            _insert_before(copy, anchor)
            anchor = body.ops[0]
            src[d], dst[d] = body.args[0], _offset(loop, body.args[0], anchor)
    load = Operation(read.name, [memref, *src, padding], [read.results[0].type],
                     dict(read.attributes))  # fmt: skip
    kept = {k: v for k, v in read.attributes.items() if k in ("in_bounds", "permutation_map")}
    segments = DenseArrayAttr("i32", (1, 1, t.rank, 0))
    _insert_before(load, anchor)
    _insert_before(Operation("vector.transfer_write", [load.results[0], buffer, *dst], [],
                             {**kept, "operandSegmentSizes": segments}), anchor)  # fmt: skip
    return buffer, zero


def _redirect(p: _Panel, buffer: Value, zero: Value) -> None:
    """``p.read`` reads the buffer, at each packed dim's IV minus its lower bound, 0 elsewhere."""
    read = p.read
    at = [zero if loop is None else _offset(loop, _iv(loop), read) for loop in p.dims]
    read.operands = [buffer, *at, read.operand_groups()["padding"][0]]
