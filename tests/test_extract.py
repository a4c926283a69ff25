"""Extraction under run-time cost tables: choices flip with the table, literals survive, DAG
sharing is seen, and the result agrees with egglog's own extractor."""

from __future__ import annotations

import math

import pytest
from egglog import bindings

from eqsat.egraph import EGraph
from eqsat.extract import ExtractionError, Snapshot, TableCost, Term, extract
from eqsat.saturate import Phase, saturate

STRATEGIES = """
(datatype Math (Num i64) (Var String) (Add Math Math) (Mul Math Math) (Shl Math i64))
(ruleset lower)
; x * 2 == x + x
(rewrite (Mul x (Num 2)) (Add x x) :ruleset lower)
; x * 2 == x << 1
(rewrite (Mul x (Num 2)) (Shl x 1) :ruleset lower)
(let $root (Mul (Var "a") (Num 2)))
(run lower 1)
"""


def strategies() -> EGraph:
    egraph = EGraph()
    egraph.run(STRATEGIES, "strategies.egg")
    return egraph


def test_choice_flips_with_the_cost_table() -> None:
    snap = Snapshot(strategies())
    leaves = {"Num": 0.0, "Var": 0.0}
    mul_cheap = snap.extract("$root", TableCost({**leaves, "Mul": 1, "Add": 2, "Shl": 3}))
    add_cheap = snap.extract("$root", TableCost({**leaves, "Mul": 3, "Add": 1, "Shl": 2}))
    shl_cheap = snap.extract("$root", TableCost({**leaves, "Mul": 3, "Add": 2, "Shl": 1}))
    assert str(mul_cheap.term) == '(Mul (Var "a") (Num 2))'
    assert str(add_cheap.term) == '(Add (Var "a") (Var "a"))'
    assert str(shl_cheap.term) == '(Shl (Var "a") 1)'
    assert (mul_cheap.cost, add_cheap.cost, shl_cheap.cost) == (1.0, 1.0, 1.0)


def test_unlisted_ops_are_illegal() -> None:
    legal = extract(strategies(), "$root", TableCost({"Var": 0, "Shl": 5}))
    assert legal.term.op == "Shl" and legal.cost == 5.0
    nothing_legal = extract(strategies(), "$root", TableCost({"Num": 1}))
    assert nothing_legal.cost == math.inf


TILES = """
(datatype Kernel (Arg String) (Full Kernel) (Tiled i64 Kernel))
(ruleset tile)
; f(x) == f applied to each of n native tiles of x
(rewrite (Full k) (Tiled 8 k) :ruleset tile)
(let $root (Full (Arg "x")))
(run tile 1)
"""


def test_repeat_count_multiplies_the_per_tile_cost() -> None:
    egraph = EGraph()
    egraph.run(TILES, "tiles.egg")
    snap = Snapshot(egraph)
    cheap_tiles = TableCost({"Arg": 0, "Full": 100, "Tiled": 10}, repeat={"Tiled": 0})
    dear_tiles = TableCost({"Arg": 0, "Full": 100, "Tiled": 20}, repeat={"Tiled": 0})
    assert snap.extract("$root", cheap_tiles).term == Term("Tiled", (8, Term("Arg", ("x",))))
    assert snap.extract("$root", cheap_tiles).cost == 80.0
    assert snap.extract("$root", dear_tiles).term.op == "Full"


PRIMITIVES = """
(sort IVec (Vec i64))
(datatype V (Leaf i64) (Name String) (Scale f64 V) (Shape IVec V) (Flag bool V))
(let $root (Flag true (Shape (vec-of 4 8) (Scale 0.5 (Name "x")))))
"""


def test_primitives_become_python_literals() -> None:
    egraph = EGraph()
    egraph.run(PRIMITIVES, "prims.egg")
    result = extract(egraph, "$root", TableCost({}, default=1.0))
    term = result.term
    name = Term("Name", ("x",))
    assert term == Term("Flag", (True, Term("Shape", ((4, 8), Term("Scale", (0.5, name))))))
    assert term.literals == (True,) and term.children[0].literals == ((4, 8),)
    assert str(term) == '(Flag true (Shape (vec-of 4 8) (Scale 0.5 (Name "x"))))'
    assert result.cost == 4.0  # literals cost nothing by themselves


def test_cost_function_sees_literals() -> None:
    egraph = EGraph()
    egraph.run(PRIMITIVES, "prims.egg")
    seen: list[tuple[str, tuple]] = []

    def cost(op: str, literals: tuple, child_costs: tuple[float, ...]) -> float:
        seen.append((op, literals))
        return 1.0 + sum(child_costs)

    extract(egraph, "$root", cost)
    assert ("Shape", ((4, 8),)) in seen and ("Name", ("x",)) in seen


def test_nested_containers_decode() -> None:
    egraph = EGraph()
    egraph.run(
        "(sort IVec (Vec i64))\n(sort Maps (Vec IVec))\n(datatype C (Contract Maps))\n"
        "(let $root (Contract (vec-of (vec-of 0 2) (vec-of 2 1))))\n"
    )
    term = extract(egraph, "$root", TableCost({"Contract": 1})).term
    assert term == Term("Contract", (((0, 2), (2, 1)),))


def test_vec_of_eclasses_are_children() -> None:
    egraph = EGraph()
    egraph.run(
        "(datatype* (Math (Num i64) (Sum MVec)) (sort MVec (Vec Math)))\n"
        "(let $root (Sum (vec-of (Num 1) (Num 2) (Num 3))))\n"
    )
    result = extract(egraph, "$root", TableCost({"Num": 1, "Sum": 10}))
    assert result.term == Term("Sum", ((Term("Num", (1,)), Term("Num", (2,)), Term("Num", (3,))),))
    assert len(result.term.children) == 3
    assert result.cost == 13.0


SHARING = """
(datatype T (Big) (Mid) (Pair T T) (Single T))
(let $root (Pair (Big) (Big)))
(union $root (Single (Mid)))
"""


def test_dag_extraction_pays_shared_terms_once() -> None:
    egraph = EGraph()
    egraph.run(SHARING, "sharing.egg")
    table = TableCost({"Big": 10, "Mid": 15, "Pair": 1, "Single": 1})
    tree = extract(egraph, "$root", table)
    dag = extract(egraph, "$root", table, dag=True)
    assert tree.term.op == "Single" and tree.cost == tree.tree_cost == 16.0
    assert dag.term.op == "Pair" and dag.cost == dag.dag_cost == 11.0
    assert dag.tree_cost == 21.0 and dag.classes == 2


def test_agrees_with_egglog_extractor_after_saturation() -> None:
    egraph = EGraph()
    egraph.run(
        "(datatype Math (Num i64) (Var String) (Add Math Math) (Mul Math Math))\n"
        "(ruleset ac)\n"
        "(rewrite (Add a b) (Add b a) :ruleset ac)\n"
        "(rewrite (Mul a (Add b c)) (Add (Mul a b) (Mul a c)) :ruleset ac)\n"
        "(rewrite (Add (Mul a b) (Mul a c)) (Mul a (Add b c)) :ruleset ac)\n"
        '(let $root (Add (Mul (Var "x") (Var "y")) (Mul (Var "x") (Add (Var "z") (Num 1)))))\n'
    )
    saturate(egraph, Phase("ac", ("ac",), max_iterations=6))
    costs = {"Num": 1.0, "Var": 1.0, "Add": 2.0, "Mul": 5.0}
    ours = extract(egraph, "$root", TableCost(costs))
    sort, root = egraph.eval("$root")
    model = bindings.CostModel(
        lambda _op, own, kids: own + sum(kids),
        lambda op, _args: costs[op],
        lambda _sort, _value, elems: sum(elems),
        lambda _sort, _value: 0.0,
    )
    theirs, _ = bindings.Extractor([sort], egraph.raw, model).extract_best(
        egraph.raw, bindings.TermDag(), root, sort
    )
    assert ours.cost == theirs == 13.0  # x * (y + (z + 1))
    assert str(ours.term).count("Mul") == 1


def test_deep_terms_do_not_recurse() -> None:
    egraph = EGraph()
    term = "(Num 0)"
    for _ in range(3000):
        term = f"(Neg {term})"
    egraph.run(f"(datatype Math (Num i64) (Neg Math))\n(let $root {term})")
    result = extract(egraph, "$root", TableCost({"Num": 1, "Neg": 1}))
    assert result.cost == 3001.0 and str(result.term).count("Neg") == 3000


def test_root_as_value_and_missing_root() -> None:
    egraph = strategies()
    sort, value = egraph.eval("$root")
    table = TableCost({"Num": 0, "Var": 0, "Mul": 1})
    assert extract(egraph, (sort, value), table).term.op == "Mul"
    snap = Snapshot(egraph)
    egraph.run('(let $new (Var "unseen"))')  # added after the snapshot was taken
    with pytest.raises(ExtractionError):
        snap.extract("$new", table)


def test_an_extraction_error_names_its_function(monkeypatch: pytest.MonkeyPatch) -> None:
    """`eqsat opt` prints the error: it says which function of the file has no program."""
    import eqsat.optimizer as opt
    from eqsat.targets import load_target
    from frontend import parse

    text = """func.func @first(%a: vector<4xf32>) -> vector<4xf32> {
  return %a : vector<4xf32>
}
func.func @second(%a: vector<4xf32>) -> vector<4xf32> {
  %b = arith.addf %a, %a : vector<4xf32>
  return %b : vector<4xf32>
}"""
    calls = []

    def fail_on_second(snap, root, *rest):  # type: ignore[no-untyped-def]
        calls.append(root)
        if len(calls) > 1:
            raise ExtractionError(f"root {root!r} has no finite term (only cycles)")
        return real(snap, root, *rest)

    real = opt._extract_root
    monkeypatch.setattr(opt, "_extract_root", fail_on_second)
    with pytest.raises(ExtractionError, match=r"^@second \(f\.mlir:4:1\): root .* no finite term"):
        opt.optimize_module(parse(text, "f.mlir"), target=load_target("avx2"))


def test_a_settled_set_is_the_capped_set_with_the_class_last() -> None:
    """``_settled`` (sets trimmed in place) gives what ``_capped`` of the set with the class's
    own entry added gives, in the same order: the extraction's choices depend on that order."""
    from eqsat.extract import DAG_SET_CAP, _capped, _settled

    for size in (0, 5, DAG_SET_CAP - 1, DAG_SET_CAP, DAG_SET_CAP + 31, DAG_SET_CAP + 40, 600):
        below = {(i * 7919) % 1000: float(i) for i in range(size)}
        keys = list(below)
        # a new class, and (where there are some) the oldest class and one in the middle
        for cls in (-1, *keys[:1], *keys[size // 2 : size // 2 + 1]):
            want = dict(below)
            want[cls] = 0.5
            want = _capped(want)
            got = _settled(dict(below), cls, 0.5)
            assert list(got.items()) == list(want.items()), (size, cls)
            assert len(got) <= DAG_SET_CAP
