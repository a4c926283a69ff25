"""Saturation time and peak e-graph size for the kernel suite (the aim: every kernel,
the 64x64x64 contract included, within 2 s and 100k e-nodes on a 2-core machine).

    python experiments/bench_eqsat.py [--native f32=8]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.lib.kernels import suite  # noqa: E402
from frontend import parse  # noqa: E402
from eqsat.optimizer import optimize_module  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--native", default="f32=8", help="native lanes per element type")
    args = ap.parse_args()
    native = {k: int(v) for k, v in (p.split("=") for p in args.native.split(",") if p)}
    print(f"{'kernel':<30} {'saturate':>10} {'total':>9} {'peak nodes':>11}  stop reasons")
    for name, text in suite():
        module = parse(text, name)
        t0 = time.perf_counter()
        result = optimize_module(module, native=native)
        total = time.perf_counter() - t0
        sat = result.seconds["saturate"]
        peak = max(p.peak_nodes for p in result.report.phases)
        reasons = ", ".join(f"{p.name}: {p.stop}" for p in result.report.phases)
        print(f"{name:<30} {sat * 1000:>8.1f}ms {total * 1000:>7.1f}ms {peak:>11}  {reasons}")


if __name__ == "__main__":
    main()
