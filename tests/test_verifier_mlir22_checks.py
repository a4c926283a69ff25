"""Forms MLIR 22 rejects that eqsat's verifier let through until MLIR's own vector dialect tests
were run through it (``experiments/mlir_dialect_tests.py``): each is rejected with MLIR's
words, at the op; where ``mlir-opt-22`` is installed it must reject the same text, and the
valid neighbour of each form must pass both."""

from __future__ import annotations

import subprocess

import pytest

from frontend import MLIRError, parse
from tests.mlir_tools import find_tool

MLIR_OPT = find_tool("mlir-opt", 22)

#: name -> (invalid text, MLIR's phrase, a valid text that differs in the one thing)
CASES = {
    "load-rank": (
        "func.func @f(%m: memref<64xf32>, %i: index) -> vector<4x8xf32> {\n"
        "  %v = vector.load %m[%i] : memref<64xf32>, vector<4x8xf32>\n"
        "  return %v : vector<4x8xf32>\n}",
        "destination memref has lower rank than the result vector",
        "func.func @f(%m: memref<8x8xf32>, %i: index) -> vector<4x8xf32> {\n"
        "  %v = vector.load %m[%i, %i] : memref<8x8xf32>, vector<4x8xf32>\n"
        "  return %v : vector<4x8xf32>\n}",
    ),
    "store-rank": (
        "func.func @f(%m: memref<64xf32>, %v: vector<2x4xf32>, %i: index) {\n"
        "  vector.store %v, %m[%i] : memref<64xf32>, vector<2x4xf32>\n  return\n}",
        "source memref has lower rank than the vector to store",
        "func.func @f(%m: memref<64xf32>, %v: vector<8xf32>, %i: index) {\n"
        "  vector.store %v, %m[%i] : memref<64xf32>, vector<8xf32>\n  return\n}",
    ),
    "alignment-zero": (
        "func.func @f(%m: memref<16xi8>, %i: index) -> vector<16xi8> {\n"
        "  %v = vector.load %m[%i] {alignment = 0} : memref<16xi8>, vector<16xi8>\n"
        "  return %v : vector<16xi8>\n}",
        "attribute 'alignment' failed to satisfy constraint",
        "func.func @f(%m: memref<16xi8>, %i: index) -> vector<16xi8> {\n"
        "  %v = vector.load %m[%i] {alignment = 16} : memref<16xi8>, vector<16xi8>\n"
        "  return %v : vector<16xi8>\n}",
    ),
    "alignment-six": (
        "func.func @f(%m: memref<8xf32>, %k: vector<4xi1>, %p: vector<4xf32>, %i: index) {\n"
        "  vector.maskedstore %m[%i], %k, %p {alignment = 6} : memref<8xf32>, vector<4xi1>, "
        "vector<4xf32>\n  return\n}",
        "attribute 'alignment' failed to satisfy constraint",
        "func.func @f(%m: memref<8xf32>, %k: vector<4xi1>, %p: vector<4xf32>, %i: index) {\n"
        "  vector.maskedstore %m[%i], %k, %p {alignment = 8} : memref<8xf32>, vector<4xi1>, "
        "vector<4xf32>\n  return\n}",
    ),
    "contract-acc-only-dim": (
        "func.func @f(%a: vector<3x5xf32>, %b: vector<5xf32>, %c: vector<2xf32>) -> vector<2xf32> {\n"
        "  %r = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, "
        "affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (j)>], iterator_types = "
        '["reduction", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : '
        "vector<3x5xf32>, vector<5xf32> into vector<2xf32>\n  return %r : vector<2xf32>\n}",
        "expected all dimensions to be either a LHS or a RHS dimension",
        "func.func @f(%a: vector<3x5xf32>, %b: vector<5xf32>, %c: vector<3xf32>) -> vector<3xf32> {\n"
        "  %r = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, "
        "affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = "
        '["parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : '
        "vector<3x5xf32>, vector<5xf32> into vector<3xf32>\n  return %r : vector<3xf32>\n}",
    ),
    "print-string-punctuation": (
        'func.func @f() {\n  vector.print str "hi" punctuation <close>\n  return\n}',
        "`source` or `punctuation` are not set when printing strings",
        'func.func @f() {\n  vector.print str "hi"\n  return\n}',
    ),
    "extract-slice-of-scalable-dim": (
        "func.func @f(%v: vector<2x[8]xi16>) -> vector<1x[4]xi16> {\n"
        "  %s = vector.extract_strided_slice %v {offsets = [1, 0], sizes = [1, 4], "
        "strides = [1, 1]} : vector<2x[8]xi16> to vector<1x[4]xi16>\n"
        "  return %s : vector<1x[4]xi16>\n}",
        "expected size at idx=1 to match the corresponding base size from the input vector (4 vs 8)",
        "func.func @f(%v: vector<2x[8]xi16>) -> vector<1x[8]xi16> {\n"
        "  %s = vector.extract_strided_slice %v {offsets = [1, 0], sizes = [1, 8], "
        "strides = [1, 1]} : vector<2x[8]xi16> to vector<1x[8]xi16>\n"
        "  return %s : vector<1x[8]xi16>\n}",
    ),
    "insert-slice-into-scalable-dim": (
        "func.func @f(%a: vector<[2]xi16>, %b: vector<3x[8]xi16>) -> vector<3x[8]xi16> {\n"
        "  %r = vector.insert_strided_slice %a, %b {offsets = [2, 0], strides = [1]} : "
        "vector<[2]xi16> into vector<3x[8]xi16>\n  return %r : vector<3x[8]xi16>\n}",
        "expected size at idx=0 to match the corresponding base size from the input vector (2 vs 8)",
        "func.func @f(%a: vector<[8]xi16>, %b: vector<3x[8]xi16>) -> vector<3x[8]xi16> {\n"
        "  %r = vector.insert_strided_slice %a, %b {offsets = [2, 0], strides = [1]} : "
        "vector<[8]xi16> into vector<3x[8]xi16>\n  return %r : vector<3x[8]xi16>\n}",
    ),
    "outerproduct-scalable-lhs-only": (
        "func.func @f(%a: vector<[2]xf64>, %b: vector<2xf64>) -> vector<[2]x2xf64> {\n"
        "  %r = vector.outerproduct %a, %b : vector<[2]xf64>, vector<2xf64>\n"
        "  return %r : vector<[2]x2xf64>\n}",
        "expected either both or only #2 operand dim to be scalable",
        "func.func @f(%a: vector<[2]xf64>, %b: vector<[2]xf64>) -> vector<[2]x[2]xf64> {\n"
        "  %r = vector.outerproduct %a, %b : vector<[2]xf64>, vector<[2]xf64>\n"
        "  return %r : vector<[2]x[2]xf64>\n}",
    ),
    "mask-yields-another-value": (
        "func.func @f(%m: memref<8xf32>, %k: vector<8xi1>, %o: vector<8xf32>, %i: index)"
        " -> vector<8xf32> {\n  %z = arith.constant 0.0 : f32\n"
        "  %r = vector.mask %k {\n    %t = vector.transfer_read %m[%i], %z : memref<8xf32>, "
        "vector<8xf32>\n    vector.yield %o : vector<8xf32>\n  } : vector<8xi1> -> "
        "vector<8xf32>\n  return %r : vector<8xf32>\n}",
        "expects all the results from the MaskableOpInterface to match all the values returned",
        "func.func @f(%m: memref<8xf32>, %k: vector<8xi1>, %o: vector<8xf32>, %i: index)"
        " -> vector<8xf32> {\n  %z = arith.constant 0.0 : f32\n"
        "  %r = vector.mask %k {\n    %t = vector.transfer_read %m[%i], %z : memref<8xf32>, "
        "vector<8xf32>\n    vector.yield %t : vector<8xf32>\n  } : vector<8xi1> -> "
        "vector<8xf32>\n  return %r : vector<8xf32>\n}",
    ),
}


def _mlir_accepts(text: str) -> bool:
    assert MLIR_OPT is not None
    r = subprocess.run([MLIR_OPT, "-o", "/dev/null"], input=text, capture_output=True,
                       text=True, timeout=60)
    return r.returncode == 0


@pytest.mark.parametrize("name", sorted(CASES))
def test_eqsat_rejects_what_mlir_22_rejects(name: str) -> None:
    bad, phrase, good = CASES[name]
    with pytest.raises(MLIRError) as info:
        parse(bad, "bad.mlir")
    assert phrase in str(info.value) and str(info.value).startswith("bad.mlir:")
    parse(good, "good.mlir")
    if MLIR_OPT is not None:
        assert not _mlir_accepts(bad) and _mlir_accepts(good)


def test_the_dialect_test_study_splits_and_judges_cases(tmp_path) -> None:  # noqa: ANN001
    """The study's cases start where their file's text does, and each outcome is the one
    its definition gives (a study that mislabels would fail here)."""
    if MLIR_OPT is None:
        pytest.skip("mlir-opt-22 is not installed")
    from experiments.mlir_dialect_tests import cases, judge

    good, bad = CASES["load-rank"][2], CASES["load-rank"][0]
    unknown = "func.func @f() {\n  \"test.op\"() : () -> ()\n  return\n}"
    path = tmp_path / "t.mlir"
    masked_add = ("func.func @f(%k: vector<4xi1>, %x: vector<4xf32>) -> vector<4xf32> {\n"
                  "  %r = vector.mask %k { arith.addf %x, %x : vector<4xf32> } : vector<4xi1> "
                  "-> vector<4xf32>\n  return %r : vector<4xf32>\n}")
    path.write_text("\n// -----\n".join([good, bad, unknown, masked_add]) + "\n")
    found = cases(path)
    assert [line for line, _ in found] == [1, 6, 11, 16]
    outcomes = [judge(MLIR_OPT, "t.mlir", i, line, text).outcome
                for i, (line, text) in enumerate(found)]
    assert outcomes == ["both", "neither", "unsupported", "looser"]
