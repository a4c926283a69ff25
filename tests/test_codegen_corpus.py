"""Compiled programs print exactly the goldens of real MLIR.

Every program of ``tests/programs`` compiled for ``avx2`` and ``x86-64-v2`` (each target
skipped where this host cannot run it), in the nested layout and in the flat one, and the
same programs after ``optimize_module`` with every strategy forced (as tests/test_opt_corpus
does): each prints its ``.expected`` byte for byte. Each program is compiled once per
(target, layout); at LLVM -O0 too, where constants are not folded away, so every lowering's
code runs.
"""

from __future__ import annotations

import contextlib
import io
from functools import cache
from pathlib import Path

import pytest

from eqsat.codegen import compile
from eqsat.targets import load_target
from frontend import parse_file
from tests.mlir_tools import program_paths

PROGRAMS = program_paths()
TARGETS = ["avx2", "x86-64-v2"]


def _skip_unless_runs(target: str) -> None:
    if not load_target(target).runs_on_host():
        pytest.skip(f"this host cannot run {target} code")


def _output(module, target: str, layout: str, opt: int = 3) -> str:
    program = compile(module, target, layout=layout, opt=opt)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        program["entry"]()
    return buf.getvalue()


@pytest.mark.parametrize("layout", ["nested", "flat"])
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_compiled_program_prints_its_golden(path: Path, target: str, layout: str) -> None:
    _skip_unless_runs(target)
    assert _output(parse_file(path), target, layout) == path.with_suffix(".expected").read_text()


@pytest.mark.parametrize(("target", "layout"), [("avx2", "nested"), ("x86-64-v2", "flat")])
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_unoptimized_code_prints_its_golden(path: Path, target: str, layout: str) -> None:
    """At LLVM -O0 the programs' constants are not folded away: every lowering's code runs."""
    _skip_unless_runs(target)
    expected = path.with_suffix(".expected").read_text()
    assert _output(parse_file(path), target, layout, opt=0) == expected


@cache
def _lowered(path: Path):
    from tests.test_opt_corpus import lowered

    return lowered(path).module


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_compiled_optimized_program_prints_its_golden(path: Path) -> None:
    runs = [t for t in TARGETS if load_target(t).runs_on_host()]
    if not runs:
        pytest.skip("this host runs none of the x86 targets")
    target = runs[0]
    expected = path.with_suffix(".expected").read_text()
    assert _output(_lowered(path), target, "nested") == expected
