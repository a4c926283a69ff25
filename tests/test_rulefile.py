"""Rule files: parsing with egglog's parser, law comments, rule names as egglog reports them,
phase directories, and errors that point at the right line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from eqsat import rulefile
from eqsat.egraph import EGraph, RuleError
from eqsat.saturate import Phase, saturate

PRELUDE = "(datatype Math (Num i64) (Add Math Math) (Mul Math Math))\n"

ARITH = """; arith.egg -- toy rules
(ruleset arith)

; a + b == b + a
(rewrite (Add a b) (Add b a) :ruleset arith :name "add-comm")
; a * b == b * a
(birewrite (Mul a b) (Mul b a) :ruleset arith)
(rewrite (Add a (Num 0)) a :ruleset arith)  ; a + 0 == a
(rule ((= e (Add (Num x) (Num y))))
      ((union e (Num (+ x y)))) :ruleset arith :name "fold-add")
(rewrite (Mul a (Num 1)) a :ruleset arith)
"""


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_parse_lists_rulesets_rules_and_laws(tmp_path: Path) -> None:
    rf = rulefile.load(write(tmp_path, "canonicalize/arith.egg", ARITH))
    assert rf.rulesets == ("arith",) and rf.phase == "canonicalize"
    kinds = [r.kind for r in rf.rules]
    assert kinds == ["rewrite", "birewrite", "rewrite", "rule", "rewrite"]
    comm, mul, zero, fold, one = rf.rules
    assert (comm.label, comm.keys, comm.law, comm.line) == (
        "add-comm",
        ("add-comm",),
        "a + b == b + a",
        5,
    )
    assert mul.keys == (
        "(birewrite (Mul a b) (Mul b a) :ruleset arith)=>",
        "(birewrite (Mul a b) (Mul b a) :ruleset arith)<=",
    )
    assert mul.label == "arith.egg:7" and mul.law == "a * b == b * a"
    assert zero.law == "a + 0 == a"  # a trailing comment counts too
    assert fold.label == "fold-add" and fold.line == 9 and fold.law == ""
    assert rf.without_law() == (fold, one)


def test_report_keys_match_egglogs_run_report(tmp_path: Path) -> None:
    rf = rulefile.load(write(tmp_path, "arith.egg", ARITH))
    egraph = EGraph()
    egraph.run(PRELUDE + "(let $root (Add (Num 1) (Mul (Num 2) (Add (Num 3) (Num 0)))))")
    rf.install(egraph)
    report = saturate(egraph, Phase("p", rf.rulesets))
    applied = report.phases[0].applied
    assert applied and set(applied) <= set(rf.labels())
    assert "arith.egg:7=>" in report.format(rf.labels())


def test_syntax_error_reports_the_line(tmp_path: Path) -> None:
    text = "(ruleset r)\n; law\n(rewrite (Add a b) (Add b a) :ruleset r)\n\n(rewrite (Add a b)\n"
    path = write(tmp_path, "broken.egg", text)
    with pytest.raises(RuleError) as err:
        rulefile.load(path)
    assert str(err.value) == f"{path}:6:1: error: parse error: unexpected end of file"


def test_bad_option_points_at_the_rule(tmp_path: Path) -> None:
    path = write(tmp_path, "opt.egg", "(ruleset r)\n\n(rewrite (Num a) (Num a)\n :rulset r)\n")
    with pytest.raises(RuleError) as err:
        rulefile.load(path)
    assert (err.value.line, err.value.col, err.value.end) == (3, 1, (4, 11))
    assert err.value.message == "parse error: could not parse rewrite options"


def test_type_error_on_install_points_at_the_culprit(tmp_path: Path) -> None:
    text = '(ruleset r)\n; law\n(rewrite (Num a) (Num "x") :ruleset r)\n'
    rf = rulefile.load(write(tmp_path, "types.egg", text))
    egraph = EGraph()
    egraph.run(PRELUDE, "prelude.egg")
    with pytest.raises(RuleError) as err:
        rf.install(egraph)
    e = err.value
    assert (e.path, e.line, e.col) == (str(rf.path), 3, 23)
    assert e.message == 'Expect expression "x" to have type i64, but get type String'
    assert e.render().splitlines()[1:] == [
        '(rewrite (Num a) (Num "x") :ruleset r)',
        " " * 22 + "^^^",
    ]


def test_columns_count_characters_not_bytes() -> None:
    egraph = EGraph()
    with pytest.raises(RuleError) as err:
        egraph.run(PRELUDE + "(let $é (Nu 1)) ; ünïcödé\n", "u.egg")
    assert (err.value.line, err.value.col) == (2, 9)
    assert str(err.value) == "u.egg:2:9: error: Unbound function Nu"


def test_multiline_span_message() -> None:
    egraph = EGraph()
    egraph.run(PRELUDE + "(ruleset r)\n", "p.egg")
    with pytest.raises(RuleError) as err:
        egraph.run("(rewrite (Num a)\n   (Foo\n  a)\n :ruleset r)\n", "m.egg")
    assert (err.value.line, err.value.col, err.value.end) == (2, 4, (3, 4))
    assert err.value.message == "Unbound function Foo"


def test_phase_directories(tmp_path: Path) -> None:
    write(tmp_path, "explore/b.egg", "(ruleset b-rules)\n")
    write(tmp_path, "explore/a.egg", "(ruleset a-rules)\n(ruleset a-more)\n")
    write(tmp_path, "explore/notes.txt", "not a rule file")
    files = rulefile.phase_files("explore", tmp_path)
    assert [f.path.name for f in files] == ["a.egg", "b.egg"]
    assert rulefile.phase_rulesets("explore", tmp_path) == ("a-rules", "a-more", "b-rules")
    with pytest.raises(FileNotFoundError):
        rulefile.phase_files("legalize", tmp_path)


def test_find_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "canonicalize/fold.egg", "(ruleset fold)\n")
    monkeypatch.setattr(rulefile, "rules_dir", lambda: tmp_path)
    assert rulefile.find("canonicalize/fold") == tmp_path / "canonicalize/fold.egg"
    assert rulefile.load("canonicalize/fold.egg").rulesets == ("fold",)
    with pytest.raises(FileNotFoundError):
        rulefile.find("canonicalize/missing")


def test_rules_package_is_found() -> None:
    root = rulefile.rules_dir()
    assert (root / "__init__.py").is_file()
    assert (root / "canonicalize").is_dir() and (root / "explore").is_dir()
