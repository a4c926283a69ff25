"""``eqsat run --target`` and ``eqsat opt --emit llvm|asm``."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat.cli import main
from eqsat.targets import load_target
from tests.test_codegen_api import KERNEL

FMA = Path(__file__).parent / "programs" / "fma.mlir"


@pytest.mark.parametrize("target", [None, "avx2", "x86-64-v2"])
def test_run_compiled_prints_the_golden(target: str | None, capsys) -> None:
    if target is not None and not load_target(target).runs_on_host():
        pytest.skip(f"this host cannot run {target} code")
    argv = ["run", str(FMA)] + (["--target", target] if target else [])
    assert main(argv) == 0
    assert capsys.readouterr().out == FMA.with_suffix(".expected").read_text()


def test_run_on_a_target_the_host_cannot_run_is_a_clear_error(capsys) -> None:
    assert main(["run", str(FMA), "--target", "neon"]) == 1
    err = capsys.readouterr().err
    assert "cannot execute code for target 'neon'" in err and "Traceback" not in err


def test_compiled_fault_is_located(tmp_path, capsys) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(
        'func.func @entry() {\n  vector.print str "before\\n"\n  %a = arith.constant 1 : i32\n'
        "  %z = arith.constant 0 : i32\n  %q = arith.divsi %a, %z : i32\n  return\n}\n"
    )
    runs = [t for t in ("avx2", "x86-64-v2") if load_target(t).runs_on_host()]
    if not runs:
        pytest.skip("this host runs none of the x86 targets")
    assert main(["run", str(path), "--target", runs[0]]) == 1
    out, err = capsys.readouterr()
    assert out == "before\n"
    assert err.startswith(f"{path}:5:3: error: 'arith.divsi' op runtime fault"), err


def test_opt_emits_llvm_and_assembly(tmp_path, capsys) -> None:
    path = tmp_path / "k.mlir"
    path.write_text(KERNEL)
    assert main(["opt", str(path), "--emit", "llvm", "--target", "avx2"]) == 0
    assert 'define void @"axpy"(ptr' in capsys.readouterr().out
    assert main(["opt", str(path), "--emit", "asm", "--target", "avx512"]) == 0
    assert "zmm" in capsys.readouterr().out
    assert main(["opt", str(path), "--emit", "asm", "--target", "neon", "--layout", "flat"]) == 0
    assert "fmla" in capsys.readouterr().out
