"""Legalize rules (rules/legalize/*.egg) turn VV programs into HWV ops that compute the same.

Each test optimizes a VV program with the legalize files of one target and a width-aware cost
model of its own (HWV ops cheap, the VV ops they replace dear, both by registers spanned), checks
that the HWV ops were chosen, and runs input and output in the interpreter on the same inputs:
exact files must give the same bits (NaN and -0.0 included), fast-math files close values.
"""

from __future__ import annotations

import numpy as np
import pytest

from eqsat.cost import table_cost
from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from eqsat.rulefile import load, phase_files
from frontend import parse, print_module

NATIVE = {"f32": 8, "f64": 4, "i32": 8, "i8": 32, "i16": 16, "i64": 4}
# The VV ops the legalize rules replace, and the shuffles of a horizontal add.
ORDERED = ("LlvmIntrVectorReduceFadd", "LlvmIntrVectorReduceFmul")
VV_ONLY = (
    "Reduction", "Fma", "MathFma", "MultiReduction", "Contract", "Compressstore", "Maskedload",
    "Maskedstore", "Expandload", "Gather", "Scatter",
)  # fmt: skip


def _registers(literals: tuple) -> float:
    """Registers a result spans: lanes / native lanes of its element type (at least 1)."""
    t = literals[-1] if literals and isinstance(literals[-1], tuple) else None
    if not (t and t[0] == "type" and len(t) == 3):
        return 1.0
    lanes = 1
    for d in t[1]:
        lanes *= d
    return max(1.0, lanes / NATIVE.get(t[2], 4))


def hwv_cost(extra: dict | None = None):
    """HWV constructors cost 1 per register (2 per register past one: LLVM splits them),
    ordered float reductions 8, the VV ops they replace 20 per register, shuffles 3."""

    def priced(weight: float):
        return lambda literals: weight * _registers(literals)

    own: dict = {name: priced(20.0) for name in VV_ONLY}
    own["Shuffle"] = priced(3.0)
    own.update(extra or {})
    cost = table_cost(own)

    def model(op: str, literals: tuple, children: tuple) -> float:
        if extra and op in extra:
            return cost(op, literals, children)
        if op in ORDERED and "reassoc" not in literals:  # a chain of dependent adds
            return 8.0 + sum(children)
        if op.startswith(("Llvm", "X86vector", "ArmNeon")):
            regs = _registers(literals)
            return (regs if regs <= 1 else 2 * regs) + sum(children)
        return cost(op, literals, children)

    return model


def legalize(text: str, *names: str, native: dict | None = None, extra: dict | None = None):
    module = parse(text)
    rules = {
        "canonicalize": phase_files("canonicalize"),
        "explore": phase_files("explore"),
        "legalize": tuple(load(f"legalize/{n}") for n in names),
    }
    result = optimize_module(module, rules=rules, cost=hwv_cost(extra), native=native)
    return module, result.module, print_module(result.module)


def _same(a, b, exact: bool) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind != "f":
        return np.array_equal(a, b)
    if exact:  # same bits, NaN and the sign of zero included
        return np.array_equal(np.signbit(a), np.signbit(b)) and np.array_equal(a, b, equal_nan=True)
    return np.allclose(a, b, rtol=1e-5, atol=1e-5, equal_nan=True)


def run_both(before, after, fn: str, args: list, exact: bool = True) -> None:
    copies = [[x.copy() if isinstance(x, np.ndarray) else x for x in args] for _ in range(2)]
    r1 = Interpreter(before).call(fn, *copies[0])
    r2 = Interpreter(after).call(fn, *copies[1])
    r1 = r1 if isinstance(r1, (tuple, list)) else [r1]
    r2 = r2 if isinstance(r2, (tuple, list)) else [r2]
    for x, y in zip(r1, r2):
        assert _same(x, y, exact), (fn, x, y)
    for x, y in zip(copies[0], copies[1]):  # memory written through memref arguments
        assert _same(x, y, exact), (fn, x, y)


def floats(rng: np.random.Generator, n: int, dtype=np.float32) -> np.ndarray:
    """Random values with the specials reductions must respect: NaN, -0.0, +0.0, inf."""
    x = rng.normal(0, 3, n).astype(dtype)
    x[rng.integers(0, n)] = -0.0
    return x


@pytest.mark.parametrize("n", [4, 8, 16])
def test_common_reductions_and_fma_become_llvm_intrinsics(n: int) -> None:
    text = f"""
func.func @f(%v: vector<{n}xf32>, %w: vector<{n}xf32>, %acc: f32, %i: vector<{n}xi32>, %j: i32)
    -> (f32, f32, f32, f32, vector<{n}xf32>, vector<{n}xf32>, i32, i32, i32) {{
  %0 = vector.reduction <add>, %v, %acc : vector<{n}xf32> into f32
  %1 = vector.reduction <add>, %v : vector<{n}xf32> into f32
  %2 = vector.reduction <maximumf>, %v : vector<{n}xf32> into f32
  %3 = vector.reduction <minnumf>, %v, %acc : vector<{n}xf32> into f32
  %4 = vector.fma %v, %w, %v : vector<{n}xf32>
  %5 = math.fma %w, %v, %w : vector<{n}xf32>
  %6 = vector.reduction <add>, %i, %j : vector<{n}xi32> into i32
  %7 = vector.reduction <maxui>, %i : vector<{n}xi32> into i32
  %8 = vector.reduction <xor>, %i, %j : vector<{n}xi32> into i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
    : f32, f32, f32, f32, vector<{n}xf32>, vector<{n}xf32>, i32, i32, i32
}}"""
    before, after, out = legalize(text, "common")
    for op in ("reduce.fadd", "reduce.fmaximum", "reduce.fmin", "llvm.intr.fma", "reduce.add",
               "reduce.umax", "reduce.xor"):
        assert op in out, (op, out)
    assert "vector.reduction" not in out and "vector.fma" not in out and "math.fma" not in out
    rng = np.random.default_rng(n)
    for trial in range(20):
        v, w = floats(rng, n), floats(rng, n)
        if trial % 4 == 1:
            v[rng.integers(0, n)] = np.nan
        if trial % 4 == 2:
            v[:] = -0.0
        acc = np.float32(-0.0 if trial % 3 == 0 else rng.normal())
        i = rng.integers(-(2**31), 2**31, n).astype(np.int32)
        run_both(before, after, "f", [v, w, acc, i, np.int32(rng.integers(-100, 100))])


def test_reduction_without_acc_keeps_minus_zero() -> None:
    """reduction<add> of all -0.0 is -0.0 (its fold starts at -0.0): the fadd must too."""
    text = """
func.func @f(%v: vector<8xf32>) -> f32 {
  %0 = vector.reduction <add>, %v : vector<8xf32> into f32
  return %0 : f32
}"""
    before, after, out = legalize(text, "common")
    assert "llvm.intr.vector.reduce.fadd" in out
    r = Interpreter(after).call("f", np.full(8, -0.0, np.float32))
    assert r == 0 and np.signbit(r)
    run_both(before, after, "f", [np.full(8, -0.0, np.float32)])


def test_fma_on_wide_vectors_is_legalized_per_native_tile() -> None:
    """vector<32xf32> with 8 native lanes: unrolled to 4 tiles, each an llvm.intr.fma."""
    text = """
func.func @f(%a: vector<32xf32>, %b: vector<32xf32>, %c: vector<32xf32>) -> vector<32xf32> {
  %0 = vector.fma %a, %b, %c : vector<32xf32>
  return %0 : vector<32xf32>
}"""
    before, after, out = legalize(text, "common", native={"f32": 8})
    assert "llvm.intr.fma" in out and "vector<8xf32>" in out, out
    rng = np.random.default_rng(1)
    run_both(before, after, "f", [floats(rng, 32), floats(rng, 32), floats(rng, 32)])


@pytest.mark.parametrize("n", [4, 8, 16])
def test_fast_math_reduction_becomes_a_tree(n: int) -> None:
    text = f"""
func.func @f(%v: vector<{n}xf32>, %acc: f32) -> f32 {{
  %0 = vector.reduction <add>, %v, %acc : vector<{n}xf32> into f32
  return %0 : f32
}}"""
    before, after, out = legalize(text, "common", "common-fast-math")
    assert "llvm.intr.vector.reduce.fadd" in out
    rng = np.random.default_rng(n)
    for _ in range(10):
        run_both(before, after, "f", [floats(rng, n), np.float32(rng.normal())], exact=False)


def test_exact_files_never_reassociate() -> None:
    """Without the fast-math file the fadd stays ordered (no reassoc flag)."""
    text = """
func.func @f(%v: vector<8xf32>, %acc: f32) -> f32 {
  %0 = vector.reduction <add>, %v, %acc : vector<8xf32> into f32
  return %0 : f32
}"""
    _, _, out = legalize(text, "common", "x86", "avx512", "neon")
    assert "llvm.intr.vector.reduce.fadd" in out and "reassoc" not in out


HADD = {
    4: ("[0, 2, 4, 6]", "[1, 3, 5, 7]", "llvm.x86.sse3.hadd.ps"),
    8: ("[0, 2, 8, 10, 4, 6, 12, 14]", "[1, 3, 9, 11, 5, 7, 13, 15]", "llvm.x86.avx.hadd.ps.256"),
}


@pytest.mark.parametrize("n", [4, 8])
def test_x86_horizontal_add(n: int) -> None:
    even, odd, name = HADD[n]
    t = f"vector<{n}xf32>"
    text = f"""
func.func @f(%a: {t}, %b: {t}) -> {t} {{
  %0 = vector.shuffle %a, %b {even} : {t}, {t}
  %1 = vector.shuffle %a, %b {odd} : {t}, {t}
  %2 = arith.addf %0, %1 : {t}
  return %2 : {t}
}}"""
    before, after, out = legalize(text, "common", "x86", "avx")
    assert name in out and "vector.shuffle" not in out, out
    rng = np.random.default_rng(n)
    for _ in range(5):
        run_both(before, after, "f", [floats(rng, n), floats(rng, n)])


@pytest.mark.parametrize("n", [8, 16])
def test_x86_dot_products_under_fast_math(n: int) -> None:
    """8 x f32 dot products (fast-math) through x86vector.avx.intr.dot; 16 lanes unroll first."""
    text = f"""
func.func @f(%a: vector<8xf32>, %b: vector<8xf32>, %acc: f32) -> f32 {{
  %p = arith.mulf %a, %b : vector<8xf32>
  %0 = vector.reduction <add>, %p, %acc : vector<8xf32> into f32
  return %0 : f32
}}"""
    if n == 16:
        text = text.replace("vector<8xf32>", "vector<16xf32>")
    before, after, out = legalize(text, "common", "x86", "avx", "avx-fast-math")
    if n == 8:
        assert "x86vector.avx.intr.dot" in out, out
    rng = np.random.default_rng(n)
    for _ in range(5):
        run_both(before, after, "f", [floats(rng, n), floats(rng, n), np.float32(1.5)], exact=False)


def test_avx512_compressstore_becomes_compress_and_masked_store() -> None:
    text = """
func.func @f(%m: memref<40xf32>, %i: index, %k: vector<16xi1>, %v: vector<16xf32>) {
  vector.compressstore %m[%i], %k, %v : memref<40xf32>, vector<16xi1>, vector<16xf32>
  return
}"""
    # price out the other forms (compressstore itself, llvm.intr.masked.compressstore)
    before, after, out = legalize(
        text, "common", "x86", "avx512",
        extra={"LlvmIntrMaskedCompressstore": 100.0, "Compressstore": 100.0},
    )
    assert "x86vector.avx512.mask.compress" in out and "llvm.intr.masked.store" in out, out
    rng = np.random.default_rng(3)
    for idx in (0, 7, 24):
        k = rng.integers(0, 2, 16).astype(bool)
        run_both(before, after, "f", [floats(rng, 40), idx, k, floats(rng, 16)])


@pytest.mark.parametrize("rows", [2, 4])
def test_neon_sdot_from_i8_contract(rows: int) -> None:
    a, r = f"vector<{rows}x4xi8>", f"vector<{rows}xi32>"
    text = f"""
func.func @f(%a: {a}, %b: {a}, %acc: {r}) -> {r} {{
  %0 = vector.contract {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>}}
      %a, %b, %acc : {a}, {a} into {r}
  return %0 : {r}
}}"""
    before, after, out = legalize(text, "common", "neon")
    assert "arm_neon" in out and "sdot" in out and "vector.contract" not in out, out
    rng = np.random.default_rng(rows)
    for _ in range(5):
        x = rng.integers(-128, 128, (rows, 4)).astype(np.int8)
        y = rng.integers(-128, 128, (rows, 4)).astype(np.int8)
        acc = rng.integers(-(2**31), 2**31, rows).astype(np.int32)
        run_both(before, after, "f", [x, y, acc])


def test_neon_smull_and_faddp() -> None:
    text = """
func.func @f(%a: vector<8xi8>, %b: vector<8xi8>, %c: vector<4xf32>, %d: vector<4xf32>)
    -> (vector<8xi16>, vector<4xf32>) {
  %ae = arith.extsi %a : vector<8xi8> to vector<8xi16>
  %be = arith.extsi %b : vector<8xi8> to vector<8xi16>
  %0 = arith.muli %ae, %be : vector<8xi16>
  %1 = vector.shuffle %c, %d [0, 2, 4, 6] : vector<4xf32>, vector<4xf32>
  %2 = vector.shuffle %c, %d [1, 3, 5, 7] : vector<4xf32>, vector<4xf32>
  %3 = arith.addf %1, %2 : vector<4xf32>
  return %0, %3 : vector<8xi16>, vector<4xf32>
}"""
    before, after, out = legalize(text, "common", "neon")
    assert "arm_neon.intr.smull" in out and "llvm.aarch64.neon.faddp.v4f32" in out, out
    rng = np.random.default_rng(5)
    for _ in range(5):
        x = rng.integers(-128, 128, 8).astype(np.int8)
        y = rng.integers(-128, 128, 8).astype(np.int8)
        run_both(before, after, "f", [x, y, floats(rng, 4), floats(rng, 4)])


def test_every_legalize_rule_has_a_law_and_a_name() -> None:
    for rf in phase_files("legalize"):
        assert rf.rules, rf.path
        for rule in rf.rules:
            assert rule.law, f"{rf.path.name}:{rule.line} has no law comment"
            assert ":" not in rule.label, f"{rf.path.name}:{rule.line} has no :name"
        fast = rf.path.stem.endswith("fast-math")
        for rule in rf.rules:  # fast-math laws say so (check-rules then allows rounding)
            assert ("fast-math" in rule.law) == fast, (rf.path.name, rule.label)


@pytest.mark.parametrize("n", [4, 8, 16])
def test_masked_memory_ops_become_llvm_masked_intrinsics(n: int) -> None:
    """maskedload/maskedstore/expandload/compressstore/gather/scatter on a 1-D memref go
    through the aligned pointer to llvm.intr.masked.*; values and memory stay the same."""
    v, k, ix = f"vector<{n}xf32>", f"vector<{n}xi1>", f"vector<{n}xi32>"
    text = f"""
func.func @f(%m: memref<40xf32>, %i: index, %k: {k}, %v: {v}, %g: {ix}) -> ({v}, {v}, {v}) {{
  %0 = vector.maskedload %m[%i], %k, %v : memref<40xf32>, {k}, {v} into {v}
  vector.maskedstore %m[%i], %k, %v : memref<40xf32>, {k}, {v}
  %c3 = arith.constant 3 : index
  %1 = vector.expandload %m[%c3], %k, %0 : memref<40xf32>, {k}, {v} into {v}
  vector.compressstore %m[%i], %k, %1 : memref<40xf32>, {k}, {v}
  %2 = vector.gather %m[%c3][%g], %k, %1 : memref<40xf32>, {ix}, {k}, {v} into {v}
  vector.scatter %m[%i][%g], %k, %2 : memref<40xf32>, {ix}, {k}, {v}
  return %0, %1, %2 : {v}, {v}, {v}
}}"""
    before, after, out = legalize(text, "common")
    for op in ("llvm.intr.masked.load", "llvm.intr.masked.store", "llvm.intr.masked.expandload",
               "llvm.intr.masked.compressstore", "llvm.intr.masked.gather",
               "llvm.intr.masked.scatter", "llvm.getelementptr"):
        assert op in out, (op, out)
    for op in ("vector.maskedload", "vector.maskedstore", "vector.expandload",
               "vector.compressstore", "vector.gather", "vector.scatter"):
        assert op not in out, (op, out)
    rng = np.random.default_rng(n)
    for idx in (0, 5, 40 - n - 3):
        k_ = rng.integers(0, 2, n).astype(bool)
        g = rng.permutation(n).astype(np.int32)  # distinct offsets: a scatter is then defined
        run_both(before, after, "f", [floats(rng, 40), idx, k_, floats(rng, n), g])
