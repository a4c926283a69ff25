"""Walks our IR and emits LLVM IR: one ``FuncEmitter`` per ``func.func``.

Lowerings are looked up by op name in ``eqsat.codegen.table.LOWERINGS``; each is
``lower(em, op) -> result | [results] | None`` and reads the op's operands through
``em.get`` (LLVM values, or ``MemDesc`` for memrefs). Region terminators (``scf.yield``,
``scf.condition``, ``vector.yield``) hand their operands back to the op that owns the region
(``em.run_block``). Runtime faults (integer division by zero, ...) set a flag through a
callback (``eqsat.codegen.runtime``) that the caller turns into a ``RuntimeFault``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from llvmlite import ir

from eqsat.codegen.texts import text_id
from eqsat.codegen.types import (
    I1,
    I32,
    I64,
    PTR,
    CodegenError,
    Layout,
    memref_struct,
    scalar_type,
    splat,
)
from frontend.ir import Block, Module, Operation, Value
from frontend.types import FunctionType, MemRefType, Type, VectorType

Lowering = Callable[["FuncEmitter", Operation], Any]
YIELDS = frozenset({"scf.yield", "scf.condition", "vector.yield"})


@dataclass
class MemDesc:
    """A memref in SSA: the fields of MLIR's descriptor as separate LLVM values."""

    type: MemRefType
    allocated: ir.Value
    aligned: ir.Value
    offset: ir.Value
    sizes: list[ir.Value]
    strides: list[ir.Value]

    def fields(self) -> list[ir.Value]:
        return [self.allocated, self.aligned, self.offset, *self.sizes, *self.strides]


@dataclass
class ModuleEmitter:
    """State shared by the functions of one LLVM module."""

    module: ir.Module
    source: Module
    layout: Layout
    reassoc: bool = False
    functions: dict[str, ir.Function] = field(default_factory=dict)
    globals: dict[str, ir.GlobalVariable] = field(default_factory=dict)

    def declare(self, name: str, ret: ir.Type, args: Sequence[ir.Type]) -> ir.Function:
        fn = self.module.globals.get(name)
        if fn is None:
            fn = ir.Function(self.module, ir.FunctionType(ret, list(args)), name)
        return fn  # type: ignore[return-value]


def mangle(t: ir.Type) -> str:
    """LLVM's overloaded-intrinsic suffix for a type (f32, v8f32, i64, v4i1)."""
    if isinstance(t, ir.VectorType):
        return f"v{t.count}{mangle(t.element)}"
    if isinstance(t, ir.IntType):
        return f"i{t.width}"
    name = str(t)
    return {"float": "f32", "double": "f64", "half": "f16", "bfloat": "bf16"}.get(name, name)


def abi_params(layout: Layout, t: Type, op: object = None) -> list[ir.Type]:
    """The LLVM parameters MLIR's calling convention gives one argument of type t."""
    if isinstance(t, MemRefType):
        r = len(t.shape)
        return [PTR, PTR, I64] + [I64] * (2 * r)
    return [layout.type_of(t, op)]


def abi_return(layout: Layout, results: Sequence[Type], op: object = None) -> ir.Type:
    """MLIR's return type: void, the one result, or a literal struct of all of them."""
    tys = [layout.type_of(t, op) for t in results]
    if not tys:
        return ir.VoidType()
    return tys[0] if len(tys) == 1 else ir.LiteralStructType(tys)


class FuncEmitter:
    """Emits one function body: SSA value map, builder, enclosing vector.mask."""

    def __init__(self, m: ModuleEmitter, func: Operation, fn: ir.Function) -> None:
        from eqsat.codegen.table import LOWERINGS

        self.m = m
        self.layout = m.layout
        self.func = func
        self.fn = fn
        self.lowerings = LOWERINGS
        self.values: dict[Value, Any] = {}
        entry = fn.append_basic_block("entry")
        self.alloca_builder = ir.IRBuilder(entry)
        body = fn.append_basic_block("body")
        self.b = ir.IRBuilder(body)
        self.alloca_builder.branch(body)
        self.alloca_builder.position_at_start(entry)
        self.mask: tuple[ir.Value, VectorType] | None = None

    # -- values -------------------------------------------------------------------------------
    def get(self, v: Value) -> Any:
        try:
            return self.values[v]
        except KeyError:
            raise CodegenError(f"value {v} used before it is defined") from None

    def set(self, v: Value, x: Any) -> None:
        self.values[v] = x

    def ty(self, t: Type, op: object = None) -> ir.Type:
        return self.layout.type_of(t, op)

    # -- blocks ---------------------------------------------------------------------------------
    def run_block(self, block: Block, args: Sequence[Any]) -> list[Any]:
        """Emit the block's ops with its arguments bound; the values its yield passes on."""
        for a, x in zip(block.args, args):
            self.set(a, x)
        for op in block.ops:
            if op.name in YIELDS:
                return [self.get(v) for v in op.operands]
            self.emit(op)
        return []

    def emit(self, op: Operation) -> None:
        lower = self.lowerings.get(op.name)
        if lower is None:
            raise CodegenError(f"'{op.name}' has no LLVM lowering", op)
        out = lower(self, op)
        if not op.results:
            return
        results = out if isinstance(out, list) else [out]
        if len(results) != len(op.results):
            raise CodegenError(f"lowering of '{op.name}' gave {len(results)} results", op)
        for r, x in zip(op.results, results):
            self.set(r, x)

    # -- helpers shared by the dialect modules -----------------------------------------------
    def chunks(self, v: ir.Value, t: Type) -> list[ir.Value]:
        """Pieces an element-wise op maps over: rows (nested) or the whole vector (flat);
        a scalar is its own single piece."""
        if not isinstance(t, VectorType):
            return [v]
        if self.layout.kind == "flat":
            return [v]
        return self.layout.rows(self.b, v, t)

    def from_chunks(self, pieces: list[ir.Value], t: Type) -> ir.Value:
        if not isinstance(t, VectorType) or self.layout.kind == "flat":
            return pieces[0]
        return self.layout.from_rows(self.b, pieces, t)

    def map_chunks(self, op: Operation, fn: Callable[..., ir.Value], operands: list[Value] | None = None) -> ir.Value:
        """Apply fn piece by piece over same-shaped vector operands (scalars pass whole)."""
        vals = operands if operands is not None else list(op.operands)
        rt = op.results[0].type
        n = len(self.chunks_count(rt))
        parts = []
        for v in vals:
            x = self.get(v)
            if isinstance(v.type, VectorType):
                parts.append(self.chunks(x, v.type))
            else:
                parts.append([x] * n)
        return self.from_chunks([fn(*args) for args in zip(*parts)], rt)

    def chunks_count(self, t: Type) -> range:
        if isinstance(t, VectorType) and self.layout.kind == "nested":
            return range(self.layout.num_rows(t))
        return range(1)

    def intrinsic(self, name: str, args: Sequence[ir.Value], over: Sequence[ir.Type] | None = None, ret: ir.Type | None = None, flags: Sequence[str] = ()) -> ir.Value:
        """Call llvm.<name> overloaded on the types `over` (default: the first argument's)."""
        over = [args[0].type] if over is None else list(over)
        full = "llvm." + name + "".join("." + mangle(t) for t in over)
        rt = args[0].type if ret is None else ret
        fn = self.m.declare(full, rt, [a.type for a in args])
        return self.b.call(fn, list(args), fastmath=tuple(flags))

    def const(self, t: ir.Type, v: Any) -> ir.Value:
        if isinstance(t, ir.VectorType):
            return ir.Constant(t, [ir.Constant(t.element, v)] * t.count)
        return ir.Constant(t, v)

    def like(self, x: ir.Value, v: Any) -> ir.Value:
        """A constant v of x's type (splat over x's lanes)."""
        return self.const(x.type, v)

    def alloca(self, t: ir.Type, count: ir.Value | None = None) -> ir.Value:
        """An entry-block alloca (never inside a loop)."""
        return self.alloca_builder.alloca(t, size=count)

    def fault_if(self, cond: ir.Value, message: str) -> None:
        """At run time: if cond (i1, or any lane of an i1 vector) holds, report a fault."""
        if isinstance(cond.type, ir.VectorType):
            cond = self.intrinsic("vector.reduce.or", [cond], ret=I1)
        fault = self.m.declare("eqsat_fault", ir.VoidType(), [I32])
        with self.b.if_then(cond, likely=False):
            self.b.call(fault, [I32(text_id(message))])

    def splat(self, x: ir.Value, n: int) -> ir.Value:
        return splat(self.b, x, n)

    def scalar_ty(self, t: Type) -> ir.Type:
        return scalar_type(t)


def emit_function(m: ModuleEmitter, func: Operation) -> None:
    """Emit the body of a func.func already declared in m.functions."""
    fn = m.functions[func.attributes["sym_name"].value]
    region = func.regions[0] if func.regions else None
    if region is None or not region.blocks or not region.blocks[0].ops:
        return  # a declaration: resolved by the JIT from the process, or an error there
    if len(region.blocks) > 1:
        raise CodegenError("functions with several blocks (unstructured control flow) are not supported", func)
    from eqsat.codegen.memref import with_static

    em = FuncEmitter(m, func, fn)
    ftype: FunctionType = func.attributes["function_type"].type
    params = iter(fn.args)
    args: list[Any] = []
    for t in ftype.inputs:
        if isinstance(t, MemRefType):
            r = len(t.shape)
            fields = [next(params) for _ in range(3 + 2 * r)]
            d = MemDesc(t, fields[0], fields[1], fields[2], fields[3 : 3 + r], fields[3 + r :])
            args.append(with_static(d))
        else:
            args.append(next(params))
    em.run_block(region.blocks[0], args)
    if not em.b.block.is_terminated:
        raise CodegenError("function body does not end with func.return", func)


def pack_memref(b: ir.IRBuilder, d: MemDesc) -> ir.Value:
    """The descriptor struct of d (for returns and results)."""
    st = memref_struct(d.type)
    agg: ir.Value = ir.Constant(st, ir.Undefined)
    agg = b.insert_value(agg, d.allocated, 0)
    agg = b.insert_value(agg, d.aligned, 1)
    agg = b.insert_value(agg, d.offset, 2)
    for i, s in enumerate(d.sizes):
        agg = b.insert_value(agg, s, [3, i])
    for i, s in enumerate(d.strides):
        agg = b.insert_value(agg, s, [4, i])
    return agg


def unpack_memref(b: ir.IRBuilder, agg: ir.Value, t: MemRefType) -> MemDesc:
    r = len(t.shape)
    return MemDesc(
        t,
        b.extract_value(agg, 0),
        b.extract_value(agg, 1),
        b.extract_value(agg, 2),
        [b.extract_value(agg, [3, i]) for i in range(r)],
        [b.extract_value(agg, [4, i]) for i in range(r)],
    )


__all__ = [
    "FuncEmitter",
    "MemDesc",
    "ModuleEmitter",
    "abi_params",
    "abi_return",
    "emit_function",
    "mangle",
    "pack_memref",
    "unpack_memref",
    "I1",
    "I64",
]
