"""In-process A/B of eqsat's code against MLIR 22's on one kernel, same bits, same compiler.

``python experiments/kernels_e2e/ab.py softmax_64x256.mlir fma_8x128_f32 ...`` (a file of this
directory, any path, or a kernel name of ``experiments/cost_corpus.py``). Every variant is
compiled in this one process for the same target machine under the same LLVM options
(``eqsat.bench.harness.Compiled``), its outputs compared bit for bit with eqsat's, then all
are timed alternately: ``--rounds`` rounds, each one sample of about ``--sample-ms`` per
variant, each round starting at the next variant. Reported: the minimum and median per variant
and the paired ratio (per round, the variant's sample over eqsat's of the same round; its
median and quartiles), which a loaded machine moves least. MLIR's variants: its default and,
with ``--variants``, others of ``eqsat.bench.mlir_baseline``'s space
(``mlir-multi_reduction-innerreduction``, ...), ``mlir-loops-...`` for one on the input after
eqsat's loop passes (``eqsat.optimizer.loop_level``, the benchmark's ``mlir-loops-*`` rows).
``--ir NAME=FILE`` adds LLVM IR of one's own (an older commit's output, saved there with
``--save-eqsat-ir``). ``--dump DIR`` writes each variant's optimized LLVM IR and assembly
(for ``llvm-mca-22``). ``--fp-contract``: eqsat in fp-contract mode (the GEMMs' like-with-like
rival is then MLIR's fused outerproduct). ``--out`` writes .md/.json with provenance.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from eqsat.bench.harness import Compiled, make_inputs, signature  # noqa: E402
from eqsat.bench.mlir_baseline import (  # noqa: E402
    lower_to_llvm_ir,
    single_variants,
    space_variants,
)
from eqsat.bench.run import eqsat_llvm_ir  # noqa: E402
from eqsat.codegen.guard import GeneratedCodeCrash, call_guarded  # noqa: E402
from eqsat.codegen.llvm_options import LlvmOptions  # noqa: E402
from eqsat.optimizer import loop_level  # noqa: E402
from eqsat.targets import load_target  # noqa: E402
from experiments.lib import provenance  # noqa: E402
from frontend import parse  # noqa: E402
from frontend.printer import print_module  # noqa: E402

HERE = Path(__file__).parent


class UsageError(Exception):
    """A kernel or variant named on the command line that does not exist (exit status 2)."""


def kernel_text(name: str) -> tuple[str, str]:
    """(label, MLIR text) of a file of this directory, a path, or a cost-corpus kernel."""
    for p in (HERE / name, Path(name)):
        if p.is_file():
            return p.stem, p.read_text()
    from experiments.cost_corpus import corpus

    found = dict(corpus()).get(name)
    if found is None:
        raise UsageError(f"{name}: no such file or cost-corpus kernel")
    return name, found


def entry_of(text: str) -> str:
    module = parse(text, "<kernel>")
    return next(iter(module.functions()))


def run_one(name: str, target_name: str, variants: list[str], rounds: int, sample_ms: float,
            dump: Path | None, extra_ir: dict[str, str] | None = None,
            save_ir: str | None = None, fp_contract: bool = False) -> dict:  # fmt: skip
    target = load_target(target_name)
    label, text = kernel_text(name)
    module = parse(text, label)
    entry = entry_of(text)
    sig = signature(module, entry)
    inputs = make_inputs(sig, {})
    options = LlvmOptions.of(target)
    irs = {"eqsat": eqsat_llvm_ir(module, target, "", "nested", fp_contract)}
    if save_ir:
        Path(save_ir.replace("{kernel}", label)).write_text(irs["eqsat"])
    by_name = {v.name: v for v in [*single_variants(""),
                                   *space_variants(text, "", "avx2" in target.requires)]}
    looped = print_module(loop_level(module))
    for v in ["mlir-default", *variants]:
        plain = v.replace("mlir-loops-", "mlir-")
        if plain not in by_name:
            raise UsageError(f"--variants: {v}: MLIR has no such variant for "
                             f"{label} (known: {', '.join(sorted(by_name))}, each also as "
                             "mlir-loops-*)")
        irs[v] = lower_to_llvm_ir(looped if plain != v else text, by_name[plain])
    irs.update({k: Path(f.replace("{kernel}", label)).read_text()
                for k, f in (extra_ir or {}).items()})  # fmt: skip
    compiled = {k: Compiled(ir, sig, target, options) for k, ir in irs.items()}
    crashed = {}
    for k, c in list(compiled.items()):  # one call in a forked child first: a variant that
        try:  # crashes (MLIR's default on the conv overflows the stack) is left out, named
            call_guarded(lambda c=c: c.run(inputs) and None, f"the {k} code of {label}")
        except GeneratedCodeCrash as e:
            if k == "eqsat":
                raise SystemExit(f"ab.py: error: {e}") from None
            crashed[k] = str(e)
            print(f"{label:28s} {k:36s} left out: {e}", file=sys.stderr, flush=True)
            del compiled[k]
    outs = {k: c.run(inputs) for k, c in compiled.items()}
    same = {k: all(np.array_equal(np.asarray(a).view(np.uint8), np.asarray(b).view(np.uint8))
                   for a, b in zip(outs["eqsat"], o)) for k, o in outs.items()}  # fmt: skip
    if dump is not None:
        dump.mkdir(parents=True, exist_ok=True)
        for k, c in compiled.items():
            (dump / f"{label}.{k}.ll").write_text(str(c._kernel))
            (dump / f"{label}.{k}.s").write_text(c.asm())
    timers = {k: c.timer(inputs) for k, c in compiled.items()}
    for t in timers.values():
        t.calibrate(sample_ms / 1000)
    samples: dict[str, list[float]] = {k: [] for k in timers}
    order = list(timers)
    for r in range(rounds):  # each round starts at another variant: no place is favoured
        for k in order[r % len(order):] + order[: r % len(order)]:
            samples[k].append(timers[k].sample())
    mine = samples["eqsat"]
    rows = {}
    for k, s in samples.items():
        ratios = sorted(x / y for x, y in zip(s, mine))  # paired: same round, moments apart
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        rows[k] = {"min_ns": min(s), "median_ns": statistics.median(s), "bit_exact": same[k],
                   "calls_per_sample": timers[k].n, "ratio_median": statistics.median(ratios),
                   "ratio_quartiles": [q[0], q[2]]}  # fmt: skip
    return {"kernel": label, "entry": entry, "target": target_name, "fp_contract": fp_contract,
            "rows": rows, "crashed": crashed}


def markdown(
    prov: dict, results: list[dict], rounds: int, sample_ms: float, note: str = ""
) -> str:
    out = ["# In-process A/B: eqsat against MLIR 22 (same target machine, same LLVM options)", "",
           provenance.markdown_header(prov), "", *([note, ""] if note else []),
           f"{rounds} rounds; each round one sample of about {sample_ms:g} ms of thread CPU time "
           "per variant, variants alternating. The machine is shared (load average above): the "
           "minimum is the figure to compare, the median shows the noise. Bit-exact: outputs bit "
           "for bit eqsat's.", "",
           "Paired ratio: per round, the variant's sample over eqsat's of the same round; its "
           "median and quartiles over rounds (above 1: slower than eqsat).", "",
           "| kernel | target | variant | min ns/call | median ns/call | min / eqsat's | "
           "paired ratio, median (quartiles) | bit-exact |",
           "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for res in results:
        mine = res["rows"]["eqsat"]["min_ns"]
        target = res["target"] + (" fp-contract" if res.get("fp_contract") else "")
        for k, r in res["rows"].items():
            out.append(f"| {res['kernel']} | {target} | {k} | {r['min_ns']:.1f} | "
                       f"{r['median_ns']:.1f} | {r['min_ns'] / mine:.3f} | "
                       f"{r['ratio_median']:.3f} ({r['ratio_quartiles'][0]:.3f}-"
                       f"{r['ratio_quartiles'][1]:.3f}) | "
                       f"{'yes' if r['bit_exact'] else 'NO'} |")  # fmt: skip
        for k, why in res.get("crashed", {}).items():
            out.append(f"| {res['kernel']} | {target} | {k} | crashed: {why} | | | | |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="+")
    ap.add_argument("--target", default="avx2")
    ap.add_argument("--variants", default="", help="MLIR variants besides mlir-default, "
                    "comma-separated (mlir-default, mlir-loops-transfer-full_unroll, ...)")
    ap.add_argument("--fp-contract", action="store_true", help="eqsat in fp-contract mode "
                    "(each multiply-add fused: MLIR's outerproduct lowerings then compute its "
                    "bits)")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--sample-ms", type=float, default=5.0)
    ap.add_argument("--save-eqsat-ir", default=None, metavar="FILE",
                    help="write eqsat's LLVM IR (before O3) to FILE ({kernel}: the kernel)")
    ap.add_argument("--dump", default=None, help="directory for optimized IR and assembly")
    ap.add_argument("--out", default=None, help="results path without suffix")
    ap.add_argument("--note", default="", help="a paragraph for the results file (what the "
                    "--ir rows are)")
    ap.add_argument("--ir", action="append", default=[], metavar="NAME=FILE",
                    help="also time this LLVM IR file (a hand-edited variant, or an older "
                    "commit's output), as row NAME; {kernel} in FILE is the kernel's name")
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    if any("=" not in x for x in args.ir):
        print("ab.py: error: --ir takes NAME=FILE", file=sys.stderr)
        return 2
    extra_ir = dict(x.split("=", 1) for x in args.ir)
    prov = provenance.record(sys.argv if argv is None else ["ab.py", *argv])
    dump = Path(args.dump) if args.dump else None
    results = []
    for k in args.kernels:
        try:
            res = run_one(k, args.target, variants, args.rounds, args.sample_ms, dump, extra_ir,
                          args.save_eqsat_ir, args.fp_contract)  # fmt: skip
        except UsageError as e:
            print(f"ab.py: error: {e}", file=sys.stderr)
            return 2
        results.append(res)
        for name, r in res["rows"].items():
            print(f"{res['kernel']:28s} {name:36s} min {r['min_ns']:9.1f} ns  median "
                  f"{r['median_ns']:9.1f}  paired {r['ratio_median']:.3f} "
                  f"({r['ratio_quartiles'][0]:.3f}-{r['ratio_quartiles'][1]:.3f})  "
                  f"bit-exact {r['bit_exact']}", flush=True)
    if args.out:
        out = Path(args.out)
        out.with_suffix(".json").write_text(json.dumps(
            {"provenance": prov, "note": args.note, "results": results}, indent=1) + "\n")
        out.with_suffix(".md").write_text(markdown(prov, results, args.rounds, args.sample_ms,
                                                   args.note))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
