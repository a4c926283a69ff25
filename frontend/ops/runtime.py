"""What an op's ``eval`` may ask of the interpreter, and the small helpers every dialect's
semantics share (element-type strings, runtime shapes, static/dynamic index lists, constants).

The numpy kernels live in ``frontend.semantics``; ``eval`` functions only decode the op's
attributes and types and call them. Runtime values are numpy arrays (vectors, 0-D vectors as
0-D arrays), numpy scalars (``i1`` is ``np.bool_``, ``index`` is ``np.int64``) and
``frontend.semantics.MemRef`` views (memrefs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TextIO

import numpy as np

from frontend.attributes import (
    ArrayAttr,
    DenseElementsAttr,
    EnumAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
)
from frontend.ops.common import ints
from frontend.ops.spec import DYNAMIC_INDEX
from frontend.semantics import MemRef, SemanticsError, as_elem, dtype_of
from frontend.types import FloatType, IndexType, IntegerType, Type, VectorType

if TYPE_CHECKING:
    from frontend.ir import Operation, Region
    from frontend.semantics_heap import Heap

__all__ = [
    "EvalContext",
    "SemanticsError",
    "as_memref",
    "attr_value",
    "bools",
    "constant",
    "elem",
    "enum",
    "forward",
    "fp_contract",
    "ints",
    "matrix_layout",
    "mixed",
    "no_op",
    "shape",
]


class EvalContext(Protocol):
    """The interpreter as seen by ``OpSpec.eval`` (``eqsat.interpreter.Interpreter``)."""

    vscale: int  # runtime value of vscale: scalable dims are multiplied by it
    out: TextIO  # where vector.print writes
    mask: Any  # the vector.mask mask while its region runs (maskable ops read it), else None
    # How flat matrices are laid out (flat_transpose, matrix_multiply, llvm.intr.matrix.*):
    # "row-major" (default) or "column-major", as LLVM's -matrix-default-layout.
    matrix_layout: str
    # fp-contract mode: a float vector.contract<add> fuses each multiply-add
    # (frontend.semantics_vector.contract's ``fused``)
    fp_contract: bool

    def run_region(self, region: Region, args: Sequence[Any]) -> list[Any]:
        """Run the region's entry block with these block arguments; the values its
        terminator passes on (scf.yield / vector.yield / scf.condition operands)."""
        ...

    def invoke(self, name: str, args: Sequence[Any]) -> list[Any]:
        """Call function @name; a SemanticsError if there is no such function body."""
        ...

    def global_memref(self, name: str) -> MemRef:
        """The buffer of memref.global @name (created on first use, then shared)."""
        ...

    @property
    def heap(self) -> Heap:
        """The memref.alloc buffers, and those deallocated (frontend.semantics_heap)."""
        ...

    def static(self, op: Operation, build: Callable[[Operation], Any]) -> Any:
        """``build(op)`` computed once per op and cached: for constants and decoded attributes.
        The cached value is shared between executions, so it must never be mutated."""
        ...


def fp_contract(ctx: Any) -> bool:
    """Whether the context runs in fp-contract mode (contexts without the field do not)."""
    return bool(getattr(ctx, "fp_contract", False))


def matrix_layout(ctx: Any) -> str:
    """The context's flat-matrix layout (contexts without the field are row-major)."""
    return getattr(ctx, "matrix_layout", "row-major")


def _scalar(t: Type) -> Type:
    while isinstance(getattr(t, "element", None), Type):
        t = t.element  # type: ignore[attr-defined]
    return t


def elem(t: Type) -> str:
    """The element-type string of the semantics kernels: 'f32', 'i8', 'index', ...; memrefs
    and tensors of vectors give their scalar element."""
    s = _scalar(t)
    if isinstance(s, IntegerType):
        return f"i{s.width}"
    if isinstance(s, (IndexType, FloatType)):
        return str(s)
    raise SemanticsError(f"no runtime representation for element type {s}")


def shape(ctx: EvalContext, t: Type) -> tuple[int, ...]:
    """The runtime shape of a vector type (scalable dims times vscale); () for scalars."""
    return t.runtime_shape(ctx.vscale) if isinstance(t, VectorType) else ()


def enum(op: Operation, name: str) -> str:
    """The keyword of an enum attribute (``#vector.kind<maxnumf>`` -> 'maxnumf')."""
    a = op.attributes[name]
    return a.value if isinstance(a, (EnumAttr, StringAttr)) else str(a)


def bools(attr: Any) -> list[bool]:
    """An ArrayAttr of i1 (``in_bounds``) as Python bools."""
    return [bool(v.value) for v in attr.values] if isinstance(attr, ArrayAttr) else []


def mixed(static: Any, dynamic: Sequence[Any]) -> list[int]:
    """A static index list with its ``DYNAMIC_INDEX`` markers replaced, in order, by the
    dynamic operands (``vector.extract %v[%i, 2]``, ``memref.subview``)."""
    it = iter(dynamic)
    return [int(next(it)) if s == DYNAMIC_INDEX else int(s) for s in ints(static)]


def as_memref(x: Any, t: Type) -> MemRef:
    """A memref operand, or a ranked tensor (numpy array) read through a fresh memref."""
    return x if isinstance(x, MemRef) else MemRef.from_array(np.asarray(x), elem(t))


def _wrap64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def attr_value(a: Any, t: Type, vscale: int) -> Any:
    """The runtime value of a constant attribute of type t (scalar, vector or tensor)."""
    e = elem(t)
    if isinstance(a, IntegerAttr):
        return as_elem(np.int64(_wrap64(int(a.value))), e)
    if isinstance(a, FloatAttr):
        return as_elem(np.float64(a.value), e)
    if isinstance(a, DenseElementsAttr):
        vec = isinstance(t, VectorType)
        dims = t.runtime_shape(vscale) if vec else tuple(t.shape)  # type: ignore[attr-defined]
        vals = [_wrap64(int(v)) if not isinstance(v, float) else v for v in a.values]
        flat = np.asarray(as_elem(np.array(vals), e))
        if len(vals) == 1:
            return np.full(dims, flat[0], dtype=dtype_of(e))
        return flat.astype(dtype_of(e)).reshape(dims)
    raise SemanticsError(f"cannot evaluate constant {a}")


def constant(ctx: EvalContext, op: Operation) -> Any:
    """arith.constant: decoded once per op (the cached array is read-only)."""

    def build(op: Operation) -> Any:
        v = attr_value(op.attributes["value"], op.results[0].type, ctx.vscale)
        if isinstance(v, np.ndarray):
            v.flags.writeable = False
        return v

    return ctx.static(op, build)


def forward(ctx: EvalContext, op: Operation, *groups: Any) -> list[Any]:
    """Terminators: the values they pass to the parent op (flattened operand groups)."""
    out: list[Any] = []
    for g in groups:
        out.extend(g if isinstance(g, list) else [g])
    return out


def no_op(ctx: EvalContext, op: Operation, *operands: Any) -> None:
    """Declarations (func.func, memref.global, module): nothing to run."""
