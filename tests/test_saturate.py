"""The saturation driver on a toy arithmetic language: every stop reason, counts, the report."""

from __future__ import annotations

import pytest

from eqsat.egraph import EGraph, RuleError
from eqsat.saturate import Phase, StopReason, saturate

MATH = """
(datatype Math (Num i64) (Var String) (Add Math Math) (Mul Math Math))
(ruleset comm)
; a + b == b + a
(rewrite (Add a b) (Add b a) :ruleset comm :name "add-comm")
; a * b == b * a
(rewrite (Mul a b) (Mul b a) :ruleset comm :name "mul-comm")
(ruleset assoc)
; a + (b + c) == (a + b) + c
(rewrite (Add a (Add b c)) (Add (Add a b) c) :ruleset assoc :name "add-assoc")
; a * (b * c) == (a * b) * c
(rewrite (Mul a (Mul b c)) (Mul (Mul a b) c) :ruleset assoc :name "mul-assoc")
; a * (b + c) == a * b + a * c
(rewrite (Mul a (Add b c)) (Add (Mul a b) (Mul a c)) :ruleset assoc :name "distrib")
"""


def chain(n: int) -> str:
    """((x0 + 1) * x1 + 2) * x2 ...: enough structure for AC rules to explode."""
    term = '(Var "x0")'
    for i in range(1, n):
        term = f'(Mul (Add {term} (Num {i})) (Var "x{i}"))'
    return term


def graph(n: int) -> EGraph:
    egraph = EGraph()
    egraph.run(MATH + f"(let $root {chain(n)})", "math.egg")
    return egraph


def test_counts_nodes_and_classes() -> None:
    egraph = graph(3)
    assert egraph.sizes() == {"Add": 2, "Mul": 2, "Num": 2, "Var": 3}
    assert egraph.num_nodes() == 9
    assert egraph.num_classes() == 9
    egraph.run("(union (Num 1) (Num 2))")
    assert egraph.num_classes() == 8


def test_commutativity_saturates() -> None:
    egraph = graph(3)
    report = saturate(egraph, Phase("canonicalize", ("comm",)))
    phase = report.phase("canonicalize")
    assert phase.stop is StopReason.SATURATED
    assert phase.nodes == 13 and phase.peak_nodes == 13 and phase.start_nodes == 9
    assert phase.classes == 9  # commutativity adds nodes, never classes
    assert phase.applied["add-comm"] > 0 and phase.applied["mul-comm"] > 0
    assert not phase.banned
    # The last step changed nothing: that is what saturated means.
    assert not phase.iterations[-1].changed


def test_iteration_limit() -> None:
    report = saturate(graph(6), Phase("explore", ("comm", "assoc"), max_iterations=2))
    phase = report.phases[0]
    assert phase.stop is StopReason.ITERATION_LIMIT
    assert phase.num_iterations == 2


def test_node_limit_stops_the_explosion() -> None:
    phase = Phase("explore", ("comm", "assoc"), node_limit=500, match_limit=100, ban_length=2)
    report = saturate(graph(6), phase).phases[0]
    assert report.stop is StopReason.NODE_LIMIT
    assert report.nodes > 500 and report.peak_nodes >= report.nodes
    # The back-off scheduler keeps one iteration from overshooting wildly.
    assert report.nodes < 5000
    assert report.iterations[-1].nodes == report.nodes


def test_time_limit() -> None:
    report = saturate(graph(6), Phase("explore", ("comm", "assoc"), time_limit=0.0)).phases[0]
    assert report.stop is StopReason.TIME_LIMIT
    assert report.num_iterations == 1


def test_banned_rules_are_not_saturation() -> None:
    """With a tiny match limit, steps where every rule is banned change nothing; the driver
    must keep going until the held-back matches are applied."""
    plain = saturate(graph(4), Phase("p", ("comm",), match_limit=None)).phases[0]
    backed = saturate(graph(4), Phase("b", ("comm",), match_limit=1, ban_length=1)).phases[0]
    assert plain.stop is backed.stop is StopReason.SATURATED
    assert backed.nodes == plain.nodes
    assert any(it.banned for it in backed.iterations)
    assert any(it.idle for it in backed.iterations)
    assert backed.num_iterations < len(backed.iterations)


def test_phases_run_in_order() -> None:
    report = saturate(
        graph(3),
        [Phase("canonicalize", ("comm",)), Phase("explore", ("comm", "assoc"), max_iterations=3)],
    )
    first, second = report.phases
    assert second.start_nodes == first.nodes
    assert report.seconds == pytest.approx(first.seconds + second.seconds)


def test_empty_phase_is_saturated() -> None:
    phase = saturate(graph(2), Phase("nothing", ())).phases[0]
    assert phase.stop is StopReason.SATURATED and phase.iterations == ()


def test_phase_rejects_negative_limits() -> None:
    with pytest.raises(ValueError):
        Phase("bad", ("comm",), node_limit=-1)


def test_format_prints_stop_reason_and_rules() -> None:
    report = saturate(graph(3), Phase("canonicalize", ("comm",)))
    text = report.format(labels={"add-comm": "commute-add"})
    assert text.startswith("phase canonicalize: saturated after")
    assert "commute-add" in text and "mul-comm" in text
    assert "found" in text and "applied" in text


def test_unnamed_rules_are_reported_by_their_text() -> None:
    egraph = graph(2)
    egraph.run("(ruleset anon)\n(rewrite (Add a b) (Add b a) :ruleset anon)")
    phase = saturate(egraph, Phase("p", ("anon",))).phases[0]
    assert list(phase.applied) == ["(rewrite (Add a b) (Add b a) :ruleset anon)"]


def test_panic_in_a_rule_points_at_the_rule() -> None:
    egraph = graph(2)
    egraph.run(
        '(ruleset boom)\n(rule ((Num x) (> x 0))\n      ((panic "positive!")) :ruleset boom)\n',
        "boom.egg",
    )
    with pytest.raises(RuleError) as err:
        saturate(egraph, Phase("p", ("boom",)))
    assert (err.value.path, err.value.line, err.value.col) == ("boom.egg", 3, 8)
    assert not err.value.exact
    assert "positive!" in str(err.value)


def test_eval_and_eval_errors() -> None:
    egraph = graph(2)
    sort, _ = egraph.eval("$root")
    assert sort == "Math"
    with pytest.raises(RuleError, match="Unbound function Sub"):
        egraph.eval("(Sub (Num 1) (Num 2))")
