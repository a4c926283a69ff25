"""Differential fuzzing in CI: random programs through every stage of the pipeline
(`experiments/fuzz.py` runs the long campaign), and every saved regression replayed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eqsat.fuzzgen import programs
from experiments import fuzz
from experiments.fuzz_shrink import shrink
from frontend import parse, print_module

REGRESSIONS = sorted(fuzz.REGRESSIONS.glob("*.mlir"))


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(programs(max_ops=14))
def test_generated_programs_verify_and_print_back(program: fuzz.Any) -> None:
    text = program.text
    assert print_module(parse(text)) == text  # parse() verifies


def test_generator_covers_the_op_families() -> None:
    seen = set()
    for text, _ in fuzz.generate(1000, seed=11, max_ops=14):
        seen.update(w for w in text.split() if w.startswith(("vector.", "arith.", "math.",
                                                             "scf.", "memref.")))
    for op in ("vector.contract", "vector.transfer_read", "vector.transfer_write",
               "vector.gather", "vector.transpose", "vector.broadcast", "vector.shape_cast",
               "vector.multi_reduction", "vector.scan", "vector.shuffle", "scf.for",
               "vector.maskedload", "arith.addf", "arith.addi", "math.fma"):
        assert op in seen, op


def test_a_few_hundred_programs_agree_at_every_stage() -> None:
    """Every variant (default costs, strategies forced, each target's widths, compiled
    runs where the code generator exists) on 300 programs: no mismatch, no crash."""
    chosen = fuzz.variants()
    cases = list(fuzz.generate(300, seed=2026))
    findings = []
    for i in range(0, len(cases), 25):
        findings += fuzz.check_batch(cases[i : i + 25], chosen)
    assert not findings, "\n\n".join(f"{f.kind} at {f.stage}: {f.detail}\n{f.text}"
                                     for f in findings[:3])


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: p.stem)
def test_fuzz_regression(path: Path) -> None:
    text, seed = fuzz.read_regression(path)
    findings = fuzz.check_program(text, seed)
    assert not findings, findings[0].detail


WRONG_RULES = """
(ruleset wrong)
; negf(x) == x - x   (wrong)
(rewrite (ArithNegf t x f) (ArithSubf t x x f) :ruleset wrong :name "neg-wrong")
"""


def test_fuzzer_catches_a_wrong_rewrite_and_shrinks_it(tmp_path: Path) -> None:
    """A deliberately wrong rule, forced by its cost: the fuzzer reports a mismatch, shrinks
    the program to the op at fault and saves a regression file that replays it."""
    from eqsat.cost import vv_cost

    rules = tmp_path / "wrong.egg"
    rules.write_text(WRONG_RULES)
    bad = fuzz.Variant("wrong", fuzz._optimize(extra_rule_paths=(rules,),
                                               cost=vv_cost({"ArithNegf": 1e6})))
    text = """module {
  func.func @f(%arg0: vector<4xf32>, %arg1: vector<3xi8>) -> (vector<4xf32>, vector<3xi8>) {
    %0 = arith.mulf %arg0, %arg0 : vector<4xf32>
    %1 = arith.negf %0 : vector<4xf32>
    %2 = arith.addi %arg1, %arg1 : vector<3xi8>
    return %1, %2 : vector<4xf32>, vector<3xi8>
  }
}
"""
    findings = fuzz.check_batch([(text, 7)], [bad])
    assert [f.kind for f in findings] == ["mismatch"]
    small = shrink(findings[0], lambda text, seed: fuzz.check_program(text, seed, [bad]))
    assert "arith.negf" in small.text and "arith.addi" not in small.text
    assert "arith.mulf" not in small.text  # cut: its result became an argument
    saved = fuzz.save_regression(small, tmp_path)
    replay_text, replay_seed = fuzz.read_regression(saved)
    assert fuzz.check_program(replay_text, replay_seed, [bad])
    assert not fuzz.check_program(replay_text, replay_seed, fuzz.variants("quick"))
