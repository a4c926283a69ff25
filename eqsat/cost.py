"""Cost models for extraction: an own cost per constructor, plus the children's costs.

A target's model (``costs/<target>.toml``, a later stage) prices each hardware op by width;
here lives the target-independent VV model that ``eqsat opt --emit vv`` uses: every op costs
one, bookkeeping nodes (types, lists, leaves, states) cost nothing, and each lowering
strategy costs what it expands to, so that at VV level the compact op is kept unless a cost
table says otherwise.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

from eqsat.extract import Literal

type CostModel = Callable[[str, tuple[Literal, ...], tuple[float, ...]], float]

INFINITE = frozenset({"ListAt"})  # rule helpers with no MLIR form
FREE = frozenset({
    "VT", "TT", "PMap", "TNil", "TCons", "Arg", "Outer", "StInit", "Res", "MemOut", "IOOut",
    "Exit",
})


def table_cost(own: Mapping[str, float], default: float = 1.0) -> CostModel:
    """Cost = own[op] (``default`` for unlisted constructors) + the children's costs."""
    free = dict.fromkeys(FREE, 0.0) | dict.fromkeys(INFINITE, float("inf"))

    def cost(op: str, literals: tuple[Literal, ...], children: tuple[float, ...]) -> float:
        base = free.get(op)
        if base is None:
            base = own.get(op, default)
            if callable(base):
                base = base(literals)
        return base + sum(children)

    return cost


def vv_cost(overrides: Mapping[str, float] | None = None) -> CostModel:
    from eqsat.strategies import STRATEGIES

    own: dict[str, float] = {name: s.cost for name, s in STRATEGIES.items()}
    own.update(overrides or {})
    return table_cost(own)


def load_costs(path: str | Path) -> dict[str, float]:
    """A TOML cost table: ``[ops]`` maps constructor names (``Transpose``) to costs."""
    data = tomllib.loads(Path(path).read_text())
    return {str(k): float(v) for k, v in data.get("ops", {}).items()}
