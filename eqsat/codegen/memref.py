"""Lowerings of ``memref``: descriptors in SSA, addresses, alloc/alloca/dealloc, globals.

Static sizes, strides and offsets of a memref type become constants in its ``MemDesc`` (as
MLIR's lowering does), so LLVM sees constant strides and vectorizes the address arithmetic.
``memref.alloc`` is ``malloc`` with the aligned pointer rounded up (MLIR's scheme; 64 bytes
unless the op asks for more), ``alloca`` an entry-block ``alloca``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir

from eqsat.codegen.descriptor import UnrankedDesc, MemDesc, with_static
from eqsat.codegen import runtime_checked as checked
from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.types import I8, I64, PTR, CodegenError, from_stored, stored_int, to_stored
from frontend.attributes import DenseElementsAttr
from frontend.ir import Operation
from frontend.ops.common import ints
from frontend.ops.spec import DYNAMIC_INDEX
from frontend.types import MemRefType, Type, VectorType

DEFAULT_ALIGN = 64


def elem_type(em: FuncEmitter, t: MemRefType) -> ir.Type:
    return em.ty(t.element)


def linear_index(em: FuncEmitter, d: MemDesc, indices: list[ir.Value]) -> ir.Value:
    """offset + sum(index_i * stride_i)."""
    acc = d.offset
    for i, s in zip(indices, d.strides):
        acc = em.b.add(acc, em.b.mul(i, s))
    return acc


def element_ptr(em: FuncEmitter, d: MemDesc, indices: list[ir.Value]) -> ir.Value:
    return em.b.gep(d.aligned, [linear_index(em, d, indices)], source_etype=elem_type(em, d.type))


def elem_align(em: FuncEmitter, t: Type) -> int:
    """Alignment of one element in memory (vectors of memref<vector<..>>: their size)."""
    if isinstance(t, VectorType):
        return 1
    lt = em.ty(t)
    return (
        max(1, (stored_int(lt) or lt).width // 8)  # an i24 lies in 4 bytes, as in numpy
        if isinstance(lt, ir.IntType)
        else {"half": 2, "bfloat": 2, "float": 4, "double": 8}[str(lt)]
    )


def size_bytes(em: FuncEmitter, t: MemRefType, sizes: list[ir.Value]) -> ir.Value:
    n: ir.Value = I64(1)
    for s in sizes:
        n = em.b.mul(n, s)
    one = em.b.gep(ir.Constant(PTR, None), [I64(1)], source_etype=elem_type(em, t))
    return em.b.mul(n, em.b.ptrtoint(one, I64))


def _dyn_sizes(em: FuncEmitter, op: Operation) -> list[ir.Value]:
    t: MemRefType = op.results[0].type
    dyn = iter(em.get(v) for v in op.operand_groups()["dynamicSizes"])
    return [I64(s) if s is not None else next(dyn) for s in t.shape]


def _row_major(em: FuncEmitter, t: MemRefType, sizes: list[ir.Value]) -> list[ir.Value]:
    strides, acc = [], I64(1)
    for s in reversed(sizes):
        strides.append(acc)
        acc = em.b.mul(acc, s)
    return list(reversed(strides))


def alloc(em: FuncEmitter, op: Operation) -> Any:
    t: MemRefType = op.results[0].type
    sizes = _dyn_sizes(em, op)
    align = max(
        DEFAULT_ALIGN, op.attributes["alignment"].value if "alignment" in op.attributes else 0
    )
    return allocate(em, t, sizes, align, op)


def allocate(
    em: FuncEmitter, t: MemRefType, sizes: list[ir.Value], align: int, op: Operation
) -> MemDesc:
    """A fresh row-major buffer of t with these sizes (malloc, aligned by hand). A negative
    or overflowing size, or a failed malloc, is a fault at op and an empty buffer."""
    nbytes, bad = checked.byte_count(em, sizes, checked.element_size(em, elem_type(em, t)))
    em.fault_if(bad, f"{op.name} with a negative or overflowing size", op)
    malloc = em.m.declare("malloc", PTR, [I64])
    raw = em.b.call(malloc, [em.b.add(nbytes, I64(align))])
    addr = em.b.ptrtoint(raw, I64)
    null = em.b.icmp_unsigned("==", addr, I64(0))
    em.fault_if(em.b.and_(null, em.b.not_(bad)), f"{op.name}: out of memory", op)
    aligned = em.b.and_(em.b.add(addr, I64(align - 1)), I64(-align))
    aligned_p = em.b.gep(raw, [em.b.sub(aligned, addr)], source_etype=I8)
    checked.register_buffer(em, raw, aligned_p, nbytes, checked.ALLOC)
    d = with_static(MemDesc(t, raw, aligned_p, I64(0), sizes, _row_major(em, t, sizes)))
    return checked.refuse_if(em, em.b.or_(bad, null), d)


def alloca(em: FuncEmitter, op: Operation) -> Any:
    t: MemRefType = op.results[0].type
    sizes = _dyn_sizes(em, op)
    et = elem_type(em, t)
    nbytes, bad = checked.byte_count(em, sizes, checked.element_size(em, et))
    if em.m.checked:  # a stack overflow would be a crash: a fault and an empty buffer instead
        bad = em.b.or_(bad, em.b.icmp_unsigned(">", nbytes, I64(checked.MAX_STACK_BYTES)))
        em.fault_if(bad, f"{op.name} of a negative size or more than "
                         f"{checked.MAX_STACK_BYTES} bytes", op)  # fmt: skip
        sizes = checked.empty_if(em, bad, sizes)  # (kept by with_static: descriptor.REFUSED)
    if all(s is not None for s in t.shape) and not (
        em.m.checked and int(np.prod(t.shape)) * 16 > checked.MAX_STACK_BYTES
    ):
        n = int(np.prod([s for s in t.shape])) if t.shape else 1
        p = em.alloca(et, I64(n))
        p.align = DEFAULT_ALIGN
        p.type = PTR  # opaque pointers: llvmlite would type-check stores against it
    else:  # a dynamic alloca where the op is (its size is only known there)
        n_v: ir.Value = I64(1)
        for s in sizes:
            n_v = em.b.mul(n_v, s)
        p = em.b.alloca(et, size=n_v)
        p.align = DEFAULT_ALIGN
        p.type = PTR
    checked.register_buffer(em, p, p, nbytes, checked.ALLOCA)
    return with_static(MemDesc(t, p, p, I64(0), sizes, _row_major(em, t, sizes)))


def dealloc(em: FuncEmitter, op: Operation) -> Any:
    checked.dealloc(em, op, em.get(op.operands[0]).allocated)
    return None


def checked_ptr(em: FuncEmitter, op: Operation, d: MemDesc, idx: list[ir.Value]) -> ir.Value:
    """The element's address; in checked mode an out-of-bounds index is a fault and the
    access goes to a scratch slot instead."""
    p = element_ptr(em, d, idx)
    if not em.m.checked or not idx:
        return p
    ok: ir.Value = ir.Constant(ir.IntType(1), 1)
    for i, s in zip(idx, d.sizes):
        ok = em.b.and_(ok, em.b.icmp_unsigned("<", i, s))
    em.fault_if(em.b.not_(ok), f"{op.name}: index out of bounds of {d.type}", op)
    scratch = em.alloca(elem_type(em, d.type))
    scratch.type = PTR
    return em.b.select(ok, p, scratch)


def load(em: FuncEmitter, op: Operation) -> Any:
    d = em.get(op.operands[0])
    idx = [em.get(v) for v in op.operands[1:]]
    p = checked_ptr(em, op, d, idx)
    et = elem_type(em, d.type)
    v = em.b.load(p, typ=stored_int(et) or et, align=elem_align(em, d.type.element))
    return from_stored(em.b, v, et)


def store(em: FuncEmitter, op: Operation) -> Any:
    """An element as numpy holds it (``types.stored_int``: an i5 sign-extended to its byte)."""
    v, d = em.get(op.operands[0]), em.get(op.operands[1])
    idx = [em.get(x) for x in op.operands[2:]]
    em.b.store(to_stored(em.b, v), checked_ptr(em, op, d, idx),
               align=elem_align(em, d.type.element))  # fmt: skip
    return None


def cast(em: FuncEmitter, op: Operation) -> Any:
    """A new descriptor type over the same fields; to an unranked memref, the ranked
    descriptor is carried as it is (an unranked value knows its rank)."""
    d = em.get(op.operands[0])
    if isinstance(d, UnrankedDesc):
        d = d.ranked
    t = op.results[0].type
    if not isinstance(t, MemRefType):
        return UnrankedDesc(t, d)
    if len(d.sizes) != t.rank:
        raise CodegenError(f"cast of a rank-{len(d.sizes)} memref to {t}", op)
    v = with_static(MemDesc(t, d.allocated, d.aligned, d.offset, list(d.sizes), list(d.strides)))
    if not em.m.checked:
        return v
    same: ir.Value = ir.Constant(ir.IntType(1), 1)  # a static size the source must have
    for n, s in zip(t.shape, d.sizes):
        if n is not None:
            same = em.b.and_(same, em.b.icmp_signed("==", s, I64(n)))
    shape = ", ".join("?" if n is None else str(n) for n in t.shape)
    msg = f"{op.name} to sizes [{shape}]: the source's sizes differ"
    return checked.fault_unless(em, op, same, msg, v)


def dim(em: FuncEmitter, op: Operation) -> Any:
    d: MemDesc = em.get(op.operands[0])
    i = em.get(op.operands[1])
    if isinstance(i, ir.Constant):
        return d.sizes[int(i.constant)]
    out: ir.Value = I64(0)
    for k, s in enumerate(d.sizes):
        out = em.b.select(em.b.icmp_signed("==", i, I64(k)), s, out)
    return out


def subview(em: FuncEmitter, op: Operation) -> Any:
    d: MemDesc = em.get(op.operands[0])
    g = op.operand_groups()
    a = op.attributes

    def mixed(name: str, group: str) -> list[ir.Value]:
        dyn = iter(em.get(v) for v in g[group])
        return [next(dyn) if s == DYNAMIC_INDEX else I64(s) for s in ints(a[name])]

    offs, sizes, strides = (
        mixed("static_offsets", "offsets"),
        mixed("static_sizes", "sizes"),
        mixed("static_strides", "strides"),
    )
    off = linear_index(em, d, offs)
    new_strides = [em.b.mul(st, s) for st, s in zip(strides, d.strides)]
    t: MemRefType = op.results[0].type
    keep = list(range(len(sizes)))
    if len(sizes) != t.rank:  # rank-reducing: drop unit dims as the interpreter does
        from frontend.ops.memref import _drop_dims

        static = [s if s != DYNAMIC_INDEX else None for s in ints(a["static_sizes"])]
        drop = _drop_dims([1 if s is None else s for s in static], t)
        keep = [i for i in keep if i not in drop]
    v = with_static(
        MemDesc(
            t, d.allocated, d.aligned, off, [sizes[i] for i in keep], [new_strides[i] for i in keep]
        )
    )
    return _check_subview(em, op, d, offs, sizes, strides, v) if em.m.checked else v


def _check_subview(em: FuncEmitter, op: Operation, d: MemDesc, offs: list[ir.Value],
                   sizes: list[ir.Value], strides: list[ir.Value], v: MemDesc) -> MemDesc:  # fmt: skip
    """The subview v's elements must lie inside its source d (as the interpreter checks)."""
    b, w = em.b, checked.I128
    ok: ir.Value = ir.Constant(ir.IntType(1), 1)
    for o, n, st, dim in zip(offs, sizes, strides, d.sizes):
        last = b.add(b.sext(o, w), b.mul(b.sext(b.sub(n, I64(1)), w), b.sext(st, w)))
        inside = b.or_(b.icmp_signed("==", n, I64(0)), b.icmp_signed("<", last, b.sext(dim, w)))
        good = b.and_(b.icmp_signed(">=", o, I64(0)), b.icmp_signed(">=", n, I64(0)))
        ok = b.and_(ok, b.and_(b.and_(good, b.icmp_signed(">=", st, I64(1))), inside))
    return checked.fault_unless(em, op, ok, f"{op.name} outside its source {d.type}", v)


def copy(em: FuncEmitter, op: Operation) -> Any:
    """Element by element over the source's sizes (any strides on either side); in checked
    mode, sizes that differ are a fault (and nothing is copied)."""
    s: MemDesc = em.get(op.operands[0])
    t: MemRefType = em.get(op.operands[1])
    if em.m.checked:
        same: ir.Value = ir.Constant(ir.IntType(1), 1)
        for a, b in zip(s.sizes, t.sizes):
            same = em.b.and_(same, em.b.icmp_signed("==", a, b))
        msg = f"memref.copy between different shapes ({s.type} to {t.type})"
        s = checked.fault_unless(em, op, same, msg, MemDesc(s.type, s.allocated, s.aligned,
                                                             s.offset, s.sizes, s.strides))
    et = elem_type(em, s.type)
    et = stored_int(et) or et  # whole numpy elements (an i5's byte)
    idx: list[ir.Value] = []

    def nest(k: int) -> None:
        if k == len(s.sizes):
            v = em.b.load(element_ptr(em, s, idx), typ=et)
            em.b.store(v, element_ptr(em, t, idx))
            return
        pre = em.b.block
        head = em.b.append_basic_block("copy.head")
        body = em.b.append_basic_block("copy.body")
        done = em.b.append_basic_block("copy.done")
        em.b.branch(head)
        em.b.position_at_end(head)
        i = em.b.phi(I64)
        i.add_incoming(I64(0), pre)
        em.b.cbranch(em.b.icmp_signed("<", i, s.sizes[k]), body, done)
        em.b.position_at_end(body)
        idx.append(i)
        nest(k + 1)
        idx.pop()
        i.add_incoming(em.b.add(i, I64(1)), em.b.block)
        em.b.branch(head)
        em.b.position_at_end(done)

    nest(0)
    return None


def global_(em: FuncEmitter, op: Operation) -> Any:
    return None  # emitted at module level (eqsat.codegen.module)


def get_global(em: FuncEmitter, op: Operation) -> Any:
    t: MemRefType = op.results[0].type
    name = op.attributes["name"].root
    g = em.m.globals.get(name)
    if g is None:
        raise CodegenError(f"no memref.global @{name}", op)
    sizes = [I64(s) for s in t.shape]
    n = int(np.prod(t.shape)) if t.shape else 1
    nbytes = em.b.mul(I64(n), checked.element_size(em, elem_type(em, t)))
    checked.register_buffer(em, g, g, nbytes, checked.GLOBAL)
    return with_static(MemDesc(t, g, g, I64(0), sizes, _row_major(em, t, sizes)))


def global_initializer(
    em_module: Any, op: Operation, ty: ir.ArrayType, elem_of: Callable[[Any], ir.Constant]
) -> ir.Constant | None:
    init = op.attributes.get("initial_value")
    if not isinstance(init, DenseElementsAttr):
        return None
    vals = list(init.values)
    if len(vals) == 1:
        vals = vals * ty.count
    return ir.Constant(ty, [elem_of(v) for v in vals])


def _memref_of(em: FuncEmitter, v: Any) -> MemDesc:
    if not isinstance(v, MemDesc):
        raise CodegenError("a memref was expected")
    return v


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "memref.alloc": alloc,
    "memref.alloca": alloca,
    "memref.dealloc": dealloc,
    "memref.load": load,
    "memref.store": store,
    "memref.cast": cast,
    "memref.dim": dim,
    "memref.subview": subview,
    "memref.copy": copy,
    "memref.global": global_,
    "memref.get_global": get_global,
}
