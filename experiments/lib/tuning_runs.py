"""Run functions of the cost-model tuning study (``tune_costs.py``): one spec, one measurement.

- ``run_micro``: a micro-benchmark, a small memref kernel repeating one VV/HWV op over a vector
  of ``width`` native f32 registers, compiled with our code generation for the target and timed
  with the harness (ns per call). Its ``features`` say how many native registers of each
  ``[cost]`` entry one call executes (the design matrix of the least-squares fit). Its O3
  assembly must keep a vector instruction per counted register (``check_not_folded``): a
  benchmark LLVM folds away fails its run.
- ``run_alternative``: one kernel of the generated corpus (``experiments/cost_corpus.py``) with
  one lowering strategy forced (cost overrides, as ``eqsat.forced_strategies`` builds them) or
  eqsat's own choice; its predicted cost under the target's (or ``Spec.costs``) table as
  extraction prices it (register pressure included), the cost's linear decomposition over the
  table's entries (so a refit re-prices the same program without saturating again), its
  measured ns per call, and whether its outputs match the reference interpreter's element by
  element.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from experiments.sweeplib import Spec

# The level the alternatives are extracted at: what `eqsat opt --target` extracts.
EMIT = "hwv"
F32 = "f32"


# -- micro-benchmarks ---------------------------------------------------------------------------
def _vt(n: int) -> str:
    return f"vector<{n}xf32>"


def _step(op: str, x: str, i: int, n: int, lanes: int) -> tuple[list[str], str, dict[str, float]]:
    """One step of the chain from ``%x``: its lines, its result and its register counts."""
    t = _vt(n)
    regs = max(1, -(-n // lanes))
    r = f"%r{i}"
    if op in ("arith.addf", "arith.subf", "arith.mulf", "arith.divf"):
        return [f"{r} = {op} {x}, %b : {t}"], r, {op: regs}
    if op == "vector.fma":
        return [f"{r} = vector.fma {x}, %b, %b : {t}"], r, {op: regs}
    if op == "math.fma":
        return [f"{r} = math.fma {x}, %b, %b : {t}"], r, {op: regs}
    if op == "math.absf":  # |x - b|: absf of absf would fold to one absf
        lines = [f"%u{i} = arith.subf {x}, %b : {t}", f"{r} = math.absf %u{i} : {t}"]
        return lines, r, {"arith.subf": regs, op: regs}
    if op in ("math.sqrt", "math.tanh"):  # bounded on [0, 1): abs first
        lines = [f"%u{i} = math.absf {x} : {t}", f"{r} = {op} %u{i} : {t}"]
        return lines, r, {"math.absf": regs, op: regs}
    if op in ("math.exp", "math.log"):  # tanh keeps the chain bounded (and finite)
        pre = [f"%u{i} = math.absf {x} : {t}"] if op == "math.log" else []
        src = f"%u{i}" if op == "math.log" else x
        lines = pre + [f"%e{i} = {op} {src} : {t}", f"{r} = math.tanh %e{i} : {t}"]
        feats = {op: regs, "math.tanh": regs}
        if op == "math.log":
            feats["math.absf"] = regs
        return lines, r, feats
    if op == "vector.broadcast":
        lines = [
            f"%s{i} = vector.extract {x}[{i % n}] : f32 from {t}",
            f"%bc{i} = vector.broadcast %s{i} : f32 to {t}",
            f"{r} = arith.addf %bc{i}, {x} : {t}",
        ]
        return lines, r, {"vector.extract": 1, op: regs, "arith.addf": regs}
    # Shuffles and inserts of one chain compose into one shuffle: an add between keeps each.
    if op == "vector.shuffle":
        mask = ", ".join(str((k * 3 + 1 + i) % (2 * n)) for k in range(n))
        lines = [f"%h{i} = vector.shuffle {x}, %b [{mask}] : {t}, {t}",
                 f"{r} = arith.addf %h{i}, %b : {t}"]
        return lines, r, {op: regs, "arith.addf": regs}
    if op == "vector.insert":  # an extract and an insert of one lane
        lines = [
            f"%s{i} = vector.extract {x}[{(i * 5) % n}] : f32 from {t}",
            f"%h{i} = vector.insert %s{i}, {x} [{(i * 7 + 1) % n}] : f32 into {t}",
            f"{r} = arith.addf %h{i}, %b : {t}",
        ]
        return lines, r, {"vector.extract": 1, "vector.insert": 1, "arith.addf": regs}
    if op == "vector.reduction":
        lines = [
            f"%s{i} = vector.reduction <add>, {x} : {t} into f32",
            f"%bc{i} = vector.broadcast %s{i} : f32 to {t}",
            f"{r} = arith.addf %bc{i}, %b : {t}",
        ]
        return lines, r, {op: regs, "vector.broadcast": regs, "arith.addf": regs}
    if op == "vector.load":  # a load from the second row, added in
        lines = [
            f"%l{i} = vector.load %B[%c{i % 4}] : {_memref(op, n)}, {t}",
            f"{r} = arith.addf {x}, %l{i} : {t}",
        ]
        return lines, r, {op: regs, "arith.addf": regs}
    if op == "vector.store":  # apart from each other: a store a later one covers is dead
        lines = [f"%o{i} = arith.constant {(i + 1) * n} : index",
                 f"vector.store {x}, %C[%o{i}] : {_memref(op, n)}, {t}"]
        return lines, x, {op: regs}
    raise ValueError(f"no micro-benchmark for {op}")


#: Micro-benchmarked ops: every [cost] entry the suite's alternatives spend most of their cost
#: on, and the arithmetic their chains need.
MICRO_OPS = (
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "vector.fma", "math.fma",
    "math.sqrt", "math.absf", "math.tanh", "math.exp", "math.log", "vector.broadcast",
    "vector.shuffle", "vector.insert", "vector.reduction", "vector.load", "vector.store",
    "vector.transpose",
)  # fmt: skip
BASE = "base"  # two loads and a store: what every chain pays around its ops
#: Reductions compiled with reassociation allowed (``reassoc``): measured and reported, not fit
#: (the table has one ``vector.reduction`` entry, and the suite compiles without reassoc).
REASSOC = "vector.reduction (reassoc)"
STEPS = 8


def _memref(op: str, n: int) -> str:
    """The micro-benchmark's buffers: a row of ``n`` and 4 more (STEPS + 1 rows for stores)."""
    rows = STEPS + 1 if op == "vector.store" else 1
    return f"memref<{rows * n + 4}xf32>"


def micro_module(op: str, width: int, lanes: int = 8) -> tuple[str, dict[str, float]]:
    """MLIR text of the micro-benchmark of ``op`` over ``width`` native registers, and the
    native registers of each ``[cost]`` entry one call runs (plus ``call`` = 1)."""
    n = width * lanes
    if op == "vector.transpose":
        return _transpose_module(width, lanes)
    t = _vt(n)
    m = _memref(op, n)
    lines = [f"func.func @micro(%A: {m}, %B: {m}, %C: {m}) {{"]
    lines += [f"  %c{k} = arith.constant {k} : index" for k in range(4)]
    lines += [f"  %a = vector.load %A[%c0] : {m}, {t}", f"  %b = vector.load %B[%c0] : {m}, {t}"]
    feats: dict[str, float] = {"call": 1.0, "vector.load": 2 * width, "vector.store": width}
    x = "%a"
    for i in range(0 if op == BASE else STEPS):
        body, x, f = _step(op, x, i, n, lanes)
        lines += [f"  {b}" for b in body]
        for k, v in f.items():
            feats[k] = feats.get(k, 0.0) + v
    lines += [f"  vector.store {x}, %C[%c0] : {m}, {t}", "  return", "}"]
    return "\n".join(lines) + "\n", feats


def _transpose_module(width: int, lanes: int) -> tuple[str, dict[str, float]]:
    """A chain of square transposes: an n x n tile spans ``width`` registers (n*n = width*8)."""
    n = int(round((width * lanes) ** 0.5))
    if n * n != width * lanes:
        raise ValueError(f"no square transpose spans {width} registers")
    t, m = f"vector<{n}x{n}xf32>", f"memref<{n}x{n}xf32>"
    lines = [f"func.func @micro(%A: {m}, %B: {m}, %C: {m}) {{", "  %c0 = arith.constant 0 : index"]
    lines += [f"  %a = vector.load %A[%c0, %c0] : {m}, {t}"]
    x = "%a"
    for i in range(STEPS):  # an add after each: transposes in pairs would fold to nothing
        lines.append(f"  %p{i} = vector.transpose {x}, [1, 0] : {t} to {t}")
        lines.append(f"  %r{i} = arith.addf %p{i}, %a : {t}")
        x = f"%r{i}"
    lines += [f"  vector.store {x}, %C[%c0, %c0] : {m}, {t}", "  return", "}"]
    feats = {"call": 1.0, "vector.load": width, "vector.store": width}
    feats["vector.transpose"] = feats["arith.addf"] = STEPS * width
    return "\n".join(lines) + "\n", feats


def micro_widths(op: str, lanes: int = 8) -> tuple[int, ...]:
    """Widths in native registers: 1, 2, 4, 8 (square tiles only for transposes)."""
    widths = (1, 2, 4, 8)
    if op == "vector.transpose":
        return tuple(w for w in widths if int(round((w * lanes) ** 0.5)) ** 2 == w * lanes)
    return widths


def _time(module: Any, entry: str, target: Any, args: dict[str, str], repeats: int,
          seconds: float, reassoc: bool = False) -> tuple[float, list[Any]]:
    """(median ns per call, outputs of one call) of ``@entry`` compiled with our codegen."""
    from eqsat.bench.harness import Compiled, make_inputs, median_ns, signature
    from eqsat.codegen import emit_llvm_ir

    sig = signature(module, entry)
    compiled = Compiled(emit_llvm_ir(module, target, layout="nested", reassoc=reassoc), sig,
                        target)
    inputs = make_inputs(sig, args, seed=0)
    timer = compiled.timer(inputs)
    timer.calibrate(seconds)
    return median_ns([timer], repeats)[0], compiled.run(inputs)


def _target(spec: Spec) -> Any:
    from eqsat.targets import load_target

    return load_target(spec.costs or spec.target or "avx2")


def run_micro(spec: Spec) -> dict[str, Any]:
    """params: op, width, repeats, seconds (per sample), reassoc (reductions only)."""
    from frontend import parse

    p = spec.params
    target = _target(spec)
    lanes = target.lanes(F32) or 8
    text, feats = micro_module(p["op"], int(p["width"]), lanes)
    module = parse(text, f"<micro {p['op']} x{p['width']}>")
    reassoc = bool(p.get("reassoc", False))
    out: dict[str, Any] = {}
    if p["op"] != BASE:  # a benchmark LLVM folds away is an error, not a timing
        out["vector_instructions"], _ = check_not_folded(p["op"], int(p["width"]), target, lanes)
    if reassoc:  # a shuffle tree instead of the ordered chain: not the table's own entry
        feats[REASSOC] = feats.pop(p["op"])
    ns, _ = _time(module, "micro", target, {}, int(p["repeats"]), float(p["seconds"]), reassoc)
    return {**out, "ns_per_call": ns, "features": feats}


# -- the O3 check of a micro-benchmark ---------------------------------------------------------
def vector_instructions(text: str, target: Any) -> int:
    """Instructions of ``@micro`` naming an x86 vector register, and calls, in its O3 assembly
    for ``target`` (what LLVM kept of the chain; a libm op on a register is one call of its
    lane helper, ``eqsat/codegen/math.py``)."""
    from eqsat.codegen import emit_assembly
    from experiments.lib.kernel_variants import function_assembly
    from frontend import parse

    asm = emit_assembly(parse(text, "<micro>"), target)
    body = [ln.split("#", 1)[0] for ln in function_assembly(asm, "micro")]
    return sum(1 for ln in body if re.search(r"%[xyz]mm\d", ln) or ln.split()[:1] == ["callq"])


def check_not_folded(op: str, width: int, target: Any, lanes: int) -> tuple[int, float]:
    """(vector instructions beyond the base kernel's, native registers of ``op`` counted) of a
    micro-benchmark after O3; raises ``ValueError`` when LLVM folded the chain away (fewer
    instructions than the registers the features count: a benchmark that times nothing)."""
    text, feats = micro_module(op, width, lanes)
    base, base_feats = micro_module(BASE, width, lanes)
    extra = vector_instructions(text, target) - vector_instructions(base, target)
    need = feats[op] - base_feats.get(op, 0.0)
    if extra < need:
        raise ValueError(
            f"micro-benchmark {op} x{width} compiles to {extra} vector instructions beyond the "
            f"base kernel's after O3, fewer than the {need:g} registers of {op} it counts: "
            "LLVM folded the measured chain away"
        )
    return extra, need


# -- alternatives of the generated corpus -------------------------------------------------------
def kernel_module(name: str) -> tuple[Any, str]:
    """The parsed kernel ``name`` of the generated corpus (``experiments/cost_corpus.py``) and
    its text."""
    from frontend import parse

    texts = _corpus_texts()
    if name not in texts:
        raise ValueError(f"no kernel {name!r} in the generated corpus")
    return parse(texts[name], f"{name}.mlir"), texts[name]


@functools.cache
def _corpus_texts() -> dict[str, str]:
    """The generated corpus by name (generated once per process: it is deterministic)."""
    from experiments.cost_corpus import corpus

    return dict(corpus())


def kernel_names() -> list[str]:
    """Every kernel of the generated corpus, in its fixed order."""
    return list(_corpus_texts())


def alternatives(name: str) -> list[str]:
    """``eqsat`` and ``<op>=<strategy>`` for every MLIR strategy and every strategy of ours
    that MLIR has no name for, of every lowered op the kernel holds
    (``eqsat.forced_strategies``)."""
    from eqsat.forced_strategies import FAMILIES, own_strategies

    module, _ = kernel_module(name)
    present = {op.name for op in module.walk()}
    out = ["eqsat"]
    for op, (_, names) in FAMILIES.items():
        if op in present:
            out += [f"{op}={s}" for s in [*names, *own_strategies(op)]]
    return out


def scaled_table(table: Mapping[str, Any], scales: Mapping[str, float]) -> dict[str, Any]:
    """``table`` with entry ``k`` multiplied by ``scales[k]`` (every element type alike)."""
    out = dict(table)
    for k, s in scales.items():
        e = table.get(k, table.get("default", 1.0))
        out[k] = {t: v * s for t, v in e.items()} if isinstance(e, Mapping) else float(e) * s
    return out


def full_cost(snap: Any, root: int, choice: Mapping[int, int], model: Any) -> float:
    """The cost extraction gives a chosen program: its DAG cost plus the whole-block pressure
    term (spills and reloads, ``TargetCost.program_cost``)."""
    return snap.result(root, choice, model, dag=True).dag_cost + model.program_cost(
        snap, root, choice
    )


def decompose(snap: Any, ex: Any, root: int, target: Any) -> tuple[float, dict[str, float]]:
    """The program's full cost under ``target``'s plain table (pressure included) and each
    entry's share of it: cost is linear in every entry (registers x per-register price, spills
    x the load and store prices), so the share of ``k`` is the cost with ``k`` doubled minus
    the cost. The rest (``const``) is what no entry prices linearly (the cheaper of two
    transpose plans, ``EMITTED_TRANSPOSE``, can switch)."""
    def cost_with(table: Mapping[str, Any]) -> float:
        t = dataclasses.replace(target, cost=dict(table))
        return full_cost(snap, root, ex.choice, t.cost_model(emit=EMIT))

    table = dict(target.cost)
    base = cost_with(table)
    keys = set(table) | _used_ops(ex.term)
    shares: dict[str, float] = {}
    for k in sorted(keys):
        if k != "default" and k not in table:  # priced by default: share of the default
            continue
        d = cost_with(scaled_table(table, {k: 2.0})) - base
        if d and np.isfinite(d):
            shares[k] = d
    shares["const"] = base - sum(shares.values())
    return base, shares


def program_shares(result: Any, target: Any) -> tuple[float, dict[str, float]]:
    """``decompose`` summed over every block one optimization round extracted (a function
    body and its loop bodies), as extraction sums their costs."""
    total, shares = 0.0, {}
    for block in result.encoder.blocks:
        ex = result.extractions[block.index]
        cost, part = decompose(result.snapshot, ex, result.snapshot.root(block.root), target)
        total += cost
        for k, v in part.items():
            shares[k] = shares.get(k, 0.0) + v
    return total, shares


def _used_ops(term: Any) -> set[str]:
    from eqsat.schema import by_constructor

    out: set[str] = set()
    stack = [term]
    while stack:
        t = stack.pop()
        c = by_constructor().get(t.op)
        if c is not None:
            out.add(c.op)
        stack.extend(t.children)
    return out


def tolerance(text: str) -> float:
    """Relative tolerance of an alternative's outputs against the interpreter's, element by
    element (``eqsat.bench.harness.compare``): the benchmark's, or half-precision rounding
    for f16 kernels (lowerings sum in other orders)."""
    from eqsat.bench.run import RTOL

    return 4e-3 if "xf16>" in text else RTOL


def run_alternative(spec: Spec) -> dict[str, Any]:
    """params: kernel, alternative, repeats, seconds, time (False: predicted cost only)."""
    from eqsat.bench.harness import compare, make_inputs, signature
    from eqsat.bench.run import interpret
    from eqsat.forced_strategies import forced_cost_overrides
    from eqsat.optimizer import optimize_module
    from frontend.printer import print_module

    p = spec.params
    target = _target(spec)
    module, text = kernel_module(p["kernel"])
    alt = p["alternative"]
    overrides = {} if alt == "eqsat" else forced_cost_overrides(dict([alt.split("=", 1)]))
    # One round: the program timed is the one whose cost is decomposed (a second round would
    # re-extract what the strategies emitted, see optimize_module).
    result = optimize_module(module, target=target, emit=EMIT, rounds=1,
                             cost=target.cost_model(overrides, emit=EMIT))
    assert result.snapshot is not None and result.encoder is not None
    predicted, shares = program_shares(result, target)
    kind = alt.split("=", 1)[0]
    out: dict[str, Any] = {
        "predicted_cost": predicted, "shares": shares, "program": print_module(result.module),
        "extracted_cost": float(result.cost),  # what extraction itself reported (overrides too)
        "applies": alt == "eqsat" or all(op.name != kind for op in result.module.walk()),
    }
    if p.get("time", True) and out["applies"]:
        entry = next(iter(module.functions()))
        sig = signature(module, entry)
        oracle = interpret(module, sig, make_inputs(sig, {}, seed=0))
        ns, outputs = _time(result.module, entry, target, {}, int(p["repeats"]),
                            float(p["seconds"]))
        agreement = compare(oracle, outputs, tolerance(text))
        out["ns_per_call"] = ns
        out["checked"], out["max_rel"] = agreement.equal, agreement.max_rel
    return out
