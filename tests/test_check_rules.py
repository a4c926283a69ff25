"""check-rules: the library is sound and fully exercised; broken rules are caught."""

from __future__ import annotations

from pathlib import Path

from eqsat.check_rules import check_rules, default_corpus
from eqsat.rulefile import parse as parse_rules
from eqsat.rulefile import phase_files


def test_rule_library_is_sound_and_every_rule_fires() -> None:
    """One run over the rule corpus (the suite's costliest check of the library): every rule
    sound, fired and checked, the legalize phase's rules among them by name."""
    report = check_rules(default_corpus())
    assert not report.errors, report.errors
    assert not report.unsound(), report.format()
    assert not report.unfired(), report.format()
    assert all(r.checked for r in report.results.values()), report.format()
    legalize = {r.label for rf in phase_files("legalize") for r in rf.rules}
    assert legalize and legalize <= set(report.results), legalize - set(report.results)
    for label in legalize:
        r = report.results[label]
        assert r.fired and r.checked and not r.failures, (label, r.failures[:1], r.skipped[:1])


BAD = """
(ruleset bad)
; transpose(x, p) == x   (wrong unless p is the identity)
(rewrite (Transpose t x p) x :ruleset bad :name "transpose-vanishes")
; shape_cast of a shuffle (never present in the corpus below)
(rewrite (ShapeCast t (Shuffle t2 a b m)) a :ruleset bad :name "never-fires")
"""

PROGRAM = """
func.func @f(%a: vector<2x3xf32>) -> vector<3x2xf32> {
  %0 = vector.transpose %a, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
  return %0 : vector<3x2xf32>
}
"""


def test_ill_typed_rule_is_named_and_unfired_rule_is_listed(tmp_path: Path) -> None:
    program = tmp_path / "p.mlir"
    program.write_text(PROGRAM)
    rules = parse_rules(BAD, tmp_path / "bad.egg")
    report = check_rules([program], rule_files=[rules])
    # Its two sides differ in type: ill-typed, said so with both types (not "unsound").
    assert [r.rule.label for r in report.ill_typed()] == ["transpose-vanishes"]
    assert not report.unsound()
    failure = report.ill_typed()[0].ill_typed[0]
    assert "vector<2x3xf32>" in failure and "vector<3x2xf32>" in failure
    assert [r.rule.label for r in report.unfired()] == ["never-fires"]
    assert not report.ok()
    assert "ILL-TYPED transpose-vanishes" in report.format()


# Rules wrong only on special values: random finite inputs never show them.
SUBTLE = """
(ruleset subtle)
; x + 0.0 == x   (wrong: -0.0 + 0.0 is +0.0)
(rewrite (ArithAddf t x (ArithConstant t "dense<0.000000e+00> : vector<4xf32>") f) x
         :ruleset subtle :name "add-zero-vanishes")
; maximumf(x, y) == maxnumf(x, y)   (wrong: maximumf propagates NaN, maxnumf ignores it)
(rewrite (ArithMaximumf t x y f) (ArithMaxnumf t x y f) :ruleset subtle :name "maximum-as-maxnum")
; maxsi(x, y) == x - min(x - y, 0)... here: maxsi(x, y) == select(x - y > 0, x, y)
; (wrong when x - y overflows: INT_MIN and INT_MAX)
(rewrite (ArithMaxsi t x y)
         (ArithSelect t (ArithCmpi (VT (vec-of 4) "i1") (ArithSubi t x y "none")
                        (ArithConstant t "dense<0> : vector<4xi32>") 4) x y)
         :ruleset subtle :name "maxsi-by-difference")
"""

SUBTLE_PROGRAM = """
func.func @f(%a: vector<4xf32>, %b: vector<4xf32>, %i: vector<4xi32>, %j: vector<4xi32>)
    -> (vector<4xf32>, vector<4xf32>, vector<4xi32>) {
  %z = arith.constant dense<0.0> : vector<4xf32>
  %0 = arith.addf %a, %z : vector<4xf32>
  %1 = arith.maximumf %a, %b : vector<4xf32>
  %2 = arith.maxsi %i, %j : vector<4xi32>
  return %0, %1, %2 : vector<4xf32>, vector<4xf32>, vector<4xi32>
}
"""


def test_rules_wrong_only_on_special_values_are_caught(tmp_path: Path) -> None:
    program = tmp_path / "p.mlir"
    program.write_text(SUBTLE_PROGRAM)
    rules = parse_rules(SUBTLE, tmp_path / "subtle.egg")
    report = check_rules([program], rule_files=[rules])
    assert not report.errors, report.errors
    assert sorted(r.rule.label for r in report.unsound()) == [
        "add-zero-vanishes", "maximum-as-maxnum", "maxsi-by-difference"
    ], report.format()

