"""The reference interpreter: runs the IR op by op with the numpy semantics of the op table.

It is the oracle every rewrite and every compiled program is compared with, so it
walks the IR as written, without the e-graph. The semantics are not here: each op's
``OpSpec.eval`` holds them (``frontend.ops.*``, kernels in ``frontend.semantics``). This module
only moves values: each block is planned once into steps (the op's eval, its operands, how they
group, where the results go), so running an op costs a few dict lookups and one call.

Faults (out-of-bounds access, division by zero, calling a function without a body) raise
``RuntimeFault`` at the op's ``FILE:LINE:COL``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from frontend.attributes import DenseElementsAttr
from frontend.errors import MLIRError, RuntimeFault
from frontend.ir import Block, Module, Operation, Region, Value
from frontend.ops.runtime import attr_value, elem, shape
from frontend.ops.spec import OPTIONAL, SINGLE, TERMINATOR, UNDEFINED, VARIADIC
from eqsat.poison import PoisonLanes
from frontend.semantics import MemRef, SemanticsError, as_elem, dtype_of
from frontend.semantics_heap import Heap
from frontend.runtime_functions import RUNTIME_FUNCTIONS
from frontend.semantics_vector import MATRIX_LAYOUTS
from frontend.types import FunctionType, MemRefType, TensorType, Type, VectorType

__all__ = ["Interpreter", "RuntimeFault", "run_function"]

# Python exceptions a running program can provoke in the kernels; anything else is a bug here.
_FAULTS = (
    SemanticsError, ArithmeticError, IndexError, ValueError, RecursionError, MemoryError
)  # fmt: skip
# The most elements one vector or memref value may hold (2^26: 256 MB of f32). A program
# declaring more (`vector<1000000000xf32>`) is refused when its block is planned, at the op,
# instead of allocating gigabytes or dying in numpy.
MAX_ELEMENTS = 1 << 26
MAX_CALL_DEPTH = 1000  # func.call nesting; deeper recursion is reported as a fault
_PY_FRAMES = 40  # Python recursion limit per MLIR call level (regions nest inside calls)


@dataclass(slots=True)
class _Step:
    """One op, planned: ``fn(interp, op, *grouped operands)`` and where its results go."""

    op: Operation
    fn: Callable[..., Any]
    operands: tuple[Value, ...]
    groups: tuple[tuple[str, int, int], ...] | None  # None: every operand is its own argument
    results: tuple[Value, ...]
    multi: bool  # eval returns a sequence (several or variadic results)
    terminator: bool
    touches: bool  # reads or writes its memref operands' elements (use after free is a fault)


def _missing(ctx: Any, op: Operation, *operands: Any) -> Any:
    raise SemanticsError(f"'{op.name}' has no semantics in the interpreter")


def _plan_op(op: Operation) -> _Step:
    spec = op.spec
    if spec is None:
        return _Step(op, _missing, tuple(op.operands), None, tuple(op.results), True, False, False)
    groups = None
    if any(o.kind != SINGLE for o in spec.operands):
        sizes, start, acc = spec.segment_sizes(op), 0, []
        for o, n in zip(spec.operands, sizes):
            acc.append((o.kind, start, start + n))
            start += n
        groups = tuple(acc)
    multi = len(spec.results) != 1 or spec.results[0].kind == VARIADIC
    return _Step(
        op,
        spec.eval or _missing,
        tuple(op.operands),
        groups,
        tuple(op.results),
        multi,
        spec.has(TERMINATOR),
        spec.touches_elements(op),
    )


def _group(vals: list[Any], groups: tuple[tuple[str, int, int], ...]) -> list[Any]:
    out: list[Any] = []
    for kind, a, b in groups:
        if kind == SINGLE:
            out.append(vals[a])
        elif kind == OPTIONAL:
            out.append(vals[a] if b > a else None)
        else:
            out.append(vals[a:b])
    return out


class Interpreter:
    """Runs the functions of one module. ``vscale`` sizes the scalable vectors; ``vector.print``
    writes to ``out`` (default: sys.stdout). The module must not change while it is in use:
    blocks are planned once and the plans are cached."""

    def __init__(
        self,
        module: Module,
        vscale: int = 1,
        out: TextIO | None = None,
        matrix_layout: str = "row-major",
        strict_bounds: bool = False,
        err: TextIO | None = None,
        fp_contract: bool = False,
    ) -> None:
        if vscale < 1:
            raise ValueError(f"vscale must be >= 1, got {vscale}")
        if matrix_layout not in MATRIX_LAYOUTS:
            raise ValueError(f"matrix_layout must be one of {MATRIX_LAYOUTS}: {matrix_layout!r}")
        self.module = module
        self.vscale = vscale
        self.matrix_layout = matrix_layout
        # fp-contract mode: float vector.contract<add> fuses each multiply-add
        # (frontend.semantics_vector.contract)
        self.fp_contract = fp_contract
        # A transfer marked in_bounds that reaches past a dimension (inside its allocation):
        # MLIR reads/writes the flat memory; we do the same and warn once per op on `err`
        # (default sys.stderr), or fault when `strict_bounds`.
        self.strict_bounds = strict_bounds
        self.err = err
        self.warnings: list[str] = []
        self._warned: set[Operation] = set()
        self.out: TextIO = out if out is not None else sys.stdout
        self.mask: Any = None
        self._env: dict[Value, Any] = {}
        self._plans: dict[Block, list[_Step]] = {}
        self._static: dict[Operation, Any] = {}
        self._globals: dict[str, MemRef] = {}
        self._funcs = module.functions()
        self._depth = 0
        self.heap = Heap()  # memref.alloc buffers, and those deallocated during the call
        # Poison lane masks: made when a block with an op of undefined content is planned.
        self.poison: PoisonLanes | None = None

    def warn(self, op: Operation, message: str) -> None:
        """Report ``message`` at ``op``'s location, once per op (``FILE:LINE:COL: warning:``)."""
        if op in self._warned:
            return
        self._warned.add(op)
        text = str(MLIRError(message, op.loc, kind="warning"))
        self.warnings.append(text)
        print(text, file=self.err if self.err is not None else sys.stderr)

    # ------------------------------------------------------------------ Python API

    def call(self, name: str, *args: Any) -> Any:
        """Run function @name on numpy arguments: arrays for memrefs (written in place), arrays
        for vectors, numbers for scalars. Returns None, the result, or a tuple of results
        (vectors and memrefs as fresh arrays, scalars as numpy scalars)."""
        func = self._funcs.get(name)
        if func is None:
            raise RuntimeFault(f"no function @{name} in the module")
        ftype: FunctionType = func.attributes["function_type"].type
        if len(args) != len(ftype.inputs):
            raise TypeError(f"@{name} takes {len(ftype.inputs)} arguments, got {len(args)}")
        values, writebacks = [], []
        for i, (a, t) in enumerate(zip(args, ftype.inputs)):
            v, wb = self._to_runtime(a, t, f"argument {i} of @{name}")
            values.append(self.heap.note(v, "argument") if isinstance(v, MemRef) else v)
            if wb is not None:
                writebacks.append(wb)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, MAX_CALL_DEPTH * _PY_FRAMES))
        try:
            results = self.invoke(name, values)
        except _FAULTS as e:  # a fault at the call itself (no body, too deep)
            raise RuntimeFault(str(e), func.loc) from None
        finally:
            sys.setrecursionlimit(limit)
            self.heap.clear()
            for wb in writebacks:
                wb()
        outs = [_from_runtime(r) for r in results]
        return None if not outs else outs[0] if len(outs) == 1 else tuple(outs)

    def _to_runtime(self, a: Any, t: Type, what: str) -> tuple[Any, Callable[[], None] | None]:
        """A Python/numpy argument as a runtime value, and how to copy writes back if needed."""
        if isinstance(t, MemRefType):
            return self._memref_arg(a, t, what)
        _check_kind(a, t, what)
        try:
            e = elem(t)
            if isinstance(t, VectorType):
                v = np.asarray(as_elem(np.asarray(a), e))
                if v.shape != shape(self, t):
                    raise TypeError(f"{what}: shape {v.shape} does not fit {t}")
                return v, None
            if isinstance(t, TensorType):
                return np.array(as_elem(np.asarray(a), e)), None
            v = np.asarray(as_elem(np.asarray(a), e))
            if v.ndim:
                raise TypeError(f"{what}: expected a scalar of type {t}, got shape {v.shape}")
            return v[()], None
        except SemanticsError as err:
            raise TypeError(f"{what}: {err}") from None

    def _memref_arg(self, a: Any, t: MemRefType, what: str) -> tuple[Any, Any]:
        if isinstance(a, MemRef):
            return a, None
        if not isinstance(a, np.ndarray):
            raise TypeError(f"{what}: a memref argument must be a numpy array")
        _check_kind(a, t, what)
        e, vs = elem(t), shape(self, t.element)
        sizes = a.shape[: a.ndim - len(vs)] if a.ndim >= len(vs) else None
        if (
            sizes is None
            or a.shape[len(sizes) :] != vs
            or len(sizes) != t.rank
            or any(s is not None and s != n for s, n in zip(t.shape, sizes))
        ):
            raise TypeError(f"{what}: array of shape {a.shape} does not fit {t}")
        exact = e != "bf16"  # bf16 lives in float32 arrays but must be rounded first
        if exact and a.dtype == dtype_of(e) and a.flags.c_contiguous and a.flags.writeable:
            n = int(np.prod(sizes, dtype=np.int64)) if sizes else 1
            strides = [int(np.prod(sizes[i + 1 :], dtype=np.int64)) for i in range(len(sizes))]
            return MemRef(a.reshape((n,) + vs), 0, sizes, strides, e, vs), None
        mem = MemRef.from_array(a, e, vs)  # a copy in the storage dtype, copied back after

        before = None if a.flags.writeable else mem.buffer.tobytes()

        def writeback() -> None:
            if a.flags.writeable:
                np.copyto(a, mem.to_array(), casting="unsafe")
            elif mem.buffer.tobytes() != before:
                raise TypeError(f"{what}: the function writes to a read-only array")

        return mem, writeback

    # ------------------------------------------------------------------ EvalContext

    def run_region(self, region: Region, args: Sequence[Any]) -> list[Any]:
        """Run the region's entry block; the values its terminator passes on."""
        if len(region.blocks) != 1:
            raise SemanticsError(
                "regions with several blocks (unstructured control flow) are not supported"
            )
        return self._run_block(region.blocks[0], args)

    def invoke(self, name: str, args: Sequence[Any]) -> list[Any]:
        """Call function @name with runtime values; a fresh frame of SSA values."""
        func = self._funcs.get(name)
        if func is None or not func.regions or not func.regions[0].blocks:
            runtime = RUNTIME_FUNCTIONS.get(name)
            if func is not None and runtime is not None:  # declared, provided by the runner
                return runtime(self.out, args)
            what = "unknown function" if func is None else "function without a body"
            hint = " (unsupported runtime function)" if func is not None else ""
            raise SemanticsError(f"call to {what} @{name}{hint}")
        if self._depth >= MAX_CALL_DEPTH:
            raise SemanticsError(f"calls nested deeper than {MAX_CALL_DEPTH} (runaway recursion?)")
        saved, self._env = self._env, {}
        self._depth += 1
        try:
            return self.run_region(func.regions[0], args)
        finally:
            self._env = saved
            self._depth -= 1

    def global_memref(self, name: str) -> MemRef:
        """The buffer of memref.global @name, made from its initial value on first use."""
        m = self._globals.get(name)
        if m is None:
            g = self.module.lookup_symbol(name)
            if g is None or g.name != "memref.global":
                raise SemanticsError(f"no memref.global @{name}")
            t: MemRefType = g.attributes["type"].type
            e, vs = elem(t), shape(self, t.element)
            init = g.attributes.get("initial_value")
            if isinstance(init, DenseElementsAttr):
                m = MemRef.from_array(attr_value(init, init.type, self.vscale), e, vs)
            else:
                m = MemRef.alloc([int(s) for s in t.shape], e, vs)
            self._globals[name] = m
        return m

    def static(self, op: Operation, build: Callable[[Operation], Any]) -> Any:
        """``build(op)`` once per op, then the cached value."""
        try:
            return self._static[op]
        except KeyError:
            v = self._static[op] = build(op)
            return v

    # ------------------------------------------------------------------ the loop

    def _plan(self, block: Block) -> list[_Step]:
        for op in block.ops:
            _check_size(op)
        steps = [_plan_op(op) for op in block.ops]
        if self.poison is None and any(
            op.spec is not None and op.spec.has(UNDEFINED) for op in block.ops
        ):
            self.poison = PoisonLanes(self.warn)
        self._plans[block] = steps
        return steps

    def _run_block(self, block: Block, args: Sequence[Any]) -> list[Any]:
        env = self._env
        if len(args) != len(block.args):
            raise SemanticsError(f"block takes {len(block.args)} arguments, got {len(args)}")
        for a, v in zip(block.args, args):
            env[a] = v
        steps = self._plans.get(block) or self._plan(block)
        if self.poison is not None:
            self.poison.enter_block(block.args, args)
        for st in steps:
            try:
                vals = [env[v] for v in st.operands]
                if st.touches and self.heap:
                    self.heap.check(vals, st.op.name)
                if self.poison is not None:
                    groups = st.groups
                    r = self.poison.run(
                        self, st, vals, lambda xs: xs if groups is None else _group(xs, groups)
                    )
                else:
                    if st.groups is not None:
                        vals = _group(vals, st.groups)
                    r = st.fn(self, st.op, *vals)
            except RuntimeFault:
                raise
            except _FAULTS as e:
                raise _fault(st.op, e) from None
            except KeyError as e:
                if isinstance(e.args[0], Value):
                    raise _fault(st.op, SemanticsError("operand used before its definition"))
                raise
            if st.terminator:
                return list(r) if r is not None else []
            if not st.multi:
                if st.results:
                    env[st.results[0]] = r
            elif st.results:
                rs = list(r)
                if len(rs) != len(st.results):
                    raise _fault(
                        st.op,
                        SemanticsError(f"produced {len(rs)} values for {len(st.results)} results"),
                    )
                for v, x in zip(st.results, rs):
                    env[v] = x
        return []


def _check_kind(a: Any, t: Type, what: str) -> None:
    """Refuse arguments whose values cannot be of ``t``'s element type (strings, objects,
    floats for integers) with a ``TypeError`` naming the argument, before numpy fails on them."""
    from frontend.types import FloatType, IndexType, IntegerType

    kind = np.asarray(a).dtype.kind if not isinstance(a, (bool, int, float)) else None
    e = getattr(t, "element", t)
    if kind is None or isinstance(e, VectorType):
        return
    ok = "fiub" if isinstance(e, FloatType) else "iub" if isinstance(
        e, (IntegerType, IndexType)) else None  # fmt: skip
    if ok is not None and kind not in ok:
        raise TypeError(f"{what}: values of dtype {np.asarray(a).dtype} do not fit {t}")


def _check_size(op: Operation) -> None:
    for r in op.results:
        t = r.type
        if isinstance(t, (VectorType, MemRefType)):
            n = 1
            for d in t.shape:
                n *= d or 1
            if n > MAX_ELEMENTS:
                raise RuntimeFault(
                    f"'{op.name}' op result of type {t} has {n} elements; the reference "
                    f"interpreter holds at most {MAX_ELEMENTS} per value",
                    op.loc,
                )


def _fault(op: Operation, e: BaseException) -> RuntimeFault:
    msg = str(e) if isinstance(e, SemanticsError) else f"{type(e).__name__}: {e}"
    if isinstance(e, RecursionError):
        msg = "the program nests or recurses too deeply"
    elif isinstance(e, MemoryError):
        msg = "out of memory"
    return RuntimeFault(f"'{op.name}' op runtime fault: {msg}", op.loc)


def _from_runtime(v: Any) -> Any:
    """Results for Python callers: memrefs and vectors as fresh writeable arrays."""
    if isinstance(v, MemRef):
        return v.to_array()
    if isinstance(v, np.ndarray):
        return np.array(v)
    return v


def run_function(
    module: Module,
    name: str = "entry",
    vscale: int = 1,
    out: TextIO | None = None,
    matrix_layout: str = "row-major",
    fp_contract: bool = False,
) -> Any:
    """Run a function of `module` (no arguments) and return its results (see Interpreter.call)."""
    return Interpreter(
        module, vscale=vscale, out=out, matrix_layout=matrix_layout, fp_contract=fp_contract
    ).call(name)
