"""The Python front door, re-exported by the ``eqsat`` package: parse -> optimize -> compile
or interpret, with targets given by name (``"avx2"``) or as ``eqsat.targets.Target`` objects.

    import eqsat
    module = eqsat.parse(text)
    better = eqsat.optimize(module, target="avx2")       # equality saturation, per target
    program = eqsat.compile(better, target="avx2")         # LLVM JIT; optimize=True does both
    program.f(x, y)                                        # numpy in, numpy out
    eqsat.interpret(better, "f", x, y)                     # the numpy reference interpreter

``compile`` does not optimize unless asked (``optimize=True``), and neither does
``eqsat run``: they compile the program as written, as ``mlir-opt`` + ``mlir-runner`` would.
This module sits on the top floor (it reads the core, the targets and code generation); code
generation, and with it LLVM, is loaded only when ``compile`` is called.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eqsat.optimizer import Budget, optimize_module
from eqsat.version import version  # noqa: F401 - part of the API
from eqsat.targets import Target, load_target
from frontend import parse as _parse
from frontend.ir import Module

if TYPE_CHECKING:
    from eqsat.codegen import Program


def parse(text: str, name: str = "<string>") -> Module:
    """Parse and verify MLIR text; errors raise ``frontend.MLIRError`` naming NAME:LINE:COL."""
    return _parse(text, name)


def _module(source: str | Module) -> Module:
    return source if isinstance(source, Module) else parse(source)


def _target(target: str | Target | None) -> Target | None:
    return target if target is None or isinstance(target, Target) else load_target(target)


def optimize(
    module: str | Module,
    target: str | Target | None = None,
    *,
    emit: str | None = None,
    fast_math: bool = False,
    rules: Iterable[str | Path] = (),
    rules_phase: str | None = None,
    costs: Mapping[str, float] | None = None,
    native: Mapping[str, int] | None = None,
    budget: Budget | None = None,
    extractor: str | None = None,
    disabled: Iterable[str] = (),
    phases: Iterable[str] | None = None,
    fp_contract: bool = False,
) -> Module:
    """The program optimized by equality saturation, as ``eqsat opt`` does.

    ``target``: a target name (``eqsat targets`` lists them), a target file's path or a
    ``Target``; without one the target-independent VV cost model is used. ``emit``: ``"vv"``
    or ``"hwv"`` (the default with a target: the target's hardware ops). ``costs``: cost
    overrides by constructor or op name (checked: a misspelt name raises ``ValueError``).
    ``rules``: rule files of your own, joining phase ``rules_phase`` (default explore).
    ``disabled``: rule or ruleset names to leave out; ``phases``: the phases to run.
    ``fp_contract``: float contractions fuse each multiply-add (fp-contract mode; run or compile
    the result with the same flag).
    For the saturation report and the e-graph, call ``eqsat.optimizer.optimize_module``."""
    from eqsat.cost import vv_cost
    from eqsat.cost_options import cost_problem, vv_name

    t = _target(target)
    emit = emit or ("hwv" if t is not None else "vv")
    if emit not in ("vv", "hwv") or (emit == "hwv" and t is None):
        raise ValueError(f"emit must be 'vv' or, with a target, 'hwv'; got {emit!r}")
    overrides = dict(costs or {})
    for name, value in overrides.items():
        problem = cost_problem(name, value)
        if problem:
            raise ValueError(problem)
    if t is not None:
        cost = t.cost_model(overrides, emit, fast_math)
    else:
        unknown = [n for n in overrides if vv_name(n) is None]
        if unknown:
            raise ValueError(f"only a target's cost model prices {', '.join(unknown)}")
        cost = vv_cost({vv_name(n) or n: v for n, v in overrides.items()})
    result = optimize_module(
        _module(module),
        budget=budget,
        cost=cost,
        extra_rule_paths=tuple(rules),
        native=dict(native) if native is not None else None if t is not None else {},
        fast_math=fast_math,
        target=t,
        emit=emit,
        extractor=extractor,
        rules_phase=rules_phase,
        disabled=frozenset(disabled),
        phases=tuple(phases) if phases is not None else None,
        fp_contract=fp_contract,
    )
    return result.module


_optimize = optimize  # ``compile``'s ``optimize`` flag shadows the name


def compile(
    source: str | Module,
    target: str | Target = "avx2",
    *,
    optimize: bool = False,
    fast_math: bool = False,
    entry: str | None = None,
    fp_contract: bool = False,
    **codegen: Any,
) -> Program:
    """A compiled program (``program.f(...)`` calls @f on numpy arrays) for a target this host
    runs. ``optimize=True`` runs ``optimize(source, target, fast_math=...)`` first; by default
    the program is compiled as written. ``fast_math`` also lets float reductions reassociate;
    ``fp_contract``: float contractions fuse each multiply-add, optimized and compiled alike.
    Other keywords go to ``eqsat.codegen.compile`` (``layout``, ``opt``, ``checked``, ...)."""
    from eqsat.codegen import compile as codegen_compile

    t = _target(target)
    assert t is not None
    module = _module(source)
    if optimize:
        module = _optimize(module, t, fast_math=fast_math, fp_contract=fp_contract)
    return codegen_compile(
        module, t, entry=entry, reassoc=fast_math, fp_contract=fp_contract, **codegen
    )


def interpret(source: str | Module, entry: str = "entry", *args: Any, **options: Any) -> Any:
    """Run function @entry of the program in the numpy reference interpreter: arrays for
    memrefs (written in place) and vectors, numbers for scalars; returns its result(s).
    ``options`` go to ``eqsat.interpreter.Interpreter`` (``vscale``, ``out``, ...)."""
    from eqsat.interpreter import Interpreter

    return Interpreter(_module(source), **options).call(entry, *args)
