"""Lowering strategies as e-graph constructors (filled in below)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Strategy:
    name: str
    sorts: tuple[str, ...]
    doc: str
    expand: Callable[..., Any]
    cost: float = 1.0


STRATEGIES: dict[str, Strategy] = {}
