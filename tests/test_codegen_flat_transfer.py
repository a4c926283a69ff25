"""Checked compiled runs of accesses that reach past a dimension but stay inside the memref's
flat extent: a transfer marked in_bounds, vector.load and vector.store address the flat
memory there, as MLIR's lowering and the (non-strict) interpreter do, and print what the
interpreter prints; past the whole allocation they fault at the op, like the interpreter.
(Found by MLIR's own transfer-read-3d integration test, whose in_bounds read of a 2x5x3 vector
from a ...x4x2 memref reads on into the next rows.)"""

from __future__ import annotations

import subprocess
import sys

import pytest

from eqsat.codegen.commands import best_host_target

PROGRAM = """func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f0 = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<2x3xf32>
  %init = arith.constant dense<[0.0, 1.0, 2.0]> : vector<3xf32>
  %init1 = arith.constant dense<[3.0, 4.0, 5.0]> : vector<3xf32>
  vector.store %init, %m[%c0, %c0] : memref<2x3xf32>, vector<3xf32>
  vector.store %init1, %m[%c1, %c0] : memref<2x3xf32>, vector<3xf32>
  %t = vector.transfer_read %m[%c0, %c1], %f0 {in_bounds = [true]}
      : memref<2x3xf32>, vector<4xf32>
  vector.print %t : vector<4xf32>
  %l = vector.load %m[%c0, %c2] : memref<2x3xf32>, vector<3xf32>
  vector.print %l : vector<3xf32>
  %w = arith.constant dense<[7.0, 8.0]> : vector<2xf32>
  vector.store %w, %m[%c0, %c2] : memref<2x3xf32>, vector<2xf32>
  %a = vector.load %m[%c1, %c0] : memref<2x3xf32>, vector<3xf32>
  vector.print %a : vector<3xf32>
  vector.print str "LAST\\n"
  return
}
"""
LAST = '  vector.print str "LAST\\n"\n'
#: In place of LAST: a read past the 6-element allocation (flat elements 4 .. 7).
PAST_END = """  %x = vector.transfer_read %m[%c1, %c1], %f0 {in_bounds = [true]}
      : memref<2x3xf32>, vector<4xf32>
  vector.print %x : vector<4xf32>
"""


def _run(path, target: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "eqsat.cli", "run", str(path), "--target", target]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def target() -> str:
    t = best_host_target()
    if t is None:
        pytest.skip("this host can execute code for none of our targets")
    return t


def test_in_bounds_reads_past_a_dim_use_the_flat_memory(target: str, tmp_path) -> None:
    path = tmp_path / "flat.mlir"
    path.write_text(PROGRAM)
    want, got = _run(path, "interp"), _run(path, target)
    assert want.returncode == 0, want.stderr
    assert got.returncode == 0, got.stderr
    assert got.stdout == want.stdout == "( 1, 2, 3, 4 )\n( 2, 3, 4 )\n( 8, 4, 5 )\nLAST\n"


def test_past_the_allocation_is_still_a_located_fault(target: str, tmp_path) -> None:
    path = tmp_path / "past.mlir"
    assert PROGRAM.count(LAST) == 1
    path.write_text(PROGRAM.replace(LAST, PAST_END))
    want, got = _run(path, "interp"), _run(path, target)
    assert "Traceback" not in got.stderr
    assert want.returncode == 1 and got.returncode == 1, (want.stderr, got.stderr)
    assert got.stdout == want.stdout
    line = PROGRAM[: PROGRAM.index(LAST)].count("\n") + 1
    head = f"{path}:{line}:3: error: 'vector.transfer_read' op runtime fault"
    errors = [ln for ln in got.stderr.splitlines() if " error: " in ln]
    assert errors and errors[0].startswith(head), got.stderr
    errors = [ln for ln in want.stderr.splitlines() if " error: " in ln]
    assert errors and errors[0].startswith(f"{path}:{line}:3: error:"), want.stderr
