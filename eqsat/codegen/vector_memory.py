"""Lowerings of the vector memory ops: load/store, masked, expand/compress, gather/scatter,
transfers and type_cast.

Every piece (row) of a transfer is one LLVM access: a plain vector load/store when its lanes
are consecutive elements known to be in bounds, ``llvm.masked.load/store`` when they are
consecutive but some may be out of bounds or masked off (masked-off lanes are never touched),
``llvm.masked.gather/scatter`` otherwise (permuted maps, broadcasts, strided memrefs).
Lane coordinates are compile-time constants (numpy), so the address arithmetic folds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir

from eqsat.codegen.descriptor import MemDesc, with_static
from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.gather import Sources, result_chunks
from eqsat.codegen.memref import elem_align, elem_type, linear_index
from eqsat.codegen.types import I1, I32, I64, PTR, CodegenError, from_stored, stored_int, to_stored
from frontend.ir import Operation
from frontend.ops.runtime import bools
from frontend.types import MemRefType, VectorType


def _ivec(vals: Any) -> ir.Constant:
    vals = [int(v) for v in vals]
    return ir.Constant(ir.VectorType(I64, len(vals)), [I64(v) for v in vals])


def _all_on(n: int) -> ir.Constant:
    return ir.Constant(ir.VectorType(I1, n), [I1(1)] * n)


class Access:
    """The lanes of one piece: memref index per lane = base + coords (per memref dim)."""

    def __init__(
        self,
        em: FuncEmitter,
        d: MemDesc,
        base: list[ir.Value],
        coords: dict[int, np.ndarray],
        n: int,
    ) -> None:
        self.em, self.d, self.base, self.coords, self.n = em, d, base, coords, n

    def contiguous(self) -> bool:
        """Lanes are consecutive elements of the innermost dim (stride 1)."""
        last = len(self.d.sizes) - 1
        s = self.d.strides[last] if last >= 0 else None
        if not (isinstance(s, ir.Constant) and s.constant == 1):
            return False
        for j, c in self.coords.items():
            want = np.arange(self.n) + c[0] if j == last else np.full(self.n, c[0])
            if not np.array_equal(c, want):
                return False
        return last in self.coords or self.n == 1

    def first_ptr(self) -> ir.Value:
        em = self.em
        idx = [
            em.b.add(b, I64(int(self.coords[j][0]))) if j in self.coords else b
            for j, b in enumerate(self.base)
        ]
        return em.b.gep(
            self.d.aligned, [linear_index(em, self.d, idx)], source_etype=elem_type(em, self.d.type)
        )

    def ptrs(self) -> ir.Value:
        em = self.em
        g = em.b.gep(self.d.aligned, [self.linear()], source_etype=elem_type(em, self.d.type))
        g.type = ir.VectorType(PTR, self.n)
        return g

    def linear(self) -> ir.Value:
        """i64 lanes: offset + sum(index * stride), the element each lane addresses."""
        em = self.em
        lin = em.splat(linear_index(em, self.d, self.base), self.n)
        for j, c in self.coords.items():
            if not c.any():
                continue
            s = self.d.strides[j]
            if isinstance(s, ir.Constant):
                lin = em.b.add(lin, _ivec(c * int(s.constant)))
            else:
                lin = em.b.add(lin, em.b.mul(_ivec(c), em.splat(s, self.n)))
        return lin

    def flat_inside(self) -> ir.Value:
        """i1 lanes: the lane's element lies inside the row-major extent of a memref whose
        layout is the identity (offset 0, row-major strides), as the interpreter reads a lane
        past a dimension of such a memref: through the flat memory. False on other views,
        whose buffer extent the descriptor does not carry."""
        em, d = self.em, self.d
        rank = len(d.sizes)
        rm: list[ir.Value] = [I64(1)] * rank  # row-major strides from the sizes
        for k in range(rank - 2, -1, -1):
            rm[k] = em.b.mul(rm[k + 1], d.sizes[k + 1])
        total = em.b.mul(rm[0], d.sizes[0]) if rank else I64(1)
        ok = em.b.icmp_unsigned("<", self.linear(), em.splat(total, self.n))
        if d.type.layout is None:
            return ok
        ident = em.b.icmp_unsigned("==", d.offset, I64(0))
        for st, r in zip(d.strides, rm):
            ident = em.b.and_(ident, em.b.icmp_unsigned("==", st, r))
        return em.b.and_(ok, em.splat(ident, self.n))

    def in_bounds(self, dims: list[int]) -> ir.Value | None:
        """i1 lanes: 0 <= index < size on these memref dims (None: nothing to check)."""
        em = self.em
        on: ir.Value | None = None
        for j in dims:
            idx = em.b.add(em.splat(self.base[j], self.n), _ivec(self.coords[j]))
            t = em.b.icmp_unsigned("<", idx, em.splat(self.d.sizes[j], self.n))
            on = t if on is None else em.b.and_(on, t)
        return on


def checked_lanes(
    em: FuncEmitter,
    acc: Access,
    op: Operation,
    skip: set[int],
    active: ir.Value | None = None,
    flat: bool = False,
) -> ir.Value | None:
    """In checked mode: fault if an active lane would touch memory outside the memref on a
    dim not in skip; the lanes that may be accessed (None: unchecked). With ``flat`` (the
    ops the interpreter lets address the flat memory: vector.load/store and transfers on
    in_bounds dims), a lane past a dim of a memref with the identity layout but inside its
    flat extent is allowed, as MLIR's lowering and the (non-strict) interpreter do."""
    if not em.m.checked:
        return None
    dims = [j for j in acc.coords if j not in skip]
    on = acc.in_bounds(dims)
    for j, b in enumerate(acc.base):
        if j not in acc.coords:
            t = em.splat(em.b.icmp_unsigned("<", b, acc.d.sizes[j]), acc.n)
            on = t if on is None else em.b.and_(on, t)
    if on is None:
        return None
    if flat and acc.d.sizes:
        on = em.b.or_(on, acc.flat_inside())
    bad = em.b.not_(on) if active is None else em.b.and_(em.b.not_(on), active)
    em.fault_if(bad, f"{op.name}: access out of bounds of {acc.d.type}", op)
    return on


def _and(em: FuncEmitter, a: ir.Value | None, b: ir.Value | None) -> ir.Value | None:
    if a is None or b is None:
        return a if b is None else b
    return em.b.and_(a, b)


def _bits(em: FuncEmitter, v: ir.Value) -> ir.Value:
    """A vector as it moves through memory. Half precision moves as i16 (LLVM's legalization
    of half gathers crashes on targets without F16C; memory moves need no float type); i1
    and integers of other widths than 8/16/32/64 move one element per numpy element
    (``types.stored_int``: i1 as a byte, i5 as a sign-extended byte; LLVM would pack a
    <N x i1> or <N x i5> into bits)."""
    element = v.type.element
    if str(element) in ("half", "bfloat"):
        return em.b.bitcast(v, ir.VectorType(ir.IntType(16), v.type.count))
    return to_stored(em.b, v)


def _unbits(em: FuncEmitter, v: ir.Value, t: ir.Type) -> ir.Value:
    """The inverse of ``_bits``: a vector read from memory as the type ``t`` of its values."""
    if v.type == t:
        return v
    if isinstance(t.element, ir.IntType):
        return from_stored(em.b, v, t)
    return em.b.bitcast(v, t)


def _read(em: FuncEmitter, acc: Access, mask: ir.Value | None, pad: ir.Value) -> ir.Value:
    et = elem_type(em, acc.d.type)
    vt = ir.VectorType(et, acc.n)
    al = I32(elem_align(em, acc.d.type.element))
    pad = _bits(em, pad)
    it = pad.type
    if acc.contiguous() and mask is None:
        return _unbits(em, em.b.load(acc.first_ptr(), typ=it, align=al.constant), vt)
    if acc.contiguous():
        r = em.intrinsic("masked.load", [acc.first_ptr(), al, mask, pad], over=[it, PTR], ret=it)
    else:
        ptrs = acc.ptrs()
        on = mask if mask is not None else _all_on(acc.n)
        r = em.intrinsic("masked.gather", [ptrs, al, on, pad], over=[it, ptrs.type], ret=it)
    return _unbits(em, r, vt)


def _write(em: FuncEmitter, acc: Access, mask: ir.Value | None, v: ir.Value) -> None:
    al = I32(elem_align(em, acc.d.type.element))
    if not (acc.contiguous() and mask is None) or stored_int(v.type.element) is not None:
        v = _bits(em, v)
    if acc.contiguous():
        p = acc.first_ptr()
        if mask is None:
            em.b.store(v, p, align=al.constant)
        else:
            em.intrinsic("masked.store", [v, p, al, mask], over=[v.type, PTR], ret=ir.VoidType())
        return
    ptrs = acc.ptrs()
    em.intrinsic(
        "masked.scatter",
        [v, ptrs, al, mask if mask is not None else _all_on(acc.n)],
        over=[v.type, ptrs.type],
        ret=ir.VoidType(),
    )


def _memref(em: FuncEmitter, v: Any, op: Operation) -> MemDesc:
    d = em.get(v)
    if not isinstance(d, MemDesc):
        raise CodegenError("vector memory ops on tensors are not supported", op)
    if isinstance(d.type.element, VectorType):
        raise CodegenError(f"{op.name} on a memref of vectors is not supported", op)
    return d


def _slice_pieces(
    em: FuncEmitter, d: MemDesc, base: list[ir.Value], vt: VectorType
) -> list[Access]:
    """vector.load-style lanes: vector dims on the trailing memref dims."""
    r, k = len(d.sizes), vt.rank
    coords = np.indices(vt.shape).reshape(k, -1) if k else np.zeros((0, 1), np.int64)
    out = []
    for c in result_chunks(em, vt):
        out.append(Access(em, d, base, {r - k + t: coords[t][c] for t in range(k)}, len(c)))
    return out


def _operands(em: FuncEmitter, op: Operation) -> dict[str, Any]:
    return {k: [em.get(v) for v in vs] for k, vs in op.operand_groups().items()}


def load(em: FuncEmitter, op: Operation) -> Any:
    d = em.get(op.operands[0])
    base = [em.get(v) for v in op.operands[1:]]
    vt: VectorType = op.results[0].type
    if isinstance(d.type.element, VectorType):  # memref of vectors: load the element
        p = em.b.gep(d.aligned, [linear_index(em, d, base)], source_etype=em.ty(d.type.element))
        return em.b.load(p, typ=em.ty(vt))
    pad = ir.Constant(ir.VectorType(elem_type(em, d.type), 1), None)
    pieces = []
    for a in _slice_pieces(em, d, base, vt):
        on = checked_lanes(em, a, op, set(), flat=True)
        pieces.append(_read(em, a, on, ir.Constant(ir.VectorType(pad.type.element, a.n), None)))
    return em.from_chunks(pieces, vt)


def store(em: FuncEmitter, op: Operation) -> Any:
    v, d = em.get(op.operands[0]), em.get(op.operands[1])
    base = [em.get(x) for x in op.operands[2:]]
    vt: VectorType = op.operands[0].type
    if isinstance(d.type.element, VectorType):
        p = em.b.gep(d.aligned, [linear_index(em, d, base)], source_etype=em.ty(d.type.element))
        em.b.store(v, p)
        return None
    for a, piece in zip(_slice_pieces(em, d, base, vt), em.chunks(v, vt)):
        _write(em, a, checked_lanes(em, a, op, set(), flat=True), piece)
    return None


def _masked(read: bool) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        g = op.operand_groups()
        d = _memref(em, g["base"][0], op)
        base = [em.get(v) for v in g["indices"]]
        mask_v = g["mask"][0]
        vt: VectorType = mask_v.type
        masks = em.chunks(em.get(mask_v), vt)
        accesses = _slice_pieces(em, d, base, vt)
        masks = [_and(em, m, checked_lanes(em, a, op, set(), m)) for a, m in zip(accesses, masks)]
        if read:
            pt = em.chunks(em.get(g["pass_thru"][0]), vt)
            return em.from_chunks(
                [_read(em, a, m, p) for a, m, p in zip(accesses, masks, pt)], op.results[0].type
            )
        vals = em.chunks(
            em.get(g["valueToStore"][0] if "valueToStore" in g else op.operands[-1]), vt
        )
        for a, m, v in zip(accesses, masks, vals):
            _write(em, a, m, v)
        return None

    return lower


def _checked_compressed(em: FuncEmitter, acc: Access, mask: ir.Value, op: Operation) -> ir.Value:
    """In checked mode: fault unless the popcount(mask) consecutive elements from the piece's
    first lane lie inside the memref (nothing is checked when the mask is all off, as in the
    interpreter); on a fault the piece's mask is turned off so nothing is touched."""
    if not em.m.checked:
        return mask
    n, last = acc.n, len(acc.base) - 1
    pop = em.intrinsic("vector.reduce.add", [em.b.zext(mask, ir.VectorType(I64, n))], ret=I64)
    ok: ir.Value = ir.Constant(I1, 1)
    for j, b in enumerate(acc.base):
        i = em.b.add(b, I64(int(acc.coords[j][0]))) if j in acc.coords else b
        ok = em.b.and_(ok, em.b.icmp_unsigned("<", i, acc.d.sizes[j]))
        if j == last:  # pop elements from i: i + pop <= size, without overflow
            room = em.b.sub(acc.d.sizes[j], i)
            ok = em.b.and_(ok, em.b.icmp_unsigned("<=", pop, room))
    bad = em.b.and_(em.b.not_(ok), em.b.icmp_unsigned("!=", pop, I64(0)))
    em.fault_if(bad, f"{op.name}: access out of bounds of {acc.d.type}", op)
    return em.b.select(bad, ir.Constant(mask.type, None), mask)


def _row_pieces(
    em: FuncEmitter, d: MemDesc, base: list[ir.Value], vt: VectorType
) -> list[Access]:
    """One Access per minor row of vt (expand/compress count set lanes per row, whatever the
    layout's pieces are)."""
    r, k = len(d.sizes), vt.rank
    coords = np.indices(vt.shape).reshape(k, -1)
    n = vt.shape[-1]
    rows = [np.arange(i, i + n) for i in range(0, coords.shape[1], n)]
    return [Access(em, d, base, {r - k + t: coords[t][c] for t in range(k)}, n) for c in rows]


def _rows(em: FuncEmitter, v: ir.Value, vt: VectorType) -> list[ir.Value]:
    """v's minor rows as 1-D vectors (the layout's own pieces when those are the rows)."""
    src = Sources.of(em, [(v, vt)])
    n = vt.shape[-1]
    return [src.chunk(em, np.arange(i, i + n)) for i in range(0, len(src.where), n)]


def _compressed(read: bool) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        g = op.operand_groups()
        d = _memref(em, g["base"][0], op)
        base = [em.get(v) for v in g["indices"]]
        mask_v = g["mask"][0]
        vt: VectorType = mask_v.type
        accesses = _row_pieces(em, d, base, vt)
        masks = _rows(em, em.get(mask_v), vt)
        masks = [_checked_compressed(em, a, m, op) for a, m in zip(accesses, masks)]
        if read:
            pt = _rows(em, em.get(g["pass_thru"][0]), vt)
            out = [
                _unbits(
                    em,
                    em.intrinsic(
                        "masked.expandload",
                        [a.first_ptr(), m, _bits(em, p)],
                        over=[_bits(em, p).type],
                        ret=_bits(em, p).type,
                    ),
                    p.type,
                )
                for a, m, p in zip(accesses, masks, pt)
            ]
            lanes = [(i, j) for i in range(len(out)) for j in range(vt.shape[-1])]
            src = Sources(out, lanes, out[0].type.element)
            rt = op.results[0].type
            return em.from_chunks([src.chunk(em, c) for c in result_chunks(em, rt)], rt)
        vals = _rows(em, em.get(op.operands[-1]), vt)
        for a, m, v in zip(accesses, masks, vals):
            v = _bits(em, v)
            em.intrinsic(
                "masked.compressstore", [v, a.first_ptr(), m], over=[v.type], ret=ir.VoidType()
            )
        return None

    return lower


def _gather_ptrs(em: FuncEmitter, d: MemDesc, base: list[ir.Value], iv: ir.Value) -> ir.Value:
    """Per lane: the element at base, moved by iv along the innermost dim's stride."""
    n = iv.type.count
    off = em.b.sext(iv, ir.VectorType(I64, n)) if iv.type.element.width < 64 else iv
    off = em.b.mul(off, em.splat(d.strides[-1], n))
    lin = em.b.add(em.splat(linear_index(em, d, base), n), off)
    g = em.b.gep(d.aligned, [lin], source_etype=elem_type(em, d.type))
    g.type = ir.VectorType(PTR, n)
    return g


def _gather_in_bounds(
    em: FuncEmitter, d: MemDesc, base: list[ir.Value], iv: ir.Value
) -> ir.Value:
    """i1 lanes: the lane's element lies inside the memref, as the interpreter decides: on a
    memref whose layout is the identity (offset 0, row-major strides) the offset moves through
    the row-major flattening, so the bound is the flat extent; on other views base + offset
    must be inside every dim (the offset on the innermost one)."""
    n = iv.type.count
    off = em.b.sext(iv, ir.VectorType(I64, n)) if iv.type.element.width < 64 else iv
    rank = len(base)
    rm: list[ir.Value] = [I64(1)] * rank  # row-major strides from the sizes
    for k in range(rank - 2, -1, -1):
        rm[k] = em.b.mul(rm[k + 1], d.sizes[k + 1])
    total = em.b.mul(rm[0], d.sizes[0])
    flat: ir.Value = I64(0)
    for b, s in zip(base, rm):
        flat = em.b.add(flat, em.b.mul(b, s))
    flat_ok = em.b.icmp_unsigned("<", em.b.add(em.splat(flat, n), off), em.splat(total, n))
    if d.type.layout is None:
        return flat_ok
    dims_ok = em.b.icmp_unsigned(
        "<", em.b.add(em.splat(base[-1], n), off), em.splat(d.sizes[-1], n)
    )
    ident = em.b.icmp_unsigned("==", d.offset, I64(0))
    for j in range(rank - 1):
        dims_ok = em.b.and_(
            dims_ok, em.splat(em.b.icmp_unsigned("<", base[j], d.sizes[j]), n)
        )
    for s, r in zip(d.strides, rm):
        ident = em.b.and_(ident, em.b.icmp_unsigned("==", s, r))
    return em.b.select(ident, flat_ok, dims_ok)


def _checked_gather(
    em: FuncEmitter, d: MemDesc, base: list[ir.Value], iv: ir.Value, m: ir.Value, op: Operation
) -> ir.Value:
    """In checked mode: fault if an active lane lies outside the memref; the lanes to touch."""
    if not em.m.checked or not base:
        return m
    on = _gather_in_bounds(em, d, base, iv)
    em.fault_if(em.b.and_(em.b.not_(on), m), f"{op.name}: access out of bounds of {d.type}", op)
    return em.b.and_(m, on)


def _gather_like(read: bool) -> Callable[[FuncEmitter, Operation], Any]:
    def lower(em: FuncEmitter, op: Operation) -> Any:
        g = op.operand_groups()
        d = _memref(em, g["base"][0], op)
        base = [em.get(v) for v in g["indices"]]
        ivt = g["index_vec"][0].type
        ivs = em.chunks(em.get(g["index_vec"][0]), ivt)
        masks = em.chunks(em.get(g["mask"][0]), ivt)
        al = I32(elem_align(em, d.type.element))
        if em.mask is not None:
            outer = em.chunks(*em.mask)
            masks = [em.b.and_(m, o) for m, o in zip(masks, outer)]
        masks = [_checked_gather(em, d, base, iv, m, op) for iv, m in zip(ivs, masks)]
        if read:
            pt = em.chunks(em.get(g["pass_thru"][0]), ivt)
            out = []
            for iv, m, p in zip(ivs, masks, pt):
                ptrs = _gather_ptrs(em, d, base, iv)
                pb = _bits(em, p)
                g = em.intrinsic(
                    "masked.gather", [ptrs, al, m, pb], over=[pb.type, ptrs.type], ret=pb.type
                )
                out.append(_unbits(em, g, p.type))
            return em.from_chunks(out, op.results[0].type)
        vals = em.chunks(em.get(op.operands[-1]), ivt)
        for iv, m, v in zip(ivs, masks, vals):
            ptrs = _gather_ptrs(em, d, base, iv)
            v = _bits(em, v)
            em.intrinsic(
                "masked.scatter", [v, ptrs, al, m], over=[v.type, ptrs.type], ret=ir.VoidType()
            )
        return None

    return lower


# -- transfers -------------------------------------------------------------------------------------
def _transfer(
    em: FuncEmitter, op: Operation, vt: VectorType, read: bool
) -> list[tuple[Access, ir.Value | None]]:
    """Per piece of vt: its lanes and the i1 lanes that are accessed (None: all)."""
    g = op.operand_groups()
    d = _memref(em, g["source"][0], op)
    base = [em.get(v) for v in g["indices"]]
    a = op.attributes
    perm = a["permutation_map"].map.result_positions()
    inb = bools(a.get("in_bounds")) or [False] * len(perm)
    k = vt.rank
    coords = np.indices(vt.shape).reshape(k, -1) if k else np.zeros((0, 1), np.int64)
    mask_src = None
    mask_idx = None
    mask_v = g.get("mask") or []
    mval = (em.get(mask_v[0]), mask_v[0].type) if mask_v else em.mask
    if mval is not None:
        mapped = [t for t in range(k) if perm[t] is not None]
        order = sorted(mapped, key=lambda t: perm[t])  # mask dims: memref order, no broadcasts
        mshape = [vt.shape[t] for t in order]
        flat = np.arange(int(np.prod(mshape)) if mshape else 1).reshape(mshape)
        mask_idx = (
            flat[tuple(coords[t] for t in order)] if order else np.zeros(coords.shape[1], np.int64)
        )
        mask_src = Sources.of(em, [mval])
    out = []
    for c in result_chunks(em, vt):
        lane_coords = {perm[t]: coords[t][c] for t in range(k) if perm[t] is not None}
        acc = Access(em, d, base, lane_coords, len(c))
        check = [perm[t] for t in range(k) if perm[t] is not None and not inb[t]]
        on = acc.in_bounds(check)
        if mask_src is not None:
            on = _and(em, on, mask_src.chunk(em, mask_idx[c]))
        on = _and(em, on, checked_lanes(em, acc, op, set(check), on, flat=True))
        out.append((acc, on))
    return out


def transfer_read(em: FuncEmitter, op: Operation) -> Any:
    vt: VectorType = op.results[0].type
    pad = em.get(op.operand_groups()["padding"][0])
    pieces = []
    for acc, on in _transfer(em, op, vt, True):
        padv = em.splat(pad, acc.n)
        v = _read(em, acc, on, padv)
        pieces.append(v)
    return em.from_chunks(pieces, vt)


def transfer_write(em: FuncEmitter, op: Operation) -> Any:
    vt: VectorType = op.operands[0].type
    v = em.get(op.operands[0])
    if op.results:
        raise CodegenError("transfer_write on tensors is not supported", op)
    for (acc, on), piece in zip(_transfer(em, op, vt, False), em.chunks(v, vt)):
        _write(em, acc, on, piece)
    return None


def type_cast(em: FuncEmitter, op: Operation) -> Any:
    d: MemDesc = em.get(op.operands[0])
    t: MemRefType = op.results[0].type
    return with_static(
        MemDesc(
            t,
            d.allocated,
            d.aligned,
            d.offset,
            [I64(s or 0) for s in t.shape],
            [I64(1) for _ in t.shape],
        )
    )


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "vector.load": load,
    "vector.store": store,
    "vector.maskedload": _masked(True),
    "vector.maskedstore": _masked(False),
    "vector.expandload": _compressed(True),
    "vector.compressstore": _compressed(False),
    "vector.gather": _gather_like(True),
    "vector.scatter": _gather_like(False),
    "vector.transfer_read": transfer_read,
    "vector.transfer_write": transfer_write,
    "vector.type_cast": type_cast,
}
