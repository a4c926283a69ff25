"""A flat address space for ``!llvm.ptr``: pointers are plain i64 addresses into the numpy
buffers that memrefs view, so the llvm dialect's pointer arithmetic (``inttoptr``,
``getelementptr``) and the masked memory intrinsics run in the interpreter.

Each buffer gets a base address the first time a program asks for it
(``memref.extract_aligned_pointer_as_index``): buffer k starts at ``(k + 1) << 40``. An address
resolves to (buffer, element index); reading or writing an address outside every buffer, or
not on an element boundary, is a SemanticsError (what would be undefined behaviour in LLVM).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from .semantics_core import SemanticsError, as_elem, dtype_of

_SHIFT = 40
_buffers: dict[int, weakref.ref] = {}  # slot -> buffer
_slots: dict[int, int] = {}  # id(buffer) -> slot


def address_of(buffer: np.ndarray) -> int:
    """The base address of ``buffer`` (stable while the buffer lives)."""
    slot = _slots.get(id(buffer))
    if slot is not None and _buffers[slot]() is buffer:
        return (slot + 1) << _SHIFT
    slot = len(_buffers)
    _buffers[slot] = weakref.ref(buffer)
    _slots[id(buffer)] = slot
    return (slot + 1) << _SHIFT


def resolve(address: int, elem: str, count: int) -> tuple[np.ndarray, int]:
    """(buffer, first element index) for ``count`` elements of ``elem`` at ``address``."""
    slot, byte = (int(address) >> _SHIFT) - 1, int(address) & ((1 << _SHIFT) - 1)
    ref = _buffers.get(slot)
    buffer = ref() if ref is not None else None
    if buffer is None:
        raise SemanticsError(f"address {int(address):#x} is in no live buffer")
    if buffer.dtype != dtype_of(elem) or buffer.ndim != 1:
        raise SemanticsError(f"address {int(address):#x} does not hold {elem} elements")
    size = buffer.dtype.itemsize
    if byte % size:
        raise SemanticsError(f"address {int(address):#x} is not on a {elem} boundary")
    first = byte // size
    if first < 0 or first + count > buffer.shape[0]:
        raise SemanticsError(
            f"access of {count} x {elem} at element {first} leaves its buffer of "
            f"{buffer.shape[0]}"
        )
    return buffer, first


def offset(address: int, index: int, elem_bytes: int) -> np.int64:
    """``getelementptr``: the address ``index`` elements of ``elem_bytes`` further."""
    return np.int64(int(address) + int(index) * elem_bytes)


def masked_load(address: int, mask: Any, passthru: Any, elem: str) -> np.ndarray:
    """Lane i reads element i at ``address`` where the mask is set, else the passthru lane."""
    m = np.asarray(mask, dtype=np.bool_)
    out = np.array(as_elem(passthru, elem), copy=True)
    lanes = np.nonzero(m)[0]
    if lanes.size:
        buffer, first = resolve(address, elem, int(lanes[-1]) + 1)
        out[lanes] = buffer[first + lanes]
    return out


def masked_store(value: Any, address: int, mask: Any, elem: str) -> None:
    """Element i at ``address`` gets lane i where the mask is set; nothing else is written."""
    m = np.asarray(mask, dtype=np.bool_)
    lanes = np.nonzero(m)[0]
    if lanes.size:
        buffer, first = resolve(address, elem, int(lanes[-1]) + 1)
        buffer[first + lanes] = np.asarray(as_elem(value, elem))[lanes]


def expand_load(address: int, mask: Any, passthru: Any, elem: str) -> np.ndarray:
    """The set lanes, in order, read consecutive elements at ``address``; others: passthru."""
    m = np.asarray(mask, dtype=np.bool_)
    out = np.array(as_elem(passthru, elem), copy=True)
    n = int(m.sum())
    if n:
        buffer, first = resolve(address, elem, n)
        out[m] = buffer[first : first + n]
    return out


def compress_store(value: Any, address: int, mask: Any, elem: str) -> None:
    """The set lanes of ``value``, in order, are written to consecutive elements."""
    m = np.asarray(mask, dtype=np.bool_)
    n = int(m.sum())
    if n:
        buffer, first = resolve(address, elem, n)
        buffer[first : first + n] = np.asarray(as_elem(value, elem))[m]


def gather(addresses: Any, mask: Any, passthru: Any, elem: str) -> np.ndarray:
    """Lane i reads the element at ``addresses[i]`` where the mask is set, else passthru."""
    m = np.asarray(mask, dtype=np.bool_)
    out = np.array(as_elem(passthru, elem), copy=True)
    for lane in np.nonzero(m)[0]:
        buffer, at = resolve(int(np.asarray(addresses)[lane]), elem, 1)
        out[lane] = buffer[at]
    return out


def scatter(value: Any, addresses: Any, mask: Any, elem: str) -> None:
    """The element at ``addresses[i]`` gets lane i where the mask is set (in lane order)."""
    m = np.asarray(mask, dtype=np.bool_)
    v = np.asarray(as_elem(value, elem))
    for lane in np.nonzero(m)[0]:
        buffer, at = resolve(int(np.asarray(addresses)[lane]), elem, 1)
        buffer[at] = v[lane]
