"""Every program of the differential corpus, optimized at VV level, still computes what real
MLIR computed for the original (the `.expected` goldens) — by our interpreter, and by
mlir-runner-22 on the optimized text where MLIR 22 is installed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from frontend import parse_file, print_module
from eqsat.interpreter import run_function
from eqsat.optimizer import optimize_module
from tests import mlir_tools

PROGRAMS = sorted((Path(__file__).parent / "programs").glob("*.mlir"))


def optimized(path: Path):
    return optimize_module(parse_file(path))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_optimized_program_matches_reference(path: Path) -> None:
    result = optimized(path)
    out = io.StringIO()
    run_function(result.module, "entry", out=out)
    assert out.getvalue() == path.with_suffix(".expected").read_text()


MLIR22 = [p for p in PROGRAMS if mlir_tools.reference_of(p)[0] == "mlir22"]


def _skip_where_host_lacks_features(path: Path) -> None:
    """A program with target ops (``// REQUIRES: avx512f``) runs only where the host has them."""
    lacking = mlir_tools.missing_host_features(path)
    if lacking:
        pytest.skip(f"this host lacks {', '.join(lacking)}, which {path.name} requires")


@pytest.mark.skipif(bool(mlir_tools.missing_tools(22)),
                    reason=f"MLIR 22 not usable: missing {mlir_tools.missing_tools(22)}")
@pytest.mark.parametrize("path", MLIR22, ids=lambda p: p.stem)
def test_optimized_program_runs_the_same_in_mlir22(path: Path) -> None:
    _skip_where_host_lacks_features(path)
    text = print_module(optimized(path).module)
    ok, message = mlir_tools.validate_with_mlir_opt(text, 22)
    assert ok, message
    assert mlir_tools.run_text_with_mlir(text, 22) == path.with_suffix(".expected").read_text()


# Every op that has lowering strategies made expensive, so that the extracted program is
# made of strategy expansions wherever a strategy applies: checks every expander against
# the goldens of real MLIR. The strategies that emit ops MLIR 22 removed are kept out.
LOWERED = {name: 1e6 for name in (
    "Contract", "Transpose", "MultiReduction", "Broadcast", "ShapeCast", "ExtractStridedSlice",
    "InsertStridedSlice", "TransferRead", "TransferWrite", "TransposeFlat", "ContractMatmul",
)}


def lowered(path: Path):
    from eqsat.cost import vv_cost

    return optimize_module(parse_file(path), cost=vv_cost(LOWERED))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_program_lowered_by_strategies_matches_reference(path: Path) -> None:
    out = io.StringIO()
    run_function(lowered(path).module, "entry", out=out)
    assert out.getvalue() == path.with_suffix(".expected").read_text()


@pytest.mark.skipif(bool(mlir_tools.missing_tools(22)),
                    reason=f"MLIR 22 not usable: missing {mlir_tools.missing_tools(22)}")
@pytest.mark.parametrize("path", MLIR22, ids=lambda p: p.stem)
def test_program_lowered_by_strategies_runs_the_same_in_mlir22(path: Path) -> None:
    _skip_where_host_lacks_features(path)
    text = print_module(lowered(path).module)
    ok, message = mlir_tools.validate_with_mlir_opt(text, 22)
    assert ok, message
    assert mlir_tools.run_text_with_mlir(text, 22) == path.with_suffix(".expected").read_text()
