"""One benchmark: every variant of one kernel compiled for one target, checked and timed.

The ``eqsat`` row is the kernel optimized for the target (its cost model, HWV level) and
compiled by ``eqsat.codegen``; its results are checked against the reference interpreter, and
every other variant's against the eqsat row of its group (``eqsat.bench.variants``).

Variants with identical LLVM IR are compiled and timed once (the others name it). Each variant
is compiled and timed in child processes (``eqsat.bench.isolate``): one per set of LLVM options
and placement, ``placements`` times into fresh processes (fresh code placement), its samples
interleaved with the other variants' of the same process. A variant that crashes or hangs is a
row saying so.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from eqsat.bench.harness import (
    Agreement,
    Signature,
    compare,
    copy_inputs,
    edge_inputs,
    empty_function_text,
    make_inputs,
    measure_clock_ghz,
    signature,
    with_edges,
)
from eqsat.bench.isolate import ItemResult, run_isolated
from eqsat.bench.mlir_baseline import CannotLower, require_tools
from eqsat.bench.variants import Variant, with_fast_math
from eqsat.bench.worker import Job
from eqsat.codegen.llvm_options import LlvmOptions
from eqsat.targets import Target
from frontend import Module, parse, print_module
from frontend.errors import RuntimeFault, SourceLoc

#: Floating-point agreement: relative to the output's magnitude (FMA vs separate multiply-add
#: already differ in the last bit between MLIR's own strategies).
RTOL = 1e-5
RTOL_REASSOC = 1e-4
#: FMA units per core assumed for the peak (every x86 core with AVX2 since Haswell / Zen 2).
FMA_UNITS = 2


@dataclass
class Row:
    """One variant's line of the table. ``spread`` is the (min, max) of the medians of the
    placements (fresh compiles); ``compile_s`` is IR generation plus LLVM's compile."""

    variant: str
    group: str = ""
    ns_per_call: float | None = None
    agreement: Agreement | None = None
    compile_s: float | None = None
    note: str = ""
    spread: tuple[float, float] | None = None
    same_as: str | None = None  # the row with identical LLVM IR that was timed for this one
    failure: str | None = None  # crashed, hung, refused
    screened_only: bool = False  # timed in the search's first stage only (one placement)

    @property
    def equal(self) -> bool | None:
        return None if self.agreement is None else self.agreement.equal

    @property
    def exact(self) -> bool | None:
        """Bit for bit the reference's results (what the strict program computes)."""
        return None if self.agreement is None else self.agreement.exact

    @property
    def reassoc(self) -> bool:
        return self.group != ""


@dataclass
class Report:
    """The table of one kernel on one target, with what it is relative to."""

    file: str
    entry: str
    target: Target
    repeats: int
    rows: list[Row] = field(default_factory=list)
    placements: int = 1
    options: LlvmOptions | None = None
    reference: str = ""  # what "equal" compares with
    flops: int | None = None
    clock: tuple[float, str] | None = None  # (GHz, where it came from)
    # ns per call of an empty function with the same signature in the same loop (the ABI's
    # share of every row: memref descriptors are 5 + 2 x rank words each)
    call_ns: float | None = None
    # fp-contract mode: eqsat's float contractions fuse each multiply-add, and the reference
    # interpreter runs in that mode (MLIR's outerproduct lowering then computes its bits)
    fp_contract: bool = False
    # how "exact" was checked beyond the ordinary inputs (the edge-value probes, or why none)
    edges: str = ""

    def row(self, variant: str) -> Row | None:
        return next((r for r in self.rows if r.variant == variant), None)

    def baseline_for(self, row: Row) -> Row | None:
        """The row ratios are taken to: ours, like with like (the eqsat row of the group)."""
        return self.row(f"eqsat{row.group}") or self.row("eqsat") or self.row("mlir-default")

    def ratio(self, row: Row) -> float | None:
        base = self.baseline_for(row)
        if base is None or not base.ns_per_call or row.ns_per_call is None:
            return None
        return row.ns_per_call / base.ns_per_call

    def peak_gflops(self) -> float | None:
        lanes = self.target.lanes("f32")
        if self.clock is None or lanes is None:
            return None
        return FMA_UNITS * lanes * 2 * self.clock[0]


def contraction_flops(module: Module, entry: str) -> int | None:
    """2 x the iteration-space size of every ``vector.contract`` of ``@entry`` (a multiply and
    an add per point); None when there is none, or when loops or calls make a static count
    meaningless."""
    func = module.functions()[entry]
    total = 0
    for block in func.regions[0].blocks:
        for op in block.ops:
            if op.name in ("scf.for", "scf.while", "func.call") or op.regions:
                return None
            if op.name != "vector.contract":
                continue
            maps = [m.map.result_positions() for m in op.attributes["indexing_maps"].values]
            sizes: dict[int, int] = {}
            for operand, dims in zip(op.operands[:2], maps[:2]):
                for d, n in zip(dims, getattr(operand.type, "shape", ())):
                    sizes[d] = int(n)
            total += 2 * math.prod(sizes.values())
    return total or None


def cpu_clock_ghz() -> tuple[float, str] | None:
    """The clock the peak is computed from: measured (a dependent-add chain, see
    ``measure_clock_ghz``), else ``cpu MHz`` of ``/proc/cpuinfo`` (in a VM the nominal clock,
    below the boost clock kernels run at, which overstates the fraction of peak)."""
    ghz = measure_clock_ghz()
    if ghz:
        return ghz, "measured: dependent-add chain, 1 cycle per add"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("cpu MHz"):
                return float(line.split(":")[1]) / 1000, "/proc/cpuinfo cpu MHz"
    except (OSError, ValueError, IndexError):
        return None
    return None


def eqsat_llvm_ir(
    module: Module, target: Target, group: str, layout: str, fp_contract: bool = False
) -> str:
    """Our variant: optimize for the target (its cost model, widths and legalize rules; float
    reductions priced as trees in both other groups, the fast-math rewrites only in the
    ``+fast-math`` group), then emit LLVM IR with ``eqsat.codegen`` (float reductions
    reassociated in both other groups); ``fp_contract``: both in fp-contract mode."""
    from eqsat.codegen import emit_llvm_ir
    from eqsat.optimizer import optimize_module

    fast = group == "+fast-math"
    # +reassoc: float reductions priced as trees (the cost model's reassoc), no fast-math rules
    cost = target.cost_model(emit="hwv", reassoc=True) if group == "+reassoc" else None
    result = optimize_module(module, target=target, emit="hwv", fast_math=fast, cost=cost,
                             fp_contract=fp_contract)  # fmt: skip
    return emit_llvm_ir(result.module, target, layout=layout, reassoc=group != "",
                        fp_contract=fp_contract)  # fmt: skip


def _outputs(sig: Signature, bufs: Sequence[Any], result: Any) -> list[Any]:
    return [b for b in bufs if isinstance(b, np.ndarray)] + ([result] if sig.result else [])


def interpret(
    module: Module, sig: Signature, inputs: Sequence[Any], fp_contract: bool = False
) -> list[Any]:
    """The reference interpreter's outputs on fresh copies of ``inputs`` (in fp-contract mode
    when ``fp_contract``)."""
    from eqsat.interpreter import Interpreter

    bufs = copy_inputs(inputs)
    result = Interpreter(module, fp_contract=fp_contract).call(sig.entry, *bufs)
    return _outputs(sig, bufs, result)


def groups_for(reassoc: bool, fast_math: bool) -> tuple[str, ...]:
    return ("",) + (("+reassoc",) if reassoc else ()) + (("+fast-math",) if fast_math else ())


def default_variants(
    text: str, module: Module, target: Target, groups: Sequence[str], baseline: str | None,
    layout: str = "nested", only: Sequence[str] | None = None, space: str = "full",
    fp_contract: bool = False,
    loops: bool = True,
) -> list[Variant]:  # fmt: skip
    """eqsat's row of each group (in fp-contract mode when ``fp_contract``), then
    (``baseline="mlir"``) MLIR's variants of each group: its whole strategy space
    (``space="full"``) or each strategy alone (``"single"``). Where eqsat's loop passes
    (``eqsat.optimizer.loop_level``: hoisting loop-invariant transfers, unrolling short
    innermost loops) change the program, MLIR's variants also run on the program after them
    (``mlir-loops-*``, unless ``loops`` is false): eqsat's rows get those passes, so MLIR's
    best gets them too."""
    from eqsat.bench.mlir_baseline import single_variants, strategy_variants
    from eqsat.optimizer import loop_level

    out = [Variant(f"eqsat{g}",
                   lambda g=g: eqsat_llvm_ir(module, target, g, layout, fp_contract), g)
           for g in groups]  # fmt: skip
    if baseline == "mlir":
        looped = print_module(loop_level(module)) if loops else None
        inputs = [("", text)]
        if looped is not None and looped != print_module(module):
            inputs.append(("loops-", looped))
        for g in groups:
            avx2 = "avx2" in target.requires
            vs = strategy_variants(text, g, avx2) if space == "full" else single_variants(g)
            out += [mlir_variant(source, v, g, prefix) for prefix, source in inputs
                    for v in vs if only is None or v.name in only]  # fmt: skip
    return out


def mlir_variant(text: str, v: Any, group: str, prefix: str = "") -> Variant:
    """The benchmark's variant of ``v`` (an ``eqsat.bench.mlir_baseline.Variant``) on
    ``text``; ``prefix`` goes after ``mlir-`` in its name (``loops-``: the input after eqsat's
    loop passes)."""
    from eqsat.bench.mlir_baseline import lower_to_llvm_ir

    name = "mlir-" + prefix + v.name.removeprefix("mlir-")
    return Variant(name, lambda: lower_to_llvm_ir(text, v), group, v.matrix_layout, True)


def _median_and_spread(res: ItemResult) -> tuple[float | None, tuple[float, float] | None]:
    pooled = [x for s in res.samples for x in s]
    if not pooled:
        return None, None
    per = [statistics.median(s) for s in res.samples if s]
    return statistics.median(pooled), (min(per), max(per))


def _generate(variants: Sequence[Variant]) -> dict[str, tuple[str | CannotLower, float]]:
    """Each variant's LLVM IR (or why MLIR cannot lower it) and the seconds it took; the
    ``threadsafe`` ones (MLIR's: separate processes) two at a time."""
    from concurrent.futures import ThreadPoolExecutor

    def gen(v: Variant) -> tuple[str | CannotLower, float]:
        t0 = time.perf_counter()
        try:
            ir: str | CannotLower = v.llvm_ir()
        except CannotLower as e:
            ir = e
        return ir, time.perf_counter() - t0

    out = {}
    with ThreadPoolExecutor(2) as pool:
        futures = {v.name: pool.submit(gen, v) for v in variants if v.threadsafe}
        for v in variants:
            if not v.threadsafe:
                out[v.name] = gen(v)
        out.update({name: f.result() for name, f in futures.items()})
    return out


def measure(
    variants: Sequence[Variant], sig: Signature, inputs: list[Any], target: Target,
    repeats: int, sample_seconds: float, placements: int, empty: bool = False,
    probes: Sequence[list[Any]] = (),
) -> tuple[list[Row], dict[str, list[Any]], float | None, dict[str, list[list[Any]]]]:  # fmt: skip
    """Rows of ``variants`` (identical LLVM IR timed once), the outputs of each row that ran,
    the ns per call of an empty function of the same signature (``empty``), and each row's
    outputs on the ``probes`` (more input sets, run once)."""
    rows: list[Row] = []
    items: dict[tuple[LlvmOptions, str], int] = {}
    irs: dict[int, tuple[LlvmOptions, str]] = {}
    first: dict[int, Row] = {}
    row_item: dict[int, int] = {}
    gen_s: dict[int, float] = {}
    generated = _generate(variants)
    for v in variants:
        row = Row(v.name, v.group)
        rows.append(row)
        ir, took = generated[v.name]
        if isinstance(ir, CannotLower):
            row.note = f"MLIR cannot lower: {ir}"
            continue
        if v.group == "+fast-math":
            ir = with_fast_math(ir)
        options = v.options or LlvmOptions.of(
            target, v.matrix_layout if "@llvm.matrix." in ir else "row-major"
        )
        key = (options, hashlib.sha256(ir.encode()).hexdigest())
        if key in items:
            row.same_as = first[items[key]].variant
            row.note = f"same LLVM IR as {row.same_as}"
        else:
            items[key] = len(items)
            irs[items[key]] = (options, ir)
            first[items[key]] = row
        row_item[id(row)] = items[key]
        gen_s[id(row)] = took
    if empty:
        irs[-1] = (LlvmOptions.of(target), empty_function_text(sig))
    results: dict[int, ItemResult] = {}
    by_options: dict[LlvmOptions, list[tuple[int, str]]] = {}
    for i, (options, ir) in irs.items():
        by_options.setdefault(options, []).append((i, ir))
    for placement in range(placements):
        for options, group in by_options.items():
            job = Job(target, options, sig, inputs, group, run_once=placement == 0,
                      repeats=repeats, sample_seconds=sample_seconds,
                      probes=list(probes) if placement == 0 else [])  # fmt: skip
            run_isolated(job, results)
    outputs: dict[str, list[Any]] = {}
    probed: dict[str, list[list[Any]]] = {}
    for row in rows:
        i = row_item.get(id(row))
        if i is None:
            continue
        res = results[i]
        row.failure = res.failure
        if res.failure:
            row.note = res.failure
        ms = statistics.median(res.compile_ms) if res.compile_ms else None
        row.compile_s = gen_s[id(row)] + (ms / 1000 if ms is not None else 0.0)
        row.ns_per_call, row.spread = _median_and_spread(res)
        if res.outputs is not None:
            outputs[row.variant] = res.outputs
        if res.probe_outputs is not None:
            probed[row.variant] = res.probe_outputs
    call_ns = _median_and_spread(results[-1])[0] if empty and -1 in results else None
    return rows, outputs, call_ns, probed


#: MLIR variants of the first stage kept for the final timing (per group), and whose
#: strategies the second stage crosses with every transfer option.
FINALISTS = 5
CROSSED = 3


def _screen(
    text: str, variants: list[Variant], sig: Signature, inputs: list[Any], target: Target,
    oracle: list[Any], groups: Sequence[str], repeats: int, sample_seconds: float,
    probes: Sequence[list[Any]] = (), edge_oracle: Sequence[list[Any]] = (),
) -> tuple[list[Variant], list[Row]]:  # fmt: skip
    """The staged search of MLIR's space: time the first stage once (one placement, few
    samples), keep eqsat's rows, MLIR's default, the ``FINALISTS`` fastest right MLIR variants
    of each group (and, strict, the ``FINALISTS`` fastest bit-exact ones: MLIR's lowerings may
    fuse a multiply and an add the program rounds apart) and the second stage (the
    ``CROSSED`` fastest strategies with every transfer option) for the final timing. Returns those, and the rows only screened (their figures
    from the screen, a note saying so)."""
    from eqsat.bench import mlir_baseline as mb

    rows, outputs, _, probed = measure(variants, sig, inputs, target, repeats, sample_seconds, 1,
                                       probes=probes)  # fmt: skip
    by_name = {v.name: v for v in variants}
    keep = {v.name for v in variants if not v.name.startswith("mlir-")}
    final = [v for v in variants if v.name in keep]
    avx2 = "avx2" in target.requires
    for g in groups:
        keep.add(f"mlir-default{g}")
        ok, exact, seen = [], [], set()
        for r in sorted((r for r in rows if r.group == g and r.variant.startswith("mlir-")
                         and r.ns_per_call and (r.same_as or r.variant) in outputs),
                        key=lambda r: r.ns_per_call or math.inf):  # fmt: skip
            src = r.same_as or r.variant
            if src in seen:
                continue
            agreement = compare(oracle, outputs[src], RTOL_REASSOC if g else RTOL)
            agreement = with_edges(agreement, edge_oracle, probed.get(src))
            if agreement.equal:
                seen.add(src)
                ok.append(r)
                if agreement.exact:
                    exact.append(r)
        keep.update(r.variant for r in ok[:FINALISTS])
        if not g:
            keep.update(r.variant for r in exact[:FINALISTS])
        space = mb.space_variants(text, g, avx2)
        named = {v.name: v for v in space}
        bases = [named[r.variant] for r in ok[:CROSSED] if r.variant in named]
        for v in mb.transfer_variants(text, bases, g, avx2):
            if v.name not in by_name:
                final.append(mlir_variant(text, v, g))
    # a variant with the same LLVM IR as a kept one costs nothing more: keep it too, so that no
    # row shows a screen figure next to its twin's final one
    kept_src = {r.same_as or r.variant for r in rows if r.variant in keep}
    keep.update(r.variant for r in rows if (r.same_as or r.variant) in kept_src)
    final += [v for v in variants if v.name.startswith("mlir-") and v.name in keep]
    only_screened = [r for r in rows if r.variant not in keep]
    for r in only_screened:
        r.screened_only = True
        r.note = ((r.note + "; ") if r.note else "") + f"screened only (1 placement, {repeats} samples)"
        src = outputs.get(r.same_as or r.variant)
        if src is not None:
            r.agreement = with_edges(compare(oracle, src, RTOL_REASSOC if r.group else RTOL),
                                     edge_oracle, probed.get(r.same_as or r.variant))  # fmt: skip
    return final, only_screened


def bench(
    text: str,
    file: str,
    entry: str,
    target: Target,
    scalars: dict[str, str] | None = None,
    baseline: str | None = "mlir",
    repeats: int = 7,
    sample_seconds: float = 0.02,
    reassoc: bool = False,
    layout: str = "nested",
    seed: int = 0,
    only: Sequence[str] | None = None,
    fast_math: bool = False,
    placements: int = 3,
    extra: Sequence[Variant] = (),
    space: str = "full",
    written: dict[str, SourceLoc] | None = None,
    fp_contract: bool = False,
    loops: bool = True,
) -> Report:
    """Compile, check and time every variant of ``@entry`` (see the module docstring).
    ``only`` restricts the MLIR variants by name (tests); ``extra`` adds rows; ``written``:
    the scalars taken from the file's ``// ARGS:`` line, and where (``make_inputs``).
    ``fp_contract``: the program's float contractions fuse each multiply-add (fp-contract
    mode): eqsat's rows are optimized and compiled in it and the reference interpreter runs in
    it, so the MLIR lowerings that compute those bits (outerproduct) are the bit-exact ones.
    ``loops``: MLIR's variants also run after eqsat's loop passes (``default_variants``)."""
    t_parse = time.perf_counter()
    module = parse(text, file)
    parse_s = time.perf_counter() - t_parse
    sig = signature(module, entry)
    inputs = make_inputs(sig, scalars or {}, seed, written)
    report = Report(file, entry, target, repeats, flops=contraction_flops(module, entry),
                    placements=placements, options=LlvmOptions.of(target),
                    fp_contract=fp_contract)  # fmt: skip
    if baseline == "mlir":
        require_tools()
    groups = groups_for(reassoc, fast_math)
    variants = default_variants(text, module, target, groups, baseline, layout, only, space,
                                fp_contract, loops)  # fmt: skip
    variants += list(extra)
    oracle = interpret(module, sig, inputs, fp_contract)
    probes = edge_inputs(inputs, seed)
    try:
        edge_oracle = [interpret(module, sig, p, fp_contract) for p in probes]
        report.edges = (f"also on {len(probes)} edge-value input sets (signed zeros, "
                        "NaNs, infinities among the floats)")  # fmt: skip
    except RuntimeFault as e:  # e.g. an index made from a NaN: exact on ordinary inputs only
        probes, edge_oracle = [], []
        report.edges = f"on the ordinary inputs only (the interpreter faults on edge values: {e})"
    screened: list[Row] = []
    if baseline == "mlir" and space == "full" and only is None:
        variants, screened = _screen(text, variants, sig, inputs, target, oracle, groups,
                                     max(3, repeats // 3), sample_seconds, probes,
                                     edge_oracle)  # fmt: skip
    rows, outputs, call_ns, probed = measure(variants, sig, inputs, target, repeats,
                                             sample_seconds, placements,
                                             empty=bool(report.flops), probes=probes)  # fmt: skip
    report.rows = rows + screened
    report.call_ns = call_ns
    mode = " in fp-contract mode" if fp_contract else ""
    report.reference = f"eqsat's reference interpreter{mode}"
    if "eqsat" in outputs:
        report.reference = (f"eqsat's compiled code of the group (eqsat rows: the "
                            f"interpreter{mode})")  # fmt: skip
    firsts = {r.variant: r for r in rows}
    for row in report.rows:
        if row.variant.startswith("eqsat") and row.compile_s is not None:
            row.compile_s += parse_s
        src = row.same_as or row.variant
        if src not in outputs:
            continue
        ours = f"eqsat{row.group}"
        against = outputs.get(ours) if row.variant != ours else None
        if against is None or not (firsts.get(ours) and firsts[ours].equal is not False):
            against = oracle
        agreement = compare(against, outputs[src], RTOL_REASSOC if row.group else RTOL)
        row.agreement = with_edges(agreement, edge_oracle, probed.get(src))
    if report.flops:  # measured right after the timings: the boost clock drifts with load
        report.clock = cpu_clock_ghz()
    return report


__all__ = ["Report", "Row", "Variant", "bench"]
