"""The interpreter against real MLIR, the Python API, and runtime faults.

* Every program of ``tests/programs`` run by ``eqsat run --target interp`` (in process) prints
  exactly its ``.expected`` (the output of mlir-runner-22 / 19, or checked by hand).
* ``Interpreter.call`` takes numpy arrays for memrefs and writes through them.
* A fault (out-of-bounds access, division by zero, unknown function) is a
  ``FILE:LINE:COL: error:`` at the op and exit status 1, never a traceback.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from eqsat.cli import main
from eqsat.interpreter import Interpreter, RuntimeFault
from frontend import MLIRError, parse
from tests.mlir_tools import expected_path, program_paths, reference_of


def _programs() -> list:
    return [pytest.param(p, id=p.stem) for p in program_paths()]


@pytest.mark.parametrize("path", _programs())
def test_program_prints_its_golden_output(path, capsys) -> None:
    expected = expected_path(path)
    if not expected.exists():
        pytest.skip(f"{expected.name} not generated yet")
    reference_of(path)  # the header names where the golden output came from
    status = main(["run", str(path), "--target", "interp"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out == expected.read_text(encoding="utf-8")


# -- Python API ---------------------------------------------------------------------------------
API = """
func.func @scale(%m: memref<?xf32>, %s: f32) -> (f32, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %x = memref.load %m[%i] : memref<?xf32>
    %y = arith.mulf %x, %s : f32
    memref.store %y, %m[%i] : memref<?xf32>
    %a = arith.addf %acc, %y : f32
    scf.yield %a : f32
  }
  %pad = arith.constant -1.0 : f32
  %v = vector.transfer_read %m[%c0], %pad : memref<?xf32>, vector<4xf32>
  return %sum, %v : f32, vector<4xf32>
}
func.func @fill(%m: memref<2x3xi32>, %v: vector<3xi32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  vector.store %v, %m[%c1, %c0] : memref<2x3xi32>, vector<3xi32>
  return
}
func.func @alloc() -> memref<2xf64> {
  %m = memref.alloc() : memref<2xf64>
  return %m : memref<2xf64>
}
"""


def test_call_writes_through_memref_arguments() -> None:
    it = Interpreter(parse(API, "<api>"))
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    total, head = it.call("scale", a, 2.0)
    assert a.tolist() == [2.0, 4.0, 6.0]  # written in place
    assert total == np.float32(12.0) and isinstance(total, np.float32)
    assert head.tolist() == [2.0, 4.0, 6.0, -1.0] and head.dtype == np.float32


def test_call_copies_back_arrays_it_cannot_alias() -> None:
    it = Interpreter(parse(API, "<api>"))
    m = np.zeros((2, 3), dtype=np.int64)  # wrong dtype: copied in and back
    assert it.call("fill", m, np.array([7, 8, 9])) is None
    assert m.tolist() == [[0, 0, 0], [7, 8, 9]]
    t = np.zeros((3, 2), dtype=np.int32).T  # not contiguous
    it.call("fill", t, [1, 2, 3])
    assert t.tolist() == [[0, 0, 0], [1, 2, 3]]
    assert it.call("alloc").tolist() == [0.0, 0.0]


def test_call_rejects_arguments_that_do_not_fit() -> None:
    it = Interpreter(parse(API, "<api>"))
    with pytest.raises(TypeError, match="does not fit"):
        it.call("fill", np.zeros((3, 3), np.int32), [1, 2, 3])
    with pytest.raises(TypeError, match="takes 2 arguments"):
        it.call("fill", np.zeros((2, 3), np.int32))
    with pytest.raises(RuntimeFault, match="no function @nope"):
        it.call("nope")


# -- faults ---------------------------------------------------------------------------------------
FAULTS = {
    "oob_load": (
        """%c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4xf32>
  %x = memref.load %m[%c4] : memref<4xf32>""",
        "3:3: error: 'memref.load' op runtime fault: memref.load [4] out of bounds",
    ),
    "oob_vector_load": (
        """%c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<4xf32>
  %x = vector.load %m[%c2] : memref<4xf32>, vector<4xf32>""",
        "3:3: error: 'vector.load' op runtime fault",
    ),
    "divide_by_zero": (
        """%a = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %q = arith.divsi %a, %z : i32""",
        "3:3: error: 'arith.divsi' op runtime fault: arith.divsi: integer division by zero",
    ),
    "unknown_function": (
        "func.call @ext() : () -> ()",
        "1:3: error: 'func.call' op runtime fault: call to function without a body @ext",
    ),
    "zero_step": (
        """%c0 = arith.constant 0 : index
  scf.for %i = %c0 to %c0 step %c0 {
    vector.print %i : index
  }""",
        "2:3: error: 'scf.for' op runtime fault: scf.for step must be positive",
    ),
}


@pytest.mark.parametrize("name", FAULTS)
def test_runtime_fault_points_at_the_op(name, tmp_path, capsys) -> None:
    body, message = FAULTS[name]
    text = f'func.func @entry() {{\n  vector.print str "before\\n"\n  {body}\n  return\n}}\n'
    text = text.replace("func.func @entry", "func.func private @ext()\nfunc.func @entry")
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    assert main(["run", str(path), "--target", "interp"]) == 1
    out, err = capsys.readouterr()
    assert out == "before\n"  # what ran before the fault is printed
    line, col_msg = message.split(":", 1)
    assert err.startswith(f"{path}:{int(line) + 3}:{col_msg}"), err
    assert "Traceback" not in err


def test_fault_inside_a_loop_and_a_call_names_the_innermost_op() -> None:
    text = """func.func @get(%m: memref<2xi32>, %i: index) -> i32 {
  %x = memref.load %m[%i] : memref<2xi32>
  return %x : i32
}
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %m = memref.alloc() : memref<2xi32>
  scf.for %i = %c0 to %c5 step %c1 {
    %x = func.call @get(%m, %i) : (memref<2xi32>, index) -> i32
  }
  return
}"""
    with pytest.raises(RuntimeFault) as e:
        Interpreter(parse(text, "f.mlir"), out=io.StringIO()).call("entry")
    assert str(e.value).startswith("f.mlir:2:3: error: 'memref.load' op runtime fault")
    assert isinstance(e.value, MLIRError)


def test_cli_run_options(tmp_path, capsys) -> None:
    path = tmp_path / "s.mlir"
    path.write_text(
        """func.func @main() {
  %v = vector.vscale
  %s = vector.step : vector<[2]xindex>
  vector.print %v : index
  vector.print %s : vector<[2]xindex>
  return
}
func.func @args(%x: i32) {
  return
}"""
    )
    assert main(["run", str(path), "--entry", "main", "--vscale", "3"]) == 0
    assert capsys.readouterr().out == "3\n( 0, 1, 2, 3, 4, 5 )\n"
    assert main(["run", str(path)]) == 1
    assert "has no function @entry" in capsys.readouterr().err
    assert main(["run", str(path), "--entry", "args"]) == 1
    assert "takes arguments" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", str(path), "--vscale", "0"])


def test_deep_recursion_runs_and_runaway_recursion_is_a_fault() -> None:
    text = """func.func @down(%n: i64) -> i64 {
  %one = arith.constant 1 : i64
  %z = arith.constant 0 : i64
  %le = arith.cmpi sle, %n, %z : i64
  %r = scf.if %le -> (i64) {
    scf.yield %z : i64
  } else {
    %m = arith.subi %n, %one : i64
    %f = func.call @down(%m) : (i64) -> i64
    %p = arith.addi %f, %one : i64
    scf.yield %p : i64
  }
  return %r : i64
}"""
    it = Interpreter(parse(text, "r.mlir"))
    assert it.call("down", 500) == 500
    with pytest.raises(RuntimeFault, match=r"r.mlir:9:5: error: .*nested deeper than"):
        it.call("down", 10**6)
