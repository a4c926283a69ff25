"""Cross-checks with real MLIR: it accepts what we print, and we read what it prints.

* ``mlir-opt-22`` parses and verifies our custom and generic output for every chunk of the
  22-valid corpus; ``mlir-opt-19`` for the 19-valid corpus (with the ops MLIR 22 removed), its
  generic form printed with ``version=19`` (older attribute storage).
* We parse what ``mlir-opt-N`` prints for every chunk (custom and ``--mlir-print-op-generic``)
  and get the same IR as from the original text.

All chunks of a corpus go through one ``mlir-opt --split-input-file`` process.
"""

from __future__ import annotations

import functools
import shutil
import subprocess

import pytest

from frontend import parse, print_module
from tests.corpus import shared_dir, split_chunks

SHARED = shared_dir()
SPLIT = "// -----\n"


@functools.cache
def mlir_opt(version: int) -> str:
    """Path of ``mlir-opt-<version>``; skips the test when it is not installed."""
    for candidate in (f"mlir-opt-{version}", f"/usr/lib/llvm-{version}/bin/mlir-opt"):
        found = shutil.which(candidate)
        if found:
            return found
    pytest.skip(f"mlir-opt-{version} not found (install mlir-{version}-tools)")


def _run(version: int, text: str, *flags: str) -> list[str]:
    """Run every ``// -----`` chunk of ``text`` through mlir-opt; its output per chunk."""
    proc = subprocess.run(
        [mlir_opt(version), "--split-input-file", *flags, "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, f"mlir-opt-{version} rejected our output:\n{proc.stderr[:4000]}"
    return proc.stdout.split(SPLIT)


@functools.cache
def _corpus(version: int) -> tuple[list[str], list[str], str]:
    """(chunk ids, our custom printing of each chunk, the corpus text) for one release."""
    if SHARED is None:
        pytest.skip("shared corpus not found: set EQSAT_SHARED or check out ../shared")
    path = SHARED / "corpus" / f"seed-valid-mlir{version}.mlir"
    ids, printed = [], []
    for header, line, text in split_chunks(path)[1:]:
        ids.append(header.splitlines()[0] if header else f"line {line}")
        printed.append(print_module(parse(text, f"{path}:{line}")))
    return ids, printed, path.read_text()


@pytest.mark.parametrize("version", [22, 19])
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_mlir_accepts_our_output(version: int, generic: bool) -> None:
    mlir_opt(version)
    _, printed, _ = _corpus(version)
    ours = [print_module(parse(t), generic=generic, version=version) for t in printed]
    outputs = _run(version, SPLIT.join(ours))
    assert len(outputs) == len(ours)


@pytest.mark.parametrize("version", [22, 19])
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_we_read_what_mlir_prints(version: int, generic: bool) -> None:
    mlir_opt(version)
    ids, printed, corpus = _corpus(version)
    flags = ("--mlir-print-op-generic",) if generic else ()
    outputs = _run(version, corpus, *flags)[1:]  # chunk 0 is the file's header comment
    assert len(outputs) == len(printed)
    mismatches = []
    for chunk_id, theirs, ours in zip(ids, outputs, printed):
        got = print_module(parse(theirs, f"mlir-opt-{version} output"))
        if got != ours:
            mismatches.append(f"{chunk_id}\n--- from the corpus:\n{ours}--- via MLIR:\n{got}")
    assert not mismatches, "\n".join(mismatches)


def test_version_19_generic_uses_array_attrs() -> None:
    """MLIR 19 stores shuffle masks as ``[0, 1]``; 22 as ``array<i64: 0, 1>``: both read back."""
    text = """func.func @f(%a: vector<2xf32>) -> vector<2xf32> {
  %0 = vector.shuffle %a, %a [0, 3] : vector<2xf32>, vector<2xf32>
  return %0 : vector<2xf32>
}"""
    module = parse(text)
    old = print_module(module, generic=True, version=19)
    new = print_module(module, generic=True)
    assert "mask = [0, 3]" in old and "mask = array<i64: 0, 3>" in new
    assert print_module(parse(old)) == print_module(parse(new)) == print_module(module)


def test_bare_print_before_a_definition() -> None:
    """MLIR prints ``vector.print`` (default punctuation) and then cannot read the next line's
    ``%x = ...``; we read that form and print ``punctuation <newline>``, which both accept."""
    text = """func.func @f(%a: f32) {
  vector.print
  %0 = arith.addf %a, %a : f32
  vector.print %0 : f32
  return
}"""
    printed = print_module(parse(text))
    assert "vector.print punctuation <newline>\n" in printed
    _run(22, printed)
