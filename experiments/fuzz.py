"""Differential fuzzing: random programs, every stage of the pipeline, every output compared.

    python experiments/fuzz.py --n 1000 --seed 0 [--quick] [--batch 25] [--save-dir DIR]

Each program of ``eqsat.fuzzgen.programs()`` is printed and parsed back (the same text),
interpreted on inputs that include special values (``eqsat.special_values``), optimized
(default costs; every lowering strategy forced; unrolled to each target's native widths; each
target's cost model at HWV level), decoded, printed, parsed and interpreted again, and compiled
for every target this machine runs (as given, and extracted at HWV level). Every output (results and memory written) must match the
interpreter's on the original bit for bit (any NaN equals any NaN). Inputs on which the
original program is undefined (division by zero, ...) are skipped.

Programs are checked in batches: one module holds a batch's functions, so the e-graph and the
rules are set up once per batch and variant (that setup is most of an optimization's time).
A failing program is shrunk (``experiments.fuzz_shrink``) and saved under
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script

from eqsat import special_values  # noqa: E402
from eqsat.interpret import Interpreter  # noqa: E402
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
    build: Callable[[Module], Module] | None  # the optimized module (None: compiled run)
    # A compiled run: the module compiled once, its functions called as attributes.
    compile: Callable[[Module], Any] | None = None


# Compiled runs of programs that contain these are not compared: LLVM gives poison for
# fptoui/fptosi out of range where the interpreter gives a value, and the payload of a NaN that
# arithmetic produces is unspecified in LLVM (x86 and the interpreter propagate different
# bits), which a bitcast to integers exposes; llvm.minnum/maxnum may return either zero of
# minnum(+0, -0) (minnumf/maxnumf ops, reductions and contractions of those kinds).
POISON_OPS = (
    "arith.fptoui", "arith.fptosi", "vector.bitcast", "arith.bitcast", "minnumf", "maxnumf",
)  # fmt: skip


def _optimize(**kwargs: Any) -> Callable[[Module], Module]:
    def build(module: Module) -> Module:
        from eqsat.optimize import optimize_module

        out = optimize_module(module, **kwargs).module
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
    out.extend(_compiled_variants())
    return out


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
        for label, prepare in ((name, None), (f"hwv-{name}", hwv)):

            def build(module: Module, target: str = name, prepare=prepare) -> Any:
                source = prepare(module) if prepare is not None else module
                return compile_(print_module(source), target=target)

            out.append(Variant(f"compiled-{label}", None, build))
    return out


def _call_compiled(program: Any, fn: str, args: list[Any]) -> list[Any]:
    copied = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    printed = io.StringIO()  # compiled vector.print writes through sys.stdout
    with contextlib.redirect_stdout(printed):
        result = getattr(program, fn)(*copied)
    return _outputs(result, copied, printed.getvalue())


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


def _call(module: Module, fn: str, args: list[Any]) -> list[Any]:
    out = io.StringIO()
    copied = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    r = Interpreter(module, out=out).call(fn, *copied)
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
    cases: list[tuple[str, int]], chosen: list[Variant], stop: Callable[[], bool] | None = None
) -> list[Finding]:
    """Check programs ``(text, input_seed)`` against every variant; returns the findings."""
    findings: list[Finding] = []
    prepared = [(i, c) for i, (t, s) in enumerate(cases) if (c := _prepare(t, s, findings))]
    if not prepared:
        return findings
    batch = _batch_module([(i, c.text) for i, c in prepared])
    for variant in chosen:
        if variant.build is not None:
            try:
                built = variant.build(batch)
            except Exception:  # noqa: BLE001 - find which program breaks it, alone
                for i, c in prepared:
                    findings.extend(_check_one(c, variant))
                continue
            for i, c in prepared:
                findings.extend(_compare_runs(c, variant, lambda a, i=i: _call(built, f"f{i}", a)))
        else:
            try:
                program = variant.compile(batch)  # type: ignore[misc]
            except Exception:  # noqa: BLE001 - find which program breaks it, alone
                for i, c in prepared:
                    findings.extend(_check_one(c, variant))
                continue
            for i, c in prepared:
                if not any(op in c.text for op in POISON_OPS):
                    run = lambda a, i=i: _call_compiled(program, f"f{i}", a)  # noqa: E731
                    findings.extend(_compare_runs(c, variant, run))
    return findings


def _check_one(case: _Case, variant: Variant) -> list[Finding]:
    assert case.module is not None
    if variant.build is not None:
        try:
            built = variant.build(case.module)
        except Exception:  # noqa: BLE001
            return [Finding("crash", variant.name, traceback.format_exc(), case.text, case.seed)]
        return _compare_runs(case, variant, lambda a: _call(built, "f", a))
    assert variant.compile is not None
    if any(op in case.text for op in POISON_OPS):
        return []
    try:
        program = variant.compile(case.module)
    except Exception:  # noqa: BLE001
        return [Finding("crash", variant.name, traceback.format_exc(), case.text, case.seed)]
    return _compare_runs(case, variant, lambda a: _call_compiled(program, "f", a))


def _compare_runs(
    case: _Case, variant: Variant, run: Callable[[list[Any]], list[Any]]
) -> list[Finding]:
    for args, want in case.trials:
        try:
            got = run(args)
        except MLIRError as e:
            return [Finding("mismatch", variant.name, f"faults where the original does not: "
                            f"{str(e).splitlines()[0]}", case.text, case.seed)]
        except Exception:  # noqa: BLE001
            return [Finding("crash", variant.name, traceback.format_exc(), case.text, case.seed)]
        problem = _compare(want, got)
        if problem is not None:
            return [Finding("mismatch", variant.name, problem, case.text, case.seed)]
    return []


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
    args = ap.parse_args(argv)
    n = min(args.n, 40) if args.quick else args.n
    chosen = variants("quick" if args.quick else "all")
    start = time.perf_counter()
    print(f"variants: {', '.join(v.name for v in chosen)}", file=sys.stderr)
    findings: list[Finding] = []
    batch: list[tuple[str, int]] = []
    done = 0
    for item in generate(n, args.seed, args.max_ops):
        batch.append(item)
        if len(batch) == args.batch:
            findings += check_batch(batch, chosen)
            done += len(batch)
            batch = []
            if args.verbose:
                print(f"  {done} programs, {len(findings)} findings, "
                      f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    if batch:
        findings += check_batch(batch, chosen)
        done += len(batch)
    mismatches = sum(f.kind == "mismatch" for f in findings)
    crashes = sum(f.kind == "crash" for f in findings)
    for f in findings:
        print(f"\n{f.kind.upper()} at {f.stage} (input seed {f.input_seed}): "
              f"{f.detail.strip().splitlines()[-1] if f.detail.strip() else ''}")
        if not args.no_shrink:
            from experiments.fuzz_shrink import shrink

            stage = [v for v in chosen if v.name == f.stage]
            f = shrink(f, lambda text, seed: check_program(text, seed, stage))
            print(f"saved {save_regression(f, args.save_dir)}")
        print(f.text)
    print(f"{done} programs, {mismatches} mismatches, {crashes} crashes "
          f"({time.perf_counter() - start:.0f} s, seed {args.seed})")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
