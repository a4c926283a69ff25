"""Lowering choices a module's transform script forces, as cost overrides for extraction.

``frontend.ops.transform.module_strategy_choices`` reads which strategy MLIR would use per
vector op (MLIR 22 names). Here each name maps to our strategy constructor; every other
strategy of that op (also those MLIR has no name for) becomes unextractable (cost inf), and the op itself is kept only where the
chosen strategy does not apply (MLIR's patterns leave such an op as it is).
"""

from __future__ import annotations

from collections.abc import Mapping

from frontend.ir import Module
from frontend.ops.transform import LOWERINGS, module_strategy_choices

#: Per lowered op: its own constructor, and MLIR strategy name -> our strategy constructor.
FAMILIES: dict[str, tuple[str, dict[str, str]]] = {
    "vector.contract": (
        "Contract",
        {
            "dot": "ContractDot",
            "outerproduct": "ContractOuter",
            "llvmintr": "ContractMatmul",
            "parallelarith": "ContractParallel",
        },
    ),
    "vector.transpose": (
        "Transpose",
        {
            "eltwise": "TransposeElementwise",
            "llvmintr": "TransposeFlat",
            "shuffle_1d": "TransposeShuffle",
            "shuffle_16x16": "TransposeShuffle16x16",
        },
    ),
    "vector.multi_reduction": (
        "MultiReduction",
        {
            "innerparallel": "MultiReductionInnerParallel",
            "innerreduction": "MultiReductionInnerReduction",
        },
    ),
}
#: Our constructor that computes MLIR's strategy in fp-contract mode (``eqsat.optimizer``'s
#: FP_CONTRACT: the other is left out there, this one exists only there): forced together.
FP_CONTRACT_TWINS = {"ContractOuter": "ContractOuterFused"}
#: The cost of the op itself under a forced choice: finite, so that the op stays where the
#: chosen strategy does not apply, and far above any lowering.
KEPT_OP_COST = 1e12

# Every strategy name the transform dialect accepts has a constructor here.
assert all(
    set(names) == set(FAMILIES[target][1]) for target, names, _ in LOWERINGS.values()
), "frontend.ops.transform.LOWERINGS and FAMILIES disagree"


def own_strategies(op: str) -> list[str]:
    """Our strategy constructors of ``op`` that MLIR has no name for (the 8x8 and 4x4
    transposes, the contraction's pair broadcasts), in a fixed order."""
    from eqsat.strategies import STRATEGIES

    own, names = FAMILIES[op]
    twins = {FP_CONTRACT_TWINS.get(n) for n in names.values()}
    return sorted(s for s in STRATEGIES
                  if s.startswith(own) and s not in names.values() and s not in twins)


def forced_cost_overrides(choices: Mapping[str, str]) -> dict[str, float]:
    """Cost overrides that make extraction pick ``choices`` ({op name: MLIR strategy, or one
    of our constructors of that op, ``own_strategies``})."""
    out: dict[str, float] = {}
    from eqsat.strategies import STRATEGIES

    for target, strategy in choices.items():
        own, names = FAMILIES[target]
        if strategy not in names and strategy not in own_strategies(target):
            raise ValueError(f"{target} has no strategy {strategy!r}")
        chosen = names.get(strategy, strategy)
        kept = {chosen, FP_CONTRACT_TWINS.get(chosen, chosen)}
        # every other lowering of the op, also ours that MLIR has no name for (8x8 transposes)
        for constructor in {*names.values(), *(s for s in STRATEGIES if s.startswith(own))}:
            if constructor not in kept:
                out[constructor] = float("inf")
        out[own] = KEPT_OP_COST
    return out


def module_cost_overrides(module: Module) -> dict[str, float]:
    """``forced_cost_overrides`` of the module's own transform script (empty without one)."""
    return forced_cost_overrides(module_strategy_choices(module))
