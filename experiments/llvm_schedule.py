"""LLVM's machine scheduler direction on eqsat's code: every bench kernel, reassociation off and
on, compiled under each direction a target file's ``schedule`` key may pick, timed together.

    python experiments/llvm_schedule.py [--targets avx2,x86-64-v2] [--repeats 9] [--quick]

Each kernel is optimized once per target and reassociation setting (what ``eqsat bench``'s
eqsat row compiles), then compiled by the benchmark harness once per direction, each direction
in its own child processes (LLVM's options are process-wide; ``eqsat.bench.run.measure``),
over several placements. Prints
ns per call and the time relative to the target file's own choice, with geometric means: the
measurement behind ``schedule`` in ``costs/*.toml``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eqsat.bench.harness import make_inputs, signature  # noqa: E402
from eqsat.bench.run import eqsat_llvm_ir, measure as measure_variants  # noqa: E402
from eqsat.bench.variants import Variant  # noqa: E402
from eqsat.codegen.llvm_options import LlvmOptions  # noqa: E402
from eqsat.targets import load_target  # noqa: E402
from eqsat.targets.target import SCHEDULES  # noqa: E402
from experiments.lib.kernel_variants import geomean, kernel_args, kernel_paths  # noqa: E402
from experiments.lib.provenance import markdown_header  # noqa: E402
from frontend import parse  # noqa: E402


def measure(tname: str, repeats: int, seconds: float) -> list[tuple[str, bool, dict[str, float]]]:
    """(kernel, reassoc, {direction: ns per call}) for every kernel of the suite."""
    target = load_target(tname)
    rows = []
    for path in kernel_paths():
        text = path.read_text()
        sig = signature(parse(text, path.name), path.stem)
        inputs = make_inputs(sig, kernel_args(text))
        for reassoc in (False, True):
            group = "+reassoc" if reassoc else ""
            ir = eqsat_llvm_ir(parse(text, path.name), target, group, "nested")
            variants = [Variant(d, lambda: ir, group, options=LlvmOptions(d)) for d in SCHEDULES]
            measured, _, _ = measure_variants(variants, sig, inputs, target, repeats, seconds, 3)
            times = {r.variant: r.ns_per_call or float("nan") for r in measured}
            rows.append((path.stem, reassoc, times))
            print(f"{tname} {path.stem} reassoc={int(reassoc)}: "
                  + " ".join(f"{d}={t:.1f}" for d, t in times.items()), file=sys.stderr)
    return rows


def report(tname: str, rows: list[tuple[str, bool, dict[str, float]]]) -> str:
    own = load_target(tname).schedule
    head = " | ".join(f"{d} (ns)" for d in SCHEDULES)
    out = [f"### {tname} (the target file schedules {own})", "",
           f"| kernel | reassoc | {head} | " + " | ".join(f"{d} / {own}" for d in SCHEDULES) + " |",
           "|---|---|" + "---|" * (2 * len(SCHEDULES))]
    for kernel, reassoc, t in rows:
        cells = [f"{t[d]:.1f}" for d in SCHEDULES] + [f"{t[d] / t[own]:.2f}x" for d in SCHEDULES]
        out.append(f"| {kernel} | {'on' if reassoc else 'off'} | " + " | ".join(cells) + " |")
    out.append("")
    for d in SCHEDULES:
        ratios = [t[d] / t[own] for _, _, t in rows]
        g = geomean(ratios) or float("nan")
        out.append(f"- {d}: {g:.2f}x the time of {own} in geometric mean "
                   f"(range {min(ratios):.2f}x to {max(ratios):.2f}x)")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--targets", default="avx2,x86-64-v2")
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--quick", action="store_true", help="3 repeats of 5 ms samples")
    args = ap.parse_args(argv)
    repeats, seconds = (3, 0.005) if args.quick else (args.repeats, 0.02)
    print(markdown_header())
    for tname in args.targets.split(","):
        if not load_target(tname).runs_on_host():
            print(f"### {tname}: this host cannot run it (skipped)\n")
            continue
        print(report(tname, measure(tname, repeats, seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
