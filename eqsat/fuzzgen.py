"""Random well-typed vector programs, as hypothesis strategies, for differential fuzzing.

``programs()`` draws a function ``@f`` whose arguments are vectors and memrefs, built through
the op table (``frontend.builder``): element-wise arith and math ops on f16/f32/f64/i1/i8/i32/i64,
every pure vector op (broadcast, transpose, shape_cast, extract/insert and their strided
forms, shuffle, splat, from_elements, interleave, flat_transpose, matrix_multiply, masks,
step, scan, reductions, contract, outerproduct, bitcast), the memory ops (loads and stores,
masked, gathers and scatters, expand/compress, transfers with masks, padding and permutation
maps), ``vector.print``, ``vector.mask`` regions and ``scf.for`` loops, over shapes with 0-D, 1-sized and
non-power-of-two dims.

Some arguments are wide (``WIDE_SHAPES``: up to 16x16 and 64 lanes) and contractions reach
16 per dim, so that the lowerings a target's cost model picks for kernels (the 4x4, 8x8 and
16x16 shuffle transposes, outer products blocked by rows, pair broadcasts under fast-math,
``matrix_multiply``) are generated too, not only the small shapes' elementwise fallbacks.

Each op is built, then verified on its own: a candidate the verifier rejects is dropped, so
every program verifies (``Builder.module()`` checks the whole). Memory accesses are drawn
inside their memref unless the op defines out-of-bounds behaviour (transfers with
``in_bounds = false``), so every program is defined on every input; integer division by
zero and other undefined behaviour can still happen on some inputs, and the fuzzer skips
those inputs (the original program faults in the interpreter).

Needs ``hypothesis`` (the ``test`` extra).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

from frontend.builder import Builder, affine_map, vector_type
from frontend.errors import MLIRError
from frontend.ir import Module, Value
from frontend.types import FloatType, IndexType, IntegerType, MemRefType, Type, VectorType

ELEMS = ("f16", "f32", "f64", "i1", "i8", "i32", "i64")
FLOATS = ("f16", "f32", "f64")
DIMS = (1, 2, 3, 4, 5, 8, 16)
#: Integer widths below a byte's and between bytes (``narrow_bitcast``).
NARROW_WIDTHS = (3, 5, 6, 7, 12, 24)
MAX_ELEMENTS = 48  # a small shape (most values): keeps the e-graphs and the texts small
WIDE_ELEMENTS = 256  # a wide argument, or what an op builds from one (16x16)
# Kernel-sized argument shapes: square and rectangular tiles of 4, 8 and 16, and wide rows.
# The square tiles twice: the block shuffle transposes are for them.
WIDE_SHAPES = (
    (4, 4), (8, 8), (16, 16), (4, 4), (8, 8), (16, 16), (4, 8), (8, 4), (8, 16), (16, 8),
    (2, 16), (16,), (32,), (64,), (2, 8, 8),
)  # fmt: skip
CONTRACT_DIMS = (1, 2, 3, 4, 8, 16)

FLOAT_BINARY = (
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "arith.maximumf",
    "arith.minimumf", "arith.maxnumf", "arith.minnumf", "math.powf", "math.atan2",
    "math.copysign",
)  # fmt: skip
INT_BINARY = (
    "arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
    "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui", "arith.shli", "arith.shrsi",
    "arith.shrui", "arith.divsi", "arith.divui", "arith.ceildivsi", "arith.ceildivui",
    "arith.floordivsi", "arith.remsi", "arith.remui", "math.ipowi",
)  # fmt: skip
FLOAT_UNARY = (
    "arith.negf", "math.sqrt", "math.rsqrt", "math.exp", "math.exp2", "math.expm1", "math.log",
    "math.log2", "math.log10", "math.log1p", "math.tanh", "math.sin", "math.cos", "math.tan",
    "math.atan", "math.asin", "math.acos", "math.sinh", "math.cosh", "math.asinh", "math.acosh",
    "math.atanh", "math.erf", "math.erfc", "math.absf", "math.ceil", "math.floor", "math.round",
    "math.roundeven", "math.trunc", "math.cbrt",
)  # fmt: skip
INT_UNARY = ("math.absi", "math.ctlz", "math.cttz", "math.ctpop")
FLOAT_KINDS = ("add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf")
INT_KINDS = ("add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor")
CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
        "ule", "une", "uno", "true")  # fmt: skip
CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


@dataclass
class Program:
    """A generated function ``@f`` (in ``module``) and the types of its arguments."""

    module: Module
    arg_types: list[Type]

    @property
    def text(self) -> str:
        from frontend import print_module

        return print_module(self.module)


def elem_name(t: Type) -> str:
    e = t.element if isinstance(t, (VectorType, MemRefType)) else t
    return f"i{e.width}" if isinstance(e, IntegerType) else str(e)


def is_float(t: Type) -> bool:
    e = t.element if isinstance(t, (VectorType, MemRefType)) else t
    return isinstance(e, FloatType)


def shape_of(t: Type) -> tuple[int, ...]:
    return tuple(t.shape) if isinstance(t, (VectorType, MemRefType)) else ()


def vt(shape: tuple[int, ...] | list[int], elem: str) -> VectorType:
    return vector_type(list(shape), elem)


@st.composite
def shapes(draw: st.DrawFn, min_rank: int = 0, max_rank: int = 3) -> tuple[int, ...]:
    """Vector shapes: 0-D, 1-sized and non-power-of-two dims, at most MAX_ELEMENTS elements."""
    rank = draw(st.integers(min_rank, max_rank))
    dims: list[int] = []
    for _ in range(rank):
        room = MAX_ELEMENTS // max(1, math.prod(dims))
        dims.append(draw(st.sampled_from([d for d in DIMS if d <= room] or [1])))
    return tuple(dims)


def wide_shapes() -> st.SearchStrategy[tuple[int, ...]]:
    """Kernel-sized shapes (``WIDE_SHAPES``): what the fast lowerings are for."""
    return st.sampled_from(WIDE_SHAPES)


def _room(*shapes_: tuple[int, ...] | list[int]) -> bool:
    """Whether every shape fits the wide bound."""
    return all(math.prod(s) <= WIDE_ELEMENTS for s in shapes_)


class _Gen:
    """The state of one program being drawn: the builder and the values in scope."""

    def __init__(self, draw: st.DrawFn, b: Builder) -> None:
        self.draw = draw
        self.b = b
        self.values: list[Value] = []
        self.memrefs: list[Value] = []

    # -- helpers ------------------------------------------------------------------------
    def pick(self, pred: Callable[[Type], bool] = lambda t: True) -> Value | None:
        options = [v for v in self.values if pred(v.type)]
        return self.draw(st.sampled_from(options)) if options else None

    def pick_vector(self, pred: Callable[[VectorType], bool] = lambda t: True) -> Value | None:
        return self.pick(lambda t: isinstance(t, VectorType) and pred(t))

    def build(self, name: str, operands: list, result_types: list[Type], **attrs) -> Value | None:
        """Build one op and verify it alone; a rejected candidate is removed again."""
        from frontend.verifier import verify_op

        block = self.b.blocks[-1]
        before = len(block.ops)
        try:
            out = self.b.op(name, operands, result_types, **attrs)
            verify_op(block.ops[-1])
        except (MLIRError, ValueError):
            del block.ops[before:]
            return None
        if isinstance(out, Value):
            self.values.append(out)
            return out
        self.values.extend(out.results)
        return out.results[0] if out.results else None

    def index(self, n: int) -> Value:
        return self.b.constant(n, "index")

    def constant(self, t: Type) -> Value:
        """A constant of ``t`` holding special or ordinary values."""
        from eqsat.special_values import specials

        elem = elem_name(t)
        pool = [float(v) if is_float(t) else int(v) for v in specials(elem)]
        pool += [0.5, -2.0, 3.0] if is_float(t) else [2, 3, -5]
        if elem == "i1":
            pool = [0, 1]
        elif elem[1:] in map(str, NARROW_WIDTHS):  # narrow_bitcast's i3 holds fewer
            bits = int(elem[1:])
            pool = [v for v in pool if -(1 << (bits - 1)) <= v < 1 << (bits - 1)]
        n = math.prod(shape_of(t))
        values = self.draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
        if isinstance(t, VectorType):
            import numpy as np

            return self.b.constant(np.array(values, dtype=object).reshape(t.shape).tolist(), t)
        return self.b.constant(values[0], t)

    def same_or_new(self, t: Type) -> Value:
        """A value of type ``t``: one in scope, or a new constant."""
        v = self.pick(lambda u: u == t)
        if v is None or self.draw(st.integers(0, 4)) == 0:
            v = self.constant(t)
            self.values.append(v)
        return v

    def mask_for(self, shape: tuple[int, ...]) -> Value:
        """An i1 mask of ``shape``: constant_mask, create_mask, a comparison or constant."""
        way = self.draw(st.integers(0, 2))
        t = vt(shape, "i1")
        if way == 0 and shape:
            sizes = [self.draw(st.integers(0, d)) for d in shape]
            m = self.build("vector.constant_mask", [], [t], mask_dim_sizes=sizes)
            if m is not None:
                return m
        if way == 1 and shape:
            sizes = [self.index(self.draw(st.integers(0, d + 1))) for d in shape]
            m = self.build("vector.create_mask", sizes, [t])
            if m is not None:
                return m
        return self.same_or_new(t)

    # -- element-wise ---------------------------------------------------------------------
    def binary(self) -> Value | None:
        x = self.pick_vector()
        if x is None:
            return None
        names = FLOAT_BINARY if is_float(x.type) else INT_BINARY
        y = self.same_or_new(x.type)
        return self.build(self.draw(st.sampled_from(names)), [x, y], [x.type])

    def unary(self) -> Value | None:
        x = self.pick_vector()
        if x is None:
            return None
        names = FLOAT_UNARY if is_float(x.type) else INT_UNARY
        return self.build(self.draw(st.sampled_from(names)), [x], [x.type])

    def fma(self) -> Value | None:
        x = self.pick_vector(is_float)
        if x is None:
            return None
        y, z = self.same_or_new(x.type), self.same_or_new(x.type)
        name = self.draw(st.sampled_from(["vector.fma", "math.fma"]))
        return self.build(name, [x, y, z], [x.type])

    def compare_select(self) -> Value | None:
        x = self.pick_vector()
        if x is None:
            return None
        y = self.same_or_new(x.type)
        if is_float(x.type):
            c = self.build("arith.cmpf", [x, y], [vt(x.type.shape, "i1")],
                           predicate=self.draw(st.sampled_from(CMPF)))
        else:
            c = self.build("arith.cmpi", [x, y], [vt(x.type.shape, "i1")],
                           predicate=self.draw(st.sampled_from(CMPI)))
        if c is None or self.draw(st.booleans()):
            return c
        return self.build("arith.select", [c, x, y], [x.type])

    def cast(self) -> Value | None:
        x = self.pick_vector()
        if x is None:
            return None
        src = elem_name(x.type)
        dst = self.draw(st.sampled_from(ELEMS))
        if src == "index":
            return self.build("arith.index_cast", [x], [vt(x.type.shape, dst)])
        shape = x.type.shape
        if is_float(x.type) and dst in FLOATS:
            w = {"f16": 16, "f32": 32, "f64": 64}
            name = "arith.extf" if w[dst] > w[src] else "arith.truncf" if w[dst] < w[src] else ""
        elif is_float(x.type):
            name = self.draw(st.sampled_from(["arith.fptosi", "arith.fptoui"]))
        elif dst in FLOATS:
            name = self.draw(st.sampled_from(["arith.sitofp", "arith.uitofp"]))
        else:
            ws, wd = int(src[1:]), int(dst[1:])
            name = ("arith.extsi" if self.draw(st.booleans()) else "arith.extui") if wd > ws \
                else "arith.trunci" if wd < ws else ""  # fmt: skip
        if not name:
            bits = {"f32": "i32", "i32": "f32", "f64": "i64", "i64": "f64"}.get(src)
            if bits is None:
                return None
            return self.build("arith.bitcast", [x], [vt(shape, bits)])
        return self.build(name, [x], [vt(shape, dst)])

    # -- pure vector ops -------------------------------------------------------------------
    def broadcast(self) -> Value | None:
        x = self.pick(lambda t: isinstance(t, (VectorType, FloatType, IntegerType)))
        if x is None:
            return None
        src = shape_of(x.type)
        lead = self.draw(shapes(0, 3 - len(src)))
        tail = tuple(self.draw(st.sampled_from([1, 2, 3])) if d == 1 else d for d in src)
        shape = lead + tail
        if not _room(shape) or not isinstance(x.type, VectorType) and not shape:
            return None
        return self.build("vector.broadcast", [x], [vt(shape, elem_name(x.type))])

    def transpose(self) -> Value | None:
        x = self.pick_vector(lambda t: t.rank >= 2)
        if x is None:
            return None
        perm = self.draw(st.permutations(range(x.type.rank)))
        shape = [x.type.shape[p] for p in perm]
        return self.build("vector.transpose", [x], [vt(shape, elem_name(x.type))],
                          permutation=list(perm))

    def shape_cast(self) -> Value | None:
        x = self.pick_vector()
        if x is None:
            return None
        n = math.prod(x.type.shape)
        shape = self.draw(shapes(0, 3).filter(lambda s: math.prod(s) == n) | st.just((n,)))
        return self.build("vector.shape_cast", [x], [vt(shape, elem_name(x.type))])

    def extract(self) -> Value | None:
        x = self.pick_vector(lambda t: t.rank >= 1)
        if x is None:
            return None
        k = self.draw(st.integers(1, x.type.rank))
        pos = [self.draw(st.integers(0, d - 1)) for d in x.type.shape[:k]]
        rest = x.type.shape[k:]
        elem = elem_name(x.type)
        rt = vt(rest, elem) if rest else x.type.element
        return self.build("vector.extract", [x], [rt], static_position=pos)

    def insert(self) -> Value | None:
        dest = self.pick_vector(lambda t: t.rank >= 1)
        if dest is None:
            return None
        k = self.draw(st.integers(1, dest.type.rank))
        pos = [self.draw(st.integers(0, d - 1)) for d in dest.type.shape[:k]]
        rest = dest.type.shape[k:]
        st_ = vt(rest, elem_name(dest.type)) if rest else dest.type.element
        src = self.same_or_new(st_)
        return self.build("vector.insert", [src, dest], [dest.type], static_position=pos)

    def element(self) -> Value | None:
        """extractelement / insertelement on 0-D and 1-D vectors."""
        x = self.pick_vector(lambda t: t.rank <= 1)
        if x is None:
            return None
        pos = [self.index(self.draw(st.integers(0, x.type.shape[0] - 1)))] if x.type.rank else []
        if self.draw(st.booleans()):
            return self.build("vector.extractelement", [x, pos or None], [x.type.element])
        s = self.same_or_new(x.type.element)
        return self.build("vector.insertelement", [s, x, pos or None], [x.type])

    def strided(self) -> Value | None:
        x = self.pick_vector(lambda t: t.rank >= 1)
        if x is None:
            return None
        k = self.draw(st.integers(1, x.type.rank))
        sizes = [self.draw(st.integers(1, d)) for d in x.type.shape[:k]]
        offsets = [self.draw(st.integers(0, d - s)) for d, s in zip(x.type.shape, sizes)]
        shape = sizes + list(x.type.shape[k:])
        elem = elem_name(x.type)
        if self.draw(st.booleans()):
            return self.build("vector.extract_strided_slice", [x], [vt(shape, elem)],
                              offsets=offsets, sizes=sizes, strides=[1] * k)
        # insert_strided_slice: a source of rank <= dest rank, the trailing part of a slice
        drop = self.draw(st.integers(0, k - 1))
        src = self.same_or_new(vt(shape[drop:], elem))
        offs = [self.draw(st.integers(0, d - 1)) for d in x.type.shape[:drop]] + offsets[drop:]
        return self.build("vector.insert_strided_slice", [src, x], [x.type], offsets=offs,
                          strides=[1] * (x.type.rank - drop))

    def shuffle(self) -> Value | None:
        x = self.pick_vector(lambda t: t.rank >= 1)
        if x is None:
            return None
        y = self.same_or_new(x.type)
        n = x.type.shape[0] * 2
        mask = self.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=8))
        shape = [len(mask)] + list(x.type.shape[1:])
        return self.build("vector.shuffle", [x, y], [vt(shape, elem_name(x.type))], mask=mask)

    def splat_from_elements(self) -> Value | None:
        s = self.pick(lambda t: isinstance(t, (FloatType, IntegerType)))
        if s is None:
            return None
        shape = self.draw(shapes(0, 2))
        if self.draw(st.booleans()):
            return self.build("vector.splat", [s], [vt(shape, elem_name(s.type))])
        n = math.prod(shape)
        elems = [self.same_or_new(s.type) for _ in range(n)]
        return self.build("vector.from_elements", elems, [vt(shape, elem_name(s.type))])

    def interleave(self) -> Value | None:
        x = self.pick_vector(lambda t: t.rank >= 1)
        if x is None:
            return None
        shape, elem = list(x.type.shape), elem_name(x.type)
        if self.draw(st.booleans()) and shape[-1] % 2 == 0:
            half = shape[:-1] + [shape[-1] // 2]
            return self.build("vector.deinterleave", [x], [vt(half, elem), vt(half, elem)])
        y = self.same_or_new(x.type)
        return self.build("vector.interleave", [x, y], [vt(shape[:-1] + [shape[-1] * 2], elem)])

    def matrix(self) -> Value | None:
        x = self.pick_vector(lambda t: t.rank == 1 and elem_name(t) != "i1")
        if x is None:
            return None
        n, elem = x.type.shape[0], elem_name(x.type)
        rows = self.draw(st.sampled_from([d for d in range(1, n + 1) if n % d == 0]))
        cols = n // rows
        if self.draw(st.booleans()):
            return self.build("vector.flat_transpose", [x], [vt([n], elem)], rows=rows,
                              columns=cols)
        rc = self.draw(st.sampled_from([1, 2, 3]))
        y = self.same_or_new(vt([cols * rc], elem))
        return self.build("vector.matrix_multiply", [x, y], [vt([rows * rc], elem)],
                          lhs_rows=rows, lhs_columns=cols, rhs_columns=rc)

    def step_bitcast(self) -> Value | None:
        if self.draw(st.booleans()):
            n = self.draw(st.sampled_from(DIMS))
            s = self.build("vector.step", [], [vector_type([n], IndexType())])
            if s is None:
                return None
            return self.build("arith.index_cast", [s], [vt([n], self.draw(st.sampled_from(
                ["i8", "i32", "i64"])))])
        if self.draw(st.booleans()):
            return self.narrow_bitcast()
        x = self.pick_vector(lambda t: t.rank >= 1 and elem_name(t) in ("f32", "i32", "f64",
                                                                          "i64", "f16"))
        if x is None:
            return None
        shape, elem = list(x.type.shape), elem_name(x.type)
        table = {"f32": ("i32", 1), "i32": ("f32", 1), "f64": ("i32", 2), "i64": ("f64", 1),
                 "f16": ("i8", 2)}
        dst, ratio = table[elem]
        return self.build("vector.bitcast", [x], [vt(shape[:-1] + [shape[-1] * ratio], dst)])

    def narrow_bitcast(self) -> Value | None:
        """Integers truncated to an odd width, bitcast to another width (one that need not
        divide it: ``vector<5xi8>`` to ``vector<8xi5>``), widened back to i32: the narrow-type
        bit packing of MLIR's ``rewrite-narrow-types.mlir``."""
        x = self.pick_vector(lambda t: t.rank >= 1 and elem_name(t) in ("i8", "i32", "i64"))
        if x is None:
            return None
        shape, width = list(x.type.shape), int(elem_name(x.type)[1:])
        narrow = self.draw(st.sampled_from([w for w in NARROW_WIDTHS if w < width]))
        bits = shape[-1] * narrow
        to = self.draw(st.sampled_from([w for w in (1, *NARROW_WIDTHS, 8, 16, 32)
                                        if bits % w == 0 and w != narrow]))
        t = self.build("arith.trunci", [x], [vt(shape, f"i{narrow}")])
        b = None if t is None else self.build(
            "vector.bitcast", [t], [vt(shape[:-1] + [bits // to], f"i{to}")])
        if b is None or to == 32:
            return b
        ext = "arith.extsi" if self.draw(st.booleans()) else "arith.extui"
        return self.build(ext, [b], [vt(shape[:-1] + [bits // to], "i32")])

    def reduction(self) -> Value | None:
        x = self.pick_vector(lambda t: t.rank >= 1)
        if x is None:
            return None
        kinds = FLOAT_KINDS if is_float(x.type) else INT_KINDS
        kind = self.draw(st.sampled_from(kinds))
        elem = elem_name(x.type)
        way = self.draw(st.integers(0, 2))
        if way == 0 and x.type.rank == 1:
            acc = self.same_or_new(x.type.element) if self.draw(st.booleans()) else None
            return self.build("vector.reduction", [x, acc], [x.type.element], kind=kind)
        if way == 1:
            dim = self.draw(st.integers(0, x.type.rank - 1))
            init = vt([d for i, d in enumerate(x.type.shape) if i != dim], elem)
            return self.build("vector.scan", [x, self.same_or_new(init)], [x.type, init],
                              kind=kind, reduction_dim=dim, inclusive=self.draw(st.booleans()))
        dims = sorted(self.draw(st.sets(st.integers(0, x.type.rank - 1), min_size=1)))
        rest = [d for i, d in enumerate(x.type.shape) if i not in dims]
        rt = vt(rest, elem) if rest else x.type.element
        return self.build("vector.multi_reduction", [x, self.same_or_new(rt)], [rt], kind=kind,
                          reduction_dims=dims)

    def contract(self) -> Value | None:
        x = self.pick_vector(lambda t: t.rank in (1, 2) and elem_name(t) != "i1")
        if x is None:
            return None
        elem = elem_name(x.type)
        kinds = FLOAT_KINDS if is_float(x.type) else INT_KINDS
        kind = self.draw(st.sampled_from(kinds[:4]))
        if x.type.rank == 2 and self.draw(st.booleans()):
            return self._matmul(x, kind)
        if x.type.rank == 1:  # outer product, or dot product as a contract
            if self.draw(st.booleans()):
                n = self.draw(st.sampled_from(CONTRACT_DIMS))
                if not _room([x.type.shape[0], n]):
                    return None
                y = self.same_or_new(vt([n], elem))
                rt = vt([x.type.shape[0], n], elem)
                acc = self.same_or_new(rt) if self.draw(st.booleans()) else None
                return self.build("vector.outerproduct", [x, y, acc], [rt], kind=kind)
            y = self.same_or_new(x.type)
            acc = self.same_or_new(x.type.element)
            maps = [affine_map("(k) -> (k)"), affine_map("(k) -> (k)"), affine_map("(k) -> ()")]
            return self.build("vector.contract", [x, y, acc], [acc.type], indexing_maps=maps,
                              iterator_types=["reduction"], kind=kind)
        return None

    def _matmul(self, x: Value, kind: str) -> Value | None:
        """``vector.contract`` of ``x : MxK`` with ``KxN`` (or ``NxK``, transposed) into MxN."""
        elem = elem_name(x.type)
        (m, k), n = x.type.shape, self.draw(st.sampled_from(CONTRACT_DIMS))
        if not _room([k, n], [m, n]):
            return None
        trans = self.draw(st.booleans())
        y = self.same_or_new(vt([n, k] if trans else [k, n], elem))
        acc = self.same_or_new(vt([m, n], elem))
        rhs_map = "(i, j, k) -> (j, k)" if trans else "(i, j, k) -> (k, j)"
        maps = [affine_map("(i, j, k) -> (i, k)"), affine_map(rhs_map),
                affine_map("(i, j, k) -> (i, j)")]
        return self.build("vector.contract", [x, y, acc], [acc.type], indexing_maps=maps,
                          iterator_types=["parallel", "parallel", "reduction"], kind=kind)

    def kernel(self) -> Value | None:
        """What the fast lowerings are for: a float matmul (``add``: matrix_multiply, blocked
        outer products, pair broadcasts) or a 2-D transpose (the block shuffles)."""
        x = self.pick_vector(lambda t: t.rank == 2 and is_float(t))
        if x is None:
            return None
        if self.draw(st.booleans()):
            return self._matmul(x, "add")
        shape = [x.type.shape[1], x.type.shape[0]]
        return self.build("vector.transpose", [x], [vt(shape, elem_name(x.type))],
                          permutation=[1, 0])

    def masked(self) -> Value | None:
        """``vector.mask`` around a reduction (the mask has the source's shape)."""
        x = self.pick_vector(lambda t: t.rank >= 1)
        if x is None:
            return None
        kinds = FLOAT_KINDS if is_float(x.type) else INT_KINDS
        kind = self.draw(st.sampled_from(kinds))
        mask = self.mask_for(tuple(x.type.shape))
        if x.type.rank == 1 and self.draw(st.booleans()):
            rt: Type = x.type.element
            acc = self.same_or_new(rt)
            with self.b.region() as (body, _):
                r = self.b.op("vector.reduction", [x, acc], [rt], kind=kind)
                self.b.op("vector.yield", [r])
        else:
            dims = sorted(self.draw(st.sets(st.integers(0, x.type.rank - 1), min_size=1)))
            rest = [d for i, d in enumerate(x.type.shape) if i not in dims]
            rt = vt(rest, elem_name(x.type)) if rest else x.type.element
            acc = self.same_or_new(rt)
            with self.b.region() as (body, _):
                r = self.b.op("vector.multi_reduction", [x, acc], [rt], kind=kind,
                              reduction_dims=dims)
                self.b.op("vector.yield", [r])
        return self.build("vector.mask", [mask, None], [rt], regions=[body])

    def print_value(self) -> Value | None:
        """``vector.print`` of a value: its output, in order with the memory effects."""
        x = self.pick(lambda t: isinstance(t, (VectorType, FloatType, IntegerType)))
        if x is not None:
            self.build("vector.print", [x], [])
        return None

    # -- memory ---------------------------------------------------------------------------------
    def memory(self) -> Value | None:
        if not self.memrefs:
            return None
        m = self.draw(st.sampled_from(self.memrefs))
        mt: MemRefType = m.type
        elem, shape = elem_name(mt), mt.shape
        way = self.draw(st.sampled_from(
            ["load", "store", "masked", "gather", "expand", "transfer_read", "transfer_write",
             "scalar"]))
        n_last = self.draw(st.integers(1, shape[-1]))
        base = [self.draw(st.integers(0, d - 1)) for d in shape[:-1]]
        base.append(self.draw(st.integers(0, shape[-1] - n_last)))
        idx = [self.index(i) for i in base]
        v1 = vt([n_last], elem)
        if way == "load":
            return self.build("vector.load", [m, idx], [v1])
        if way == "store":
            self.build("vector.store", [self.same_or_new(v1), m, idx], [])
            return None
        if way == "masked":
            mask = self.mask_for((n_last,))
            if self.draw(st.booleans()):
                return self.build("vector.maskedload", [m, idx, mask, self.same_or_new(v1)], [v1])
            self.build("vector.maskedstore", [m, idx, mask, self.same_or_new(v1)], [])
            return None
        if way == "expand":
            mask = self.mask_for((n_last,))
            if self.draw(st.booleans()):
                return self.build("vector.expandload", [m, idx, mask, self.same_or_new(v1)], [v1])
            self.build("vector.compressstore", [m, idx, mask, self.same_or_new(v1)], [])
            return None
        if way == "gather":
            total = math.prod(shape)
            zero = [self.index(0) for _ in shape]
            n = self.draw(st.integers(1, min(total, 8)))
            offsets = self.draw(st.lists(st.integers(0, total - 1), min_size=n, max_size=n,
                                         unique=True))
            iv = self.b.constant(offsets, vt([n], "i32"))
            mask = self.mask_for((n,))
            vn = vt([n], elem)
            if self.draw(st.booleans()):
                return self.build("vector.gather", [m, zero, iv, mask, self.same_or_new(vn)],
                                  [vn])
            self.build("vector.scatter", [m, zero, iv, mask, self.same_or_new(vn)], [])
            return None
        if way == "scalar":
            if self.draw(st.booleans()):
                return self.build("memref.load", [m, idx], [mt.element])
            self.build("memref.store", [self.same_or_new(mt.element), m, idx], [])
            return None
        return self.transfer(m, way == "transfer_read")

    def transfer_op(self) -> Value | None:
        """A transfer read or write on its own (as ``memory`` draws them, but more often: each
        transfer strategy applies to a narrow form of them)."""
        if not self.memrefs:
            return None
        return self.transfer(self.draw(st.sampled_from(self.memrefs)), self.draw(st.booleans()))

    def transfer(self, m: Value, read: bool) -> Value | None:
        """A transfer with a permutation map (minor identity, transposed, broadcast dims),
        positions anywhere (out of bounds is defined where ``in_bounds`` is false), a
        padding value and maybe a mask."""
        mt: MemRefType = m.type
        rank, elem = mt.rank, elem_name(mt)
        vrank = self.draw(st.integers(1, min(2, rank)))
        dims = [f"d{i}" for i in range(rank)]
        results = list(self.draw(st.permutations(dims))[:vrank])
        if read and self.draw(st.integers(0, 3)) == 0:  # a broadcast dim
            results.insert(self.draw(st.integers(0, vrank)), "0")
        pmap = affine_map(f"({', '.join(dims)}) -> ({', '.join(results)})")
        shape = [self.draw(st.sampled_from([1, 2, 3, 4, 5])) for _ in results]
        in_bounds = []
        pos = [self.draw(st.integers(0, d - 1)) for d in mt.shape]
        for r, n in zip(results, shape):
            if r == "0":
                in_bounds.append(True)
                continue
            d = int(r[1:])
            fits = pos[d] + n <= mt.shape[d]
            in_bounds.append(fits and self.draw(st.booleans()))
        idx = [self.index(p) for p in pos]
        v = vt(shape, elem)
        mask = None
        if self.draw(st.booleans()) and "0" not in results:
            # the mask is indexed in memref-dim order (as MLIR does): the unpermuted shape
            order = sorted(range(vrank), key=lambda i: int(results[i][1:]))
            mask = self.mask_for(tuple(shape[i] for i in order))
        if read:
            pad = self.same_or_new(mt.element)
            return self.build("vector.transfer_read", [m, idx, pad, mask], [v],
                              permutation_map=pmap, in_bounds=in_bounds)
        self.build("vector.transfer_write", [self.same_or_new(v), m, idx, mask], [],
                   permutation_map=pmap, in_bounds=in_bounds)
        return None

    # -- loops ----------------------------------------------------------------------------------
    def loop(self) -> Value | None:
        """``scf.for`` carrying one or two vectors through a few element-wise steps."""
        carried = [v for v in (self.pick_vector(), self.pick_vector()) if v is not None]
        if not carried or len(self.b.blocks) > 2:
            return None
        carried = list(dict.fromkeys(carried))
        trip = self.draw(st.integers(0, 3))
        lb, ub, step = self.index(0), self.index(trip), self.index(1)
        types = [v.type for v in carried]
        outer = self.values
        with self.b.region([IndexType(), *types]) as (body, args):
            self.values = outer + list(args[1:])
            for _ in range(self.draw(st.integers(1, 3))):
                self.draw(st.sampled_from(LOOP_BODY))(self)
            yields = [self.pick(lambda t, t0=t: t == t0) for t in types]
            self.b.op("scf.yield", [yields])
        self.values = outer
        return self.build("scf.for", [lb, ub, step, carried], types, regions=[body])


# Weights by repetition: element-wise and data movement most, loops least.
OPS: tuple[Callable[[_Gen], Value | None], ...] = (
    _Gen.binary, _Gen.binary, _Gen.binary, _Gen.unary, _Gen.unary, _Gen.fma,
    _Gen.compare_select, _Gen.cast, _Gen.broadcast, _Gen.transpose, _Gen.shape_cast,
    _Gen.extract, _Gen.insert, _Gen.element, _Gen.strided, _Gen.shuffle,
    _Gen.splat_from_elements, _Gen.interleave, _Gen.matrix, _Gen.step_bitcast, _Gen.reduction,
    _Gen.reduction, _Gen.contract, _Gen.contract, _Gen.memory, _Gen.memory, _Gen.memory,
    _Gen.masked, _Gen.print_value, _Gen.loop, _Gen.kernel, _Gen.kernel, _Gen.transfer_op,
)  # fmt: skip
LOOP_BODY = (
    _Gen.binary, _Gen.unary, _Gen.fma, _Gen.transpose, _Gen.broadcast, _Gen.memory,
    _Gen.print_value,
)  # fmt: skip


@st.composite
def programs(draw: st.DrawFn, max_ops: int = 10, memory: bool = True) -> Program:
    """A verified function ``@f`` returning (up to four of) the values nothing else uses."""
    # 1 in 4 wide, mostly f32 (the kernels' element type)
    wide = st.tuples(wide_shapes(), st.sampled_from(("f32", "f32", "f32", "f64", "f16", "i32")))
    small = st.tuples(shapes(), st.sampled_from(ELEMS))
    vectors = draw(st.lists(st.one_of(small, small, small, wide), min_size=1, max_size=3))
    mems = draw(st.lists(st.tuples(shapes(1, 2), st.sampled_from(ELEMS)), max_size=2)) \
        if memory else []  # fmt: skip
    arg_types: list[Type] = [vt(s, e) for s, e in vectors]
    arg_types += [MemRefType(s, vector_type([], e).element) for s, e in mems]
    b = Builder()
    with b.function("f", arg_types) as (_, args):
        g = _Gen(draw, b)
        g.values = [a for a in args if isinstance(a.type, VectorType)]
        g.memrefs = [a for a in args if isinstance(a.type, MemRefType)]
        for _ in range(draw(st.integers(1, max_ops))):
            draw(st.sampled_from(OPS))(g)
        # Return the values nothing else uses (the last few), so that little is dead code.
        used = {id(x) for op in b.blocks[-1].ops for x in op.operands}
        computed = [v for v in g.values if v not in args] or g.values
        leaves = [v for v in computed if id(v) not in used] or computed[-1:]
        b.ret(*leaves[-4:])
    return Program(b.module(), arg_types)


__all__ = ["ELEMS", "Program", "programs", "shapes", "wide_shapes"]
