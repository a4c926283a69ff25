"""The Python front door (``eqsat.parse/optimize/compile/interpret``, ``__version__``) and the
README's example of it, run as written."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

import eqsat
from eqsat.cli import main
from eqsat.targets import load_target

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "matmul_transpose.mlir").read_text()


def _readme_example() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Python API", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def test_readme_example_runs_as_written() -> None:
    pytest.importorskip("llvmlite")
    if not load_target("avx2").runs_on_host():
        pytest.skip("this host does not run AVX2 code")
    exec(compile(_readme_example(), "README.md", "exec"), {})


def test_front_door_takes_target_names_and_objects(capsys: pytest.CaptureFixture[str]) -> None:
    module = eqsat.parse(EXAMPLE)
    by_name = eqsat.optimize(module, target="avx2")
    by_object = eqsat.optimize(module, target=load_target("avx2"))
    assert str(by_name) == str(by_object)
    assert "vector.transpose" not in str(eqsat.optimize(module))  # VV model, no target
    eqsat.interpret(by_name, "entry")
    eqsat.interpret(EXAMPLE, "entry")
    out = capsys.readouterr().out
    first, second = out[: len(out) // 2], out[len(out) // 2 :]
    assert first == second  # optimized and original print the same


def test_front_door_functions_and_their_modules_have_distinct_names() -> None:
    """The functions ``eqsat.optimize``/``eqsat.interpret`` live in ``eqsat.api``; the modules
    behind them are ``eqsat.optimizer``/``eqsat.interpreter``, so importing one never hides
    the other."""
    import eqsat.interpreter
    import eqsat.optimizer
    from eqsat.optimizer import optimize_module

    assert callable(eqsat.optimize) and eqsat.optimize.__module__ == "eqsat.api"
    assert eqsat.interpret.__module__ == "eqsat.api"
    assert eqsat.optimizer.optimize_module is optimize_module
    assert eqsat.interpreter.Interpreter.__module__ == "eqsat.interpreter"
    with pytest.raises(TypeError, match="load_target"):  # not AttributeError on a str
        optimize_module(eqsat.parse(EXAMPLE), target="avx2")  # type: ignore[arg-type]


def test_misspelt_cost_names_raise() -> None:
    with pytest.raises(ValueError, match="did you mean 'Transpose'"):
        eqsat.optimize(EXAMPLE, costs={"Transpos": 1.0})


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert eqsat.__version__ == version
    for name in ("parse", "optimize", "compile", "interpret"):
        assert name in eqsat.__doc__ and getattr(eqsat, name).__doc__
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"eqsat {version}"
