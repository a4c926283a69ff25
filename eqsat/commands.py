"""The optimizer's subcommands: ``eqsat opt``, ``eqsat schema``, ``eqsat check-rules``."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from eqsat.cost_options import cost_item, native_spec
from eqsat.inputs import egraph_file, memory_size, positive, positive_seconds, read_input
from eqsat.memory import MemoryBudget, MemoryExceeded, default_limit
from frontend import parse, print_module
from frontend.printer import write_module


def _usage(message: str) -> SystemExit:
    """A usage error (exit 2), printed as argparse prints its own."""
    print(f"eqsat: error: {message}", file=sys.stderr)
    return SystemExit(2)


def _overrides(args: argparse.Namespace, table: dict[str, float], vv: bool) -> dict[str, float]:
    """``--costs`` ``[ops]`` entries, then ``--cost NAME=C`` items (later ones win); for the
    VV model (no target) op names become the constructors it prices."""
    from eqsat.cost_options import vv_name

    overrides = dict(table)
    overrides.update(args.cost or [])
    if not vv:
        return overrides
    out: dict[str, float] = {}
    for name, value in overrides.items():
        cons = vv_name(name)
        if cons is None:
            raise _usage(
                f"--cost {name}: only a target's cost model prices '{name}' (add --target)"
            )
        out[cons] = value
    return out


def _target_and_costs(
    args: argparse.Namespace, emit: str | None, forced: dict[str, float] | None = None
) -> tuple[object | None, object]:
    """The target (``--target``, or a ``--costs`` file with a ``[target]`` section) and the
    cost model: the target's, or the VV model, with ``forced`` (the module's transform script),
    then ``--costs [ops]``, then ``--cost`` (later ones win)."""
    import tomllib

    from eqsat.cost import vv_cost
    from eqsat.cost_options import load_vv_costs
    from eqsat.targets import load_target

    target = load_target(args.target) if args.target else None
    table: dict[str, float] = dict(forced or {})
    if args.costs:
        try:
            with open(args.costs, "rb") as f:
                raw = f.read()
            text = raw.decode("utf-8")
            data = tomllib.loads(text)
            is_target = "target" in data
        except OSError as e:
            raise SystemExit(f"eqsat: error: cannot read cost table {args.costs}: {e}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            is_target = True  # let the target loader report it at its line
        if is_target:
            target = load_target(args.costs)
        else:
            table.update(load_vv_costs(args.costs, data, text))
    overrides = _overrides(args, table, vv=target is None)
    if target is not None:
        level = emit or "hwv"  # hwv is the default with a target
        reassoc = getattr(args, "fast_math", False) or getattr(args, "reassoc", False)
        return target, target.cost_model(overrides, level, reassoc)  # type: ignore[attr-defined]
    return None, vv_cost(overrides)


def cmd_opt(args: argparse.Namespace) -> int:
    memory = MemoryBudget(args.max_memory)
    try:
        return _opt(args, memory)
    except MemoryExceeded as e:
        print(f"eqsat: error: {e}", file=sys.stderr)
        return 1
    except MemoryError:  # an allocation failed under the hard limit, between two checks
        print(f"eqsat: error: {MemoryExceeded(memory.limit, 'opt')} "
              "(an allocation failed)", file=sys.stderr)
        return 1


def _opt(args: argparse.Namespace, memory: MemoryBudget) -> int:
    from eqsat.cost_options import CostFileError
    from eqsat.forced_strategies import module_cost_overrides
    from eqsat.optimizer import Budget, optimize_module
    from eqsat.targets import TargetError
    from eqsat.targets.target import UnknownTarget
    from eqsat.windows import WINDOW_OPS

    text, name = read_input(args.file)
    try:
        module = parse(text, name)
    except MemoryError:
        raise MemoryExceeded(memory.limit, "parse", f"of {name}") from None
    memory.check("parse", f"of {name}")
    forced = module_cost_overrides(module)  # lowering choices of a transform.named_sequence
    machine_code = args.emit in ("llvm", "asm")
    if machine_code and not args.target and not args.costs:
        args.target = "avx2"  # LLVM IR and assembly are always for some target
    try:
        target, cost = _target_and_costs(args, "hwv" if machine_code else args.emit, forced)
    except (TargetError, CostFileError) as e:
        print(str(e), file=sys.stderr)
        return 2 if isinstance(e, UnknownTarget) else 1
    emit = "hwv" if machine_code else args.emit or ("hwv" if target is not None else "vv")
    if emit == "hwv" and target is None:
        print("eqsat: error: --emit hwv needs a --target (or a --costs target file)",
              file=sys.stderr)  # fmt: skip
        return 2
    budget = Budget(
        iterations=args.max_iterations,
        nodes=args.max_nodes,
        seconds=args.max_seconds,
        memory=memory,
        # --explain and --dump-egraph describe one e-graph of the whole program
        window=0 if args.explain or args.dump_egraph else WINDOW_OPS,
        ahead=not args.single_process,
    )
    native = args.native or None
    if target is None and native is None:
        native = {}
    from eqsat.extract import ExtractionError
    from eqsat.optimizer import IllTypedRuleError, OptionError

    if args.dump_egraph:
        from eqsat.export import ExportError, graphviz_dot

        try:
            graphviz_dot(args.dump_egraph)
        except ExportError as e:
            raise SystemExit(f"eqsat: error: --dump-egraph {args.dump_egraph}: {e}") from None
    out = _output(args)
    try:
        result = optimize_module(
            module,
            budget=budget,
            cost=cost,  # type: ignore[arg-type]
            extra_rule_paths=tuple(args.rules or ()),
            native=native,
            fast_math=args.fast_math or args.reassoc,
            fp_contract=args.fp_contract,
            target=target,  # type: ignore[arg-type]
            emit=emit,
            extractor=args.extractor,
            rules_phase=args.rules_phase,
            disabled=frozenset(args.disable_rule or ()),
            phases=_phase_list(args.phases),
            after_phase=_printer(args, out),
            keep_rounds=args.explain,
        )
    except OptionError as e:
        raise _usage(str(e)) from None
    except (ExtractionError, IllTypedRuleError) as e:
        print(f"eqsat: error: {e}", file=sys.stderr)
        return 1
    if args.explain:
        from eqsat.explain import explain

        out.write(explain(result, module, fmt=args.format))
    elif machine_code:
        from eqsat.codegen.commands import emit as emit_code

        out.write(emit_code(result.module, target, args.emit, args.layout, args.reassoc,
                            args.fp_contract))  # fmt: skip
    else:
        try:
            write_module(result.module, out, generic=args.generic, ready=result.printed)
        except MemoryError:
            raise MemoryExceeded(memory.limit, "print") from None
        memory.check("print")
    if out is not sys.stdout:
        out.close()
    if args.dump_egraph:
        _dump_egraph(result, args, cost)
    if args.stats:
        print(result.stats(), file=sys.stderr)
    return 0


def _output(args: argparse.Namespace) -> TextIO:
    """Where ``opt`` writes its result: ``-o FILE`` (opened before the work starts, so an
    unwritable path fails fast) or stdout."""
    if not args.output or args.output == "-":
        return sys.stdout
    try:
        return open(args.output, "w", encoding="utf-8")
    except OSError as e:
        raise SystemExit(f"eqsat: error: cannot write {args.output}: {e.strerror}") from None


def _phase_list(text: str | None) -> tuple[str, ...] | None:
    """``--phases canonicalize,explore`` -> the phases to run (None: all)."""
    if text is None:
        return None
    return tuple(p.strip() for p in text.split(",") if p.strip())


def _printer(args: argparse.Namespace, out: TextIO) -> object:
    """The ``after_phase`` hook of ``--print-after PHASE`` / ``--print-after-all``: the
    extracted program after each chosen phase, as a comment-headed module on stderr."""
    wanted = set(args.print_after or ())
    if not wanted and not args.print_after_all:
        return None
    from eqsat.optimizer import RULE_PHASES

    for name in wanted - set(RULE_PHASES):
        raise _usage(
            f"--print-after: unknown phase {name!r} (phases: {', '.join(RULE_PHASES)})"
        )

    def show(phase: str, module: object) -> None:
        if not args.print_after_all and phase not in wanted:
            return
        print(f"// -----// IR after phase {phase} //----- //", file=sys.stderr)
        if isinstance(module, str):
            print(f"// {module}", file=sys.stderr)
        else:
            sys.stderr.write(print_module(module, generic=args.generic))  # type: ignore[arg-type]

    return show


def _dump_egraph(result: object, args: argparse.Namespace, cost: object) -> None:
    from eqsat.export import dump

    from eqsat.export import ExportError

    try:
        egraph, roots = result.egraph, result.roots  # type: ignore[attr-defined]
        dump(egraph, roots, args.dump_egraph, cost)
    except OSError as e:
        raise SystemExit(f"eqsat: error: cannot write {args.dump_egraph}: {e.strerror}") from None
    except ExportError as e:
        raise SystemExit(f"eqsat: error: --dump-egraph {args.dump_egraph}: {e}") from None


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
    from eqsat.optimizer import default_rule_files
    from eqsat.rulefile import load

    for path in args.corpus:
        if path.endswith(".egg"):
            raise _usage(
                f"check-rules: {path} is a rule file; pass it as --rules {path} (the "
                "positional arguments are the MLIR programs to check the rules on)"
            )
    corpus = args.corpus or default_corpus()
    if args.rules:
        mine = [load(p) for p in args.rules]
        context = [rf for group in default_rule_files().values() for rf in group]
        report = check_rules(corpus, mine, args.trials, args.seed, context=context,
                             strict=bool(args.corpus))  # fmt: skip
    else:
        report = check_rules(corpus, trials=args.trials, seed=args.seed, strict=bool(args.corpus))
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
        help="a rule file (.egg) of your own (repeatable); its rules join phase --rules-phase",
    )
    p.add_argument(
        "--rules-phase",
        choices=["canonicalize", "explore", "legalize"],
        default=None,
        help="the phase --rules files join (default: the file's directory name when it sits "
        "in rules/<phase>/, else explore, so that what a rule builds is explored and lowered)",
    )
    p.add_argument(
        "--disable-rule",
        action="append",
        metavar="NAME",
        help="leave out a rule (its :name, or FILE.egg:LINE) or a whole ruleset (repeatable)",
    )
    p.add_argument(
        "--phases",
        metavar="LIST",
        help="comma-separated phases to run (default: canonicalize,explore and, with a "
        "target at hwv, legalize)",
    )
    p.add_argument(
        "--print-after",
        action="append",
        metavar="PHASE",
        help="print the program extracted after this phase to stderr (repeatable)",
    )
    p.add_argument(
        "--print-after-all",
        action="store_true",
        help="print the program extracted after every phase to stderr",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the result here (default: stdout)")
    p.add_argument(
        "--costs",
        metavar="TOML",
        help="a target file of your own ([target], [width], [cost]), or a VV cost table "
        "([ops] Constructor = cost)",
    )
    p.add_argument(
        "--cost",
        action="append",
        type=cost_item,
        metavar="NAME=COST",
        help="override the cost of one constructor or op, e.g. Transpose=100 or "
        "vector.transpose=0.25 (a number >= 0; inf forbids it)",
    )
    p.add_argument(
        "--native",
        type=native_spec,
        metavar="ELEM=LANES,...",
        help="native vector width per element type, enables unrolling (f32=8)",
    )
    p.add_argument("--fast-math", action="store_true",
                   help="also use rules exact only up to float reassociation (rules/fast-math)")
    p.add_argument("--fp-contract", action="store_true",
                   help="fp-contract mode: a float vector.contract<add> fuses each multiply-add "
                   "(as eqsat run --fp-contract); only lowerings with those bits (rules/"
                   "fp-contract) are explored")
    p.add_argument("--max-iterations", type=positive, default=30, help="per phase (default 30)")
    p.add_argument("--max-nodes", type=positive, default=100_000,
                   help="per phase (default 100000)")
    p.add_argument("--max-seconds", type=positive_seconds, default=5.0,
                   help="per phase (default 5)")
    p.add_argument("--max-memory", type=memory_size, default=default_limit(), metavar="SIZE",
                   help="resident memory budget, e.g. 4G or 500M (default: a third of physical "
                   "memory, at most 8G); past it every phase stops with a located error, "
                   "saturation at half of it with stop reason 'memory'")
    p.add_argument("--single-process", action="store_true",
                   help="extract every window of a long function in this process (default: a "
                   "second process extracts the windows ahead of decoding, eqsat.ahead)")
    p.add_argument("--generic", action="store_true", help="print every op in generic form")
    p.add_argument("--layout", choices=["nested", "flat"], default="nested",
                   help="n-D vectors as nested LLVM arrays (default) or flattened (--emit llvm/asm)")
    p.add_argument("--reassoc", action="store_true",
                   help="float reassociation is allowed: fast-math rules, reassoc reductions")
    p.add_argument(
        "--dump-egraph",
        metavar="G.json|G.dot|G.svg",
        type=egraph_file,
        help="write the saturated e-graph: extraction-gym's JSON, or a picture for small "
        "programs (Graphviz DOT; SVG runs Graphviz's dot, which must be installed)",
    )
    p.set_defaults(run=cmd_opt)

    p = sub.add_parser("targets", help="list the targets with their widths")
    p.add_argument("-v", "--verbose", action="store_true", help="also triple, CPU, description")
    p.set_defaults(run=cmd_targets)

    p = sub.add_parser("schema", help="print the e-graph schema rule files are written against")
    p.set_defaults(run=cmd_schema)

    p = sub.add_parser(
        "check-rules",
        help="validate rules on a corpus with the reference interpreter (all of rules/, or "
        "--rules FILE.egg)",
    )
    p.add_argument("corpus", nargs="*", help="MLIR files (default: the bundled rule corpus)")
    p.add_argument(
        "--rules",
        action="append",
        metavar="FILE.egg",
        help="check only the rules of this file (repeatable); the built-in rules run alongside "
        "without being checked",
    )
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
