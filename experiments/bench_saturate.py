"""Step overhead and extraction time on a synthetic graph (figures, not assertions).

    python experiments/bench_saturate.py [--nodes 50000]

Builds ((x0 + 1) * x1 + 2) * x2 ... and saturates it with commutativity, associativity and
distributivity under a node limit (the explosive case), then extracts with
our extractor (tree and greedy DAG) and with egglog's raw ``bindings.Extractor`` and
``greedy-dag`` for comparison.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from egglog import bindings

from eqsat.egraph import EGraph
from eqsat.extract import Snapshot, TableCost
from eqsat.saturate import Phase, saturate

RULES = """
(datatype Math (Num i64) (Var String) (Add Math Math) (Mul Math Math))
(ruleset ac)
(rewrite (Add a b) (Add b a) :ruleset ac :name "add-comm")
(rewrite (Mul a b) (Mul b a) :ruleset ac :name "mul-comm")
(rewrite (Add a (Add b c)) (Add (Add a b) c) :ruleset ac :name "add-assoc")
(rewrite (Mul a (Mul b c)) (Mul (Mul a b) c) :ruleset ac :name "mul-assoc")
(rewrite (Mul a (Add b c)) (Add (Mul a b) (Mul a c)) :ruleset ac :name "distrib")
"""
COSTS = {"Num": 1.0, "Var": 1.0, "Add": 1.0, "Mul": 3.0}


def chain(n: int) -> str:
    term = '(Var "x0")'
    for i in range(1, n):
        term = f'(Mul (Add {term} (Num {i})) (Var "x{i}"))'
    return term


def per_call(fn, repeat: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def bench_steps() -> None:
    egraph = EGraph()
    egraph.run(RULES + f"(let $root {chain(3)})")
    saturate(egraph, Phase("warm", ("ac",)))
    egraph.run("(let-scheduler bench-bo (back-off :match-limit 1000 :ban-length 5))")
    print(f"step overhead on a saturated {egraph.num_nodes()}-node graph:")
    step = "(run-schedule (run-with bench-bo ac))"
    print(f"  back-off step (text)       {per_call(lambda: egraph.run(step), 2000) * 1e6:7.1f} us")
    plain = "(run ac 1)"
    print(f"  plain (run ac 1)           {per_call(lambda: egraph.run(plain), 2000) * 1e6:7.1f} us")
    print(f"  num_nodes (print-size)     {per_call(egraph.num_nodes, 2000) * 1e6:7.1f} us")
    size_obj = bindings.PrintSize(bindings.PanicSpan(), None)
    t = per_call(lambda: egraph.raw.run_program(size_obj), 2000)
    print(f"  PrintSize as an object     {t * 1e6:7.1f} us")


def bench_big(nodes: int) -> None:
    egraph = EGraph()
    egraph.run(RULES + f"(let $root {chain(8)})")
    phase = Phase("explode", ("ac",), node_limit=nodes, match_limit=1000, ban_length=2)
    report = saturate(egraph, phase, count_classes=False)
    print()
    print(report.format())
    steps = [it.seconds for it in report.phases[0].iterations]
    print(f"  slowest step {max(steps) * 1e3:.1f} ms, mean {sum(steps) / len(steps) * 1e3:.1f} ms")
    start = time.perf_counter()
    classes = egraph.num_classes()
    print(
        f"  num_classes (freeze) {classes} e-classes in {(time.perf_counter() - start) * 1e3:.1f} ms"
    )

    print(f"\nextraction from {egraph.num_nodes()} e-nodes:")
    table = TableCost(COSTS)
    start = time.perf_counter()
    snap = Snapshot(egraph)
    t_snap = time.perf_counter() - start
    start = time.perf_counter()
    tree = snap.extract("$root", table)
    t_tree = time.perf_counter() - start
    start = time.perf_counter()
    dag = snap.extract("$root", table, dag=True)
    t_dag = time.perf_counter() - start
    print(f"  snapshot (freeze + read)   {t_snap * 1e3:7.1f} ms   {len(snap)} nodes")
    print(f"  ours, tree                 {t_tree * 1e3:7.1f} ms   cost {tree.cost}")
    print(f"  ours, greedy DAG           {t_dag * 1e3:7.1f} ms   cost {dag.cost}")
    start = time.perf_counter()
    snap.extract("$root", TableCost({**COSTS, "Mul": 0.5}))
    t = time.perf_counter() - start
    print(f"  ours, tree, another table  {t * 1e3:7.1f} ms   (same snapshot)")

    sort, root = egraph.eval("$root")
    model = bindings.CostModel(
        lambda _op, own, kids: own + sum(kids),
        lambda op, _args: COSTS[op],
        lambda _sort, _value, elems: sum(elems),
        lambda _sort, _value: 0.0,
    )
    start = time.perf_counter()
    extractor = bindings.Extractor([sort], egraph.raw, model)
    cost, _ = extractor.extract_best(egraph.raw, bindings.TermDag(), root, sort)
    print(
        f"  egglog Extractor, tree     {(time.perf_counter() - start) * 1e3:7.1f} ms   cost {cost}"
    )
    dag_model = bindings.DagCostModel(
        0.0, lambda op, _args: COSTS[op], lambda _s, _v: 0.0, lambda _s, _v: 0.0
    )
    start = time.perf_counter()
    _, found = bindings.extract_best_with_dag_cost_model(
        egraph.raw, [(sort, root)], dag_model, extractor="greedy-dag"
    )
    t = time.perf_counter() - start
    print(f"  egglog greedy-dag          {t * 1e3:7.1f} ms   cost {found[0][0]}")
    start = time.perf_counter()
    egraph.raw.serialize([]).to_json()
    print(f"  egglog serialize + to_json {(time.perf_counter() - start) * 1e3:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=50_000, help="node limit of the big graph")
    args = parser.parse_args()
    bench_steps()
    bench_big(args.nodes)


if __name__ == "__main__":
    main()
