"""`eqsat run`'s compiled path: a fault in generated code is an error naming the signal, the
output printed before it is kept, and the interpreter running eqsat survives.

Generated code no longer faults on its own in simple programs (runaway recursion and huge
allocas are located runtime faults), so the fault is raised by a stand-in for the compiled call.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from eqsat.cli import main
from eqsat.codegen import commands
from eqsat.codegen.guard import GeneratedCodeCrash, call_guarded

PROGRAM = "func.func @main() {\n  %c = arith.constant 3 : i32\n  vector.print %c : i32\n  return\n}\n"


def _print_then_segfault() -> None:
    sys.stdout.write("1\n")
    os.kill(os.getpid(), signal.SIGSEGV)


def test_guard_reports_the_signal_and_keeps_the_output(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(GeneratedCodeCrash, match=r"the code crashed \(SIGSEGV\)"):
        call_guarded(_print_then_segfault, "the code")
    assert capsys.readouterr().out == "1\n"


def test_guard_raises_the_childs_exception_here() -> None:
    def fail() -> None:
        raise ValueError("from the child")

    with pytest.raises(ValueError, match="from the child"):
        call_guarded(fail, "the code")


def test_a_crash_in_generated_code_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = commands.best_host_target()
    if target is None:
        pytest.skip("this host runs none of the compiled targets")
    f = tmp_path / "p.mlir"
    f.write_text(PROGRAM)
    real_run = commands.run
    monkeypatch.setattr(commands, "run", lambda *a, **k: _print_then_segfault())
    rc = main(["run", str(f), "--entry", "main", "--target", target])
    out, err = capsys.readouterr()
    assert rc == 1 and out == "1\n"
    assert f"the {target} code of @main crashed (SIGSEGV)" in err and "Traceback" not in err
    monkeypatch.setattr(commands, "run", real_run)  # and the process goes on
    assert main(["run", str(f), "--entry", "main", "--target", target]) == 0
    assert capsys.readouterr().out.strip() == "3"
