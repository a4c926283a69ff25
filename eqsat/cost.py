"""Cost models for extraction: an own cost per constructor, plus the children's costs.

A target's model (``costs/<target>.toml``, ``eqsat.targets.costmodel``) prices each op by
the registers it spans; here lives the target-independent VV model that ``eqsat opt`` uses
without a target: every op costs one, bookkeeping nodes (types, lists, leaves, states) cost
nothing, and each lowering strategy costs the number of ops it expands to, so that at VV
level the compact op is kept unless a cost table says otherwise.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

from eqsat.extract import Literal

type CostModel = Callable[[str, tuple[Literal, ...], tuple[float, ...]], float]

INFINITE: frozenset[str] = frozenset()  # rule helpers with no MLIR form
FREE = frozenset(
    {
        "ListAt",  # selects an existing operand: no op of its own
        "VT",
        "TT",
        "PMap",
        "TNil",
        "TCons",
        "Arg",
        "Outer",
        "StInit",
        "Res",
        "MemOut",
        "IOOut",
        "Exit",
    }
)


def table_cost(
    own: Mapping[str, float], default: float = 1.0, tile_slice: float = 0.0
) -> CostModel:
    """Cost = own[op] (``default`` for unlisted constructors) + the children's costs.

    Two nodes are priced specially: ``Tiled`` multiplies its kernel by its tile count, and
    ``TileOf`` costs ``tile_slice`` without its source (paid once by the ``Tiled`` node)."""
    free = dict.fromkeys(FREE, 0.0) | dict.fromkeys(INFINITE, float("inf"))

    def cost(op: str, literals: tuple[Literal, ...], children: tuple[float, ...]) -> float:
        if op == "Tiled":  # (Tiled t count tile kernel srcs): the kernel runs once per tile
            return children[0] + literals[0] * children[1] + sum(children[2:])
        if op in ("TileOf", "TileAt"):  # a slice; its source is paid by the enclosing Tiled
            return tile_slice
        base = free.get(op)
        if base is None:
            base = own.get(op, default)
            if callable(base):
                base = base(literals)
        return base + sum(children)

    return cost


def width_cost(per_lane: Mapping[str, float], default: float = 1.0) -> CostModel:
    """A crude width-aware model for experiments without a target: an op's own cost is
    ``per_lane[op]`` times the lanes of its result type (from the ``("type", ...)`` literal
    the snapshot appends), else ``default``."""

    def own(op: str) -> Callable[[tuple[Literal, ...]], float]:
        def f(literals: tuple[Literal, ...]) -> float:
            t = literals[-1] if literals and isinstance(literals[-1], tuple) else None
            if t and t[0] == "type" and len(t) == 3:
                n = 1
                for d in t[1]:
                    n *= d
                return per_lane[op] * n
            return per_lane[op]

        return f

    return table_cost({op: own(op) for op in per_lane}, default)


def vv_cost(overrides: Mapping[str, float] | None = None) -> CostModel:
    from eqsat.strategies import STRATEGIES

    own: dict[str, float] = {name: s.cost for name, s in STRATEGIES.items()}
    own.update(overrides or {})
    return table_cost(own)


def load_costs(path: str | Path) -> dict[str, float]:
    """A TOML cost table: ``[ops]`` maps constructor names (``Transpose``) to costs."""
    data = tomllib.loads(Path(path).read_text())
    return {str(k): float(v) for k, v in data.get("ops", {}).items()}
