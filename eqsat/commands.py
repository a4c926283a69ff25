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


def _overrides(args: argparse.Namespace, table: dict[str, float]) -> dict[str, float]:
    """``--costs`` ``[ops]`` entries, then ``--cost NAME=C`` items (later ones win)."""
    overrides = dict(table)
    for item in args.cost or []:
        name, _, value = item.partition("=")
        try:
            overrides[name] = float(value)
        except ValueError:
            raise SystemExit(f"eqsat: error: --cost expects NAME=NUMBER, got {item!r}") from None
    return overrides


def _target_and_costs(
    args: argparse.Namespace, emit: str | None, forced: dict[str, float] | None = None
) -> tuple[object | None, object]:
    """The target (``--target``, or a ``--costs`` file with a ``[target]`` section) and the
    cost model: the target's, or the VV model, with ``forced`` (the module's transform script),
    then ``--costs [ops]``, then ``--cost`` (later ones win)."""
    import tomllib

    from eqsat.cost import load_costs, vv_cost
    from eqsat.targets import load_target

    target = load_target(args.target) if args.target else None
    table: dict[str, float] = dict(forced or {})
    if args.costs:
        try:
            with open(args.costs, "rb") as f:
                is_target = "target" in tomllib.load(f)
        except OSError as e:
            raise SystemExit(f"eqsat: error: cannot read cost table {args.costs}: {e}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            is_target = True  # let the target loader report it at its line
        if is_target:
            target = load_target(args.costs)
        else:
            try:
                table.update(load_costs(args.costs))
            except (OSError, ValueError) as e:
                raise SystemExit(
                    f"eqsat: error: cannot read cost table {args.costs}: {e}"
                ) from None
    overrides = _overrides(args, table)
    if target is not None:
        level = emit or "hwv"  # hwv is the default with a target
        reassoc = getattr(args, "fast_math", False) or getattr(args, "reassoc", False)
        return target, target.cost_model(overrides, level, reassoc)  # type: ignore[attr-defined]
    return None, vv_cost(overrides)


def cmd_opt(args: argparse.Namespace) -> int:
    from eqsat.forced_strategies import module_cost_overrides
    from eqsat.optimize import Budget, optimize_module
    from eqsat.targets import TargetError

    text, name = read_input(args.file)
    module = parse(text, name)
    forced = module_cost_overrides(module)  # lowering choices of a transform.named_sequence
    machine_code = args.emit in ("llvm", "asm")
    if machine_code and not args.target and not args.costs:
        args.target = "avx2"  # LLVM IR and assembly are always for some target
    try:
        target, cost = _target_and_costs(args, "hwv" if machine_code else args.emit, forced)
    except TargetError as e:
        print(str(e), file=sys.stderr)
        return 1
    emit = "hwv" if machine_code else args.emit or ("hwv" if target is not None else "vv")
    if emit == "hwv" and target is None:
        raise SystemExit("eqsat: error: --emit hwv needs a --target (or a --costs target file)")
    budget = Budget(iterations=args.max_iterations, nodes=args.max_nodes, seconds=args.max_seconds)
    native = args.native or None
    if target is None and native is None:
        native = {}
    from eqsat.extract import ExtractionError

    try:
        result = optimize_module(
            module,
            budget=budget,
            cost=cost,  # type: ignore[arg-type]
            extra_rule_paths=tuple(args.rules or ()),
            native=native,
            fast_math=args.fast_math or args.reassoc,
            target=target,  # type: ignore[arg-type]
            emit=emit,
            extractor=args.extractor,
        )
    except ExtractionError as e:
        print(f"eqsat: error: {e}", file=sys.stderr)
        return 1
    if args.explain:
        from eqsat.explain import explain

        sys.stdout.write(explain(result, module, fmt=args.format))
    elif machine_code:
        from eqsat.codegen.commands import emit as emit_code

        sys.stdout.write(emit_code(result.module, target, args.emit, args.layout, args.reassoc))
    else:
        sys.stdout.write(print_module(result.module, generic=args.generic))
    if args.dump_egraph:
        _dump_egraph(result, args, cost)
    if args.stats:
        print(result.stats(), file=sys.stderr)
    return 0


def _dump_egraph(result: object, args: argparse.Namespace, cost: object) -> None:
    from eqsat.export import dump

    try:
        egraph, roots = result.egraph, result.roots  # type: ignore[attr-defined]
        dump(egraph, roots, args.dump_egraph, cost)
    except OSError as e:
        raise SystemExit(f"eqsat: error: cannot write {args.dump_egraph}: {e.strerror}") from None


def cmd_targets(args: argparse.Namespace) -> int:
    """List the shipped targets: widths, registers, whether this machine runs their code."""
    from eqsat.targets import builtin_targets, load_target

    print(f"{'target':<10}  {'runs here':<9}  {'bits':>4}  {'regs':>4}  widths (lanes)")
    for name in builtin_targets():
        t = load_target(name)
        widths = " ".join(f"{e}={n}" for e, n in t.width.items())
        runs = "yes" if t.runs_on_host() else "no"
        print(f"{name:<10}  {runs:<9}  {t.vector_bits:>4}  {t.registers:>4}  {widths}")
        if args.verbose:
            print(f"{'':<10}  {t.description}; triple {t.triple}, cpu {t.cpu}")
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
        choices=["vv", "hwv", "llvm", "asm"],
        default=None,
        help="level of the output: vv = virtual vector ops, hwv = the target's hardware ops "
        "(default: hwv with a target, vv otherwise), llvm = LLVM IR, asm = the target's "
        "assembly (both extract at hwv; target avx2 unless given)",
    )
    p.add_argument(
        "--target",
        metavar="NAME|FILE",
        help="extract for this target (eqsat targets lists them; or a target .toml file)",
    )
    p.add_argument(
        "--extractor",
        choices=["tree", "fast", "exact"],
        default=None,
        help="fast = greedy DAG, a shared value paid once (default), exact = ILP over the DAG "
        "(small graphs), tree = optimal tree cost (a shared value paid at every use)",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="print, for each op of the input, the form chosen, its cost, the other forms "
        "and the rules that produced it (instead of the module)",
    )
    p.add_argument("--format", choices=["text", "json"], default="text", help="of --explain")
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
    p.add_argument(
        "--costs",
        metavar="TOML",
        help="a target file of your own ([target], [width], [cost]), or a VV cost table "
        "([ops] Constructor = cost)",
    )
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
    p.add_argument("--layout", choices=["nested", "flat"], default="nested",
                   help="n-D vectors as nested LLVM arrays (default) or flattened (--emit llvm/asm)")
    p.add_argument("--reassoc", action="store_true",
                   help="float reassociation is allowed: fast-math rules, reassoc reductions")
    p.add_argument(
        "--dump-egraph",
        metavar="FILE.json",
        help="write the saturated e-graph in extraction-gym's JSON format",
    )
    p.set_defaults(run=cmd_opt)

    p = sub.add_parser("targets", help="list the targets with their widths")
    p.add_argument("-v", "--verbose", action="store_true", help="also triple, CPU, description")
    p.set_defaults(run=cmd_targets)

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
