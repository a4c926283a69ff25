"""experiments/cost_reprice.py: re-pricing timed alternatives, checked on synthetic records."""

from __future__ import annotations

import pytest

from experiments.cost_corpus import held_out
from experiments.cost_reprice import compare, timed_rows, worst_pairs

# a held-out kernel name and a tuning one (the split is a hash of the name)
HELD = next(n for n in (f"k{i}" for i in range(100)) if held_out(n))


def _rec(alt: str, program: str, ns: float, cost: float, cost_hash: str = "a") -> dict:
    return {"study": "tune-alt", "target": "avx2", "status": "ok", "cost_hash": cost_hash,
            "spec": {"params": {"kernel": HELD, "alternative": alt}, "costs": None},
            "result": {"applies": True, "checked": True, "program": program,
                       "ns_per_call": ns, "predicted_cost": cost}}  # fmt: skip


def test_timed_rows_take_one_table_versions_timings_and_distinct_programs() -> None:
    records = [_rec("eqsat", "P", 10.0, 1.0), _rec("x=dot", "P", 11.0, 1.0),
               _rec("x=par", "Q", 20.0, 2.0), _rec("x=par", "Q", 99.0, 2.0, cost_hash="b")]  # fmt: skip
    rows = timed_rows(records, "avx2")  # the first record's table version: "a"
    assert [(r["alternative"], r["ns_per_call"]) for r in rows] == [("eqsat", 10.0), ("x=par", 20.0)]
    assert [r["ns_per_call"] for r in timed_rows(records, "avx2", "b")] == [99.0]


def _priced(alt: str, old_cost: float, new_cost: float, ns: float, new_ns: float | None) -> dict:
    return {"kernel": HELD, "alternative": alt, "old_cost": old_cost, "old_ns": ns,
            "new_cost": new_cost, "same_program": new_ns == ns, "new_ns": new_ns}  # fmt: skip


def test_a_model_change_that_reverses_the_ranking_scores_minus_one() -> None:
    priced = [_priced(a, c, 10 - c, t, t) for a, c, t in
              (("a", 1, 10.0), ("b", 2, 20.0), ("c", 3, 30.0), ("d", 4, 40.0))]  # fmt: skip
    s = compare(priced)["held_out"]
    assert s["before"]["tau"] == 1.0 and s["after"]["tau"] == -1.0
    assert s["before"]["tau_b4"] == pytest.approx(1.0) and s["after"]["tau_b4"] == pytest.approx(-1.0)
    assert s["before"]["regret_geomean"] == 0.0  # the cheapest is the fastest
    assert s["after"]["regret_worst"] == pytest.approx(3.0)  # now the 40 ns one is cheapest
    assert len(worst_pairs(priced, "new")) == 6 and worst_pairs(priced, "old") == []


def test_untimed_new_programs_are_left_out_and_counted() -> None:
    priced = [_priced("a", 1, 1, 10.0, 10.0), _priced("b", 2, 0.5, 20.0, None),
              _priced("c", 3, 3, 30.0, 10.0)]  # c now extracts a's program: counted once
    s = compare(priced)["held_out"]
    assert s["untimed"] == 1 and s["changed"] == 2
    assert s["after"]["pairs"] == 0  # one distinct timed program left: nothing to rank
