"""A whole module to LLVM IR: declarations with MLIR's ABI, globals, bodies, and one packed
entry point per function (``_eqsat_packed_<name>(ptr args, ptr results)``) that the Python
API calls through ctypes (vectors cannot pass by value through ctypes)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir

from eqsat.codegen import jit
from eqsat.codegen.align_version import aligned_copy, dispatch, plan, rebase
from eqsat.codegen.arith import scalar_constant
from eqsat.codegen.descriptor import MemDesc, unpack_memref, with_static
from eqsat.codegen.emitter import FuncEmitter, ModuleEmitter, abi_params, abi_return
from eqsat.codegen.memref import global_initializer
from eqsat.codegen.runtime_checked import frees, with_liveness
from eqsat.codegen.table import LOWERINGS
from eqsat.codegen.types import (
    I64,
    PTR,
    CodegenError,
    Layout,
    from_stored,
    memref_struct,
    stored_int,
    to_stored,
)
from frontend.ir import Module, Operation
from frontend.ops.runtime import elem
from frontend.types import FunctionType, MemRefType, UnrankedMemRefType, VectorType

PACKED = "_eqsat_packed_"
MANGLED = "_eqsat_fn_"
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_RESERVED_PREFIXES = ("eqsat_", "_eqsat", "llvm.", "__")


def llvm_name(name: str, defined: bool = True) -> str:
    """The LLVM name of a function MLIR calls ``name``: the name itself (MLIR's ABI), unless
    it is not a plain identifier (``@"é"``, ``@""``), or a defined function would capture
    calls meant for the runtime (``@eqsat_fault``) or for the C library (``@malloc``), or
    LLVM would fold its calls as libm's (``@exp``): then ``_eqsat_fn_`` and the name's UTF-8
    in hex. Declarations keep their names (they are resolved in this process)."""
    plain = _PLAIN.fullmatch(name) is not None
    if plain and not name.startswith(_RESERVED_PREFIXES) and not (
        defined and jit.library_symbol(name)
    ):
        return name
    return MANGLED + name.encode().hex()
# The widest vector value compiled: LLVM's instruction selection does not scale past a few
# thousand lanes per value, and a huge one would hang it; the interpreter takes larger ones.
MAX_VECTOR_ELEMENTS = 1 << 16


def _check_sizes(source: Module) -> None:
    """Refuse (with the op's location) vector values too wide to compile."""
    for op in source.walk():
        for v in op.results:
            t = v.type
            if isinstance(t, VectorType) and not t.is_scalable:
                if t.num_elements() > MAX_VECTOR_ELEMENTS:
                    raise CodegenError(
                        f"'{op.name}' op: {t} has {t.num_elements()} elements; code generation "
                        f"takes at most {MAX_VECTOR_ELEMENTS} per vector value "
                        "(run it with --target interp, or tile it with eqsat opt --target)",
                        op,
                    )


def emit_module(
    source: Module,
    layout: str = "nested",
    reassoc: bool = False,
    checked: bool = False,
    triple: str = "",
    features: str = "",
    matrix_layout: str = "row-major",
    fp_contract: bool = False,
    vector_bits: int = 0,
    align_versioning: int = 0,
) -> ModuleEmitter:
    """The LLVM module of every function and global of source; ``triple`` and ``features``
    (LLVM's feature string, "+avx2,-avx512f") say which target intrinsics may be used;
    ``fp_contract``: float contractions fuse each multiply-add (``ModuleEmitter``);
    ``align_versioning``: the target's bound on versioned bodies for ``vector_bits``
    registers (``eqsat.codegen.align_version``; 0: none)."""
    _check_sizes(source)
    m = ModuleEmitter(
        ir.Module(name=source.name or "eqsat"),
        source,
        Layout(layout),
        reassoc=reassoc,
        checked=checked,
        lowerings=with_liveness(LOWERINGS) if checked and frees(source) else LOWERINGS,
        triple=triple,
        features=enabled_features(triple, features),
        matrix_layout=matrix_layout,
        fp_contract=fp_contract,
        vector_bits=vector_bits,
        align_versioning=0 if checked else align_versioning,
        callees=frozenset(
            op.attributes["callee"].root for op in source.walk() if op.name == "func.call"
        ),
    )
    for op in source.ops:
        if op.name == "memref.global":
            _emit_global(m, op)
    funcs = [op for op in source.ops if op.name == "func.func"]
    for op in funcs:
        name = op.attributes["sym_name"].value
        ft: FunctionType = op.attributes["function_type"].type
        params = [p for t in ft.inputs for p in abi_params(m.layout, t, op)]
        fnty = ir.FunctionType(abi_return(m.layout, ft.results, op), params)
        fn = ir.Function(m.module, fnty, llvm_name(name, _has_body(op)))
        m.functions[name] = fn
    if any("bf16" in str(v.type) for op in source.walk() for v in op.results) or any(
        "bf16" in str(op.attributes["function_type"].type) for op in funcs
    ):
        _emit_truncsfbf2(m)
    for op in funcs:
        emit_function(m, op)
    for op in funcs:
        if m.functions[op.attributes["sym_name"].value].blocks:
            _emit_packed(m, op)
    return m


def enabled_features(triple: str, features: str) -> frozenset[str]:
    """The features a feature string turns on ("+avx2"), plus the triple's family ("x86" or
    "aarch64") that every target intrinsic also asks for; none for other triples."""
    on = {f[1:] for f in features.split(",") if f.startswith("+")}
    off = {f[1:] for f in features.split(",") if f.startswith("-")}
    arch = triple.split("-")[0]
    if not (arch in ("x86_64", "i386", "i686") or arch.startswith("aarch64")):
        return frozenset()
    family = "aarch64" if arch.startswith("aarch64") else "x86"
    return frozenset(on - off) | {family}


def packed_name(name: str) -> str:
    """The packed entry point the Python API calls for function name."""
    return PACKED + llvm_name(name)


def _has_body(func: Operation) -> bool:
    region = func.regions[0] if func.regions else None
    return bool(region is not None and region.blocks and region.blocks[0].ops)


def emit_function(m: ModuleEmitter, func: Operation) -> None:
    """Emit the body of a func.func already declared in m.functions."""
    fn = m.functions[func.attributes["sym_name"].value]
    region = func.regions[0] if func.regions else None
    if region is None or not region.blocks or not region.blocks[0].ops:
        return  # a declaration: resolved by the JIT from the process, or an error there
    if len(region.blocks) > 1:
        raise CodegenError(
            "functions with several blocks (unstructured control flow) are not supported", func
        )
    bound = 0 if func.attributes["sym_name"].value in m.callees else m.align_versioning
    versioned = {v.aligned: v for v in plan(func, m.vector_bits, bound)}
    if not versioned:
        _emit_body(m, func, fn)
        return
    size = m.vector_bits // 8
    copy = aligned_copy(m.module, fn, list(versioned.values()), size)
    _emit_body(m, func, copy, restate=lambda b, i, d: (
        rebase(b, d, versioned[i], size) if i in versioned else d))  # fmt: skip
    _emit_body(m, func, fn, lambda b: dispatch(b, fn, copy, list(versioned.values()), size))


def _emit_body(
    m: ModuleEmitter,
    func: Operation,
    fn: ir.Function,
    prologue: Callable[[ir.IRBuilder], None] | None = None,
    restate: Callable[[ir.IRBuilder, int, MemDesc], MemDesc] | None = None,
) -> None:
    """The body of func into fn (whose parameters are func's, in MLIR's ABI), after
    ``prologue``; ``restate`` may restate a memref argument's descriptor (given the position
    of its aligned pointer among the parameters) for alignment versioning."""
    region = func.regions[0]
    em = FuncEmitter(m, func, fn)
    if prologue is not None:
        prologue(em.b)
    ftype: FunctionType = func.attributes["function_type"].type
    params = iter(fn.args)
    args: list[Any] = []
    for t in ftype.inputs:
        if isinstance(t, UnrankedMemRefType):
            raise CodegenError(
                "functions taking unranked memrefs are not supported (only the runner's "
                "printMemref functions take them)",
                func,
            )
        if isinstance(t, MemRefType):
            r = len(t.shape)
            fields = [next(params) for _ in range(3 + 2 * r)]
            d = MemDesc(t, fields[0], fields[1], fields[2], fields[3 : 3 + r], fields[3 + r :])
            d = with_static(d)
            args.append(d if restate is None else restate(em.b, fn.args.index(fields[1]), d))
        else:
            args.append(next(params))
    em.run_block(region.blocks[0], args)
    if not em.b.block.is_terminated:
        raise CodegenError("function body does not end with func.return", func)


def _emit_truncsfbf2(m: ModuleEmitter) -> None:
    """float -> bfloat rounded to nearest even (NaN stays a quiet NaN): the compiler-runtime
    function LLVM calls for it on x86, which the C libraries of most hosts do not have."""
    from eqsat.codegen.types import BFLOAT, I32

    f32 = ir.FloatType()
    fn = ir.Function(m.module, ir.FunctionType(BFLOAT, [f32]), "__truncsfbf2")
    fn.linkage = "weak"
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    x = fn.args[0]
    bits = b.bitcast(x, I32)
    lsb = b.and_(b.lshr(bits, I32(16)), I32(1))
    rounded = b.lshr(b.add(b.add(bits, I32(0x7FFF)), lsb), I32(16))
    quiet = b.or_(b.lshr(bits, I32(16)), I32(0x40))
    r = b.select(b.fcmp_unordered("uno", x, x), quiet, rounded)
    b.ret(b.bitcast(b.trunc(r, ir.IntType(16)), BFLOAT))


def _emit_global(m: ModuleEmitter, op: Operation) -> None:
    t: MemRefType = op.attributes["type"].type
    if not t.has_static_shape:
        raise CodegenError("memref.global needs a static shape", op)
    et = m.layout.type_of(t.element, op)
    n = int(np.prod(t.shape)) if t.shape else 1
    ty = ir.ArrayType(et, n)
    name = op.attributes["sym_name"].value
    g = ir.GlobalVariable(m.module, ty, name="__global_" + llvm_name(name, defined=False))
    g.linkage = "internal"
    g.align = 64
    g.type = PTR  # opaque pointers (llvmlite would type-check accesses against the array)
    e = elem(t)
    init = global_initializer(m, op, ty, lambda v: scalar_constant(et, v, e))
    g.initializer = init if init is not None else ir.Constant(ty, None)
    m.globals[name] = g


def _emit_packed(m: ModuleEmitter, func: Operation) -> None:
    """args: a pointer per argument (memref: to its descriptor struct; scalar: to the value;
    vector: to its elements, row-major); results likewise, written."""
    name = func.attributes["sym_name"].value
    ft: FunctionType = func.attributes["function_type"].type
    fnty = ir.FunctionType(ir.VoidType(), [PTR, PTR])
    fn = ir.Function(m.module, fnty, packed_name(name))
    em = FuncEmitter(m, func, fn)
    b = em.b
    args: list[ir.Value] = []
    for i, t in enumerate(ft.inputs):
        p = b.load(b.gep(fn.args[0], [I64(i)], source_etype=PTR), typ=PTR)
        if isinstance(t, MemRefType):
            args.extend(unpack_memref(b, b.load(p, typ=memref_struct(t)), t).fields())
        elif isinstance(t, VectorType):
            args.append(_load_vector(em, p, t))
        else:
            et = em.ty(t)
            args.append(from_stored(b, b.load(p, typ=stored_int(et) or et), et))
    r = b.call(m.functions[name], args)
    outs = [r] if len(ft.results) == 1 else [b.extract_value(r, i) for i in range(len(ft.results))]
    for i, t in enumerate(ft.results):
        p = b.load(b.gep(fn.args[1], [I64(i)], source_etype=PTR), typ=PTR)
        if isinstance(t, VectorType):
            _store_vector(em, outs[i], p, t)
        else:
            b.store(to_stored(b, outs[i]), p)
    b.ret_void()


def _pieces(em: FuncEmitter, t: VectorType) -> tuple[ir.Type, ir.Type, list[int]]:
    """(LLVM element type, element type in memory, first element of each piece): pieces
    move as whole vectors (i1 as bytes, other widths as numpy holds them: ``stored_int``),
    so the wrapper stays small."""
    et = em.ty(t.element)
    mt = stored_int(et) or et
    n = max(1, int(np.prod(t.shape)))
    k = em.layout.row_len(t) if em.layout.kind == "nested" else n
    return et, mt, list(range(0, n, k))


def _load_vector(em: FuncEmitter, p: ir.Value, t: VectorType) -> ir.Value:
    et, mt, starts = _pieces(em, t)
    k = max(1, int(np.prod(t.shape))) // len(starts)
    pieces = []
    for s in starts:
        v = em.b.load(em.b.gep(p, [I64(s)], source_etype=mt), typ=ir.VectorType(mt, k), align=1)
        pieces.append(from_stored(em.b, v, ir.VectorType(et, k)))
    return em.from_chunks(pieces, t) if em.layout.kind == "nested" else pieces[0]


def _store_vector(em: FuncEmitter, v: ir.Value, p: ir.Value, t: VectorType) -> None:
    et, mt, starts = _pieces(em, t)
    pieces = em.chunks(v, t) if em.layout.kind == "nested" else [v]
    for s, piece in zip(starts, pieces):
        em.b.store(to_stored(em.b, piece), em.b.gep(p, [I64(s)], source_etype=mt), align=1)


__all__ = ["PACKED", "emit_module", "llvm_name", "packed_name"]
