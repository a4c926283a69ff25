"""The command line's cost and width options, checked: ``--cost NAME=C``, ``--native ELEM=N``
and ``--costs`` VV cost tables (``[ops] Constructor = cost``).

Every name is checked against what a cost model can price (constructors of the e-graph
schema, ops of the op table, the HWV op names, the lowering strategies and ``Masked``, a
vector.mask around one op), with the closest
known names when it is not one: a misspelt name would otherwise change nothing, silently.
Costs must be numbers >= 0 (``inf`` forbids a form); NaN, negative costs, lists and tables are
errors. Usage errors (options) exit 2; errors in a file name FILE:LINE and exit 1.
"""

from __future__ import annotations

import argparse
import math
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from frontend.errors import did_you_mean
from eqsat.targets.widths import ELEMENT_TYPES


class CostFileError(Exception):
    """A VV cost table that cannot be used: ``FILE:LINE: error: message`` (exit 1)."""


@cache
def cost_names() -> frozenset[str]:
    """Names ``--cost`` and cost tables may price (see module docstring)."""
    from eqsat.schema import by_constructor
    from eqsat.targets.target import known_cost_keys

    return known_cost_keys() | frozenset(by_constructor()) | {"Masked"}


def vv_name(name: str) -> str | None:
    """The constructor the VV cost model prices for ``name`` (a constructor, or the op name of
    one); None when the VV model has no such node (an HWV op: needs a target)."""
    from eqsat.schema import by_constructor, constructors
    from eqsat.strategies import STRATEGIES

    if name in by_constructor() or name in STRATEGIES or name == "Masked":
        return name
    c = constructors().get(name)
    return c.name if c is not None else None


def cost_problem(name: str, value: Any) -> str | None:
    """Why ``name = value`` cannot price anything, or None."""
    if name not in cost_names():
        return (
            f"unknown op or constructor '{name}'{did_you_mean(name, cost_names())}"
            " (eqsat schema lists the constructors)"
        )
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"cost of '{name}' must be a number, got {value!r}"
    if math.isnan(value) or value < 0:
        return f"cost of '{name}' must be a number >= 0 (inf forbids it), got {value}"
    return None


def cost_item(text: str) -> tuple[str, float]:
    """An argparse type for ``--cost NAME=COST`` (bad usage exits 2)."""
    name, sep, value = text.partition("=")
    name = name.strip()
    try:
        number = float(value)
    except ValueError:
        number = None
    if not sep or number is None:
        raise argparse.ArgumentTypeError(f"expected NAME=NUMBER, got {text!r}")
    problem = cost_problem(name, number)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return name, number


def native_spec(spec: str) -> dict[str, int]:
    """An argparse type for ``--native f32=8,i32=8``: known element types, lanes a positive
    power of two (bad usage exits 2)."""
    out: dict[str, int] = {}
    for part in filter(None, spec.split(",")):
        elem, _, lanes = part.partition("=")
        elem, lanes = elem.strip(), lanes.strip()
        if elem not in ELEMENT_TYPES:
            raise argparse.ArgumentTypeError(
                f"--native expects ELEM=LANES[,...]: unknown element type {elem!r}"
                f"{did_you_mean(elem, frozenset(ELEMENT_TYPES))} "
                f"(known: {', '.join(ELEMENT_TYPES)})"
            )
        if not lanes.isdigit() or int(lanes) < 1 or int(lanes) & (int(lanes) - 1):
            raise argparse.ArgumentTypeError(
                f"--native expects ELEM=LANES[,...] with LANES a power of two >= 1, "
                f"got {part!r}"
            )
        out[elem] = int(lanes)
    return out


def load_vv_costs(path: str | Path, data: dict[str, Any], text: str) -> dict[str, float]:
    """The ``[ops]`` table of a VV cost file (already read as ``data`` from ``text``), each
    entry checked; ``CostFileError`` at the entry's line."""
    from eqsat.targets.target import _line_of, _section_line

    if "ops" not in data:
        raise CostFileError(
            f"{path}:1: error: a cost file needs an [ops] table (constructor = cost) or a "
            "[target] section (a target file of your own)"
            + did_you_mean(next(iter(data), ""), frozenset({"ops", "target"}))
        )
    ops = data["ops"]
    if not isinstance(ops, dict):
        raise CostFileError(f"{path}:{_line_of(text, 'ops') or 1}: error: 'ops' must be a table")
    for key in data:
        if key != "ops":  # (a key before [ops], or another table: nothing would read it)
            line = _section_line(text, key) or _line_of(text, key) or 1
            raise CostFileError(f"{path}:{line}: error: unknown key or table {key!r} in a VV "
                                "cost file (it holds one [ops] table)")  # fmt: skip
    out: dict[str, float] = {}
    for name, value in _flat(ops).items():
        problem = cost_problem(name, value)
        line = (
            _line_of(text, name, "ops")
            or _line_of(text, name.split(".")[0], "ops")
            or _section_line(text, "ops")
            or 1
        )
        if problem:
            raise CostFileError(f"{path}:{line}: error: {problem}")
        out[name] = float(value)
    return out


def _flat(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """TOML reads ``vector.transpose = 2`` as a nested table: back to dotted op names."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict) and value:
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out
