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


def test_run_takes_a_target_file_as_opt_does(tmp_path, capsys) -> None:
    """``eqsat run --target`` takes what ``opt`` takes: a name or a target file; a bad one is
    its located error before anything runs (exit 2 for a name, 1 for a file's content)."""
    root = Path(__file__).parent.parent
    runs = [t for t in ("x86-64-v2", "avx2") if load_target(t).runs_on_host()]
    if runs:
        assert main(["run", str(FMA), "--target", str(root / "costs" / f"{runs[0]}.toml")]) == 0
        assert capsys.readouterr().out == FMA.with_suffix(".expected").read_text()
    assert main(["run", str(FMA), "--target", "avx3"]) == 2
    assert "unknown target 'avx3'" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text('[target]\ntriple = "x86_64-unknown-linux-gnu"\nvector_bits = -3\n')
    assert main(["run", str(FMA), "--target", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:1: error: [target] needs") and "Traceback" not in err, err


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


OUT_OF_BOUNDS = {
    "memref.load": (
        "%c4 = arith.constant 4 : index\n  %m = memref.alloc() : memref<4xf32>\n"
        "  %x = memref.load %m[%c4] : memref<4xf32>"
    ),
    "vector.load": (
        "%c2 = arith.constant 2 : index\n  %m = memref.alloc() : memref<4xf32>\n"
        "  %x = vector.load %m[%c2] : memref<4xf32>, vector<4xf32>"
    ),
    "memref.store": (
        "%c9 = arith.constant 900000000 : index\n  %m = memref.alloc() : memref<4xf32>\n"
        "  %z = arith.constant 1.0 : f32\n  memref.store %z, %m[%c9] : memref<4xf32>"
    ),
    "vector.transfer_read": (
        "%c9 = arith.constant 9000000 : index\n  %m = memref.alloc() : memref<4x4xf32>\n"
        "  %p = arith.constant 0.0 : f32\n  %v = vector.transfer_read %m[%c9, %c9], %p "
        "{in_bounds = [true]} : memref<4x4xf32>, vector<4xf32>"
    ),
}


@pytest.mark.parametrize("op", OUT_OF_BOUNDS)
def test_compiled_run_checks_memory_accesses(op: str, tmp_path, capsys) -> None:
    """`eqsat run` compiles with bounds checks: an access outside a memref is a fault at the
    op (output stops there, as in the interpreter), never a wild access."""
    runs = [t for t in ("avx2", "x86-64-v2") if load_target(t).runs_on_host()]
    if not runs:
        pytest.skip("this host runs none of the x86 targets")
    path = tmp_path / "oob.mlir"
    body = OUT_OF_BOUNDS[op]
    path.write_text(
        f'func.func @entry() {{\n  vector.print str "before\\n"\n  {body}\n'
        '  vector.print str "after\\n"\n  return\n}\n'
    )
    assert main(["run", str(path), "--target", runs[0]]) == 1
    out, err = capsys.readouterr()
    line = 3 + body.count("\n")
    assert out == "before\n"
    assert err.startswith(f"{path}:{line}:3: error: '{op}' op runtime fault"), err
