"""Type rules of the vector ops, as seed 000 states them (and MLIR 22 enforces them).

Each function takes the op and raises ``fail(op, ...)`` with MLIR's phrasing where it has one.
Result-type inference for the ops whose format leaves result types implicit lives here too.
"""

from __future__ import annotations

from typing import Any, Callable

from frontend.affine import AffineMap
from frontend.attributes import AffineMapAttr, EnumAttr, IntegerAttr
from frontend.ir import Operation
from frontend.ops import vector_shapes
from frontend.ops.common import fail, ints, is_permutation
from frontend.ops.spec import DYNAMIC_INDEX
from frontend.types import (
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    Type,
    VectorType,
    bit_width,
)

INT_KINDS = {"add", "mul", "minui", "minsi", "maxui", "maxsi", "and", "or", "xor"}
FLOAT_KINDS = {"add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"}


def _t(op: Operation, name: str) -> Any:
    v = op.operand(name)
    return None if v is None else v.type


def _elem(t: Type) -> Type:
    return t.element if isinstance(t, VectorType) else t


def check_kind(op: Operation, kind: str, elem: Type) -> None:
    allowed = FLOAT_KINDS if isinstance(elem, FloatType) else INT_KINDS
    if kind not in allowed:
        raise fail(op, f"unsupported reduction type '{elem}' for kind '{kind}'")


def _kind(op: Operation) -> str:
    k = op.attributes.get("kind")
    return k.value if isinstance(k, EnumAttr) else "add"


# -- shape ops --------------------------------------------------------------------------------
def bitcast(op: Operation) -> None:
    src, dst = _t(op, "source"), op.results[0].type
    if src.rank != dst.rank:
        raise fail(op, "op source rank must equal result rank")
    if src.rank == 0:
        if bit_width(src.element) != bit_width(dst.element):
            raise fail(op, "source/result bitwidth of the 0-D vector element types must be equal")
        return
    if src.shape[:-1] != dst.shape[:-1]:
        raise fail(op, "dimension size mismatch: all but the minor dim must be equal")
    if src.shape[-1] * bit_width(src.element) != dst.shape[-1] * bit_width(dst.element):
        raise fail(op, "source/result bitwidth of the minor 1-D vectors must be equal")


def broadcast(op: Operation) -> None:
    src, dst = _t(op, "source"), op.results[0].type
    if not isinstance(src, VectorType):
        if src != dst.element:
            raise fail(op, f"source type {src} is not the result element type {dst.element}")
        return
    if src.element != dst.element:
        raise fail(op, "source and result element types must match")
    if src.rank > dst.rank:
        raise fail(op, "source rank higher than destination rank")
    lead = dst.rank - src.rank
    for i, (s, sc) in enumerate(zip(src.shape, src.scalable)):
        d, dsc = dst.shape[lead + i], dst.scalable[lead + i]
        if s == 1 and not sc:
            continue
        if s != d or sc != dsc:
            raise fail(op, f"dimension mismatch ({s} vs. {d})")


def shape_cast(op: Operation) -> None:
    src, dst = _t(op, "source"), op.results[0].type
    if src.element != dst.element:
        raise fail(op, "has different source and result element types")
    if src.num_elements() != dst.num_elements():
        raise fail(op, f"has different number of elements: {src} vs {dst}")
    if sum(src.scalable) != sum(dst.scalable):
        raise fail(op, "different number of scalable dims at source and result")


def transpose(op: Operation) -> None:
    src, dst = _t(op, "vector"), op.results[0].type
    perm = ints(op.attributes["permutation"])
    if not is_permutation(perm, src.rank):
        raise fail(op, f"transposition length mismatch or not a permutation: {list(perm)}")
    want = VectorType(tuple(src.shape[p] for p in perm), src.element,
                      tuple(src.scalable[p] for p in perm))
    if dst != want:
        raise fail(op, f"result type {dst} does not match the transposed source type {want}")


def _positions(op: Operation, src: VectorType) -> tuple[int, ...]:
    pos = ints(op.attributes["static_position"])
    if len(pos) > src.rank:
        raise fail(op, "expected position attribute of rank no greater than vector rank")
    n_dyn = sum(p == DYNAMIC_INDEX for p in pos)
    if n_dyn != len(op.operand_groups()["dynamic_position"]):
        raise fail(op, "number of dynamic positions does not match the position list")
    for i, p in enumerate(pos):
        if p != DYNAMIC_INDEX and p != -1 and not 0 <= p < src.shape[i]:
            raise fail(op, f"expected position attribute #{i + 1} to be a non-negative integer "
                           f"smaller than the corresponding vector dimension or poison (-1)")
    return pos


def _sub_type(src: VectorType, k: int) -> Type:
    if k == src.rank:
        return src.element
    return VectorType(src.shape[k:], src.element, src.scalable[k:])


def extract(op: Operation) -> None:
    src = _t(op, "vector")
    pos = _positions(op, src)
    want = _sub_type(src, len(pos))
    got = op.results[0].type
    if got != want:  # a full-rank extract yields the scalar, never a 0-D vector (MLIR 19, 22)
        raise fail(op, f"result type {got} does not match the extracted type {want}")


def _result_is_dest(op: Operation) -> None:
    """An insert's result has its destination's type (MLIR's AllTypesMatch<["dest",
    "result"]>): text input gets it by inference, an op built in code must state it."""
    if op.results[0].type != op.operand("dest").type:
        raise fail(op, "failed to verify that all of {dest, result} have same type")


def insert(op: Operation) -> None:
    _result_is_dest(op)
    dst = _t(op, "dest")
    pos = _positions(op, dst)
    want = _sub_type(dst, len(pos))
    src = _t(op, "source")
    if src == VectorType((), want):
        return  # a 0-D vector at a full-rank position: accepted by MLIR 19, not by MLIR 22
    if src != want:
        raise fail(op, f"expected source type {want} for this position, found {_t(op, 'source')}")


def element_position(op: Operation) -> None:
    v = _t(op, "dest") if op.name == "vector.insertelement" else _t(op, "vector")
    has_pos = op.operand("position") is not None
    if v.rank == 0 and has_pos:
        raise fail(op, "expected position to be empty with 0-D vector")
    if v.rank > 1:
        raise fail(op, "unexpected >1 vector rank")
    if v.rank == 1 and not has_pos:
        raise fail(op, "expected position for 1-D vector")
    if op.name == "vector.insertelement" and _t(op, "source") != v.element:
        raise fail(op, "source type must be the vector element type")


def extract_strided_slice(op: Operation) -> None:
    src, dst = _t(op, "vector"), op.results[0].type
    attrs = op.attributes
    offsets, sizes = ints(attrs.get("offsets")), ints(attrs.get("sizes"))
    strides = ints(attrs.get("strides"))
    k = len(offsets)
    if not (len(sizes) == len(strides) == k) or k > src.rank:
        raise fail(op, "expected offsets, sizes and strides of equal length, at most the rank")
    for i in range(k):
        if strides[i] != 1:
            raise fail(op, "expected strides to be confined to [1, 2)")
        if not (0 <= offsets[i] and sizes[i] >= 1 and offsets[i] + sizes[i] <= src.shape[i]):
            raise fail(op, f"expected offset + size of dim {i} to be within the source "
                           f"dimension {src.shape[i]}")
    for i in range(k):  # a scalable dim is taken whole
        if src.scalable[i] and sizes[i] != src.shape[i]:
            raise fail(op, f"expected size at idx={i} to match the corresponding base size "
                           f"from the input vector ({sizes[i]} vs {src.shape[i]})")
    if dst.shape != sizes + src.shape[k:] or dst.element != src.element:  # the type made below
        want = VectorType(sizes + src.shape[k:], src.element, src.scalable)
        raise fail(op, f"expected result type {want}, found {dst}")


def insert_strided_slice(op: Operation) -> None:
    _result_is_dest(op)
    src, dst = _t(op, "source"), _t(op, "dest")
    offsets, strides = ints(op.attributes["offsets"]), ints(op.attributes["strides"])
    if src.element != dst.element:
        raise fail(op, "source and destination element types must match")
    if src.rank <= dst.rank and src.scalable != dst.scalable[dst.rank - src.rank :]:
        raise fail(op, "mismatching scalable flags between source and destination")
    if len(offsets) != dst.rank:
        raise fail(op, "expected offsets of same size as destination vector rank")
    if len(strides) != src.rank:
        raise fail(op, "expected strides of same size as source vector rank")
    if src.rank > dst.rank:
        raise fail(op, "expected source rank to be no greater than destination rank")
    if any(s != 1 for s in strides):
        raise fail(op, "expected strides to be confined to [1, 2)")
    lead = dst.rank - src.rank
    for i, o in enumerate(offsets):
        size = src.shape[i - lead] if i >= lead else 1
        if not (0 <= o and o + size <= dst.shape[i]):
            raise fail(op, f"expected offsets + source shape to fit in dim {i} of the destination")
    for i in range(src.rank):  # a scalable dim is inserted whole
        if dst.scalable[lead + i] and src.shape[i] != dst.shape[lead + i]:
            raise fail(op, f"expected size at idx={i} to match the corresponding base size "
                           f"from the input vector ({src.shape[i]} vs {dst.shape[lead + i]})")


def interleave(op: Operation) -> None:
    a, b, r = _t(op, "lhs"), _t(op, "rhs"), op.results[0].type
    if a != b:
        raise fail(op, "lhs and rhs must have the same type")
    shape = a.shape[:-1] + (2 * a.shape[-1],) if a.rank else (2,)
    scal = a.scalable if a.rank else (False,)
    if r != VectorType(shape, a.element, scal):
        raise fail(op, f"expected result type {VectorType(shape, a.element, scal)}, found {r}")
def shuffle(op: Operation) -> None:
    v1, v2 = op.operands[0].type, op.operands[1].type
    if v1.rank != v2.rank or v1.element != v2.element or v1.shape[1:] != v2.shape[1:]:
        raise fail(op, "dimension mismatch: operands need the same rank, element type and "
                       "trailing dimensions")
    total = (v1.shape[0] if v1.rank else 1) + (v2.shape[0] if v2.rank else 1)
    for m in ints(op.attributes["mask"]):
        if not (m == -1 or 0 <= m < total):
            raise fail(op, f"mask index #{m} out of range")
    if not ints(op.attributes["mask"]):
        raise fail(op, "invalid mask length")
    # the result (MLIR's ShuffleOp::verify): rank, trailing dims, element and mask length
    r = op.results[0].type
    if not isinstance(r, VectorType) or r.rank != max(1, v1.rank):
        raise fail(op, "rank mismatch")
    if r.shape[1:] != v1.shape[1:] or r.element != v1.element:
        raise fail(op, "dimension mismatch")
    if r.shape[0] != len(ints(op.attributes["mask"])):
        raise fail(op, "mask length mismatch")


def from_elements(op: Operation) -> None:
    r = op.results[0].type
    if len(op.operands) != r.num_elements():
        raise fail(op, f"expected {r.num_elements()} operands, found {len(op.operands)}")
    for v in op.operands:
        if v.type != r.element:
            raise fail(op, f"operand type {v.type} is not the result element type {r.element}")


def _signless(t: Type) -> bool:
    """Signless integers, index and floats (MLIR's operand constraints of most vector ops)."""
    return not (isinstance(t, IntegerType) and t.signedness != "signless")


def _unsigned(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.signedness == "unsigned"


def splat(op: Operation) -> None:
    if not _signless(_t(op, "input")):
        raise fail(op, f"operand #0 must be integer/index/float type, but got '{_t(op, 'input')}'")
    if _t(op, "input") != op.results[0].type.element:
        raise fail(op, "operand type must be the result element type")


def deinterleave(op: Operation) -> None:
    from frontend.ops.vector_shapes import deinterleave as infer

    src = _t(op, "source")
    if src.rank == 0 or src.shape[-1] % 2:
        raise fail(op, "failed to verify that the trailing dimension of the source vector has an "
                       "even number of elements")
    want = infer(op)
    if [r.type for r in op.results] != want:
        raise fail(op, f"failed to verify that the results are {want[0]} (half the trailing "
                       "dimension of the source)")


def step(op: Operation) -> None:
    r = op.results[0].type
    if r.rank != 1 or not isinstance(r.element, IndexType):
        raise fail(op, "result must be a 1-D vector of index")


def all_same_type(op: Operation) -> None:
    results = op.results
    if results:  # one type object: no hashing needed
        first = results[0].type
        if all(r.type is first for r in results) and all(v.type is first for v in op.operands):
            return
    types = {v.type for v in op.operands} | {r.type for r in op.results}
    if len(types) != 1:
        raise fail(op, "requires all operands and results to have the same type")


def flat_transpose(op: Operation) -> None:
    rows, cols = op.attributes["rows"].value, op.attributes["columns"].value
    src, dst = _t(op, "matrix"), op.results[0].type
    if _unsigned(src.element):
        raise fail(op, f"operand #0 must be fixed-length vector of signless integer or "
                       f"floating-point values, but got '{src}'")
    if src.rank != 1 or src.num_elements() != rows * cols or dst != src:
        raise fail(op, f"expected 1-D vectors of {rows * cols} elements of the same type")


def matrix_multiply(op: Operation) -> None:
    r = op.attributes["lhs_rows"].value
    k = op.attributes["lhs_columns"].value
    c = op.attributes["rhs_columns"].value
    lhs, rhs, res = _t(op, "lhs"), _t(op, "rhs"), op.results[0].type
    if _unsigned(lhs.element):
        raise fail(op, f"operand #0 must be fixed-length vector of signless integer or "
                       f"floating-point values, but got '{lhs}'")
    for t, n, what in ((lhs, r * k, "lhs"), (rhs, k * c, "rhs"), (res, r * c, "result")):
        if t.rank != 1 or t.num_elements() != n:
            raise fail(op, f"{what} must be a 1-D vector of {n} elements")


def scalable_extract(op: Operation) -> None:
    src, res = _t(op, "source"), op.results[0].type
    pos = op.attributes["pos"].value
    if src.rank != 1 or res.rank != 1 or not src.is_scalable or src.element != res.element:
        raise fail(op, "expected a 1-D scalable source and a 1-D result of its element type")
    if pos % res.shape[0]:
        raise fail(op, "position must be a multiple of the result's minimum length")


def scalable_insert(op: Operation) -> None:
    src, dst = _t(op, "source"), _t(op, "dest")
    pos = op.attributes["pos"].value
    if src.rank != 1 or dst.rank != 1 or not dst.is_scalable or src.element != dst.element:
        raise fail(op, "expected 1-D vectors with a scalable destination and equal elements")
    if pos % src.shape[0]:
        raise fail(op, "position must be a multiple of the source's minimum length")


def type_cast(op: Operation) -> None:
    src, dst = _t(op, "memref"), op.results[0].type
    if not src.has_static_shape:
        raise fail(op, "source must be a statically shaped memref")
    want = VectorType(tuple(src.shape), src.element)  # type: ignore[arg-type]
    if dst.shape != () or dst.element != want:
        raise fail(op, f"expects result type memref<{want}>")


# -- reductions and contractions ----------------------------------------------------------------
def reduction(op: Operation) -> None:
    v = _t(op, "vector")
    if v.rank > 1:  # MLIR 22 reduces 0-D and 1-D vectors
        raise fail(op, f"unsupported reduction rank: {v.rank}")
    check_kind(op, _kind(op), v.element)
    dest = op.results[0].type
    if dest != v.element:
        raise fail(op, f"result type {dest} must be the element type {v.element}")
    acc = _t(op, "acc")
    if acc is not None and acc != dest:
        raise fail(op, "accumulator type must match the result type")


def multi_reduction(op: Operation) -> None:
    src, acc, dest = _t(op, "source"), _t(op, "acc"), op.results[0].type
    dims = ints(op.attributes["reduction_dims"])
    check_kind(op, _kind(op), src.element)
    if len(set(dims)) != len(dims) or any(not 0 <= d < src.rank for d in dims):
        raise fail(op, "reduction dimensions must be distinct and within the source rank")
    kept = [i for i in range(src.rank) if i not in dims]
    want: Type = (
        VectorType(tuple(src.shape[i] for i in kept), src.element,
                   tuple(src.scalable[i] for i in kept))
        if kept else src.element
    )
    if dest != want:
        raise fail(op, f"destination type {dest} is incompatible with source type {src}")
    if acc != dest:
        raise fail(op, "accumulator type must match the destination type")


def scan(op: Operation) -> None:
    src, init = _t(op, "source"), _t(op, "initial_value")
    dim = op.attributes["reduction_dim"].value
    check_kind(op, _kind(op), src.element)
    if not 0 <= dim < src.rank:
        raise fail(op, f"reduction dimension {dim} has to be less than {src.rank}")
    want_shape = src.shape[:dim] + src.shape[dim + 1 :]
    if not isinstance(init, VectorType) or init.shape != want_shape:
        raise fail(op, "incompatible input/initial value shapes")

def outerproduct(op: Operation) -> None:
    lhs, rhs, res = _t(op, "lhs"), _t(op, "rhs"), op.results[0].type
    if lhs.rank != 1:
        raise fail(op, "expected 1-d vector for operand #1")
    if isinstance(rhs, VectorType):
        if rhs.rank != 1:
            raise fail(op, "expected 1-d vector for operand #2")
        if rhs.element != lhs.element:
            raise fail(op, "operand element types must match")
        if lhs.scalable[0] and not rhs.scalable[0]:
            raise fail(op, "expected either both or only #2 operand dim to be scalable")
    elif rhs != lhs.element:
        raise fail(op, "expected operand #2 of same type as the lhs element type")
    acc = _t(op, "acc")
    if acc is not None and acc != res:
        raise fail(op, f"expected operand #3 of same type as result type {res}")
    from frontend.ops.vector_shapes import outerproduct as implied

    (want,) = implied(op)  # a scalable lhs makes dim 0 of the result (and acc) scalable
    for what, t in (("operand #3", acc), ("result", res)):
        if t is not None and (t.shape != want.shape or (want.scalable[0] and not t.scalable[0])):
            raise fail(op, f"expected {what} of type {want}, got {t}")
    check_kind(op, _kind(op), lhs.element)


def contract(op: Operation) -> None:
    lhs, rhs, acc = _t(op, "lhs"), _t(op, "rhs"), _t(op, "acc")
    res = op.results[0].type
    if not all(_signless(_elem(t)) for t in (lhs, rhs, acc)):
        raise fail(op, "only supports signless integer types")
    maps = [m.map for m in op.attributes["indexing_maps"].values]
    iters = [v.value for v in op.attributes["iterator_types"].values]
    if len(maps) != 3:
        raise fail(op, "expected an indexing map for each vector operand")
    n = len(iters)
    for i, (m, t) in enumerate(zip(maps, (lhs, rhs, acc))):
        rank = t.rank if isinstance(t, VectorType) else 0
        if m.num_dims != n or m.num_symbols:
            raise fail(op, f"expected indexing map {i} to have {n} number of inputs")
        if len(m.results) != rank:
            raise fail(op, f"expected indexing map {i} to have {rank} number of outputs")
        if not m.is_projected_permutation():
            raise fail(op, f"expected indexing map {i} to be a projected permutation of its inputs")
    sizes: dict[int, int] = {}
    for m, t in zip(maps, (lhs, rhs, acc)):
        for e, s in zip(m.results, t.shape if isinstance(t, VectorType) else ()):
            d = e.position  # type: ignore[attr-defined]
            if sizes.setdefault(d, s) != s:
                raise fail(op, f"invalid contraction: dimension d{d} has sizes {sizes[d]} and {s}")
    for d in range(n):
        if d not in sizes:
            raise fail(op, f"iteration dimension d{d} is not used by any operand")
    lhs_rhs = {e.position for m in maps[:2] for e in m.results}  # type: ignore[attr-defined]
    if any(d not in lhs_rhs for d in range(n)):  # a dim of the accumulator alone
        raise fail(op, "expected all dimensions to be either a LHS or a RHS dimension")
    acc_dims = {e.position for e in maps[2].results}  # type: ignore[attr-defined]
    for d, it in enumerate(iters):
        if it == "reduction" and d in acc_dims:
            raise fail(op, "invalid accumulator/result vector shape: it indexes a reduction dim")
        if it == "parallel" and d not in acc_dims:
            raise fail(op, "invalid accumulator/result vector shape: missing a parallel dim")
    if acc != res:
        raise fail(op, "accumulator and result types must match")
    if _elem(lhs) != _elem(rhs) and not isinstance(_elem(acc), (IntegerType, FloatType)):
        raise fail(op, "lhs and rhs element types must match")
    check_kind(op, _kind(op), _elem(acc))


# -- masks and memory -----------------------------------------------------------------------------
def constant_mask(op: Operation) -> None:
    r = op.results[0].type
    sizes = ints(op.attributes["mask_dim_sizes"])
    if r.rank == 0:  # a 0-D mask: one size, 0 (unset) or 1 (set)
        if len(sizes) != 1:
            raise fail(op, "array attr must have length 1 for 0-D vectors")
        if sizes[0] not in (0, 1):
            raise fail(op, "mask dim size must be either 0 or 1 for 0-D vectors")
        return
    if len(sizes) != r.rank:
        raise fail(op, "must specify array attr of size equal vector result rank")
    for s, d, sc in zip(sizes, r.shape, r.scalable):
        if not 0 <= s <= d:
            raise fail(op, "array attr of size out of bounds of vector result dimension size")
        if sc and s not in (0, d):
            raise fail(op, "only supports 'none set' or 'all set' scalable dimensions")
    if any(s == 0 for s in sizes) and not all(s == 0 for s in sizes):
        raise fail(op, "expected all mask dim sizes to be zeros, as a result of conjunction with "
                       "zero mask dim")


def create_mask(op: Operation) -> None:
    if op.results[0].type.rank == 0:
        if len(op.operands) != 1:
            raise fail(op, "must specify exactly one operand for 0-D create_mask")
        return
    if len(op.operands) != op.results[0].type.rank:
        raise fail(op, "must specify an operand for each result vector dimension")


def _memref_indices(op: Operation, base: Any) -> None:
    n = len(op.operand_groups()["indices"])
    if n != base.rank:
        raise fail(op, f"requires {base.rank} indices")


def _unit_minor_stride(t: MemRefType) -> bool:
    """The innermost stride is statically 1 (identity or strided layout)."""
    layout = t.layout
    if layout is None:
        return True
    strides = getattr(layout, "strides", None)
    if strides is not None:
        return strides[-1] == 1
    m = getattr(layout, "map", None)  # an affine-map layout: identity-like only
    return m is not None and m.result_positions() == tuple(range(t.rank))


def _alignment(op: Operation) -> None:
    """MLIR 22's optional ``alignment`` of the vector memory ops (the bytes the access may
    assume): a positive power of two, an i64. It is not part of the op table's attributes
    (the e-graph's terms do not carry it), so the check is here."""
    a = op.attributes.get("alignment")
    if a is None:
        return
    value = getattr(a, "value", None)
    if not (isinstance(a, IntegerAttr) and a.type == IntegerType(64) and isinstance(value, int)
            and value > 0 and value & (value - 1) == 0):
        raise fail(op, "attribute 'alignment' failed to satisfy constraint: 64-bit signless "
                       "integer attribute whose value is positive and whose value is a power "
                       "of two > 0")


def load_store(value: str) -> Callable[[Operation], None]:
    def verify(op: Operation) -> None:
        _alignment(op)
        base = _t(op, "base")
        v = op.results[0].type if value == "result" else _t(op, value)
        _memref_indices(op, base)
        if isinstance(base, MemRefType) and base.rank and not _unit_minor_stride(base):
            raise fail(op, "most minor memref dim must have unit stride")
        if isinstance(base, MemRefType) and base.rank < v.rank:
            raise fail(op, "destination memref has lower rank than the result vector"
                       if value == "result" else
                       "source memref has lower rank than the vector to store")
        if isinstance(base.element, VectorType):
            if base.element != v:
                raise fail(op, "base memref and result vector types should match")
        elif base.element != v.element:
            raise fail(op, "base and valueToStore element type should match"
                       if value != "result" else "base and result element type should match")

    return verify


def _memory_value(op: Operation, value: str) -> Any:
    """The vector an indexed memory op reads or writes, after the checks they all share:
    one index per memref dim, and the memref's element type."""
    base = _t(op, "base")
    v = op.results[0].type if value == "result" else _t(op, value)
    _memref_indices(op, base)
    if base.element != v.element:
        raise fail(op, f"base and {value} element type should match")
    return v


def masked_memory(value: str) -> Callable[[Operation], None]:
    def verify(op: Operation) -> None:
        _alignment(op)
        v = _memory_value(op, value)
        if _t(op, "mask").shape != v.shape:
            raise fail(op, f"expected {value} dim to match mask dim")
        pt = _t(op, "pass_thru")
        if pt is not None and pt != v:
            raise fail(op, "expected pass_thru of same type as result type")

    return verify


def gather_scatter(value: str) -> Callable[[Operation], None]:
    def verify(op: Operation) -> None:
        _alignment(op)
        v = _memory_value(op, value)
        idx = _t(op, "index_vec")
        if not isinstance(idx.element, (IntegerType, IndexType)):
            raise fail(op, "index vector must hold integers or indices")
        if idx.shape != v.shape or _t(op, "mask").shape != v.shape:
            raise fail(op, f"expected {value}, index vector and mask to have the same shape")
        pt = _t(op, "pass_thru")
        if pt is not None and pt != v:
            raise fail(op, "expected pass_thru of same type as result type")

    return verify


def transfer(op: Operation) -> None:
    shaped = _t(op, "source")
    vec = op.results[0].type if op.name == "vector.transfer_read" else _t(op, "vector")
    n = len(op.operand_groups()["indices"])
    if n != shaped.rank:
        raise fail(op, f"requires {shaped.rank} indices")
    pm = op.attributes.get("permutation_map")
    if not isinstance(pm, AffineMapAttr):
        raise fail(op, "requires a permutation_map attribute")
    m: AffineMap = pm.map
    elem = shaped.element
    elem_rank = elem.rank if isinstance(elem, VectorType) else 0
    if m.num_dims != shaped.rank:
        raise fail(op, "requires a permutation_map with input dims of the same rank as the "
                       "source type")
    if len(m.results) != vec.rank - elem_rank:
        raise fail(op, "requires a permutation_map with result dims of the same rank as the "
                       "vector type")
    if m.num_symbols:
        raise fail(op, "requires permutation_map without symbols")
    read = op.name == "vector.transfer_read"
    if not read and m.is_projected_permutation(allow_zero=True) and not m.is_projected_permutation():
        raise fail(op, "should not have broadcast dimensions")
    if not m.is_projected_permutation(allow_zero=read):
        raise fail(op, "requires a projected permutation_map (at most one dim or the zero "
                       "constant can appear in each result)")
    if isinstance(elem, VectorType):
        if elem.shape != vec.shape[vec.rank - elem_rank :] or elem.element != vec.element:
            raise fail(op, "requires source vector element and vector result ranks to match")
    elif elem != vec.element:
        raise fail(op, "requires source element type and vector element type to match")
    if read:
        pad = _t(op, "padding")
        if pad != elem:
            raise fail(op, "requires formal padding and source of the same elemental type")
    ib = op.attributes.get("in_bounds")
    if ib is not None and len(ib.values) != len(m.results):
        raise fail(op, "expects the in_bounds attr of same rank as permutation_map results")
    mask = _t(op, "mask")
    if mask is not None:
        want = vector_shapes.transfer_mask(op)
        if mask.shape != want.shape:
            raise fail(op, f"expects mask type consistent with permutation map: expected "
                           f"{want}, found {mask}")
    if isinstance(shaped, TensorType) and not read and not op.results:
        raise fail(op, "a transfer_write to a tensor must return the new tensor")
    if isinstance(shaped, MemRefType) and not read and op.results:
        raise fail(op, "a transfer_write to a memref returns nothing")


MASK_PASSTHRU_OPS = {"vector.transfer_read", "vector.gather"}


def mask(op: Operation) -> None:
    block = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    ops = block.ops if block else []
    body = [o for o in ops if o.name != "vector.yield"]
    if len(body) > 1:
        raise fail(op, "expects only one operation to mask")
    mask_t = _t(op, "mask")
    if mask_t.rank == 0:
        raise fail(op, "0-D masks are not supported")
    if body:
        inner = body[0]
        # MLIR 19 also let element-wise ops be masked (lane-wise select); MLIR 22 does not.
        if inner.spec is None or not (inner.spec.has("maskable") or inner.spec.has("elementwise")):
            raise fail(op, f"expects a MaskableOpInterface within the mask region, "
                           f"found '{inner.name}'")
        if [r.type for r in inner.results] != op.result_types:
            raise fail(op, "expects result type to match maskable operation result type")
        yields = [o for o in ops if o.name == "vector.yield"]
        if yields and yields[0].operands and list(yields[0].operands) != list(inner.results):
            raise fail(op, "expects all the results from the MaskableOpInterface to match all "
                           "the values returned by the terminator")
        expected = inner.spec.mask_type or vector_shapes.mask_like_result
        try:
            want = expected(inner)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            want = None  # the masked op is ill-typed: its own verifier says how
        if want is not None and mask_t.shape != want.shape:
            raise fail(op, f"expects a '{want}' mask for the maskable operation")
    pt = op.operand("passthru")
    if pt is not None and (len(op.results) != 1 or pt.type != op.results[0].type):
        raise fail(op, "expects passthru type to match result type")


def print_(op: Operation) -> None:
    src = op.operand("source")
    punctuation = op.attributes.get("punctuation")
    if op.attributes.get("stringLiteral") is not None and (
        src is not None or getattr(punctuation, "value", "newline") != "newline"
    ):
        raise fail(op, "failed to verify that `source` or `punctuation` are not set when "
                       "printing strings")
    if src is not None and not isinstance(src.type, (VectorType, IntegerType, IndexType,
                                                     FloatType)):
        raise fail(op, f"cannot print a value of type {src.type}")
