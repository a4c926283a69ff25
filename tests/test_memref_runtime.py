"""Runner library functions (``printMemref*``) and the memref ops around unranked memrefs.

``runtime_programs/print_memref.expected`` is mlir-runner-22's output with every
``base@ = 0x...`` address replaced by ``0x0`` (addresses differ per run, in MLIR too).
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mlir_tools import missing_tools, run_text_with_mlir

from eqsat.interpreter import Interpreter, RuntimeFault
from frontend import parse

PROGRAM = Path(__file__).resolve().parent / "runtime_programs" / "print_memref.mlir"
_ADDR = re.compile(r"base@ = 0x[0-9a-f]+")


def _eqsat(text: str) -> str:
    out = io.StringIO()
    Interpreter(parse(text, "p.mlir"), out=out).call("entry")
    return out.getvalue()


def test_print_memref_matches_golden() -> None:
    got = _eqsat(PROGRAM.read_text())
    assert _ADDR.sub("base@ = 0x0", got) == PROGRAM.with_suffix(".expected").read_text()
    bases = _ADDR.findall(got)
    assert bases[0] == bases[1]  # a subview prints its buffer's base, as MLIR does
    assert len(set(bases)) == len(bases) - 1


def test_golden_matches_mlir22() -> None:
    missing = missing_tools(22)
    if missing:
        pytest.skip(f"MLIR 22 not usable here, missing: {', '.join(missing)}")
    got = run_text_with_mlir(PROGRAM.read_text(), 22)
    assert _ADDR.sub("base@ = 0x0", got) == PROGRAM.with_suffix(".expected").read_text()


# A call to a runner function eqsat does not model (line 6).
UNKNOWN_RUNTIME_CALL = """
func.func private @printMemrefC64(memref<*xf32>)
func.func @entry() {
  %a = memref.alloc() : memref<2xf32>
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefC64(%u) : (memref<*xf32>) -> ()
  return
}
"""


def test_unsupported_runtime_function_is_a_clear_fault() -> None:
    text = UNKNOWN_RUNTIME_CALL
    with pytest.raises(RuntimeFault, match=r"p.mlir:6:3: .*unsupported runtime function"):
        _eqsat(text)


def test_unranked_types_round_trip() -> None:
    text = "func.func private @f(memref<*xf32>, memref<*xi8, 3>, tensor<*xf16>)\n"
    printed = str(parse(text, "t.mlir"))
    assert "memref<*xf32>, memref<*xi8, 3>, tensor<*xf16>" in printed
