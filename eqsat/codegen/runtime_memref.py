"""``printMemref<T>`` of the runner libraries, for compiled code: a call to the declared
function passes the unranked memref's ranked descriptor to a ctypes callback, which views the
memory with numpy and prints with the interpreter's own ``frontend.runtime_functions`` (as
``vector.print`` does through ``eqsat.codegen.runtime``). The printed base address is the
aligned pointer (views of one buffer print the same base, as in MLIR).
"""

from __future__ import annotations

import ctypes
import re
import sys
from typing import Any

import numpy as np
from llvmlite import ir

from eqsat.codegen.descriptor import MemDesc, UnrankedDesc
from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.runtime import ERRORS, FAULTS
from eqsat.codegen.texts import FAULT_SITES, TEXTS, fault_id, text_id
from eqsat.codegen.types import I32, I64, PTR, CodegenError
from frontend.ir import Operation
from frontend.runtime_functions import _PRINT_MEMREF, format_memref
from frontend.semantics import dtype_of
from frontend.semantics_core import SemanticsError
from frontend.semantics_memory import MemRef

_BASE = re.compile(r"base@ = 0x[0-9a-f]+")


def _print_memref(code: int, fault: int, rank: int, aligned: int, offset: int, ss: Any) -> None:
    if ERRORS or FAULTS:  # output stops at the first fault, as in the interpreter
        return
    try:
        e = TEXTS[code]
        sizes = [int(ss[i]) for i in range(rank)]
        strides = [int(ss[rank + i]) for i in range(rank)]
        dtype = np.dtype(dtype_of(e))
        if 0 in sizes:
            raise SemanticsError(f"printMemref of an empty memref (sizes {sizes})")
        lo = offset + sum(min(0, (s - 1) * st) for s, st in zip(sizes, strides))
        hi = offset + sum(max(0, (s - 1) * st) for s, st in zip(sizes, strides)) + 1
        if lo < 0:
            raise SemanticsError("printMemref of a view reaching before its buffer")
        raw = (ctypes.c_char * (hi * dtype.itemsize)).from_address(aligned)
        mem = MemRef(np.frombuffer(raw, dtype=dtype), offset, sizes, strides, e)
        sys.stdout.write(_BASE.sub(f"base@ = 0x{aligned:x}", format_memref(mem), count=1))
    except SemanticsError as err:
        msg, loc = FAULT_SITES[fault]
        FAULTS.append((f"{msg}: {err}", loc))
    except BaseException as err:  # noqa: BLE001 - re-raised by the caller
        ERRORS.append(err)


_P = ctypes.CFUNCTYPE(
    None,
    ctypes.c_int32,
    ctypes.c_int32,
    ctypes.c_int64,
    ctypes.c_uint64,
    ctypes.c_int64,
    ctypes.POINTER(ctypes.c_int64),
)(_print_memref)
SYMBOLS = {"eqsat_print_memref": ctypes.cast(_P, ctypes.c_void_p).value}


def runtime_call(em: FuncEmitter, op: Operation, name: str) -> bool:
    """Lower a call to a runner-library function we implement; False if name is not one."""
    suffix = name.removeprefix("printMemref") if name.startswith("printMemref") else None
    e = _PRINT_MEMREF.get(suffix or "")
    if e is None or len(op.operands) != 1 or op.results:
        return False
    u = em.get(op.operands[0])
    d: MemDesc = u.ranked if isinstance(u, UnrankedDesc) else u
    if not isinstance(d, MemDesc):
        raise CodegenError(f"@{name} takes a memref", op)
    r = len(d.sizes)
    arr = ir.ArrayType(I64, max(1, 2 * r))
    ss = em.alloca(arr)
    ss.type = PTR  # opaque pointers (llvmlite would type-check the stores against it)
    for i, x in enumerate([*d.sizes, *d.strides]):
        em.b.store(x, em.b.gep(ss, [I32(0), I32(i)], source_etype=arr))
    site = fault_id(f"'{op.name}' op runtime fault: @{name}", op.loc)
    fn = em.m.declare("eqsat_print_memref", ir.VoidType(), [I32, I32, I64, PTR, I64, PTR])
    args = [I32(text_id(e)), I32(site), I64(r), d.aligned, d.offset, ss]
    em.b.call(fn, args)
    return True
