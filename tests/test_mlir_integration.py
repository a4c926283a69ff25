"""experiments/mlir_integration.py: the FileCheck subset, the RUN-line reading and the
classification of a directory of MLIR-style integration tests (``tests/mlir_integration``:
small tests of our own in that style, one of each classification). With
``MLIR_INTEGRATION_DIR`` set to a checkout of llvm-project's
``mlir/test/Integration/Dialect/Vector/CPU``, the tool also runs on it."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from experiments import mlir_integration
from experiments.integration import filecheck, runlines
from experiments.integration.runner import mlir_substitutions, same_output

HERE = Path(__file__).resolve().parent / "mlir_integration"


# -- the FileCheck subset ---------------------------------------------------------------------
def _ok(output: str, checks: str, prefixes: tuple[str, ...] = ("CHECK",)) -> bool:
    return filecheck.check(output, checks, prefixes).ok


def test_check_next_same_and_not() -> None:
    out = "a 1\nb 2 x\nc 3\n"
    assert _ok(out, "// CHECK: a 1\n// CHECK-NEXT: b 2\n// CHECK-SAME: x\n// CHECK-NOT: zzz\n")
    assert not _ok(out, "// CHECK: a 1\n// CHECK-NEXT: c 3\n")  # c is two lines on
    assert not _ok(out, "// CHECK: b 2\n// CHECK-SAME: c\n")  # c is on the next line
    assert not _ok(out, "// CHECK: a\n// CHECK-NOT: b 2\n// CHECK: c 3\n")  # b 2 is between
    assert _ok(out, "// CHECK: b 2\n// CHECK-NOT: a 1\n// CHECK: c 3\n")  # a 1 comes before
    assert not _ok(out, "// CHECK: c 3\n// CHECK: a 1\n")  # order matters


def test_check_label_empty_count_and_whitespace() -> None:
    out = "( 1,   2 )\n\n( 9 )\n( 9 )\nend\n"
    assert _ok(out, "// CHECK-LABEL: ( 1, 2 )\n// CHECK-EMPTY:\n// CHECK-COUNT-2: ( 9 )\n")
    assert not _ok(out, "// CHECK-COUNT-3: ( 9 )\n")
    assert not _ok(out, "// CHECK: ( 9 )\n// CHECK-EMPTY:\n")
    r = filecheck.check(out, "// CHECK: ( 1, 2 )\n// CHECK-NEXT: ( 9 )\n")
    assert not r.ok and "check line 2" in r.reason and "not the next line" in r.reason


def test_regex_and_variables() -> None:
    out = "base@ = 0x7f00 rank = 2\n( 4, 4 )\n"
    checks = (
        "// CHECK: base@ = {{0x[0-9a-f]+}} rank = [[R:[0-9]]]\n"  # ends at the last ]]
        "// CHECK: ( [[N:[0-9]+]], [[N]] )\n"
    )
    r = filecheck.check(out, checks)
    assert r.ok and r.variables == {"R": "2", "N": "4"}
    assert not _ok("( 4, 5 )\n", "// CHECK: ( [[N:[0-9]+]], [[N]] )\n")


def test_prefixes_choose_the_directives() -> None:
    checks = "// CHECK: nope\n// OUT: yes\n// CHECK-IR-COUNT-4: vector.load\n"
    assert _ok("yes\n", checks, ("OUT",))
    assert not _ok("yes\n", checks, ("CHECK",))


@pytest.mark.parametrize(
    "checks, what",
    [
        ("// CHECK-DAG: x\n", "not supported"),
        ("// CHECK: [[U]]\n", "undefined variable"),
        ("// CHECK:\n", "empty check string"),
        ("// nothing here\n", "no check strings"),
        ("// CHECK-NEXT: x\n", "cannot be the first"),
        ("// CHECK: {{(}}\n", "bad regex"),
        ("// CHECK: [[#N+1]]\n", "not supported"),
    ],
)
def test_unusable_check_files_are_reported(checks: str, what: str) -> None:
    with pytest.raises(filecheck.CheckError, match=re.escape(what)):
        filecheck.check("x\n", checks)
    with pytest.raises(filecheck.CheckError, match=re.escape(what)):
        filecheck.validate(checks)  # before any output: the file is unsupported


def test_printmemref_addresses_do_not_count() -> None:
    assert same_output("base@ = 0x1234 rank = 1\n", "base@ = 0xabcd rank = 1\n")
    assert not same_output("( 1 )\n", "( 2 )\n")


# -- RUN lines -------------------------------------------------------------------------------
def test_run_lines_give_entry_prefix_and_pipeline() -> None:
    text = (
        "// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void \\\n"
        "// DEFINE:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils\n"
        "// RUN: mlir-opt %s -test-lower-to-llvm | %{run} | FileCheck %s --check-prefix=X\n"
    )
    p = runlines.plan(text)
    assert not p.skip
    assert (p.entry, p.prefixes) == ("main", ("X",))
    assert [c[0] for c in p.pipeline] == ["mlir-opt", "mlir-runner"]
    assert p.libs == ["%mlir_runner_utils", "%mlir_c_runner_utils"]
    assert p.matrix_layout == "row-major"
    col = "// RUN: mlir-opt %s | mlir-runner -e f -matrix-default-layout=column-major | FileCheck"
    assert runlines.plan(col).matrix_layout == "column-major"


@pytest.mark.parametrize(
    "run, why",
    [
        ("mlir-opt %s | mlir-runner -e e --march=aarch64 | FileCheck %s", "-march"),
        ("mlir-opt %s | mlir-runner -e e -shared-libs=%mlir_arm_runner_utils | FileCheck %s",
         "runtime library"),
        ("mlir-opt %s | mlir-runner -e e -entry-point-result=i32 | FileCheck %s", "returns i32"),
        ("mlir-opt %s | FileCheck %s", "no RUN pipeline"),
    ],
)
def test_run_lines_we_do_not_model_are_skipped_with_a_reason(run: str, why: str) -> None:
    assert why in runlines.plan(f"// RUN: {run}\n").skip
    assert "REQUIRES" in runlines.plan(f"// REQUIRES: arm-emulator\n// RUN: {run}\n").skip


# -- the driver on a directory ---------------------------------------------------------------
def _records(out: Path) -> dict[str, dict]:
    lines = (out / "records.jsonl").read_text().splitlines()
    return {r["file"]: r for r in map(json.loads, lines)}


def test_directory_is_classified(tmp_path, capsys) -> None:
    assert mlir_integration.main([str(HERE), "--out", str(tmp_path), "--quick"]) == 0
    recs = _records(tmp_path)
    assert {f: r["status"] for f, r in recs.items()} == {
        "bad_syntax.mlir": "unsupported",
        "broadcast_shuffle.mlir": "pass",
        "needs_sve.mlir": "skipped",
        "reduction_wrong.mlir": "interp-fail",
    }
    assert "bad_syntax.mlir:10:21: error:" in recs["bad_syntax.mlir"]["reason"]
    assert "-march" in recs["needs_sve.mlir"]["reason"]
    assert "check line 15" in recs["reduction_wrong.mlir"]["reason"]
    assert recs["broadcast_shuffle.mlir"]["prefixes"] == ["OUT"]
    runs, _ = mlir_integration.host_targets(("avx2", "x86-64-v2"))
    for t in runs:  # each target this host runs compiles the passing file and matches
        st = recs["broadcast_shuffle.mlir"]["targets"][t]
        assert st["status"] == "pass" and st["same_as_interp"], st
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(r"4 files: 1 interpreter passes, of which .* match", last), last
    table = (tmp_path / "mlir_integration.md").read_text()
    assert "| `reduction_wrong.mlir` | interp-fail |" in table


def test_bad_usage_is_a_clear_error(tmp_path, capsys) -> None:
    assert mlir_integration.main([str(tmp_path / "missing")]) == 2
    assert mlir_integration.main([str(tmp_path)]) == 1  # no *.mlir files
    assert "error:" in capsys.readouterr().err


@pytest.mark.skipif(mlir_substitutions() is None, reason="mlir-opt-22 / mlir-runner-22 absent")
def test_mlir_stage_runs_the_run_line(tmp_path) -> None:
    assert mlir_integration.main([str(HERE), "--out", str(tmp_path), "--targets", ""]) == 0
    recs = _records(tmp_path)
    assert recs["broadcast_shuffle.mlir"]["mlir"]["status"] == "pass"
    assert recs["broadcast_shuffle.mlir"]["mlir"]["same_as_interp"] is True
    assert recs["reduction_wrong.mlir"]["mlir"]["status"] == "fail"  # MLIR prints 10 too
    assert recs["bad_syntax.mlir"]["reason"].startswith("(mlir-opt-22 rejects it too)")


@pytest.mark.skipif(
    not os.environ.get("MLIR_INTEGRATION_DIR"),
    reason="set MLIR_INTEGRATION_DIR to llvm-project's mlir/test/Integration/Dialect/Vector/CPU",
)
def test_real_mlir_integration_directory(tmp_path, capsys) -> None:
    root = Path(os.environ["MLIR_INTEGRATION_DIR"])
    files = mlir_integration.test_files(root, recurse=False)
    assert files, f"no *.mlir files in {root}"
    assert mlir_integration.main([str(root), "--out", str(tmp_path), "--quick"]) == 0
    recs = _records(tmp_path)
    assert len(recs) == len(files)
    statuses = {r["status"] for r in recs.values()}
    assert statuses <= {"skipped", "unsupported", "interp-fail", "pass"}
    print(capsys.readouterr().out.strip().splitlines()[-1])


def test_bad_input_files_are_classified_not_crashed_on(tmp_path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "binary.mlir").write_bytes(b"\x00\xff\xfe not text")
    (src / "empty.mlir").write_text("")
    run = "// RUN: mlir-opt %s | mlir-runner -e E | FileCheck %s\n"
    body = "func.func @entry() {\n  return\n}\n// CHECK: x\n"
    (src / "no_entry.mlir").write_text(run.replace("E", "nope") + body)
    (src / "numeric.mlir").write_text(run.replace("E", "entry") + body + "// CHECK: [[#N]]\n")
    out = tmp_path / "out"
    assert mlir_integration.main([str(src), "--out", str(out), "--quick", "--targets", ""]) == 0
    recs = _records(out)
    assert {f: r["status"] for f, r in recs.items()} == {
        "binary.mlir": "unsupported",
        "empty.mlir": "skipped",
        "no_entry.mlir": "unsupported",
        "numeric.mlir": "unsupported",
    }
    assert "no function @nope" in recs["no_entry.mlir"]["reason"]


# -- the corpus's revision ------------------------------------------------------------------------
def _llvm_checkout(root: Path) -> str:
    """A tiny git repository laid out like llvm-project, tagged llvmorg-22.1.8; its commit."""
    import subprocess

    from experiments.integration import corpus

    d = root / corpus.SUBDIR
    (d / "X86").mkdir(parents=True)
    (d / "a.mlir").write_text("// RUN: true\n")
    (d / "X86" / "b.mlir").write_text("// RUN: true\n")
    (root / "README").write_text("not a test\n")

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                              text=True, env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                                              "GIT_COMMITTER_NAME": "t",
                                              "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(root),
                                              "PATH": os.environ["PATH"]}).stdout.strip()

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "tests")
    git("tag", "llvmorg-22.1.8")
    return git("rev-parse", "HEAD")


def test_corpus_extracted_at_a_revision_records_it(tmp_path: Path) -> None:
    from experiments.integration import corpus

    commit = _llvm_checkout(tmp_path / "llvm")
    dest = tmp_path / "cpu"
    assert corpus.extract(tmp_path / "llvm", dest) == commit
    assert (dest / "a.mlir").read_text() == "// RUN: true\n"
    assert (dest / "X86" / "b.mlir").is_file() and not (dest / "README").exists()
    assert corpus.revision(dest) == f"llvmorg-22.1.8 {commit}"
    with pytest.raises(corpus.CorpusError, match="llvmorg-99"):
        corpus.extract(tmp_path / "llvm", tmp_path / "other", "llvmorg-99")
    assert not (tmp_path / "other").exists()


def _release_tarball(path: Path, version_file: str | None) -> bytes:
    """A tiny .tar.xz laid out like a release source tarball; its bytes."""
    import io
    import tarfile

    from experiments.integration import corpus

    top = "llvm-toolchain-22_22.1.2/"
    files = {top + corpus.SUBDIR + "/a.mlir": "// RUN: true\n",
             top + corpus.SUBDIR + "/X86/b.mlir": "// RUN: true\n",
             top + "mlir/test/other.mlir": "not a vector test\n"}
    if version_file is not None:
        files[top + "cmake/Modules/LLVMVersion.cmake"] = version_file
    with tarfile.open(path, "w:xz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path.read_bytes()


_VERSION = ("if(NOT DEFINED LLVM_VERSION_MAJOR)\n  set(LLVM_VERSION_MAJOR 22)\nendif()\n"
            "  set(LLVM_VERSION_MINOR 1)\n  set(LLVM_VERSION_PATCH 2)\n")


def test_corpus_from_a_release_tarball_records_its_tag_and_checksum(tmp_path: Path) -> None:
    """A release tarball names its own revision (its version file, not its file name) and the
    record carries the tarball's sha256."""
    import hashlib

    from experiments.integration import corpus

    tarball = tmp_path / "llvm-toolchain-22_22.9.9.orig.tar.xz"
    digest = hashlib.sha256(_release_tarball(tarball, _VERSION)).hexdigest()
    dest = tmp_path / "cpu"
    assert corpus.main([str(tarball), str(dest)]) == 0
    assert (dest / "a.mlir").read_text() == "// RUN: true\n"
    assert (dest / "X86" / "b.mlir").is_file() and not (dest / "other.mlir").exists()
    assert corpus.revision(dest) == f"llvmorg-22.1.2 sha256:{digest} ({tarball.name})"


def test_a_tarball_without_a_version_or_not_a_tarball_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from experiments.integration import corpus

    no_version = tmp_path / "src.tar.xz"
    _release_tarball(no_version, None)
    assert corpus.main([str(no_version), str(tmp_path / "a")]) == 1
    assert "not an llvm-project source tarball" in capsys.readouterr().err
    partial = tmp_path / "partial.tar.xz"
    _release_tarball(partial, "set(LLVM_VERSION_MAJOR 22)\n")
    assert corpus.main([str(partial), str(tmp_path / "b")]) == 1
    assert "names no full version" in capsys.readouterr().err
    garbage = tmp_path / "garbage.tar.xz"
    garbage.write_bytes(b"not a tarball at all")
    assert corpus.main([str(garbage), str(tmp_path / "c")]) == 1
    assert "not a readable tar archive" in capsys.readouterr().err
    assert not any((tmp_path / d).exists() for d in "abc")
    with pytest.raises(SystemExit) as e:
        corpus.main([str(garbage), str(tmp_path / "d"), "--rev", "llvmorg-22.1.8"])
    assert e.value.code == 2 and "--rev is for a checkout" in capsys.readouterr().err


def test_results_quote_the_corpus_revision(tmp_path: Path) -> None:
    """The results name the files' llvm-project revision (or say it is not recorded)."""
    from experiments.integration import corpus

    dest = tmp_path / "cpu"
    dest.mkdir()
    for f in HERE.glob("*.mlir"):
        (dest / f.name).write_text(f.read_text())
    (dest / corpus.REVISION_FILE).write_text("llvmorg-22.1.8 0123abcd\n")
    out = tmp_path / "out"
    assert mlir_integration.main([str(dest), "--quick", "--out", str(out), "--targets", ""]) == 0
    md = (out / "mlir_integration.md").read_text()
    assert "llvm-project revision of the files: llvmorg-22.1.8 0123abcd" in md
