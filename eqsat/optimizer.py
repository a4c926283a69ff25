"""The optimizer pipeline: encode every block, saturate the rule phases, extract, decode.

``optimize_module`` is what ``eqsat opt`` runs. All blocks of a module (function bodies and,
as blocks of their own, the bodies of loops, conditionals and masks) share one e-graph, each
with its own root, so a rule fires once for every place it applies.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from eqsat.cost import CostModel, vv_cost
from eqsat.decode import Decoder
from eqsat.egraph import EGraph
from eqsat.encode import EncodedBlock, Encoder
from eqsat.ahead import Ahead, pack_terms, unpack_terms
from eqsat.extract import Extraction, ExtractionError, Snapshot, Term
from eqsat.hoist import hoist_module
from eqsat.pack import pack_module
from eqsat.unroll_loops import FACTOR, unroll_module
from eqsat.rulefile import RuleFile, load, phase_files
from frontend.errors import did_you_mean
from eqsat.saturate import Phase, SaturationReport, saturate
from eqsat.schema import schema_text
from frontend import parse
from frontend.errors import MLIRError
from eqsat.memory import MiB, MemoryBudget, MemoryExceeded, peak_rss, rss, rss_of
from eqsat.windows import WINDOW_OPS, Window, merge_reports, plan_windows
from frontend.ir import Block, Module, Operation, Region, Value, gc_paused, gc_settling
from frontend.printer import PrintedBody, print_module
from frontend.verifier import symbol_table, verify_module, verify_ops

PHASES = ("canonicalize", "explore")
# Rules from VV ops on native tiles to a target's HWV ops: run after explore at --emit hwv.
LEGALIZE = "legalize"
# Extractors: "fast" (greedy DAG: a shared value is paid once; the default), "tree" (optimal tree
# cost: a shared value is paid at every use, which grows exponentially with reuse), "exact" (ILP
# over the DAG, eqsat.extract_exact; small graphs only).
EXTRACTORS = ("tree", "fast", "exact")
# Rules exact only up to float reassociation: with --fast-math they join the explore phase.
FAST_MATH = "fast-math"
# fp-contract mode (a float contract<add> fuses each multiply-add, frontend.semantics_vector
# .contract(fused=True)): these rules join the explore phase, and the rules below, whose
# lowerings round each product (or which read rounded products as a contraction), are left out.
FP_CONTRACT = "fp-contract"
FP_CONTRACT_LEFT_OUT = frozenset({
    "contract-as-dot",
    "contract-to-scalar-as-dot",
    "contract-as-parallel-arith",
    "contract-to-scalar-as-parallel-arith",
    "contract-matmul-as-outerproducts",
    "contract-matvec-as-outerproducts",
    "multi-reduce-mulf-to-contract-1",
    "multi-reduce-mulf-to-contract-2",
    "multi-reduce-mulf-to-contract-3",
})  # fmt: skip
# The phases a user rule file may join (``--rules-phase``), in the order they run.
RULE_PHASES = (*PHASES, LEGALIZE)
# Called with a phase name and the program extracted after it (or why none could be).
type PhaseHook = Callable[[str, Module | str], None]


class OptionError(ValueError):
    """An option names a phase or rule that does not exist (a usage error)."""


class IllTypedRuleError(Exception):
    """A user rule unioned terms of different types: the extracted program does not verify."""


class TargetLike(Protocol):
    """What the pipeline needs of a target (``eqsat.targets.Target``; the targets floor sits
    above this module, so it is described here rather than imported)."""

    width: Mapping[str, int]
    legalize: tuple[str, ...]

    def cost_model(
        self, overrides: Mapping[str, float] | None = None, emit: str = "vv"
    ) -> CostModel: ...


@dataclass
class Budget:
    """Per-phase limits (egg-style runner limits; see ``eqsat.saturate``)."""

    iterations: int = 30
    nodes: int = 100_000
    seconds: float = 5.0
    match_limit: int | None = 1000
    ban_length: int = 5
    # Resident-size budget (None: unchecked), and the ops per window of a long body (0: whole).
    memory: MemoryBudget | None = None
    window: int = WINDOW_OPS
    # Windows extracted in a second process while this one decodes (``eqsat.ahead``): it
    # takes them from the front, this one from the back when it has caught up.
    ahead: bool = True


@dataclass
class OptimizeResult:
    module: Module
    report: SaturationReport
    rule_files: tuple[RuleFile, ...]
    seconds: dict[str, float] = field(default_factory=dict)
    cost: float = 0.0
    egraph: EGraph | None = None
    roots: tuple[str, ...] = ()  # egglog names of the blocks' roots in ``egraph`` (``$root0``)
    # For explanations: the snapshot extracted from, each block's extraction and encoding.
    snapshot: Snapshot | None = None
    extractions: dict[int, Extraction] = field(default_factory=dict)
    encoder: Encoder | None = None
    cost_model: CostModel | None = None
    windows: int = 1  # e-graphs the program was optimized in (eqsat.windows)
    # How the windows were extracted in a second process (eqsat.ahead; "" when they were not).
    ahead: str = ""
    # Bodies printed as they were built (frontend.printer.PrintedBody), by id of their block:
    # for ``print_module(result.module, ready=result.printed)``.
    printed: dict[int, PrintedBody] = field(default_factory=dict)
    # The later rounds: what each round's extraction chose (their e-graphs and snapshots
    # only with ``optimize_module(..., keep_rounds=True)``, for explanations).
    later_rounds: tuple[OptimizeResult, ...] = ()

    def stats(self) -> str:
        labels: dict[str, str] = {}
        for rf in self.rule_files:
            labels.update(rf.labels())
        # The typing analysis runs in every phase; its rows would drown the rules' own.
        lines = [
            line
            for line in self.report.format(labels).splitlines()
            if not line.lstrip().startswith("type-of-")
        ]
        lines.append(
            "timing: "
            + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in self.seconds.items())
            + f"; extracted cost {self.cost:g}"
        )
        if self.windows > 1:  # eqsat.windows: the phase lines above sum over the windows
            lines.append(f"windows: {self.windows} e-graphs of at most one window of ops each"
                         + (f", {self.ahead}" if self.ahead else ""))
        return "\n".join(lines)


def native_tile_facts(module: Module, native: dict[str, int]) -> str:
    """``NativeTile``/``TileCount`` for every vector type of the program that one hardware
    vector of ``native[elem]`` lanes divides: the tile is (1, ..., 1, lanes)."""
    from eqsat.encode import encode_type, ivec
    from frontend.types import VectorType

    facts = []
    seen = set()
    for op in module.walk():
        for r in op.results:
            t = r.type
            if not isinstance(t, VectorType) or t.is_scalable or t in seen or t.rank == 0:
                continue
            seen.add(t)
            lanes = native.get(str(t.element))
            if not lanes or t.shape[-1] % lanes or t.num_elements() <= lanes:
                continue
            tile = (1,) * (t.rank - 1) + (lanes,)
            facts.append(f"(set (NativeTile {encode_type(t)}) {ivec(tile)})")
            facts.append(f"(set (TileCount {encode_type(t)}) {t.num_elements() // lanes})")
    return "\n".join(facts) + "\n"


def default_rule_files(
    phases: tuple[str, ...] = PHASES, fast_math: bool = False, fp_contract: bool = False
) -> dict[str, tuple[RuleFile, ...]]:
    rules = {p: phase_files(p) for p in phases}
    if fast_math and "explore" in rules:
        rules["explore"] = rules["explore"] + phase_files(FAST_MATH)
    if fp_contract and "explore" in rules:
        rules["explore"] = rules["explore"] + phase_files(FP_CONTRACT)
    return rules


def fp_contract_rules(
    rules: dict[str, tuple[RuleFile, ...]],
) -> dict[str, tuple[RuleFile, ...]]:
    """``rules`` as fp-contract mode runs them: without ``FP_CONTRACT_LEFT_OUT``."""
    return {phase: tuple(rf.without(set(FP_CONTRACT_LEFT_OUT)) for rf in group)
            for phase, group in rules.items()}  # fmt: skip


def legalize_files(names: tuple[str, ...] = (), fast_math: bool = False) -> tuple[RuleFile, ...]:
    """The legalize rule files a target names (``rules/legalize/<name>.egg``; all exact ones
    when it names none), and with ``fast_math`` also each ``<name>-fast-math.egg`` that exists
    (rules exact only up to float reassociation). A missing directory means no such rules."""
    try:
        files = phase_files(LEGALIZE)
    except FileNotFoundError:
        return ()
    exact = {f.path.stem for f in files if not f.path.stem.endswith("-fast-math")}
    wanted = set(names) if names else exact
    if fast_math:
        wanted |= {f"{n}-fast-math" for n in wanted}
    return tuple(f for f in files if f.path.stem in wanted)


def rules_phase_of(path: str | Path, given: str | None = None) -> str:
    """The phase a user rule file joins: ``given``, else the directory it sits in when that is
    ``rules/<phase>/``, else ``explore`` (so what the rule builds is explored and lowered)."""
    if given is not None:
        if given not in RULE_PHASES:
            raise OptionError(
                f"unknown rules phase {given!r}{did_you_mean(given, frozenset(RULE_PHASES))} "
                f"(phases: {', '.join(RULE_PHASES)})"
            )
        return given
    parent = Path(path).resolve().parent
    if parent.name in RULE_PHASES and parent.parent.name == "rules":
        return parent.name
    return "explore"


def _disable(
    rules: dict[str, tuple[RuleFile, ...]], names: frozenset[str]
) -> dict[str, tuple[RuleFile, ...]]:
    """``rules`` without the rules named (by label, or all of a named ruleset)."""
    known = {r.label for g in rules.values() for rf in g for r in rf.rules}
    rulesets = {rs for g in rules.values() for rf in g for rs in rf.rulesets}
    for name in sorted(names - known - rulesets):
        raise OptionError(
            f"--disable-rule {name}: no rule or ruleset of that name"
            f"{did_you_mean(name, frozenset(known | rulesets))}"
        )
    return {
        phase: tuple(
            rf.without({r.label for r in rf.rules if r.label in names or r.ruleset in names})
            for rf in group
        )
        for phase, group in rules.items()
    }


def optimize_module(
    module: Module,
    rules: dict[str, tuple[RuleFile, ...]] | None = None,
    budget: Budget | None = None,
    cost: CostModel | None = None,
    extra_rule_paths: tuple[str | Path, ...] = (),
    native: dict[str, int] | None = None,
    fast_math: bool = False,
    target: TargetLike | None = None,
    emit: str = "vv",
    extractor: str | None = None,
    rounds: int | None = None,
    rules_phase: str | None = None,
    disabled: frozenset[str] = frozenset(),
    phases: tuple[str, ...] | None = None,
    after_phase: PhaseHook | None = None,
    keep_rounds: bool = False,
    hoist: bool = True,
    fp_contract: bool = False,
    unroll: int = FACTOR,
    pack: bool = True,
) -> OptimizeResult:
    """Optimize every function body of ``module``; returns a new, verified module.

    ``extra_rule_paths`` are rule files of your own; each joins phase ``rules_phase`` (see
    ``rules_phase_of``). ``disabled`` names rules (or rulesets) to leave out; ``phases`` the
    phases to run (default all); ``after_phase`` sees the program extracted after each phase
    of the first round; ``keep_rounds`` keeps the later rounds' e-graphs (for ``--explain``).

    With a ``target``: its cost model prices the extraction (unless ``cost`` is given), its
    widths set the native tiles (unless ``native`` is given), extraction is DAG-aware (unless
    ``extractor`` says otherwise), and ``emit="hwv"`` adds the target's legalize rules.

    A lowering strategy expands after extraction, and may emit compound ops of its own (the
    outer-product lowering transposes its operands). When it did, the program is optimized
    again so that those ops get their own choice too (a 16x16 transpose its shuffle sequence),
    up to ``rounds`` times (default 2 with a target, whose costs tell lowerings apart; else 1).
    Saturation stats describe the first round, explanations every round (``later_rounds``);
    ``cost`` is the last one's.

    With ``hoist`` (the default), loops first copy strided panels they read again and again
    into contiguous buffers (``eqsat.pack``), keep their accumulator tiles in registers and
    read invariant tiles once (``eqsat.hoist``), on a copy: ``module`` is left as it is
    (``pack=False``: no packing).

    ``fp_contract``: the program's float contractions fuse each multiply-add (fp-contract
    mode, ``FP_CONTRACT``): only lowerings that compute those bits are explored; run or compile
    the result in the same mode.

    ``unroll`` (default 4; 0 or 1: off): the optimized program's innermost loops of constant
    trip count are unrolled by that factor (``eqsat.unroll_loops``: the same ops in the same
    order, after saturation so that the e-graph sees the short body)."""
    if isinstance(target, str):
        raise TypeError(
            f"optimize_module takes a Target object (eqsat.targets.load_target({target!r})); "
            f"eqsat.optimize(module, target={target!r}) takes target names"
        )
    if hoist:
        module = hoisted(module, pack)
    budget = budget or Budget()
    rules = (
        dict(rules) if rules is not None
        else default_rule_files(fast_math=fast_math, fp_contract=fp_contract)
    )  # fmt: skip
    if fp_contract:
        rules = fp_contract_rules(rules)
    if target is not None:
        cost = cost or target.cost_model(emit=emit, reassoc=fast_math)
        native = native if native is not None else dict(target.width)
        if emit == "hwv":
            rules[LEGALIZE] = rules.get(LEGALIZE, ()) + legalize_files(
                target.legalize, fast_math
            )
    extractor = extractor or "fast"
    if extractor not in EXTRACTORS:
        raise ValueError(f"unknown extractor {extractor!r} (known: {', '.join(EXTRACTORS)})")
    user: list[RuleFile] = []
    for p in extra_rule_paths:
        rf = load(p)
        phase = rules_phase_of(rf.path, rules_phase)
        rules[phase] = rules.get(phase, ()) + (rf,)
        user.append(rf)
    if LEGALIZE in rules:  # legalize runs last, whoever added it
        rules[LEGALIZE] = rules.pop(LEGALIZE)
    if disabled:
        rules = _disable(rules, disabled)
    if phases is not None:
        for name in phases:
            if name not in RULE_PHASES:
                raise OptionError(
                    f"--phases: unknown phase {name!r}"
                    f"{did_you_mean(name, frozenset(RULE_PHASES))} "
                    f"(phases: {', '.join(RULE_PHASES)})"
                )
        rules = {k: v for k, v in rules.items() if k in phases}
    settings = (rules, budget, cost or vv_cost(), native, extractor)  # read once, every round
    result = _optimize_once(module, *settings, user=tuple(user), after_phase=after_phase)
    for _ in range((rounds if rounds is not None else 2 if target is not None else 1) - 1):
        if not _new_compound_ops(module, result.module):
            break
        again = _optimize_once(result.module, *settings, user=tuple(user))
        seconds = dict(result.seconds)
        seconds["next round"] = seconds.get("next round", 0.0) + sum(again.seconds.values())
        kept = again if keep_rounds else replace(again, egraph=None, snapshot=None)
        result = replace(result, module=again.module, cost=again.cost, seconds=seconds,
                         later_rounds=result.later_rounds + (kept,))
    if unroll > 1 and unroll_module(result.module, unroll):
        verify_module(result.module)
    return result


def loop_level(module: Module, unroll: int = FACTOR) -> Module:
    """``module`` after the loop-level passes ``optimize_module`` runs on every program (its
    packing and hoisting, and its unrolling by ``unroll``), on a copy: what a rival pipeline
    is given to compare like with like (``experiments/kernels_e2e``)."""
    copy = parse(print_module(hoisted(module)), module.source)
    if unroll > 1:
        unroll_module(copy, unroll)
    return copy


def hoisted(module: Module, pack: bool = True) -> Module:
    """``module`` with ``eqsat.pack`` (if ``pack``) then ``eqsat.hoist`` applied to a copy;
    ``module`` itself when neither changes anything (or there is no loop)."""
    if not any(op.name == "scf.for" for op in module.walk()):
        return module
    copy = parse(print_module(module), module.source)
    packed = pack_module(copy) if pack else 0
    return copy if hoist_module(copy) + packed else module


# The ops whose lowering MLIR leaves to a strategy flag (lower_contraction, lower_transpose,
# lower_multi_reduction): when an expansion emits more of them, a second round chooses theirs.
COMPOUND_OPS = frozenset({"vector.contract", "vector.transpose", "vector.multi_reduction"})


def _new_compound_ops(before: Module, after: Module) -> bool:
    """Whether ``after`` holds more of some compound op than ``before`` did."""

    def counts(m: Module) -> Counter[str]:
        return Counter(op.name for op in m.walk() if op.name in COMPOUND_OPS)

    old = counts(before)
    return any(n > old[name] for name, n in counts(after).items())


def _optimize_once(
    module: Module,
    rules: dict[str, tuple[RuleFile, ...]],
    budget: Budget,
    cost: CostModel,
    native: dict[str, int] | None,
    extractor: str,
    user: tuple[RuleFile, ...] = (),
    after_phase: PhaseHook | None = None,
    keep_rounds: bool = False,
) -> OptimizeResult:
    """One round: encode, saturate, extract and decode every function body. A body longer
    than ``budget.window`` ops is optimized a window at a time (``_optimize_windowed``)."""
    funcs = [
        op for op in module.ops if op.name == "func.func" and op.regions and op.regions[0].blocks
    ]
    if budget.window and after_phase is None:
        plans = {id(f): plan_windows(f.regions[0].blocks[0], budget.window) for f in funcs}
        if any(len(p) > 1 for p in plans.values()):
            return _optimize_windowed(module, funcs, plans, rules, budget, cost, native,
                                      extractor, user)
    memory = budget.memory
    t0 = time.perf_counter()
    enc = Encoder(memory)
    encoded = {id(op): enc.encode_block(op.regions[0].blocks[0]) for op in funcs}
    eg = EGraph()
    eg.run(schema_text(), "<schema>")
    files = tuple(rf for group in rules.values() for rf in group)
    for rf in files:
        rf.install(eg)
    _load(eg, enc, memory, _where([(funcs[0], None)]) if funcs else "")
    if native:
        eg.run(native_tile_facts(module, native), "<native tiles>")
    t1 = time.perf_counter()
    phases = _phases(rules, budget)
    if after_phase is None:
        report = saturate(eg, phases)
    else:  # one phase at a time, extracting after each
        reports = []
        for phase in phases:
            reports.extend(saturate(eg, phase).phases)
            try:
                now = _extract(eg, enc, encoded, module, cost, extractor, user, memory)[0]
            except (ExtractionError, MLIRError, IllTypedRuleError) as e:
                now = f"no program to extract: {str(e).splitlines()[0]}"
            after_phase(phase.name, now)
        report = SaturationReport(tuple(reports))
    t2 = time.perf_counter()
    out, snap, extractions, total, decode, pressure = _extract(
        eg, enc, encoded, module, cost, extractor, user, memory
    )
    t3 = time.perf_counter()
    return OptimizeResult(
        out,
        report,
        files,
        {
            "encode": t1 - t0,
            "saturate": t2 - t1,
            "extract": t3 - t2 - decode - pressure,
            "pressure": pressure,
            "decode": decode,
        },
        total,
        eg,
        tuple(b.root for b in enc.blocks),
        snap,
        extractions,
        enc,
        cost,
    )


def _extract_root(
    snap: Snapshot, root: str, cost: CostModel, extractor: str, memory: MemoryBudget | None
) -> tuple[Extraction, float]:
    """One block's cheapest program, refined against the target's register pressure where
    the cost model has that term (``program_cost``); also the seconds the refinement took."""
    program = getattr(cost, "program_cost", None)
    # With a refinement to come, the greedy DAG search runs on past the root: the refinement
    # starts from its choice for every e-class (one search instead of two).
    every: dict[int, int] | None = (
        {} if program is not None and extractor == "fast" else None
    )
    if extractor == "exact":
        from eqsat.extract_exact import extract_exact

        ex = extract_exact(snap, root, cost)
    else:
        ex = snap.extract(root, cost, dag=extractor == "fast", budget=memory, every=every)
    if program is None or extractor == "tree":
        return ex, 0.0
    from eqsat.extract_refine import refine

    t0 = time.perf_counter()
    ex = refine(snap, snap.root(root), cost, ex, program, cost.class_registers(snap), every)
    return ex, time.perf_counter() - t0


def _extract(
    eg: EGraph,
    enc: Encoder,
    encoded: dict[int, object],
    module: Module,
    cost: CostModel,
    extractor: str,
    user: tuple[RuleFile, ...] = (),
    memory: MemoryBudget | None = None,
) -> tuple[Module, Snapshot, dict[int, Extraction], float, float, float]:
    """Extract every block's root from ``eg`` and decode them into a new, verified module;
    also the seconds decoding took and those the pressure refinement took."""
    snap = Snapshot(eg)
    roots = {}
    extractions = {}
    total = 0.0
    refine_s = 0.0
    for b in enc.blocks:
        try:
            ex, dt = _extract_root(snap, b.root, cost, extractor, memory)
        except ExtractionError as e:
            raise ExtractionError(f"{_function_of(b.block)}: {e}") from None
        refine_s += dt
        roots[b.index] = ex.term
        extractions[b.index] = ex
        total += ex.cost
    t0 = time.perf_counter()
    decoder = Decoder(roots, memory)
    out = Module([], dict(module.attributes), module.name, module.source)
    with gc_paused():  # decoding makes tens of thousands of ops and no garbage
        for op in module.ops:
            e = encoded.get(id(op))
            if e is None:
                out.body.append(op)
                continue
            old_block = op.regions[0].blocks[0]
            block = Block([a.type for a in old_block.args])
            decoder.decode_block(e, block, {})
            new = Operation(op.name, [], [], dict(op.attributes), [Region([block])], op.loc)
            out.body.append(new)
        _verify(out, user, snap)
    return out, snap, extractions, total, time.perf_counter() - t0, refine_s


def _function_of(block: Block) -> str:
    """Which function a block belongs to, for messages: ``@name (FILE:LINE:COL)``."""
    region = block.parent
    op = region.parent if region is not None else None
    while op is not None and op.name != "func.func":
        outer = op.parent.parent if op.parent is not None else None
        op = outer.parent if outer is not None else None
    if op is None:
        return "a block outside every function"
    name = op.attributes.get("sym_name")
    label = f"@{name.value}" if name is not None and hasattr(name, "value") else "a function"
    return f"{label} ({op.loc})" if op.loc is not None else label


def _verify(
    out: Module,
    user: tuple[RuleFile, ...],
    snap: Snapshot | None = None,
    verified: dict[int, int] | None = None,
    ops: list[Operation] | None = None,
    symbols: dict[str, Operation] | None = None,
    keys: dict[int, tuple[Any, ...]] | None = None,
) -> None:
    """Verify the extracted program (but the first ops of the blocks in ``verified``:
    ``verify_module``), or with ``ops`` only those
    ops, ahead of the program (``symbols``: its symbols; ``keys`` receives their signatures,
    ``verify_ops``); a failure with user rules is theirs (ill-typed)."""
    try:
        if ops is None:
            verify_module(out, verified)
        else:
            verify_ops(ops, symbols or {}, keys)
    except MLIRError as e:
        if not user:
            raise
        names = ", ".join(str(rf.path) for rf in user)
        first = f" --rules {user[0].path}"
        raise IllTypedRuleError(
            f"the program extracted with the rules of {names} does not verify "
            f"({str(e).splitlines()[0]}): a rule there unions terms of different types"
            f"{_type_clash(snap, user) if snap is not None else ''}; "
            f"`eqsat check-rules{first}` names it and both types"
        ) from None


def _type_clash(snap: Snapshot, user: tuple[RuleFile, ...]) -> str:
    """Where the graph holds one value at two types: ``" (X of T1 and Y of T2 are one value;
    rules that build or read them: ...)"``, or "" when no e-class shows it."""
    types = snap._type_terms
    seen: dict[int, tuple[str, tuple[object, ...]]] = {}
    for node, kids in enumerate(snap.kids):
        t = next((types[k] for k in kids if k in types), None)
        if t is None:
            continue
        cls = snap.owner[node]
        other = seen.setdefault(cls, (snap.ops[node], t))
        if other[1] != t:
            pair = {other[0], snap.ops[node]}
            rules = [r.label for rf in user for r in rf.rules
                     if (r.builds | r.reads) & pair or not r.builds]  # fmt: skip
            said = f"; rules that build or read them: {', '.join(rules)}" if rules else ""
            return (
                f" ({other[0]} of {_type_name(other[1])} and {snap.ops[node]} of "
                f"{_type_name(t)} are one value{said})"
            )
    return ""


def _type_name(t: tuple[object, ...]) -> str:
    """``("type", (4, 8), "f32")`` -> ``vector<4x8xf32>``; ``("type", "f32")`` -> ``f32``."""
    if len(t) == 3:
        shape = "x".join(str(d) for d in t[1])  # type: ignore[union-attr]
        return f"vector<{shape}x{t[2]}>"
    return str(t[1])


def _phases(rules: dict[str, tuple[RuleFile, ...]], budget: Budget) -> list[Phase]:
    return [
        Phase(
            name,
            ("typing",) + tuple(rs for rf in group for rs in rf.rulesets),
            max_iterations=budget.iterations,
            node_limit=budget.nodes,
            time_limit=budget.seconds,
            match_limit=budget.match_limit,
            ban_length=budget.ban_length,
            memory=budget.memory,
        )
        for name, group in rules.items()
        if any(rf.rulesets for rf in group)
    ]


def _optimize_windowed(
    module: Module,
    funcs: list[Operation],
    plans: dict[int, list[Window]],
    rules: dict[str, tuple[RuleFile, ...]],
    budget: Budget,
    cost: CostModel,
    native: dict[str, int] | None,
    extractor: str,
    user: tuple[RuleFile, ...],
) -> OptimizeResult:
    """``_optimize_once`` for a module with a body longer than one window (``eqsat.windows``):
    the short bodies together, then each window of the long ones, each piece in an e-graph of
    its own, the memory budget checked between pieces. With ``budget.ahead`` a second process
    extracts the pieces ahead of this one's decoding, which extracts the last pieces itself
    when it has caught up (``eqsat.ahead``). The result has no
    e-graph or snapshot (there is none of the whole program)."""
    memory = budget.memory
    seconds = dict.fromkeys(("encode", "saturate", "extract", "decode"), 0.0)
    files = tuple(rf for group in rules.values() for rf in group)
    phases = _phases(rules, budget)
    blocks = {id(f): Block([a.type for a in f.regions[0].blocks[0].args]) for f in funcs}
    outer: dict[int, dict[int, Value]] = {
        id(f): {id(a): n for a, n in zip(f.regions[0].blocks[0].args, blocks[id(f)].args)}
        for f in funcs
    }
    whole: list[tuple[Operation, Window | None]] = [(f, None) for f in funcs
                                                    if len(plans[id(f)]) == 1]
    pieces = [whole] + [[(f, w)] for f in funcs if len(plans[id(f)]) > 1 for w in plans[id(f)]]
    pieces = [p for p in pieces if p]
    facts = native_tile_facts(module, native) if native else ""
    reports: list[SaturationReport] = []
    total = 0.0
    state: dict[str, object] = {"phase": "encode"}
    parent = os.getpid()
    # Each piece encoded once in each process: a piece this process extracts itself (from the
    # back, while it waits) keeps its encoding for its decoding in its turn.
    encodings: dict[int, tuple[Encoder, list[EncodedBlock]]] = {}
    # pieces this process extracted, and how many of them the last ``settle`` saw: their
    # garbage was made with the collector on (that of the other pieces, none: see ``settle``)
    here = [0, 0]

    def encode(i: int) -> tuple[Encoder, list[EncodedBlock]]:
        if i not in encodings:
            encodings[i] = _encode_piece(pieces[i], memory)
        return encodings[i]

    def extract(i: int) -> _Extracted:
        here[0] += 1
        try:
            state["phase"] = "encode"
            return _extract_piece(files, encode(i)[0], pieces[i], phases, cost, extractor,
                                  facts, memory, state)
        except MemoryError:  # an allocation failed under the hard limit, between checks
            if memory is None:
                raise
            raise MemoryExceeded(memory.limit, str(state["phase"]), _where(pieces[i])) from None

    def extract_packed(i: int) -> _Extracted:  # in the child: the parent counts there too
        if memory is not None:
            if not memory.peers:  # the first job: this process's size now is the parent's
                memory.peers, memory.shared = {parent: 0}, rss()
        got = extract(i)
        del encodings[i]  # (the child decodes nothing)
        return replace(got, roots=pack_terms(got.roots), peak=peak_rss())  # type: ignore[arg-type]

    out = Module([], dict(module.attributes), module.name, module.source)
    # each function's op made now, so that its ops know their function as they are printed
    made = {id(f): Operation(f.name, [], [], dict(f.attributes), [Region([blocks[id(f)]])],
                             f.loc) for f in funcs}  # fmt: skip
    # the windowed bodies printed window by window, while the other process works
    printed = {id(blocks[id(f)]): PrintedBody(blocks[id(f)]) for f in funcs
               if len(plans[id(f)]) > 1}  # fmt: skip
    symbols = symbol_table(module)  # the output's functions keep the input's names and types
    verified: dict[int, int] = {}  # id of a body's block -> its first ops verified so far
    child_peak = 0
    # seconds the second process took to extract its pieces and how many, seconds this one
    # took to decode, verify and print its pieces and how many (``_worth``)
    pace = [0.0, 0, 0.0, 0]
    packed = False
    ahead = Ahead.start(extract_packed, len(pieces)) if budget.ahead and len(pieces) > 1 else None
    if ahead is not None and memory is not None:
        memory.peers[ahead.pid] = rss_of(ahead.pid)  # its size right after the fork: ours
    try:
        with gc_settling() as settle:  # the input and each piece's output stay to the end
            settle()
            for i, piece in enumerate(pieces):
                state["phase"] = "encode"
                t0 = time.perf_counter()
                encoded = encode(i)[1]
                seconds["encode"] += time.perf_counter() - t0
                if ahead is None:
                    got = extract(i)
                else:
                    got, packed = ahead.get(i, extract, partial(_worth, pace, len(pieces) - i,
                                                          taken=here))  # fmt: skip
                    if packed:
                        got = replace(got, roots=unpack_terms(*got.roots))
                        child_peak = max(child_peak, got.peak)
                if packed:
                    pace[0] += sum(got.seconds)
                    pace[1] += 1
                total += got.total
                reports.append(got.report)
                for k, dt in zip(("encode", "saturate", "extract"), got.seconds):
                    seconds[k] += dt
                state["phase"] = "decode"
                t0 = time.perf_counter()
                before = {id(f): len(blocks[id(f)].ops) for f, _ in piece}
                del encodings[i]
                # The collector paused from decoding to printing: the piece's ops are walked
                # once, by ``settle`` (a young collection between the steps walked them too),
                # or by no collection when the piece came from the other process (below)
                with gc_paused():
                    try:
                        _decode_piece(piece, encoded, got.roots, memory, blocks, outer)
                    except MemoryError:
                        if memory is None:
                            raise
                        raise MemoryExceeded(memory.limit, "decode", _where(piece)) from None
                    # verified now, while the other process works (terminators read their
                    # function: they wait for the whole module's verification)
                    new = [op for f, _ in piece for op in blocks[id(f)].ops[before[id(f)]:]
                           if not _is_terminator(op)]
                    keys: dict[int, tuple[Any, ...]] = {}  # their signatures, for printing
                    _verify(out, user, ops=new, symbols=symbols, keys=keys)
                    for f, _ in piece:  # every op so far but a terminator (the last op)
                        body = blocks[id(f)].ops
                        verified[id(blocks[id(f)])] = len(body) - (
                            bool(body) and _is_terminator(body[-1]))
                    for f, w in piece:
                        if w is not None:
                            printed[id(blocks[id(f)])].add(blocks[id(f)].ops[before[id(f)]:],
                                                           keys)  # fmt: skip
                    del got, new, keys
                    # Settled before the collector resumes (its first young collection would
                    # walk every object of the piece). A piece from the other process was
                    # unpacked, decoded, verified and printed here, making no garbage cycle
                    # (tests/test_ahead.py): its objects are frozen without a collection
                    # walking them; after a piece extracted here, the garbage is collected.
                    settle(collect=here[0] != here[1])
                    here[1] = here[0]
                seconds["decode"] += time.perf_counter() - t0
                pace[2] += time.perf_counter() - t0
                pace[3] += 1
    finally:
        if ahead is not None:
            ahead.close()
            if memory is not None:
                del memory.peers[ahead.pid]
    t4 = time.perf_counter()
    for op in module.ops:
        out.body.append(made.get(id(op), op))
    with gc_paused():
        _verify(out, user, verified=verified)
    seconds["decode"] += time.perf_counter() - t4
    return OptimizeResult(
        out,
        merge_reports(reports),
        files,
        seconds,
        total,
        cost_model=cost,
        windows=len(pieces),
        ahead=_ahead_note(ahead, len(pieces), child_peak, t4),
        printed=printed,
    )


def _is_terminator(op: Operation) -> bool:
    """Whether ``op`` ends its block (its verification reads its function: it waits for the
    whole module's)."""
    return op.spec is not None and op.spec.has("terminator")


def _worth(pace: list[Any], undecoded: int, left: int, taken: list[int] | None = None) -> bool:
    """Whether this process should extract one of the ``left`` pieces that no process has
    taken yet, while ``undecoded`` pieces (this one's included) wait for its decoding
    (``eqsat.ahead``). The run ends when this process has decoded the last piece. Left to
    the second process, the pieces are extracted by ``left * E`` from now (E, D: the mean
    seconds to extract and to decode a piece so far), and the last one decoded D later;
    taking one, this process ends at ``E + undecoded * D`` at the earliest. So it takes one
    only if ``(left - 1) * E > (undecoded - 1) * D``. Why: this process decodes every
    piece, and took pieces whenever it waited for one; at 100,000 ops it took 7 of 25 while
    the second process, out of pieces, idled for the last part of the run. Until both
    paces are known, it takes one, and only one (``taken[0]``: the pieces it extracted so
    far): the second process, started with it, delivers its first piece about when this one
    has extracted its own (at 30,000 ops this process took a second one before, and at
    100,000 the second process, with a piece less to do, waited 4-7 s at the end)."""
    extract_s, extracted, decode_s, decoded = pace
    if not extracted or not decoded:
        return not taken or not taken[0]
    return (left - 1) * extract_s / extracted > (undecoded - 1) * decode_s / decoded


def _ahead_note(ahead: Ahead | None, pieces: int, peak: int, done: float) -> str:
    """What ``--stats`` says of the second process: "" without one. ``peak``: its peak
    resident size (pages it still shares with this process counted in both); ``done``:
    when the last piece was decoded (``time.perf_counter``), to say how long before that
    the second process delivered its last piece (after which it had nothing to do)."""
    if ahead is None:
        return ""
    note = f"{ahead.delivered} of {pieces} extracted in a second process"
    if peak:
        note += (f" (its peak resident size {peak / MiB:,.0f} MiB, pages shared with this one "
                 "included)")
    if ahead.last:
        note += (f"; its last piece came {done - ahead.last:.1f} s before this process had "
                 "decoded every piece")
    return note + (f" (which ended early, {ahead.lost})" if ahead.lost else "")


@dataclass(frozen=True)
class _Extracted:
    """One piece extracted: each block's term (by block index), the extracted cost, the
    saturation report, and the seconds spent encoding, saturating and extracting."""

    roots: dict[int, Term]
    total: float
    report: SaturationReport
    seconds: tuple[float, float, float]
    peak: int = 0  # the peak resident size of the process that extracted it, so far (bytes)


def _encode_piece(
    piece: list[tuple[Operation, Window | None]], memory: MemoryBudget | None
) -> tuple[Encoder, list[EncodedBlock]]:
    """The egglog text of one piece (whole bodies, or one window of a body) and its blocks."""
    enc = Encoder(memory)
    encoded = [
        enc.encode_block(f.regions[0].blocks[0], w.ops if w else None, w.outputs if w else ())
        for f, w in piece
    ]
    return enc, encoded


def _extract_piece(
    files: tuple[RuleFile, ...],
    enc: Encoder,
    piece: list[tuple[Operation, Window | None]],
    phases: list[Phase],
    cost: CostModel,
    extractor: str,
    facts: str,
    memory: MemoryBudget | None,
    state: dict[str, object],
) -> _Extracted:
    """Load one piece's encoding (``enc``), saturate and extract it in an e-graph of the
    schema and rules of its own (a fresh one: egglog's ``pop`` after a window took longer
    with every window). ``state`` receives the phase under way (for a failed allocation's
    message)."""
    state["phase"] = "encode"
    t0 = time.perf_counter()
    eg = EGraph()
    eg.run(schema_text(), "<schema>")
    for rf in files:
        rf.install(eg)
    _load(eg, enc, memory, _where(piece))
    if facts:
        eg.run(facts, "<native tiles>")
    t1 = time.perf_counter()
    state["phase"] = "saturate"
    report = saturate(eg, phases)
    t2 = time.perf_counter()
    state["phase"] = "extract"
    snap = Snapshot(eg)
    roots = {}
    total = 0.0
    for b in enc.blocks:
        ex, _ = _extract_root(snap, b.root, cost, extractor, memory)
        roots[b.index] = ex.term
        total += ex.cost
    return _Extracted(roots, total, report, (t1 - t0, t2 - t1, time.perf_counter() - t2))


def _decode_piece(
    piece: list[tuple[Operation, Window | None]],
    encoded: list[EncodedBlock],
    roots: dict[int, Term],
    memory: MemoryBudget | None,
    blocks: dict[int, Block],
    outer: dict[int, dict[int, Value]],
) -> None:
    """Decode one piece's extracted ``roots`` into ``blocks``; ``outer`` maps each function's
    values to their decoded ones (a window's outputs are added for the windows after it)."""
    with gc_paused():  # decoding makes tens of thousands of ops and no garbage
        for (f, w), e in zip(piece, encoded, strict=True):
            decoder = Decoder(roots, memory, f" ({_where([(f, w)]).removeprefix('in ')})")
            values = decoder.decode_block(e, blocks[id(f)], outer[id(f)])
            if w is not None:
                outer[id(f)].update(zip(map(id, w.outputs), values))


def _where(piece: list[tuple[Operation, Window | None]]) -> str:
    """The piece of the program a phase was working on, for budget messages."""
    f, w = piece[0]
    if w is None:
        return f"in the function at {f.loc}"
    return f"at ops {w.start}-{w.end} of the function at {f.loc} (from {w.ops[0].loc})"


# Program text is handed to egglog this many ``let`` lines at a time, the memory budget read
# between (one egglog command cannot be interrupted).
LOAD_LINES = 2048


def _load(
    eg: EGraph,
    enc: Encoder,
    memory: MemoryBudget | None,
    where: str,
) -> None:
    """Run the encoded program in egglog, in slices of ``LOAD_LINES`` lines."""
    lines = enc.lines
    for start in range(0, len(lines), LOAD_LINES):
        eg.run("\n".join(lines[start : start + LOAD_LINES]) + "\n", "<program>")
        if memory is not None:
            end = min(start + LOAD_LINES, len(lines))
            memory.check("encode", lambda: f"loading line {end} of {len(lines)} {where}".rstrip())
