"""Modules carrying a ``transform.named_sequence``: accepted, kept verbatim, and their vector
lowering choices read as forced strategies by ``eqsat opt``."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mlir_tools import MLIR22, validate_with_mlir_opt

from eqsat.cli import main
from eqsat.forced_strategies import FAMILIES, KEPT_OP_COST, forced_cost_overrides
from eqsat.interpreter import Interpreter
from frontend import MLIRError, parse, print_module
from frontend.ops.transform import module_strategy_choices

PROGRAM = Path(__file__).resolve().parent / "programs" / "transform_strategies.mlir"

SCRIPT = """
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%m: !transform.any_op {{transform.readonly}}) {{
    %f = transform.structured.match ops{{["func.func"]}} in %m
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {{
      {patterns}
    }} : !transform.any_op
    transform.yield
  }}
}}
"""
FUNC = "func.func @entry() {\n  return\n}\n"


def test_choices_are_read_as_data() -> None:
    module = parse(PROGRAM.read_text(), str(PROGRAM))
    assert module_strategy_choices(module) == {
        "vector.contract": "parallelarith",
        "vector.transpose": "shuffle_1d",
        "vector.multi_reduction": "innerreduction",
    }


def test_defaults_quotes_and_first_choice_wins() -> None:
    patterns = (
        "transform.apply_patterns.vector.lower_contraction\n"
        "transform.apply_patterns.vector.lower_transpose lowering_strategy = llvmintr\n"
        "transform.apply_patterns.vector.lower_contraction lowering_strategy = \"dot\"\n"
        "transform.apply_patterns.vector.lower_multi_reduction"
    )
    module = parse(FUNC + SCRIPT.format(patterns=patterns), "t.mlir")
    assert module_strategy_choices(module) == {
        "vector.contract": "outerproduct",
        "vector.transpose": "llvmintr",
        "vector.multi_reduction": "innerparallel",
    }


def test_unknown_strategy_is_a_located_error() -> None:
    patterns = "transform.apply_patterns.vector.lower_contraction lowering_strategy = bogus"
    with pytest.raises(MLIRError, match=r"t.mlir:6:3: error: .*lowering_strategy must be one of"):
        parse(FUNC + SCRIPT.format(patterns=patterns), "t.mlir")


def test_printed_verbatim_and_accepted_by_mlir() -> None:
    module = parse(PROGRAM.read_text(), str(PROGRAM))
    text = print_module(module)
    assert 'lowering_strategy = "shuffle_1d"' in text
    assert print_module(parse(text, "again.mlir")) == text
    generic = print_module(module, generic=True)  # the script stays verbatim in it
    assert module_strategy_choices(parse(generic, "g.mlir")) == module_strategy_choices(module)
    if not MLIR22:
        pytest.skip("mlir-opt-22 not installed")
    for form in (text, generic):
        ok, err = validate_with_mlir_opt(form)
        assert ok, err


def test_overrides_make_other_strategies_unextractable() -> None:
    over = forced_cost_overrides({"vector.transpose": "eltwise"})
    assert over["Transpose"] == KEPT_OP_COST and "TransposeElementwise" not in over
    others = set(FAMILIES["vector.transpose"][1].values()) - {"TransposeElementwise"}
    assert all(math.isinf(over[c]) for c in others)


def test_opt_honours_the_script(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opt", str(PROGRAM)]) == 0
    out = capsys.readouterr().out
    assert "transform.named_sequence @__transform_main" in out  # carried through opt
    assert "vector.contract" not in out  # parallelarith: broadcast, mulf, multi_reduction
    assert "vector.shuffle" in out  # shuffle_1d transpose
    assert "vector.reduction" in out  # innerreduction multi_reduction
    printed = io.StringIO()
    Interpreter(parse(out, "opt.mlir"), out=printed).call("entry")
    assert printed.getvalue() == PROGRAM.with_suffix(".expected").read_text()
