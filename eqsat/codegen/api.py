"""The Python API: ``compile(source, target)`` -> callables on numpy arrays, and
``emit_llvm_ir(module, target)`` -> LLVM IR text with MLIR's function names and ABI."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from eqsat.codegen import jit
from eqsat.codegen import runtime_checked as checked
from eqsat.codegen.descriptor import layout_of
from eqsat.codegen.module import emit_module, packed_name
from eqsat.codegen.runtime import ERRORS, FAULTS
from eqsat.codegen.types import CodegenError
from eqsat.targets import Target, load_target
from frontend.errors import RuntimeFault
from frontend.ir import Module
from frontend.ops.runtime import elem
from frontend.semantics import dtype_of
from frontend.semantics_vector import MATRIX_LAYOUTS
from frontend.types import FunctionType, IndexType, MemRefType, Type, VectorType


def _module(source: str | Module) -> Module:
    if isinstance(source, Module):
        return source
    from frontend import parse

    return parse(source, "<compile>")


def _target(target: str | Target) -> Target:
    return target if isinstance(target, Target) else load_target(target)


def emit_llvm_ir(
    module: str | Module,
    target: str | Target = "avx2",
    layout: str = "nested",
    reassoc: bool = False,
    checked: bool = False,
    matrix_layout: str = "row-major",
    fp_contract: bool = False,
) -> str:
    """Unoptimized LLVM IR of every function (MLIR's names and calling convention) and
    ``_eqsat_packed_<name>`` entry points, with the target's triple. ``checked``: memory
    accesses are bounds-checked (a located RuntimeFault instead of undefined behaviour);
    ``matrix_layout``: how the matrix ops' flat operands hold their matrices;
    ``fp_contract``: float contractions fuse each multiply-add (the interpreter's mode)."""
    t = _target(target)
    if matrix_layout not in MATRIX_LAYOUTS:
        raise CodegenError(f"matrix layout must be one of {MATRIX_LAYOUTS}: {matrix_layout!r}")
    m = emit_module(
        _module(module), layout, reassoc, checked, t.triple, t.features, matrix_layout,
        fp_contract, t.vector_bits, t.align_versioning,
    )
    m.module.triple = t.triple
    return str(m.module)


def emit_assembly(
    module: str | Module,
    target: str | Target = "avx2",
    layout: str = "nested",
    reassoc: bool = False,
    fp_contract: bool = False,
) -> str:
    t = _target(target)
    ir_text = emit_llvm_ir(module, t, layout, reassoc, fp_contract=fp_contract)
    return jit.emit_assembly(ir_text, t)


class _Descriptor(ctypes.Structure):
    pass


def _descriptor_type(rank: int) -> type[ctypes.Structure]:
    fields = [
        ("allocated", ctypes.c_void_p),
        ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64),
    ]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}", (ctypes.Structure,), {"_fields_": fields})


class Function:
    """One compiled function; call it with numpy arrays (memrefs, written through), numbers
    (scalars) and arrays (vectors)."""

    def __init__(self, program: Program, name: str, ftype: FunctionType) -> None:
        self.program, self.name, self.type = program, name, ftype
        addr = program.engine.get_function_address(packed_name(name))
        self._fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)(addr)

    def _arg(self, i: int, x: Any, t: Type, keep: list[Any]) -> int:
        what = f"@{self.name} argument {i} ({t})"
        if isinstance(t, MemRefType):
            if elem(t) == "bf16":
                raise TypeError(f"{what}: bf16 memrefs cannot be passed (numpy has no bfloat16)")
            if not isinstance(x, np.ndarray):
                raise TypeError(f"{what}: expected a numpy array, got {type(x).__name__}")
            dt = dtype_of(elem(t))
            if x.dtype != dt:
                raise TypeError(f"{what}: expected dtype {dt}, got {x.dtype}")
            if x.ndim != len(t.shape) or any(
                s is not None and s != n for s, n in zip(t.shape, x.shape)
            ):
                raise ValueError(f"{what}: expected shape {_shape(t.shape)}, got {x.shape}")
            if any(s % x.itemsize for s in x.strides):
                raise ValueError(f"{what}: array strides {x.strides} are not whole elements")
            want, offset = layout_of(t)
            have = [st // x.itemsize for st in x.strides]
            if any(w is not None and w != h and n > 1 for w, h, n in zip(want, have, x.shape)):
                if any(w is not None for w in want) and (
                    offset != 0 or want != _row_major(x.shape)
                ):
                    raise ValueError(f"{what}: array strides {tuple(have)} do not fit {t}")
                copy = np.ascontiguousarray(x)  # the type fixes row-major: copy in, and back
                self._copy_back.append((x, copy, what))
                x = copy
            if not x.flags.writeable:  # written (if at all) into a copy, compared afterwards
                copy = np.array(x, order="K")
                if copy.strides != x.strides:
                    raise ValueError(f"{what}: a read-only array with strides {x.strides}")
                self._copy_back.append((x, copy, what))
                x = copy
            d = _descriptor_type(x.ndim)()
            # The array is the memref's view: with a static offset k in the type (which the
            # compiled code adds itself) the base pointer sits k elements before the array,
            # never dereferenced, so the view's first element is the array's, as the
            # interpreter has it.
            static = offset or 0
            d.allocated = d.aligned = x.ctypes.data - static * x.itemsize
            if self.program.checked:
                checked.register(x.ctypes.data, *_extent(x), checked.ARGUMENT)
            d.offset = static
            for k in range(x.ndim):
                d.sizes[k] = x.shape[k]
                d.strides[k] = x.strides[k] // x.itemsize
            keep.append(d)
            return ctypes.addressof(d)
        dt = dtype_of(elem(t))
        if isinstance(t, VectorType):
            a = np.asarray(x)
            if isinstance(x, np.ndarray) and x.dtype != dt:
                raise TypeError(f"{what}: expected dtype {dt}, got {x.dtype}")
            if a.shape != tuple(t.shape):
                raise ValueError(f"{what}: expected shape {tuple(t.shape)}, got {a.shape}")
            buf = np.ascontiguousarray(a, dtype=dt)
        else:
            if isinstance(x, np.ndarray) and x.ndim:
                raise TypeError(f"{what}: expected a scalar, got an array of shape {x.shape}")
            if not isinstance(x, (int, float, bool, np.generic)):
                raise TypeError(f"{what}: expected a number, got {type(x).__name__}")
            if np.issubdtype(dt, np.integer) or dt == np.bool_:
                if isinstance(x, (float, np.floating)):
                    raise TypeError(f"{what}: expected an integer, got {x!r}")
                info = (
                    np.iinfo(np.int64 if isinstance(t, IndexType) else dt)
                    if dt != np.bool_
                    else None
                )
                if (
                    info is not None
                    and not (info.min <= int(x) <= info.max)
                    and not (np.issubdtype(dt, np.integer) and 0 <= int(x) < 2 ** (8 * dt.itemsize))
                ):
                    raise ValueError(f"{what}: {x} does not fit {t}")
                buf = np.array([int(x)], dtype=np.int64).astype(dt)
            else:
                buf = np.array([x], dtype=dt)
        if elem(t) == "bf16":  # numpy holds bf16 values in float32: pass the upper halves
            buf = _to_bf16_bits(buf)
        keep.append(buf)
        return buf.ctypes.data

    def __call__(self, *args: Any) -> Any:
        ins, outs = self.type.inputs, self.type.results
        if len(args) != len(ins):
            raise TypeError(f"@{self.name} takes {len(ins)} arguments, got {len(args)}")
        keep: list[Any] = []
        self._copy_back: list[tuple[np.ndarray, np.ndarray, str]] = []
        argv = (ctypes.c_void_p * max(1, len(ins)))(
            *[self._arg(i, x, t, keep) for i, (x, t) in enumerate(zip(args, ins))]
        )
        results = []
        for t in outs:
            if isinstance(t, MemRefType):
                results.append(_descriptor_type(len(t.shape))())
            else:
                shape = tuple(t.shape) if isinstance(t, VectorType) else (1,)
                dt = np.uint16 if elem(t) == "bf16" else dtype_of(elem(t))
                results.append(np.zeros(max(1, int(np.prod(shape))), dtype=dt))
        resv = (ctypes.c_void_p * max(1, len(outs)))(
            *[
                ctypes.addressof(r) if isinstance(r, ctypes.Structure) else r.ctypes.data
                for r in results
            ]
        )
        FAULTS.clear()
        ERRORS.clear()
        try:
            self._fn(ctypes.addressof(argv), ctypes.addressof(resv))
        finally:
            checked.reset()
        for orig, copy, what in self._copy_back:
            if orig.flags.writeable:
                orig[...] = copy
            elif orig.tobytes() != copy.tobytes():
                raise ValueError(f"{what}: the function writes to a read-only array")
        if ERRORS:
            err = ERRORS[0]
            ERRORS.clear()
            raise err
        if FAULTS:
            msg, loc = FAULTS[0]
            FAULTS.clear()
            raise RuntimeFault(msg, loc)  # type: ignore[arg-type]
        vals = [_result(r, t) for r, t in zip(results, outs)]
        if not vals:
            return None
        return vals[0] if len(vals) == 1 else tuple(vals)


def _extent(x: np.ndarray) -> tuple[int, int]:
    """(first byte, byte count) of the memory an array's elements span."""
    lo = sum(min(0, (n - 1) * st) for n, st in zip(x.shape, x.strides))
    hi = sum(max(0, (n - 1) * st) for n, st in zip(x.shape, x.strides)) + x.itemsize
    return x.ctypes.data + lo, (hi - lo) if x.size else 0


def _row_major(shape: tuple[int, ...]) -> list[int]:
    out, acc = [], 1
    for n in reversed(shape):
        out.append(acc)
        acc *= n
    return list(reversed(out))


def _shape(shape: tuple[int | None, ...]) -> str:
    return "(" + ", ".join("?" if s is None else str(s) for s in shape) + ")"


def _to_bf16_bits(a: np.ndarray) -> np.ndarray:
    from frontend.semantics import as_elem

    v = np.ascontiguousarray(np.asarray(as_elem(a, "bf16"), dtype=np.float32))
    return (v.view(np.uint32) >> 16).astype(np.uint16)


def _result(r: Any, t: Type) -> Any:
    if not isinstance(t, MemRefType) and elem(t) == "bf16":
        r = (r.astype(np.uint32) << 16).view(np.float32)
    if isinstance(t, MemRefType):
        dt = np.dtype(dtype_of(elem(t)))
        rank = len(t.shape)
        sizes = [r.sizes[k] for k in range(rank)] if rank else []
        strides = [r.strides[k] * dt.itemsize for k in range(rank)] if rank else []
        n = 1 + sum((s - 1) * st for s, st in zip(sizes, strides) if s > 0) // dt.itemsize
        base = (ctypes.c_char * (n * dt.itemsize)).from_address(r.aligned + r.offset * dt.itemsize)
        flat = np.frombuffer(base, dtype=dt, count=n)
        return np.lib.stride_tricks.as_strided(flat, sizes, strides).copy()
    if isinstance(t, VectorType):
        return r.reshape(t.shape)
    return r[0]


class Program:
    """A compiled module: ``program.f(...)``, ``program["f"](...)``, or ``program(...)``
    for its entry function."""

    def __init__(
        self,
        module: Module,
        target: Target,
        entry: str | None,
        layout: str,
        reassoc: bool,
        checked: bool = False,
        opt: int = 3,
        matrix_layout: str = "row-major",
        fp_contract: bool = False,
    ) -> None:
        self.module, self.target, self.checked = module, target, checked
        self.llvm_ir = emit_llvm_ir(
            module, target, layout, reassoc, checked, matrix_layout, fp_contract
        )
        self.engine = jit.jit(self.llvm_ir, target, opt)
        self.functions: dict[str, Function] = {}
        for name, op in module.functions().items():
            if op.regions and op.regions[0].blocks and op.regions[0].blocks[0].ops:
                self.functions[name] = Function(self, name, op.attributes["function_type"].type)
        if entry is not None and entry not in self.functions:
            raise CodegenError(f"no function @{entry} in the module")
        self.entry_name = entry

    def __getitem__(self, name: str) -> Function:
        try:
            return self.functions[name]
        except KeyError:
            raise KeyError(f"no function @{name} in the module") from None

    def __getattr__(self, name: str) -> Function:
        if name.startswith("_") or "functions" not in self.__dict__:
            raise AttributeError(name)
        try:
            return self.functions[name]
        except KeyError:
            raise AttributeError(f"no function @{name} in the module") from None

    def __call__(self, *args: Any) -> Any:
        name = self.entry_name or (next(iter(self.functions)) if len(self.functions) == 1 else None)
        if name is None:
            raise TypeError("several functions: pass entry= to compile, or call program.<name>")
        return self.functions[name](*args)


def compile(
    source: str | Module,
    target: str | Target = "avx2",
    entry: str | None = None,
    layout: str = "nested",
    reassoc: bool = False,
    opt: int = 3,
    checked: bool = False,
    matrix_layout: str = "row-major",
    fp_contract: bool = False,
) -> Program:
    """Compile MLIR text or a parsed module for a target this host runs (LLVM level ``opt``,
    3 by default; ``checked``: bounds-checked memory accesses; ``matrix_layout``: row-major
    or column-major flat matrices, as the interpreter's option; ``fp_contract``: float
    contractions fuse each multiply-add, as ``Interpreter(fp_contract=True)``)."""
    return Program(
        _module(source),
        _target(target),
        entry,
        layout,
        reassoc,
        checked=checked,
        opt=opt,
        matrix_layout=matrix_layout,
        fp_contract=fp_contract,
    )
