"""Checked mode's memory safety: what compiled code asks the runtime about its buffers, and
the size checks every allocation makes.

Checked code (``eqsat run``, ``compile(checked=True)``) registers each buffer it can reach
(``memref.alloc``, ``alloca``, globals; the caller's arrays are registered by
``eqsat.codegen.api``) by its allocated pointer. A view that picks its own offset, sizes and
strides (``reinterpret_cast``, ``view``) asks whether its elements lie inside that buffer;
``dealloc`` asks whether the pointer is a live ``memref.alloc`` buffer (a double free, or the
free of an alloca, a global or an argument, is a located fault instead of glibc's abort).
Freed buffers are released when the call returns (or once 256 MiB wait). An invalid view
gets zero sizes: every later access through it is out of bounds, which checked accesses
refuse.

Use after free: in a module that deallocates (``memref.dealloc`` or ``memref.realloc``),
every op that reads or writes a memref's elements first asks whether the memref's buffer
was freed, a located fault as in the interpreter (``frontend.semantics_heap``). The question
costs a hash, one byte load and a compare: ``FILTER`` counts the quarantined buffers per
hash slot, and only a nonzero slot calls the runtime, which looks the pointer up in
``FREED``. A buffer released from a full quarantine is no longer recognised.

Allocation sizes are checked in both modes: a negative size, an element count whose bytes
overflow, or a ``malloc`` that returns null is a fault and an empty buffer, never heap
corruption.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from llvmlite import ir

from typing import Any

from eqsat.codegen.descriptor import REFUSED, MemDesc, UnrankedDesc
from eqsat.codegen.emitter import FuncEmitter, Lowering
from eqsat.codegen.runtime import ERRORS, FAULTS
from eqsat.codegen.texts import FAULT_SITES, fault_id
from eqsat.codegen.types import I1, I8, I32, I64, PTR
from frontend.ir import Module, Operation
from frontend.semantics_heap import not_from_alloc

KINDS = ("memref.alloc", "memref.alloca", "memref.global", "argument")
ALLOC, ALLOCA, GLOBAL, ARGUMENT = range(4)
MAX_BYTES = 1 << 46  # above any machine's memory: refused before malloc sees it
MAX_STACK_BYTES = 1 << 22  # an alloca beyond this would overflow the stack
QUARANTINE_BYTES = 1 << 28
FILTER_BITS = 16  # FILTER's slots: 2**16 one-byte counters
_GOLDEN = 0x9E3779B97F4A7C15  # Fibonacci hashing of the pointer's 16-byte granule

BUFFERS: dict[int, tuple[int, int, int]] = {}  # allocated pointer -> (first byte, end, kind)
FREED: dict[int, int] = {}  # freed allocated pointers (not yet released) -> bytes
FILTER = (ctypes.c_uint8 * (1 << FILTER_BITS))()  # quarantined buffers per hash slot
_libc = ctypes.CDLL(ctypes.util.find_library("c"))
_libc.free.argtypes = [ctypes.c_void_p]


def _slot(allocated: int) -> int:
    """FILTER's slot of a pointer (the emitted probe computes the same)."""
    return (((allocated >> 4) * _GOLDEN) & ((1 << 64) - 1)) >> (64 - FILTER_BITS)


def _quarantine(allocated: int, nbytes: int) -> None:
    FREED[allocated] = nbytes
    h = _slot(allocated)
    FILTER[h] = min(255, FILTER[h] + 1)  # a saturated slot stays set (only slower probes)


def _release(allocated: int) -> None:
    """Take a pointer out of the quarantine (its memory is then free or reused)."""
    if FREED.pop(allocated, None) is not None:
        h = _slot(allocated)
        if FILTER[h] < 255:
            FILTER[h] -= 1


def reset() -> None:
    """Release every quarantined buffer and forget the registry (after each call)."""
    for p in FREED:
        _libc.free(p)
    FREED.clear()
    ctypes.memset(FILTER, 0, ctypes.sizeof(FILTER))
    BUFFERS.clear()


def register(allocated: int, start: int, nbytes: int, kind: int) -> None:
    BUFFERS[allocated] = (start, start + max(0, nbytes), kind)
    _release(allocated)


def _fault(site: int, detail: str) -> None:
    msg, loc = FAULT_SITES[site]
    if not FAULTS:
        FAULTS.append((f"{msg}: {detail}", loc))


def _register(allocated: int, start: int, nbytes: int, kind: int) -> None:
    register(allocated or 0, start or 0, nbytes, kind)


def _view_ok(allocated: int, lo: int, hi: int, site: int) -> int:
    """1 if bytes [lo, hi) lie in the buffer of allocated (or it is not one we know)."""
    try:
        got = BUFFERS.get(allocated or 0)
        if got is None or lo >= hi:
            return 1
        start, end, kind = got
        if lo < start or hi > end:
            _fault(site, f"view of bytes [{lo - start}, {hi - start}) exceeds its buffer of "
                         f"{end - start} bytes ({KINDS[kind]})")  # fmt: skip
            return 0
        return 1
    except BaseException as e:  # noqa: BLE001 - re-raised by the caller
        ERRORS.append(e)
        return 0


def _dealloc(allocated: int, site: int) -> None:
    try:
        allocated = allocated or 0
        got = BUFFERS.get(allocated)
        if allocated in FREED:
            _fault(site, "the memref was already deallocated (double free)")
        elif got is None:
            _fault(site, "the memref was not allocated by memref.alloc")
        elif got[2] != ALLOC:
            _fault(site, not_from_alloc(KINDS[got[2]]))
        else:
            del BUFFERS[allocated]
            _quarantine(allocated, got[1] - got[0])
            if sum(FREED.values()) > QUARANTINE_BYTES:
                oldest = next(iter(FREED))
                _release(oldest)
                _libc.free(oldest)
    except BaseException as e:  # noqa: BLE001 - re-raised by the caller
        ERRORS.append(e)


def _freed(allocated: int) -> int:
    """1 if allocated is a quarantined (deallocated) buffer: the probe's slow path."""
    return int((allocated or 0) in FREED)


_R = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int32)(
    _register
)
_V = ctypes.CFUNCTYPE(
    ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int32
)(_view_ok)
_D = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32)(_dealloc)
_F = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)(_freed)
SYMBOLS = {
    "eqsat_register": ctypes.cast(_R, ctypes.c_void_p).value,
    "eqsat_view_ok": ctypes.cast(_V, ctypes.c_void_p).value,
    "eqsat_dealloc": ctypes.cast(_D, ctypes.c_void_p).value,
    "eqsat_freed": ctypes.cast(_F, ctypes.c_void_p).value,
    "eqsat_freed_filter": ctypes.addressof(FILTER),
}


# -- emitted code ------------------------------------------------------------------------------
I128 = ir.IntType(128)


def byte_count(em: FuncEmitter, sizes: list[ir.Value], esize: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(bytes, bad): the bytes of prod(sizes) elements of esize bytes, and whether a size is
    negative or the total exceeds MAX_BYTES (bytes is then 0)."""
    b = em.b
    limit = I128(MAX_BYTES)
    acc: ir.Value = b.sext(esize, I128)
    bad: ir.Value = I1(0)
    for s in sizes:
        bad = b.or_(bad, b.icmp_signed("<", s, I64(0)))
        acc = b.mul(acc, b.sext(b.select(b.icmp_unsigned("<", s, I64(MAX_BYTES)), s,
                                         I64(MAX_BYTES)), I128))  # fmt: skip
        acc = b.select(b.icmp_unsigned(">", acc, limit), I128(MAX_BYTES + 1), acc)
    bad = b.or_(bad, b.icmp_unsigned(">", acc, limit))
    return b.select(bad, I64(0), b.trunc(acc, I64)), bad


def empty_if(em: FuncEmitter, bad: ir.Value, sizes: list[ir.Value]) -> list[ir.Value]:
    """The sizes, or zeros where bad holds (a refused buffer or view holds no element)."""
    return [em.b.select(bad, I64(0), s, name=REFUSED) for s in sizes]


def register_buffer(em: FuncEmitter, allocated: ir.Value, start: ir.Value, nbytes: ir.Value,
                    kind: int) -> None:  # fmt: skip
    if not em.m.checked:
        return
    fn = em.m.declare("eqsat_register", ir.VoidType(), [PTR, PTR, I64, I32])
    em.b.call(fn, [allocated, start, nbytes, I32(kind)])


def dealloc(em: FuncEmitter, op: Operation, allocated: ir.Value) -> None:
    """free(allocated); in checked mode the runtime checks the pointer and frees it later."""
    if not em.m.checked:
        em.b.call(em.m.declare("free", ir.VoidType(), [PTR]), [allocated])
        return
    site = fault_id(f"'{op.name}' op runtime fault: {op.name}", op.loc)
    em.b.call(em.m.declare("eqsat_dealloc", ir.VoidType(), [PTR, I32]), [allocated, I32(site)])


def element_size(em: FuncEmitter, et: ir.Type) -> ir.Value:
    one = em.b.gep(ir.Constant(PTR, None), [I64(1)], source_etype=et)
    return em.b.ptrtoint(one, I64)


def check_view(em: FuncEmitter, op: Operation, d: MemDesc, et: ir.Type) -> MemDesc:
    """In checked mode: d (a view that chose its own layout) with zero sizes, and a fault,
    unless every element it spans lies inside its buffer."""
    if not em.m.checked or not d.sizes:
        return d
    b = em.b
    lo_e: ir.Value = b.sext(d.offset, I128)
    hi_e: ir.Value = lo_e
    bad: ir.Value = I1(0)
    empty: ir.Value = I1(0)
    for s, st in zip(d.sizes, d.strides):
        bad = b.or_(bad, b.icmp_signed("<", s, I64(0)))
        empty = b.or_(empty, b.icmp_signed("==", s, I64(0)))
        span = b.mul(b.sext(b.sub(s, I64(1)), I128), b.sext(st, I128))
        neg = b.icmp_signed("<", span, I128(0))
        lo_e = b.add(lo_e, b.select(neg, span, I128(0)))
        hi_e = b.add(hi_e, b.select(neg, I128(0), span))
    esize = b.sext(element_size(em, et), I128)
    base = b.sext(b.ptrtoint(d.aligned, I64), I128)
    lo = b.add(base, b.mul(lo_e, esize))
    hi = b.add(base, b.mul(b.add(hi_e, I128(1)), esize))
    fits = b.and_(b.icmp_signed(">=", lo, I128(0)), b.icmp_signed("<", hi, I128(1 << 63)))
    site = fault_id(f"'{op.name}' op runtime fault: {op.name}", op.loc)
    fn = em.m.declare("eqsat_view_ok", I32, [PTR, I64, I64, I32])
    wild = b.and_(b.not_(empty), b.or_(bad, b.not_(fits)))
    skip = b.or_(wild, empty)  # an empty range asks nothing of the registry
    lo64 = b.select(skip, I64(0), b.trunc(lo, I64))
    hi64 = b.select(skip, I64(0), b.trunc(hi, I64))
    ok = b.call(fn, [d.allocated, lo64, hi64, I32(site)])
    em.fault_if(wild, f"{op.name}: a view with negative or overflowing sizes", op)
    refused = b.or_(wild, b.and_(b.not_(empty), b.icmp_signed("==", ok, I32(0))))
    d.sizes = empty_if(em, refused, d.sizes)
    return d


def refuse_if(em: FuncEmitter, refused: ir.Value, d: MemDesc) -> MemDesc:
    """d holding no element where refused holds (the fault only reports: an access through
    a refused view that kept its sizes would still run wild)."""
    d.sizes = empty_if(em, refused, d.sizes)
    return d


def fault_unless(em: FuncEmitter, op: Operation, ok: ir.Value, message: str,
                 d: MemDesc) -> MemDesc:  # fmt: skip
    """In checked mode: a fault unless ok, and d emptied; else d as it is."""
    if not em.m.checked:
        return d
    em.fault_if(em.b.not_(ok), message, op)
    return refuse_if(em, em.b.not_(ok), d)


# -- use after free ----------------------------------------------------------------------------
PROBE = "eqsat.freed_probe"


def frees(module: Module) -> bool:
    """Does the module deallocate anything (only then can an access be a use after free)?"""
    return any(op.name in ("memref.dealloc", "memref.realloc") for op in module.walk())


def _probe(em: FuncEmitter) -> ir.Function:
    """The module's ``i1 probe(ptr allocated)``: was this buffer freed? A FILTER slot of 0
    answers no inline; a nonzero slot asks the runtime (a hash collision answers no there)."""
    fn = em.m.module.globals.get(PROBE)
    if fn is not None:
        return fn  # type: ignore[return-value]
    fn = ir.Function(em.m.module, ir.FunctionType(I1, [PTR]), PROBE)
    fn.linkage = "internal"
    table = em.m.module.globals.get("eqsat_freed_filter")
    if table is None:
        table = ir.GlobalVariable(em.m.module, ir.ArrayType(I8, 1 << FILTER_BITS),
                                  "eqsat_freed_filter")  # fmt: skip
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    h = b.lshr(b.mul(b.lshr(b.ptrtoint(fn.args[0], I64), I64(4)), I64(_GOLDEN)),
               I64(64 - FILTER_BITS))  # fmt: skip
    count = b.load(b.gep(table, [I64(0), h], inbounds=True), typ=I8)
    with b.if_then(b.icmp_unsigned("!=", count, I8(0)), likely=False):
        slow = em.m.declare("eqsat_freed", I32, [PTR])
        b.ret(b.icmp_unsigned("!=", b.call(slow, [fn.args[0]]), I32(0)))
    b.ret(I1(0))
    return fn


def check_live(em: FuncEmitter, op: Operation) -> None:
    """A fault at op if one of its memref operands' buffers was deallocated."""
    seen: set[int] = set()
    for v in op.operands:
        d = em.get(v)
        if isinstance(d, UnrankedDesc):
            d = d.ranked
        if not isinstance(d, MemDesc) or id(d.allocated) in seen:
            continue
        seen.add(id(d.allocated))
        freed = em.b.call(_probe(em), [d.allocated])
        em.fault_if(freed, f"{op.name} of a deallocated memref (use after free)", op)


def with_liveness(lowerings: dict[str, Lowering]) -> dict[str, Lowering]:
    """The lowerings, those of ops that touch memref elements preceded by check_live."""

    def live(lower: Lowering) -> Lowering:
        def checked_lower(em: FuncEmitter, op: Operation) -> Any:
            spec = op.spec
            if spec is not None and spec.touches_elements(op):
                check_live(em, op)
            return lower(em, op)

        return checked_lower

    return {name: live(lower) for name, lower in lowerings.items()}
