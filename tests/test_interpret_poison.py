"""The interpreter's poison lanes (``eqsat.poison``) and the affine ops' arithmetic.

Poison is filled with zeros; a poison lane that reaches a printed or stored value is a
located warning on stderr, and only then: insert chains that overwrite every lane, masked-off
padding, a select that picks the other operand stay silent."""

from __future__ import annotations

import io

import numpy as np
import pytest

from eqsat.interpreter import Interpreter
from frontend import parse
from frontend.affine import ceildiv, floordiv, mod
from frontend.errors import RuntimeFault


def _run(body: str, args: str = "") -> tuple[str, list[str]]:
    src = f"func.func @entry({args}) {{\n{body}\n  return\n}}\n"
    out, err = io.StringIO(), io.StringIO()
    interp = Interpreter(parse(src, "p.mlir"), out=out, err=err)
    interp.call("entry")
    return out.getvalue(), interp.warnings


CHAIN = """
  %p = ub.poison : vector<3xf32>
  %f = arith.constant 2.0 : f32
  %a = vector.insert %f, %p[0] : f32 into vector<3xf32>
  %b = vector.insert %f, %a[1] : f32 into vector<3xf32>
  %c = vector.insert %f, %b[2] : f32 into vector<3xf32>
  %d = arith.mulf %c, %c : vector<3xf32>
  vector.print %d : vector<3xf32>"""


def test_full_insert_chain_is_defined() -> None:
    out, warnings = _run(CHAIN)
    assert out == "( 4, 4, 4 )\n" and warnings == []


def test_partial_insert_chain_warns_at_the_print() -> None:
    body = CHAIN.replace("%d = arith.mulf %c, %c", "%d = arith.mulf %b, %b")
    out, warnings = _run(body)
    assert out == "( 4, 4, 0 )\n"  # the filling is zeros
    assert len(warnings) == 1
    assert warnings[0].startswith("p.mlir:9:3: warning: prints 1 poison lane")


def test_extracting_a_defined_lane_is_silent() -> None:
    body = CHAIN.replace("vector.print %d : vector<3xf32>",
                         "%e = vector.extract %a[0] : f32 from vector<3xf32>\n"
                         "  vector.print %e : f32")
    assert _run(body) == ("2\n", [])
    bad = body.replace("%a[0] : f32 from", "%a[2] : f32 from")
    out, warnings = _run(bad)
    assert out == "0\n" and "prints 1 poison lane" in warnings[0]


MASKED = """
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %pad = ub.poison : f32
  %mask = vector.create_mask %c2 : vector<4xi1>
  %v = vector.mask %mask { vector.transfer_read %m[%c0], %pad {in_bounds = [true]} : memref<2xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  %s = vector.mask %mask { vector.reduction <add>, %v : vector<4xf32> into f32 } : vector<4xi1> -> f32
  vector.print %s : f32
  vector.mask %mask { vector.transfer_write %v, %m[%c0] {in_bounds = [true]} : vector<4xf32>, memref<2xf32> } : vector<4xi1>"""


def test_masked_off_padding_is_ignored_by_masked_ops() -> None:
    interp_src = "func.func @entry(%m: memref<2xf32>) {" + MASKED + "\n  return\n}\n"
    err = io.StringIO()
    interp = Interpreter(parse(interp_src, "p.mlir"), out=io.StringIO(), err=err)
    m = np.array([1.5, 2.0], dtype=np.float32)
    interp.call("entry", m)
    assert interp.warnings == [] and err.getvalue() == ""
    unmasked = interp_src.replace(
        "vector.mask %mask { vector.reduction <add>, %v : vector<4xf32> into f32 } : "
        "vector<4xi1> -> f32", "vector.reduction <add>, %v : vector<4xf32> into f32")
    interp = Interpreter(parse(unmasked, "p.mlir"), out=io.StringIO(), err=io.StringIO())
    interp.call("entry", m)
    assert len(interp.warnings) == 1 and ":8:3: warning: prints 1 poison lane" in interp.warnings[0]


def test_storing_poison_warns_and_stores_the_filling() -> None:
    src = """func.func @entry(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %p = ub.poison : vector<4xf32>
  %f = arith.constant 7.0 : f32
  %a = vector.insert %f, %p[1] : f32 into vector<4xf32>
  vector.store %a, %m[%c0] : memref<4xf32>, vector<4xf32>
  return
}
"""
    m = np.full(4, 9.0, dtype=np.float32)
    interp = Interpreter(parse(src, "s.mlir"), out=io.StringIO(), err=io.StringIO())
    interp.call("entry", m)
    assert m.tolist() == [0.0, 7.0, 0.0, 0.0]
    assert len(interp.warnings) == 1 and interp.warnings[0].startswith(
        "s.mlir:6:3: warning: stores poison lane")


def test_poison_crosses_loops_and_select() -> None:
    body = """
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = ub.poison : vector<3xi32>
  %one = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %p) -> (vector<3xi32>) {
    %n = vector.insert %one, %acc[%i] : i32 into vector<3xi32>
    scf.yield %n : vector<3xi32>
  }
  vector.print %r : vector<3xi32>
  %q = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %p) -> (vector<3xi32>) {
    scf.yield %acc : vector<3xi32>
  }
  %t = arith.constant dense<[true, false, true]> : vector<3xi1>
  %s = arith.select %t, %r, %q : vector<3xi1>, vector<3xi32>
  vector.print %s : vector<3xi32>
  %u = arith.select %t, %q, %r : vector<3xi1>, vector<3xi32>
  vector.print %u : vector<3xi32>"""
    out, warnings = _run(body)
    assert out == "( 1, 1, 1 )\n( 1, 0, 1 )\n( 0, 1, 0 )\n"
    assert len(warnings) == 2  # the two selects read the poison loop result
    assert ":18:3: warning: prints 1 poison lane" in warnings[0]
    assert ":20:3: warning: prints 2 poison lane" in warnings[1]


@pytest.mark.parametrize("a", range(-9, 10))
@pytest.mark.parametrize("b", [1, 2, 3, 7])
def test_affine_division_matches_the_floor_and_ceiling(a: int, b: int) -> None:
    assert floordiv(a, b) == a // b
    assert ceildiv(a, b) == -((-a) // b)
    assert mod(a, b) == a % b


def test_affine_ops_run_and_fault_on_a_zero_divisor() -> None:
    body = """
  %c0 = arith.constant 0 : index
  %cm5 = arith.constant -5 : index
  %a = affine.apply affine_map<(d0)[s0] -> (d0 floordiv 2 + s0 mod 3)>(%cm5)[%cm5]
  %b = affine.min affine_map<(d0) -> (d0 ceildiv 2, -d0, 4)>(%cm5)
  %c = affine.max affine_map<(d0) -> (d0 ceildiv 2, -d0, 4)>(%cm5)
  vector.print %a : index
  vector.print %b : index
  vector.print %c : index
  %z = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%cm5)[%c0]"""
    with pytest.raises(RuntimeFault) as e:
        _run(body)
    assert str(e.value).startswith("p.mlir:11:")
    out, _ = _run(body.rsplit("\n", 1)[0])
    assert out.split() == [str((1 << 64) - 2), str((1 << 64) - 2), "5"]
