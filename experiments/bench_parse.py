"""Frontend throughput: ops per second for parse, parse+verify and print.

Generates a module of about 100k ops (functions of vector/arith code in the mix the seeds use:
elementwise arithmetic, broadcasts, transposes, extracts/inserts, shape casts, contractions,
reductions, transfers, loads/stores, shuffles, masks), then times each stage (best of
``--repeat`` runs). ``--profile`` prints the top functions of a cProfile run of parse+verify.

    python experiments/bench_parse.py [--ops 100000] [--repeat 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frontend import parse, parse_module, print_module

HEADER = """#matmul = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
                           affine_map<(i, j, k) -> (i, j)>],
           iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
"""
SIG = (
    "%m: memref<?x?xf32>, %x: vector<4x8xf32>, %y: vector<8x4xf32>, %v: vector<8xf32>, "
    "%i: index, %s: f32"
)


def _function(rng: random.Random, k: int, body_ops: int) -> list[str]:
    """One function of ``body_ops`` ops (plus its return); every value stays live and typed."""
    lines = [f"func.func @kernel{k}({SIG}) -> vector<8xf32> {{"]
    vecs, mats, n = ["%v"], ["%x"], 0

    def emit(text: str) -> str:
        nonlocal n
        name = f"%t{n}"
        n += 1
        lines.append(f"  {name} = {text}")
        return name

    pad = emit("arith.constant 0.0 : f32")
    c0 = emit("arith.constant 0 : index")
    while n < body_ops - 1:
        a, b = rng.choice(vecs), rng.choice(vecs)
        x = rng.choice(mats)
        choice = rng.randrange(16)
        if choice < 4:
            op = rng.choice(["addf", "mulf", "subf", "maximumf"])
            vecs.append(emit(f"arith.{op} {a}, {b} : vector<8xf32>"))
        elif choice == 4:
            vecs.append(emit(f"vector.fma {a}, {b}, {a} : vector<8xf32>"))
        elif choice == 5:
            mats.append(emit(f"vector.broadcast {a} : vector<8xf32> to vector<4x8xf32>"))
        elif choice == 6:
            t = emit(f"vector.transpose {x}, [1, 0] : vector<4x8xf32> to vector<8x4xf32>")
            mats.append(emit(f"vector.transpose {t}, [1, 0] : vector<8x4xf32> to vector<4x8xf32>"))
        elif choice == 7:
            vecs.append(
                emit(f"vector.extract {x}[{rng.randrange(4)}] : vector<8xf32> from vector<4x8xf32>")
            )
        elif choice == 8:
            mats.append(
                emit(
                    f"vector.insert {a}, {x} [{rng.randrange(4)}] : vector<8xf32> into "
                    "vector<4x8xf32>"
                )
            )
        elif choice == 9:
            f = emit(f"vector.shape_cast {x} : vector<4x8xf32> to vector<32xf32>")
            vecs.append(
                emit(
                    f"vector.extract_strided_slice {f} {{offsets = [8], sizes = [8], "
                    "strides = [1]} : vector<32xf32> to vector<8xf32>"
                )
            )
        elif choice == 10:
            c = emit("arith.constant dense<0.0> : vector<4x4xf32>")
            emit(
                f"vector.contract #matmul {x}, %y, {c} : vector<4x8xf32>, vector<8x4xf32> "
                "into vector<4x4xf32>"
            )
        elif choice == 11:
            r = emit(f"vector.reduction <add>, {a} : vector<8xf32> into f32")
            vecs.append(emit(f"vector.broadcast {r} : f32 to vector<8xf32>"))
        elif choice == 12:
            vecs.append(
                emit(
                    f"vector.transfer_read %m[%i, {c0}], {pad} {{in_bounds = [true]}} : "
                    "memref<?x?xf32>, vector<8xf32>"
                )
            )
        elif choice == 13:
            lines.append(f"  vector.store {a}, %m[%i, {c0}] : memref<?x?xf32>, vector<8xf32>")
            n += 1
        elif choice == 14:
            vecs.append(
                emit(
                    f"vector.shuffle {a}, {b} [0, 9, 2, 11, 4, 13, 6, 15] : "
                    "vector<8xf32>, vector<8xf32>"
                )
            )
        else:
            cmp = emit(f"arith.cmpf olt, {a}, {b} : vector<8xf32>")
            vecs.append(emit(f"arith.select {cmp}, {a}, {b} : vector<8xi1>, vector<8xf32>"))
    lines.append(f"  return {vecs[-1]} : vector<8xf32>")
    lines.append("}")
    return lines


def generate(ops: int, per_function: int = 200, seed: int = 0) -> str:
    rng = random.Random(seed)
    lines = [HEADER]
    for k in range(max(1, ops // (per_function + 1))):
        lines += _function(rng, k, per_function)
    return "\n".join(lines) + "\n"


def _best(repeat: int, fn, *args):
    """Best CPU time of ``repeat`` runs (CPU, not wall, time: other processes share the box)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        result = None
        gc.collect()  # free the previous run's IR outside the timed region
        start = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - start)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="cProfile parse+verify")
    args = ap.parse_args()
    text = generate(args.ops)
    module = parse(text)
    count = sum(1 for _ in module.walk())
    print(f"{count} ops, {len(text) / 1e6:.1f} MB of text")
    for stage, fn, arg in (
        ("parse", parse_module, text),
        ("parse+verify", parse, text),
        ("print", print_module, module),
    ):
        seconds, _ = _best(args.repeat, fn, arg)
        print(f"{stage:>13}: {seconds:6.3f} s  {count / seconds:10,.0f} ops/s")
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(parse, text)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
