"""The flat-matrix layout choice (``--matrix-layout``) of flat_transpose / matrix_multiply.

Goldens: ``tests/programs/NAME.expected`` (row-major, the default) and
``tests/programs/column_major/NAME.expected``, both produced by ``mlir-cpu-runner-19
-O0 -enable-matrix -matrix-default-layout=<layout>``; checked again where MLIR 19 runs.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mlir_tools import PROGRAMS_DIR, missing_tools, run_text_with_mlir

from eqsat.cli import main
from eqsat.interpreter import Interpreter
from frontend import parse
from frontend import semantics_vector as S

PROGRAMS = ["removed_flat_transpose", "removed_matrix_multiply"]
LAYOUTS = {"row-major": PROGRAMS_DIR, "column-major": PROGRAMS_DIR / "column_major"}


def _run(name: str, layout: str) -> str:
    out = io.StringIO()
    module = parse((PROGRAMS_DIR / f"{name}.mlir").read_text(), name)
    Interpreter(module, out=out, matrix_layout=layout).call("entry")
    return out.getvalue()


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", PROGRAMS)
def test_interpreter_matches_golden(name: str, layout: str) -> None:
    assert _run(name, layout) == (LAYOUTS[layout] / f"{name}.expected").read_text()


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", PROGRAMS)
def test_golden_matches_mlir19(name: str, layout: str) -> None:
    missing = missing_tools(19)
    if missing:
        pytest.skip(f"MLIR 19 not usable here, missing: {', '.join(missing)}")
    args = ("-O0", "-enable-matrix", f"-matrix-default-layout={layout}")
    got = run_text_with_mlir((PROGRAMS_DIR / f"{name}.mlir").read_text(), 19, args)
    assert got == (LAYOUTS[layout] / f"{name}.expected").read_text()


def test_layouts_differ_and_are_consistent() -> None:
    m = np.arange(6.0)  # a 2x3 matrix
    rm = S.flat_transpose(m, 2, 3, "row-major")
    cm = S.flat_transpose(m, 2, 3, "column-major")
    assert rm.tolist() == [0, 3, 1, 4, 2, 5] and cm.tolist() == [0, 2, 4, 1, 3, 5]
    a, b = np.arange(6.0), np.arange(6.0) + 1  # (2x3) @ (3x2)
    for layout, order in (("row-major", "C"), ("column-major", "F")):
        ma, mb = a.reshape((2, 3), order=order), b.reshape((3, 2), order=order)
        got = S.matrix_multiply(a, b, 2, 3, 2, "f64", layout)
        assert got.tolist() == (ma @ mb).reshape(-1, order=order).tolist()
    with pytest.raises(S.SemanticsError, match="unknown matrix layout"):
        S.flat_transpose(m, 2, 3, "diagonal")


def test_cli_flag(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(PROGRAMS_DIR / "removed_matrix_multiply.mlir")
    assert main(["run", "--matrix-layout", "column-major", path]) == 0
    out = capsys.readouterr().out
    assert out == (LAYOUTS["column-major"] / "removed_matrix_multiply.expected").read_text()
    assert main(["run", path]) == 0
    assert capsys.readouterr().out == (PROGRAMS_DIR / "removed_matrix_multiply.expected").read_text()
    with pytest.raises(SystemExit) as e:
        main(["run", "--matrix-layout", "diagonal", path])
    assert e.value.code == 2
