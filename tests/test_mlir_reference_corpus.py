"""The differential-test corpus (tests/programs/) against real MLIR.

Every program has a ``// REFERENCE: mlir22|mlir19|hand`` header and an ``.expected`` stdout.
Where the named MLIR is installed, lowering and running the program must reproduce the
``.expected`` file byte for byte.  ``hand`` programs are checked by verifying them with
``mlir-opt-22`` and by running their companion in ``programs/hand_checks/`` (an equivalent
program MLIR can lower) against the same ``.expected`` file.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mlir_tools
from mlir_tools import (
    PROGRAMS_DIR,
    expected_path,
    missing_tools,
    program_paths,
    reference_of,
    run_with_mlir,
    validate_with_mlir_opt,
)

PROGRAMS = program_paths()
HAND_CHECKS_DIR = PROGRAMS_DIR / "hand_checks"
VERSION = {"mlir22": 22, "mlir19": 19}


def _ids(paths):
    return [p.stem for p in paths]


def _skip_unless_runnable(version: int) -> None:
    missing = missing_tools(version)
    if missing:
        pytest.skip(f"MLIR {version} not usable here, missing: {', '.join(missing)}")


def _assert_same(actual: str, expected: str, what: str) -> None:
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), "expected", "actual"
            )
        )
        pytest.fail(f"{what}: output differs from .expected\n{diff}")


def test_corpus_is_large_enough():
    assert len(PROGRAMS) >= 48, [p.name for p in PROGRAMS]


@pytest.mark.parametrize("path", PROGRAMS, ids=_ids(PROGRAMS))
def test_program_has_header_and_expected(path: Path):
    kind, note = reference_of(path)  # raises on a malformed header
    assert kind in ("mlir22", "mlir19", "hand")
    exp = expected_path(path)
    assert exp.is_file(), f"missing {exp.name}"
    text = exp.read_text(encoding="utf-8")
    assert text and text.endswith("\n"), f"{exp.name} is empty or lacks a final newline"
    src = path.read_text(encoding="utf-8")
    assert re.search(r"func\.func @entry\(\)\s*\{", src), "needs func.func @entry() with no args"
    if kind == "hand":
        assert note, "hand programs must say why MLIR cannot run them"


@pytest.mark.parametrize("path", PROGRAMS, ids=_ids(PROGRAMS))
def test_program_matches_mlir(path: Path):
    kind, note = reference_of(path)
    if kind == "hand":
        pytest.skip(f"reference by hand: {note}")
    version = VERSION[kind]
    _skip_unless_runnable(version)
    lacking = mlir_tools.missing_host_features(path)
    if lacking:
        pytest.skip(f"this host's CPU lacks {', '.join(lacking)}")
    out = run_with_mlir(path, version)
    _assert_same(
        out, expected_path(path).read_text(encoding="utf-8"), f"{path.name} via MLIR {version}"
    )


HAND = [p for p in PROGRAMS if reference_of(p)[0] == "hand"]


@pytest.mark.parametrize("path", HAND, ids=_ids(HAND))
def test_hand_program_verifies_with_mlir22(path: Path):
    if not mlir_tools.MLIR22:
        pytest.skip("mlir-opt-22 not installed")
    ok, msg = validate_with_mlir_opt(path.read_text(encoding="utf-8"), 22)
    assert ok, msg


@pytest.mark.parametrize("path", HAND, ids=_ids(HAND))
def test_hand_expected_matches_hand_check(path: Path):
    check = HAND_CHECKS_DIR / path.name
    assert check.is_file(), f"hand program {path.name} needs a companion {check}"
    kind, _ = reference_of(check)
    assert kind in VERSION, check
    version = VERSION[kind]
    _skip_unless_runnable(version)
    _assert_same(
        run_with_mlir(check, version),
        expected_path(path).read_text(encoding="utf-8"),
        f"hand check {check.name} via MLIR {version}",
    )


# Every op of the brief must appear in at least one program.
_REQUIRED_OPS_TEXT = """
    contract outerproduct multi_reduction reduction scan transfer_read transfer_write
    maskedload maskedstore gather scatter expandload compressstore load store create_mask
    constant_mask mask shuffle interleave deinterleave bitcast shape_cast broadcast
    extract_strided_slice insert_strided_slice extract insert from_elements step fma transpose
    print type_cast extractelement insertelement splat flat_transpose matrix_multiply yield
"""
REQUIRED_OPS = _REQUIRED_OPS_TEXT.split()


def _code(path: Path) -> str:
    """Program text without // comments."""
    return re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("op", REQUIRED_OPS)
def test_op_is_covered(op: str):
    pat = re.compile(rf"\bvector\.{op}\b(?![\w.])")
    assert any(pat.search(_code(p)) for p in PROGRAMS), f"vector.{op}"


def test_combining_kinds_covered():
    text = "\n".join(_code(p) for p in PROGRAMS)
    kinds = "add mul minsi minui maxsi maxui and or xor minnumf maxnumf minimumf maximumf"
    for kind in kinds.split():
        assert re.search(rf"<{kind}>", text), kind
    for punct in ["no_punctuation", "comma", "open", "close", "newline"]:
        assert f"punctuation <{punct}>" in text, punct


def test_reference_of_rejects_bad_headers(tmp_path: Path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("// no header\nfunc.func @entry() { return }\n")
    with pytest.raises(ValueError):
        reference_of(bad)
    hand = tmp_path / "hand.mlir"
    hand.write_text("// REFERENCE: hand\n")
    with pytest.raises(ValueError):
        reference_of(hand)
    ok = tmp_path / "ok.mlir"
    ok.write_text("// REFERENCE: hand -- because\n")
    assert reference_of(ok) == ("hand", "because")


def test_tool_lookup_and_validation():
    assert mlir_tools.find_tool("mlir-opt", 999) is None
    assert mlir_tools.runner_library(999) is None
    if not mlir_tools.MLIR22:
        pytest.skip("mlir-opt-22 not installed")
    ok, out = validate_with_mlir_opt("func.func @f() {\n  return\n}\n", 22, generic=True)
    assert ok and '"func.return"' in out
    ok, err = validate_with_mlir_opt("func.func @f() { vector.splat }", 22)
    assert not ok and "error" in err


def test_runtime_library_fallback(monkeypatch):
    lib22 = mlir_tools.runner_library(22)
    if lib22 is None:
        pytest.skip("MLIR 22 runtime library not installed")
    monkeypatch.setattr(mlir_tools, "runner_library", lambda v: None if v == 19 else lib22)
    assert mlir_tools.runtime_for(19) == lib22


def test_run_failure_raises_with_stderr():
    _skip_unless_runnable(22)
    with pytest.raises(mlir_tools.MLIRError, match="error"):
        mlir_tools.run_text_with_mlir("func.func @entry() { %x = vector.bogus }", 22)
