"""Reference semantics of buffer lifetimes: which buffers ``memref.alloc`` made, which
``memref.dealloc`` (or ``memref.realloc``) ended, and the faults MLIR leaves undefined: an
access to a deallocated buffer (use after free), a second dealloc (double free), the dealloc
of a buffer ``memref.alloc`` did not make.

Views share their source's numpy buffer (or a numpy view of it, whose ``base`` is the
buffer), so a buffer is known by the array that owns its memory. Freed buffers are kept
(quarantined, up to ``QUARANTINE_BYTES``) until the call returns, so their identity is
never reused by a later allocation while a stale view may still reach them; as in checked
compiled code (``eqsat.codegen.runtime_checked``), a buffer released from a full quarantine
is no longer recognised.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

import numpy as np

from .semantics_core import SemanticsError
from .semantics_memory import MemRef

QUARANTINE_BYTES = 1 << 28


def not_from_alloc(maker: str) -> str:
    """The fault of a dealloc of a buffer ``maker`` made (``memref.alloca``, ``memref.global``,
    ``argument``): the interpreter's and checked compiled code's words."""
    return f"the memref is not from memref.alloc (it is {'an' if maker[0] in 'aeiou' else 'a'} {maker})"


def _owner(buf: np.ndarray) -> np.ndarray:
    base = buf.base
    return base if isinstance(base, np.ndarray) else buf


class Heap:
    """The interpreter's record of memref.alloc buffers (see the module docstring)."""

    def __init__(self) -> None:
        self._live: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()
        self._freed: dict[int, np.ndarray] = {}
        self._freed_bytes = 0
        self._made_by: dict[int, tuple[weakref.ref[np.ndarray], str]] = {}  # not by alloc

    def note(self, mem: MemRef, maker: str) -> MemRef:
        """Record what made a buffer that memref.dealloc must refuse (``memref.alloca``,
        ``memref.global``, ``argument``), so that the refusal can say so."""
        buf = _owner(mem.buffer)
        key = id(buf)
        made_by = self._made_by
        known = made_by.get(key)
        if known is not None and known[0]() is buf:  # a get_global in a loop: noted once
            return mem

        def forget(ref: weakref.ref[np.ndarray]) -> None:
            if made_by.get(key, (None,))[0] is ref:
                del made_by[key]

        made_by[key] = (weakref.ref(buf, forget), maker)
        return mem

    def __bool__(self) -> bool:
        """Has anything been freed (only then can an access be a use after free)?"""
        return bool(self._freed)

    def alloc(self, mem: MemRef) -> MemRef:
        """Record mem as a fresh memref.alloc buffer."""
        buf = _owner(mem.buffer)
        self._live[id(buf)] = buf
        return mem

    def free(self, mem: MemRef, what: str) -> None:
        """memref.dealloc of mem: a SemanticsError unless its buffer is a live alloc."""
        buf = _owner(mem.buffer)
        key = id(buf)
        if self._freed.get(key) is buf:
            raise SemanticsError(f"{what}: the memref was already deallocated (double free)")
        if self._live.get(key) is not buf:
            ref, maker = self._made_by.get(key, (None, ""))
            if ref is not None and ref() is buf:  # the words of checked compiled code
                raise SemanticsError(f"{what}: {not_from_alloc(maker)}")
            raise SemanticsError(f"{what}: the memref was not allocated by memref.alloc")
        del self._live[key]
        self._freed[key] = buf
        self._freed_bytes += buf.nbytes
        while self._freed_bytes > QUARANTINE_BYTES:
            oldest = self._freed.pop(next(iter(self._freed)))
            self._freed_bytes -= oldest.nbytes

    def check(self, values: Iterable[Any], what: str) -> None:
        """A SemanticsError if one of values is a memref whose buffer was deallocated."""
        for v in values:
            if isinstance(v, MemRef):
                buf = _owner(v.buffer)
                if self._freed.get(id(buf)) is buf:
                    raise SemanticsError(f"{what} of a deallocated memref (use after free)")

    def clear(self) -> None:
        """Forget everything (when the outermost call returns)."""
        self._live.clear()
        self._freed.clear()
        self._freed_bytes = 0
        self._made_by.clear()
