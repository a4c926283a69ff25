"""Malformed input gives ``FILE:LINE:COL: error: message`` at the culprit, never a traceback.

Each case pins the exact line and column and a phrase of the message. The CLI prints the same
diagnostic on stderr with exit status 1. A hypothesis fuzzer mutates valid text (truncation,
deletion, insertion, duplication) and checks that only ``MLIRError`` ever escapes.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eqsat.cli import main
from frontend import MLIRError, parse, print_module
from tests.corpus import ROOT, shared_dir, split_chunks

ARGS = (
    "%a: vector<4x8xf32>, %b: vector<8xf32>, %m: memref<?x?xf32>, %i: index, %s: f32, "
    "%mask: vector<4xi1>, %c: i1"
)


def fn(*body: str) -> str:
    """A function whose first body line is line 2; statements start at column 3."""
    return f"func.func @f({ARGS}) {{\n" + "".join(f"  {s}\n" for s in body) + "  return\n}\n"


_TRAIT = (
    "{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>%s], "
    'iterator_types = ["parallel", %s]}'
)
# (id, source, line, column or None, phrase of the message)
CASES = [
    ("missing-comma", fn("%0 = arith.addf %s %s : f32"), 2, 22, "expected ','"),
    (
        "unknown-op",
        fn("%0 = vector.frobnicate %a : vector<4x8xf32>"),
        2,
        8,
        "unknown operation 'vector.frobnicate'",
    ),
    (
        "unknown-generic-op",
        fn('"foo.bar"(%a) : (vector<4x8xf32>) -> ()'),
        2,
        3,
        "unknown operation 'foo.bar'",
    ),
    (
        "undefined-value",
        fn("%0 = arith.addf %s, %t : f32"),
        2,
        23,
        "use of undeclared SSA value name '%t'",
    ),
    (
        "use-type-mismatch",
        fn('%0 = "arith.addf"(%s, %s) : (f32, f64) -> f32'),
        2,
        31,
        "expects different type than prior uses: f64 vs f32",
    ),
    (
        "operand-types-differ",
        fn("%0 = arith.addf %a, %b : vector<4x8xf32>"),
        2,
        3,
        "requires the same type for all operands and results",
    ),
    (
        "zero-dim-vector",
        fn("%0 = vector.broadcast %s : f32 to vector<0x4xf32>"),
        2,
        37,
        "vector types must have positive constant sizes",
    ),
    (
        "grouped-scalable",
        fn("%0 = vector.broadcast %s : f32 to vector<[2x8]xf32>"),
        2,
        44,
        "scalable dimension",
    ),
    (
        "bad-vector-element",
        fn("%0 = vector.broadcast %s : f32 to vector<4xmemref<f32>>"),
        2,
        46,
        "vector elements must be integer, index or float",
    ),
    (
        "transpose-not-permutation",
        fn("%0 = vector.transpose %a, [0, 0] : vector<4x8xf32> to vector<4x4xf32>"),
        2,
        3,
        "not a permutation: [0, 0]",
    ),
    (
        "transpose-result",
        fn("%0 = vector.transpose %a, [1, 0] : vector<4x8xf32> to vector<4x8xf32>"),
        2,
        3,
        "does not match the transposed source type vector<8x4xf32>",
    ),
    (
        "shape-cast-count",
        fn("%0 = vector.shape_cast %a : vector<4x8xf32> to vector<30xf32>"),
        2,
        3,
        "different number of elements",
    ),
    (
        "contract-map-count",
        fn(
            "%0 = vector.contract " + _TRAIT % ("", '"reduction"') + " %a, %b, %b"
            " : vector<4x8xf32>, vector<8xf32> into vector<8xf32>"
        ),
        2,
        3,
        "expected an indexing map for each vector operand",
    ),
    (
        "contract-iterator-kind",
        fn(
            "%0 = vector.contract "
            + _TRAIT % (", affine_map<(i, j) -> (i)>", '"sideways"')
            + " %a, %b, %s : vector<4x8xf32>, vector<8xf32> into f32"
        ),
        2,
        23,
        'iterator_types must be "parallel" or "reduction"',
    ),
    (
        "contract-map-outputs",
        fn(
            "%0 = vector.contract "
            + _TRAIT % (", affine_map<(i, j) -> (i)>", '"reduction"')
            + " %a, %b, %s : vector<4x8xf32>, vector<8xf32> into f32"
        ),
        2,
        3,
        "expected indexing map 2 to have 0 number of outputs",
    ),
    (
        "broadcast-incompatible",
        fn("%0 = vector.broadcast %b : vector<8xf32> to vector<4x7xf32>"),
        2,
        3,
        "dimension mismatch (8 vs. 7)",
    ),
    (
        "mask-shape",
        fn(
            "%0 = vector.mask %mask { vector.reduction <add>, %b : vector<8xf32> into f32 }"
            " : vector<4xi1> -> f32"
        ),
        2,
        3,
        "expects a 'vector<8xi1>' mask",
    ),
    (
        "mask-not-maskable",
        fn(
            "%0 = vector.mask %mask { vector.transpose %a, [1, 0] : vector<4x8xf32> to "
            "vector<8x4xf32> } : vector<4xi1> -> vector<8x4xf32>"
        ),
        2,
        3,
        "expects a MaskableOpInterface",
    ),
    (
        "transfer-map-not-projected",
        fn(
            "%0 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0, d1) -> "
            "(d0 + d1)>} : memref<?x?xf32>, vector<4xf32>"
        ),
        2,
        3,
        "projected permutation_map",
    ),
    (
        "transfer-map-unknown-dim",
        fn(
            "%0 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0, d1) -> "
            "(d2)>} : memref<?x?xf32>, vector<4xf32>"
        ),
        2,
        87,
        "expected affine dimension, symbol or constant, found 'd2'",
    ),
    (
        "transfer-index-count",
        fn("%0 = vector.transfer_read %m[%i], %s : memref<?x?xf32>, vector<4xf32>"),
        2,
        3,
        "requires 2 indices",
    ),
    (
        "transfer-write-broadcast",
        fn(
            "vector.transfer_write %b, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (0)>} "
            ": vector<8xf32>, memref<?x?xf32>"
        ),
        2,
        3,
        "should not have broadcast dimensions",
    ),
    (
        "extract-out-of-range",
        fn("%0 = vector.extract %a[4] : vector<8xf32> from vector<4x8xf32>"),
        2,
        3,
        "position attribute #1 to be a non-negative integer smaller than",
    ),
    (
        "extract-too-many-indices",
        fn("%0 = vector.extract %a[1, 2, 3] : f32 from vector<4x8xf32>"),
        2,
        3,
        "rank no greater than vector rank",
    ),
    (
        "load-index-count",
        fn("%0 = vector.load %m[%i] : memref<?x?xf32>, vector<8xf32>"),
        2,
        3,
        "requires 2 indices",
    ),
    (
        "unterminated-region",
        "func.func @f(%s: f32) {\n  %0 = arith.addf %s, %s : f32\n",
        3,
        1,
        "expected '}' to close region, found end of input",
    ),
    (
        "unbalanced-index-list",
        fn("%0 = vector.extract %a[1 : vector<8xf32> from vector<4x8xf32>"),
        2,
        28,
        "expected ',' or ']' in index list, found ':'",
    ),
    (
        "unclosed-vector-type",
        fn("%0 = vector.broadcast %s : f32 to vector<4x8xf32"),
        3,
        3,
        "expected '>' to close vector type, found 'return'",
    ),
    (
        "dense-shape",
        fn("%0 = arith.constant dense<[1.0, 2.0, 3.0]> : vector<4xf32>"),
        2,
        29,
        "expected 4 elements at this level, found 3",
    ),
    (
        "dense-int-for-float",
        fn("%0 = arith.constant dense<[1, 2]> : vector<2xf32>"),
        2,
        29,
        "unexpected decimal integer literal for a floating point value",
    ),
    (
        "dense-int-range",
        fn("%0 = arith.constant dense<[1, 300]> : vector<2xi8>"),
        2,
        29,
        "integer constant 300 out of range for type i8",
    ),
    ("int-range", fn("%0 = arith.constant 300 : i8"), 2, 23, "out of range for type i8"),
    (
        "decimal-float",
        fn("%0 = arith.constant 42 : f32"),
        2,
        23,
        "unexpected decimal integer literal for a floating point value",
    ),
    (
        "hex-float-minus",
        fn("%0 = arith.constant -0x7F : f32"),
        2,
        23,
        "hexadecimal float literal should not have a leading minus",
    ),
    (
        "hex-float-range",
        fn("%0 = arith.constant 0x7FC000001 : f32"),
        2,
        23,
        "hexadecimal float constant out of range",
    ),
    (
        "huge-int-width",
        fn("%0 = arith.constant 1 : i99999999"),
        2,
        28,
        "integer bitwidth is limited to 16777215 bits",
    ),
    (
        "duplicate-ssa-name",
        fn("%0 = arith.addf %s, %s : f32", "%0 = arith.mulf %s, %s : f32"),
        3,
        3,
        "redefinition of SSA value '%0'",
    ),
    (
        "duplicate-argument",
        "func.func @f(%s: f32, %s: f32) {\n  return\n}\n",
        1,
        23,
        "redefinition of SSA value '%s'",
    ),
    (
        "return-types",
        "func.func @f(%s: f32) -> f64 {\n  return %s : f32\n}\n",
        2,
        3,
        "enclosing function returns (f64)",
    ),
    (
        "missing-terminator",
        "func.func @f(%s: f32) {\n  %0 = arith.addf %s, %s : f32\n}\n",
        2,
        3,
        "block must end with a terminator operation",
    ),
    (
        "undefined-alias",
        fn("%0 = vector.contract #trait %a, %b, %s : vector<4x8xf32>, vector<8xf32> into f32"),
        2,
        24,
        "undefined attribute alias #trait",
    ),
    (
        "redefined-alias",
        "#m = affine_map<(d0) -> (d0)>\n#m = affine_map<(d0) -> (d0)>\n",
        2,
        1,
        "redefinition of alias #m",
    ),
    (
        "unknown-combining-kind",
        fn("%0 = vector.reduction <avg>, %b : vector<8xf32> into f32"),
        2,
        26,
        "expected #vector.kind value",
    ),
    (
        "kind-for-element-type",
        fn("%0 = vector.reduction <xor>, %b : vector<8xf32> into f32"),
        2,
        3,
        "unsupported reduction type 'f32' for kind 'xor'",
    ),
    (
        "multi-reduction-dims",
        fn("%0 = vector.multi_reduction <add>, %a, %b [2] : vector<4x8xf32> to vector<8xf32>"),
        2,
        3,
        "reduction dimensions must be distinct and within the source rank",
    ),
    (
        "shuffle-mask-range",
        fn("%0 = vector.shuffle %b, %b [0, 16] : vector<8xf32>, vector<8xf32>"),
        2,
        3,
        "mask index #16 out of range",
    ),
    (
        "insert-source-type",
        fn("%0 = vector.insert %s, %a[1] : f32 into vector<4x8xf32>"),
        2,
        3,
        "expected source type vector<8xf32>",
    ),
    (
        "strided-slice-bounds",
        fn(
            "%0 = vector.extract_strided_slice %a {offsets = [2], sizes = [4], strides = [1]} : "
            "vector<4x8xf32> to vector<4x8xf32>"
        ),
        2,
        3,
        "within the source dimension 4",
    ),
    (
        "bitcast-width",
        fn("%0 = vector.bitcast %b : vector<8xf32> to vector<3xf64>"),
        2,
        3,
        "bitwidth of the minor 1-D vectors must be equal",
    ),
    (
        "from-elements-count",
        fn("%0 = vector.from_elements %s, %s : vector<3xf32>"),
        2,
        3,
        "expected 3 operands, found 2",
    ),
    (
        "result-name-count",
        fn("%0, %1 = arith.addf %s, %s : f32"),
        2,
        3,
        "defines 1 results but 2 names were given",
    ),
    (
        "generic-operand-count",
        fn('%0 = "arith.addf"(%s) : (f32, f32) -> f32'),
        2,
        27,
        "has 1 operands but its type lists 2",
    ),
    (
        "generic-missing-type",
        fn('%0 = "arith.addf"(%s, %s)'),
        3,
        3,
        "expected ':' and the operation's function type",
    ),
    ("unterminated-string", fn('vector.print str "hello'), 2, 20, "unterminated string literal"),
    ("result-index", fn("%0 = arith.addf %s#1, %s : f32"), 2, 19, "'#1' is out of range"),
    (
        "scf-for-yield-type",
        (
            "func.func @f(%i: index, %s: f32) {\n  %0 = scf.for %k = %i to %i step %i iter_args("
            "%x = %s) -> (f64) {\n    scf.yield %x : f32\n  }\n  return\n}\n"
        ),
        3,
        20,
        "use of value '%x' expects different type than prior uses: f32 vs f64",
    ),
    (
        "top-level-op",
        "%0 = arith.constant 1.0 : f32\n",
        1,
        1,
        "only functions and globals may appear at the top level",
    ),
    (
        "unknown-callee",
        fn("func.call @nowhere() : () -> ()"),
        2,
        3,
        "'nowhere' does not reference a valid function",
    ),
    ("garbage", "@@@", 1, 1, "expected operation name, found '@@@'"),
    # Where Python's recursion limit strikes depends on the caller's stack: no column.
    (
        "deep-nesting",
        f"func.func @f(%a: {'tuple<' * 3000}f32{'>' * 3000}) {{\n}}\n",
        1,
        None,
        "input nests too deeply",
    ),
    (
        "strided-slice-result-type",
        fn(
            "%0 = vector.extract_strided_slice %a {offsets = [1], sizes = [2], strides = [1]} : "
            "vector<4x8xf32> to vector<2x4xf32>"
        ),
        2,
        3,
        "expected result type vector<2x8xf32>, found vector<2x4xf32>",
    ),
]


@pytest.mark.parametrize(
    "source, line, col, phrase", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_error_points_at_the_culprit(source: str, line: int, col: int | None, phrase: str) -> None:
    with pytest.raises(MLIRError) as info:
        parse(source, "bad.mlir")
    err = info.value
    col = col or err.loc.col
    assert (err.loc.line, err.loc.col) == (line, col), str(err)
    assert phrase in err.message, str(err)
    first, *context = str(err).split("\n")
    assert first.startswith(f"bad.mlir:{line}:{col}: error: ")
    quoted = source.split("\n")[line - 1]
    assert context == ([quoted, " " * (col - 1) + "^"] if quoted else []), str(err)


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 30 and len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize(
    "source, line, col, phrase", [c[1:] for c in CASES[::4]], ids=[c[0] for c in CASES[::4]]
)
def test_cli_prints_the_diagnostic(
    tmp_path, capsys, source: str, line: int, col: int, phrase: str
) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(source)
    assert main(["parse", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{path}:{line}:{col}: error: ") and phrase in err, err
    assert "Traceback" not in err


def test_cli_in_a_subprocess(tmp_path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(fn("%0 = vector.shape_cast %a : vector<4x8xf32> to vector<30xf32>"))
    good = tmp_path / "good.mlir"
    good.write_text(fn("%0 = vector.shape_cast %a : vector<4x8xf32> to vector<32xf32>"))
    cmd = [sys.executable, "-m", "eqsat.cli", "parse"]
    proc = subprocess.run([*cmd, str(bad)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith(f"{bad}:2:3: error: 'vector.shape_cast' op has different")
    assert "Traceback" not in proc.stderr
    proc = subprocess.run(
        [*cmd, str(good), "--generic"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert '"vector.shape_cast"(%arg0)' in proc.stdout


def test_cli_missing_file(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["parse", str(tmp_path / "nowhere.mlir")])
    assert "cannot read" in str(info.value.code)


# -- fuzzing: mutated valid text raises MLIRError or parses; nothing else --------------------
def _seed_texts() -> list[str]:
    texts = [c[1] for c in CASES[:3]]
    texts.append(
        fn(
            "%0 = vector.transfer_read %m[%i, %i], %s {in_bounds = [true]} : memref<?x?xf32>, "
            "vector<4xf32>",
            "%1 = vector.contract {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) "
            '-> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"], '
            "kind = #vector.kind<add>} %a, %b, %0 : vector<4x8xf32>, vector<8xf32> into vector<4xf32>",
            "%2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>",
            "%3 = vector.mask %mask { vector.transfer_read %m[%i, %i], %s : memref<?x?xf32>, "
            "vector<4xf32> } : vector<4xi1> -> vector<4xf32>",
        )
    )
    shared = shared_dir()
    if shared is not None:
        path = shared / "corpus" / "seed-valid-mlir22.mlir"
        chunks = [t for _, _, t in split_chunks(path)[1:]]
        texts += chunks[::6]
        texts += [print_module(parse(t), generic=True) for t in chunks[1::12]]
    return texts


TEXTS = _seed_texts()
PIECES = list('%#@^<>()[]{},:=x0-?."\n ') + ["vector<", "->", "f32", "[0]", "%0", "dense<", "}"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["truncate", "delete", "insert", "duplicate"]))
        if how == "truncate":
            text = text[:at]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        elif how == "insert":
            text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
        else:
            start = draw(st.integers(0, len(text)))
            text = text[:at] + text[start : start + draw(st.integers(1, 30))] + text[at:]
    return text


@settings(
    max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(mutated())
def test_fuzzed_input_raises_only_mlir_errors(text: str) -> None:
    try:
        module = parse(text, "fuzz.mlir")
    except MLIRError as e:
        assert str(e).startswith("fuzz.mlir:")
        return
    printed = print_module(module)
    assert print_module(parse(printed)) == printed


def _outcome(text: str) -> str:
    try:
        return print_module(parse(text, "same.mlir"), generic=True)
    except MLIRError as e:
        return f"error: {e}"


SAME = [pytest.param(c[1], id=c[0]) for c in CASES[:-1]]
SAME += [pytest.param(t, id=f"valid-{i}") for i, t in enumerate(TEXTS)]


@pytest.mark.parametrize("source", SAME)
def test_fast_and_general_paths_agree(monkeypatch, source: str) -> None:
    """``frontend.fastpath`` builds the same op, or gives the same diagnostic, as the format."""
    import frontend.parser

    fast = _outcome(source)
    monkeypatch.setattr(frontend.parser, "FAST_PATH", False)
    assert _outcome(source) == fast
