"""Reference semantics of memrefs and the memory-touching `vector` ops.

A :class:`MemRef` is a strided view (element offset, sizes, strides in elements) of a shared
numpy buffer of shape ``(N,) + vector_shape``: ``memref<4x4xf32>`` has ``vector_shape == ()``,
``memref<4xvector<8xf32>>`` has ``vector_shape == (8,)``. Views (subview, cast, type_cast) share
the buffer, so a store through one is visible through the others.

Every access is bounds-checked: where MLIR says "undefined behaviour" (out-of-bounds load/store,
a set mask bit on an out-of-bounds lane, duplicate scatter indices) we raise
:class:`SemanticsError`. Lanes that are masked off, or out of bounds on a transfer dimension that
is not declared in-bounds, are not accessed at all.

A transfer lane declared ``in_bounds`` that lies past its dimension is, like MLIR's lowering
(measured, mlir-runner-22), an access to the flat memory at ``offset + sum(index * stride)``:
allowed while it stays inside the buffer (the callers are told, to warn), a fault beyond it.
``strict=True`` makes any such lane a fault.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .semantics_core import SemanticsError, as_elem, dtype_of, elem_of_dtype

__all__ = [
    "MemRef",
    "compressstore",
    "expandload",
    "gather",
    "maskedload",
    "maskedstore",
    "scatter",
    "transfer_read",
    "transfer_read_tensor",
    "transfer_write",
    "transfer_write_tensor",
    "type_cast",
    "vector_load",
    "vector_store",
]


def _row_major_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    strides, acc = [], 1
    for s in reversed(sizes):
        strides.append(acc)
        acc *= max(int(s), 1)
    return tuple(reversed(strides))


class MemRef:
    """A strided memref view of a shared numpy buffer (see the module docstring)."""

    def __init__(
        self,
        buffer: np.ndarray,
        offset: int,
        sizes: Sequence[int],
        strides: Sequence[int],
        elem: str,
        vector_shape: Sequence[int] = (),
    ) -> None:
        self.buffer = buffer
        self.offset = int(offset)
        self.sizes = tuple(int(s) for s in sizes)
        self.strides = tuple(int(s) for s in strides)
        self.elem = elem
        self.vector_shape = tuple(int(s) for s in vector_shape)
        if buffer.ndim != 1 + len(self.vector_shape) or buffer.shape[1:] != self.vector_shape:
            raise SemanticsError(
                f"buffer of shape {buffer.shape} does not hold elements of shape "
                f"{self.vector_shape}"
            )
        if buffer.dtype != dtype_of(elem):
            raise SemanticsError(f"buffer dtype {buffer.dtype} does not store {elem}")
        if len(self.sizes) != len(self.strides):
            raise SemanticsError("memref sizes and strides differ in length")
        if any(s < 0 for s in self.sizes):
            raise SemanticsError(f"negative memref size in {self.sizes}")
        if 0 not in self.sizes:  # the extreme elements must lie in the buffer
            lo = self.offset + sum(
                st * (n - 1) for n, st in zip(self.sizes, self.strides) if st < 0
            )
            hi = self.offset + sum(
                st * (n - 1) for n, st in zip(self.sizes, self.strides) if st > 0
            )
            if lo < 0 or hi >= buffer.shape[0]:
                raise SemanticsError(f"{self.type_str()} view exceeds its buffer")

    # ------------------------------------------------------------------ construction

    @classmethod
    def alloc(cls, sizes: Sequence[int], elem: str, vector_shape: Sequence[int] = ()) -> MemRef:
        """A fresh zero-filled, row-major memref (memref.alloc / alloca)."""
        n = int(np.prod(sizes, dtype=np.int64)) if len(sizes) else 1
        buf = np.zeros((n,) + tuple(vector_shape), dtype_of(elem))
        return cls(buf, 0, sizes, _row_major_strides(sizes), elem, vector_shape)

    @classmethod
    def from_array(
        cls, arr: Any, elem: str | None = None, vector_shape: Sequence[int] = ()
    ) -> MemRef:
        """A row-major memref holding a copy of arr (shape = sizes ++ vector_shape)."""
        a = np.asarray(arr)
        elem = elem or elem_of_dtype(a.dtype)
        vs = tuple(vector_shape)
        if vs and a.shape[a.ndim - len(vs) :] != vs:
            raise SemanticsError(f"array of shape {a.shape} has no trailing {vs}")
        sizes = a.shape[: a.ndim - len(vs)]
        n = int(np.prod(sizes, dtype=np.int64)) if sizes else 1
        buf = np.array(as_elem(a, elem), dtype=dtype_of(elem)).reshape((n,) + vs)
        return cls(buf, 0, sizes, _row_major_strides(sizes), elem, vs)

    # ------------------------------------------------------------------ introspection

    @property
    def rank(self) -> int:
        return len(self.sizes)

    def dim(self, i: int) -> int:
        """Size of dimension i (memref.dim)."""
        if not 0 <= i < self.rank:
            raise SemanticsError(f"memref.dim {i} out of range for {self.type_str()}")
        return self.sizes[i]

    def is_identity_layout(self) -> bool:
        return self.offset == 0 and self.strides == _row_major_strides(self.sizes)

    def type_str(self) -> str:
        """The MLIR type, e.g. memref<4x4xf32> or memref<2xf32, strided<[2], offset: 1>>."""
        el = self.elem
        if self.vector_shape:
            el = f"vector<{'x'.join(map(str, self.vector_shape))}x{self.elem}>"
        shape = "".join(f"{s}x" for s in self.sizes)
        layout = ""
        if not self.is_identity_layout():
            layout = f", strided<[{', '.join(map(str, self.strides))}], offset: {self.offset}>"
        return f"memref<{shape}{el}{layout}>"

    def __repr__(self) -> str:
        return f"MemRef({self.type_str()})"

    # ------------------------------------------------------------------ addressing

    def positions(self, idx: np.ndarray, active: Any = True, what: str = "memref access") -> Any:
        """Buffer rows of the index tuples idx[..., rank]; raises for an active out-of-bounds
        tuple. Inactive tuples map to row 0 (never read or written by the callers)."""
        idx = np.asarray(idx, dtype=np.int64)
        if idx.shape[-1:] != (self.rank,):
            raise SemanticsError(f"{what}: {idx.shape[-1]} indices for {self.type_str()}")
        act = np.broadcast_to(np.asarray(active, dtype=np.bool_), idx.shape[:-1])
        sizes = np.array(self.sizes, dtype=np.int64)
        ok = np.all((idx >= 0) & (idx < sizes), axis=-1)
        bad = act & ~ok
        if bad.any():
            first = idx[tuple(np.argwhere(bad)[0])]
            raise SemanticsError(
                f"{what} {list(map(int, first))} out of bounds for {self.type_str()}"
            )
        rows = self.offset + idx @ np.array(self.strides, dtype=np.int64).reshape(self.rank)
        return np.where(act, rows, 0) if self.buffer.shape[0] else rows

    def load(self, indices: Sequence[int]) -> Any:
        """The element at indices (memref.load); a vector element comes back as an array."""
        row = self.positions(np.array(indices, dtype=np.int64).reshape(-1), what="memref.load")
        v = self.buffer[int(row)]
        return v.copy() if isinstance(v, np.ndarray) else v

    def store(self, indices: Sequence[int], value: Any) -> None:
        """Write value at indices (memref.store)."""
        row = self.positions(np.array(indices, dtype=np.int64).reshape(-1), what="memref.store")
        self.buffer[int(row)] = as_elem(value, self.elem)

    def to_array(self) -> np.ndarray:
        """A row-major copy of the viewed elements (shape sizes ++ vector_shape)."""
        if 0 in self.sizes:
            return np.zeros(self.sizes + self.vector_shape, self.buffer.dtype)
        grids = np.indices(self.sizes, dtype=np.int64)
        idx = np.moveaxis(grids, 0, -1) if self.rank else np.zeros((0,), np.int64)
        return np.array(self.buffer[self.positions(idx)])

    # ------------------------------------------------------------------ views

    def subview(
        self,
        offsets: Sequence[int],
        sizes: Sequence[int],
        strides: Sequence[int] | None = None,
        drop_dims: Sequence[int] = (),
    ) -> MemRef:
        """memref.subview: element [i] of the view is element [offsets + i * strides] of self;
        unit dims listed in drop_dims are removed (rank reduction)."""
        strides = tuple(strides) if strides is not None else (1,) * self.rank
        if not len(offsets) == len(sizes) == len(strides) == self.rank:
            raise SemanticsError(f"subview needs {self.rank} offsets, sizes and strides")
        for d, (o, n, st) in enumerate(zip(offsets, sizes, strides)):
            if o < 0 or n < 0 or st < 1 or (n > 0 and o + (n - 1) * st >= self.sizes[d]):
                raise SemanticsError(
                    f"subview offsets {list(offsets)} sizes {list(sizes)} strides "
                    f"{list(strides)} out of bounds for {self.type_str()}"
                )
        off = self.offset + sum(o * s for o, s in zip(offsets, self.strides))
        new_sizes = [int(n) for n in sizes]
        new_strides = [int(st) * s for st, s in zip(strides, self.strides)]
        for d in sorted(drop_dims, reverse=True):
            if new_sizes[d] != 1:
                raise SemanticsError(f"subview cannot drop dim {d} of size {new_sizes[d]}")
            del new_sizes[d], new_strides[d]
        return MemRef(self.buffer, off, new_sizes, new_strides, self.elem, self.vector_shape)

    def cast(self, sizes: Sequence[int | None] | None = None) -> MemRef:
        """memref.cast: the same view; a static size in `sizes` (None = dynamic) must match."""
        if sizes is not None and (
            len(sizes) != self.rank
            or any(s is not None and s != n for s, n in zip(sizes, self.sizes, strict=True))
        ):
            raise SemanticsError(f"memref.cast of {self.type_str()} to sizes {list(sizes)}")
        return MemRef(
            self.buffer, self.offset, self.sizes, self.strides, self.elem, self.vector_shape
        )

    def clone(self) -> MemRef:
        """A deep copy into a fresh row-major buffer."""
        return MemRef.from_array(self.to_array(), self.elem, self.vector_shape)


def type_cast(mem: MemRef) -> MemRef:
    """vector.type_cast: memref<5x4xf32> -> memref<vector<5x4xf32>>, aliasing the buffer."""
    if mem.vector_shape or not mem.is_identity_layout():
        raise SemanticsError(f"vector.type_cast needs a row-major scalar memref, {mem.type_str()}")
    n = int(np.prod(mem.sizes, dtype=np.int64)) if mem.sizes else 1
    buf = mem.buffer[:n].reshape((1,) + mem.sizes)
    return MemRef(buf, 0, (), (), mem.elem, mem.sizes)


# --------------------------------------------------------------------------- lane addressing


def _base(mem: MemRef, indices: Sequence[int], op: str) -> np.ndarray:
    if len(indices) != mem.rank:
        raise SemanticsError(f"{op}: {len(indices)} indices for {mem.type_str()}")
    return np.array([int(i) for i in indices], dtype=np.int64).reshape(mem.rank)


def _slice_index(mem: MemRef, indices: Sequence[int], shape: tuple[int, ...], op: str) -> Any:
    """idx[v] = indices + v placed on the trailing len(shape) memref dims."""
    base = _base(mem, indices, op)
    k = len(shape)
    if k > mem.rank:
        raise SemanticsError(f"{op}: rank-{k} vector from {mem.type_str()}")
    idx = np.broadcast_to(base, shape + (mem.rank,)).copy()
    for t, n in enumerate(shape):
        bshape = [1] * k
        bshape[t] = n
        idx[..., mem.rank - k + t] += np.arange(n, dtype=np.int64).reshape(bshape)
    return idx


def _scalar_elems(mem: MemRef, op: str) -> None:
    if mem.vector_shape:
        raise SemanticsError(f"{op} on a memref of vectors ({mem.type_str()}) is not supported")


def _unit_minor(mem: MemRef, op: str) -> None:
    """Masked loads/stores, expandload and compressstore of MLIR 22 access consecutive
    elements from the first one whatever the minor stride (measured: a maskedload from a
    stride-5 column view reads the row instead); we fault rather than guess."""
    if mem.rank and mem.sizes[-1] > 1 and mem.strides[-1] != 1:
        raise SemanticsError(
            f"{op} through {mem.type_str()}: a minor stride other than 1 is not supported "
            "(MLIR's lowering reads consecutive elements there)"
        )


def _read(mem: MemRef, idx: np.ndarray, active: Any, op: str) -> np.ndarray:
    rows = mem.positions(idx, active, f"{op}: memref access")
    if mem.buffer.shape[0] == 0:
        return np.zeros(idx.shape[:-1] + mem.vector_shape, mem.buffer.dtype)
    return mem.buffer[rows].copy()


def _write(mem: MemRef, idx: np.ndarray, active: Any, values: Any, op: str) -> None:
    act = np.broadcast_to(np.asarray(active, dtype=np.bool_), idx.shape[:-1])
    rows = mem.positions(idx, act, f"{op}: memref access")
    vals = np.broadcast_to(np.asarray(as_elem(values, mem.elem)), act.shape + mem.vector_shape)
    mem.buffer[rows[act]] = vals[act]


# --------------------------------------------------------------------------- load / store


def _outside(mem: MemRef, idx: np.ndarray) -> np.ndarray:
    """Lanes whose index tuple lies outside the memref's dims."""
    sizes = np.array(mem.sizes, dtype=np.int64)
    return ~np.all((idx >= 0) & (idx < sizes), axis=-1)


def vector_load(
    mem: MemRef,
    indices: Sequence[int],
    shape: Sequence[int],
    strict: bool = False,
    on_past: Callable[[str], None] | None = None,
) -> np.ndarray:
    """The slice of `shape` starting at indices, spanning the trailing memref dims (a memref
    of vectors yields its element). Lanes past a dim read the flat memory as MLIR's lowering
    does (``on_past`` is told; a fault beyond the buffer, or any such lane when ``strict``)."""
    shape = tuple(shape)
    if mem.vector_shape:
        if shape != mem.vector_shape:
            raise SemanticsError(f"vector.load of {shape} from {mem.type_str()}")
        return np.asarray(mem.load(indices))
    idx = _slice_index(mem, indices, shape, "vector.load")
    past = _outside(mem, idx)
    if strict or not past.any():
        return np.asarray(_read(mem, idx, True, "vector.load"))
    rows = _flat_rows(mem, idx, np.ones(past.shape, np.bool_), past, "vector.load")
    if on_past is not None:
        on_past(_past_note(mem, idx, past, "vector.load"))
    return mem.buffer[rows].copy()


def vector_store(
    mem: MemRef,
    indices: Sequence[int],
    value: Any,
    strict: bool = False,
    on_past: Callable[[str], None] | None = None,
) -> None:
    """Write value into the slice starting at indices (inverse of vector_load)."""
    v = np.asarray(value)
    if mem.vector_shape:
        if v.shape != mem.vector_shape:
            raise SemanticsError(f"vector.store of {v.shape} into {mem.type_str()}")
        mem.store(indices, v)
        return
    idx = _slice_index(mem, indices, v.shape, "vector.store")
    past = _outside(mem, idx)
    if strict or not past.any():
        _write(mem, idx, True, v, "vector.store")
        return
    rows = _flat_rows(mem, idx, np.ones(past.shape, np.bool_), past, "vector.store")
    mem.buffer[rows] = np.broadcast_to(np.asarray(as_elem(v, mem.elem)), past.shape)
    if on_past is not None:
        on_past(_past_note(mem, idx, past, "vector.store"))


def maskedload(mem: MemRef, indices: Sequence[int], mask: Any, pass_thru: Any) -> np.ndarray:
    """res[v] = mask[v] ? mem[indices + v] : pass_thru[v] (lanes positional, slice as in
    vector.load); masked-off lanes may be out of bounds."""
    _scalar_elems(mem, "vector.maskedload")
    _unit_minor(mem, "vector.maskedload")
    m = np.asarray(mask, dtype=np.bool_)
    idx = _slice_index(mem, indices, m.shape, "vector.maskedload")
    vals = _read(mem, idx, m, "vector.maskedload")
    return np.where(m, vals, np.asarray(as_elem(pass_thru, mem.elem)))


def maskedstore(mem: MemRef, indices: Sequence[int], mask: Any, value: Any) -> None:
    """mem[indices + v] = value[v] where mask[v]; other lanes untouched and not accessed."""
    _scalar_elems(mem, "vector.maskedstore")
    _unit_minor(mem, "vector.maskedstore")
    m = np.asarray(mask, dtype=np.bool_)
    idx = _slice_index(mem, indices, m.shape, "vector.maskedstore")
    _write(mem, idx, m, value, "vector.maskedstore")


def _gather_index(mem: MemRef, indices: Sequence[int], index_vec: Any, op: str) -> np.ndarray:
    if mem.rank == 0:
        raise SemanticsError(f"{op} needs a memref of rank >= 1")
    iv = np.asarray(index_vec).astype(np.int64)
    idx = np.broadcast_to(_base(mem, indices, op), iv.shape + (mem.rank,)).copy()
    if not mem.is_identity_layout():  # a strided view: stay on the innermost dim
        idx[..., -1] += iv
        return idx
    # Contiguous memref: the offset moves through the row-major linearisation (measured,
    # mlir-runner-22: base [1, 1] + 3 in a 3x4 memref reads [2, 0]).
    rem = idx @ np.array(_row_major_strides(mem.sizes), dtype=np.int64) + iv
    for k in range(mem.rank - 1, 0, -1):
        idx[..., k] = rem % mem.sizes[k]
        rem = rem // mem.sizes[k]
    idx[..., 0] = rem  # out of range lands outside dim 0 and is reported as out of bounds
    return idx


def gather(
    mem: MemRef, indices: Sequence[int], index_vec: Any, mask: Any, pass_thru: Any
) -> np.ndarray:
    """res[v] = mask[v] ? mem[indices + index_vec[v]] : pass_thru[v], the offset counted in
    the row-major linearisation of a contiguous memref (along the innermost dim of a strided
    view); n-D index vectors; an active lane outside the memref raises."""
    _scalar_elems(mem, "vector.gather")
    idx = _gather_index(mem, indices, index_vec, "vector.gather")
    m = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=np.bool_), idx.shape[:-1])
    vals = _read(mem, idx, m, "vector.gather")
    return np.where(m, vals, np.asarray(as_elem(pass_thru, mem.elem)))


def scatter(mem: MemRef, indices: Sequence[int], index_vec: Any, mask: Any, value: Any) -> None:
    """mem[indices + index_vec[v]] = value[v] where mask[v] (offsets as in gather);
    duplicate active targets raise (UB in MLIR)."""
    _scalar_elems(mem, "vector.scatter")
    idx = _gather_index(mem, indices, index_vec, "vector.scatter")
    m = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=np.bool_), idx.shape[:-1])
    targets = idx[m]
    if len(np.unique(targets, axis=0)) != len(targets):
        raise SemanticsError("vector.scatter: duplicate indices among active lanes (UB)")
    _write(mem, idx, m, value, "vector.scatter")


def _compressed_index(mem: MemRef, indices: Sequence[int], m: np.ndarray, op: str) -> Any:
    """Each minor row r starts where vector.load would start it; its k-th set lane uses the
    k-th consecutive element from there."""
    if m.ndim == 0:
        raise SemanticsError(f"{op} needs a vector of rank >= 1")
    idx = _slice_index(mem, indices, m.shape, op)
    rank_in_row = np.cumsum(m, axis=-1, dtype=np.int64) - 1
    idx[..., -1] = idx[..., :1, -1] + rank_in_row
    return idx


def expandload(mem: MemRef, indices: Sequence[int], mask: Any, pass_thru: Any) -> np.ndarray:
    """res[..., k] = mask[..., k] ? next consecutive element (per minor row, from the row's
    start) : pass_thru[..., k]."""
    _scalar_elems(mem, "vector.expandload")
    _unit_minor(mem, "vector.expandload")
    m = np.asarray(mask, dtype=np.bool_)
    idx = _compressed_index(mem, indices, m, "vector.expandload")
    vals = _read(mem, idx, m, "vector.expandload")
    return np.where(m, vals, np.asarray(as_elem(pass_thru, mem.elem)))


def compressstore(mem: MemRef, indices: Sequence[int], mask: Any, value: Any) -> None:
    """The mask-selected elements of each minor row of value, written contiguously from the
    row's start."""
    _scalar_elems(mem, "vector.compressstore")
    _unit_minor(mem, "vector.compressstore")
    m = np.asarray(mask, dtype=np.bool_)
    idx = _compressed_index(mem, indices, m, "vector.compressstore")
    _write(mem, idx, m, value, "vector.compressstore")


# --------------------------------------------------------------------------- transfers


def _transfer_lanes(
    mem: MemRef,
    indices: Sequence[int],
    perm_results: Sequence[int | None],
    lead: tuple[int, ...],
    in_bounds: Sequence[bool] | None,
    mask: Any,
    op: str,
    strict: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(memref index per lane, lane is accessed, accessed lane lies past a dimension declared
    in_bounds) for a transfer of the leading vector shape (see the module docstring)."""
    n = len(perm_results)
    if len(lead) != n:
        raise SemanticsError(f"{op}: permutation map has {n} results for a rank-{len(lead)} vector")
    mapped = [t for t in range(n) if perm_results[t] is not None]
    dims = [perm_results[t] for t in mapped]
    if len(set(dims)) != len(dims) or any(not 0 <= d < mem.rank for d in dims):
        raise SemanticsError(f"{op}: {tuple(perm_results)} is not a projected permutation")
    inb = tuple(in_bounds) if in_bounds is not None else (False,) * n
    if len(inb) != n:
        raise SemanticsError(f"{op}: in_bounds has {len(inb)} entries for rank {n}")
    base = _base(mem, indices, op)
    for j in range(mem.rank):
        if j not in dims and not 0 <= base[j] < mem.sizes[j]:
            raise SemanticsError(
                f"{op}: index {list(map(int, base))} out of bounds on non-transfer dim {j} "
                f"of {mem.type_str()}"
            )
    idx = np.broadcast_to(base, lead + (mem.rank,)).copy()
    active = np.ones(lead, np.bool_)
    past = np.zeros(lead, np.bool_)
    if mask is not None:
        # The mask is indexed like the vector with broadcast dims dropped and the others in
        # memref-dim order (measured with a transposed map, MLIR 22: read and write alike).
        order = sorted(mapped, key=lambda t: perm_results[t])
        m = np.asarray(mask, dtype=np.bool_)
        if m.shape != tuple(lead[t] for t in order):
            raise SemanticsError(
                f"{op}: mask shape {m.shape} != {tuple(lead[t] for t in order)} (vector dims "
                "in memref order, broadcast dims dropped)"
            )
        m = np.transpose(m, [order.index(t) for t in mapped]) if m.ndim else m
        active &= np.broadcast_to(
            m.reshape([lead[t] if t in mapped else 1 for t in range(n)]), lead
        )
    for t in mapped:
        j = perm_results[t]
        bshape = [1] * n
        bshape[t] = lead[t]
        idx[..., j] += np.arange(lead[t], dtype=np.int64).reshape(bshape)
        if idx[..., j].min(initial=0) < 0:
            raise SemanticsError(f"{op}: negative memref index on dim {j} (UB)")
        inside = idx[..., j] < mem.sizes[j]
        if inb[t]:
            bad = active & ~inside
            if bad.any() and strict:
                first = idx[tuple(np.argwhere(bad)[0])]
                raise SemanticsError(
                    f"{op}: access {list(map(int, first))} out of bounds for {mem.type_str()} "
                    f"although in_bounds[{t}] is true"
                )
            past |= bad
        else:
            active &= inside
    return idx, active, past & active


def _flat_rows(mem: MemRef, idx: np.ndarray, active: Any, past: np.ndarray, op: str) -> Any:
    """Buffer rows of the accessed lanes: lanes in ``past`` address the flat memory (a fault
    beyond the buffer), the others are bounds-checked per dimension."""
    rows = mem.positions(idx, active & ~past, f"{op}: memref access")
    if past.any():
        flat = mem.offset + idx[past] @ np.array(mem.strides, dtype=np.int64).reshape(mem.rank)
        out = (flat < 0) | (flat >= mem.buffer.shape[0])
        if out.any():
            first = idx[past][int(np.argmax(out))]
            raise SemanticsError(
                f"{op}: access {list(map(int, first))} reaches past the allocation "
                f"of {mem.type_str()}"
            )
        rows = np.array(rows)
        rows[past] = flat
    return rows


def _past_note(mem: MemRef, idx: np.ndarray, past: np.ndarray, op: str) -> str:
    first = idx[tuple(np.argwhere(past)[0])]
    what = op if op in ("vector.load", "vector.store") else f"{op} marked in_bounds"
    return (
        f"{what} accesses {list(map(int, first))} past a dimension of "
        f"{mem.type_str()}; using the flat memory as MLIR does (--strict makes this a fault)"
    )


def transfer_read(
    mem: MemRef,
    indices: Sequence[int],
    perm_results: Sequence[int | None],
    shape: Sequence[int],
    padding: Any,
    in_bounds: Sequence[bool] | None = None,
    mask: Any = None,
    strict: bool = False,
    on_past: Callable[[str], None] | None = None,
) -> np.ndarray:
    """res[v] = mem[indices + v placed through the permutation map] (None = broadcast dim,
    adds nothing), or padding for lanes out of bounds on a not-in_bounds dim or masked off.
    For a memref of vectors, shape ends with the element shape and padding is a vector.
    In-bounds lanes past their dim read flat memory (``on_past`` is told) unless ``strict``."""
    shape = tuple(shape)
    vs = mem.vector_shape
    lead = shape[: len(shape) - len(vs)]
    if vs and shape[len(lead) :] != vs:
        raise SemanticsError(f"vector.transfer_read of {shape} from {mem.type_str()}")
    if vs and mask is not None:
        raise SemanticsError("vector.transfer_read: no mask with a memref of vectors")
    op = "vector.transfer_read"
    idx, active, past = _transfer_lanes(
        mem, indices, perm_results, lead, in_bounds, mask, op, strict
    )
    if past.any():
        rows = _flat_rows(mem, idx, active, past, op)
        vals = mem.buffer[rows].copy()
        if on_past is not None:
            on_past(_past_note(mem, idx, past, op))
    else:
        vals = _read(mem, idx, active, op)
    pad = np.asarray(as_elem(padding, mem.elem))
    if pad.shape != vs:
        raise SemanticsError(f"transfer_read padding shape {pad.shape} != element shape {vs}")
    act = active.reshape(active.shape + (1,) * len(vs))
    return np.where(act, vals, pad)


def transfer_write(
    mem: MemRef,
    indices: Sequence[int],
    perm_results: Sequence[int],
    value: Any,
    in_bounds: Sequence[bool] | None = None,
    mask: Any = None,
    strict: bool = False,
    on_past: Callable[[str], None] | None = None,
) -> None:
    """mem[indices + v placed through the permutation map] = value[v] for lanes in bounds and
    masked on; others are not written (no broadcast dims allowed). In-bounds lanes past their
    dim write flat memory (``on_past`` is told) unless ``strict``."""
    v = np.asarray(value)
    vs = mem.vector_shape
    if any(p is None for p in perm_results):
        raise SemanticsError("vector.transfer_write: broadcast dims are not allowed")
    if vs and v.shape[v.ndim - len(vs) :] != vs:
        raise SemanticsError(f"vector.transfer_write of {v.shape} into {mem.type_str()}")
    if vs and mask is not None:
        raise SemanticsError("vector.transfer_write: no mask with a memref of vectors")
    lead = v.shape[: v.ndim - len(vs)]
    op = "vector.transfer_write"
    idx, active, past = _transfer_lanes(
        mem, indices, perm_results, lead, in_bounds, mask, op, strict
    )
    if past.any():
        rows = _flat_rows(mem, idx, active, past, op)
        vals = np.broadcast_to(np.asarray(as_elem(v, mem.elem)), active.shape + vs)
        mem.buffer[rows[active]] = vals[active]
        if on_past is not None:
            on_past(_past_note(mem, idx, past, op))
    else:
        _write(mem, idx, active, v, op)


def transfer_read_tensor(tensor: Any, elem: str, *args: Any, **kwargs: Any) -> np.ndarray:
    """transfer_read from a ranked tensor (numpy array): same law as on a memref."""
    return transfer_read(MemRef.from_array(tensor, elem), *args, **kwargs)


def transfer_write_tensor(tensor: Any, elem: str, *args: Any, **kwargs: Any) -> np.ndarray:
    """transfer_write into a ranked tensor: returns the updated copy (the tensor is a value)."""
    m = MemRef.from_array(tensor, elem)
    transfer_write(m, *args, **kwargs)
    return m.to_array()
