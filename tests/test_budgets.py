"""Budgets hold: with tiny node, iteration and time budgets `optimize_module` and `eqsat opt`
stop for the reason the budget gives and still return a correct program (the interpreter
agrees with the original). Wall times are measured by experiments/budgets.py, not here."""

from __future__ import annotations

import subprocess
import sys

import pytest

from eqsat.optimizer import Budget, optimize_module
from eqsat.saturate import StopReason
from experiments.budgets import NATIVE, agrees, all_kernels, stress
from frontend import parse

CASES = {
    "iterations": (Budget(iterations=1), StopReason.ITERATION_LIMIT),
    "nodes": (Budget(nodes=1), StopReason.NODE_LIMIT),
    "seconds": (Budget(seconds=1e-6), StopReason.TIME_LIMIT),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("program", ["all kernels", "stress"])
def test_small_budgets_stop_for_their_reason_and_stay_correct(name: str, program: str) -> None:
    budget, reason = CASES[name]
    module = parse(all_kernels() if program == "all kernels" else stress(20))
    result = optimize_module(module, budget=budget, native=NATIVE)
    assert {p.stop for p in result.report.phases} == {reason}
    assert all(p.num_iterations == 1 for p in result.report.phases)
    assert agrees(module, result.module)


def test_time_budget_stops_before_an_iteration_would_overrun() -> None:
    """A budget a bit longer than one iteration: the phase stops at or before the budget plus
    the one iteration that cannot be interrupted, never runs on to saturation."""
    module = parse(stress(60))
    free = optimize_module(module, native=NATIVE).report.phase("explore")
    assert free.stop is StopReason.SATURATED and free.num_iterations > 2
    first = free.iterations[0].seconds
    result = optimize_module(module, budget=Budget(seconds=first * 1.2), native=NATIVE)
    explore = result.report.phase("explore")
    assert explore.stop in (StopReason.TIME_LIMIT, StopReason.SATURATED)
    assert explore.num_iterations < free.num_iterations or explore.stop is StopReason.SATURATED
    assert agrees(module, result.module)


def test_cli_reports_the_stop_reason(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "k.mlir"
    path.write_text(all_kernels())
    r = subprocess.run(
        [sys.executable, "-m", "eqsat.cli", "opt", str(path), "--stats", "--max-nodes", "1",
         "--max-iterations", "1", "--native", "f32=8"],
        capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "node-limit" in r.stderr or "iteration-limit" in r.stderr
    optimized = parse(r.stdout)
    assert agrees(parse(all_kernels()), optimized)


def test_long_straight_line_program_optimizes() -> None:
    """1,200 ops in one def-use chain: decoding recurses along it and once ran out of Python
    frames (the CLI said "input nests too deeply" about a valid program)."""
    module = parse(stress(200))
    result = optimize_module(module, native=NATIVE)
    assert agrees(module, result.module)
