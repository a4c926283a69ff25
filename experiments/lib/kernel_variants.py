"""The variants the lowering studies compile: eqsat under a target's cost model (its own choice,
or one strategy forced per op kind), MLIR 22's default lowering, and assembly statistics.

Shared by ``lowering_choices.py`` and ``nested_vs_flat.py``; every variant comes out as LLVM IR
text with MLIR's names and ABI, which the benchmark harness (``eqsat.bench.harness``) compiles,
checks and times the same way for all.
"""

from __future__ import annotations

import os
import platform
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eqsat.bench.harness import file_scalar_args as kernel_args

KERNELS = Path(__file__).resolve().parent.parent / "bench_kernels"

#: Forced strategies per op kind (MLIR 22's names, as ``eqsat.forced_strategies.FAMILIES``
#: spells them). The contraction's matrix intrinsic only with reassociation (the intrinsic sums
#: in its own order); the transpose's flat intrinsic is not one of the study's alternatives.
FORCED: dict[str, tuple[str, ...]] = {
    "vector.contract": ("dot", "outerproduct", "parallelarith"),
    "vector.transpose": ("eltwise", "shuffle_1d", "shuffle_16x16"),
    "vector.multi_reduction": ("innerparallel", "innerreduction"),
}
FORCED_REASSOC: dict[str, tuple[str, ...]] = {"vector.contract": ("llvmintr",)}
SHORT_KIND = {
    "vector.contract": "contract",
    "vector.transpose": "transpose",
    "vector.multi_reduction": "multi_reduction",
}


def kernel_paths(names: list[str] | None = None) -> list[Path]:
    """The suite's kernel files (``experiments/bench_kernels``), all or the ones named."""
    paths = sorted(KERNELS.glob("*.mlir"))
    if names is None:
        return paths
    known = {p.stem: p for p in paths}
    missing = [n for n in names if n not in known]
    if missing:
        raise ValueError(f"unknown kernels {missing} (known: {', '.join(known)})")
    return [known[n] for n in names]


def load_kernel(spec: Any) -> tuple[Any, Path, str, Any]:
    """The target, kernel file, text and parsed module that a study's spec names."""
    from eqsat.targets import load_target
    from frontend import parse

    path = kernel_paths([spec.params["kernel"]])[0]
    text = path.read_text()
    return load_target(spec.target), path, text, parse(text, path.name)


def op_kinds(module: Any) -> list[str]:
    """The op kinds of ``module`` that have forcible lowering strategies, in FORCED order."""
    names = {op.name for op in module.walk()}
    return [k for k in FORCED if k in names]


def forced_choices(module: Any, reassoc: bool) -> list[tuple[str, str]]:
    """Every (op kind, MLIR strategy name) the study forces on ``module``."""
    out = []
    for kind in op_kinds(module):
        extra = FORCED_REASSOC.get(kind, ()) if reassoc else ()
        out += [(kind, s) for s in FORCED[kind] + extra]
    return out


@dataclass
class EqsatVariant:
    """One eqsat compilation: the optimized module, its predicted cost and LLVM IR."""

    module: Any
    predicted_cost: float
    ir: str


def eqsat_variant(
    module: Any,
    target: Any,
    choice: Mapping[str, str] | None = None,
    emit: str = "vv",
    reassoc: bool = False,
    layout: str = "nested",
    fp_contract: bool = False,
) -> EqsatVariant:
    """Optimize ``module`` under ``target``'s cost model at level ``emit`` (``choice``, {op
    kind: strategy}, prices every other strategy of that kind out) and emit LLVM IR; the
    predicted cost is the first round's (``first_round_cost``). ``fp_contract``: in
    fp-contract mode (float contractions fuse each multiply-add), optimized and emitted alike."""
    from eqsat.codegen import emit_llvm_ir
    from eqsat.forced_strategies import forced_cost_overrides
    from eqsat.optimizer import optimize_module

    overrides = forced_cost_overrides(choice) if choice else None
    result = optimize_module(
        module,
        target=target,
        emit=emit,
        cost=target.cost_model(overrides, emit, reassoc),
        fast_math=reassoc,
        fp_contract=fp_contract,
    )
    ir = emit_llvm_ir(result.module, target, layout=layout, reassoc=reassoc,
                      fp_contract=fp_contract)
    return EqsatVariant(result.module, first_round_cost(result), ir)


def first_round_cost(result: Any) -> float:
    """The cost of the first extraction round's choice (the round that picks the lowering
    strategies), summed over its blocks. A later round re-prices what the strategies emitted
    (``optimize_module``'s ``cost`` is the last round's), and a variant that needs no second
    round would otherwise be priced by other rules than one that does: every variant is
    priced by the round where its choice was made."""
    return float(sum(ex.cost for ex in result.extractions.values()))


def strategy_applies(variant: EqsatVariant, kind: str) -> bool:
    """False when the forced strategy did not apply to every op of ``kind``: extraction kept
    such an op (at the prohibitive ``KEPT_OP_COST``), so the variant is not the strategy's."""
    return all(op.name != kind for op in variant.module.walk())


_NOT_INSTRUCTION = re.compile(r"^(\.|#|//|;|@)")


def function_assembly(asm: str, entry: str) -> list[str]:
    """The lines of ``@entry``'s body in assembly text (its label to its ``.Lfunc_end``)."""
    lines = asm.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.strip() == f"{entry}:"), None)
    if start is None:
        raise ValueError(f"no function {entry} in the assembly")
    body = []
    for ln in lines[start + 1 :]:
        if ln.strip().startswith(".Lfunc_end"):
            break
        body.append(ln)
    return body


def count_instructions(asm: str, entry: str) -> int:
    """Machine instructions of ``@entry``: lines that are neither labels, directives nor
    comments (x86 ``#``, AArch64 ``//``)."""
    n = 0
    for ln in function_assembly(asm, entry):
        s = ln.split("#", 1)[0].split("//", 1)[0].strip()
        if not s or s.endswith(":") or _NOT_INSTRUCTION.match(s):
            continue
        n += 1
    return n


def machine() -> str:
    """CPU model, CPU count, OS: what the timings were measured on."""
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


def geomean(xs: list[float]) -> float | None:
    """Geometric mean of positive numbers (None for none)."""
    import math

    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None
