"""A GEMM without the slow rows: ``python experiments/kernels_e2e/quick_gemm.py N
[--fp-contract] [--runs R]``.

For sizes where ``run.py`` is too slow on a loaded machine (its interpreter oracle and MLIR's
default lowering of a 256^3 GEMM take many minutes there): times ``gemm_N.mlir`` with the
benchmark's own machinery (``eqsat.bench.run.measure``: child processes, 2 placements, median
of 5 samples of 20 ms of thread CPU time) for eqsat and for MLIR 22's outerproduct, llvmintr
and parallelarith strategies on the file after eqsat's loop passes (packing B's panel,
hoisting, unrolling the innermost loop by 4: ``eqsat.optimizer.loop_level``; rows "hoisted
input"); checks every output
against a float64 ``C + A @ B`` instead of the interpreter (relative error reported); and
times numpy with one OpenBLAS thread (``eqsat.bench.numpy_baseline``). ``--runs R`` repeats
the whole measurement R times in a row (on a shared machine the load changes from one minute
to the next): each row's time is the median of the runs' medians (``runs_ns``: each run's),
its spread the extremes of every run's placements, the clock the runs' median. Writes
``experiments/results/kernels_e2e_gemm_N_quick.json`` with provenance.

``--fp-contract``: eqsat optimizes and compiles in fp-contract mode (the contraction fuses each
multiply-add, MLIR's outerproduct bits); each row also says whether its output is bit for bit
eqsat's (whose code computes the interpreter's bits in that mode: tests/test_fp_contract.py).
Writes ``kernels_e2e_gemm_N_quick_fp_contract.json``. The rows ``eqsat-no-unroll`` and
``eqsat-no-pack`` are eqsat without its loop unrolling (``optimize_module(unroll=1)``) and
without packing (``optimize_module(pack=False)``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from eqsat.bench.harness import make_inputs, signature  # noqa: E402
from eqsat.bench.mlir_baseline import single_variants  # noqa: E402
from eqsat.bench.numpy_baseline import time_numpy  # noqa: E402
from eqsat.bench.run import FMA_UNITS, cpu_clock_ghz, default_variants, measure, mlir_variant  # noqa: E402
from eqsat.bench.variants import Variant  # noqa: E402
from eqsat.optimizer import loop_level  # noqa: E402
from eqsat.targets import Target, load_target  # noqa: E402
from experiments.lib import provenance  # noqa: E402
from frontend import Module, parse  # noqa: E402
from frontend.printer import print_module  # noqa: E402

MLIR_ROWS = ("mlir-contract-outerproduct", "mlir-contract-llvmintr", "mlir-contract-parallelarith")


def _without(module: Module, target: Target, fused: bool, **off: Any) -> str:
    """eqsat's row without one of its loop passes (``optimize_module(unroll=1)``,
    ``optimize_module(pack=False)``): what that pass gives."""
    from eqsat.codegen import emit_llvm_ir
    from eqsat.optimizer import optimize_module

    result = optimize_module(module, target=target, emit="hwv", fp_contract=fused, **off)
    return emit_llvm_ir(result.module, target, fp_contract=fused)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="quick_gemm.py", description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int, help="the size N of a gemm_N.mlir of experiments/kernels_e2e")
    ap.add_argument("--fp-contract", action="store_true", help="fp-contract mode")
    ap.add_argument("--runs", type=int, default=1, help="whole measurements in a row (default 1)")
    ap.add_argument("--out", type=Path, help="the results file (default: experiments/results/"
                    "kernels_e2e_gemm_N_quick[_fp_contract].json)")  # fmt: skip
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    n, fused = args.n, args.fp_contract
    path = Path(__file__).parent / f"gemm_{n}.mlir"
    if not path.exists():
        print(f"quick_gemm.py: error: no {path.name} (gen_kernels.py writes them)", file=sys.stderr)
        return 2
    if args.runs < 1:
        print("quick_gemm.py: error: --runs must be at least 1", file=sys.stderr)
        return 2
    prov = provenance.record(["experiments/kernels_e2e/quick_gemm.py",
                              *(sys.argv[1:] if argv is None else argv)])  # fmt: skip
    target = load_target("avx2")
    text = path.read_text()
    module = parse(text, str(path))
    sig = signature(module, "gemm")
    inputs = make_inputs(sig, {}, 0)
    variants = default_variants(text, module, target, ("",), None, fp_contract=fused)
    variants.append(Variant("eqsat-no-unroll", lambda: _without(module, target, fused, unroll=1)))
    variants.append(Variant("eqsat-no-pack", lambda: _without(module, target, fused, pack=False)))
    hoisted_text = print_module(loop_level(module))  # eqsat's packing, hoisting, unrolling
    variants += [mlir_variant(hoisted_text, v, "") for v in single_variants("")
                 if v.name in MLIR_ROWS]  # fmt: skip
    runs, clocks, numpys = [], [], []
    for _ in range(args.runs):  # each run: fresh children for every row, then numpy
        runs.append(measure(variants, sig, inputs, target, 5, 0.02, placements=2))
        clock = cpu_clock_ghz()
        clocks.append(clock[0] if clock else None)
        numpys.append(time_numpy("gemm", {"m": n, "n": n, "k": n}, repeats=7))
    a, b, c = (np.asarray(x, dtype=np.float64) for x in inputs)
    ref = c + a @ b
    ghz = statistics.median(clocks) if None not in clocks else None
    flops = 2 * n**3
    peak = FMA_UNITS * 8 * 2 * ghz if ghz else None
    table = []
    rows, outputs, _ = runs[0]
    ours = outputs.get("eqsat")
    for i, r in enumerate(rows):
        out = outputs.get(r.variant)
        err = float(np.max(np.abs(out[-1] - ref)) / np.max(np.abs(ref))) if out else None
        same = (bool(np.array_equal(out[-1].view(np.uint32), ours[-1].view(np.uint32)))
                if out and ours else None)  # fmt: skip
        per_run = [run[0][i].ns_per_call for run in runs]
        spreads = [x for run in runs if run[0][i].spread for x in run[0][i].spread]
        ns = statistics.median(per_run) if None not in per_run else None
        table.append({
            "variant": r.variant + (" (hoisted input)" if r.variant.startswith("mlir") else ""),
            "ns": ns, "runs_ns": per_run,
            "spread": [min(spreads), max(spreads)] if spreads else None,
            "max_rel_err_vs_f64": err, "bits_equal_eqsat": same, "note": r.note,
            "share_of_fma_peak": flops / ns / peak if peak and ns else None,
        })  # fmt: skip
    mine = table[0]["ns"]
    npt = statistics.median(t.ns for t in numpys)
    res = {
        "provenance": prov, "n": n, "fp_contract": fused, "flops": flops, "runs": args.runs,
        "clock_ghz": ghz, "clock_runs_ghz": clocks,
        "clock_how": "measured: dependent-add chain, 1 cycle per add; median of the runs",
        "load_average_after": list(os.getloadavg()),
        "peak_gflops": peak,
        "rows": table,
        "numpy_ns": npt, "numpy_runs_ns": [t.ns for t in numpys],
        "numpy_min_ns": min(t.min_ns for t in numpys),
        "numpy_max_ns": max(t.max_ns for t in numpys),
        "numpy_core": numpys[0].core, "openblas": numpys[0].openblas,
        "eqsat_over_numpy": mine / npt if mine else None,
    }  # fmt: skip
    suffix = "_fp_contract" if fused else ""
    results = ROOT / "experiments" / "results"
    out_path = args.out or results / f"kernels_e2e_gemm_{n}_quick{suffix}.json"
    out_path.write_text(json.dumps(res, indent=1) + "\n")
    print(json.dumps({k: v for k, v in res.items() if k != "provenance"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
