"""What checked mode's use-after-free probe costs: a loop of loads and stores (16.8M
iterations, three accesses each), compiled checked for avx2, with and without a
``memref.dealloc`` after it (only a module that frees gets the probe,
``eqsat/codegen/runtime_checked.py``). Medians of 7 calls after a warm-up.

    python experiments/uaf_probe_cost.py [--out FILE]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script

from eqsat.codegen.api import compile  # noqa: E402
from experiments.lib.provenance import markdown_header  # noqa: E402

SRC = """
func.func @entry(%m: memref<4096xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %z = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4096xf32>
  %s = scf.for %r = %c0 to %n step %c1 iter_args(%acc0 = %z) -> (f32) {
    %s2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (f32) {
      %x = memref.load %m[%i] : memref<4096xf32>
      memref.store %x, %t[%i] : memref<4096xf32>
      %y = memref.load %t[%i] : memref<4096xf32>
      %a = arith.addf %acc, %y : f32
      scf.yield %a : f32
    }
    scf.yield %s2 : f32
  }
  DEALLOC
  return %s : f32
}
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).parent / "results" / "checked" / "uaf_probe_cost.md")
    args = ap.parse_args(argv)
    x = np.ones(4096, np.float32)
    rows = []
    for label, dealloc in (("no dealloc (no probe)", ""),
                           ("a dealloc after the loop (probe per access)",
                            "memref.dealloc %t : memref<4096xf32>")):
        p = compile(SRC.replace("DEALLOC", dealloc), "avx2", "entry", checked=True)
        p(x)
        ts = []
        for _ in range(7):
            t0 = time.perf_counter()
            p(x)
            ts.append(time.perf_counter() - t0)
        rows.append(f"| {label} | {statistics.median(ts) * 1e3:.1f} | {min(ts) * 1e3:.1f} | "
                    f"{max(ts) * 1e3:.1f} |")
    text = "\n".join([
        "# Checked mode: the use-after-free probe's cost", "", markdown_header(),
        "A loop of 4096 x 4096 iterations, each a load, a store and a load (50M accesses).",
        "The machine is shared and loaded (see the load average): timings are noisy.", "",
        "| module | median ms | min ms | max ms |", "|---|---|---|---|", *rows,
    ]) + "\n"  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
