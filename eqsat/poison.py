"""Which lanes of which values are poison, while the interpreter runs (``ub.poison``).

A poison value's runtime filling is zeros (``frontend.ops.ub``); this module keeps, beside
it, a boolean lane mask per SSA value that holds some poison, and warns (``FILE:LINE:COL:
warning:``) where a poison lane reaches a printed or stored value. The masks are only kept
once the program has run a ``ub.poison``, so programs without one pay nothing.

How a mask moves through an op:

* elementwise ops: a result lane is poison when a lane it is computed from is (MLIR's poison
  propagates through arithmetic); ``arith.select`` (trait ``SELECTS``) is treated as below;
* every other op without regions (shape ops, reductions, contractions, reads, ops under
  ``vector.mask``) is run a second time with the poison lanes filled differently (NaN, a
  0x5A.. bit pattern, true): a result lane is poison when its value changed. That is exact
  for ops that only move lanes (insert chains over a poison base, shuffles, selects, padding
  of masked reads) and lets masked reductions ignore poison in masked-off lanes. It can miss
  a lane whose value happens to be the same under both fillings (``cmpi eq`` of poison with
  a third value): such a lane is reported defined;
* writes are run a second time with the other filling on a saved copy of the memory they
  touch: if the memory changed, poison was stored (warning), and the first write is kept;
* ops with regions and calls hand masks to their block arguments and take them back from
  their terminators by the identity of the runtime arrays they pass on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend.ir import Operation, Value
from frontend.ops.spec import ELEMENTWISE, PRINTS, SELECTS, UNDEFINED, WRITES
from frontend.semantics import MemRef

_FAULTS = (Exception,)  # a rerun with the other filling may fault where the first did not


def _other_filling(x: Any, mask: np.ndarray) -> Any:
    """``x`` with its poison lanes holding the second filling."""
    a = np.asarray(x)
    if a.dtype.kind == "f":
        alt = np.asarray(np.nan, dtype=a.dtype)
    elif a.dtype.kind == "b":
        alt = np.asarray(True)
    else:
        alt = np.asarray(0x5A5A5A5A5A5A5A5A, dtype=np.int64).astype(a.dtype)
    out = np.where(mask, alt, a)
    return out if isinstance(x, np.ndarray) else out[()]


def _changed(a: Any, b: Any) -> np.ndarray:
    """Lanes where two runtime values differ (NaN equals NaN)."""
    x, y = np.asarray(a), np.asarray(b)
    same = x == y
    if x.dtype.kind == "f":
        same |= np.isnan(x) & np.isnan(y)
    return ~same


def _is_lanes(x: Any) -> bool:
    return isinstance(x, (np.ndarray, np.generic)) and not isinstance(x, np.bool_)


class PoisonLanes:
    """The poison lane masks of one interpreter run (see the module docstring)."""

    def __init__(self, warn: Any) -> None:
        self.warn = warn  # Interpreter.warn: (op, message)
        self.masks: dict[Value, np.ndarray] = {}
        # runtime objects handed across a region boundary: id -> (object, its mask)
        self._carried: dict[int, tuple[Any, np.ndarray]] = {}

    # -- bookkeeping -----------------------------------------------------------------------
    def _set(self, v: Value, x: Any, mask: np.ndarray | None) -> None:
        if mask is not None and mask.any():
            self.masks[v] = mask
        else:
            self.masks.pop(v, None)

    def _carry(self, x: Any, mask: np.ndarray | None) -> None:
        if mask is not None and _is_lanes(x):
            self._carried[id(x)] = (x, mask)

    def _taken(self, x: Any) -> np.ndarray | None:
        got = self._carried.get(id(x))
        return got[1] if got is not None and got[0] is x else None

    def enter_block(self, block_args: list[Value], values: Any) -> None:
        """Block arguments take the masks of the objects their parent handed in."""
        for a, x in zip(block_args, values):
            self._set(a, x, self._taken(x))

    # -- one op ----------------------------------------------------------------------------
    def run(self, interp: Any, st: Any, flat: list[Any], group: Any) -> Any:
        """Run step ``st`` on operands ``flat`` (``group`` arranges them for its eval) and
        record its results' masks; returns what the eval returned."""
        op: Operation = st.op
        spec = op.spec
        masks = [self.masks.get(v) for v in st.operands]
        poisoned = any(m is not None for m in masks)
        if op.regions or st.terminator or op.name == "func.call":
            for x, m in zip(flat, masks):
                self._carry(x, m)
            r = st.fn(interp, op, *group(flat))
            if st.terminator:
                return r
            outs = self._outs(st, r)
            for v, x in zip(st.results, outs):
                self._set(v, x, self._taken(x))
            self._carried.clear()
            return r
        r = st.fn(interp, op, *group(flat))
        if spec is not None and spec.has(UNDEFINED):
            for v, x in zip(st.results, self._outs(st, r)):
                self._set(v, x, np.ones(np.shape(x), dtype=bool))
            return r
        if not poisoned:
            for v in st.results:
                self.masks.pop(v, None)
            return r
        if spec is not None and spec.has(PRINTS):
            lanes = sum(int(m.sum()) for m in masks if m is not None)
            self.warn(op, f"prints {lanes} poison lane(s) (undefined in MLIR; 0 here)")
            return r
        if spec is not None and spec.has(WRITES):
            self._check_write(interp, st, flat, masks, group)
            return r
        outs = self._outs(st, r)
        if spec is not None and spec.has(ELEMENTWISE) and not spec.has(SELECTS):
            for v, x in zip(st.results, outs):
                lanes = np.zeros(np.shape(x), dtype=bool)
                for m in masks:
                    if m is not None:
                        lanes = lanes | np.broadcast_to(m, lanes.shape)
                self._set(v, x, lanes)
            return r
        alt = [x if m is None else _other_filling(x, m) for x, m in zip(flat, masks)]
        try:
            outs2 = self._outs(st, st.fn(interp, op, *group(alt)))
        except _FAULTS:
            outs2 = None
        for i, (v, x) in enumerate(zip(st.results, outs)):
            if not _is_lanes(x):
                self.masks.pop(v, None)
            elif outs2 is None:
                self._set(v, x, np.ones(np.shape(x), dtype=bool))
            else:
                self._set(v, x, _changed(x, outs2[i]))
        return r

    def _check_write(self, interp: Any, st: Any, flat: list, masks: list, group: Any) -> None:
        """Store again with the other filling; if memory changes, poison was stored."""
        bufs = [x.buffer for x in flat if isinstance(x, MemRef)]
        saved = [b.copy() for b in bufs]
        alt = [x if m is None else _other_filling(x, m) for x, m in zip(flat, masks)]
        try:
            st.fn(interp, st.op, *group(alt))
            stored = any(_changed(b, s).any() for b, s in zip(bufs, saved))
        except _FAULTS:
            stored = True
        for b, s in zip(bufs, saved):
            np.copyto(b, s)
        if stored:
            self.warn(st.op, "stores poison lane(s) (undefined in MLIR; 0 here)")

    @staticmethod
    def _outs(st: Any, r: Any) -> list[Any]:
        if not st.results:
            return []
        return list(r) if st.multi else [r]
