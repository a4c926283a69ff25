"""The exact (ILP) extractor: optimal DAG cost where greedy is not, never worse than the fast
one, acyclic terms from cyclic graphs, and a clear error past its size limit."""

from __future__ import annotations

import pytest

from eqsat.egraph import EGraph
from eqsat.extract import ExtractionError, Snapshot, TableCost
from eqsat.extract_exact import extract_exact
from eqsat.optimizer import optimize_module
from eqsat.targets import load_target
from experiments.lib.kernels import suite
from frontend import parse

# Greedy finalizes a = A1 (3 < A2 1 + S 3) and b = B1 alike: 6. Sharing S: A2 + B2 + S = 5.
SHARING = """
(datatype T (S) (A1) (A2 T) (B1) (B2 T) (F T T))
(let $s (S))
(let $a (A1))
(union $a (A2 $s))
(let $b (B1))
(union $b (B2 $s))
(let $root (F $a $b))
"""
SHARING_COSTS = TableCost({"F": 0, "S": 3, "A1": 3, "A2": 1, "B1": 3, "B2": 1})

# x = X1 | G(y), y = Y1 | H(x): choosing G and H together would be a cycle.
CYCLE = """
(datatype T (X1) (Y1) (G T) (H T) (F T T))
(let $x (X1))
(let $y (Y1))
(union $x (G $y))
(union $y (H $x))
(let $root (F $x $y))
"""
CYCLE_COSTS = TableCost({"F": 0, "X1": 5, "Y1": 5, "G": 1, "H": 1})


def snapshot(text: str) -> Snapshot:
    egraph = EGraph()
    egraph.run(text, "test.egg")
    return Snapshot(egraph)


def test_exact_beats_greedy_where_sharing_pays() -> None:
    snap = snapshot(SHARING)
    fast = snap.extract("$root", SHARING_COSTS, dag=True)
    exact = extract_exact(snap, "$root", SHARING_COSTS)
    assert fast.cost == 6 and str(fast.term) == "(F (A1) (B1))"
    assert exact.cost == 5 and str(exact.term) == "(F (A2 (S)) (B2 (S)))"
    assert exact.dag_cost == 5 and exact.tree_cost == 8  # S paid once in the DAG


def test_exact_terms_are_acyclic() -> None:
    snap = snapshot(CYCLE)
    exact = extract_exact(snap, "$root", CYCLE_COSTS)
    assert exact.cost == 6
    assert str(exact.term) in ("(F (X1) (H (X1)))", "(F (G (Y1)) (Y1))")


def test_too_big_graphs_are_refused_clearly() -> None:
    with pytest.raises(ExtractionError, match="at most 3 e-nodes.*--extractor fast"):
        extract_exact(snapshot(SHARING), "$root", SHARING_COSTS, node_limit=3)


@pytest.mark.parametrize("target", ["avx2", "neon"])
@pytest.mark.parametrize("name, text", suite()[:4] + suite()[5:7] + suite()[9:10],
                         ids=lambda x: x if len(x) < 40 else "")
def test_exact_is_never_worse_than_fast(target: str, name: str, text: str) -> None:
    t = load_target(target)
    fast = optimize_module(parse(text), target=t, emit="vv", extractor="fast", rounds=1)
    exact = optimize_module(parse(text), target=t, emit="vv", extractor="exact", rounds=1)
    assert exact.cost <= fast.cost * (1 + 1e-9)
