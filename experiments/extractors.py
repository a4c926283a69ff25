"""Fast (greedy DAG) vs exact (ILP) extraction on every kernel of the suite, for every target.

    python experiments/extractors.py            # from the project root
    python experiments/extractors.py --corpus   # also every program of tests/programs

Prints, per kernel and target: reachable e-nodes, the DAG cost each extractor finds, the gap
of the fast one (percent above exact), and the extraction times (snapshot excluded; shown
apart). The aim: fast within 5% of exact, and the largest graph extracted in under 1 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eqsat.extract import Snapshot, _reachable  # noqa: E402
from eqsat.extract_exact import extract_exact  # noqa: E402
from eqsat.optimizer import optimize_module  # noqa: E402
from eqsat.targets import builtin_targets, load_target  # noqa: E402
from experiments.lib.kernels import suite  # noqa: E402
from frontend import parse  # noqa: E402


def measure(text: str, target: str) -> dict[str, float]:
    t = load_target(target)
    result = optimize_module(parse(text), target=t, emit="vv")
    eg, cost = result.egraph, result.cost_model
    assert eg is not None and cost is not None and result.encoder is not None
    t0 = time.perf_counter()
    snap = Snapshot(eg)
    t1 = time.perf_counter()
    fast = exact = 0.0
    nodes = 0
    fast_s = exact_s = 0.0
    for b in result.encoder.blocks:
        nodes += len(_reachable(snap, snap.root(b.root)))
        a = time.perf_counter()
        fast += snap.extract(b.root, cost, dag=True).cost
        m = time.perf_counter()
        exact += extract_exact(snap, b.root, cost).cost
        z = time.perf_counter()
        fast_s += m - a
        exact_s += z - m
    return {
        "nodes": nodes,
        "fast": fast,
        "exact": exact,
        "snapshot_s": t1 - t0,
        "fast_s": fast_s,
        "exact_s": exact_s,
    }


def cases(corpus: bool) -> list[tuple[str, str]]:
    out = suite()
    if corpus:
        from pathlib import Path

        programs = Path(__file__).parent.parent / "tests" / "programs"
        out += [(p.stem[:28], p.read_text()) for p in sorted(programs.glob("*.mlir"))]
    return out


def main(argv: list[str] | None = None) -> None:
    import sys

    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="store_true", help="also every program of tests/programs")
    corpus = ap.parse_args(argv).corpus
    header = (
        f"{'kernel':<28} {'target':<10} {'e-nodes':>7} {'fast cost':>14} {'exact cost':>14} "
        f"{'gap %':>6} {'snap ms':>8} {'fast ms':>8} {'exact ms':>9}"
    )
    print(header)
    print("-" * len(header))
    worst, largest = 0.0, (0, "", 0.0)
    for name, text in cases(corpus):
        for target in builtin_targets():
            m = measure(text, target)
            gap = 100.0 * (m["fast"] - m["exact"]) / m["exact"] if m["exact"] else 0.0
            worst = max(worst, gap)
            if m["nodes"] > largest[0]:
                largest = (int(m["nodes"]), f"{name} / {target}", m["snapshot_s"] + m["fast_s"])
            print(
                f"{name:<28} {target:<10} {m['nodes']:>7} {m['fast']:>14.6g} {m['exact']:>14.6g} "
                f"{gap:>6.2f} {m['snapshot_s'] * 1e3:>8.2f} {m['fast_s'] * 1e3:>8.2f} "
                f"{m['exact_s'] * 1e3:>9.2f}"
            )
    print(f"\nworst gap of fast over exact: {worst:.2f}%")
    print(
        f"largest graph: {largest[1]}, {largest[0]} e-nodes reachable, snapshot + fast "
        f"extraction {largest[2] * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
