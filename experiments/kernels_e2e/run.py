"""Whole kernels against MLIR 22 and numpy: ``python experiments/kernels_e2e/run.py``.

For each kernel of this directory: ``eqsat.bench.run.bench`` times eqsat's code (optimized for
the target: hoisting, saturation, extraction, ``eqsat.codegen``) and MLIR 22's own pipeline on
the same file (its default and each forced contraction strategy, reassociation off); then the
same MLIR pipelines once more on the file after eqsat's loop passes (``eqsat.optimizer.loop_level``:
packing, hoisting, then unrolling the innermost loops by 4), so that MLIR's best is not held back by a
loop-level step it would take in a real pipeline (rows "hoisted input"); and numpy
(one OpenBLAS thread, ``eqsat.bench.numpy_baseline``) on inputs of the same shapes. Writes
``experiments/results/kernels_e2e.md`` and ``.json`` with provenance. ``--fp-contract`` runs
the benchmark in fp-contract mode (the contractions fuse each multiply-add; eqsat and the
reference interpreter in that mode, MLIR's outerproduct lowering then bit-exact) and writes
``kernels_e2e_fp_contract.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from eqsat.bench.numpy_baseline import time_numpy  # noqa: E402
from eqsat.bench.run import FMA_UNITS, Report, bench, cpu_clock_ghz  # noqa: E402
from eqsat.optimizer import loop_level  # noqa: E402
from eqsat.targets import load_target  # noqa: E402
from experiments.lib import provenance  # noqa: E402
from frontend import parse  # noqa: E402
from frontend.printer import print_module  # noqa: E402

HERE = Path(__file__).parent
RESULTS = ROOT / "experiments" / "results"
# The MLIR variants that differ for a contraction kernel (the transpose and multi_reduction
# strategies give the default's LLVM IR here), reassociation off.
MLIR_ONLY = (
    "mlir-default",
    "mlir-contract-outerproduct",
    "mlir-contract-llvmintr",
    "mlir-contract-parallelarith",
)


@dataclass(frozen=True)
class Kernel:
    file: str
    entry: str
    flops: int
    numpy: tuple[str, dict[str, int]] | None  # (numpy_baseline name, sizes)


def gemm(n: int) -> Kernel:
    sizes = {"m": n, "n": n, "k": n}
    return Kernel(f"gemm_{n}.mlir", "gemm", 2 * n**3, ("gemm", sizes))


KERNELS = {
    "gemm_128": gemm(128),
    "gemm_256": gemm(256),
    "conv2d": Kernel("conv2d_nhwc_34x34x16x16.mlir", "conv", 2 * 32 * 32 * 16 * 3 * 3 * 16,
                     ("conv2d_nhwc", {"h": 34, "w": 34, "c": 16, "f": 16, "kh": 3, "kw": 3})),
    "softmax": Kernel("softmax_64x256.mlir", "softmax", 0, ("softmax", {"rows": 64, "n": 256})),
    "layernorm": Kernel("layernorm_64x256.mlir", "layernorm", 0,
                        ("layernorm", {"rows": 64, "n": 256})),
}


def _rows(report: Report, suffix: str = "") -> list[dict]:
    return [
        {
            "variant": r.variant + suffix,
            "ns": r.ns_per_call,
            "spread": list(r.spread) if r.spread else None,
            "equal": r.agreement.label() if r.agreement else None,
            "note": r.note or (r.failure or ""),
        }
        for r in report.rows
    ]


def run_kernel(
    k: Kernel, target_name: str, repeats: int, sample_ms: float, fp_contract: bool = False
) -> dict:
    target = load_target(target_name)
    text = (HERE / k.file).read_text()
    mine = bench(text, k.file, k.entry, target, baseline="mlir", repeats=repeats,
                 sample_seconds=sample_ms / 1000, only=MLIR_ONLY, space="single",
                 fp_contract=fp_contract, loops=False)  # fmt: skip
    # MLIR's pipeline does not pack, hoist or unroll; a real one would: give it eqsat's loop passes
    # (timed as a run of its own, rows "hoisted input", instead of bench's mlir-loops-* rows)
    hoisted_text = print_module(loop_level(parse(text, k.file)))
    theirs = bench(hoisted_text, k.file + " (hoisted)", k.entry, target, baseline="mlir",
                   repeats=repeats, sample_seconds=sample_ms / 1000, only=MLIR_ONLY,
                   space="single", fp_contract=fp_contract, loops=False)  # fmt: skip
    clock = cpu_clock_ghz()
    rows = _rows(mine) + [r for r in _rows(theirs, " (hoisted input)")
                          if r["variant"].startswith("mlir")]
    eqsat_again = theirs.row("eqsat")
    np_time = None
    if k.numpy is not None:
        t = time_numpy(k.numpy[0], k.numpy[1], repeats=repeats)
        np_time = {"ns": t.ns, "min": t.min_ns, "max": t.max_ns, "numpy": t.numpy_version,
                   "openblas": t.openblas, "core": t.core}
    lanes = target.lanes("f32")
    peak = FMA_UNITS * lanes * 2 * clock[0] if clock and lanes else None
    return {
        "kernel": k.file,
        "fp_contract": fp_contract,
        "flops": k.flops,
        "clock_ghz": clock[0] if clock else None,
        "clock_source": clock[1] if clock else None,
        "peak_gflops": peak,
        "rows": rows,
        "eqsat_second_sample_ns": eqsat_again.ns_per_call if eqsat_again else None,
        "numpy": np_time,
    }


def _best_mlir(rows: list[dict], exact: bool = False) -> dict | None:
    """MLIR's fastest right row (``exact``: bit for bit the reference's, ``equal`` "yes")."""
    timed = [r for r in rows if r["variant"].startswith("mlir") and r["ns"] and r["equal"]
             and not r["equal"].startswith("NO") and (not exact or r["equal"] == "yes")]
    return min(timed, key=lambda r: r["ns"]) if timed else None


def _us_of(best: dict | None, mine: float) -> str:
    if best is None:
        return "- | -"
    return f"{best['ns'] / 1e3:.1f} ({best['variant']}) | {mine / best['ns']:.2f}x"


def table(results: list[dict]) -> str:
    head = ("| kernel | eqsat us | eqsat GFLOP/s | share of FMA peak | MLIR default us | "
            "best MLIR us (variant) | eqsat / best MLIR | best bit-exact MLIR us (variant) | "
            "eqsat / best bit-exact | numpy us | eqsat / numpy |")
    out = [head, "|---" * (head.count("|") - 1) + "|"]
    for res in results:
        rows = {r["variant"]: r for r in res["rows"]}
        mine = rows["eqsat"]["ns"]
        default = rows.get("mlir-default", {}).get("ns")
        best = _best_mlir(res["rows"])
        exact = _best_mlir(res["rows"], exact=True)
        gf = res["flops"] / mine if mine and res["flops"] else None
        share = f"{gf / res['peak_gflops']:.0%}" if gf and res["peak_gflops"] else "-"
        npt = res["numpy"]["ns"] if res["numpy"] else None
        out.append(
            f"| {res['kernel']} | {mine / 1e3:.1f} | {f'{gf:.1f}' if gf else '-'} | {share} | "
            f"{default / 1e3 if default else float('nan'):.1f} | "
            f"{_us_of(best, mine)} | {_us_of(exact, mine)} | "
            f"{npt / 1e3 if npt else float('nan'):.1f} | "
            f"{mine / npt if npt else float('nan'):.2f}x |"
        )
    return "\n".join(out) + "\n"


def write_results(
    out: Path, prov: dict, target: str, repeats: int, sample_ms: float, results: list[dict],
    note: str = "",
) -> None:
    """``out``.json (provenance and every row) and ``out``.md (the table, then each kernel)."""
    out.with_suffix(".json").write_text(
        json.dumps({"provenance": prov, "target": target, "note": note, "results": results}, indent=1)
        + "\n"
    )
    fused = any(r.get("fp_contract") for r in results)
    mode = (", fp-contract mode (float contractions fuse each multiply-add, in order; eqsat and "
            "the reference interpreter in that mode)") if fused else ""
    md = [
        f"# Whole kernels, {target}, reassociation off{mode}",
        "",
        provenance.markdown_header(prov),
        note,
        "",
        f"Median of {repeats} samples of {sample_ms:g} ms of thread CPU time per "
        "variant; the machine was shared and loaded (other jobs on both cores), so figures "
        "move between runs. Share of peak: 2 FMA units x 8 f32 lanes x 2 flops x the clock "
        "measured by a dependent-add chain. Best MLIR: the fastest of MLIR 22's default and "
        "forced contraction strategies on the kernel file and on it after eqsat's loop "
        "passes (packing, hoisting, unrolling the innermost loops by 4: rows \"hoisted input\"). numpy: the same computation (`eqsat/bench/numpy_baseline.py`) with one OpenBLAS "
        "thread, the host's OpenBLAS settings.",
        "",
        table(results),
    ]
    for res in results:
        md.append(f"## {res['kernel']}\n")
        md.append("| variant | us/call | spread (placements) | equal | note |\n|---|---|---|---|---|")
        for r in res["rows"]:
            ns = f"{r['ns'] / 1e3:.1f}" if r["ns"] else "-"
            sp = f"{r['spread'][0] / 1e3:.1f}-{r['spread'][1] / 1e3:.1f}" if r["spread"] else "-"
            md.append(f"| {r['variant']} | {ns} | {sp} | {r['equal']} | {r['note'] or ''} |")
        if res["eqsat_second_sample_ns"]:
            md.append(f"\neqsat timed again with the second set: "
                      f"{res['eqsat_second_sample_ns'] / 1e3:.1f} us (a noise indicator)")
        if res["numpy"]:
            n = res["numpy"]
            md.append(f"\nnumpy {n['numpy']} ({n['openblas']}; core {n['core']}): "
                      f"{n['ns'] / 1e3:.1f} us (min {n['min'] / 1e3:.1f}, max {n['max'] / 1e3:.1f})")
        md.append(f"\nclock {res['clock_ghz']} GHz ({res['clock_source']}), peak "
                  f"{res['peak_gflops']:.1f} GFLOP/s\n" if res["peak_gflops"] else "")
    out.with_suffix(".md").write_text("\n".join(md) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", default=list(KERNELS), help="default: all")
    ap.add_argument("--target", default="avx2")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--sample-ms", type=float, default=20.0)
    ap.add_argument("--out", default=None,
                    help="results path without suffix (default: experiments/results/"
                    "kernels_e2e, kernels_e2e_fp_contract with --fp-contract)")
    ap.add_argument("--fp-contract", action="store_true",
                    help="fp-contract mode: the contractions fuse each multiply-add")
    args = ap.parse_args(argv)
    out = args.out or str(RESULTS / ("kernels_e2e_fp_contract" if args.fp_contract
                                     else "kernels_e2e"))  # fmt: skip
    unknown = [k for k in args.kernels if k not in KERNELS]
    if unknown:
        print(f"run.py: error: unknown kernel(s) {unknown} (known: {', '.join(KERNELS)})",
              file=sys.stderr)
        return 2
    prov = provenance.record(sys.argv if argv is None else ["run.py", *argv])
    results = []
    for name in args.kernels:
        res = run_kernel(KERNELS[name], args.target, args.repeats, args.sample_ms,
                         args.fp_contract)  # fmt: skip
        results.append(res)
        print(json.dumps(res), flush=True)
    write_results(Path(out), prov, args.target, args.repeats, args.sample_ms, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
