"""Where the op-table modules register their ``OpSpec``s (``frontend.ops`` assembles them)."""

from __future__ import annotations

from frontend.ops.spec import OpSpec

REGISTRY: dict[str, OpSpec] = {}


def register(*specs: OpSpec) -> None:
    for spec in specs:
        assert spec.name not in REGISTRY, f"duplicate op spec {spec.name}"
        REGISTRY[spec.name] = spec
