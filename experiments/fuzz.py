"""Differential fuzzing: random programs, every stage of the pipeline, every output compared.

    python experiments/fuzz.py --n 1000 --seed 0 [--quick] [--batch 25] [--save-dir DIR]
                               [--report FILE] [--state FILE] [--max-seconds S] [--jobs N]

Each program of ``eqsat.fuzzgen.programs()`` is printed and parsed back (the same text),
interpreted on inputs that include special values (``eqsat.special_values``), optimized
(default costs; every lowering strategy forced; unrolled to each target's native widths; each
target's cost model at HWV level), decoded, printed, parsed and interpreted again, and compiled
for every target this machine runs (as given, and extracted at HWV level). Every output (results and memory written) must match the
interpreter's on the original bit for bit (any NaN equals any NaN). Compiled code is called on
buffers on 64-byte boundaries and again on buffers one element off, which must agree bit for
bit (x86-64-v2's alignment-versioned functions run a different copy on each). Inputs on which
the original program is undefined (division by zero, ...) are skipped.

Fast-math stages (``opt --fast-math`` at a target's HWV level, interpreted, and compiled with
reassociation) are compared within ``experiments.lib.fuzz_tally.FAST_MATH_ULPS`` on the
ordinary-values input. A compiled run is not compared for a program holding an op whose
LLVM result is unspecified where the interpreter gives one (``fuzz_tally.compiled_exclusions``),
an optimized one for a program that bitcasts floats to integers (a NaN's payload,
``fuzz_tally.optimized_exclusions``);
every such program is counted and printed with its reason. ``--report FILE`` writes the
coverage report: programs per lowering strategy chosen and per code generator lowering run.

Programs are checked in batches: one module holds a batch's functions, so the e-graph and the
rules are set up once per batch and variant (that setup is most of an optimization's time).
A failing program is shrunk (``experiments.lib.fuzz_shrink``) and saved under
``tests/fuzz_regressions/`` as an MLIR file whose first line records the input seed and
stage; ``tests/test_fuzz.py`` replays every such file.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script

from eqsat import special_values  # noqa: E402
from experiments.lib.fuzz_tally import (  # noqa: E402
    FAST_MATH_ULPS,
    Tally,
    close,
    compiled_exclusions,
    optimized_exclusions,
    float_constants,
    lowerings_used,
    magnitude,
    near_range,
    strategies_used,
)
from eqsat.interpreter import Interpreter  # noqa: E402
from frontend import MLIRError, parse, print_module  # noqa: E402
from frontend.ir import Module  # noqa: E402
from frontend.types import MemRefType, Type, VectorType  # noqa: E402

REGRESSIONS = Path(__file__).resolve().parent.parent / "tests" / "fuzz_regressions"
TRIALS = 3  # inputs per program: ordinary values, then two of special values

# Every op that has lowering strategies made expensive, as tests/test_opt_corpus.py does.
LOWERED = (
    "Contract", "Transpose", "MultiReduction", "Broadcast", "ShapeCast", "ExtractStridedSlice",
    "InsertStridedSlice", "TransferRead", "TransferWrite", "TransposeFlat", "ContractMatmul",
)  # fmt: skip


@dataclass
class Finding:
    """One disagreement (``mismatch``) or exception (``crash``) for one program."""

    kind: str  # "mismatch" | "crash"
    stage: str
    detail: str
    text: str = ""
    input_seed: int = 0


@dataclass
class Variant:
    """One way of producing a program to compare with the original's interpretation."""

    name: str
    # The optimized module (None: compiled run); ``observe`` sees the OptimizeResult.
    build: Callable[..., Module] | None
    # A compiled run: the module compiled once, its functions called as attributes;
    # ``observe`` sees the OptimizeResult (if it optimizes first) and the module compiled.
    compile: Callable[..., Any] | None = None
    fast_math: bool = False  # compared within a tolerance, on ordinary values only
    fp_contract: bool = False  # fused contractions: the interpreter's fp-contract mode decides

    @property
    def compiled(self) -> bool:
        return self.build is None


Observe = Callable[[Any], None]


def _optimize(**kwargs: Any) -> Callable[..., Module]:
    def build(module: Module, observe: Observe | None = None) -> Module:
        from eqsat.optimizer import optimize_module

        result = optimize_module(module, **kwargs)
        if observe is not None:
            observe(result)
        out = result.module
        text = print_module(out)
        again = parse(text, "<optimized>")  # decoded IR must print and parse back
        if print_module(again) != text:
            raise AssertionError("optimized module does not print the same after parsing")
        return again

    return build


def variants(stages: str = "all") -> list[Variant]:
    """Default costs, every strategy forced, each distinct set of target widths, each target's
    cost model at HWV level; compiled runs (the program as given, and extracted at HWV) for
    the targets the host runs."""
    from eqsat.cost import vv_cost

    out = [
        Variant("opt", _optimize()),
        Variant("opt-lowered", _optimize(cost=vv_cost({n: 1e6 for n in LOWERED}))),
    ]
    if stages == "quick":
        return out
    from eqsat.targets import builtin_targets, load_target

    seen: set[tuple] = set()
    for name in builtin_targets():
        target = load_target(name)
        width = dict(target.width)
        key = tuple(sorted(width.items()))
        if key not in seen:
            seen.add(key)
            out.append(Variant(f"opt-native-{name}", _optimize(native=width)))
        out.append(Variant(f"opt-hwv-{name}", _optimize(target=target, emit="hwv")))
        if name in FAST_MATH_TARGETS:
            out.append(Variant(f"opt-fast-math-hwv-{name}",
                               _optimize(target=target, emit="hwv", fast_math=True),
                               fast_math=True))
        if name in FP_CONTRACT_TARGETS:
            out.append(Variant(f"opt-fp-contract-hwv-{name}",
                               _optimize(target=target, emit="hwv", fp_contract=True),
                               fp_contract=True))
    out.extend(_compiled_variants())
    return out


# Fast-math stages: avx2 (pair broadcasts, 8x8 blocks; also compiled with reassociation where
# the host runs it) and avx512 (16-lane rows: 16x16 blocks).
FAST_MATH_TARGETS = ("avx2", "avx512")
# fp-contract stages (fused contractions, bit for bit against the interpreter's fused mode):
# avx2 fuses in its FMA unit, x86-64-v2 has none and computes each fma exactly in software.
FP_CONTRACT_TARGETS = ("avx2", "x86-64-v2")


# The op constructor each strategy family lowers (a strategy's name starts with it).
FAMILY_OPS = (
    "Contract", "Transpose", "MultiReduction", "Broadcast", "ShapeCast", "ExtractStridedSlice",
    "InsertStridedSlice", "TransferRead", "TransferWrite",
)  # fmt: skip
# Strategies whose rules (for floats) exist only under fast-math: forced with fast-math on.
FAST_MATH_STRATEGIES = ("ContractPairBroadcast", "ContractMatmul")
FORCED = "opt-forced-"


def forced_variant(strategies: str | list[str]) -> Variant:
    """``strategies`` (at most one per op family) forced as ``eqsat.forced_strategies``
    forces MLIR's choices: every other lowering of their ops priced out, each op kept only
    where its strategy does not apply. A campaign forces one strategy of every family per
    batch, each family's in turn, so that every strategy is checked, also those no target's
    cost model picks for the generated shapes."""
    from eqsat.cost import vv_cost
    from eqsat.forced_strategies import KEPT_OP_COST
    from eqsat.strategies import STRATEGIES

    names = [strategies] if isinstance(strategies, str) else list(strategies)
    over: dict[str, float] = {}
    for strategy in names:
        own = _family(strategy)
        over.update({s: float("inf") for s in STRATEGIES if _family(s) == own and s != strategy})
        over[own] = KEPT_OP_COST
    fast = any(s in FAST_MATH_STRATEGIES for s in names)
    return Variant(FORCED + "+".join(names), _optimize(cost=vv_cost(over), fast_math=fast),
                   fast_math=fast)


def _family(strategy: str) -> str:
    return next(f for f in FAMILY_OPS if strategy.startswith(f))


def forced_for_batch(k: int) -> list[str]:
    """The strategies batch ``k`` forces: the ``k``-th (cyclically) of every family."""
    from eqsat.strategies import STRATEGIES

    out = []
    for family in FAMILY_OPS:
        members = [s for s in STRATEGIES if _family(s) == family]
        out.append(members[k % len(members)])
    return out


def variant_named(name: str, chosen: list[Variant] | None = None) -> list[Variant]:
    """The variant called ``name`` (a forced one made anew), as a list for check_program."""
    if name.startswith(FORCED):
        return [forced_variant(name.removeprefix(FORCED).split("+"))]
    return [v for v in (chosen if chosen is not None else variants()) if v.name == name]


def _compiled_variants() -> list[Variant]:
    """``eqsat.compile(source, target=...)`` for every target the host runs: the program as
    given, and the program extracted at that target's HWV level."""
    from eqsat.codegen import compile as compile_
    from eqsat.targets import builtin_targets, load_target

    out = []
    for name in builtin_targets():
        target = load_target(name)
        if not target.runs_on_host():
            continue
        hwv = _optimize(target=target, emit="hwv")
        stages = [(name, None, False, False), (f"hwv-{name}", hwv, False, False)]
        if name in FAST_MATH_TARGETS:
            fast = _optimize(target=target, emit="hwv", fast_math=True)
            stages.append((f"fast-math-hwv-{name}", fast, True, False))
        if name in FP_CONTRACT_TARGETS:
            fused = _optimize(target=target, emit="hwv", fp_contract=True)
            stages.append((f"fp-contract-{name}", None, False, True))
            stages.append((f"fp-contract-hwv-{name}", fused, False, True))
        for label, prepare, reassoc, fp_contract in stages:

            def build(module: Module, observe: Observe | None = None, target: str = name,
                      prepare=prepare, reassoc: bool = reassoc,
                      fp_contract: bool = fp_contract) -> Any:
                source = prepare(module, observe) if prepare is not None else module
                if observe is not None:
                    observe(source)
                return compile_(print_module(source), target=target, reassoc=reassoc,
                                fp_contract=fp_contract)

            out.append(Variant(f"compiled-{label}", None, build, fast_math=reassoc,
                               fp_contract=fp_contract))
    return out


class PlacementDiffers(Exception):
    """Compiled code gave other outputs on buffers one element off a 64-byte boundary than on
    aligned ones (x86-64-v2's alignment-versioned functions run another copy on each)."""


def _placed(a: np.ndarray, shift: int) -> np.ndarray:
    """A copy of ``a`` starting ``shift`` elements past a 64-byte boundary."""
    raw = np.empty(a.nbytes + (shift + 1) * a.itemsize + 64, np.uint8)
    start = (-raw.ctypes.data) % 64 + shift * a.itemsize
    out = raw[start : start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def _call_placed(program: Any, fn: str, args: list[Any], shift: int) -> list[Any]:
    copied = [_placed(a, shift) if isinstance(a, np.ndarray) else a for a in args]
    printed = io.StringIO()  # compiled vector.print writes through sys.stdout
    with contextlib.redirect_stdout(printed):
        result = getattr(program, fn)(*copied)
    return _outputs(result, copied, printed.getvalue())


def _call_compiled(program: Any, fn: str, args: list[Any]) -> list[Any]:
    """The outputs of a call on copies of ``args`` on 64-byte boundaries; the call is made
    again on copies one element off, which must give the same bits (on x86-64-v2 the two
    take the two copies of an alignment-versioned function, eqsat/codegen/align_version.py)."""
    aligned = _call_placed(program, fn, args, 0)
    problem = _compare(aligned, _call_placed(program, fn, args, 1))
    if problem is not None:
        raise PlacementDiffers(f"on buffers one element off a 64-byte boundary: {problem}")
    return aligned


# -- inputs and comparison ----------------------------------------------------------------------
def _shape_elem(t: Type) -> tuple[tuple[int, ...], str]:
    from frontend.types import elem_code

    if isinstance(t, (VectorType, MemRefType)):
        return tuple(t.shape), elem_code(t.element)  # type: ignore[arg-type]
    return (), elem_code(t)


def inputs(arg_types: list[Type], seed: int, trial: int) -> list[Any]:
    rng = np.random.default_rng([seed, trial])
    out = []
    for i, t in enumerate(arg_types):
        shape, elem = _shape_elem(t)
        arr = special_values.draw(elem, shape, rng, trial, leaf=i)
        out.append(arr if shape or isinstance(t, VectorType) else arr[()])
    return out


def _outputs(result: Any, args: list[Any], printed: str) -> list[Any]:
    results = [] if result is None else list(result) if isinstance(result, tuple) else [result]
    return results + [a for a in args if isinstance(a, np.ndarray)] + [printed]


def _compare(want: list[Any], got: list[Any]) -> str | None:
    if len(want) != len(got):
        return f"{len(want)} outputs vs {len(got)}"
    for i, (a, b) in enumerate(zip(want, got)):
        if isinstance(a, str) or isinstance(b, str):
            if _nan_unsigned(a) != _nan_unsigned(b):
                return f"printed output differs: {a!r} vs {b!r}"
        elif not special_values.same_bits(a, b):
            return f"output {i} differs {special_values.first_difference(a, b)}"
    return None


def _nan_unsigned(printed: Any) -> Any:
    """Printed output with ``-nan`` as ``nan``: the sign of a NaN result is unspecified."""
    return printed.replace("-nan", "nan") if isinstance(printed, str) else printed


def _call(module: Module, fn: str, args: list[Any], fp_contract: bool = False) -> list[Any]:
    out = io.StringIO()
    copied = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    r = Interpreter(module, out=out, fp_contract=fp_contract).call(fn, *copied)
    return _outputs(r, copied, out.getvalue())


def arg_types_of(module: Module, fn: str = "f") -> list[Type]:
    func = module.functions()[fn]
    return list(func.attributes["function_type"].type.inputs)


# -- checking --------------------------------------------------------------------------------------
@dataclass
class _Case:
    text: str
    seed: int
    module: Module | None = None
    trials: list[tuple[list[Any], list[Any]]] = field(default_factory=list)  # (args, want)
    ordinary: bool = False  # trials[0] is the ordinary-values input (trial 0)
    _fused: list[tuple[list[Any], list[Any]]] | None = None

    def fused_trials(self) -> list[tuple[list[Any], list[Any]]]:
        """The trials with the interpreter's fp-contract mode's outputs (computed once)."""
        if self._fused is None:
            assert self.module is not None
            self._fused = [(args, _call(self.module, "f", args, fp_contract=True))
                           for args, _ in self.trials]  # fmt: skip
        return self._fused


def _prepare(text: str, seed: int, findings: list[Finding]) -> _Case | None:
    """Round trip and reference runs of one program; None when it is already broken."""
    case = _Case(text, seed)
    try:
        module = parse(text, "<fuzz>")
        if print_module(module) != text:
            findings.append(Finding("mismatch", "print-parse", "printing the parsed program "
                                    "gives other text", text, seed))
            return None
    except MLIRError as e:
        findings.append(Finding("mismatch", "print-parse", str(e), text, seed))
        return None
    case.module = module
    types = arg_types_of(module)
    for trial in range(TRIALS):
        args = inputs(types, seed, trial)
        try:
            case.trials.append((args, _call(module, "f", args)))
            case.ordinary = case.ordinary or trial == 0
        except MLIRError:
            continue  # undefined on this input: nothing to compare
        except Exception:  # noqa: BLE001 - the interpreter itself failed
            findings.append(Finding("crash", "interpret", traceback.format_exc(), text, seed))
            return None
    return case


def _batch_module(texts: list[tuple[int, str]]) -> Module:
    """One module holding every program's ``@f`` as ``@f<i>``."""
    from frontend.attributes import StringAttr

    funcs = []
    for i, text in texts:
        func = parse(text, "<fuzz>").ops[0]
        func.attributes["sym_name"] = StringAttr(f"f{i}")
        funcs.append(func)
    return Module(funcs)


def check_batch(
    cases: list[tuple[str, int]], chosen: list[Variant], stop: Callable[[], bool] | None = None,
    tally: Tally | None = None,
) -> list[Finding]:
    """Check programs ``(text, input_seed)`` against every variant; returns the findings.
    ``tally`` (if given) counts the strategies and lowerings used and the programs left out."""
    findings: list[Finding] = []
    prepared = [(i, c) for i, (t, s) in enumerate(cases) if (c := _prepare(t, s, findings))]
    if not prepared:
        return findings
    batch = _batch_module([(i, c.text) for i, c in prepared])
    strategies: dict[int, set[str]] = {i: set() for i, _ in prepared}
    lowerings: dict[int, set[str]] = {i: set() for i, _ in prepared}

    def observe(seen: Any) -> None:
        used = lowerings_used(seen) if isinstance(seen, Module) else strategies_used(seen)
        into = lowerings if isinstance(seen, Module) else strategies
        for i in into:
            into[i] |= used.get(f"f{i}", set())

    for variant in chosen:
        make = variant.build if variant.build is not None else variant.compile
        assert make is not None
        began = time.perf_counter()
        try:
            built = make(batch, observe if tally is not None else None)
        except Exception:  # noqa: BLE001 - find which program breaks it, alone
            for i, c in prepared:
                findings.extend(_check_one(c, variant, tally))
            continue
        for i, c in prepared:
            if not _compared(c, variant, tally):
                continue
            if variant.compiled:
                run = lambda a, i=i: _call_compiled(built, f"f{i}", a)  # noqa: E731
            else:
                run = lambda a, i=i, fc=variant.fp_contract: _call(  # noqa: E731
                    built, f"f{i}", a, fp_contract=fc)
            findings.extend(_compare_runs(c, variant, run))
        if tally is not None:
            tally.seconds[variant.name] += time.perf_counter() - began
    if tally is not None:
        tally.programs += len(prepared)
        tally.add_batch(strategies.values(), lowerings.values())
    return findings


def _compared(case: _Case, variant: Variant, tally: Tally | None) -> bool:
    """Whether ``variant`` is compared on ``case``; if not, the reasons go to ``tally``."""
    assert case.module is not None
    if variant.compiled:
        reasons = compiled_exclusions(case.module.ops[0])
    else:
        reasons = optimized_exclusions(case.module.ops[0])
    if variant.fast_math and not case.ordinary:
        reasons.append("fast-math: undefined on the ordinary-values input")
    elif variant.fast_math and near_range([*case.trials[0][0], *case.trials[0][1],
                                           *float_constants(case.module)]):
        reasons.append("fast-math: a value near its type's largest finite one (reassociation "
                       "may overflow or cancel)")
    if tally is not None:
        if reasons:
            tally.exclude(variant.name, reasons)
        else:
            tally.compared[variant.name] += 1
    return not reasons


def _check_one(case: _Case, variant: Variant, tally: Tally | None = None) -> list[Finding]:
    assert case.module is not None
    make = variant.build if variant.build is not None else variant.compile
    assert make is not None
    if not _compared(case, variant, tally):
        return []
    try:
        built = make(case.module)
    except Exception:  # noqa: BLE001
        return [Finding("crash", variant.name, traceback.format_exc(), case.text, case.seed)]
    if variant.compiled:
        return _compare_runs(case, variant, lambda a: _call_compiled(built, "f", a))
    return _compare_runs(
        case, variant, lambda a: _call(built, "f", a, fp_contract=variant.fp_contract)
    )


def _compare_runs(
    case: _Case, variant: Variant, run: Callable[[list[Any]], list[Any]]
) -> list[Finding]:
    trials = case.fused_trials() if variant.fp_contract else case.trials
    for args, want in trials[:1] if variant.fast_math else trials:
        try:
            got = run(args)
        except MLIRError as e:
            return [Finding("mismatch", variant.name, f"faults where the original does not: "
                            f"{str(e).splitlines()[0]}", case.text, case.seed)]
        except PlacementDiffers as e:
            return [Finding("mismatch", variant.name, str(e), case.text, case.seed)]
        except Exception:  # noqa: BLE001
            return [Finding("crash", variant.name, traceback.format_exc(), case.text, case.seed)]
        if variant.fast_math:
            problem = _compare_close(want, got, args)
        else:
            problem = _compare(want, got)
        if problem is not None:
            return [Finding("mismatch", variant.name, problem, case.text, case.seed)]
    return []


def _compare_close(want: list[Any], got: list[Any], args: list[Any]) -> str | None:
    if len(want) != len(got):
        return f"{len(want)} outputs vs {len(got)}"
    scale = magnitude([*args, *want])
    for i, (a, b) in enumerate(zip(want, got)):
        if not close(a, b, scale):
            return f"output {i} differs beyond the fast-math tolerance: {a!r} vs {b!r}"
    return None


def check_program(text: str, seed: int, chosen: list[Variant] | None = None) -> list[Finding]:
    """Every finding for one program (the whole pipeline, or the ``chosen`` variants)."""
    findings: list[Finding] = []
    case = _prepare(text, seed, findings)
    if case is None:
        return findings
    for v in chosen if chosen is not None else variants():
        findings.extend(_check_one(case, v))
    return findings


# -- generation ------------------------------------------------------------------------------------
def generate(n: int, seed: int, max_ops: int = 10) -> Iterator[tuple[str, int]]:
    """``n`` programs (text, input seed), the same for the same seed: hypothesis draws them."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    from eqsat.fuzzgen import programs

    out: list[tuple[str, int]] = []

    @hseed(seed)
    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(programs(max_ops=max_ops), st.integers(0, 2**31 - 1))
    def collect(program: Any, input_seed: int) -> None:
        out.append((program.text, input_seed))

    collect()
    return iter(out)


# -- saving ----------------------------------------------------------------------------------------
def save_regression(f: Finding, directory: Path = REGRESSIONS) -> Path:
    """The (shrunk) program as ``directory/<stage>-<hash>.mlir``, its first line the input
    seed and what went wrong."""
    import hashlib

    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(f.text.encode()).hexdigest()[:10]
    path = directory / f"{f.stage}-{digest}.mlir"
    first = f.detail.strip().splitlines()[-1] if f.detail.strip() else ""
    path.write_text(f"// fuzz: input_seed={f.input_seed} stage={f.stage} {f.kind}: {first}\n"
                    + f.text)
    return path


def read_regression(path: Path) -> tuple[str, int]:
    """(program text, input seed) of a saved regression."""
    head, _, text = path.read_text().partition("\n")
    seed = int(head.split("input_seed=")[1].split()[0])
    return text, seed


def regression_variants(path: Path) -> list[Variant]:
    """What a saved regression replays: every stage, and the forced stage it failed in."""
    head = path.read_text().partition("\n")[0]
    stage = head.split("stage=")[1].split()[0] if "stage=" in head else ""
    return variants() + (variant_named(stage) if stage.startswith(FORCED) else [])


# -- main ------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="programs to generate (default 200)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true",
                    help="a few dozen programs, two optimizer variants")
    ap.add_argument("--batch", type=int, default=25, help="programs per optimized module")
    ap.add_argument("--max-ops", type=int, default=10)
    ap.add_argument("--save-dir", type=Path, default=REGRESSIONS,
                    help="where shrunk failing programs go")
    ap.add_argument("--no-shrink", action="store_true", help="report failures, do not shrink")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="start no new batch after this many seconds (the figures say how "
                    "many programs were checked)")
    ap.add_argument("--report", type=Path, default=None,
                    help="write the coverage report (markdown, with provenance) here")
    ap.add_argument("--jobs", type=int, default=1,
                    help="batches checked at once, each in a worker process (default 1)")
    ap.add_argument("--state", type=Path, default=None,
                    help="a campaign state file: go on where the last run with it stopped "
                    "(same programs, same commit; experiments/lib/fuzz_campaign.py)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error(f"--jobs {args.jobs}: expected at least 1")
    n = min(args.n, 40) if args.quick else args.n
    chosen = variants("quick" if args.quick else "all")
    start = time.perf_counter()
    campaign = None
    if args.state is not None:
        from experiments.lib.fuzz_campaign import CampaignError, start_or_resume
        from experiments.sweeplib.provenance import git_commit

        git = git_commit()
        settings = {"seed": args.seed, "n": n, "batch": args.batch, "max_ops": args.max_ops,
                    "quick": args.quick}
        try:
            campaign = start_or_resume(args.state, settings, git["commit"], bool(git["dirty"]))
        except CampaignError as e:
            print(f"fuzz: error: {e}", file=sys.stderr)
            return 2
    print(f"variants: {', '.join(v.name for v in chosen)}", file=sys.stderr)
    findings = [Finding(**f) for f in campaign.findings] if campaign else []
    tally = campaign.tally if campaign else Tally()
    done = campaign.done if campaign else 0
    before = campaign.seconds if campaign else 0.0  # earlier runs of the campaign
    if done:
        print(f"resuming {args.state}: {done} programs checked in {before:.0f} s before",
              file=sys.stderr)
    items = list(generate(n, args.seed, args.max_ops))

    def out_of_time() -> bool:
        return args.max_seconds is not None and time.perf_counter() - start > args.max_seconds

    for at, found, batch_tally in _batches(items, done, args.batch, args.quick, args.jobs,
                                           out_of_time, chosen):
        findings += found
        tally.merge(batch_tally)
        done = at + len(items[at : at + args.batch])
        if args.verbose:
            print(f"  {done} programs, {len(findings)} findings, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
        seconds = before + time.perf_counter() - start
        if campaign is not None:
            campaign.done, campaign.seconds = done, seconds
            campaign.findings = [asdict(f) for f in findings]
            campaign.save(args.state)
        if args.report is not None:  # kept current: a long campaign can be read as it runs
            _write_report(args.report, tally, done, findings, seconds, argv)
    if done < len(items) and out_of_time():
        print(f"stopped after {done} of {len(items)} programs: --max-seconds "
              f"{args.max_seconds:g} reached", file=sys.stderr)
    mismatches = sum(f.kind == "mismatch" for f in findings)
    crashes = sum(f.kind == "crash" for f in findings)
    for f in findings:
        print(f"\n{f.kind.upper()} at {f.stage} (input seed {f.input_seed}): "
              f"{f.detail.strip().splitlines()[-1] if f.detail.strip() else ''}")
        if not args.no_shrink:
            from experiments.lib.fuzz_shrink import shrink

            stage = variant_named(f.stage, chosen)
            f = shrink(f, lambda text, seed: check_program(text, seed, stage))
            print(f"saved {save_regression(f, args.save_dir)}")
        print(f.text)
    for line in tally.exclusion_lines():
        print(f"excluded: {line}")
    seconds = before + time.perf_counter() - start
    print(f"{done} programs, {mismatches} mismatches, {crashes} crashes "
          f"({seconds:.0f} s, seed {args.seed})")
    if campaign is not None:
        print(f"campaign {args.state}: {done} of {len(items)} programs"
              + (", complete" if done >= len(items) else f"; run again to go on"))
    if args.report is not None:
        _write_report(args.report, tally, done, findings, seconds, argv)
        print(f"coverage report: {args.report}")
    return 1 if findings else 0


def _check_batch_job(batch: list[tuple[str, int]], k: int, quick: bool,
                     base: list[Variant] | None = None
                     ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Batch ``k`` checked against ``base`` (in a worker process, None: its variants are
    built there, since they hold closures) and batch ``k``'s forced strategies; findings and
    tally as plain values."""
    tally = Tally()
    if base is None:
        base = variants("quick" if quick else "all")
    extra = [] if quick else [forced_variant(forced_for_batch(k))]
    found = check_batch(batch, base + extra, tally=tally)
    return [asdict(f) for f in found], tally.to_json()


def _batches(items: list[tuple[str, int]], done: int, size: int, quick: bool, jobs: int,
             out_of_time: Callable[[], bool], base: list[Variant]
             ) -> Iterator[tuple[int, list[Finding], Tally]]:
    """(first program, findings, tally) of each batch from program ``done`` on, in order,
    against ``base`` and the batch's forced strategies; ``jobs`` > 1 checks that many
    batches at once in worker processes (which build ``base`` again). No new batch starts
    once ``out_of_time()``."""
    starts = iter(range(done, len(items), size))
    if jobs <= 1:
        for at in starts:
            if out_of_time():
                return
            found, tally = _check_batch_job(items[at : at + size], at // size, quick, base)
            yield at, [Finding(**f) for f in found], Tally.from_json(tally)
        return
    import collections
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        queue: collections.deque[tuple[int, Any]] = collections.deque()

        def submit() -> None:
            at = next(starts, None)
            if at is not None and not out_of_time():
                queue.append((at, pool.submit(_check_batch_job, items[at : at + size],
                                              at // size, quick)))

        for _ in range(jobs):
            submit()
        while queue:
            at, future = queue.popleft()
            found, tally = future.result()
            submit()
            yield at, [Finding(**f) for f in found], Tally.from_json(tally)


def _write_report(path: Path, tally: Tally, done: int, findings: list[Finding], seconds: float,
                  argv: list[str] | None) -> None:
    from experiments.lib.provenance import markdown_header, record

    mismatches = sum(f.kind == "mismatch" for f in findings)
    crashes = sum(f.kind == "crash" for f in findings)
    prov = record(["experiments/fuzz.py", *(sys.argv[1:] if argv is None else argv)])
    head = ["# Fuzz campaign: coverage and findings", "", markdown_header(prov),
            f"**{done} programs checked, {mismatches} mismatches, {crashes} crashes, "
            f"{seconds:.0f} s** (a shared, loaded 2-core machine)", "",
            "Stages: " + ", ".join(v.name for v in variants()) + f", and {FORCED}<strategies>"
            " (one strategy of each family of eqsat.strategies forced per batch, each "
            "family's in turn)", "",
            "Fast-math stages are compared within "
            f"{FAST_MATH_ULPS} ulps of the largest finite magnitude among the inputs and the "
            "reference results (at least 1), on the ordinary-values input only."]
    head += [f"- {f.kind} at {f.stage} (input seed {f.input_seed})" for f in findings]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tally.report(head))


if __name__ == "__main__":
    sys.exit(main())
