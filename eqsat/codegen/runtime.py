"""What compiled code calls back into: ``vector.print`` and runtime faults; and the
lowerings of ``vector.print`` and ``vector.mask``.

Printing goes through ctypes callbacks into Python that format with the interpreter's own
``frontend.semantics_print`` and write to ``sys.stdout``: the output is byte-identical to the
interpreter's (and so to mlir-runner's) and interleaves in order with Python's own output.
A fault sets a flag the caller turns into a ``RuntimeFault`` after the call returns.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir

from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.gather import Sources, arange, result_chunks
from eqsat.codegen.texts import FAULT_SITES, text_id
from eqsat.codegen.texts import TEXTS as _TEXTS
from eqsat.codegen.types import F64, I32, I64
from frontend.ir import Operation
from frontend.ops.runtime import elem, enum
from frontend.semantics_print import PUNCTUATION, format_print, format_scalar, write_text
from frontend.types import FloatType, IntegerType, VectorType

FAULTS: list[tuple[str, object]] = []  # faults raised by the running call: (message, loc)


ERRORS: list[BaseException] = []  # Python errors inside callbacks (a closed stdout, ...)


def _guarded(fn: Callable[..., None]) -> Callable[..., None]:
    """An exception cannot cross the JIT code: keep the first, re-raised after the call."""

    def call(*args: Any) -> None:
        if ERRORS or FAULTS:  # output stops at the first fault, as in the interpreter
            return
        try:
            fn(*args)
        except BaseException as e:  # noqa: BLE001 - re-raised by the caller
            ERRORS.append(e)

    return call


@_guarded
def _print_f(v: float, code: int) -> None:
    sys.stdout.write(format_scalar(np.float64(v), _TEXTS[code]))


@_guarded
def _print_i(v: int, code: int) -> None:
    e = _TEXTS[code]  # "u" + element: a uiN element, whose bits print unsigned
    unsigned = e.startswith("u")
    sys.stdout.write(format_scalar(np.int64(v), e[1:] if unsigned else e, unsigned=unsigned))


@_guarded
def _print_text(code: int) -> None:
    write_text(sys.stdout, _TEXTS[code])


def _fault(code: int) -> None:
    FAULTS.append(FAULT_SITES[code])


_F = ctypes.CFUNCTYPE(None, ctypes.c_double, ctypes.c_int32)(_print_f)
_I = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int32)(_print_i)
_T = ctypes.CFUNCTYPE(None, ctypes.c_int32)(_print_text)
_X = ctypes.CFUNCTYPE(None, ctypes.c_int32)(_fault)
SYMBOLS = {
    "eqsat_print_f": ctypes.cast(_F, ctypes.c_void_p).value,
    "eqsat_print_i": ctypes.cast(_I, ctypes.c_void_p).value,
    "eqsat_print_text": ctypes.cast(_T, ctypes.c_void_p).value,
    "eqsat_fault": ctypes.cast(_X, ctypes.c_void_p).value,
}


class _Printer:
    """Emits the calls of one vector.print, merging adjacent texts into one call."""

    def __init__(self, em: FuncEmitter) -> None:
        self.em = em
        self.pending = ""

    def text(self, s: str) -> None:
        self.pending += s

    def flush(self) -> None:
        if self.pending:
            fn = self.em.m.declare("eqsat_print_text", ir.VoidType(), [I32])
            self.em.b.call(fn, [I32(text_id(self.pending))])
            self.pending = ""

    def scalar(self, x: ir.Value, e: str, is_float: bool) -> None:
        self.flush()
        em = self.em
        code = I32(text_id(e))
        if is_float:
            v = x if x.type == F64 else em.b.fpext(x, F64)
            em.b.call(em.m.declare("eqsat_print_f", ir.VoidType(), [F64, I32]), [v, code])
        else:
            w = x.type.width
            v = x if w == 64 else em.b.zext(x, I64) if w == 1 else em.b.sext(x, I64)
            em.b.call(em.m.declare("eqsat_print_i", ir.VoidType(), [I64, I32]), [v, code])


def print_(em: FuncEmitter, op: Operation) -> Any:
    p = _Printer(em)
    lit = op.attributes.get("stringLiteral")
    if lit is not None:
        p.text(format_print(string=lit.value))
        p.flush()
        return None
    punct = enum(op, "punctuation") if "punctuation" in op.attributes else "newline"
    if op.operands:
        v, t = em.get(op.operands[0]), op.operands[0].type
        e = elem(t)
        et = t.element if isinstance(t, VectorType) else t
        is_float = isinstance(et, FloatType)
        if isinstance(et, IntegerType) and et.signedness == "unsigned":
            e = "u" + e  # printed as the interpreter prints uiN (eqsat.codegen.runtime._print_i)
        if not isinstance(t, VectorType):
            p.scalar(v, e, is_float)
        elif t.rank == 0:
            p.text("( ")
            p.scalar(em.layout.elems(em.b, v, t)[0], e, is_float)
            p.text(" )")
        else:
            elems = em.layout.elems(em.b, v, t)
            it = iter(elems)

            def rec(dims: tuple[int, ...]) -> None:
                p.text("( ")
                for i in range(dims[0]):
                    if i:
                        p.text(", ")
                    if len(dims) == 1:
                        p.scalar(next(it), e, is_float)
                    else:
                        rec(dims[1:])
                p.text(" )")

            rec(t.shape)
    p.text(PUNCTUATION[punct])
    p.flush()
    return None


def mask(em: FuncEmitter, op: Operation) -> Any:
    """Lower the region's op with em.mask set; then masked-off lanes of each result take the
    passthru (or zero for ops that ignore masks), as frontend.ops.vector_eval.mask."""
    from frontend.ops.spec import MASKABLE
    from frontend.ops.vector_eval import _lane_mask

    mask_v, mt = em.get(op.operands[0]), op.operands[0].type
    passthru = em.get(op.operands[1]) if len(op.operands) > 1 else None
    block = op.regions[0].blocks[0]
    inner = block.ops[0] if len(block.ops) > 1 else None
    saved, em.mask = em.mask, (mask_v, mt)
    try:
        results = em.run_block(block, [])
    finally:
        em.mask = saved
    if inner is None:
        return results
    out = []
    for r, rv in zip(results, op.results):
        rt = rv.type
        if not isinstance(rt, VectorType):
            out.append(r)
            continue
        shape = tuple(mt.shape)
        lanes = _lane_mask(inner, arange(mt) if shape else np.array(0), tuple(rt.shape))
        if lanes is None or (passthru is None and inner.spec.has(MASKABLE)):
            out.append(r)
            continue
        msrc = Sources.of(em, [(mask_v, mt)])
        flat = np.asarray(lanes).reshape(-1)
        other = em.chunks(passthru, rt) if passthru is not None else None
        pieces = []
        for i, (c, piece) in enumerate(zip(result_chunks(em, rt), em.chunks(r, rt))):
            alt = other[i] if other is not None else ir.Constant(piece.type, None)
            pieces.append(em.b.select(msrc.chunk(em, flat[c]), piece, alt))
        out.append(em.from_chunks(pieces, rt))
    return out


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "vector.print": print_,
    "vector.mask": mask,
}
