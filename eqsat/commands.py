"""The optimizer's subcommands: ``eqsat opt``, ``eqsat schema``, ``eqsat check-rules``."""

from __future__ import annotations

import argparse
import sys

from eqsat.inputs import positive, positive_seconds, read_input
from frontend import parse, print_module


NATIVE_ELEMS = ("f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "index")


def _native(spec: str | None) -> dict[str, int]:
    """``f32=8,i32=8`` -> {"f32": 8, "i32": 8}; an argparse type (bad usage exits 2)."""
    out: dict[str, int] = {}
    for part in filter(None, (spec or "").split(",")):
        elem, _, lanes = part.partition("=")
        if not lanes.strip().isdigit() or int(lanes) < 1 or elem.strip() not in NATIVE_ELEMS:
            raise argparse.ArgumentTypeError(
                f"--native expects ELEM=LANES[,...] with ELEM one of {', '.join(NATIVE_ELEMS)} "
                f"and LANES >= 1, got {part!r}"
            )
        out[elem.strip()] = int(lanes)
    return out


def _costs(args: argparse.Namespace) -> object:
    from eqsat.cost import load_costs, vv_cost

    overrides: dict[str, float] = {}
    if args.costs:
        try:
            overrides.update(load_costs(args.costs))
        except (OSError, ValueError) as e:
            raise SystemExit(f"eqsat: error: cannot read cost table {args.costs}: {e}") from None
    for item in args.cost or []:
        name, _, value = item.partition("=")
        try:
            overrides[name] = float(value)
        except ValueError:
            raise SystemExit(f"eqsat: error: --cost expects NAME=NUMBER, got {item!r}") from None
    return vv_cost(overrides)


def cmd_opt(args: argparse.Namespace) -> int:
    from eqsat.optimize import Budget, optimize_module

    text, name = read_input(args.file)
    module = parse(text, name)
    budget = Budget(iterations=args.max_iterations, nodes=args.max_nodes, seconds=args.max_seconds)
    result = optimize_module(
        module,
        budget=budget,
        cost=_costs(args),  # type: ignore[arg-type]
        extra_rule_paths=tuple(args.rules or ()),
        native=args.native or {},
        fast_math=args.fast_math,
    )
    sys.stdout.write(print_module(result.module, generic=args.generic))
    if args.stats:
        print(result.stats(), file=sys.stderr)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from eqsat.schema import schema_text

    sys.stdout.write(schema_text())
    return 0


def cmd_check_rules(args: argparse.Namespace) -> int:
    from eqsat.check_rules import check_rules, default_corpus

    report = check_rules(args.corpus or default_corpus(), trials=args.trials, seed=args.seed)
    print(report.format())
    return 0 if report.ok(require_all_fired=not args.allow_unfired) else 1


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("opt", help="optimize an MLIR file by equality saturation")
    p.add_argument("file", help="MLIR file, or - for stdin")
    p.add_argument(
        "--emit",
        choices=["vv"],
        default="vv",
        help="level of the output: vv = virtual vector ops (the default)",
    )
    p.add_argument(
        "--stats",
        action="store_true",
        help="print per-phase iterations, e-nodes, time, stop reason and rule matches",
    )
    p.add_argument(
        "--rules",
        action="append",
        metavar="FILE",
        help="an extra rule file (.egg) to run after the built-in phases",
    )
    p.add_argument("--costs", metavar="TOML", help="cost table: [ops] Constructor = cost")
    p.add_argument(
        "--cost",
        action="append",
        metavar="NAME=COST",
        help="override one constructor's cost, e.g. Transpose=100",
    )
    p.add_argument(
        "--native",
        type=_native,
        metavar="ELEM=LANES,...",
        help="native vector width per element type, enables unrolling (f32=8)",
    )
    p.add_argument("--fast-math", action="store_true",
                   help="also use rules exact only up to float reassociation (rules/fast-math)")
    p.add_argument("--max-iterations", type=positive, default=30, help="per phase (default 30)")
    p.add_argument("--max-nodes", type=positive, default=100_000,
                   help="per phase (default 100000)")
    p.add_argument("--max-seconds", type=positive_seconds, default=5.0,
                   help="per phase (default 5)")
    p.add_argument("--generic", action="store_true", help="print every op in generic form")
    p.set_defaults(run=cmd_opt)

    p = sub.add_parser("schema", help="print the e-graph schema rule files are written against")
    p.set_defaults(run=cmd_schema)

    p = sub.add_parser(
        "check-rules", help="validate every rule on a corpus with the reference interpreter"
    )
    p.add_argument("corpus", nargs="*", help="MLIR files (default: the bundled rule corpus)")
    p.add_argument(
        "--trials",
        type=int,
        default=3,
        help="random inputs per union (default 3), on top of the inputs that show every "
        "special value (NaN, infinities, signed zeros, denormals, extremes, INT_MIN/INT_MAX)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--allow-unfired", action="store_true", help="do not fail when a rule never fired"
    )
    p.set_defaults(run=cmd_check_rules)
