"""Reference semantics of the value-level `vector` ops: combining kinds, contractions,
reductions, scans and the shape/data-movement ops.

Float folds are sequential (accumulator first, then the elements in row-major order of the
reduced dims), which is the order of MLIR's default lowerings (`llvm.vector.reduce.fadd` without
`reassoc` is ordered). Other association orders differ only in rounding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import semantics_arith as A
from . import semantics_math as M
from .semantics_core import (
    SemanticsError,
    _like,
    as_elem,
    bitwidth,
    dtype_of,
    elem_of_dtype,
    from_bits,
    is_float,
    is_int,
    to_bits,
    to_signed,
)

__all__ = [
    "FLOAT_KINDS",
    "INT_KINDS",
    "KINDS",
    "bitcast",
    "broadcast",
    "combine",
    "constant_mask",
    "contract",
    "create_mask",
    "deinterleave",
    "extract",
    "extract_strided_slice",
    "extractelement",
    "flat_transpose",
    "from_elements",
    "insert",
    "insert_strided_slice",
    "insertelement",
    "interleave",
    "matrix_multiply",
    "multi_reduction",
    "neutral",
    "outerproduct",
    "reduce_kind",
    "reduction",
    "scalable_extract",
    "scalable_insert",
    "scan",
    "shape_cast",
    "shuffle",
    "splat",
    "step",
    "transpose",
]

INT_KINDS = ("add", "mul", "minsi", "minui", "maxsi", "maxui", "and", "or", "xor")
FLOAT_KINDS = ("add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf")
KINDS = tuple(dict.fromkeys(INT_KINDS + FLOAT_KINDS))

_INT_OPS = {
    "add": A.addi,
    "mul": A.muli,
    "minsi": A.minsi,
    "minui": A.minui,
    "maxsi": A.maxsi,
    "maxui": A.maxui,
    "and": A.andi,
    "or": A.ori,
    "xor": A.xori,
}
_FLOAT_OPS = {
    "add": A.addf,
    "mul": A.mulf,
    "minnumf": A.minnumf,
    "maxnumf": A.maxnumf,
    "minimumf": A.minimumf,
    "maximumf": A.maximumf,
}


def _kind_op(kind: str, elem: str) -> Any:
    table = _INT_OPS if is_int(elem) else _FLOAT_OPS if is_float(elem) else {}
    if kind not in table:
        raise SemanticsError(f"combining kind <{kind}> is not defined on {elem}")
    return table[kind]


def combine(kind: str, a: Any, b: Any, elem: str) -> Any:
    """a <kind> b element-wise (*ui read unsigned, minnumf/maxnumf ignore NaN, minimumf/maximumf
    propagate it)."""
    return _kind_op(kind, elem)(a, b, elem)


def neutral(kind: str, elem: str) -> Any:
    """The identity element e of the kind: combine(kind, e, x) == x for every x (add on floats
    is -0.0, minnumf/maxnumf is NaN)."""
    _kind_op(kind, elem)
    if is_float(elem):
        v = {
            "add": -0.0,
            "mul": 1.0,
            "minnumf": np.nan,
            "maxnumf": np.nan,
            "minimumf": np.inf,
            "maximumf": -np.inf,
        }[kind]
        return as_elem(np.float64(v), elem)
    w = bitwidth(elem)
    v = {
        "add": 0,
        "mul": 1,
        "minsi": (1 << (w - 1)) - 1,
        "maxsi": -(1 << (w - 1)),
        "minui": -1,
        "maxui": 0,
        "and": -1,
        "or": 0,
        "xor": 0,
    }[kind]
    return as_elem(np.int64(v), elem)


# Kinds whose fold one numpy accumulate computes exactly like combine(): f32/f64 add/mul round
# each step the same way (accumulate is sequential, unlike reduce's pairwise sums); 8..64-bit
# integers wrap the same way. f16/bf16 (numpy may keep float32 partials) and *ui, *numf,
# *imumf (zero signs, unsigned order) take the element loop.
_ACCUMULATE_FLOAT = {"add": np.add, "mul": np.multiply}
_ACCUMULATE_INT = {
    "add": np.add,
    "mul": np.multiply,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "minsi": np.minimum,
    "maxsi": np.maximum,
}


def _fold_accumulate(
    kind: str, acc: Any, items: np.ndarray, elem: str, mask: np.ndarray | None
) -> Any:
    """_fold in one ufunc.accumulate (the interpreter's hot path), or None when not exact."""
    if elem in ("f32", "f64"):
        uf = _ACCUMULATE_FLOAT.get(kind)
    elif is_int(elem) and bitwidth(elem) in (8, 16, 32, 64):
        uf = _ACCUMULATE_INT.get(kind)
    else:
        return None
    a, dt = np.asarray(acc), dtype_of(elem)
    if uf is None or a.dtype != dt or items.dtype != dt or a.shape != items.shape[:-1]:
        return None
    if mask is not None:  # the neutral element leaves acc bit-identical (x + -0.0 == x)
        items = np.where(mask, items, neutral(kind, elem))
    with np.errstate(all="ignore"):
        seq = np.concatenate([a[..., None], items.astype(dt, copy=False)], axis=-1)
        return uf.accumulate(seq, axis=-1, dtype=dt)[..., -1]


def _fold(kind: str, acc: Any, items: np.ndarray, elem: str, mask: np.ndarray | None) -> Any:
    """acc <kind> items[..., 0] <kind> items[..., 1] ...; masked-off items are skipped."""
    fast = _fold_accumulate(kind, acc, items, elem, mask)
    if fast is not None:
        return fast
    for r in range(items.shape[-1]):
        nxt = combine(kind, acc, items[..., r], elem)
        acc = nxt if mask is None else np.where(mask[..., r], nxt, acc)
    return acc


def _move_to_end(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """Move `axes` (in the given order) to the end and flatten them into one axis."""
    keep = [d for d in range(x.ndim) if d not in axes]
    y = np.transpose(x, keep + list(axes))
    return y.reshape(y.shape[: len(keep)] + (-1,))


def reduce_kind(
    kind: str,
    x: Any,
    axes: Sequence[int],
    elem: str,
    acc: Any = None,
    mask: Any = None,
) -> Any:
    """Fold the `axes` of x with the kind, starting from acc (default: the neutral element);
    masked-off elements are skipped. A scalar when every axis is reduced."""
    x = np.asarray(as_elem(x, elem))
    if any(not -x.ndim <= int(a) < x.ndim for a in axes):
        raise SemanticsError(f"bad reduction dims {list(axes)} for a rank-{x.ndim} vector")
    axes = sorted(int(a) % x.ndim for a in axes)
    if len(set(axes)) != len(axes):
        raise SemanticsError(f"repeated reduction dims {axes}")
    items = _move_to_end(x, axes)
    m = None if mask is None else _move_to_end(np.asarray(mask, dtype=np.bool_), axes)
    start = neutral(kind, elem) if acc is None else as_elem(acc, elem)
    start = np.broadcast_to(np.asarray(start), items.shape[:-1]).copy()
    out = np.asarray(_fold(kind, start, items, elem, m))
    return out[()] if out.ndim == 0 else out


def multi_reduction(
    kind: str, src: Any, acc: Any, dims: Sequence[int], elem: str, mask: Any = None
) -> Any:
    """acc <kind> (fold of src over dims); masked-off lanes act as the neutral element. With no
    reduction dims the result is src itself, acc ignored (measured, MLIR 22)."""
    if len(dims) == 0:
        return np.asarray(as_elem(src, elem)).copy()
    src_a = np.asarray(src)
    rest = tuple(s for d, s in enumerate(src_a.shape) if d not in {int(x) for x in dims})
    if np.shape(acc) != rest:
        raise SemanticsError(f"multi_reduction acc shape {np.shape(acc)} != result {rest}")
    return reduce_kind(kind, src_a, dims, elem, acc=acc, mask=mask)


def reduction(kind: str, vec: Any, acc: Any, elem: str, mask: Any = None) -> Any:
    """Scalar fold of a 1-D vector with the kind, starting from acc (or the neutral element
    when acc is None); masked-off lanes are skipped (measured: MLIR's mask lowering)."""
    v = np.asarray(vec)
    return reduce_kind(kind, v, tuple(range(v.ndim)), elem, acc=acc, mask=mask)


def _to_iteration_space(x: np.ndarray, m: Sequence[int], n: int) -> np.ndarray:
    """View operand x (indexed by iteration dims m) as an n-D array with size-1 missing dims."""
    if x.ndim != len(m) or len(set(m)) != len(m):
        raise SemanticsError(f"indexing map {tuple(m)} does not fit a rank-{x.ndim} operand")
    order = sorted(range(len(m)), key=lambda i: m[i])
    y = np.transpose(x, order)
    shape = [1] * n
    for i in order:
        shape[m[i]] = x.shape[i]
    return y.reshape(shape)


def contract(
    lhs: Any,
    rhs: Any,
    acc: Any,
    lhs_map: Sequence[int],
    rhs_map: Sequence[int],
    acc_map: Sequence[int],
    iterator_types: Sequence[str],
    kind: str = "add",
    result_elem: str = "f32",
    lhs_elem: str | None = None,
    rhs_elem: str | None = None,
    mask: Any = None,
    fused: bool = False,
) -> Any:
    """acc[p] <kind>= lhs[lhs_map(it)] * rhs[rhs_map(it)] for every reduction point, in
    row-major order of the reduction dims; operands first promoted to result_elem (ints
    sign-extended). Measured: non-add kinds fold each product (maxnumf matmul = max(acc,
    max_k a*b)). Float products are rounded (MLIR's dot lowering; its outerproduct lowering
    fuses them, so the two MLIR lowerings already differ in the last bit). `mask` (over the
    iteration space) skips masked-off points.

    ``fused`` is the fp-contract mode (``eqsat run/opt/bench --fp-contract``; the one
    definition every engine follows): a float contraction of kind add then computes, per
    result element, acc = fma(lhs_k, rhs_k, acc) for k ascending over the reduction points in
    row-major order of the reduction dims, each multiply-add rounded once (as `fma`). This is
    what MLIR 22's ``vector-contract-lowering=outerproduct`` computes (its
    ``vector.outerproduct`` steps are fused), bit for bit (tests/test_fp_contract.py runs it
    under mlir-runner-22). Other kinds and integer contractions are unchanged."""
    n = len(iterator_types)
    if set(iterator_types) - {"parallel", "reduction"}:
        raise SemanticsError(f"bad iterator types {tuple(iterator_types)}")
    red = [d for d in range(n) if iterator_types[d] == "reduction"]
    par = [d for d in range(n) if iterator_types[d] == "parallel"]
    if sorted(acc_map) != par:
        raise SemanticsError(f"acc map {tuple(acc_map)} must cover the parallel dims {par}")

    def promote(x: Any, src: str | None) -> np.ndarray:
        a = np.asarray(x)
        src = src or (result_elem if a.dtype == dtype_of(result_elem) else elem_of_dtype(a.dtype))
        if is_int(result_elem):
            if not is_int(src):
                raise SemanticsError(f"cannot promote {src} operand to {result_elem}")
            return np.asarray(as_elem(to_signed(a, src).astype(np.int64), result_elem))
        return np.asarray(as_elem(np.asarray(as_elem(a, src)), result_elem))

    lf = _to_iteration_space(promote(lhs, lhs_elem), lhs_map, n)
    rf = _to_iteration_space(promote(rhs, rhs_elem), rhs_map, n)
    prod = np.asarray(combine("mul", lf, rf, result_elem))
    full = np.broadcast_shapes(lf.shape, rf.shape)
    prod = np.broadcast_to(prod, full)
    items = _move_to_end(prod, red)  # (par dims in id order..., R)
    m = None
    if mask is not None:
        m = _move_to_end(np.broadcast_to(np.asarray(mask, dtype=np.bool_), full), red)
    acc_a = np.asarray(as_elem(acc, result_elem))
    if acc_a.shape != tuple(full[d] for d in acc_map):
        raise SemanticsError(f"contract acc shape {acc_a.shape} does not match the maps")
    start = np.transpose(acc_a, [list(acc_map).index(d) for d in par]).copy()
    if fused and kind == "add" and is_float(result_elem):
        out = _fold_fused(start, lf, rf, full, red, result_elem, m)
    else:
        out = np.asarray(_fold(kind, start, items, result_elem, m))
    out = np.transpose(out, [par.index(d) for d in acc_map])
    return out[()] if len(acc_map) == 0 and not isinstance(acc, np.ndarray) else out


def _fold_fused(
    acc: np.ndarray,
    lf: np.ndarray,
    rf: np.ndarray,
    full: tuple[int, ...],
    red: Sequence[int],
    elem: str,
    mask: np.ndarray | None,
) -> np.ndarray:
    """acc = fma(l_k, r_k, acc) for each reduction point k in order (the fused contraction);
    l and r are the promoted operands over the iteration space, masked-off points skipped."""
    ls = _move_to_end(np.broadcast_to(lf, full), red)
    rs = _move_to_end(np.broadcast_to(rf, full), red)
    for r in range(ls.shape[-1]):
        nxt = np.asarray(M.fma(ls[..., r], rs[..., r], acc, elem))
        acc = nxt if mask is None else np.where(mask[..., r], nxt, acc)
    return np.asarray(acc)


def outerproduct(
    lhs: Any, rhs: Any, acc: Any = None, kind: str = "add", elem: str = "f32", mask: Any = None
) -> Any:
    """res[i, j] = acc[i, j] <kind> lhs[i] * rhs[j] (rhs scalar: res[i] = acc[i] <kind>
    lhs[i] * rhs, AXPY). Float add is fused (one rounding; measured). Without acc: the plain
    product. Masked-off lanes keep acc (measured)."""
    lv = np.asarray(as_elem(lhs, elem))
    if lv.ndim != 1:
        raise SemanticsError("outerproduct lhs must be a 1-D vector")
    if isinstance(rhs, np.ndarray) and rhs.ndim == 1:
        a, b = lv[:, None], np.asarray(as_elem(rhs, elem))[None, :]
    else:
        a, b = lv, np.asarray(as_elem(rhs, elem))
    shape = np.broadcast_shapes(a.shape, b.shape)
    if acc is None:
        return np.asarray(combine("mul", a, b, elem))
    acc_a = np.asarray(as_elem(acc, elem))
    if acc_a.shape != shape:
        raise SemanticsError(f"outerproduct acc shape {acc_a.shape} != {shape}")
    if kind == "add" and is_float(elem):
        res = M.fma(a, b, acc_a, elem)
    else:
        res = combine(kind, acc_a, combine("mul", a, b, elem), elem)
    res = np.broadcast_to(np.asarray(res), shape)
    if mask is not None:
        res = np.where(np.asarray(mask, dtype=np.bool_), res, acc_a)
    return np.array(res)


def scan(
    kind: str, src: Any, init: Any, dim: int, inclusive: bool, elem: str
) -> tuple[np.ndarray, np.ndarray]:
    """Prefix scan along dim, as MLIR 22 lowers it (measured): inclusive: out[i] = src[0] <k>
    ... <k> src[i], init IGNORED; exclusive: out[0] = init, out[i] = out[i-1] <k> src[i-1].
    The second result is out[last] in both cases (so exclusive omits the last element)."""
    s = np.asarray(as_elem(src, elem))
    if not 0 <= dim < s.ndim:
        raise SemanticsError(f"scan dim {dim} out of range for rank {s.ndim}")
    init_a = np.asarray(as_elem(init, elem))
    if init_a.shape != s.shape[:dim] + s.shape[dim + 1 :]:
        raise SemanticsError(f"scan initial value shape {init_a.shape} does not fit {s.shape}")
    moved = np.moveaxis(s, dim, 0)
    out = np.empty_like(moved)
    if inclusive:
        out[0] = moved[0]
        for i in range(1, moved.shape[0]):
            out[i] = combine(kind, out[i - 1], moved[i], elem)
    else:
        out[0] = init_a
        for i in range(1, moved.shape[0]):
            out[i] = combine(kind, out[i - 1], moved[i - 1], elem)
    return np.moveaxis(out, 0, dim).copy(), np.array(out[-1])


# --------------------------------------------------------------------------- shape ops


def broadcast(x: Any, shape: Sequence[int]) -> np.ndarray:
    """Scalar or vector stretched to `shape`: missing leading dims added, size-1 dims
    duplicated (numpy broadcasting rules)."""
    a = np.asarray(x)
    shape = tuple(shape)
    if a.ndim > len(shape) or any(
        s not in (1, t) for s, t in zip(a.shape[::-1], shape[::-1], strict=False)
    ):
        raise SemanticsError(f"cannot broadcast {a.shape} to {shape}")
    return np.broadcast_to(a, shape).copy()


def splat(x: Any, shape: Sequence[int]) -> np.ndarray:
    """Every element equal to the scalar x (vector.splat, removed in MLIR 22)."""
    return broadcast(x, shape)


def shape_cast(x: Any, shape: Sequence[int]) -> np.ndarray:
    """Row-major reshape to a shape with the same number of elements."""
    a = np.asarray(x)
    if int(np.prod(shape, dtype=np.int64)) != a.size:
        raise SemanticsError(f"shape_cast from {a.shape} to {tuple(shape)} changes the size")
    return a.reshape(tuple(shape)).copy()


def transpose(x: Any, perm: Sequence[int]) -> np.ndarray:
    """result.shape[i] = x.shape[perm[i]]; result[idx] = x[idx permuted back]."""
    a = np.asarray(x)
    if sorted(perm) != list(range(a.ndim)):
        raise SemanticsError(f"{tuple(perm)} is not a permutation of rank {a.ndim}")
    return np.transpose(a, tuple(perm)).copy()


def bitcast(x: Any, src_elem: str, dst_elem: str) -> Any:
    """Reinterpret the bits of each minor row (little-endian; i1 element k is bit k): the minor
    dim is rescaled by the bitwidth ratio. Also arith.bitcast (same widths, element-wise)."""
    a = np.asarray(x)
    ws, wd = bitwidth(src_elem), bitwidth(dst_elem)
    if a.ndim == 0:
        if ws != wd:
            raise SemanticsError(f"0-D bitcast needs equal widths ({src_elem} -> {dst_elem})")
        return _like(from_bits(to_bits(a, src_elem), dst_elem), x)
    nbits = a.shape[-1] * ws
    if nbits % wd:
        raise SemanticsError(f"minor dim of {a.shape} x {src_elem} does not divide into {dst_elem}")
    u = to_bits(a, src_elem)
    bits = (u[..., None] >> np.arange(ws, dtype=np.uint64)) & np.uint64(1)
    bits = bits.reshape(a.shape[:-1] + (nbits // wd, wd))
    out = (bits << np.arange(wd, dtype=np.uint64)).sum(axis=-1, dtype=np.uint64)
    return from_bits(out, dst_elem)


def _check_position(a: np.ndarray, position: Sequence[int], op: str) -> bool:
    """Validate a static/dynamic position; True if it contains the poison index -1."""
    if len(position) > a.ndim:
        raise SemanticsError(f"{op}: position {tuple(position)} too long for rank {a.ndim}")
    if any(int(p) == -1 for p in position):
        return True
    for p, n in zip(position, a.shape, strict=False):
        if not 0 <= int(p) < n:
            raise SemanticsError(
                f"{op}: position {list(map(int, position))} out of bounds for shape {a.shape}"
            )
    return False


def extract(x: Any, position: Sequence[int]) -> Any:
    """x[position]: a sub-vector, or the scalar for a full-rank position. A -1 (poison) index
    gives zeros (any value is allowed); other out-of-bounds indices raise (UB)."""
    a = np.asarray(x)
    if _check_position(a, position, "vector.extract"):
        z = np.zeros(a.shape[len(position) :], a.dtype)
        return z[()] if z.ndim == 0 else z
    r = a[tuple(int(p) for p in position)]
    return r.copy() if isinstance(r, np.ndarray) else r


def insert(src: Any, dest: Any, position: Sequence[int]) -> np.ndarray:
    """dest with dest[position] = src; a -1 (poison) index gives zeros; other out-of-bounds
    indices raise (UB)."""
    d = np.asarray(dest)
    if _check_position(d, position, "vector.insert"):
        return np.zeros_like(d)
    s = np.asarray(src)
    if s.shape != d.shape[len(position) :]:
        raise SemanticsError(f"vector.insert: source shape {s.shape} does not fit {d.shape}")
    r = d.copy()
    r[tuple(int(p) for p in position)] = s
    return r


def extractelement(x: Any, pos: Any = None) -> Any:
    """Element pos of a 1-D vector, or the element of a 0-D vector (pos None)."""
    return extract(x, () if pos is None else (int(pos),))


def insertelement(src: Any, dest: Any, pos: Any = None) -> np.ndarray:
    """dest with element pos (None for 0-D) replaced by src."""
    return insert(src, dest, () if pos is None else (int(pos),))


def _slices(
    shape: tuple[int, ...], offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> tuple[slice, ...]:
    out = []
    for d, (o, s, st) in enumerate(zip(offsets, sizes, strides, strict=True)):
        if st < 1 or o < 0 or s < 0 or (s > 0 and o + (s - 1) * st >= shape[d]):
            raise SemanticsError(
                f"strided slice offsets {list(offsets)} sizes {list(sizes)} strides "
                f"{list(strides)} out of bounds for shape {shape}"
            )
        out.append(slice(o, o + (s - 1) * st + 1, st))
    return tuple(out)


def extract_strided_slice(
    x: Any, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> np.ndarray:
    """The sub-vector starting at offsets with shape sizes ++ x.shape[k:] (k = len(offsets))."""
    a = np.asarray(x)
    if not len(offsets) == len(sizes) == len(strides) <= a.ndim:
        raise SemanticsError("extract_strided_slice: offsets/sizes/strides lengths mismatch")
    return a[_slices(a.shape, offsets, sizes, strides)].copy()


def insert_strided_slice(
    src: Any, dest: Any, offsets: Sequence[int], strides: Sequence[int]
) -> np.ndarray:
    """dest with the region at offsets (leading n-k entries are positions) replaced by the
    k-D src, stepping by strides."""
    s, d = np.asarray(src), np.asarray(dest)
    k, n = s.ndim, d.ndim
    if len(offsets) != n or len(strides) != k or k > n:
        raise SemanticsError("insert_strided_slice: offsets must have dest rank, strides src rank")
    lead = tuple(int(o) for o in offsets[: n - k])
    if _check_position(d, lead, "vector.insert_strided_slice"):
        raise SemanticsError("vector.insert_strided_slice: negative offset")
    tail = _slices(d.shape[n - k :], offsets[n - k :], s.shape, strides)
    r = d.copy()
    r[lead + tail] = s
    return r


def shuffle(v1: Any, v2: Any, mask: Sequence[int]) -> np.ndarray:
    """Leading-dim slices of concat(v1, v2) picked by mask (0-D inputs act as 1-element
    vectors); a -1 (poison) lane gives zeros."""
    a, b = np.asarray(v1), np.asarray(v2)
    if a.ndim == 0 and b.ndim == 0:
        a, b = a.reshape(1), b.reshape(1)
    if a.ndim != b.ndim or a.shape[1:] != b.shape[1:] or a.dtype != b.dtype:
        raise SemanticsError(f"vector.shuffle operands {a.shape} and {b.shape} do not match")
    both = np.concatenate([a, b], axis=0)
    out = np.zeros((len(mask),) + both.shape[1:], both.dtype)
    for i, m in enumerate(mask):
        m = int(m)
        if m == -1:
            continue
        if not 0 <= m < both.shape[0]:
            raise SemanticsError(f"vector.shuffle mask index {m} out of range {both.shape[0]}")
        out[i] = both[m]
    return out


def interleave(a: Any, b: Any) -> np.ndarray:
    """res[..., 2i] = a[..., i], res[..., 2i+1] = b[..., i] (0-D inputs -> 1-D of 2)."""
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        raise SemanticsError(f"vector.interleave operands {x.shape} and {y.shape} differ")
    if x.ndim == 0:
        return np.array([x[()], y[()]], dtype=x.dtype)
    return np.stack([x, y], axis=-1).reshape(x.shape[:-1] + (2 * x.shape[-1],))


def deinterleave(x: Any) -> tuple[np.ndarray, np.ndarray]:
    """(even, odd) elements of the minor dim: the inverse of interleave."""
    a = np.asarray(x)
    if a.ndim == 0 or a.shape[-1] % 2:
        raise SemanticsError(f"vector.deinterleave needs an even minor dim, got {a.shape}")
    return a[..., 0::2].copy(), a[..., 1::2].copy()


def from_elements(elems: Sequence[Any], shape: Sequence[int], elem: str) -> np.ndarray:
    """The vector of `shape` whose elements, row-major, are elems."""
    shape = tuple(shape)
    if len(elems) != int(np.prod(shape, dtype=np.int64)):
        raise SemanticsError(f"from_elements: {len(elems)} elements for shape {shape}")
    vals = [np.asarray(as_elem(e, elem)) for e in elems]
    return np.array(vals, dtype=dtype_of(elem)).reshape(shape)


def step(n: int) -> np.ndarray:
    """[0, 1, ..., n-1] as an index vector."""
    return np.arange(n, dtype=np.int64)


def create_mask(bounds: Sequence[Any], shape: Sequence[int]) -> np.ndarray:
    """i1 mask true on [0, b_d) in every dim d, bounds clamped to [0, shape[d]] (a 0-D mask is
    true iff its single bound is > 0)."""
    shape = tuple(shape)
    if len(shape) == 0:
        if len(bounds) != 1:
            raise SemanticsError("create_mask of a 0-D mask takes one bound")
        return np.array(int(bounds[0]) > 0)
    if len(bounds) != len(shape):
        raise SemanticsError(f"create_mask: {len(bounds)} bounds for shape {shape}")
    m = np.zeros(shape, np.bool_)
    m[tuple(slice(0, min(max(int(b), 0), n)) for b, n in zip(bounds, shape, strict=True))] = True
    return m


def constant_mask(sizes: Sequence[int], shape: Sequence[int]) -> np.ndarray:
    """i1 mask true on [0, sizes[d]) in every dim; each size must lie in [0, shape[d]]."""
    shape = tuple(shape)
    dims = shape if shape else (1,)
    if len(sizes) != len(dims) or any(not 0 <= int(s) <= n for s, n in zip(sizes, dims)):
        raise SemanticsError(f"constant_mask sizes {list(sizes)} invalid for shape {shape}")
    return create_mask(sizes, shape)


MATRIX_LAYOUTS = ("row-major", "column-major")


def _check_layout(layout: str) -> None:
    if layout not in MATRIX_LAYOUTS:
        raise SemanticsError(f"unknown matrix layout {layout!r} (row-major or column-major)")


def flat_transpose(x: Any, rows: int, columns: int, layout: str = "row-major") -> np.ndarray:
    """x holds a rows x columns matrix flattened in ``layout`` (the project default is
    row-major; LLVM's default, ``-matrix-default-layout``, is column-major); the result holds
    its columns x rows transpose flattened in the same layout."""
    _check_layout(layout)
    a = np.asarray(x)
    if a.shape != (rows * columns,):
        raise SemanticsError(f"flat_transpose: {a.shape} is not a flat {rows}x{columns} matrix")
    if layout == "column-major":  # x = columns blocks of `rows`; the result = rows blocks
        return a.reshape(columns, rows).T.reshape(-1).copy()
    return a.reshape(rows, columns).T.reshape(-1).copy()


def matrix_multiply(
    lhs: Any,
    rhs: Any,
    lhs_rows: int,
    lhs_columns: int,
    rhs_columns: int,
    elem: str | None = None,
    layout: str = "row-major",
) -> np.ndarray:
    """(lhs as R x K) @ (rhs as K x C), operands and result flattened in ``layout`` (default
    row-major, as MLIR's contract -> matrix_multiply lowering assumes; LLVM's own default is
    column-major); sums run k = 0..K-1 in order."""
    _check_layout(layout)
    a, b = np.asarray(lhs), np.asarray(rhs)
    if a.shape != (lhs_rows * lhs_columns,) or b.shape != (lhs_columns * rhs_columns,):
        raise SemanticsError("matrix_multiply: operand sizes do not match the attributes")
    elem = elem or elem_of_dtype(a.dtype)
    if layout == "column-major":
        ma, mb = a.reshape(lhs_columns, lhs_rows).T, b.reshape(rhs_columns, lhs_columns).T
    else:
        ma, mb = a.reshape(lhs_rows, lhs_columns), b.reshape(lhs_columns, rhs_columns)
    res = contract(
        ma,
        mb,
        np.full((lhs_rows, rhs_columns), neutral("add", elem)),
        (0, 2),
        (2, 1),
        (0, 1),
        ("parallel", "parallel", "reduction"),
        "add",
        elem,
        elem,
        elem,
    )
    if layout == "column-major":
        return np.asarray(res).T.reshape(-1).copy()
    return np.asarray(res).reshape(-1)


def scalable_extract(src: Any, pos: int, n: int) -> np.ndarray:
    """src[pos : pos + n] (scalable sizes already multiplied by vscale)."""
    a = np.asarray(src)
    if a.ndim != 1 or pos < 0 or pos + n > a.shape[0]:
        raise SemanticsError(f"scalable.extract [{pos}, {pos + n}) out of bounds for {a.shape}")
    return a[pos : pos + n].copy()


def scalable_insert(src: Any, dest: Any, pos: int) -> np.ndarray:
    """dest with dest[pos : pos + len(src)] = src."""
    s, d = np.asarray(src), np.asarray(dest)
    if s.ndim != 1 or d.ndim != 1 or pos < 0 or pos + s.shape[0] > d.shape[0]:
        raise SemanticsError(f"scalable.insert of {s.shape} at {pos} out of bounds for {d.shape}")
    r = d.copy()
    r[pos : pos + s.shape[0]] = s
    return r
