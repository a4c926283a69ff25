"""Budgets hold: with small node, iteration and time budgets the optimizer stops near its
limits and still returns a correct program. Prints figures; asserts nothing about time.

    python experiments/budgets.py [--seconds 0.01,0.05,0.2] [--trials 3]

For the largest kernel of ``experiments/lib/kernels.py`` (and for every kernel of the suite in
one module, a larger e-graph still), unrolled to AVX2's widths with every strategy rule on:
per time budget, each phase's time and its overshoot past the budget (the limit is checked
between iterations, so one iteration's length is the granularity), the stop reasons, the
whole ``optimize_module`` time, whether the interpreter agrees with the original on random
inputs, and the process's peak RSS (``resource.getrusage``). Then the node and iteration
budgets, the same way.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script

from eqsat.interpreter import Interpreter  # noqa: E402
from eqsat.optimizer import Budget, optimize_module  # noqa: E402
from eqsat.special_values import draw, same_bits  # noqa: E402
from experiments.lib.kernels import suite  # noqa: E402
from frontend import parse  # noqa: E402
from frontend.ir import Module  # noqa: E402
from frontend.types import MemRefType, Type, VectorType, elem_code  # noqa: E402

NATIVE = {"f32": 8, "f64": 4, "i32": 8}


def _inputs(types: list[Type], seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    out: list[Any] = []
    for t in types:
        if isinstance(t, (VectorType, MemRefType)):
            out.append(draw(elem_code(t.element), tuple(t.shape), rng, 0))
        else:  # index arguments of the transfer kernel: positions that stay in bounds
            out.append(np.int64(rng.integers(0, 56)))
    return out


def agrees(original: Module, optimized: Module, seed: int = 0) -> bool:
    """Every function gives the same bits (results and memory) before and after."""
    for name, func in original.functions().items():
        types = list(func.attributes["function_type"].type.inputs)
        args = _inputs(types, seed)
        a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        b = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        ra = Interpreter(original).call(name, *a)
        rb = Interpreter(optimized).call(name, *b)
        if not same_bits(ra, rb) or not all(same_bits(x, y) for x, y in zip(a, b)):
            return False
    return True


def largest_kernel() -> tuple[str, str]:
    """The kernel whose default optimization builds the most e-nodes."""
    best = ("", "", -1)
    for name, text in suite():
        nodes = optimize_module(parse(text), native=NATIVE).report.phases[-1].peak_nodes
        if nodes > best[2]:
            best = (name, text, nodes)
    return best[0], best[1]


def all_kernels() -> str:
    """Every kernel in one module (each attribute alias renamed apart)."""
    return "\n".join(
        text.replace("#mm", f"#mm{i}").replace("func.func @", f"func.func @k{i}_")
        for i, (_, text) in enumerate(suite())
    )


def stress(groups: int) -> str:
    """A long chain over 8x8 f32 values in which every strategy and unrolling rule applies
    many times: transposes of sums, contractions, reductions broadcast back."""
    mm = (
        "{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
        'affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", '
        '"reduction"]}'
    )
    t = "vector<8x8xf32>"
    lines = [f"func.func @stress(%x0: {t}, %b: {t}, %r: vector<8xf32>) -> {t} {{"]
    for g in range(groups):
        x = f"%x{g}"
        lines += [
            f"  %t{g} = vector.transpose {x}, [1, 0] : {t} to {t}",
            f"  %s{g} = arith.addf %t{g}, %b : {t}",
            f"  %c{g} = vector.contract {mm} %s{g}, {x}, %b : {t}, {t} into {t}",
            f"  %m{g} = vector.multi_reduction <add>, %c{g}, %r [1] : {t} to vector<8xf32>",
            f"  %w{g} = vector.broadcast %m{g} : vector<8xf32> to {t}",
            f"  %x{g + 1} = arith.mulf %w{g}, %t{g} : {t}",
        ]
    lines += [f"  return %x{groups} : {t}", "}"]
    return "\n".join(lines) + "\n"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(label: str, text: str, budget: Budget, trials: int) -> None:
    module = parse(text)
    for _ in range(trials):
        t0 = time.perf_counter()
        result = optimize_module(module, budget=budget, native=NATIVE)
        wall = time.perf_counter() - t0
        phases = ", ".join(
            f"{p.name} {p.seconds * 1e3:.1f} ms {p.stop} {p.num_iterations} it "
            f"{p.peak_nodes} nodes"
            + (f" (+{(p.seconds / budget.seconds - 1) * 100:.0f}% past the time budget)"
               if p.seconds > budget.seconds else "")
            for p in result.report.phases
        )
        print(f"  {label:<44} opt {wall * 1e3:7.1f} ms; {phases}; "
              f"correct={agrees(module, result.module)}; peak RSS {peak_rss_mb():.0f} MB")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", default="0.01,0.05,0.1,0.2,0.5",
                    help="time budgets per phase, comma-separated")
    ap.add_argument("--trials", type=int, default=3)
    args = ap.parse_args(argv)
    name, text = largest_kernel()
    print(f"largest kernel: {name}; all kernels in one module: {len(suite())} functions")
    print(f"peak RSS before: {peak_rss_mb():.0f} MB")
    for label, source in ((name, text), ("all kernels", all_kernels()),
                          ("stress, 2400 ops", stress(400))):
        for s in (float(x) for x in args.seconds.split(",")):
            measure(f"{label}, {s * 1e3:g} ms/phase", source,
                    Budget(iterations=1000, nodes=10_000_000, seconds=s), args.trials)
        for nodes in (1, 50, 200):
            measure(f"{label}, {nodes} nodes/phase", source,
                    Budget(iterations=1000, nodes=nodes, seconds=60), 1)
        for it in (1, 2, 3):
            measure(f"{label}, {it} iterations/phase", source,
                    Budget(iterations=it, nodes=10_000_000, seconds=60), 1)
    print(f"peak RSS after: {peak_rss_mb():.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
