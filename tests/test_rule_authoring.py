"""The rule-authoring loop of a researcher: write a rule file, check just its rules, use it
in the phase it belongs to, switch rules and phases off, see the program after each phase.
Each test pins one trap that used to bite (see the README's "Writing rules")."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat.cli import main
from eqsat.egraph import RuleError
from eqsat.optimizer import rules_phase_of
from eqsat.rulefile import load

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "examples" / "matmul_transpose.mlir")
# A small corpus program for the checks (seconds, not the whole bundled corpus).
CORPUS = """\
func.func @f(%a: vector<4x8xf32>, %b: vector<4x8xf32>) -> vector<8x4xf32> {
  %s = arith.subf %a, %b : vector<4x8xf32>
  %t = vector.transpose %s, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  return %t : vector<8x4xf32>
}
"""
SOUND = """(ruleset mine)
; law: a - b = a - b
(rewrite (ArithSubf t a b fm) (ArithSubf t a b fm) :ruleset mine :name "subf-same")
"""
UNSOUND = """(ruleset mine)
; law: a - b = b - a   (wrong on purpose)
(rewrite (ArithSubf t a b fm) (ArithSubf t b a fm) :ruleset mine :name "subf-commutes")
"""
ILL_TYPED = """(ruleset mine)
; law: transpose(x) = x   (wrong on purpose: the types differ)
(rewrite (Transpose t x p) x :ruleset mine :name "drop-transpose")
"""
COMMUTE = """(ruleset mine)
; law: a + b = b + a
(rewrite (ArithAddf t a b fm) (ArithAddf t b a fm) :ruleset mine :name "addf-commutes")
"""
NEVER = """(ruleset mine)
; law: x * 1 = x
(rewrite (ArithMulf t x x fm) x :ruleset mine :name "mulf-self")
"""


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "code", "expected"),
    [
        (SOUND, 0, ["subf-same", " ok", "0 unsound, 0 ill-typed, 0 never fired"]),
        (UNSOUND, 1, ["UNSOUND subf-commutes", "lhs gives"]),
        (ILL_TYPED, 1, ["ILL-TYPED drop-transpose", "vector<4x8xf32>", "vector<8x4xf32>"]),
        (NEVER, 1, ["untested (never fired)", "never fired on the corpus:", "corpus.mlir"]),
    ],
)
def test_check_rules_checks_just_the_given_file(
    tmp_path: Path, text: str, code: int, expected: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = _file(tmp_path, "mine.egg", text)
    corpus = _file(tmp_path, "corpus.mlir", CORPUS)
    assert main(["check-rules", "--rules", rules, corpus]) == code
    out = capsys.readouterr().out
    assert out.startswith("checked 1 rules on 1 programs")  # not the 150-odd built-in ones
    for piece in expected:
        assert piece in out


def test_a_positional_rule_file_is_a_pointed_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _file(tmp_path, "mine.egg", SOUND)
    with pytest.raises(SystemExit) as e:
        main(["check-rules", rules])
    assert e.value.code == 2
    assert f"pass it as --rules {rules}" in capsys.readouterr().err


def test_an_ill_typed_rule_in_opt_points_at_check_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _file(tmp_path, "mine.egg", ILL_TYPED)
    assert main(["opt", EXAMPLE, "--rules", rules, "--cost", "Transpose=100"]) == 1
    err = capsys.readouterr().err
    assert "unions terms of different types" in err and f"check-rules --rules {rules}" in err
    assert "are one value; rules that build or read them: drop-transpose" in err
    assert "vector<3x2xf32>" in err and "vector<2x3xf32>" in err


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("(ruleset r)\n(rewrite (Transpose t x p) x :ruleset r)\n(run 5)\n", 3, "`(run ...)`"),
        ('(ruleset r)\n(output "x.txt" (Arg 0 0 (TT "f32")))\n', 2, "`(output ...)`"),
        ("(ruleset r)\n\n(run-schedule (run r))\n", 3, "`(run-schedule ...)`"),
        ("; law: x\n(rewrite (Transpose t x p) x)\n", 2, "outside every named ruleset"),
    ],
)
def test_rule_files_hold_only_declarations_in_named_rulesets(
    tmp_path: Path, text: str, line: int, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _file(tmp_path, "mine.egg", text)
    with pytest.raises(RuleError) as e:
        load(rules)
    assert e.value.line == line and expected in e.value.message
    # The command line reports it at its line, writes nothing, runs nothing.
    assert main(["opt", EXAMPLE, "--rules", rules]) == 1
    assert f"{rules}:{line}:" in capsys.readouterr().err
    assert not (tmp_path / "x.txt").exists()


def test_a_misspelt_constructor_gets_a_did_you_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _file(tmp_path, "mine.egg", "(ruleset r)\n(rewrite (Transpos t x p) x :ruleset r)\n")
    assert main(["opt", EXAMPLE, "--rules", rules]) == 1
    assert "did you mean 'Transpose'" in capsys.readouterr().err


def test_user_rules_join_the_explore_phase_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a user rule builds must be explored and lowered: the rule runs in explore (or the
    phase asked for), not in a phase of its own after legalize."""
    rules = _file(tmp_path, "mine.egg", COMMUTE)
    for phase_args, phase in (([], "explore"), (["--rules-phase", "canonicalize"], "canonicalize")):
        assert main(["opt", EXAMPLE, "--rules", rules, "--stats", *phase_args]) == 0
        err = capsys.readouterr().err
        sections = err.split("phase ")
        (mine,) = [s for s in sections if "addf-commutes" in s]
        assert mine.startswith(f"{phase}:")
        assert "phase user" not in err
    assert rules_phase_of(ROOT / "rules" / "canonicalize" / "mine.egg") == "canonicalize"
    assert rules_phase_of(tmp_path / "mine.egg") == "explore"


def test_disable_rule_and_phases_switch_things_off(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opt", EXAMPLE, "--stats"]) == 0
    assert "transpose-compose" in capsys.readouterr().err
    assert main(["opt", EXAMPLE, "--stats", "--disable-rule", "transpose-compose"]) == 0
    assert "transpose-compose" not in capsys.readouterr().err
    assert main(["opt", EXAMPLE, "--stats", "--phases", "canonicalize"]) == 0
    err = capsys.readouterr().err
    assert "phase canonicalize" in err and "phase explore" not in err
    with pytest.raises(SystemExit) as e:
        main(["opt", EXAMPLE, "--disable-rule", "transpose-compos"])
    assert e.value.code == 2
    assert "did you mean 'transpose-compose'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["opt", EXAMPLE, "--phases", "canonicalise"])
    assert e.value.code == 2


def test_print_after_shows_each_phase_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.mlir"
    assert main(["opt", EXAMPLE, "--print-after-all", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert out.read_text().startswith("module {")
    headers = [line for line in captured.err.splitlines() if "IR after phase" in line]
    assert headers == [
        "// -----// IR after phase canonicalize //----- //",
        "// -----// IR after phase explore //----- //",
    ]
    # The input's transpose of a transpose is gone after canonicalize already.
    after_canon = captured.err.split("IR after phase explore")[0]
    assert "module {" in after_canon
    assert main(["opt", EXAMPLE, "--print-after", "explore"]) == 0
    err = capsys.readouterr().err
    assert "phase explore" in err and "phase canonicalize" not in err
