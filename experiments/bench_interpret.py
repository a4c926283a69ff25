"""Reference interpreter speed: vector<512xf32> work inside a 64-iteration scf.for (figures).

    python experiments/bench_interpret.py [--iters 64] [--repeat 5]

The loop body loads a vector<512xf32> slice, does fma / mulf / maximumf on it, stores it back
and folds it with an ordered vector.reduction <add> (the slowest kernel: a sequential float
fold). Prints the best wall time of one full run (parse excluded) and the time per executed op.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from eqsat.interpreter import Interpreter
from frontend import parse

PROGRAM = """
func.func @entry() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {iters} : index
  %m = memref.alloc() : memref<{iters}x512xf32>
  %init = arith.constant dense<0.5> : vector<512xf32>
  %two = arith.constant dense<2.0> : vector<512xf32>
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %s = %zero)
      -> (vector<512xf32>, f32) {{
    %x = vector.load %m[%i, %c0] : memref<{iters}x512xf32>, vector<512xf32>
    %y = vector.fma %acc, %two, %x : vector<512xf32>
    %z = arith.mulf %y, %init : vector<512xf32>
    %w = arith.maximumf %z, %x : vector<512xf32>
    vector.store %w, %m[%i, %c0] : memref<{iters}x512xf32>, vector<512xf32>
    %t = vector.reduction <add>, %w, %s : vector<512xf32> into f32
    scf.yield %w, %t : vector<512xf32>, f32
  }}
  vector.print %r#1 : f32
  return
}}
"""
OPS_PER_ITER = 8  # load, fma, mulf, maximumf, store, reduction, yield + the loop's own step


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    module = parse(PROGRAM.format(iters=args.iters), "<bench>")
    best = float("inf")
    out = io.StringIO()
    for _ in range(args.repeat):
        out = io.StringIO()
        t0 = time.perf_counter()
        Interpreter(module, out=out).call("entry")
        best = min(best, time.perf_counter() - t0)
    ops = args.iters * OPS_PER_ITER
    print(
        f"vector<512xf32> loop, {args.iters} iterations: best of {args.repeat} runs "
        f"{best * 1e3:.1f} ms ({best / ops * 1e6:.1f} us per executed op); "
        f"printed {out.getvalue().strip()}"
    )


if __name__ == "__main__":
    main()
