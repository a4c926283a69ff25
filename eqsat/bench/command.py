"""``eqsat bench``: time a kernel compiled by eqsat against MLIR 22's own lowerings."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the benchmark's modules (numpy, llvmlite) load only when it runs
    from eqsat.bench.run import Report


def format_report(report: Report) -> str:
    """The table: variant, ns per call, ratio to ours, GFLOP/s and share of peak (contraction
    kernels), compile latency (parse to callable), results equal."""
    t = report.target
    base = report.row("eqsat") or report.row("mlir-default")
    opts = report.options.label() if report.options else "-"
    lines = [
        f"@{report.entry} of {report.file} on {t.name} ({t.cpu}); every variant compiled under "
        f"the same LLVM options ({opts}), {report.placements} time(s) in fresh processes; "
        f"median of {report.repeats} interleaved samples per placement, ns per call in thread "
        "CPU time of a JIT-compiled call loop; spread: min-max of the placements' medians",
    ]
    if report.fp_contract:
        lines.append("fp-contract mode: float vector.contract<add> fuses each multiply-add, in "
                     "order (eqsat's rows; MLIR's outerproduct lowering computes the same bits)")
    lines.append(f"equal: results compared with {report.reference}; 'yes': bit for bit, "
                 f"{report.edges or 'on the ordinary inputs'}")
    if any(r.reassoc for r in report.rows) and report.row("eqsat+reassoc") is None:
        lines.append(f"ratios of +reassoc rows are to {base.variant if base else '-'} "
                     "(reassociation off); --reassoc adds eqsat+reassoc to compare like with like")
    peak = report.peak_gflops()
    show_flops = report.flops is not None
    width = max([44] + [len(r.variant) for r in report.rows if r.same_as is None])
    head = f"{'variant':<{width}} {'ns/call':>9} {'spread':>13} {'ratio':>7}"
    if show_flops:
        head += f" {'GFLOP/s':>8} {'peak':>5}"
    head += f" {'compile':>8}  {'equal':<12} note"
    lines += [head, "-" * len(head)]
    same: dict[str, list[str]] = {}
    for r in report.rows:
        if r.same_as:
            same.setdefault(r.same_as, []).append(r.variant)
    for r in report.rows:
        if r.same_as:
            continue
        ns = f"{r.ns_per_call:9.1f}" if r.ns_per_call is not None else f"{'-':>9}"
        spread = f"{r.spread[0]:.1f}-{r.spread[1]:.1f}" if r.spread else "-"
        ratio = report.ratio(r)
        line = f"{r.variant:<{width}} {ns} {spread:>13} {f'{ratio:.2f}x' if ratio else '-':>7}"
        if show_flops:
            gf = report.flops / r.ns_per_call if r.ns_per_call else None  # type: ignore[operator]
            share = f"{gf / peak:.0%}" if gf and peak else "-"
            line += f" {f'{gf:.1f}' if gf else '-':>8} {share:>5}"
        comp = f"{r.compile_s * 1000:.0f}ms" if r.compile_s is not None else "-"
        eq = r.agreement.label() if r.agreement else "-"
        note = r.note + (f" (+{len(same[r.variant])} with identical LLVM IR)"
                         if r.variant in same else "")  # fmt: skip
        lines.append(f"{line} {comp:>8}  {eq:<12} {note}".rstrip())
    if same:
        lines.append("identical LLVM IR (timed once, under the first name):")
        lines += [f"  {k} = {', '.join(v[:4])}" + (f" and {len(v) - 4} more (see --json)"
                                                     if len(v) > 4 else "")
                  for k, v in same.items()]  # fmt: skip
    best = best_mlir(report)
    for group, (name, ns) in best.items():
        ours = report.row(f"eqsat{group}")
        if ours and ours.ns_per_call:
            lines.append(f"best MLIR{group or ' (strict)'}: {name} {ns:.1f} ns; "
                         f"eqsat{group} / best = {ours.ns_per_call / ns:.2f}")  # fmt: skip
    if show_flops:
        lines.append(f"{report.flops} flops per call (2 per point of each vector.contract)")
        if peak and report.clock:
            lanes = t.lanes("f32")
            lines.append(
                f"peak: 2 FMA units x {lanes} lanes x 2 flops x {report.clock[0]:.3f} GHz "
                f"(clock from {report.clock[1]}) = {peak:.1f} GFLOP/s"
            )
        if report.call_ns:
            lines.append(
                f"call overhead: {report.call_ns:.1f} ns alone (an empty function of the same "
                "MLIR signature in the same loop; it overlaps a kernel's own work, so it is not "
                "subtracted)"
            )
    if base is not None and base.ns_per_call is None:
        lines.append(f"{base.variant} could not be timed: {base.note}")
    return "\n".join(lines) + "\n"


def best_mlir(report: Report, exact: bool = False) -> dict[str, tuple[str, float]]:
    """Per group, MLIR's fastest fully timed variant whose results are right (with ``exact``,
    bit for bit the reference's): (name, ns per call). Rows only screened (one placement, few
    samples) are left out: their figures are noisier, and their minimum would favour MLIR."""
    out: dict[str, tuple[str, float]] = {}
    for r in report.rows:
        right = r.exact if exact else r.equal
        if r.variant.startswith("mlir-") and r.ns_per_call and right and not r.screened_only:
            if r.group not in out or r.ns_per_call < out[r.group][1]:
                out[r.group] = (r.variant, r.ns_per_call)
    return out


def report_json(report: Report) -> list[dict[str, Any]]:
    """The list ``--json`` writes, one entry per variant: ``variant``, ``ns_per_call``,
    ``equal`` (null for a variant MLIR cannot lower or that crashed), ``exact`` (bit for bit
    the reference's results), ``spread`` ([min, max]
    of the placements' medians), ``compile_ms``, ``target``, ``group``, ``same_as`` (the
    variant with identical LLVM IR whose figures these are), ``note``, ``fp_contract`` (the
    benchmark's mode: true when eqsat and the reference fuse contractions)."""
    return [
        {
            "variant": r.variant,
            "ns_per_call": r.ns_per_call,
            "equal": r.equal,
            "exact": r.exact,
            "spread": list(r.spread) if r.spread else None,
            "compile_ms": round(r.compile_s * 1000, 1) if r.compile_s is not None else None,
            "target": report.target.name,
            "group": r.group,
            "same_as": r.same_as,
            "note": r.note,
            "fp_contract": report.fp_contract,
        }
        for r in report.rows
    ]


def _scalar_args(items: list[str] | None) -> dict[str, str]:
    out = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            print(f"eqsat: error: --arg expects NAME=VALUE, got {item!r}", file=sys.stderr)
            raise SystemExit(2)  # a usage error
        out[name.strip().lstrip("%")] = value.strip()
    return out


def cmd_bench(args: argparse.Namespace) -> int:
    from eqsat.bench.harness import BenchError, file_scalar_args, file_scalar_locs
    from frontend import MLIRError
    from eqsat.bench.mlir_baseline import ToolMissing
    from eqsat.bench.run import bench
    from eqsat.cost_options import CostFileError
    from eqsat.inputs import read_input
    from eqsat.targets import TargetError, load_target
    from eqsat.targets.target import UnknownTarget

    scalars = _scalar_args(args.arg)
    try:
        target = load_target(args.target)
    except TargetError as e:
        print(str(e), file=sys.stderr)
        return 2 if isinstance(e, UnknownTarget) else 1
    if not target.runs_on_host():
        print(
            f"eqsat: error: this host cannot execute {target.name} code (needs "
            f"{', '.join(target.requires)}); benchmark a target it runs",
            file=sys.stderr,
        )
        return 1
    text, name = read_input(args.file)
    written = {k: v for k, v in file_scalar_locs(text, name).items() if k not in scalars}
    scalars = {**file_scalar_args(text), **scalars}  # --arg wins over the file's ARGS line
    try:
        extra = _researcher_rows(args, text, name, target)
    except (TargetError, CostFileError) as e:
        print(str(e), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"eqsat: error: cannot read {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    try:
        report = bench(
            text,
            name,
            args.entry,
            target,
            scalars=scalars,
            baseline=args.baseline,
            repeats=args.repeats,
            sample_seconds=args.sample_ms / 1000,
            reassoc=args.reassoc,
            layout=args.layout,
            fast_math=args.fast_math,
            placements=args.placements,
            space=args.space,
            extra=extra,
            written=written,
            fp_contract=args.fp_contract,
        )
    except ToolMissing as e:
        print(f"eqsat: error: {e}", file=sys.stderr)
        return 1
    except BenchError as e:
        print(MLIRError(str(e), e.loc) if e.loc else f"{name}: error: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(format_report(report))
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(report_json(report), f, indent=1)
                f.write("\n")
        except OSError as e:
            print(f"eqsat: error: cannot write {args.json}: {e.strerror}", file=sys.stderr)
            return 1
    return 0


def _researcher_rows(
    args: argparse.Namespace, text: str, name: str, target: Any
) -> list[Any]:
    """Rows for ``--costs``, ``--rules`` and ``--cost`` (``eqsat.bench.researcher``)."""
    if not (args.costs or args.rules or args.cost):
        return []
    from eqsat.bench.researcher import researcher_variants
    from frontend import parse

    return researcher_variants(
        parse(text, name), target, args.layout, args.costs or (), args.rules or (),
        dict(args.cost or ()),
    )  # fmt: skip


def add_bench_command(sub: argparse._SubParsersAction) -> None:
    """Register ``eqsat bench`` on the CLI's subparsers."""
    from eqsat.cost_options import cost_item
    from eqsat.inputs import positive

    p = sub.add_parser(
        "bench",
        help="time a kernel compiled for a target (and MLIR 22's own lowerings of it)",
        description=__doc__,
    )
    p.add_argument("file", help="MLIR file, or - for stdin")
    p.add_argument("--entry", required=True, help="function to time (memref and scalar args)")
    p.add_argument("--target", default="avx2", help="target name or file (default: avx2)")
    p.add_argument(
        "--arg", action="append", metavar="NAME=VALUE", help="value of a scalar argument %%NAME"
    )
    p.add_argument(
        "--baseline",
        choices=["mlir"],
        help="also time the input lowered by MLIR 22 itself, default and every forced strategy",
    )
    p.add_argument(
        "--json", metavar="OUT",
        help="write [{variant, ns_per_call, equal, spread, compile_ms, target, ...}] here",
    )  # fmt: skip
    p.add_argument("--repeats", type=positive, default=7, help="samples per variant (median)")
    p.add_argument(
        "--sample-ms",
        type=_positive_float,
        default=20.0,
        help="length of one timing sample in ms (default 20)",
    )
    p.add_argument(
        "--reassoc",
        action="store_true",
        help="also time every variant with float reductions reassociated (eqsat+reassoc, "
        "MLIR's reassociate-fp-reductions)",
    )
    p.add_argument(
        "--fast-math",
        action="store_true",
        help="also time every variant with LLVM's fast-math flags on all float ops, eqsat "
        "with its fast-math rewrites (eqsat+fast-math, mlir-*+fast-math)",
    )
    p.add_argument(
        "--fp-contract",
        action="store_true",
        help="fp-contract mode: the kernel's float vector.contract<add> fuses each multiply-add "
        "(eqsat optimizes and compiles in it; results are checked against the interpreter in "
        "it, so MLIR's outerproduct lowering is bit-exact)",
    )
    p.add_argument(
        "--placements", type=positive, default=3,
        help="compile each variant this many times, each in a fresh process (default 3)",
    )  # fmt: skip
    p.add_argument(
        "--space", choices=["full", "single"], default="full",
        help="MLIR variants: every combination of its lowering options (full, default) or "
        "each strategy alone (single)",
    )  # fmt: skip
    p.add_argument(
        "--layout",
        choices=["nested", "flat"],
        default="nested",
        help="n-D vectors as nested arrays of 1-D vectors or flattened (eqsat's code)",
    )
    p.add_argument(
        "--costs", action="append", metavar="TOML",
        help="also time eqsat with this cost table (a target file, or [ops] overrides): a "
        "row eqsat[costs=NAME] each (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--rules", action="append", metavar="FILE.egg",
        help="also time eqsat with this rule file of your own: a row eqsat[rules=NAME] each "
        "(repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--cost", action="append", type=cost_item, metavar="NAME=COST",
        help="also time eqsat with these cost overrides: one row eqsat[cost ...] for all",
    )  # fmt: skip
    p.set_defaults(run=cmd_bench)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


__all__ = ["add_bench_command", "format_report", "report_json"]
