"""The HWV ops (frontend/ops/llvm.py, x86vector.py, arm_neon.py): syntax exactly as MLIR 22
prints it, verifier errors at the op, and numpy semantics checked by hand (NaN, -0.0, order).

The programs in tests/programs/hwv_*.mlir pin the semantics against mlir-runner-22 where this
host can run them; here each kernel is checked on values worked out by hand.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from eqsat.schema import constructors
from frontend import MLIRError, parse, print_module
from frontend.ops import lookup

SAMPLE = Path(__file__).parent / "hwv_ops.mlir"
MEMORY = Path(__file__).parent / "hwv_memory_ops.mlir"
HWV_OPS = (
    "llvm.intr.fma", "llvm.intr.fmuladd", "llvm.intr.vector.reduce.fadd",
    "llvm.intr.vector.reduce.fmul", "llvm.intr.vector.reduce.add", "llvm.intr.vector.reduce.mul",
    "llvm.intr.vector.reduce.and", "llvm.intr.vector.reduce.or", "llvm.intr.vector.reduce.xor",
    "llvm.intr.vector.reduce.smax", "llvm.intr.vector.reduce.smin",
    "llvm.intr.vector.reduce.umax", "llvm.intr.vector.reduce.umin",
    "llvm.intr.vector.reduce.fmax", "llvm.intr.vector.reduce.fmin",
    "llvm.intr.vector.reduce.fmaximum", "llvm.intr.vector.reduce.fminimum",
    "llvm.intr.matrix.multiply", "llvm.intr.matrix.transpose", "llvm.call_intrinsic",
    "x86vector.avx.intr.dot", "x86vector.avx512.mask.compress",
    "arm_neon.intr.sdot", "arm_neon.2d.sdot", "arm_neon.intr.smull",
)  # fmt: skip
MEMORY_OPS = (
    "memref.extract_aligned_pointer_as_index", "llvm.inttoptr", "llvm.getelementptr",
    "llvm.intr.masked.load", "llvm.intr.masked.store", "llvm.intr.masked.expandload",
    "llvm.intr.masked.compressstore", "llvm.intr.masked.gather", "llvm.intr.masked.scatter",
)  # fmt: skip


def _mlir_opt(*flags: str, text: str) -> str:
    tool = shutil.which("mlir-opt-22")
    if tool is None:
        pytest.skip("mlir-opt-22 not found (install mlir-22-tools)")
    r = subprocess.run([tool, *flags], input=text, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


# -- syntax ---------------------------------------------------------------------------------------
def test_every_hwv_op_has_a_spec_and_a_constructor() -> None:
    ctors = constructors()
    for name in HWV_OPS:
        assert lookup(name) is not None, name
        assert name in ctors, name


def test_samples_use_every_hwv_op() -> None:
    names = {op.name for op in parse(SAMPLE.read_text()).walk()}
    assert set(HWV_OPS) <= names
    names = {op.name for op in parse(MEMORY.read_text()).walk()}
    assert set(MEMORY_OPS) <= names
    ctors = constructors()
    assert all(name in ctors for name in MEMORY_OPS)


def test_memory_ops_print_as_mlir_opt_22_does() -> None:
    """Generic form: the same text. Custom form: the same except that MLIR names the aligned
    pointer `%intptr`, so MLIR reading our output must print what it prints for the input."""
    text = MEMORY.read_text()
    theirs = _mlir_opt("--mlir-print-op-generic", text=text)
    assert print_module(parse(text), generic=True).rstrip("\n") == theirs.rstrip("\n")
    ours = print_module(parse(text))
    assert _mlir_opt(text=ours) == _mlir_opt(text=text)
    assert print_module(parse(ours)) == ours


def test_memory_ops_round_trip_through_the_egraph() -> None:
    """The same ops with the same attributes and types (pure ops may come out reordered)."""
    import re

    def ops(m) -> list[str]:
        text = print_module(m, generic=True)
        return sorted(re.sub(r"%[\w#]+", "%", line).strip() for line in text.splitlines())

    module = parse(MEMORY.read_text())
    assert ops(optimize_module(module, rules={}).module) == ops(module)


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_we_print_what_mlir_opt_22_prints(generic: bool) -> None:
    text = SAMPLE.read_text()
    flags = ("--mlir-print-op-generic",) if generic else ()
    theirs = _mlir_opt(*flags, text=text)
    ours = print_module(parse(text), generic=generic)
    assert ours.rstrip("\n") == theirs.rstrip("\n")
    # and MLIR reads our output back to the same text
    assert _mlir_opt(*flags, text=ours).rstrip("\n") == theirs.rstrip("\n")


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_print_parse_is_a_fixed_point(generic: bool) -> None:
    once = print_module(parse(SAMPLE.read_text()), generic=generic)
    assert print_module(parse(once), generic=generic) == once


def test_hwv_ops_round_trip_through_the_egraph() -> None:
    """Encoding to terms and decoding back (no rules) gives the same program."""
    module = parse(SAMPLE.read_text())
    out = optimize_module(module, rules={}).module
    assert print_module(out) == print_module(module)


V8 = (
    "%a: vector<8xf32>, %b: vector<8xf32>, %s: f32, %i: vector<8xi32>, %d: f64, %p: !llvm.ptr, "
    "%k: vector<4xi1>"
)
ERRORS = [
    ('%0 = llvm.call_intrinsic "llvm.x86.avx.blend.ps"(%a, %b) : (vector<8xf32>, vector<8xf32>)'
     " -> vector<8xf32>", "intrinsic 'llvm.x86.avx.blend.ps' is not modelled"),
    ('%0 = llvm.call_intrinsic "llvm.x86.sse3.hadd.ps"(%a, %b) : (vector<8xf32>, vector<8xf32>)'
     " -> vector<8xf32>", "takes two vector<4xf32>"),
    ('%0 = "llvm.intr.vector.reduce.fadd"(%d, %a) : (f64, vector<8xf32>) -> f32',
     "requires the same element type"),
    ('%0 = "llvm.intr.vector.reduce.add"(%a) : (vector<8xf32>) -> f32',
     "vector of signless integers"),
    ("%0 = llvm.intr.fma(%a, %b, %s) : (vector<8xf32>, vector<8xf32>, f32) -> vector<8xf32>",
     "same type"),
    ("%0 = x86vector.avx.intr.dot %i, %i : vector<8xi32>", "must be vector<8xf32>"),
    ("%0 = arm_neon.intr.smull %a, %a : vector<8xf32> to vector<8xf64>", "vector<8xi8>"),
    ("%0 = llvm.intr.masked.load %p, %k, %a {alignment = 4 : i32} : (!llvm.ptr, vector<4xi1>, "
     "vector<8xf32>) -> vector<8xf32>", "a mask of its shape"),
    ("%0 = llvm.inttoptr %s : f32 to !llvm.ptr", "converts an i64"),
]  # fmt: skip


@pytest.mark.parametrize("body, phrase", ERRORS, ids=range(len(ERRORS)))
def test_verifier_errors_point_at_the_op(body: str, phrase: str) -> None:
    text = f"func.func @f({V8}) {{\n  {body}\n  return\n}}\n"
    with pytest.raises(MLIRError) as e:
        parse(text, "t.mlir")
    msg = str(e.value)
    assert msg.startswith("t.mlir:2:3: error:"), msg
    assert phrase in msg, msg


# -- semantics, by hand ---------------------------------------------------------------------------
def _call(body: str, args: str, result: str, *values):
    text = f"func.func @f({args}) -> {result} {{\n  %r = {body}\n  return %r : {result}\n}}\n"
    return Interpreter(parse(text)).call("f", *values)


F8 = np.float32


def test_ordered_and_tree_fadd_differ_as_worked_out() -> None:
    v = np.array([1e8, 1, -1e8, 1, 3, 0.5, 0.25, 1e-3], np.float32)
    body = '"llvm.intr.vector.reduce.fadd"(%s, %v) {FM}: (f32, vector<8xf32>) -> f32'
    args = "%s: f32, %v: vector<8xf32>"
    # ordered: 1e8 + 1 = 1e8 (f32), - 1e8 = 0, + 1 + 3 + 0.5 + 0.25 + 0.001 = 4.751
    ordered = _call(body.replace("{FM}", ""), args, "f32", F8(0), v)
    assert ordered == F8(F8(F8(F8(4) + F8(0.5)) + F8(0.25)) + F8(1e-3))
    # tree: (1e8 + 3) + (1 + 0.5) = 100000004 ; (-1e8 + 0.25) + (1 + 0.001) = -99999999.75...
    # halves: [1e8+3, 1.5, -1e8+0.25, 1.001] -> [1e8+3 + (-1e8+0.25), 1.5 + 1.001] -> sum
    tree = _call(
        body.replace("{FM}", "<{fastmathFlags = #llvm.fastmath<reassoc>}> "), args, "f32", F8(0), v
    )
    h1 = [F8(v[i]) + F8(v[i + 4]) for i in range(4)]
    h2 = [F8(h1[0] + h1[2]), F8(h1[1] + h1[3])]
    assert tree == F8(F8(0) + F8(h2[0] + h2[1])) and tree != ordered


def test_fadd_signed_zero_and_nan() -> None:
    args = "%s: f32, %v: vector<4xf32>"
    body = '"llvm.intr.vector.reduce.fadd"(%s, %v) : (f32, vector<4xf32>) -> f32'
    r = _call(body, args, "f32", F8(-0.0), np.full(4, -0.0, F8))
    assert r == 0 and np.signbit(r)  # -0 + -0 + ... = -0
    r = _call(body, args, "f32", F8(0.0), np.full(4, -0.0, F8))
    assert r == 0 and not np.signbit(r)  # +0 + -0 = +0
    r = _call(body, args, "f32", F8(1), np.array([1, np.nan, 2, 3], F8))
    assert np.isnan(r)


@pytest.mark.parametrize(
    "kind, expect",
    [("fmax", 2.5), ("fmin", -3.0), ("fmaximum", np.nan), ("fminimum", np.nan)],
)
def test_float_min_max_nan(kind: str, expect: float) -> None:
    v = np.array([1.0, np.nan, -3.0, 2.5], F8)
    body = f'"llvm.intr.vector.reduce.{kind}"(%v) : (vector<4xf32>) -> f32'
    r = _call(body, "%v: vector<4xf32>", "f32", v)
    assert (np.isnan(r) and np.isnan(expect)) or r == expect


def test_fmaximum_orders_signed_zeros() -> None:
    body = '"llvm.intr.vector.reduce.fmaximum"(%v) : (vector<4xf32>) -> f32'
    r = _call(body, "%v: vector<4xf32>", "f32", np.array([-0.0, 0.0, -0.0, -1.0], F8))
    assert r == 0 and not np.signbit(r)
    body = body.replace("fmaximum", "fminimum")
    r = _call(body, "%v: vector<4xf32>", "f32", np.array([0.0, -0.0, 1.0, 0.0], F8))
    assert r == 0 and np.signbit(r)


def test_integer_reductions_wrap_and_read_unsigned() -> None:
    v = np.array([2147483647, 1, -5, 12], np.int32)
    args = "%v: vector<4xi32>"
    red = '"llvm.intr.vector.reduce.{}"(%v) : (vector<4xi32>) -> i32'
    assert _call(red.format("add"), args, "i32", v) == -2147483648 + 7  # wraps once
    assert _call(red.format("umax"), args, "i32", v) == -5  # 0xFFFFFFFB is the largest unsigned
    assert _call(red.format("umin"), args, "i32", v) == 1
    assert _call(red.format("smin"), args, "i32", v) == -5
    assert _call(red.format("xor"), args, "i32", v) == (2147483647 ^ 1 ^ -5 ^ 12)


def test_hadd_and_faddp() -> None:
    a = np.array([1, 2, 3, 4, 5, 6, 7, 8], F8)
    b = np.array([10, 20, 30, 40, 50, 60, 70, 80], F8)
    body = (
        'llvm.call_intrinsic "llvm.x86.avx.hadd.ps.256"(%a, %b) : '
        "(vector<8xf32>, vector<8xf32>) -> vector<8xf32>"
    )
    r = _call(body, "%a: vector<8xf32>, %b: vector<8xf32>", "vector<8xf32>", a, b)
    assert r.tolist() == [3, 7, 30, 70, 11, 15, 110, 150]  # per 128-bit block
    body = (
        'llvm.call_intrinsic "llvm.aarch64.neon.faddp.v4f32"(%a, %b) : '
        "(vector<4xf32>, vector<4xf32>) -> vector<4xf32>"
    )
    r = _call(body, "%a: vector<4xf32>, %b: vector<4xf32>", "vector<4xf32>", a[:4], b[:4])
    assert r.tolist() == [3, 7, 30, 70]


def test_avx_dot_is_a_tree_per_half() -> None:
    a = np.array([1e8, 1, -1e8, 1, 1, 2, 3, 4], F8)
    b = np.ones(8, F8)
    r = _call("x86vector.avx.intr.dot %a, %b : vector<8xf32>",
              "%a: vector<8xf32>, %b: vector<8xf32>", "vector<8xf32>", a, b)
    # (1e8 + 1) + (-1e8 + 1) = 1e8 - 1e8 = 0 in f32 (a sequential sum would give 1)
    assert r.tolist() == [0, 0, 0, 0, 10, 10, 10, 10]


def test_compress_fills_with_src_or_zero() -> None:
    k = np.array([True, False] * 8)
    a = np.arange(16, dtype=F8)
    src = np.full(16, -1, F8)
    args = "%k: vector<16xi1>, %a: vector<16xf32>, %s: vector<16xf32>"
    r = _call("x86vector.avx512.mask.compress %k, %a, %s : vector<16xf32>, vector<16xf32>",
              args, "vector<16xf32>", k, a, src)
    assert r.tolist() == [0, 2, 4, 6, 8, 10, 12, 14] + [-1] * 8
    r = _call("x86vector.avx512.mask.compress %k, %a : vector<16xf32>", args,
              "vector<16xf32>", k, a, src)
    assert r.tolist() == [0, 2, 4, 6, 8, 10, 12, 14] + [0] * 8


def test_neon_sdot_and_smull() -> None:
    acc = np.array([100, 2147483647], np.int32)
    a = np.array([1, 2, 3, 4, -128, -128, 127, 0], np.int8)
    b = np.array([5, 6, 7, 8, -128, 127, 127, 1], np.int8)
    r = _call("arm_neon.intr.sdot %acc, %a, %b : vector<8xi8>, vector<8xi8> to vector<2xi32>",
              "%acc: vector<2xi32>, %a: vector<8xi8>, %b: vector<8xi8>", "vector<2xi32>",
              acc, a, b)
    # 100 + 5 + 12 + 21 + 32 = 170; INT_MAX + 16384 - 16256 + 16129 wraps to INT_MIN + 16256
    assert r.tolist() == [170, -2147483648 + 16256]
    r = _call("arm_neon.intr.smull %a, %b : vector<8xi8> to vector<8xi16>",
              "%a: vector<8xi8>, %b: vector<8xi8>", "vector<8xi16>", a, b)
    assert r.tolist() == [5, 12, 21, 32, 16384, -16256, 16129, 0]


def test_getelementptr_with_two_indices_is_a_clear_error() -> None:
    text = (
        "func.func @f(%p: !llvm.ptr, %i: i64) {\n"
        "  %0 = llvm.getelementptr %p[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, f32\n"
        "  return\n}\n"
    )
    with pytest.raises(MLIRError) as e:
        parse(text, "t.mlir")
    assert str(e.value).startswith("t.mlir:2:") and "one index is modelled" in str(e.value)


POINTER_PROGRAM = """
func.func @f(%m: memref<8xf32>, %i: i64, %k: vector<4xi1>) -> vector<4xf32> {
  %base = memref.extract_aligned_pointer_as_index %m : memref<8xf32> -> index
  %b = arith.index_cast %base : index to i64
  %p = llvm.inttoptr %b : i64 to !llvm.ptr
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %pt = arith.constant dense<-1.0> : vector<4xf32>
  %v = llvm.intr.masked.load %q, %k, %pt {alignment = 4 : i32}
      : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
  %w = arith.constant dense<[10.0, 11.0, 12.0, 13.0]> : vector<4xf32>
  llvm.intr.masked.store %w, %q, %k {alignment = 4 : i32}
      : vector<4xf32>, vector<4xi1> into !llvm.ptr
  return %v : vector<4xf32>
}"""


def test_pointer_loads_and_stores_reach_the_memref() -> None:
    m = np.arange(8, dtype=F8)
    k = np.array([True, False, True, True])
    v = Interpreter(parse(POINTER_PROGRAM)).call("f", m, np.int64(4), k)
    assert v.tolist() == [4, -1, 6, 7]  # lanes 0, 2, 3 read m[4 + lane]
    assert m.tolist() == [0, 1, 2, 3, 10, 5, 12, 13]  # and were written back


def test_masked_off_lanes_may_point_past_the_end_set_lanes_may_not() -> None:
    m = np.arange(8, dtype=F8)
    k = np.array([True, True, False, False])
    v = Interpreter(parse(POINTER_PROGRAM)).call("f", m, np.int64(6), k)
    assert v.tolist() == [6, 7, -1, -1]
    with pytest.raises(MLIRError, match="leaves its buffer"):
        Interpreter(parse(POINTER_PROGRAM)).call("f", m, np.int64(7), k)
