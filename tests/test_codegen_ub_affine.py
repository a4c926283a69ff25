"""Compiled ``ub.poison`` (zeros, as the interpreter) and ``affine.apply/min/max`` (index
arithmetic with -lower-affine's floordiv/ceildiv/mod) print what the interpreter prints, on
every x86 target this host runs, and fault where it faults."""

from __future__ import annotations

import contextlib
import io

import pytest

from eqsat.codegen import compile
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from frontend import parse
from frontend.errors import RuntimeFault

TARGETS = ["avx2", "x86-64-v2"]

# Every expression kind over dims and symbols from -12 to 12, divisors 1..4 (constant and a
# symbol), and poison of each element type as a loop-carried base of inserts.
PROGRAM = """
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cm12 = arith.constant -12 : index
  %c13 = arith.constant 13 : index
  %c5 = arith.constant 5 : index
  scf.for %i = %cm12 to %c13 step %c5 {
    scf.for %d = %c1 to %c5 step %c1 {
      %a = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%d]
      %b = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%i)[%d]
      %c = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%i)[%d]
      %e = affine.apply affine_map<(d0, d1) -> ((d0 * 3 - d1) floordiv 4 + (d0 + 7) mod 3)>(%i, %d)
      %f = affine.min affine_map<(d0)[s0] -> (-d0 + 10, s0 * 2, d0 ceildiv 3)>(%i)[%d]
      %g = affine.max affine_map<(d0)[s0] -> (-d0 + 10, s0 * 2, d0 ceildiv 3)>(%i)[%d]
      %v = vector.from_elements %a, %b, %c, %e, %f, %g : vector<6xindex>
      %w = arith.index_cast %v : vector<6xindex> to vector<6xi64>
      vector.print %w : vector<6xi64>
    }
  }
  %p = ub.poison : vector<2x4xf32>
  %pi = ub.poison : vector<4xi8>
  %pb = ub.poison : i1
  %ps = ub.poison : f64
  %x = arith.constant 3.0 : f32
  %q = vector.insert %x, %p[1, 2] : f32 into vector<2x4xf32>
  %r = vector.extract %q[1] : vector<4xf32> from vector<2x4xf32>
  %ri = arith.constant 5 : i8
  %s = vector.insert %ri, %pi[0] : i8 into vector<4xi8>
  %e0 = vector.extract %r[2] : f32 from vector<4xf32>
  %e1 = vector.extract %s[0] : i8 from vector<4xi8>
  vector.print %e0 : f32
  vector.print %e1 : i8
  %pv = ub.poison : vector<4xindex>
  %pv2 = vector.insert %c4, %pv[3] : index into vector<4xindex>
  %e2 = vector.extract %pv2[3] : index from vector<4xindex>
  vector.print %e2 : index
  return
}
"""


def _compiled(src: str, target: str) -> str:
    if not load_target(target).runs_on_host():
        pytest.skip(f"this host cannot run {target} code")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        compile(parse(src), target)["entry"]()
    return buf.getvalue()


def _interpreted(src: str) -> str:
    out = io.StringIO()
    Interpreter(parse(src), out=out, err=io.StringIO()).call("entry")
    return out.getvalue()


@pytest.mark.parametrize("target", TARGETS)
def test_compiled_affine_and_poison_match_the_interpreter(target: str) -> None:
    want = _interpreted(PROGRAM)
    assert len(want.splitlines()) == 4 * 5 + 3
    assert _compiled(PROGRAM, target) == want


@pytest.mark.parametrize("target", TARGETS)
def test_poison_is_zeros_when_compiled(target: str) -> None:
    src = """func.func @entry() {
  %p = ub.poison : vector<2x3xi32>
  vector.print %p : vector<2x3xi32>
  %f = ub.poison : f32
  vector.print %f : f32
  return
}
"""
    assert _compiled(src, target) == _interpreted(src) == "( ( 0, 0, 0 ), ( 0, 0, 0 ) )\n0\n"


@pytest.mark.parametrize("target", TARGETS)
def test_zero_divisor_is_a_located_fault(target: str) -> None:
    src = """func.func @entry(%a: index, %b: index) -> index {
  %r = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%a)[%b]
  return %r : index
}
"""
    if not load_target(target).runs_on_host():
        pytest.skip(f"this host cannot run {target} code")
    fn = compile(parse(src, "z.mlir"), target)["entry"]
    assert fn(-7, 3) == 2
    with pytest.raises(RuntimeFault) as e:
        fn(-7, 0)
    assert str(e.value).startswith("z.mlir:2:")


def test_full_insert_chain_over_poison_becomes_from_elements() -> None:
    """rules/canonicalize/poison.egg: the chain is the vector of its elements, and the
    optimized program (no ub.poison left) prints what the original printed."""
    from eqsat.optimizer import optimize_module
    from frontend import print_module

    src = """func.func @entry() {
  %a = arith.constant 1.5 : f32
  %b = arith.constant -2.0 : f32
  %p = ub.poison : vector<4xf32>
  %0 = vector.insert %a, %p[0] : f32 into vector<4xf32>
  %1 = vector.insert %b, %0[1] : f32 into vector<4xf32>
  %2 = vector.insert %a, %1[2] : f32 into vector<4xf32>
  %3 = vector.insert %b, %2[3] : f32 into vector<4xf32>
  vector.print %3 : vector<4xf32>
  return
}
"""
    text = print_module(optimize_module(parse(src)).module)
    assert "vector.from_elements" in text and "ub.poison" not in text
    assert _interpreted(text) == _interpreted(src) == "( 1.5, -2, 1.5, -2 )\n"
