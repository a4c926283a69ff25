"""``eqsat check-rules``: every rule, tested on real programs with the reference interpreter.

Each rule file is installed in *witness mode*: wherever a rule would ``union`` two terms it
records ``(Witness "rule" lhs rhs)`` instead, so both sides stay apart in the e-graph. After
saturating a corpus of programs, every witness is extracted side by side, each side decoded
into a function of the leaves it reads, and both run on inputs that show every special
value (NaN, infinities, signed zeros, denormals, INT_MIN/INT_MAX: ``special_values``) and on
random ones; results must agree bit for bit (any NaN equals any NaN). A difference is a
counterexample: the rule is unsound. Two sides of different types make the rule ill-typed
(said so, with both types, rather than a counterexample). A rule with no witness never fired:
it is untested.

``check_rules(corpus, rule_files=[mine], context=builtin)`` checks only ``mine``'s rules (what
``eqsat check-rules --rules FILE.egg`` does): they record witnesses while the built-in rules
union as usual, so a user rule sees the forms the built-in rules make.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from eqsat import special_values
from eqsat.decode import Decoder, _BlockDecoder, decode_type
from eqsat.egraph import EGraph
from eqsat.encode import Encoder
from eqsat.extract import Snapshot, Term
from eqsat.optimizer import FAST_MATH, FP_CONTRACT, PHASES, native_tile_facts
from eqsat.rulefile import Rule, RuleFile, phase_files, rules_dir
from eqsat.saturate import Phase, saturate
from eqsat.schema import schema_text
from frontend import MLIRError, parse_file
from frontend.attributes import StringAttr, TypeAttr
from frontend.ir import Block, Module, Operation, Region
from frontend.printer import print_module
from frontend.types import (
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    Type,
    VectorType,
)

WITNESS = (
    "(datatype Pair (Witness String Term Term))\n"
    "(datatype StatePair (WitnessState String State State))\n"
)


def _state_constructors() -> frozenset[str]:
    """Constructors that yield a memory/stdout ``State`` (writes, prints, write strategies)."""
    from eqsat.schema import by_constructor
    from eqsat.strategies import STRATEGIES

    return frozenset(
        {c.name for c in by_constructor().values() if c.sort == "State"}
        | {s.name for s in STRATEGIES.values() if s.sort == "State"}
        | {"StInit", "MemOut", "IOOut"}
    )


def _witness(head: str) -> str:
    """The witness constructor for a union whose terms are built by ``head``."""
    return "WitnessState" if head in _state_constructors() else "Witness"


def _witness_unions(text: str, label: str) -> str:
    """``(union x (Head ...))`` -> ``(Witness label x (Head ...))`` (``WitnessState`` when
    Head yields a State)."""
    text = re.sub(
        r"\(union ([\w$-]+) \(([^\s()]+)",
        lambda m: f"({_witness(m.group(2))} {label} {m.group(1)} ({m.group(2)}",
        text,
    )
    return text.replace("(union ", f"(Witness {label} ")


# The legalize rule files (every target's) are checked with the others.
LEGALIZE = "legalize"
NATIVE = {"f32": 4, "f64": 2, "i32": 4, "i64": 2, "f16": 8, "i8": 16, "i16": 8}
FAST_MATH_LAW = re.compile(r"fast-math", re.IGNORECASE)


def default_corpus() -> list[Path]:
    """The programs shipped to exercise the rules: ``rules/corpus/*.mlir``."""
    return sorted((rules_dir() / "corpus").glob("*.mlir"))


# -- witness mode ---------------------------------------------------------------------------------
def witness_text(rf: RuleFile, only: str | None = None) -> str:
    """The rule file with every union (or only rule ``only``'s) turned into a ``Witness``."""
    from egglog import bindings

    commands = bindings.EGraph().parse_program(rf.text, filename=str(rf.path))
    rules = iter(rf.rules)
    out: list[str] = []
    for cmd in commands:
        is_rule = isinstance(
            cmd, (bindings.RewriteCommand, bindings.BiRewriteCommand, bindings.RuleCommand)
        )
        rule = next(rules) if is_rule else None
        if rule is not None and only is not None and rule.label != only:
            out.append(_original(cmd, rule))
        elif isinstance(cmd, (bindings.RewriteCommand, bindings.BiRewriteCommand)):
            rw = cmd.rewrite
            conds = " ".join(str(c) for c in rw.conditions)
            pairs = [(rw.lhs, rw.rhs, rule.keys[0])]
            if isinstance(cmd, bindings.BiRewriteCommand):
                pairs = [(rw.lhs, rw.rhs, rule.keys[0]), (rw.rhs, rw.lhs, rule.keys[-1])]
            for lhs, rhs, key in pairs:
                head = str(lhs).lstrip("(").split(" ")[0].rstrip(")")
                out.append(
                    f"(rule ((= __lhs {lhs}) {conds}) (({_witness(head)} {_q(rule.label)} __lhs "
                    f"{rhs}))"
                    f" :ruleset {cmd.name} :name {_q(key)})"
                )
        elif isinstance(cmd, bindings.RuleCommand):
            text = str(cmd)
            out.append(_witness_unions(text, _q(rule.label)))
        else:
            out.append(str(cmd))
    return "\n".join(out) + "\n"


def _rewriting_labels(rf: RuleFile) -> set[str]:
    """Labels of the rules of ``rf`` that union terms (rewrites, and rules with a union)."""
    from egglog import bindings

    commands = bindings.EGraph().parse_program(rf.text, filename=str(rf.path))
    kinds = (bindings.RewriteCommand, bindings.BiRewriteCommand, bindings.RuleCommand)
    rules = [c for c in commands if isinstance(c, kinds)]
    return {
        rule.label for cmd, rule in zip(rules, rf.rules)
        if not isinstance(cmd, bindings.RuleCommand) or "(union " in str(cmd)
    }


def _original(cmd: Any, rule: Rule) -> str:
    """A command as egglog prints it, keeping the report name the rule file gave it."""
    text = str(cmd)
    if ":name" not in text and rule.keys and rule.kind != "birewrite":
        text = text[:-1] + f" :name {_q(rule.keys[0])})"
    return text


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- report ------------------------------------------------------------------------------------------
@dataclass
class RuleResult:
    rule: Rule
    fired: int = 0
    checked: int = 0
    skipped: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    ill_typed: list[str] = field(default_factory=list)


@dataclass
class CheckReport:
    results: dict[str, RuleResult]
    programs: list[str]
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    def unsound(self) -> list[RuleResult]:
        return [r for r in self.results.values() if r.failures and not r.ill_typed]

    def ill_typed(self) -> list[RuleResult]:
        return [r for r in self.results.values() if r.ill_typed]

    def unfired(self) -> list[RuleResult]:
        return [r for r in self.results.values() if not r.fired]

    def ok(self, require_all_fired: bool = True) -> bool:
        return (
            not self.errors
            and not self.unsound()
            and not self.ill_typed()
            and (not require_all_fired or not self.unfired())
        )

    def format(self) -> str:
        lines = [
            f"checked {len(self.results)} rules on {len(self.programs)} programs "
            f"in {self.seconds:.1f} s"
        ]
        lines.append(f"  {'rule':<40} {'fired':>6} {'checked':>8}  verdict")
        for label, r in sorted(self.results.items()):
            verdict = (
                "ILL-TYPED"
                if r.ill_typed
                else "UNSOUND"
                if r.failures
                else "untested (never fired)"
                if not r.fired
                else "ok"
                if r.checked
                else "fired, not evaluable"
            )
            lines.append(f"  {label:<40} {r.fired:>6} {r.checked:>8}  {verdict}")
        for r in self.ill_typed():
            lines.append(f"\nILL-TYPED {r.rule.label} ({r.rule.law}):")
            lines.extend("  " + f for f in r.ill_typed[:2])
        for r in self.unsound():
            lines.append(f"\nUNSOUND {r.rule.label} ({r.rule.law}):")
            lines.extend("  " + f for f in r.failures[:2])
        for r in self.results.values():
            for s in r.skipped[:1]:
                lines.append(f"note: {r.rule.label}: {s}")
        lines.extend(f"error: {e}" for e in self.errors)
        unfired = self.unfired()
        lines.append(
            f"\n{len(self.unsound())} unsound, {len(self.ill_typed())} ill-typed, "
            f"{len(unfired)} never fired"
            + (f": {', '.join(r.rule.label for r in unfired)}" if unfired else "")
        )
        if unfired:
            lines.append(
                f"(never fired on the corpus: {', '.join(self.programs)}; pass programs where "
                "the rules' left-hand sides occur to test them)"
            )
        return "\n".join(lines)


# -- the check ---------------------------------------------------------------------------------------
def check_rules(
    corpus: list[Path] | list[str],
    rule_files: list[RuleFile] | None = None,
    trials: int = 3,
    seed: int = 0,
    context: list[RuleFile] | None = None,
    strict: bool = False,
) -> CheckReport:
    """Check every rule of ``rule_files`` (default: all of ``rules/``) on the programs of
    ``corpus``; ``context`` files run alongside, unioning as usual, unchecked. A program
    that does not parse is one of the report's errors, or with ``strict`` (programs the
    user named) the MLIRError itself, before any rule runs."""
    import time

    start = time.perf_counter()
    files = (
        rule_files
        if rule_files is not None
        else [rf for phase in (*PHASES, FAST_MATH, FP_CONTRACT, LEGALIZE)
              for rf in phase_files(phase)]
    )  # fmt: skip
    # Rules that only derive facts (an analysis such as unit-stride) union nothing: they are
    # not rewrites to check.
    results = {r.label: RuleResult(r) for rf in files for r in rf.rules
               if r.label in _rewriting_labels(rf)}
    by_key = {k: r.label for rf in files for r in rf.rules for k in r.keys}
    report = CheckReport(results, [str(p) for p in corpus])
    modules: list[Module] = []
    for path in corpus:
        try:
            modules.append(parse_file(path))
        except MLIRError as e:
            if strict:
                raise
            report.errors.append(str(e).splitlines()[0])
    rng = np.random.default_rng(seed)
    # One run with every rule in witness mode; then, for rules that did not fire there
    # (they need another rule's union to see their pattern), one run each in which only
    # that rule records witnesses and all others union as usual.
    _run(files, None, modules, results, by_key, rng, trials)
    for label in [lbl for lbl, r in results.items() if not r.fired]:
        _run([*(context or []), *files], label, modules, results, by_key, rng, trials)
    report.seconds = time.perf_counter() - start
    return report


def _run(
    files: list[RuleFile],
    only: str | None,
    modules: list[Module],
    results: dict[str, RuleResult],
    by_key: dict[str, str],
    rng: np.random.Generator,
    trials: int,
) -> None:
    from eqsat.cost import vv_cost

    fused_labels = {r.label for rf in files if rf.phase == FP_CONTRACT for r in rf.rules}

    eg = EGraph()
    eg.run(schema_text() + WITNESS, "<schema>")
    for rf in files:
        eg.run(witness_text(rf, only), str(rf.path))
    enc = Encoder()
    for m in modules:
        for op in m.ops:
            if op.name == "func.func" and op.regions[0].blocks:
                enc.encode_block(op.regions[0].blocks[0])
    eg.run(enc.text(), "<corpus>")
    for m in modules:
        eg.run(native_tile_facts(m, NATIVE), "<native>")
    rulesets = ("typing",) + tuple(rs for rf in files for rs in rf.rulesets)
    saturate(eg, [Phase("check", rulesets, max_iterations=10, node_limit=40_000, time_limit=10.0)])
    snap = Snapshot(eg)
    cost = vv_cost()
    functions = eg.raw.freeze().functions
    rows = [
        (sort, row)
        for name, sort in (("Witness", "Term"), ("WitnessState", "State"))
        if (frozen := functions.get(name)) is not None
        for row in frozen.rows
    ]
    for sort, row in rows:
        label = snap.decode("String", row.inputs[0])
        label = by_key.get(label, label)
        result = results.get(label)
        if result is None or (only is not None and label != only):
            continue
        result.fired += 1
        try:
            lhs = snap.extract((sort, row.inputs[1]), cost).term
            rhs = snap.extract((sort, row.inputs[2]), cost).term
        except Exception as e:  # noqa: BLE001 - report, do not crash the check
            result.skipped.append(f"not extractable: {e}")
            continue
        fast_math = bool(FAST_MATH_LAW.search(result.rule.law))
        # rules/fp-contract/ rules hold in fp-contract mode: both sides run in it
        fused = label in fused_labels
        verdict = _compare(lhs, rhs, rng, trials, fast_math, fused)
        if verdict is None:
            result.checked += 1
        elif verdict.startswith("skip:"):
            result.skipped.append(verdict[5:])
        elif verdict.startswith("ill-typed:"):
            result.ill_typed.append(verdict[10:].strip())
        else:
            result.failures.append(verdict)


# -- evaluating both sides ----------------------------------------------------------------------------
class _LeafDecoder(_BlockDecoder):
    """Decodes a lone term; its Arg/Outer leaves become the function's arguments."""

    def __init__(self, out: Block, leaves: dict[tuple, int]) -> None:
        super().__init__(Decoder({}), None, out, {})  # type: ignore[arg-type]
        self.leaves = leaves
        self.offsets = None  # set below, once the tile rank is known

    def tile_of(self, t: Term):  # type: ignore[override]
        """Outside a Tiled node, a TileOf stands for the first tile (offset 0 in every dim)."""
        if getattr(self, "offsets", None) is None:
            self.offsets = (0,) * len(t.args[0])  # type: ignore[arg-type]
            try:
                return super().tile_of(t)
            finally:
                self.offsets = None
        return super().tile_of(t)

    def value(self, t: Term):  # type: ignore[override]
        if t.op in ("Arg", "Outer"):
            return self.out.args[self.leaves[(t.op, t.args[0], t.args[1])]]
        return super().value(t)


def _leaves(*terms: Term) -> tuple[dict[tuple, int], list[Type], bool]:
    found: dict[tuple, int] = {}
    types: list[Type] = []
    effects = False
    stack, seen = list(terms), set()
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        if t.op in ("Arg", "Outer"):
            key = (t.op, t.args[0], t.args[1])
            if key not in found:
                found[key] = len(types)
                types.append(decode_type(t.args[2]))  # type: ignore[arg-type]
            continue
        if t.op in ("Barrier", "MemOut", "IOOut"):  # opaque effects; StInit is the input state
            effects = True
        stack.extend(t.children)
    return found, types, effects


def _function(
    name: str, term: Term, leaves: dict[tuple, int], types: list[Type], state: bool = False
) -> Operation:
    """A function of the leaves computing ``term``: its value, or for a ``State`` term the
    effects up to that state (memory written through the memref arguments, prints)."""
    block = Block(list(types))
    dec = _LeafDecoder(block, leaves)
    dec._collect_reads(term)  # reads are emitted before the writes that follow them
    if state:
        dec.state(term)
        block.append(Operation("func.return", [], [], {}))
        ftype = FunctionType(tuple(types), ())
    else:
        value = dec.value(term)
        block.append(Operation("func.return", [value], [], {}))
        ftype = FunctionType(tuple(types), (value.type,))
    return Operation(
        "func.func",
        [],
        [],
        {"sym_name": StringAttr(name), "function_type": TypeAttr(ftype)},
        [Region([block])],
    )


def _compare(
    lhs: Term,
    rhs: Term,
    rng: np.random.Generator,
    trials: int,
    fast_math: bool,
    fp_contract: bool = False,
) -> str | None:
    """None if both sides agree on every trial; a message otherwise ("skip: ..." if unsure)."""
    from eqsat.interpreter import Interpreter
    from frontend.types import elem_code

    leaves, types, effects = _leaves(lhs, rhs)
    if effects:
        return "skip: the rule rewrites opaque effects (barriers); checked by the program tests"
    state = lhs.op in _state_constructors()
    try:
        module = Module(
            [
                _function("lhs", lhs, leaves, types, state),
                _function("rhs", rhs, leaves, types, state),
            ]
        )
    except Exception as e:  # noqa: BLE001
        return f"skip: not decodable ({type(e).__name__}: {e})"
    lt, rt = (f.attributes["function_type"].type.results for f in module.ops)
    if lt != rt:
        return (
            f"ill-typed: the left-hand side has type {_types(lt)}, the right-hand side "
            f"{_types(rt)} (a rule may only union terms of one type)"
        )
    text = print_module(module)
    defined = 0
    undefined = ""
    # Enough trials for every special value to meet every input once (`special_values`).
    cover = max(
        (special_values.covering_trials(elem_code(e), int(np.prod(s)))
         for s, e in map(_shape_elem, types)),
        default=0,
    )
    for trial in range(trials + cover):
        # Reassociation is exact only up to rounding and overflow: fast-math rules are
        # checked on ordinary values only.
        args = [_random(t, rng, 0 if fast_math else trial, i) for i, t in enumerate(types)]
        # Memrefs are written in place and prints go to `out`: both are part of the result.
        outs = []
        try:
            for side in ("lhs", "rhs"):
                out, copied = io.StringIO(), _copy(args)
                r = Interpreter(module, out=out, fp_contract=fp_contract).call(side, *copied)
                outs.append((r, [x for x in copied if isinstance(x, np.ndarray)], out.getvalue()))
        except MLIRError as e:  # e.g. special values as indices: try the next input
            undefined = str(e).splitlines()[0]
            continue
        defined += 1
        (a, ma, pa), (b, mb, pb) = outs
        if (
            pa != pb
            or not all(_same(x, y, fast_math) for x, y in zip(ma, mb))
            or (a is not None and not _same(a, b, fast_math))
        ):
            shown = ", ".join(_show(x) for x in args)
            if a is None or _same(a, b, fast_math):  # the memory or the output differs
                a, b = (ma, pa), (mb, pb)
            return f"inputs ({shown}): lhs gives {_show(a)}, rhs gives {_show(b)}\n" + "\n".join(
                "    " + line for line in text.splitlines()
            )
    if not defined:
        return f"skip: undefined on every input ({undefined})"
    return None


def _types(ts: tuple[Type, ...]) -> str:
    return ", ".join(str(t) for t in ts) or "()"


def _copy(args: list[Any]) -> list[Any]:
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _shape_elem(t: Type) -> tuple[tuple[int, ...], Type]:
    if isinstance(t, (VectorType, MemRefType)):
        return tuple(8 if s is None else s for s in t.shape), t.element  # type: ignore[union-attr]
    return (), t


def _random(t: Type, rng: np.random.Generator, trial: int, leaf: int = 0) -> Any:
    """An input of type ``t``: ordinary values on trial 0, special values after that (NaN,
    infinities, signed zeros, denormals, extremes, INT_MIN/INT_MAX: ``special_values``)."""
    from frontend.types import elem_code

    shape, elem = _shape_elem(t)
    arr = special_values.draw(elem_code(elem), shape, rng, trial, leaf)
    return arr if shape or isinstance(t, VectorType) else arr[()]


def _same(a: Any, b: Any, fast_math: bool) -> bool:
    """Bit-exact (signed zeros apart, any NaN equal to any NaN); with ``fast_math`` within a
    reassociation's rounding."""
    if not fast_math:
        return special_values.same_bits(a, b)
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    # Reassociation errors scale with the terms summed, not with the result: a sum that
    # cancels to near 0 keeps the absolute error of its largest values.
    finite = np.abs(np.concatenate([a64.ravel(), b64.ravel()]))
    finite = finite[np.isfinite(finite)]
    scale = max(1.0, float(finite.max())) if finite.size else 1.0
    return bool(np.allclose(a64, b64, rtol=1e-5, atol=1e-6 * scale, equal_nan=True))


def _show(x: Any) -> str:
    if isinstance(x, str):
        return repr(x)
    if isinstance(x, (tuple, list)):
        return "(" + ", ".join(_show(y) for y in x) + ")"
    return np.array2string(np.asarray(x), separator=",", threshold=16).replace("\n", "")


__all__ = ["check_rules", "default_corpus", "CheckReport"]
