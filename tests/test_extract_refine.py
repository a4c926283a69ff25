"""The register-pressure refinement's shortcut: ``_dag_lower_bound`` never exceeds the exact
DAG cost of a choice (so a trial it drops could not have won), and on tiled programs it is
that cost; with the kernel sets kept across trials, it is the same bound."""

from __future__ import annotations

from types import SimpleNamespace

from eqsat.extract import postorder
from eqsat.extract_refine import KernelSets, _acyclic, _dag_lower_bound, acyclic_postorder
from eqsat.optimizer import optimize_module
from eqsat.targets import load_target
from experiments.lib.scaling_programs import straight_line
from frontend import parse


def test_lower_bound_is_below_the_exact_dag_cost() -> None:
    module = parse(straight_line(800), "<straight 800>")
    res = optimize_module(module, target=load_target("avx2"), emit="hwv", rounds=1)
    snap, cost = res.snapshot, res.cost_model
    assert snap is not None and cost is not None
    every: dict[int, int] = {}
    greedy = snap.extract(res.roots[0], cost, dag=True, every=every)
    root = snap.root(res.roots[0])
    assert any(snap.ops[n] == "Tiled" for n in greedy.choice.values())  # kernels to bound

    def exact(choice: dict[int, int]) -> float:
        return snap._dag_cost(root, postorder(snap, root, choice), choice, cost, None)

    assert _dag_lower_bound(snap, root, greedy.choice, cost) == exact(greedy.choice)  # to the bit
    current = every | greedy.choice
    kernels = KernelSets(snap, cost)  # the memo the refinement keeps across its trials
    tried = 0
    for cls in list(greedy.choice)[::40]:
        for node in snap.members[cls]:
            trial = dict(current)
            trial[cls] = node
            if node == current[cls] or not _acyclic(snap, root, trial):
                continue
            assert acyclic_postorder(snap, root, trial) == postorder(snap, root, trial)
            lower = _dag_lower_bound(snap, root, trial, cost)
            assert lower is not None
            assert lower <= exact(trial)
            assert _dag_lower_bound(snap, root, trial, cost, kernels.changing(cls)) == lower
            tried += 1
    assert tried > 10


def test_acyclic_postorder_finds_cycles_and_missing_choices() -> None:
    # node n is chosen for class n; its kids are e-classes
    diamond = SimpleNamespace(kids=[(1, 2), (3,), (3,), ()])
    choice = {0: 0, 1: 1, 2: 2, 3: 3}
    assert acyclic_postorder(diamond, 0, choice) == postorder(diamond, 0, choice) == [3, 2, 1, 0]
    looped = SimpleNamespace(kids=[(1, 2), (3,), (3,), (1,)])  # 1 -> 3 -> 1
    assert acyclic_postorder(looped, 0, choice) is None
    assert acyclic_postorder(SimpleNamespace(kids=[(0,)]), 0, {0: 0}) is None  # a self-loop
    assert acyclic_postorder(diamond, 0, {0: 0, 1: 1, 3: 3}) is None  # class 2 has no choice
