"""The op table: every op we know, one ``OpSpec`` each, registered by dialect module.

A dialect module calls ``register(...)`` (``frontend.ops.registry``; re-exported here) and is
listed in ``_load``. Importing this package installs ``lookup`` in the IR core
(``frontend.ir.use_op_table``), so every ``Operation`` knows its spec.
"""

from __future__ import annotations

import threading

from frontend import ir
from frontend.ops.registry import REGISTRY, register
from frontend.ops.spec import OpSpec

__all__ = ["REGISTRY", "all_specs", "lookup", "register"]
_loaded = False
_loading = False
# Held while the dialect modules import: another thread's lookup waits for the whole table
# (a flag set before the imports finish would let it see a half-filled table).
_lock = threading.RLock()


def _load() -> None:
    global _loaded, _loading
    if _loaded:
        return
    with _lock:
        if _loaded or _loading:  # done, or a lookup made by the imports below
            return
        _loading = True
        try:
            _import_dialects()
        finally:
            _loading = False
        _loaded = True


def _import_dialects() -> None:
    from frontend.ops import (  # noqa: F401
        affine,
        arith,
        arm_neon,
        builtin,
        func,
        llvm,
        llvm_memory,
        math,
        memref,
        memref_views,
        scf,
        transform,
        ub,
        vector,
        vector_memory,
        x86vector,
    )


def lookup(name: str) -> OpSpec | None:
    if not _loaded:
        _load()
    return REGISTRY.get(name)


def all_specs() -> dict[str, OpSpec]:
    _load()
    return dict(REGISTRY)


ir.use_op_table(lookup)
