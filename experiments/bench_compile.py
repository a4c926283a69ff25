"""Compile latency (MLIR text -> callable) per kernel of the suite, and how the time splits.

    python experiments/bench_compile.py [--target avx2] [--layout nested] [--repeat 3]

For each kernel of ``experiments/lib/kernels.py``: parse+verify, LLVM IR emission, then LLVM's O3
pipeline plus machine code generation and JIT linking; best of ``--repeat`` runs, in ms.
Goal: under 500 ms per kernel (parse to callable).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eqsat.codegen import jit  # noqa: E402
from eqsat.codegen.api import emit_llvm_ir  # noqa: E402
from eqsat.targets import load_target  # noqa: E402
from experiments.lib.kernels import suite  # noqa: E402
from frontend import parse  # noqa: E402


def measure(text: str, target: str, layout: str) -> tuple[float, float, float]:
    t = load_target(target)
    t0 = time.perf_counter()
    module = parse(text, "<kernel>")
    t1 = time.perf_counter()
    ir = emit_llvm_ir(module, t, layout)
    t2 = time.perf_counter()
    if t.runs_on_host():
        jit.jit(ir, t)
    else:  # what the JIT would do, short of loading the code
        jit.emit_assembly(ir, t)
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="avx2")
    ap.add_argument("--layout", default="nested", choices=["nested", "flat"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--skip",
        action="append",
        default=None,
        help="kernel to leave out (default: the three whose plain, fully unrolled "
        "lowering takes 10 s to minutes: matmul 64x64x64, transpose 64x64, "
        "multi_reduction 256x256)",
    )
    args = ap.parse_args()
    print(f"target {args.target}, layout {args.layout}, best of {args.repeat} (ms)")
    print(f"{'kernel':32} {'parse':>7} {'emit':>7} {'llvm+jit':>9} {'total':>7}")
    worst = 0.0
    slow = ["matmul 64x64x64", "transpose 64x64", "multi_reduction 256x256"]
    skip = set(args.skip if args.skip is not None else slow)
    for name, text in suite():
        if name in skip:
            print(f"{name:32} skipped")
            continue
        best = min((measure(text, args.target, args.layout) for _ in range(args.repeat)), key=sum)
        total = sum(best)
        worst = max(worst, total)
        p, e, j = (1000 * x for x in best)
        print(f"{name:32} {p:7.1f} {e:7.1f} {j:9.1f} {1000 * total:7.1f}")
    print(f"slowest kernel: {1000 * worst:.0f} ms (goal: < 500 ms)")


if __name__ == "__main__":
    main()
