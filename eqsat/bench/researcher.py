"""Researcher variants as named rows of ``eqsat bench``: eqsat's code for the same target with
another cost table (``--costs FILE``, one row each), a rule file of one's own (``--rules FILE``,
one row each) or cost overrides (``--cost NAME=C``, one row for all), timed next to eqsat's
own row under the same LLVM options. A variant whose LLVM IR equals another row's is timed
once and listed under it ("identical LLVM IR"), so a change that changes nothing shows as such.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from eqsat.bench.variants import Variant
from eqsat.cost_options import load_vv_costs
from eqsat.targets import Target, load_target
from frontend.ir import Module


def cost_model(target: Target, costs: str | None, overrides: Mapping[str, float]) -> Any:
    """The hwv cost model of a row: a ``[target]`` file's own model, or ``target``'s with a VV
    table's ``[ops]`` entries and ``overrides`` on top. Errors (``TargetError``,
    ``CostFileError``, ``OSError``) name the file and line."""
    merged = dict(overrides)
    model_of = target
    if costs is not None:
        text = Path(costs).read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            data = {"target": None}  # the target loader reports it at its line
        if "target" in data:
            model_of = load_target(costs)
        else:
            merged = {**load_vv_costs(costs, data, text), **merged}
    return model_of.cost_model(merged, "hwv", False)


def researcher_variants(
    module: Module,
    target: Target,
    layout: str,
    costs: Sequence[str] = (),
    rules: Sequence[str] = (),
    overrides: Mapping[str, float] | None = None,
) -> list[Variant]:
    """The named rows (see module docstring); cost models and rule files are read here, so
    a bad file fails before anything is timed."""
    from eqsat.rulefile import load

    rows: list[tuple[str, Any, tuple[str, ...]]] = []
    for path in costs:
        rows.append((f"eqsat[costs={Path(path).stem}]", cost_model(target, path, {}), ()))
    for path in rules:
        load(path)  # a bad rule file is an error now, at its line
        rows.append((f"eqsat[rules={Path(path).stem}]", target.cost_model({}, "hwv"), (path,)))
    if overrides:
        label = ",".join(f"{k}={v:g}" for k, v in overrides.items())
        rows.append((f"eqsat[cost {label}]", cost_model(target, None, overrides), ()))
    return [
        Variant(name, lambda cost=cost, paths=paths: _llvm_ir(module, target, cost, paths, layout))
        for name, cost, paths in rows
    ]


def _llvm_ir(
    module: Module, target: Target, cost: Any, rules: tuple[str, ...], layout: str
) -> str:
    from eqsat.codegen import emit_llvm_ir
    from eqsat.optimizer import optimize_module

    result = optimize_module(module, target=target, emit="hwv", cost=cost,
                             extra_rule_paths=rules)  # fmt: skip
    return emit_llvm_ir(result.module, target, layout=layout, reassoc=False)
