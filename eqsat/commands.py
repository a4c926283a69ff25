"""The optimizer's subcommands: ``eqsat opt``, ``eqsat schema``, ``eqsat check-rules``."""

from __future__ import annotations

import argparse
import sys

from eqsat.inputs import read_input
from frontend import parse, print_module


def _native(spec: str | None) -> dict[str, int]:
    """``f32=8,i32=8`` -> {"f32": 8, "i32": 8}."""
    out: dict[str, int] = {}
    for part in filter(None, (spec or "").split(",")):
        elem, _, lanes = part.partition("=")
        if not lanes.isdigit() or int(lanes) < 1:
            raise SystemExit(f"eqsat: error: --native expects ELEM=LANES[,...], got {part!r}")
        out[elem.strip()] = int(lanes)
    return out


def _costs(args: argparse.Namespace, forced: dict[str, float] | None = None) -> object:
    """The cost model: ``forced`` (the module's transform script), then --costs, then --cost."""
    from eqsat.cost import load_costs, vv_cost

    overrides: dict[str, float] = dict(forced or {})
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
    from eqsat.forced_strategies import module_cost_overrides
    from eqsat.optimize import Budget, optimize_module

    text, name = read_input(args.file)
    module = parse(text, name)
    forced = module_cost_overrides(module)  # lowering choices of a transform.named_sequence
    budget = Budget(iterations=args.max_iterations, nodes=args.max_nodes, seconds=args.max_seconds)
    result = optimize_module(
        module,
        budget=budget,
        cost=_costs(args, forced),  # type: ignore[arg-type]
        extra_rule_paths=tuple(args.rules or ()),
        native=_native(args.native),
        fast_math=args.fast_math or args.reassoc,
    )
    if args.emit in ("llvm", "asm"):
        from eqsat.codegen.commands import emit

        target = getattr(args, "target", None) or "avx2"
        sys.stdout.write(emit(result.module, target, args.emit, args.layout, args.reassoc))
    else:
        sys.stdout.write(print_module(result.module, generic=args.generic))
    if args.dump_egraph:
        _dump_egraph(result, args)
    if args.stats:
        print(result.stats(), file=sys.stderr)
    return 0


def _dump_egraph(result: object, args: argparse.Namespace) -> None:
    from eqsat.export import dump

    try:
        egraph, roots = result.egraph, result.roots  # type: ignore[attr-defined]
        dump(egraph, roots, args.dump_egraph, _costs(args))
    except OSError as e:
        raise SystemExit(f"eqsat: error: cannot write {args.dump_egraph}: {e.strerror}") from None


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
        choices=["vv", "llvm", "asm"],
        default="vv",
        help="level of the output: vv = virtual vector ops (the default); llvm = LLVM IR, "
        "asm = assembly, both for --target",
    )
    p.add_argument(
        "--target",
        choices=["x86-64-v2", "avx2", "avx512", "neon"],
        default=None,
        help="target of --emit llvm/asm (default avx2)",
    )
    p.add_argument("--layout", choices=["nested", "flat"], default="nested",
                   help="n-D vectors as nested LLVM arrays (default) or flattened (--emit llvm/asm)")
    p.add_argument("--reassoc", action="store_true",
                   help="float reassociation is allowed: fast-math rules, reassoc reductions")
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
        metavar="ELEM=LANES,...",
        help="native vector width per element type, enables unrolling (f32=8)",
    )
    p.add_argument("--fast-math", action="store_true",
                   help="also use rules exact only up to float reassociation (rules/fast-math)")
    p.add_argument("--max-iterations", type=int, default=30, help="per phase (default 30)")
    p.add_argument("--max-nodes", type=int, default=100_000, help="per phase (default 100000)")
    p.add_argument("--max-seconds", type=float, default=5.0, help="per phase (default 5)")
    p.add_argument("--generic", action="store_true", help="print every op in generic form")
    p.add_argument(
        "--dump-egraph",
        metavar="FILE.json",
        help="write the saturated e-graph in extraction-gym's JSON format",
    )
    p.set_defaults(run=cmd_opt)

    p = sub.add_parser("schema", help="print the e-graph schema rule files are written against")
    p.set_defaults(run=cmd_schema)

    p = sub.add_parser(
        "check-rules", help="validate every rule on a corpus with the reference interpreter"
    )
    p.add_argument("corpus", nargs="*", help="MLIR files (default: the bundled rule corpus)")
    p.add_argument("--trials", type=int, default=3, help="random inputs per union (default 3)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--allow-unfired", action="store_true", help="do not fail when a rule never fired"
    )
    p.set_defaults(run=cmd_check_rules)
