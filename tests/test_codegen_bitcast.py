"""``vector.bitcast`` between integer element widths, compiled, bit for bit against the
interpreter: from loaded data and from constants (LLVM folds a bitcast of a constant itself,
and LLVM 22 gets it wrong where neither width divides the other: ``vector<16xi5>`` to
``vector<10xi8>`` came out unpacked, ``vector<2xi24>`` to ``vector<3xi16>`` aborted the
process; MLIR's own ``rewrite-narrow-types.mlir`` integration test has both kinds)."""

from __future__ import annotations

import numpy as np
import pytest

from eqsat.codegen.api import compile, emit_llvm_ir
from eqsat.interpreter import Interpreter
from eqsat.targets import load_target
from frontend import parse

#: (source width, count) -> (result width, count): odd and byte widths, each way, with and
#: without a common divisor of the two widths, one of 15 bits.
PAIRS = [((5, 16), (8, 10)), ((8, 10), (5, 16)), ((24, 2), (16, 3)), ((16, 3), (24, 2)),
         ((3, 8), (8, 3)), ((8, 3), (3, 8)), ((6, 4), (8, 3)), ((8, 3), (6, 4)),
         ((5, 3), (3, 5)), ((12, 4), (3, 16)), ((3, 16), (12, 4)), ((5, 16), (1, 80)),
         ((7, 8), (8, 7)), ((16, 4), (32, 2))]

LOADED = """
func.func @f(%in: memref<16xi64>, %out: memref<{nb}xi64>) {{
  %c0 = arith.constant 0 : index
  %w = vector.load %in[%c0] : memref<16xi64>, vector<{na}xi64>
  %a = arith.trunci %w : vector<{na}xi64> to vector<{na}xi{a}>
  %b = vector.bitcast %a : vector<{na}xi{a}> to vector<{nb}xi{b}>
  %x = arith.extui %b : vector<{nb}xi{b}> to vector<{nb}xi64>
  vector.store %x, %out[%c0] : memref<{nb}xi64>, vector<{nb}xi64>
  return
}}
"""
CONSTANT = """
func.func @f(%in: memref<16xi64>, %out: memref<{nb}xi64>) {{
  %c0 = arith.constant 0 : index
  %a = arith.constant dense<[{values}]> : vector<{na}xi{a}>
  %b = vector.bitcast %a : vector<{na}xi{a}> to vector<{nb}xi{b}>
  %x = arith.extui %b : vector<{nb}xi{b}> to vector<{nb}xi64>
  vector.store %x, %out[%c0] : memref<{nb}xi64>, vector<{nb}xi64>
  return
}}
"""


def _host_target() -> str:
    for t in ("avx2", "x86-64-v2"):
        if load_target(t).runs_on_host():
            return t
    pytest.skip("this host runs none of the x86 targets")


def _source(form: str, pair: tuple[tuple[int, int], tuple[int, int]], seed: int) -> str:
    (a, na), (b, nb) = pair
    values = np.random.default_rng(seed).integers(0, 1 << a, na, dtype=np.uint64)
    signed = [int(v) - (1 << a) if v >> (a - 1) else int(v) for v in values]  # MLIR's literals
    text = LOADED if form == "loaded" else CONSTANT
    return text.format(a=a, na=na, b=b, nb=nb, values=", ".join(map(str, signed)))


def _run(program: object, nb: int, data: np.ndarray) -> np.ndarray:
    out = np.zeros(nb, np.int64)
    program.f(data.copy(), out)  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("form", ["loaded", "constant"])
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0][1]}xi{p[0][0]}-{p[1][1]}xi{p[1][0]}")
def test_integer_bitcast_keeps_every_bit(form: str, pair: tuple[tuple[int, int], tuple[int, int]]
                                         ) -> None:
    text = _source(form, pair, seed=pair[0][0] * 100 + pair[1][0])
    data = np.random.default_rng(7).integers(-(2**63), 2**63 - 1, 16, dtype=np.int64)
    nb = pair[1][1]
    want = np.zeros(nb, np.int64)
    Interpreter(parse(text)).call("f", data.copy(), want)
    got = _run(compile(text, _host_target()), nb, data)
    assert got.tolist() == want.tolist()


def test_only_widths_that_do_not_divide_go_through_memory() -> None:
    """The volatile copy is kept for 2xi24 -> 3xi16 and not used for 4xi16 -> 2xi32."""
    odd = emit_llvm_ir(_source("loaded", ((24, 2), (16, 3)), 1), "x86-64-v2")
    even = emit_llvm_ir(_source("loaded", ((16, 4), (32, 2)), 1), "x86-64-v2")
    assert "llvm.memcpy" in odd and "llvm.memcpy" not in even


def test_two_such_bitcasts_of_other_types_in_one_function() -> None:
    """Every copy calls the one ``llvm.memcpy`` declaration (opaque pointers)."""
    text = """
func.func @f(%in: memref<16xi64>, %out: memref<11xi64>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %w = vector.load %in[%c0] : memref<16xi64>, vector<5xi64>
  %a = arith.trunci %w : vector<5xi64> to vector<5xi8>
  %b = vector.bitcast %a : vector<5xi8> to vector<8xi5>
  %x = arith.extui %b : vector<8xi5> to vector<8xi64>
  vector.store %x, %out[%c0] : memref<11xi64>, vector<8xi64>
  %v = vector.load %in[%c8] : memref<16xi64>, vector<2xi64>
  %c = arith.trunci %v : vector<2xi64> to vector<2xi24>
  %d = vector.bitcast %c : vector<2xi24> to vector<3xi16>
  %y = arith.extui %d : vector<3xi16> to vector<3xi64>
  vector.store %y, %out[%c8] : memref<11xi64>, vector<3xi64>
  return
}
"""
    data = np.random.default_rng(3).integers(-(2**63), 2**63 - 1, 16, dtype=np.int64)
    want = np.zeros(11, np.int64)
    Interpreter(parse(text)).call("f", data.copy(), want)
    assert _run(compile(text, _host_target()), 11, data).tolist() == want.tolist()


# -- integers of other widths through memory and the API -------------------------------------
NARROW_MEMORY = """
func.func @g(%in: memref<16xi64>, %m: memref<12xi5>, %w: memref<4xi24>, %c: memref<12xi5>,
             %v: vector<6xi5>, %s: i12) -> (vector<6xi5>, i12, vector<2x3xi24>, i5) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %x = vector.load %in[%c0] : memref<16xi64>, vector<12xi64>
  %n = arith.trunci %x : vector<12xi64> to vector<12xi5>
  vector.store %n, %m[%c0] : memref<12xi5>, vector<12xi5>
  %y = vector.load %in[%c3] : memref<16xi64>, vector<4xi64>
  %t = arith.trunci %y : vector<4xi64> to vector<4xi24>
  vector.store %t, %w[%c0] : memref<4xi24>, vector<4xi24>
  %e = memref.load %m[%c3] : memref<12xi5>
  memref.store %e, %m[%c6] : memref<12xi5>
  memref.copy %m, %c : memref<12xi5> to memref<12xi5>
  %r = vector.load %m[%c6] : memref<12xi5>, vector<6xi5>
  %sum = arith.addi %r, %v : vector<6xi5>
  %one = arith.constant 1 : i12
  %s1 = arith.addi %s, %one : i12
  %q = vector.load %w[%c0] : memref<4xi24>, vector<3xi24>
  %b = vector.broadcast %q : vector<3xi24> to vector<2x3xi24>
  return %sum, %s1, %b, %e : vector<6xi5>, i12, vector<2x3xi24>, i5
}
"""


def test_narrow_integers_move_one_element_per_numpy_element() -> None:
    """Memrefs, vector and scalar arguments and results of i5/i12/i24 hold the interpreter's
    values, sign-extended in numpy's container: LLVM itself would store ``<12 x i5>``
    bit-packed and leave a stored i5's upper bits unspecified."""
    rng = np.random.default_rng(11)
    data = rng.integers(-(2**63), 2**63 - 1, 16, dtype=np.int64)
    v = rng.integers(-16, 16, 6).astype(np.int8)
    interpreted = Interpreter(parse(NARROW_MEMORY))
    runs = []
    for run in (lambda *a: interpreted.call("g", *a), compile(NARROW_MEMORY, _host_target()).g):
        m, c = np.full(12, 99, np.int8), np.full(12, 99, np.int8)
        w = np.full(4, -7, np.int32)
        out = run(data.copy(), m, w, c, v.copy(), np.int16(2047))
        runs.append([m, w, c, *out])
    for want, got in zip(*runs):
        assert np.asarray(got).tolist() == np.asarray(want).tolist()
    assert runs[1][4] == -2048  # i12 2047 + 1 wraps, sign-extended into the int16
