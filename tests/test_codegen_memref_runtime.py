"""Compiled code calls the runner's printMemref<T> with unranked memrefs and prints what the
interpreter (and mlir-runner-22, up to the base address) prints."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from eqsat.codegen import compile
from eqsat.codegen.types import CodegenError
from eqsat.interpreter import RuntimeFault
from eqsat.targets import load_target
from frontend import parse, parse_file
from tests.test_memref_runtime import UNKNOWN_RUNTIME_CALL

PROGRAM = Path(__file__).resolve().parent / "runtime_programs" / "print_memref.mlir"
_ADDR = re.compile(r"base@ = 0x[0-9a-f]+")


def _host() -> str:
    for t in ("avx2", "x86-64-v2"):
        if load_target(t).runs_on_host():
            return t
    pytest.skip("this host runs neither avx2 nor x86-64-v2 code")


@pytest.mark.parametrize("layout", ["nested", "flat"])
def test_compiled_print_memref_matches_golden(layout: str) -> None:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        compile(parse_file(PROGRAM), _host(), layout=layout)["entry"]()
    got = buf.getvalue()
    assert _ADDR.sub("base@ = 0x0", got) == PROGRAM.with_suffix(".expected").read_text()
    bases = _ADDR.findall(got)
    assert bases[0] == bases[1]  # a subview prints its buffer's base, as MLIR does
    assert len(set(bases)) == len(bases) - 1


def test_unknown_runner_function_is_a_located_fault() -> None:
    text = UNKNOWN_RUNTIME_CALL
    with pytest.raises(RuntimeFault, match=r"p.mlir:6:3: .*without a body @printMemrefC64"):
        compile(parse(text, "p.mlir"), _host())["entry"]()


def test_unranked_memrefs_to_own_functions_are_an_error() -> None:
    text = """
func.func @f(%u: memref<*xf32>) {
  return
}
func.func @entry() {
  %a = memref.alloc() : memref<2xf32>
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @f(%u) : (memref<*xf32>) -> ()
  return
}
"""
    with pytest.raises(CodegenError, match="unranked"):
        compile(parse(text, "p.mlir"), _host())
