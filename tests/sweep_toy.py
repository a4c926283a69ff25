"""Run functions for the sweep tests: pure functions of their spec, importable by workers."""

from __future__ import annotations

from typing import Any

from experiments.sweeplib import Spec


def square(spec: Spec) -> dict[str, Any]:
    x = spec.params["x"]
    if spec.params.get("fail"):
        raise ValueError(f"configured to fail at x={x}")
    return {"y": x * x, "seed": spec.seed}
