"""The compiled Python API, the ABI, assembly for targets the host cannot run, errors,
runtime faults, reassociation, and the lowering table's coverage of the op table."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from eqsat.codegen import CodegenError, compile, emit_assembly, emit_llvm_ir
from eqsat.codegen.table import LOWERINGS, STRUCTURAL, UNSUPPORTED
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from frontend import parse
from frontend.errors import RuntimeFault
from frontend.ops import all_specs
from tests import mlir_tools


def _host_target() -> str:
    for t in ("avx2", "x86-64-v2"):
        if load_target(t).runs_on_host():
            return t
    pytest.skip("this host runs none of the x86 targets")


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
func.func @mat(%a: vector<2x3xf64>, %k: i64) -> (vector<3x2xf64>, i64) {
  %t = vector.transpose %a, [1, 0] : vector<2x3xf64> to vector<3x2xf64>
  %c2 = arith.constant 2 : i64
  %m = arith.muli %k, %c2 : i64
  return %t, %m : vector<3x2xf64>, i64
}
func.func @div(%a: i32, %b: i32) -> i32 {
  %q = arith.divsi %a, %b : i32
  return %q : i32
}
func.func @alloc() -> memref<2x3xf64> {
  %m = memref.alloc() : memref<2x3xf64>
  return %m : memref<2x3xf64>
}
"""


@pytest.fixture(scope="module")
def program():
    return compile(API, _host_target())


def test_call_writes_through_memrefs_and_returns_numpy_values(program) -> None:
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    total, head = program.scale(a, 2.0)
    assert a.tolist() == [2.0, 4.0, 6.0]
    assert total == np.float32(12.0) and isinstance(total, np.float32)
    assert head.tolist() == [2.0, 4.0, 6.0, -1.0] and head.dtype == np.float32
    t, m = program["mat"](np.arange(6.0).reshape(2, 3), 21)
    assert t.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]] and m == 42
    assert program.alloc().shape == (2, 3)


def test_strided_views_are_written_in_place(program) -> None:
    t = np.zeros((3, 2), dtype=np.int32).T  # not contiguous: strides (4, 8)
    program.fill(t, np.array([1, 2, 3], dtype=np.int32))
    assert t.tolist() == [[0, 0, 0], [1, 2, 3]]


def test_wrong_arguments_are_clear_errors(program) -> None:
    with pytest.raises(TypeError, match=r"@fill argument 0 .*dtype int32, got int64"):
        program.fill(np.zeros((2, 3), np.int64), np.zeros(3, np.int32))
    with pytest.raises(ValueError, match=r"@fill argument 0 .*shape \(2, 3\), got \(3, 3\)"):
        program.fill(np.zeros((3, 3), np.int32), np.zeros(3, np.int32))
    with pytest.raises(ValueError, match=r"@fill argument 1 .*shape \(3,\), got \(4,\)"):
        program.fill(np.zeros((2, 3), np.int32), np.zeros(4, np.int32))
    with pytest.raises(TypeError, match="takes 2 arguments, got 1"):
        program.fill(np.zeros((2, 3), np.int32))
    with pytest.raises(TypeError, match=r"@mat argument 1 .*expected an integer"):
        program.mat(np.zeros((2, 3)), 1.5)
    with pytest.raises(TypeError, match=r"@scale argument 0 .*expected a numpy array"):
        program.scale([1.0], 2.0)
    with pytest.raises(AttributeError, match="no function @nope"):
        program.nope()


def test_division_by_zero_is_a_located_fault(program) -> None:
    assert program.div(7, -2) == -3
    assert program.div(-(2**31), -1) == -(2**31)  # wraps, as the interpreter
    with pytest.raises(
        RuntimeFault, match=r"<compile>:\d+:\d+: error: 'arith.divsi' op runtime fault"
    ):
        program.div(1, 0)


def _signature(text: str, name: str) -> str:
    import llvmlite.binding as llvm

    return str(llvm.parse_assembly(text).get_function(name).global_value_type)


def test_functions_keep_mlir_names_and_abi() -> None:
    ir = emit_llvm_ir(API, "avx2")
    assert _signature(ir, "scale") == "{ float, <4 x float> } (ptr, ptr, i64, i64, i64, float)"
    assert _signature(ir, "mat") == "{ [3 x <2 x double>], i64 } ([2 x <3 x double>], i64)"
    assert _signature(ir, "alloc") == "{ ptr, ptr, i64, [2 x i64], [2 x i64] } ()"
    flat = emit_llvm_ir(API, "avx2", layout="flat")
    assert _signature(flat, "mat") == "{ <6 x double>, i64 } (<6 x double>, i64)"


@pytest.mark.skipif(bool(mlir_tools.missing_tools(22)), reason="MLIR 22 not installed")
def test_abi_is_the_one_mlir_gives() -> None:
    import subprocess

    opt, tr = mlir_tools.find_tool("mlir-opt", 22), mlir_tools.find_tool("mlir-translate", 22)
    lowered = subprocess.run(
        [opt, "--test-lower-to-llvm"], input=API, capture_output=True, text=True, check=True
    ).stdout
    theirs = subprocess.run(
        [tr, "--mlir-to-llvmir"], input=lowered, capture_output=True, text=True, check=True
    ).stdout
    ours = emit_llvm_ir(API, "avx2")
    for name in ("scale", "fill", "mat", "div", "alloc"):
        assert _signature(ours, name) == _signature(theirs, name), name


KERNEL = """
func.func @axpy(%x: memref<64xf32>, %y: memref<64xf32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %va = vector.broadcast %a : f32 to vector<16xf32>
  scf.for %i = %c0 to %c64 step %c16 {
    %vx = vector.load %x[%i] : memref<64xf32>, vector<16xf32>
    %vy = vector.load %y[%i] : memref<64xf32>, vector<16xf32>
    %r = vector.fma %va, %vx, %vy : vector<16xf32>
    vector.store %r, %y[%i] : memref<64xf32>, vector<16xf32>
  }
  return
}
"""


def test_assembly_for_targets_the_host_may_not_run() -> None:
    assert re.search(r"%zmm\d+", emit_assembly(KERNEL, "avx512"))
    assert re.search(r"\bv\d+\.4s\b", emit_assembly(KERNEL, "neon"))
    assert not re.search(r"%[yz]mm\d+", emit_assembly(KERNEL, "x86-64-v2"))


def test_targets_the_host_cannot_run_are_a_clear_error() -> None:
    with pytest.raises(CodegenError, match="cannot execute code for target 'neon'"):
        compile(KERNEL, "neon")
    fake = dataclasses.replace(load_target("avx2"), name="future", requires=("no-such-feature",))
    with pytest.raises(CodegenError, match="cannot execute code for target 'future'"):
        compile(KERNEL, fake)
    if not load_target("avx512").runs_on_host():
        with pytest.raises(CodegenError, match="cannot execute"):
            compile(KERNEL, "avx512")


def test_avx512_code_runs_where_the_host_has_it() -> None:
    if not load_target("avx512").runs_on_host():
        pytest.skip("this host has no AVX-512")
    x, y = np.arange(64, dtype=np.float32), np.ones(64, np.float32)
    compile(KERNEL, "avx512").axpy(x, y, np.float32(2.0))
    assert np.array_equal(y, 2 * np.arange(64, dtype=np.float32) + 1)


DOT = """
func.func @dot(%a: vector<64xf32>, %b: vector<64xf32>) -> f32 {
  %p = arith.mulf %a, %b : vector<64xf32>
  %r = vector.reduction <add>, %p : vector<64xf32> into f32
  return %r : f32
}
"""


def test_reassociation_is_opt_in() -> None:
    assert "reassoc" not in emit_llvm_ir(DOT, "avx2")
    assert "reassoc" in emit_llvm_ir(DOT, "avx2", reassoc=True)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(64).astype(np.float32), rng.standard_normal(64).astype(np.float32)
    want = Interpreter(parse(DOT)).call("dot", a, b)
    t = _host_target()
    assert compile(DOT, t).dot(a, b) == want  # ordered: bit for bit
    assert compile(DOT, t, reassoc=True).dot(a, b) == pytest.approx(want, rel=1e-5, abs=1e-5)


def test_every_op_has_a_lowering_or_a_reason() -> None:
    ops = set(all_specs())
    handled = set(LOWERINGS) | set(STRUCTURAL) | set(UNSUPPORTED)
    assert ops - handled == set()
    assert set(LOWERINGS) - ops == set()
    assert not (set(LOWERINGS) & set(UNSUPPORTED))


def test_unsupported_inputs_are_errors_not_crashes() -> None:
    scalable = "func.func @s() -> vector<[4]xf32> {\n  %v = vector.vscale\n  %z = arith.constant dense<0.0> : vector<[4]xf32>\n  return %z : vector<[4]xf32>\n}"
    with pytest.raises(CodegenError, match="scalable"):
        emit_llvm_ir(scalable, "avx2")
    wide = "func.func @w() {\n  %a = arith.constant 5 : i128\n  vector.print %a : i128\n  return\n}"
    with pytest.raises(CodegenError, match=r"2:3: error: cannot compile 'arith.constant'"):
        emit_llvm_ir(wide, "avx2")


def test_eqsat_compile_is_the_package_level_api() -> None:
    """``eqsat.compile`` is the front door's (``eqsat.api``), loaded lazily; without
    ``optimize`` it compiles the program as written, as ``eqsat.codegen.compile`` does."""
    import eqsat
    from eqsat import api
    from eqsat.codegen import compile as codegen_compile

    assert eqsat.compile is api.compile
    text = "func.func @twice(%x: f32) -> f32 {\n  %y = arith.addf %x, %x : f32\n  return %y : f32\n}"
    target = _host_target()
    assert eqsat.compile(text, target=target).twice(1.5) == 3.0
    assert codegen_compile(text, target).twice(1.5) == 3.0
    with pytest.raises(AttributeError):
        eqsat.no_such_thing  # noqa: B018


@pytest.mark.parametrize("checked", [False, True])
def test_a_static_offset_in_the_type_is_the_arrays_first_element(checked: bool) -> None:
    """A numpy array passed for ``memref<4xf32, strided<[1], offset: 2>>`` is the view: its
    element 0 is the view's element 0, compiled as interpreted (the descriptor's base sits two
    elements before the array; the code adds the type's offset). Before, the base was the
    array and the code read two elements further, the last ones past its end."""
    text = """
func.func @f(%b: memref<4xf32, strided<[1], offset: 2>>, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %x = memref.load %b[%c0] : memref<4xf32, strided<[1], offset: 2>>
  %y = memref.load %b[%c3] : memref<4xf32, strided<[1], offset: 2>>
  memref.store %y, %b[%c0] : memref<4xf32, strided<[1], offset: 2>>
  memref.store %x, %o[%c0] : memref<4xf32>
  return
}
"""
    def run(f: object) -> tuple[list[float], list[float]]:
        b, o = np.arange(1, 5, dtype=np.float32), np.zeros(4, np.float32)
        f(b, o)  # type: ignore[operator]
        return b.tolist(), o.tolist()

    want = run(lambda *a: Interpreter(parse(text)).call("f", *a))
    assert want == ([4.0, 2.0, 3.0, 4.0], [1.0, 0.0, 0.0, 0.0])
    assert run(compile(text, _host_target(), "f", checked=checked)) == want
