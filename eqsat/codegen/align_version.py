"""Alignment versioning: a function whose vector loads and stores go through memref arguments
checks once at entry that those arguments' first elements sit on a vector-size boundary, and
then runs a copy of its body in which LLVM knows it; otherwise the unchanged body.

A memref promises only its element's alignment, so eqsat's vector accesses carry that
(``align 4`` for f32). Without VEX encoding (x86-64-v2: SSE) a load folds into an
arithmetic instruction as a memory operand only when it is marked aligned to the vector, so
every load of such code is a separate ``movups``. MLIR's ``use-vector-alignment`` variants
just assume the alignment (undefined behaviour on an unaligned buffer); this is the safe
form. The body is emitted twice: as the function itself, and as ``_eqsat_aligned_<name>``
whose checked pointer parameters carry ``align`` (16 on x86-64-v2), so LLVM's alignment
inference (known bits of each address: the pointer's low bits plus a multiple of the
vector) marks its loads aligned. The function's entry makes the check and, when it holds,
returns that copy's result. (An ``llvm.assume`` on one path of a shared, inlined body does
not work: LLVM drops an assumed comparison that the branch already implies, and sinks the
two then-identical copies into one.)

Which functions: the target file's ``align_versioning`` (``eqsat.targets.target``) bounds
the body's size in native-register operations (0: never, the default); a function is
versioned when it has a vector access of at least one register's bytes through a memref
argument, and its body is within that size (the code is doubled, and so is LLVM's time on
it), and no ``func.call`` of the module calls it: such a function gets its buffers from code
LLVM sees (eqsat's allocations are 64-byte aligned, which inlining carries), and versioning
every kernel a test program's ``@entry`` calls made LLVM's time on two test files 25% longer.
Checked mode never versions (its bounds checks, not speed, are its point).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from llvmlite import ir

from eqsat.codegen.descriptor import MemDesc, layout_of
from eqsat.codegen.types import I8, I64, bit_width, scalar_type
from frontend.ir import Operation, Value
from frontend.types import MemRefType, Type, VectorType

# Vector accesses whose contiguous rows alignment helps (gathers and compressed accesses go
# lane by lane): op name -> (index of the memref operand, of the stored vector; None: the
# vector is the result).
_ACCESSES: dict[str, tuple[int, int | None]] = {
    "vector.load": (0, None),
    "vector.store": (1, 0),
    "vector.transfer_read": (0, None),
    "vector.transfer_write": (1, 0),
    "vector.maskedload": (0, None),
    "vector.maskedstore": (0, -1),
}
ALIGNED_PREFIX = "_eqsat_aligned_"


@dataclass(frozen=True)
class Versioned:
    """A memref argument the entry checks: its position among the LLVM parameters (the
    aligned pointer's; the offset is the next), its element's bytes, and its static offset
    (None when dynamic)."""

    aligned: int
    elem_bytes: int
    offset: int | None


def _elem_bytes(t: MemRefType) -> int | None:
    if isinstance(t.element, VectorType):
        return None
    try:
        bits = bit_width(scalar_type(t.element))
    except Exception:  # noqa: BLE001 - an element LLVM types otherwise (index, ptr): not a scalar
        return None
    return bits // 8 if bits >= 8 and bits & (bits - 1) == 0 else None


def _row_bytes(op: Operation, t: Type, stored: int | None) -> int:
    """Bytes of one contiguous row of the vector an access moves (0 for a non-vector)."""
    vt = op.results[0].type if stored is None else op.operands[stored].type
    if not isinstance(vt, VectorType) or not vt.shape or not isinstance(t, MemRefType):
        return 0
    b = _elem_bytes(t)
    return vt.shape[-1] * b if b else 0


def body_size(func: Operation, vector_bits: int) -> int:
    """The body's size: each op counts the native registers its widest vector result spans
    (a store: the vector it stores; at least one), so a vector<16x128xf64> add counts 1024 on
    128-bit registers and an extract of one row from it 1."""
    total = 0
    for op in func.walk():
        widest = 1
        for v in op.results or op.operands[:1]:
            t = v.type
            if isinstance(t, VectorType) and not t.is_scalable:
                try:
                    bits = bit_width(scalar_type(t.element))
                except Exception:  # noqa: BLE001 - (index lanes: 64 bits)
                    bits = 64
                widest = max(widest, math.ceil(t.num_elements() * bits / vector_bits))
        total += widest
    return total


def versioned_args(func: Operation, vector_bytes: int) -> list[Versioned]:
    """The memref arguments some vector access of at least ``vector_bytes`` reads or writes
    (directly or through views made from them), whose element size divides the vector's."""
    args = func.regions[0].blocks[0].args
    derived: dict[Value, int] = {a: i for i, a in enumerate(args) if isinstance(a.type, MemRefType)}
    used: set[int] = set()
    for op in func.walk():
        root = next((derived[v] for v in op.operands[:1] if v in derived), None)
        if root is not None:
            for r in op.results:
                if isinstance(r.type, MemRefType):
                    derived[r] = root
        access = _ACCESSES.get(op.name)
        if access is None or len(op.operands) <= access[0]:
            continue
        if access[1] is None and not op.results:
            continue
        m = op.operands[access[0]]
        if m in derived and _row_bytes(op, m.type, access[1]) >= vector_bytes:
            used.add(derived[m])
    out: list[Versioned] = []
    pos = 0
    for i, a in enumerate(args):
        t = a.type
        if isinstance(t, MemRefType):
            b = _elem_bytes(t)
            if i in used and b is not None and vector_bytes % b == 0:
                out.append(Versioned(pos + 1, b, layout_of(t)[1]))
            pos += 3 + 2 * len(t.shape)
        else:
            pos += 1
    return out


def plan(func: Operation, vector_bits: int, max_ops: int) -> list[Versioned]:
    """The arguments to check for ``func`` on a target with ``vector_bits`` registers and the
    ``align_versioning`` bound ``max_ops``; empty: emit the function unversioned."""
    if max_ops <= 0 or not func.regions or not func.regions[0].blocks:
        return []
    if body_size(func, vector_bits) > max_ops:
        return []
    return versioned_args(func, vector_bits // 8)


def _check(b: ir.IRBuilder, fn: ir.Function, v: Versioned, vector_bytes: int) -> ir.Value:
    """i1: the argument's elements start on a vector boundary. With a static offset, the
    aligned pointer's low bits are the constant that offset needs; with a dynamic one, the
    pointer is aligned and the offset a multiple of the vector's lanes (stricter than their
    sum, but each part is then something the aligned copy can state)."""
    mask = vector_bytes - 1
    low = b.and_(b.ptrtoint(fn.args[v.aligned], I64), I64(mask))
    if v.offset is not None:
        return b.icmp_unsigned("==", low, I64((-v.offset * v.elem_bytes) & mask))
    lanes = b.and_(fn.args[v.aligned + 1], I64(vector_bytes // v.elem_bytes - 1))
    return b.and_(b.icmp_unsigned("==", low, I64(0)), b.icmp_unsigned("==", lanes, I64(0)))


def aligned_copy(
    module: ir.Module, fn: ir.Function, args: list[Versioned], vector_bytes: int
) -> ir.Function:
    """The function the aligned path calls: fn's parameters, each checked argument's pointer
    parameter marked ``align``. It stays a call (``noinline``, external): inlined, the parameter's
    alignment would be lost, and LLVM merges two inlined copies that differ only in what an
    assumption says (it sinks their common code below the branch)."""
    copy = ir.Function(module, fn.function_type, ALIGNED_PREFIX + fn.name)
    copy.attributes.add("noinline")  # external: LLVM's argument promotion, which only
    # rewrites internal functions, would move its loads into the caller, unaligned
    for v in args:
        copy.args[v.aligned].attributes.align = vector_bytes
    return copy


def dispatch(
    b: ir.IRBuilder, fn: ir.Function, copy: ir.Function, args: list[Versioned], vector_bytes: int
) -> None:
    """At fn's entry: when every checked argument is aligned, return what ``copy`` returns
    (a tail call, so a jump). The pointer passed for a static offset that is not a multiple of
    the vector is its first element's (aligned), which ``rebase`` takes back."""
    ok = None
    for v in args:
        c = _check(b, fn, v, vector_bytes)
        ok = c if ok is None else b.and_(ok, c)
    params = list(fn.args)
    for v in args:
        shift = _shift(v, vector_bytes)
        if shift:
            params[v.aligned] = b.gep(fn.args[v.aligned], [I64(shift)], source_etype=I8)
    with b.if_then(ok):
        r = b.call(copy, params, tail=True)
        if isinstance(fn.function_type.return_type, ir.VoidType):
            b.ret_void()
        else:
            b.ret(r)


def _shift(v: Versioned, vector_bytes: int) -> int:
    """Bytes from the aligned pointer to the first element, when that is a static amount that
    is not a multiple of the vector (else 0: the pointer itself is aligned)."""
    if v.offset is None or (v.offset * v.elem_bytes) % vector_bytes == 0:
        return 0
    return v.offset * v.elem_bytes


def rebase(b: ir.IRBuilder, d: MemDesc, v: Versioned, vector_bytes: int) -> MemDesc:
    """The descriptor the aligned copy works on, equal to the caller's field by field, in
    terms LLVM's known bits follow: the aligned pointer back from its first element (see
    ``dispatch``), a dynamic offset with its low bits (zero by the check) cleared."""
    shift = _shift(v, vector_bytes)
    if shift:
        d.aligned = b.gep(d.aligned, [I64(-shift)], source_etype=I8)
    if v.offset is None:
        d.offset = b.and_(d.offset, I64(-(vector_bytes // v.elem_bytes)))
    return d


__all__ = [
    "ALIGNED_PREFIX", "Versioned", "aligned_copy", "body_size", "dispatch", "plan", "rebase",
    "versioned_args",
]
