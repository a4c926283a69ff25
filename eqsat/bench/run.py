"""One benchmark: every variant of one kernel compiled for one target, checked and timed.

The ``eqsat`` row is the kernel optimized for the target (its cost model, HWV level) and
compiled by ``eqsat.codegen``; its results are checked against the reference interpreter, and
every other variant's against the ``eqsat`` row.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from eqsat.bench.harness import (
    Agreement,
    Compiled,
    Signature,
    compare,
    copy_inputs,
    empty_function_text,
    make_inputs,
    measure_clock_ghz,
    median_ns,
    signature,
)
from eqsat.bench.mlir_baseline import CannotLower, lower_to_llvm_ir, require_tools
from eqsat.bench.mlir_baseline import variants as mlir_variants
from eqsat.targets import Target
from frontend import Module, parse

#: Floating-point agreement: relative to the output's magnitude (FMA vs separate multiply-add
#: already differ in the last bit between MLIR's own strategies).
RTOL = 1e-5
RTOL_REASSOC = 1e-4
#: FMA units per core assumed for the peak (every x86 core with AVX2 since Haswell / Zen 2).
FMA_UNITS = 2


@dataclass
class Row:
    """One variant's line of the table."""

    variant: str
    reassoc: bool
    ns_per_call: float | None = None
    agreement: Agreement | None = None
    compile_s: float | None = None
    note: str = ""

    @property
    def equal(self) -> bool | None:
        return None if self.agreement is None else self.agreement.equal


@dataclass
class Report:
    """The table of one kernel on one target, with what it is relative to."""

    file: str
    entry: str
    target: Target
    repeats: int
    rows: list[Row] = field(default_factory=list)
    reference: str = ""  # what "equal" compares with
    flops: int | None = None
    clock: tuple[float, str] | None = None  # (GHz, where it came from)
    # ns per call of an empty function with the same signature in the same loop (the ABI's
    # share of every row: memref descriptors are 5 + 2 x rank words each)
    call_ns: float | None = None

    def row(self, variant: str) -> Row | None:
        return next((r for r in self.rows if r.variant == variant), None)

    def baseline_for(self, row: Row) -> Row | None:
        """The row ratios are taken to: ours, like with like (reassociation on or off)."""
        if row.reassoc and self.row("eqsat+reassoc"):
            return self.row("eqsat+reassoc")
        return self.row("eqsat") or self.row("mlir-default")

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


def eqsat_llvm_ir(module: Module, target: Target, reassoc: bool, layout: str) -> str:
    """Our variant: optimize for the target (its cost model, widths and legalize rules), then
    emit LLVM IR with ``eqsat.codegen``."""
    from eqsat.codegen import emit_llvm_ir
    from eqsat.optimize import optimize_module

    result = optimize_module(module, target=target, emit="hwv", fast_math=reassoc)
    return emit_llvm_ir(result.module, target, layout=layout, reassoc=reassoc)


def _outputs(sig: Signature, bufs: Sequence[Any], result: Any) -> list[Any]:
    return [b for b in bufs if isinstance(b, np.ndarray)] + ([result] if sig.result else [])


def interpret(module: Module, sig: Signature, inputs: Sequence[Any]) -> list[Any]:
    """The reference interpreter's outputs on fresh copies of ``inputs``."""
    from eqsat.interpret import Interpreter

    bufs = copy_inputs(inputs)
    result = Interpreter(module).call(sig.entry, *bufs)
    return _outputs(sig, bufs, result)


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
) -> Report:
    """Compile, check and time every variant of ``@entry`` (see the module docstring).
    ``only`` restricts the MLIR variants by name (tests)."""
    t_parse = time.perf_counter()
    module = parse(text, file)
    parse_s = time.perf_counter() - t_parse
    sig = signature(module, entry)
    inputs = make_inputs(sig, scalars or {}, seed)
    report = Report(file, entry, target, repeats, flops=contraction_flops(module, entry))
    if baseline == "mlir":
        require_tools()
    compiled: list[tuple[Row, Compiled]] = []
    by_ir: dict[str, tuple[Row, Compiled]] = {}
    copies: list[tuple[Row, Row]] = []

    def add(row: Row, make_ir: Any, matrix: str = "row-major") -> None:
        t0 = time.perf_counter()
        try:
            ir = make_ir()
        except CannotLower as e:
            row.note = f"MLIR cannot lower: {e}"
            report.rows.append(row)
            return
        mlir = row.variant.startswith("mlir")  # MLIR's code: LLVM's default options
        key = f"{matrix}\n{ir}" if "@llvm.matrix." in ir else ir
        key = f"{mlir}\n{key}"
        if key in by_ir:
            first = by_ir[key][0]
            row.compile_s, row.note = first.compile_s, f"same LLVM IR as {first.variant}"
            copies.append((row, first))
            report.rows.append(row)
            return
        c = Compiled(ir, sig, target, matrix, llvm_defaults=mlir)
        row.compile_s = time.perf_counter() - t0
        by_ir[key] = (row, c)
        compiled.append((row, c))
        report.rows.append(row)

    for flag in (False, True) if reassoc else (False,):
        name = "eqsat+reassoc" if flag else "eqsat"
        row = Row(name, flag)
        add(row, lambda flag=flag: eqsat_llvm_ir(module, target, flag, layout))
        if row.compile_s is not None:
            row.compile_s += parse_s
    if baseline == "mlir":
        for v in mlir_variants():
            if only is None or v.name in only:
                lower = lambda v=v: lower_to_llvm_ir(text, v)  # noqa: E731
                add(Row(v.name, v.reassoc), lower, v.matrix_layout)

    oracle = interpret(module, sig, inputs)
    ref_row = report.row("eqsat")
    reference = oracle
    report.reference = "eqsat's reference interpreter"
    results = {id(row): c.run(inputs) for row, c in compiled}
    if ref_row is not None and id(ref_row) in results:
        reference = results[id(ref_row)]
        report.reference = "eqsat's compiled code (eqsat row: against the interpreter)"
    for row, _ in compiled:
        against = oracle if row is ref_row else reference
        row.agreement = compare(against, results[id(row)], RTOL_REASSOC if row.reassoc else RTOL)
    timers = []
    empty = Compiled(empty_function_text(sig), sig, target) if report.flops else None
    for c in [c for _, c in compiled] + ([empty] if empty else []):
        t = c.timer(inputs)
        t.calibrate(sample_seconds)
        timers.append(t)
    times = median_ns(timers, repeats)
    for (row, _), ns in zip(compiled, times):
        row.ns_per_call = ns
    if empty is not None:
        report.call_ns = times[-1]
    if report.flops:  # measured right after the timings: the boost clock drifts with load
        report.clock = cpu_clock_ghz()
    for row, first in copies:
        row.ns_per_call, row.agreement = first.ns_per_call, first.agreement
    return report


__all__ = ["Report", "Row", "bench"]
