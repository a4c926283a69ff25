"""Data movement by index maps: the plain lowering of every shape op.

A shape op's effect is an index map: result element p is element ``index[p]`` of the
concatenated (row-major) sources, or zero where ``index[p] == -1``. The map is computed once
at compile time by the interpreter's own numpy kernels applied to ``arange`` arrays (one source
of truth), and ``gather`` builds each result piece with at most one ``shufflevector`` when
its lanes come from one or two source pieces of one length, element moves otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.types import I32, shuffle_mask, vector_of
from frontend.types import Type, VectorType


@dataclass
class Sources:
    """The pieces of some values, addressable by flat element index."""

    pieces: list[ir.Value]  # 1-D LLVM vectors
    where: list[tuple[int, int]]  # flat element index -> (piece, lane)
    elem: ir.Type

    @classmethod
    def of(cls, em: FuncEmitter, values: Sequence[tuple[ir.Value, Type]]) -> Sources:
        pieces: list[ir.Value] = []
        where: list[tuple[int, int]] = []
        elem = None
        for v, t in values:
            if isinstance(t, VectorType):
                for c in em.chunks(v, t):
                    for lane in range(c.type.count):
                        where.append((len(pieces), lane))
                    pieces.append(c)
                    elem = c.type.element
            else:
                where.append((len(pieces), 0))
                pieces.append(vector_of(em.b, [v]))
                elem = v.type
        return cls(pieces, where, elem)  # type: ignore[arg-type]

    def element(self, em: FuncEmitter, i: int) -> ir.Value:
        if i < 0:
            return ir.Constant(self.elem, 0)
        p, lane = self.where[i]
        return em.b.extract_element(self.pieces[p], I32(lane))

    def chunk(self, em: FuncEmitter, idx: Sequence[int]) -> ir.Value:
        """A 1-D vector whose lane k is element idx[k] (-1: zero)."""
        idx = [int(i) for i in idx]
        used = sorted({self.where[i][0] for i in idx if i >= 0})
        n = len(idx)
        if len(used) == 1:
            p = self.pieces[used[0]]
            lanes = [self.where[i][1] if i >= 0 else -1 for i in idx]
            if lanes == list(range(p.type.count)):
                return p
            if -1 not in lanes:
                return em.b.shuffle_vector(
                    p, ir.Constant(p.type, ir.Undefined), shuffle_mask(lanes)
                )
            zero = ir.Constant(p.type, None)
            m = p.type.count
            return em.b.shuffle_vector(
                p, zero, shuffle_mask([lane if lane >= 0 else m for lane in lanes])
            )
        if len(used) == 2 and -1 not in idx:
            a, b = self.pieces[used[0]], self.pieces[used[1]]
            if a.type == b.type:
                m = a.type.count
                lanes = [self.where[i][1] + (m if self.where[i][0] == used[1] else 0) for i in idx]
                return em.b.shuffle_vector(a, b, shuffle_mask(lanes))
        if not used:
            return ir.Constant(ir.VectorType(self.elem, n), None)
        return vector_of(em.b, [self.element(em, i) for i in idx])


def result_chunks(em: FuncEmitter, t: Type) -> list[np.ndarray]:
    """Flat element indices of each piece of a value of type t (scalars: one piece of 1)."""
    if not isinstance(t, VectorType):
        return [np.zeros(1, np.int64)]
    n = max(1, int(np.prod(t.shape)))
    flat = np.arange(n)
    if em.layout.kind == "flat" or t.rank <= 1:
        return [flat]
    k = t.shape[-1]
    return [flat[i : i + k] for i in range(0, n, k)]


def gather(
    em: FuncEmitter, sources: Sequence[tuple[ir.Value, Type]], index: np.ndarray, rt: Type
) -> ir.Value:
    """The value of type rt whose element p is source element index[p] (-1: zero)."""
    src = Sources.of(em, sources)
    flat = np.asarray(index).reshape(-1)
    if not isinstance(rt, VectorType):
        return src.element(em, int(flat[0]))
    pieces = [src.chunk(em, flat[c]) for c in result_chunks(em, rt)]
    return em.from_chunks(pieces, rt)


def zip_map(
    em: FuncEmitter,
    rt: Type,
    operands: Sequence[tuple[Sources, np.ndarray]],
    fn: Callable[..., ir.Value],
) -> ir.Value:
    """Build rt piece by piece: fn(*(operand pieces gathered by their index maps))."""
    pieces = []
    for c in result_chunks(em, rt):
        args = [s.chunk(em, np.asarray(idx).reshape(-1)[c]) for s, idx in operands]
        pieces.append(fn(*args))
    if not isinstance(rt, VectorType):
        return em.b.extract_element(pieces[0], I32(0))
    return em.from_chunks(pieces, rt)


def arange(t: Type, start: int = 0) -> np.ndarray:
    """Flat indices start.. laid out in t's shape (a scalar: a 0-D array)."""
    if isinstance(t, VectorType):
        return np.arange(start, start + max(1, int(np.prod(t.shape)))).reshape(t.shape)
    return np.array(start)


def size(t: Type) -> int:
    return max(1, int(np.prod(t.shape))) if isinstance(t, VectorType) else 1
