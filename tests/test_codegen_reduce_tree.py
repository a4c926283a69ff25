"""The order-free reductions of the llvm dialect (min/max of every flavour, and/or/xor,
integer add/mul) are compiled as a pairwise tree (log depth) instead of a chain of n - 1
dependent steps; every bit must still be the interpreter's ordered fold, signed zeros, NaNs
and infinities included. That needs a minnum/maxnum that is commutative on (+0, -0), which
LLVM's is not (it may return either zero): the compiled one returns the interpreter's."""

from __future__ import annotations

import re

import numpy as np
import pytest

from eqsat.codegen.api import compile, emit_llvm_ir
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from frontend import parse

FLOAT_KINDS = ("fmax", "fmin", "fmaximum", "fminimum")
INT_KINDS = ("add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin")
TARGETS = [t for t in ("avx2", "x86-64-v2") if load_target(t).runs_on_host()]
# NaNs of several payloads per element type: quiet, negative, signalling
NAN_PAYLOADS = {"f32": (np.uint32, [0x7FC00001, 0xFFC00002, 0x7F800003, 0x7FC00004]),
                "f64": (np.uint64, [0x7FF8000000000001, 0xFFF8000000000002, 0x7FF0000000000003]),
                "f16": (np.uint16, [0x7E01, 0xFE02, 0x7C03])}  # fmt: skip


def _kernel(kind: str, n: int, e: str) -> str:
    return (f"func.func @f(%v: vector<{n}x{e}>) -> {e} {{\n"
            f'  %r = "llvm.intr.vector.reduce.{kind}"(%v) : (vector<{n}x{e}>) -> {e}\n'
            f"  return %r : {e}\n}}\n")  # fmt: skip


def test_a_tree_not_a_chain() -> None:
    ir_text = emit_llvm_ir(_kernel("fmax", 256, "f32"), "avx2")
    assert ir_text.count('call <128 x float> @"llvm.maxnum.v128f32"') == 1
    assert len(re.findall(r'call .*@"llvm\.maxnum\.', ir_text)) == 8  # log2(256) steps


def _steps_and_zero_tests(ir_text: str) -> tuple[int, int, int]:
    """(maxnum calls, fcmp oeq, select) in the function @f of ``ir_text``."""
    body = ir_text.split('define ', 2)[1]
    return (len(re.findall(r'call .*@"llvm\.maxnum\.', body)), body.count("fcmp oeq"),
            body.count(" select "))  # fmt: skip


def test_a_max_tree_fixes_the_zeros_sign_once_not_per_step() -> None:
    """The sign of a zero maximum is fixed once, after the tree (``FuncEmitter.fix_zero_sign``);
    per step the fix was a compare, an and and a select over every lane: a third of softmax's
    row-maximum code (README, "Real programs")."""
    steps, oeq, selects = _steps_and_zero_tests(emit_llvm_ir(_kernel("fmax", 256, "f32"), "avx2"))
    assert (steps, oeq) == (8, 1) and selects <= 3  # the zero's two, the all-NaN fold's one


def test_a_max_fold_fixes_the_zeros_sign_once_not_per_step() -> None:
    text = ("func.func @f(%v: vector<16x64xf32>, %a: vector<64xf32>) -> vector<64xf32> {\n"
            "  %r = vector.multi_reduction <maxnumf>, %v, %a [0] : vector<16x64xf32> to "
            "vector<64xf32>\n  return %r : vector<64xf32>\n}\n")  # fmt: skip
    steps, oeq, _ = _steps_and_zero_tests(emit_llvm_ir(text, "avx2", layout="flat"))
    assert steps == 16 and oeq == 1


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("kind", FLOAT_KINDS)
@pytest.mark.parametrize("n", [7, 16, 256])
def test_float_min_max_trees_keep_the_folds_bits(kind: str, n: int) -> None:
    module = parse(_kernel(kind, n, "f32"))
    programs = [compile(module, t, "f") for t in TARGETS]
    rng = np.random.default_rng(n)
    pool = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -1.0, 1e-45], np.float32)
    for _ in range(300):
        v = rng.choice(pool, n).astype(np.float32)
        want = np.float32(Interpreter(module).call("f", v))
        for program in programs:
            got = np.float32(program(v))
            assert (np.isnan(got) and np.isnan(want)) or got.view(np.uint32) == want.view(
                np.uint32
            ), (kind, v.tolist(), got, want)


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("kind", INT_KINDS)
def test_integer_trees_keep_the_folds_value(kind: str) -> None:
    module = parse(_kernel(kind, 13, "i32"))
    programs = [compile(module, t, "f") for t in TARGETS]
    rng = np.random.default_rng(13)
    for _ in range(50):
        v = rng.choice(np.array([0, 1, -1, 2**31 - 1, -(2**31), 7, -7], np.int32), 13)
        want = Interpreter(module).call("f", v)
        for program in programs:
            assert program(v) == want, (kind, v.tolist())


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("op", ["arith.maxnumf", "arith.minnumf"])
@pytest.mark.parametrize("e", ["f32", "f64", "f16"])
def test_element_wise_min_max_num_pick_the_interpreters_zero(op: str, e: str) -> None:
    text = (f"func.func @f(%a: vector<8x{e}>, %b: vector<8x{e}>) -> vector<8x{e}> {{\n"
            f"  %r = {op} %a, %b : vector<8x{e}>\n  return %r : vector<8x{e}>\n}}\n")  # fmt: skip
    module = parse(text)
    dt = {"f32": np.float32, "f64": np.float64, "f16": np.float16}[e]
    a = np.array([0.0, -0.0, 0.0, -0.0, np.nan, 1.0, -0.0, 2.0], dt)
    b = np.array([-0.0, 0.0, 0.0, -0.0, -0.0, np.nan, 1.0, 2.0], dt)
    want = np.asarray(Interpreter(module).call("f", a, b), dt)
    for t in TARGETS:
        got = np.asarray(compile(module, t, "f")(a, b), dt)
        assert np.array_equal(np.signbit(got), np.signbit(want)) and np.array_equal(
            got, want, equal_nan=True
        ), (t, got, want)


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("op", ["arith.maxnumf", "arith.minnumf"])
@pytest.mark.parametrize("e", ["f32", "f64", "f16"])
def test_element_wise_min_max_num_of_two_nans_is_the_second(op: str, e: str) -> None:
    """maxnumf(NaN, y) is y bit for bit when y is NaN too (a half one is computed in f32 by
    LLVM, which quiets a signalling NaN: eqsat.codegen.emitter.nan_as_the_fold)."""
    text = (f"func.func @f(%a: vector<8x{e}>, %b: vector<8x{e}>) -> vector<8x{e}> {{\n"
            f"  %r = {op} %a, %b : vector<8x{e}>\n  return %r : vector<8x{e}>\n}}\n")  # fmt: skip
    module = parse(text)
    dt = {"f32": np.float32, "f64": np.float64, "f16": np.float16}[e]
    ut, payloads = NAN_PAYLOADS[e]
    nans = np.array(payloads, ut)
    a = np.resize(nans, 8).view(dt)
    b = np.resize(nans[::-1], 8).view(dt)
    want = np.asarray(Interpreter(module).call("f", a, b), dt).view(ut)
    for t in TARGETS:
        got = np.asarray(compile(module, t, "f")(a, b), dt).view(ut)
        assert np.array_equal(got, want), (t, got, want)


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("kind", ["maxnumf", "minnumf"])
@pytest.mark.parametrize("e", ["f32", "f64", "f16"])
@pytest.mark.parametrize("form", ["multi_reduction", "reduction"])
def test_min_max_num_folds_keep_the_interpreters_zero(kind: str, e: str, form: str) -> None:
    """The ordered folds (vector.reduction, and multi_reduction lane by lane) with bare
    minnum/maxnum steps and the zero's sign fixed at the end: the interpreter's bits on
    vectors full of signed zeros, NaNs and infinities."""
    if form == "multi_reduction":
        shapes, rt = ((6, 12), (12,)), f"vector<12x{e}>"
        text = (f"func.func @f(%v: vector<6x12x{e}>, %a: {rt}) -> {rt} {{\n"
                f"  %r = vector.multi_reduction <{kind}>, %v, %a [0] : vector<6x12x{e}> to {rt}\n"
                f"  return %r : {rt}\n}}\n")  # fmt: skip
    else:
        shapes, rt = ((12,),), e
        text = (f"func.func @f(%v: vector<12x{e}>) -> {e} {{\n"
                f"  %r = vector.reduction <{kind}>, %v : vector<12x{e}> into {e}\n"
                f"  return %r : {e}\n}}\n")  # fmt: skip
    _same_bits_on_special_values(text, e, shapes, seed=7)


def _same_bits_on_special_values(text: str, e: str, shapes: tuple, seed: int) -> None:
    """@f of ``text`` compiled for every target gives the interpreter's bits (zeros' signs and
    NaN payloads included) on arguments of ``shapes`` drawn from signed zeros, NaNs of several
    payloads (quiet, signalling, negative), infinities and +-1."""
    module = parse(text)
    dt = {"f32": np.float32, "f64": np.float64, "f16": np.float16}[e]
    ut, payloads = NAN_PAYLOADS[e]
    nans = np.array(payloads, ut).view(dt)
    pool = np.concatenate([np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0], dt), nans])
    rng = np.random.default_rng(seed)
    programs = [compile(module, t, "f") for t in TARGETS]
    for _ in range(100):
        args = [rng.choice(pool, s).astype(dt) for s in shapes]
        want = np.asarray(Interpreter(module).call("f", *args), dt).view(ut)
        for program in programs:
            got = np.asarray(program(*args), dt).view(ut)
            assert np.array_equal(got, want), (text, [a.tolist() for a in args], got, want)


def _chain(op: str, e: str, n: int = 4) -> str:
    args = ", ".join(f"%a{i}: vector<8x{e}>" for i in range(n))
    lines, acc = [], "%a0"
    for i in range(1, n):
        lines.append(f"  %m{i} = {op} {acc}, %a{i} : vector<8x{e}>")
        acc = f"%m{i}"
    return (f"func.func @f({args}) -> vector<8x{e}> {{\n" + "\n".join(lines)
            + f"\n  return {acc} : vector<8x{e}>\n}}\n")  # fmt: skip


def _tree(op: str, e: str) -> str:
    """max(max(a0, a1), max(a2, a3)) then with a4: two sub-chains that meet (their zero-sign
    witnesses merged, eqsat.codegen.emitter.ZeroWitness.merge), then one more step."""
    args = ", ".join(f"%a{i}: vector<8x{e}>" for i in range(5))
    return (f"func.func @f({args}) -> vector<8x{e}> {{\n"
            f"  %l = {op} %a0, %a1 : vector<8x{e}>\n  %r = {op} %a2, %a3 : vector<8x{e}>\n"
            f"  %m = {op} %l, %r : vector<8x{e}>\n  %t = {op} %m, %a4 : vector<8x{e}>\n"
            f"  return %t : vector<8x{e}>\n}}\n")  # fmt: skip


# (program of op and element type, its arguments, its min/max ops)
SHAPES = {"chain": (_chain, 4, 3), "tree": (_tree, 5, 4)}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_chain_of_max_ops_fixes_the_zeros_sign_once(shape: str) -> None:
    """``eqsat.codegen.min_max_chain``: the ops inside a chain (each result used only by the
    next) are bare maxnum; the last fixes the zero from the chain's operands."""
    make, _, steps = SHAPES[shape]
    body = emit_llvm_ir(make("arith.maxnumf", "f32"), "avx2").split("define ", 2)[1]
    assert len(re.findall(r'call .*@"llvm\.maxnum\.', body)) == steps
    assert body.count("fcmp oeq") == 1


@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("op", ["arith.maxnumf", "arith.minnumf"])
@pytest.mark.parametrize("e", ["f32", "f64", "f16"])
def test_min_max_num_chains_keep_the_interpreters_zero(shape: str, op: str, e: str) -> None:
    make, n, _ = SHAPES[shape]
    _same_bits_on_special_values(make(op, e), e, ((8,),) * n, seed=11)


def test_a_chain_longer_than_the_recursion_limit_compiles() -> None:
    """3,000 ops in one chain: its operands are gathered without recursion."""
    text = _chain("arith.maxnumf", "f32", 3001)
    body = emit_llvm_ir(text, "avx2").split("define ", 2)[1]
    assert body.count("fcmp oeq") == 1


def _vector_reduction(kind: str, n: int, e: str, acc: bool) -> str:
    a = f", %a: {e}" if acc else ""
    return (f"func.func @f(%v: vector<{n}x{e}>{a}) -> {e} {{\n"
            f"  %r = vector.reduction <{kind}>, %v{', %a' if acc else ''} : vector<{n}x{e}> "
            f"into {e}\n  return %r : {e}\n}}\n")  # fmt: skip


def test_a_min_max_num_vector_reduction_is_a_tree() -> None:
    """vector.reduction <maxnumf> of 64 lanes: 6 halving steps and one with the accumulator,
    not 64 dependent scalar steps (eqsat.codegen.vector_reduce._min_max_num)."""
    text = _vector_reduction("maxnumf", 64, "f32", True)
    body = emit_llvm_ir(text, "avx2").split("define ", 2)[1]
    assert len(re.findall(r'call .*@"llvm\.maxnum\.', body)) == 7



@pytest.mark.skipif(not TARGETS, reason="this host runs none of the x86 targets")
@pytest.mark.parametrize("kind, acc", [("maxnumf", True), ("maxnumf", False), ("minnumf", True),
                                       ("fmax", False), ("fmin", False)])  # fmt: skip
@pytest.mark.parametrize("e", ["f32", "f64", "f16"])
def test_min_max_num_vector_reductions_keep_every_bit(kind: str, acc: bool, e: str) -> None:
    """The trees (vector.reduction, llvm.intr.vector.reduce.fmax/fmin) give the ordered fold's
    bits: signed zeros, and NaNs of several payloads (quiet and signalling, both signs): a fold
    of NaNs only is its last one (f16 llvm.intr trees gave another NaN before)."""
    n = 13
    text = _kernel(kind, n, e) if kind.startswith("f") else _vector_reduction(kind, n, e, acc)
    module = parse(text)
    dt = {"f32": np.float32, "f64": np.float64, "f16": np.float16}[e]
    ut, payloads = NAN_PAYLOADS[e]
    nans = np.array(payloads, ut).view(dt)
    pool = np.concatenate([np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0], dt), nans, nans])
    rng = np.random.default_rng(17)
    programs = [compile(module, t, "f") for t in TARGETS]
    for i in range(150):
        v = rng.choice(nans if i % 5 == 0 else pool, n).astype(dt)  # every fifth: NaNs only
        args = [v, dt(rng.choice(pool))] if acc else [v]
        want = np.asarray(Interpreter(module).call("f", *args), dt).view(ut)
        for program in programs:
            got = np.asarray(program(*args), dt).view(ut)
            assert got == want, (kind, [hex(int(x)) for x in np.asarray(args[0]).view(ut)],
                                 hex(int(got)), hex(int(want)))  # fmt: skip
