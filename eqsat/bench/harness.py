"""Timing harness: compile LLVM IR text for a target with llvmlite and time one function.

Every variant, MLIR's and ours alike, arrives as LLVM IR text whose function keeps its MLIR name
and MLIR's ABI: each memref argument expanded into (allocated ptr, aligned ptr, offset,
sizes..., strides...), scalars as themselves. A second module holds a timing loop that calls the
kernel N times; it is compiled separately, so the kernel cannot be inlined into the loop or
hoisted out of it (one real call per iteration, the same for every variant), and a ctypes call
(~1.4 us) is paid once per N calls, not per call.

Supported: memref arguments of static shape and identity layout (written through), scalar
arguments (integers, index, f16/f32/f64) and none or one scalar result. Not supported: vectors
or tensors passed or returned by value, memref results, several results, dynamic shapes and
strided layouts (each refused with a clear ``BenchError``).
"""

from __future__ import annotations

import ctypes
import functools
import math
import re
import statistics
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from eqsat.codegen.llvm_options import LlvmOptions
from eqsat.codegen.llvm_options import current as current_options
from eqsat.targets import Target
from frontend import Module
from frontend.errors import SourceLoc
from frontend.types import FloatType, FunctionType, IndexType, IntegerType, MemRefType, Type

ALIGN = 64
LOOP_NAME = "__eqsat_bench_loop"

#: element type name -> (numpy dtype, LLVM type, struct format of one scalar)
_SCALARS: dict[str, tuple[Any, str, str]] = {
    "f16": (np.float16, "half", "<e"),
    "f32": (np.float32, "float", "<f"),
    "f64": (np.float64, "double", "<d"),
    "i8": (np.int8, "i8", "<b"),
    "i16": (np.int16, "i16", "<h"),
    "i32": (np.int32, "i32", "<i"),
    "i64": (np.int64, "i64", "<q"),
    "index": (np.int64, "i64", "<q"),
}


class BenchError(Exception):
    """A kernel the harness cannot run (unsupported signature, bad --arg, bad LLVM IR);
    ``loc``: where in the kernel file the problem is written, when it is written there."""

    def __init__(self, message: str, loc: SourceLoc | None = None) -> None:
        super().__init__(message)
        self.loc = loc


def _scalar_name(t: Type) -> str | None:
    if isinstance(t, IndexType):
        return "index"
    if isinstance(t, (FloatType, IntegerType)):
        name = str(t)
        return name if name in _SCALARS else None
    return None


@dataclass(frozen=True)
class Arg:
    """One MLIR argument: a memref (static shape) or a scalar."""

    name: str
    type: Type
    elem: str
    shape: tuple[int, ...] | None  # None for a scalar

    @property
    def dtype(self) -> Any:
        return _SCALARS[self.elem][0]

    def llvm_params(self) -> list[str]:
        """LLVM parameter types of this argument under MLIR's calling convention."""
        if self.shape is None:
            return [_SCALARS[self.elem][1]]
        return ["ptr", "ptr"] + ["i64"] * (1 + 2 * len(self.shape))


@dataclass(frozen=True)
class Signature:
    """The entry function's arguments and (at most one scalar) result."""

    entry: str
    args: tuple[Arg, ...]
    result: str | None  # element type name of the scalar result

    def llvm_params(self) -> list[str]:
        return [p for a in self.args for p in a.llvm_params()]

    @property
    def llvm_result(self) -> str:
        return _SCALARS[self.result][1] if self.result else "void"


def signature(module: Module, entry: str) -> Signature:
    """The benchmarkable signature of ``@entry``; ``BenchError`` names what is unsupported."""
    func = module.functions().get(entry)
    if func is None:
        known = ", ".join(f"@{n}" for n in module.functions()) or "none"
        raise BenchError(f"no function @{entry} in the input (functions: {known})")
    ftype: FunctionType = func.attributes["function_type"].type
    block_args = func.regions[0].blocks[0].args if func.regions and func.regions[0].blocks else []
    args = []
    for i, t in enumerate(ftype.inputs):
        name = (block_args[i].name if i < len(block_args) else None) or f"arg{i}"
        if isinstance(t, MemRefType):
            elem = _scalar_name(t.element)
            if elem is None:
                raise BenchError(f"%{name}: memrefs of {t.element} are not supported", func.loc)
            if not t.has_static_shape:
                raise BenchError(f"%{name}: memrefs of dynamic shape are not supported ({t})", func.loc)
            if t.layout is not None or t.memory_space is not None:
                raise BenchError(f"%{name}: only identity-layout memrefs are supported ({t})", func.loc)
            dims = tuple(int(s) for s in t.shape)  # type: ignore[arg-type]
            args.append(Arg(name, t, elem, dims))
            continue
        elem = _scalar_name(t)
        if elem is None:
            raise BenchError(
                f"%{name}: arguments of type {t} are not supported (memrefs and scalars are; "
                "vectors passed by value are not)",
                func.loc,
            )
        args.append(Arg(name, t, elem, None))
    if len(ftype.results) > 1:
        raise BenchError(f"@{entry} returns {len(ftype.results)} values; at most one is supported",
                         func.loc)  # fmt: skip
    result = None
    if ftype.results:
        result = _scalar_name(ftype.results[0])
        if result is None:
            raise BenchError(
                f"@{entry} returns {ftype.results[0]}; only scalar results are supported "
                "(write vectors through a memref argument)",
                func.loc,
            )
    return Signature(entry, tuple(args), result)


def aligned_array(shape: tuple[int, ...], dtype: Any, align: int = ALIGN) -> np.ndarray:
    """A zeroed C-contiguous array whose data starts on an ``align``-byte boundary."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    raw = np.zeros(n * dt.itemsize + align, dtype=np.uint8)
    start = (-raw.ctypes.data) % align
    return raw[start : start + n * dt.itemsize].view(dt).reshape(shape)


def make_inputs(
    sig: Signature,
    scalars: dict[str, str],
    seed: int = 0,
    written: dict[str, SourceLoc] | None = None,
) -> list[Any]:
    """Random memref contents (floats in [-1, 1), integers in [-8, 8)) and the ``--arg``
    scalars; every scalar argument must be given. ``written``: the scalars that come from
    the file's ``// ARGS:`` line, and where (their errors are located there)."""
    rng = np.random.default_rng(seed)
    written = written or {}

    def said(name: str, value: str | None = None) -> str:
        item = name if value is None else f"{name}={value}"
        return f"// ARGS {item}" if name in written else f"--arg {item}"

    unknown = set(scalars) - {a.name for a in sig.args if a.shape is None}
    if unknown:
        names = ", ".join(a.name for a in sig.args if a.shape is None) or "none"
        first = sorted(unknown)[0]
        raise BenchError(f"{said(first)}: @{sig.entry} has no such scalar "
                         f"argument (scalar arguments: {names})", written.get(first))  # fmt: skip
    out: list[Any] = []
    for a in sig.args:
        if a.shape is None:
            if a.name not in scalars:
                raise BenchError(f"@{sig.entry} takes scalar %{a.name}: give --arg {a.name}=VALUE")
            text = scalars[a.name]
            try:
                value = float(text) if a.elem.startswith("f") else int(text, 0)
            except ValueError:
                raise BenchError(f"{said(a.name, text)}: not a number of type {a.elem}",
                                 written.get(a.name)) from None  # fmt: skip
            if isinstance(value, int) and np.issubdtype(a.dtype, np.integer):
                info = np.iinfo(a.dtype)
                if not info.min <= value <= info.max:
                    raise BenchError(f"{said(a.name, text)}: out of range for {a.elem} "
                                     f"({info.min} to {info.max})", written.get(a.name))  # fmt: skip
            out.append(a.dtype(value))
            continue
        buf = aligned_array(a.shape, a.dtype)
        if a.elem.startswith("f"):
            buf[...] = rng.uniform(-1.0, 1.0, a.shape).astype(a.dtype)
        else:
            buf[...] = rng.integers(-8, 8, a.shape).astype(a.dtype)
        out.append(buf)
    return out


#: The edge-value probes: each row runs once more on each, and counts as bit-exact only when
#: it also computes the interpreter's bits there. Ordinary inputs hold no signed zero, NaN or
#: infinity, yet the sign of a zero sum or maximum and a NaN's fate are where lowerings differ
#: (maxnumf without the sign of zero, a reordered sum of zeros). Floats are drawn from each
#: probe's pool (``None``: uniform in [-1, 1)); integers keep the ordinary inputs' values.
EDGE_POOLS: tuple[tuple[float | None, ...], ...] = (
    (0.0, -0.0),  # sums, products and extrema of zeros alone
    (0.0, -0.0, -1.0, -0.5),  # maxima that are zeros
    (0.0, -0.0, 1.0, 0.5),  # minima that are zeros
    (0.0, -0.0, math.nan, math.inf, -math.inf, None, None, None, None, None, None, None),
)


def edge_inputs(inputs: Sequence[Any], seed: int = 0) -> list[list[Any]]:
    """One copy of ``inputs`` per ``EDGE_POOLS`` entry, its float buffers redrawn from it."""
    rng = np.random.default_rng(seed + 1)
    probes = []
    for pool in EDGE_POOLS:
        values = np.array([math.nan if v is None else v for v in pool])
        drawn = []
        for x in copy_inputs(inputs):
            if isinstance(x, np.ndarray) and x.dtype.kind == "f":
                pick = rng.integers(0, len(pool), x.shape)
                uniform = rng.uniform(-1.0, 1.0, x.shape)
                ordinary = np.array([v is None for v in pool])[pick]
                x[...] = np.where(ordinary, uniform, values[pick]).astype(x.dtype)
            drawn.append(x)
        probes.append(drawn)
    return probes


def same_bits(reference: Sequence[Any], got: Sequence[Any]) -> bool:
    """Whether ``got`` is ``reference`` bit for bit (a zero's sign included; any NaN matches
    any NaN: LLVM leaves payloads unspecified)."""
    if len(reference) != len(got):
        return False
    for r, g in zip(reference, got):
        r, g = np.asarray(r), np.asarray(g)
        if r.shape != g.shape:
            return False
        if r.dtype.kind != "f" or g.dtype.kind != "f":
            if not np.array_equal(r, g):
                return False
            continue
        if r.dtype != g.dtype:  # a Python float beside a typed result: the wider holds both
            wide = max(r.dtype, g.dtype, key=lambda d: d.itemsize)
            r, g = r.astype(wide), g.astype(wide)
        bits = np.dtype(f"u{r.dtype.itemsize}")
        same = r.view(bits) == g.view(bits)
        if not np.all(same | (np.isnan(r) & np.isnan(g))):
            return False
    return True


def copy_inputs(inputs: Sequence[Any]) -> list[Any]:
    """Fresh aligned copies of the memref buffers (scalars as they are)."""
    out = []
    for x in inputs:
        if isinstance(x, np.ndarray):
            y = aligned_array(x.shape, x.dtype)
            y[...] = x
            out.append(y)
        else:
            out.append(x)
    return out


def _slots(sig: Signature, inputs: Sequence[Any]) -> ctypes.Array[ctypes.c_uint64]:
    """The argument slots the timing loop loads its call's arguments from (8 bytes each)."""
    words: list[int] = []
    for a, x in zip(sig.args, inputs):
        if a.shape is None:
            raw = struct.pack(_SCALARS[a.elem][2], x).ljust(8, b"\0")
            words.append(struct.unpack("<Q", raw)[0])
            continue
        ptr = x.ctypes.data
        strides = [int(np.prod(a.shape[i + 1 :], dtype=np.int64)) for i in range(len(a.shape))]
        words += [ptr, ptr, 0, *a.shape, *strides]
    return (ctypes.c_uint64 * max(1, len(words)))(*words)


def file_scalar_args(text: str) -> dict[str, str]:
    """Scalar arguments a kernel file names for benchmarks: a ``// ARGS: name=value ...``
    line (``eqsat bench`` uses them where ``--arg`` gives none)."""
    m = _ARGS.search(text)
    return dict(p.split("=", 1) for p in m.group(1).split() if "=" in p) if m else {}


def file_scalar_locs(text: str, file: str) -> dict[str, SourceLoc]:
    """Where each ``name=value`` of the ``// ARGS:`` line is written (for its errors)."""
    m = _ARGS.search(text)
    if not m:
        return {}
    return {
        item.group(1): SourceLoc(file, text, m.start(1) + item.start())
        for item in re.finditer(r"([^\s=]+)=\S*", m.group(1))
    }


_ARGS = re.compile(r"^//\s*ARGS:\s*(.*)$", re.M)


def empty_function_text(sig: Signature) -> str:
    """LLVM IR of a function with ``sig``'s MLIR ABI that does nothing: timed in the same call
    loop, it is the cost of the call itself (descriptor words passed on the stack, ...)."""
    params = ", ".join(f"{p} %a{i}" for i, p in enumerate(sig.llvm_params()))
    ret = sig.llvm_result
    body = "ret void" if ret == "void" else f"ret {ret} zeroinitializer"
    return f'define {ret} @"{sig.entry}"({params}) {{\n  {body}\n}}\n'


def loop_module_text(sig: Signature) -> str:
    """LLVM IR of ``void @__eqsat_bench_loop(ptr slots, ptr out, i64 n)``: load the arguments
    from ``slots``, call the kernel ``n`` times (n >= 1), store the last result to ``out``."""
    params = sig.llvm_params()
    ret = sig.llvm_result
    lines = [f"declare {ret} @\"{sig.entry}\"({', '.join(params)})", ""]
    lines.append(f"define void @{LOOP_NAME}(ptr %slots, ptr %out, i64 %n) {{")
    lines.append("entry:")
    for i, p in enumerate(params):
        lines.append(f"  %p{i} = getelementptr i64, ptr %slots, i64 {i}")
        lines.append(f"  %a{i} = load {p}, ptr %p{i}, align 8")
    lines += ["  br label %loop", "loop:", "  %i = phi i64 [ 0, %entry ], [ %next, %loop ]"]
    call_args = ", ".join(f"{p} %a{i}" for i, p in enumerate(params))
    if ret == "void":
        lines.append(f"  call void @\"{sig.entry}\"({call_args})")
    else:
        lines.append(f"  %r = call {ret} @\"{sig.entry}\"({call_args})")
        lines.append(f"  store {ret} %r, ptr %out, align 8")
    lines += [
        "  %next = add i64 %i, 1",
        "  %more = icmp ult i64 %next, %n",
        "  br i1 %more, label %loop, label %done",
        "done:",
        "  ret void",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _llvm() -> Any:
    """llvmlite's binding with every target, asm printer and asm parser (MLIR's x86vector
    lowerings emit inline assembly) and LLVM's matrix intrinsics enabled (without
    ``--enable-matrix`` a ``llvm.matrix.*`` call aborts the process)."""
    from llvmlite import binding as llvm

    from eqsat.codegen.jit import _init

    _init()
    _ready()
    return llvm


@functools.cache
def _ready() -> None:
    from llvmlite import binding as llvm

    llvm.initialize_native_asmparser()  # inline asm (x86 is the only arch that runs here)
    llvm.set_option("", "--enable-matrix")


_CLOCK_IR = """
define i64 @spin(i64 %n) {
  %r = call i64 asm sideeffect "xor %rax, %rax\\0A1:\\0A@BODY@dec %rcx\\0Ajnz 1b",
      "={rax},{rcx},~{cc}"(i64 %n)
  ret i64 %r
}
"""


def measure_clock_ghz(chain: int = 16, seconds: float = 0.02, repeats: int = 5) -> float | None:
    """The core's running clock, measured: a chain of dependent ``add``s (one cycle each on
    every x86-64 core) timed in thread CPU time; None off x86-64. A VM's ``/proc/cpuinfo``
    shows the nominal clock, not the boost clock kernels actually run at."""
    import platform

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return None
    llvm = _llvm()
    ir = _CLOCK_IR.replace("@BODY@", "add $$1, %rax\\0A" * chain)
    mod = llvm.parse_assembly(ir)
    tm = llvm.Target.from_triple(llvm.get_process_triple()).create_target_machine(opt=2)
    engine = llvm.create_mcjit_compiler(mod, tm)
    engine.finalize_object()
    spin = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(engine.get_function_address("spin"))
    n = max(1000, int(seconds * 1e9 / chain))  # about `seconds` at 1 GHz or more
    rates = []
    for _ in range(repeats):
        t0 = time.thread_time_ns()
        spin(n)
        took = time.thread_time_ns() - t0
        if took > 0:
            rates.append(chain * n / took)
    return statistics.median(rates) if rates else None


class Compiled:
    """One variant compiled for one target under one set of LLVM options (the target file's by
    default): run it once for results, or time it. The options are process-wide in llvmlite:
    ``eqsat.bench.worker`` compiles each set in its own process; ``asm`` refuses to print when
    this process has since switched to other options."""

    def __init__(
        self, ir_text: str, sig: Signature, target: Target, options: LlvmOptions | None = None
    ) -> None:
        from eqsat.codegen.jit import target_machine

        llvm = _llvm()
        self.options = options or LlvmOptions.of(target)
        tm = target_machine(target, 3, self.options)
        try:
            kernel = llvm.parse_assembly(ir_text)
            kernel.verify()
        except RuntimeError as e:
            raise BenchError(f"LLVM IR of @{sig.entry} is invalid: {str(e).strip()}") from None
        fn = next((f for f in kernel.functions if f.name == sig.entry), None)
        if fn is None or fn.is_declaration:
            raise BenchError(f"the LLVM IR defines no function @{sig.entry}")
        got = [str(a.type) for a in fn.arguments]
        if got != sig.llvm_params():
            raise BenchError(
                f"@{sig.entry} has LLVM parameters ({', '.join(got)}); MLIR's ABI for its "
                f"signature is ({', '.join(sig.llvm_params())})"
            )
        kernel.triple = target.triple
        kernel.data_layout = str(tm.target_data)
        pto = llvm.create_pipeline_tuning_options(speed_level=3)
        pb = llvm.create_pass_builder(tm, pto)
        pb.getModulePassManager().run(kernel, pb)
        loop = llvm.parse_assembly(loop_module_text(sig))
        loop.triple = target.triple
        loop.data_layout = str(tm.target_data)
        self.engine = llvm.create_mcjit_compiler(kernel, tm)
        self.engine.add_module(loop)
        self.engine.finalize_object()
        addr = self.engine.get_function_address(LOOP_NAME)
        proto = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64)
        self._loop = proto(addr)
        self.sig = sig
        self._asm_tm = tm
        self._kernel = kernel

    def asm(self) -> str:
        """The kernel's assembly (to count instructions), printed under its own options."""
        if current_options() != self.options:
            raise BenchError(
                f"assembly of @{self.sig.entry} was compiled under {self.options.label()}, but "
                f"this process now runs under {current_options().label() if current_options() else 'none'}: "
                "print it in the process that compiled it"
            )
        return self._asm_tm.emit_assembly(self._kernel)

    def run(self, inputs: Sequence[Any]) -> list[Any]:
        """Call the kernel once on fresh copies of ``inputs``: every memref buffer after the
        call (outputs are written through), then the result if any."""
        bufs = copy_inputs(inputs)
        slots = _slots(self.sig, bufs)
        out = (ctypes.c_uint64 * 1)()
        self._loop(ctypes.addressof(slots), ctypes.addressof(out), 1)
        results: list[Any] = [b for b in bufs if isinstance(b, np.ndarray)]
        if self.sig.result:
            fmt = _SCALARS[self.sig.result][2]
            raw = struct.pack("<Q", out[0])[: struct.calcsize(fmt)]
            results.append(_SCALARS[self.sig.result][0](struct.unpack(fmt, raw)[0]))
        return results

    def timer(self, inputs: Sequence[Any]) -> Timer:
        return Timer(self, copy_inputs(inputs))


class Timer:
    """Times one variant on its own buffers: ``calibrate`` picks N, ``sample`` gives ns/call."""

    def __init__(self, compiled: Compiled, bufs: list[Any]) -> None:
        self._compiled = compiled
        self._bufs = bufs  # kept alive: the slots point into them
        self._slots = _slots(compiled.sig, bufs)
        self._out = (ctypes.c_uint64 * 1)()
        self.n = 1

    def _once(self, n: int) -> float:
        """ns of this thread's CPU time for n calls: time other processes of a shared machine
        run on this core is not counted (wall-clock time would be)."""
        loop = self._compiled._loop
        t0 = time.thread_time_ns()
        loop(ctypes.addressof(self._slots), ctypes.addressof(self._out), n)
        return float(time.thread_time_ns() - t0)

    def calibrate(self, seconds: float) -> int:
        """Grow N until one sample lasts about ``seconds``."""
        n = 1
        while True:
            took = self._once(n)
            if took >= seconds * 1e9 or n >= 1 << 30:
                break
            n = n * 10 if took < seconds * 1e8 else max(n + 1, int(n * seconds * 1e9 / took))
        self.n = n
        return n

    def sample(self) -> float:
        """One sample: ns per call over N calls."""
        return self._once(self.n) / self.n


def sampled_ns(timers: Sequence[Timer], repeats: int) -> list[list[float]]:
    """``repeats`` ns/call samples of each timer; samples interleave across timers, so a slow
    moment of a shared machine spreads over all variants instead of hitting one."""
    samples: list[list[float]] = [[] for _ in timers]
    for _ in range(repeats):
        for i, t in enumerate(timers):
            samples[i].append(t.sample())
    return samples


def median_ns(timers: Sequence[Timer], repeats: int) -> list[float]:
    """Median ns/call of each timer (``sampled_ns``)."""
    return [statistics.median(s) for s in sampled_ns(timers, repeats)]


@dataclass(frozen=True)
class Agreement:
    """How a variant's results compare with the reference's."""

    equal: bool
    exact: bool
    max_rel: float  # max |a - b| / max |reference| over float outputs (0 when exact)
    # False: bit-exact on the ordinary inputs but not on the edge-value probes (``with_edges``)
    edges: bool | None = None

    def label(self) -> str:
        if self.exact:
            return "yes"
        if self.equal and self.edges is False:
            return "~ at edges"  # other bits for a signed zero, NaN or infinity
        return f"~ {self.max_rel:.0e}" if self.equal else f"NO ({self.max_rel:.1e})"


def with_edges(
    agreement: Agreement, reference: Sequence[list[Any]], got: Sequence[list[Any]] | None
) -> Agreement:
    """``agreement``, no longer exact unless ``got`` (outputs on the edge-value probes) is
    ``reference`` bit for bit on every probe (see ``EDGE_POOLS``)."""
    if not agreement.exact or not reference or got is None:
        return agreement
    edges = len(got) == len(reference) and all(map(same_bits, reference, got))
    return Agreement(agreement.equal, edges, agreement.max_rel, edges)


def compare(reference: Sequence[Any], got: Sequence[Any], rtol: float) -> Agreement:
    """Bit-exact, or within ``rtol`` of the output's magnitude for floats (rounding differs
    between lowerings: fused or separate multiply-add, reduction order); integers exactly."""
    if len(reference) != len(got):
        return Agreement(False, False, float("inf"))
    exact, worst = True, 0.0
    for r, g in zip(reference, got):
        r, g = np.asarray(r), np.asarray(g)
        if r.shape != g.shape:
            return Agreement(False, False, float("inf"))
        if same_bits([r], [g]):
            continue
        exact = False
        if r.dtype.kind != "f":
            return Agreement(False, False, float("inf"))
        r64, g64 = r.astype(np.float64), g.astype(np.float64)
        if np.any(np.isnan(r64) != np.isnan(g64)):
            return Agreement(False, False, float("inf"))
        scale = max(float(np.nanmax(np.abs(r64), initial=0.0)), 1e-30)
        worst = max(worst, float(np.nanmax(np.abs(r64 - g64), initial=0.0)) / scale)
    return Agreement(exact or worst <= rtol, exact, worst)
