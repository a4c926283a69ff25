"""``minnumf``/``maxnumf`` ignore a signalling NaN like a quiet one, compiled as interpreted,
where LLVM's optimizer sees the NaN (a constant, or lanes moved out of constants): LLVM 22
may return a NaN for ``llvm.minnum`` of a signalling NaN, and at O3 it turned
``minnum(minnum(minnum(x, -0.0), sNaN), qNaN)`` into ``minnum(x, MAX)`` (the 10,000-program
fuzz campaign's finding; ``eqsat.codegen.nans``)."""

from __future__ import annotations

import numpy as np
import pytest
from llvmlite import ir

from eqsat.codegen.api import compile, emit_llvm_ir
from eqsat.codegen.nans import from_constants
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from frontend import parse

SNAN64 = "0xFFF0000000000001"
SNAN32 = "0x7F800001"

PROGRAMS = {
    # the campaign's program, cut down: a reduction of a constant with a signalling NaN
    "multi_reduction": f"""
func.func @f(%a: f64, %x: vector<4xf64>) -> f64 {{
  %c = arith.constant dense<[[-0.000000e+00], [{SNAN64}], [0xFFF8000000000000], [1.7976931348623157e+308]]> : vector<4x1xf64>
  %r = vector.multi_reduction <minnumf>, %c, %a [0, 1] : vector<4x1xf64> to f64
  return %r : f64
}}""",
    "reduction": f"""
func.func @f(%a: f64, %x: vector<4xf64>) -> f64 {{
  %c = arith.constant dense<[0.000000e+00, {SNAN64}, -5.000000e-01, {SNAN64}]> : vector<4xf64>
  %r = vector.reduction <maxnumf>, %c, %a : vector<4xf64> into f64
  return %r : f64
}}""",
    "elementwise": f"""
func.func @f(%a: f64, %x: vector<4xf64>) -> vector<4xf64> {{
  %z = arith.constant dense<[-0.000000e+00, 0.000000e+00, -1.000000e+00, 2.000000e+00]> : vector<4xf64>
  %s = arith.constant dense<{SNAN64}> : vector<4xf64>
  %q = arith.constant dense<0x7FF8000000000000> : vector<4xf64>
  %0 = arith.minnumf %x, %z : vector<4xf64>
  %1 = arith.minnumf %0, %s : vector<4xf64>
  %2 = arith.maxnumf %1, %q : vector<4xf64>
  return %2 : vector<4xf64>
}}""",
    "f32_chain": f"""
func.func @f(%a: f64, %x: vector<4xf64>) -> f32 {{
  %b = arith.truncf %a : f64 to f32
  %z = arith.constant -0.000000e+00 : f32
  %s = arith.constant {SNAN32} : f32
  %0 = arith.maxnumf %b, %z : f32
  %1 = arith.maxnumf %0, %s : f32
  return %1 : f32
}}""",
}


def _same(want: object, got: object) -> bool:
    """Bit for bit, any NaN equal to any NaN (LLVM leaves a NaN result's bits unspecified)."""
    w, g = np.atleast_1d(np.asarray(want)), np.atleast_1d(np.asarray(got))
    nan = np.isnan(w)
    return bool(np.array_equal(nan, np.isnan(g))
                and np.array_equal(w[~nan].view(np.uint8), g[~nan].view(np.uint8)))  # fmt: skip


@pytest.mark.parametrize("target", ["x86-64-v2", "avx2"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_a_signalling_nan_llvm_sees_is_ignored_as_the_interpreter_ignores_it(
    name: str, target: str
) -> None:
    if not load_target(target).runs_on_host():
        pytest.skip(f"this host does not run {target}")
    text = PROGRAMS[name]
    fn = compile(text, target, "f")
    for a in (0.5, -0.0, 0.0, -3.0, float("inf")):
        x = np.array([0.25, -0.0, np.nan, -7.0])
        want = Interpreter(parse(text)).call("f", a, x)
        got = fn(a, x)
        assert _same(want, got), (name, a, want, got)


def test_only_operands_made_of_constants_are_quieted() -> None:
    """A value computed at run time is left alone (x86's min/max already ignore its NaNs, and
    quieting it would cost instructions in every min/max chain); lanes of a constant are
    quieted, in integer ops LLVM folds away."""
    f64 = ir.DoubleType()
    fn = ir.Function(ir.Module(), ir.FunctionType(f64, [f64]), "g")
    b = ir.IRBuilder(fn.append_basic_block())
    agg = ir.Constant(ir.ArrayType(ir.VectorType(f64, 2), 1), [ir.Constant(ir.VectorType(f64, 2), [1.0, 2.0])])
    lanes = b.extract_element(b.extract_value(agg, 0), ir.IntType(32)(1))
    assert from_constants(lanes) and from_constants(ir.Constant(f64, 1.0))
    assert not from_constants(fn.args[0]) and not from_constants(b.fadd(fn.args[0], lanes))
    runtime = emit_llvm_ir(parse(
        "func.func @f(%a: vector<4xf64>, %b: vector<4xf64>) -> vector<4xf64> {\n"
        "  %r = arith.minnumf %a, %b : vector<4xf64>\n  return %r : vector<4xf64>\n}"), "avx2")
    assert "llvm.minnum" in runtime and "uno" not in runtime
