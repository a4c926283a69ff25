"""What MLIR 22 accepts end to end (verify, lower, translate to LLVM IR) for the ``llvm``
dialect's HWV ops, found by ``experiments/verifier_parity.py``: each fix checked at the op, and
the end-to-end acceptance itself checked against real MLIR where it is installed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mlir_tools import find_tool

from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from frontend import MLIRError, parse, print_module

ARGS = (
    "%a: vector<4xf32>, %i: vector<4xindex>, %s: vector<4xsi32>, %u: vector<8xui8>, "
    "%p: !llvm.ptr, %k: vector<4xi1>, %ps: vector<4x!llvm.ptr>, %x: vector<[4]xi64>"
)
REJECTED = [
    ("%0 = llvm.intr.matrix.multiply %i, %i { lhs_columns = 2 : i32, lhs_rows = 2 : i32, "
     "rhs_columns = 2 : i32} : (vector<4xindex>, vector<4xindex>) -> vector<4xindex>",
     "LLVM dialect-compatible vector type"),
    ("%0 = llvm.intr.matrix.transpose %s {rows = 2 : i32, columns = 2 : i32} : vector<4xsi32> "
     "into vector<4xsi32>", "LLVM dialect-compatible vector type"),
    ('%0 = "llvm.intr.vector.reduce.add"(%u) : (vector<8xui8>) -> ui8', "signless integers"),
    ('%0 = "llvm.intr.vector.reduce.smax"(%s) : (vector<4xsi32>) -> si32', "signless integers"),
    ("%0 = llvm.intr.masked.load %p, %k, %a {alignment = 0 : i32} : (!llvm.ptr, vector<4xi1>, "
     "vector<4xf32>) -> vector<4xf32>", "alignment must not be 0"),
    ("llvm.intr.masked.store %a, %p, %k {alignment = 0 : i32} : vector<4xf32>, vector<4xi1> "
     "into !llvm.ptr", "alignment must not be 0"),
    ('%0 = "llvm.getelementptr"(%p, %x) <{elem_type = f32, noWrapFlags = 0 : i32, '
     "rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, vector<[4]xi64>) -> "
     "vector<4x!llvm.ptr>", "incompatible with return type"),
    ('%0 = "llvm.getelementptr"(%p) <{elem_type = f32, noWrapFlags = 1 : i32, '
     "rawConstantIndices = array<i32: 1>}> : (!llvm.ptr) -> !llvm.ptr", "noWrapFlags 1"),
    ('%0 = "llvm.call_intrinsic"(%a, %a) <{fastmathFlags = #llvm.fastmath<none>, '
     'intrin = "llvm.aarch64.neon.faddp.v4f32", operandSegmentSizes = array<i32: 2, 0>}> : '
     "(vector<4xf32>, vector<4xf32>) -> vector<4xf32>", "requires attribute 'op_bundle_sizes'"),
    ('%0 = llvm.call_intrinsic "llvm.aarch64.neon.faddp.v4f32"(%k, %k) : '
     "(vector<4xi1>, vector<4xi1>) -> vector<4xi1>", "takes two vector<4xf32>"),
]  # fmt: skip


@pytest.mark.parametrize("body, phrase", REJECTED, ids=range(len(REJECTED)))
def test_rejected_as_mlir_22_rejects_end_to_end(body: str, phrase: str) -> None:
    text = f"func.func @f({ARGS}) {{\n  {body}\n  return\n}}\n"
    with pytest.raises(MLIRError) as e:
        parse(text, "t.mlir")
    msg = str(e.value)
    assert msg.startswith("t.mlir:2:"), msg
    assert phrase in msg, msg


ACCEPTED = """
func.func @f1(%s: i32) -> i32 {
  %v = vector.broadcast %s : i32 to vector<[4]xi32>
  %r = "llvm.intr.vector.reduce.add"(%v) : (vector<[4]xi32>) -> i32
  return %r : i32
}
func.func @f2(%a: vector<4xf16>, %b: vector<4xf16>) -> vector<4xf16> {
  %r = llvm.call_intrinsic "llvm.aarch64.neon.faddp.v4f32"(%a, %b)
      : (vector<4xf16>, vector<4xf16>) -> vector<4xf16>
  return %r : vector<4xf16>
}
func.func @f3(%p: !llvm.ptr, %i: i64, %x: vector<[4]xi64>, %k: vector<4xi1>, %v: vector<4xf32>)
    -> (!llvm.ptr, vector<[4]x!llvm.ptr>, vector<4xf32>) {
  %q = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %r = llvm.getelementptr nusw %q[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %s = llvm.getelementptr inbounds_flag|nuw %r[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %t = llvm.getelementptr nusw|nuw %s[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %u = llvm.getelementptr %p[%x] : (!llvm.ptr, vector<[4]xi64>) -> vector<[4]x!llvm.ptr>, f32
  %ps = vector.broadcast %t : !llvm.ptr to vector<4x!llvm.ptr>
  %w = llvm.intr.masked.gather %ps, %k, %v {alignment = 0 : i32}
      : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
  return %t, %u, %w : !llvm.ptr, vector<[4]x!llvm.ptr>, vector<4xf32>
}
"""


def test_accepted_forms_print_back_and_round_trip() -> None:
    m = parse(ACCEPTED, "t.mlir")
    text = print_module(m)
    assert "getelementptr inbounds|nuw" in text and "getelementptr nusw %" in text
    assert "inbounds_flag|nuw" in text and "nusw|nuw" in text
    assert print_module(parse(text)) == text
    assert print_module(parse(print_module(m, generic=True))) == text
    assert print_module(optimize_module(m, rules={}).module) == text


def test_scalable_reduction_and_overloaded_faddp_run() -> None:
    m = parse(ACCEPTED, "t.mlir")
    assert Interpreter(m, vscale=2).call("f1", np.int32(3)) == 24  # 8 lanes of 3
    a = np.array([1, 2, 3, 4], np.float16)
    b = np.array([10, 20, 30, 40], np.float16)
    r = Interpreter(m).call("f2", a, b)
    assert r.dtype == np.float16 and r.tolist() == [3, 7, 30, 70]


def test_mlir_22_accepts_them_end_to_end() -> None:
    """The forms above go through mlir-opt-22, the lowering and mlir-translate-22; a hadd.pd of
    f32 vectors passes mlir-opt-22 but not translation (LLVM checks the signature)."""
    if find_tool("mlir-opt", 22) is None or find_tool("mlir-translate", 22) is None:
        pytest.skip("mlir-opt-22 / mlir-translate-22 not installed")
    from experiments.verifier_parity import mlir_accepts

    bad = (
        "func.func @f4(%a: vector<2xf32>) -> vector<2xf32> {\n"
        '  %0 = llvm.call_intrinsic "llvm.x86.sse3.hadd.pd"(%a, %a) : '
        "(vector<2xf32>, vector<2xf32>) -> vector<2xf32>\n  return %0 : vector<2xf32>\n}\n"
    )
    ours = print_module(parse(ACCEPTED))
    texts = {"f1": ours, "f4": bad}  # f1's module holds f1, f2, f3: all must translate
    assert mlir_accepts(texts, 22) == {"f1": True, "f4": True}  # mlir-opt alone
    assert mlir_accepts(texts, 22, frozenset(texts)) == {"f1": True, "f4": False}


NO_INDEX = """
func.func @f(%m: memref<8xf32>, %k: vector<4xi1>) -> vector<4xf32> {
  %base = memref.extract_aligned_pointer_as_index %m : memref<8xf32> -> index
  %b = arith.index_cast %base : index to i64
  %p = llvm.inttoptr %b : i64 to !llvm.ptr
  %q = "llvm.getelementptr"(%p) <{elem_type = f32, noWrapFlags = 0 : i32,
      rawConstantIndices = array<i32>}> : (!llvm.ptr) -> !llvm.ptr
  %pt = arith.constant dense<-1.0> : vector<4xf32>
  %v = llvm.intr.masked.load %q, %k, %pt {alignment = 4 : i32}
      : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
  return %v : vector<4xf32>
}"""


def test_getelementptr_without_index_is_its_base_and_prints_generically() -> None:
    """MLIR 22 prints it `%p[]`, which its parser rejects: eqsat prints the generic form."""
    m = parse(NO_INDEX, "t.mlir")
    text = print_module(m)
    assert '= "llvm.getelementptr"(%2) <{' in text and "[]" not in text
    assert print_module(parse(text)) == text
    data = np.arange(8, dtype=np.float32)
    r = Interpreter(m).call("f", data, np.array([True, False, True, True]))
    assert r.tolist() == [0, -1, 2, 3]
    assert print_module(optimize_module(m, rules={}).module) == text
    bad = (
        "func.func @g(%p: !llvm.ptr) {\n"
        "  %0 = llvm.getelementptr %p[] : (!llvm.ptr) -> !llvm.ptr, f32\n  return\n}\n"
    )
    with pytest.raises(MLIRError, match="t.mlir:2:"):  # as mlir-opt-22 rejects it
        parse(bad, "t.mlir")
