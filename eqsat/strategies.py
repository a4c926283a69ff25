"""Lowering strategies: each is an e-graph constructor equal to the op it lowers, and a
Python expander that materializes it as real vector ops when the term is decoded.

The registry and helpers live in ``eqsat.strategy_kit``; each family lives in a module of
its own. Importing this module registers every family, in a fixed order (the schema lists
strategies in registration order).
"""

from __future__ import annotations

from eqsat import (  # noqa: F401
    strategies_contract,
    strategies_reduction,
    strategies_shape,
    strategies_transfer,
    strategies_transpose,
)
from eqsat.strategy_kit import STRATEGIES, Emit, Strategy, ops_cost, strategy

__all__ = ["STRATEGIES", "Emit", "Strategy", "ops_cost", "strategy"]
