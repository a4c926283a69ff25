"""`eqsat run`'s compiled path: a fault in generated code is an error naming the signal, the
output printed before it is kept, and the interpreter running eqsat survives."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat.cli import main
from eqsat.codegen.commands import best_host_target

# Infinite non-tail recursion: the compiled code overflows its stack (SIGSEGV).
RECURSE = """
func.func @deeper() {
  %c = arith.constant 2.0 : f32
  call @deeper() : () -> ()
  vector.print %c : f32
  return
}
func.func @main() {
  %c = arith.constant 1.0 : f32
  vector.print %c : f32
  call @deeper() : () -> ()
  return
}
"""


def test_a_crash_in_generated_code_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = best_host_target()
    if target is None:
        pytest.skip("this host runs none of the compiled targets")
    f = tmp_path / "rec.mlir"
    f.write_text(RECURSE)
    rc = main(["run", str(f), "--entry", "main", "--target", target])
    out, err = capsys.readouterr()
    assert rc == 1
    assert out.strip() == "1"  # printed before the fault, kept
    assert f"the {target} code of @main crashed (SIGSEGV)" in err and "Traceback" not in err
    # and the process goes on: the same command still works for a program without a fault
    f.write_text("func.func @main() {\n  %c = arith.constant 3 : i32\n  vector.print %c : i32\n"
                 "  return\n}\n")  # fmt: skip
    assert main(["run", str(f), "--entry", "main", "--target", target]) == 0
    assert capsys.readouterr().out.strip() == "3"
