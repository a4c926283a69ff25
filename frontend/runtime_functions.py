"""Functions of MLIR's runner libraries a program may declare and call (``func.func private
@printMemrefF32(memref<*xf32>)``), with the output format of ``libmlir_runner_utils``.

``printMemref<T>`` prints the descriptor, then the data as nested brackets (measured,
mlir-runner-22)::

    Unranked Memref base@ = 0x55ae4395ea50 rank = 2 offset = 7 sizes = [2, 2] strides = [6, 1] \
data =
    [[2.5,   0],
     [0,   0]]

The base address is the buffer's address in our process (views of one buffer print the same),
so only it differs from MLIR's output. Floats print as C++ streams do (``%g``), integers in
decimal; ``index`` elements are printed by ``printMemrefInd``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TextIO


from frontend.semantics_core import SemanticsError
from frontend.semantics_memory import MemRef
from frontend.semantics_print import format_scalar

__all__ = ["RUNTIME_FUNCTIONS", "format_memref"]

#: printMemref suffix -> the element type it prints.
_PRINT_MEMREF = {
    "F16": "f16",
    "BF16": "bf16",
    "F32": "f32",
    "F64": "f64",
    "I32": "i32",
    "I64": "i64",
    "Ind": "index",
}


def _data(mem: MemRef, dim: int, offset: int, out: list[str]) -> None:
    """MLIR's MemRefDataPrinter::print: ``dim`` dims left, element ``offset`` in the buffer."""
    rank = mem.rank
    if dim == 0:
        out.append(format_scalar(mem.buffer[offset], mem.elem))
        return
    d = rank - dim
    size, stride = mem.sizes[d], mem.strides[d]
    out.append("[")
    _data(mem, dim - 1, offset, out)
    if size <= 1:
        out.append("]")
        return
    out.append(", " + ("\n" if dim > 1 else ""))
    for i in range(1, size - 1):
        out.append(" " * (rank - dim + 1))
        _data(mem, dim - 1, offset + i * stride, out)
        out.append(", " + ("\n" if dim > 1 else ""))
    out.append(" " * (rank - dim + 1))
    _data(mem, dim - 1, offset + (size - 1) * stride, out)
    out.append("]")


def format_memref(mem: MemRef) -> str:
    """What ``printMemref<T>`` of an unranked memref prints (see the module docstring)."""
    if mem.vector_shape:
        raise SemanticsError(f"printMemref of a memref of vectors ({mem.type_str()})")
    if 0 in mem.sizes:
        raise SemanticsError(f"printMemref of an empty memref ({mem.type_str()}) is not supported")
    head = (
        f"Unranked Memref base@ = 0x{id(mem.buffer):x} rank = {mem.rank} offset = {mem.offset}"
        f" sizes = [{', '.join(map(str, mem.sizes))}]"
        f" strides = [{', '.join(map(str, mem.strides))}] data = \n"
    )
    parts: list[str] = ["["] if mem.rank == 0 else []
    _data(mem, mem.rank, mem.offset, parts)
    if mem.rank == 0:
        parts.append("]")
    return head + "".join(parts) + "\n"


def _print_memref(elem: str) -> Callable[[TextIO, Sequence[Any]], list[Any]]:
    def call(out: TextIO, args: Sequence[Any]) -> list[Any]:
        (mem,) = args
        if not isinstance(mem, MemRef) or mem.elem != elem:
            raise SemanticsError(f"printMemref of {elem} called on {mem!r}")
        out.write(format_memref(mem))
        return []

    return call


#: name -> implementation (output stream, runtime arguments) -> results.
RUNTIME_FUNCTIONS: dict[str, Callable[[TextIO, Sequence[Any]], list[Any]]] = {
    f"printMemref{suffix}": _print_memref(elem) for suffix, elem in _PRINT_MEMREF.items()
}
