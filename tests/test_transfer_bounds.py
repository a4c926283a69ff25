"""Transfers marked in_bounds that reach past a dimension: MLIR's flat-memory reading by
default (with a located warning), a fault with ``eqsat run --strict``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from eqsat.cli import main
from eqsat.interpreter import Interpreter, RuntimeFault
from frontend import parse

PROGRAM = Path(__file__).resolve().parent / "programs" / "transfer_in_bounds_flat.mlir"


def test_default_matches_mlir_and_warns_once_per_op() -> None:
    out, err = io.StringIO(), io.StringIO()
    Interpreter(parse(PROGRAM.read_text(), str(PROGRAM)), out=out, err=err).call("entry")
    assert out.getvalue() == PROGRAM.with_suffix(".expected").read_text()
    warnings = err.getvalue().count(": warning: ")
    assert warnings == 3  # two reads, one write reach past a dim; the 3x4 read does not
    assert "transfer_in_bounds_flat.mlir:14:3: warning: vector.transfer_read marked in_bounds" in (
        err.getvalue()
    )


def test_strict_faults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--strict", str(PROGRAM)]) == 1
    err = capsys.readouterr().err
    assert ":14:3: error: 'vector.transfer_read' op runtime fault" in err
    assert "although in_bounds[0] is true" in err


def test_past_the_allocation_is_a_fault() -> None:
    text = """
func.func @entry() {
  %c2 = arith.constant 2 : index
  %pad = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<3x4xf32>
  %r = vector.transfer_read %m[%c2, %c2], %pad {in_bounds = [true]} : memref<3x4xf32>, vector<4xf32>
  vector.print %r : vector<4xf32>
  return
}
"""
    with pytest.raises(RuntimeFault, match="reaches past the allocation"):
        Interpreter(parse(text, "t.mlir"), out=io.StringIO(), err=io.StringIO()).call("entry")
