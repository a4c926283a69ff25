"""The op table: every op we know, one ``OpSpec`` each, registered by dialect module."""

from __future__ import annotations

from frontend.ops.spec import OpSpec

REGISTRY: dict[str, OpSpec] = {}
_loaded = False


def register(*specs: OpSpec) -> None:
    for spec in specs:
        assert spec.name not in REGISTRY, f"duplicate op spec {spec.name}"
        REGISTRY[spec.name] = spec


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from frontend.ops import (  # noqa: F401
        arith,
        builtin,
        func,
        math,
        memref,
        memref_views,
        scf,
        transform,
        vector,
        vector_memory,
    )


def lookup(name: str) -> OpSpec | None:
    if not _loaded:
        _load()
    return REGISTRY.get(name)


def all_specs() -> dict[str, OpSpec]:
    _load()
    return dict(REGISTRY)
