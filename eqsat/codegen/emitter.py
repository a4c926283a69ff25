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

from eqsat.codegen.descriptor import MemDesc
from eqsat.codegen.fma import fma_round_to_odd, needs_emulation
from eqsat.codegen.nans import quieted_if_seen
from eqsat.codegen.texts import fault_id
from eqsat.codegen.types import (
    I1,
    I32,
    I64,
    PTR,
    CodegenError,
    Layout,
    bit_width,
    scalar_type,
    splat,
)
from frontend.ir import Block, Module, Operation, Value
from frontend.types import MemRefType, Type, UnrankedMemRefType, VectorType

Lowering = Callable[["FuncEmitter", Operation], Any]
YIELDS = frozenset({"scf.yield", "scf.condition", "vector.yield"})

# LLVM intrinsics whose result ignores a NaN operand (``maxnumf``/``minnumf``'s lowerings).
_NAN_IGNORING = frozenset({"minnum", "maxnum", "vector.reduce.fmin", "vector.reduce.fmax"})


@dataclass
class ModuleEmitter:
    """State shared by the functions of one LLVM module."""

    module: ir.Module
    source: Module
    layout: Layout
    reassoc: bool = False
    checked: bool = False  # bounds-check memory accesses: a fault instead of a wild access
    lowerings: dict[str, Lowering] = field(default_factory=dict)
    # the target's triple and enabled CPU features (LLVM's names, e.g. "avx2"): target
    # intrinsics are emitted only where these say the target has them
    triple: str = ""
    # how llvm.matrix.* / vector.matrix_multiply / flat_transpose operands are flattened
    matrix_layout: str = "row-major"
    # fp-contract mode: float vector.contract<add> fuses each multiply-add (one llvm.fma per
    # reduction point, frontend.semantics_vector.contract)
    fp_contract: bool = False
    features: frozenset[str] = frozenset()
    # the target's register bits and its bound on alignment-versioned bodies (0: none;
    # eqsat.codegen.align_version)
    vector_bits: int = 0
    align_versioning: int = 0
    # functions some func.call of the module calls (never versioned: align_version.plan)
    callees: frozenset[str] = frozenset()
    functions: dict[str, ir.Function] = field(default_factory=dict)
    globals: dict[str, ir.GlobalVariable] = field(default_factory=dict)

    def has(self, *features: str) -> bool:
        """Does the target have every one of these CPU features (x86 ones on x86 triples,
        AArch64 ones on aarch64 triples)?"""
        return all(f in self.features for f in features)

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
    if isinstance(t, ir.PointerType):
        return "p0"
    name = str(t)
    return {"float": "f32", "double": "f64", "half": "f16", "bfloat": "bf16"}.get(name, name)


def abi_params(layout: Layout, t: Type, op: object = None) -> list[ir.Type]:
    """The LLVM parameters MLIR's calling convention gives one argument of type t."""
    if isinstance(t, MemRefType):
        r = len(t.shape)
        return [PTR, PTR, I64] + [I64] * (2 * r)
    if isinstance(t, UnrankedMemRefType):
        return [I64, PTR]  # MLIR's unranked descriptor: rank, pointer to the ranked one
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
        self.m = m
        self.layout = m.layout
        self.func = func
        self.fn = fn
        self.lowerings = m.lowerings
        self.values: dict[Value, Any] = {}
        entry = fn.append_basic_block("entry")
        self.alloca_builder = ir.IRBuilder(entry)
        body = fn.append_basic_block("body")
        self.b = ir.IRBuilder(body)
        self.alloca_builder.branch(body)
        self.alloca_builder.position_at_start(entry)
        self.mask: tuple[ir.Value, VectorType] | None = None
        # Rows already taken out of an aggregate, per (value, basic block): an op that reads
        # one row of a big vector would otherwise extract all of them again (compile time).
        self._rows: dict[tuple[int, int], tuple[ir.Value, list[ir.Value]]] = {}
        self._users: dict[Value, list[Operation]] | None = None
        # per piece, the zero-sign witness of a min/max chain's inner op, until the next op
        # of the chain takes it (eqsat.codegen.min_max_chain)
        self.zero_witnesses: dict[Value, list[ZeroWitness]] = {}

    def users(self, v: Value) -> list[Operation]:
        """The ops of this function that use ``v`` (once per use), in any region."""
        if self._users is None:
            self._users = {}
            for op in self.func.walk():
                for x in op.operands:
                    self._users.setdefault(x, []).append(op)
        return self._users.get(v, [])

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
        try:
            out = lower(self, op)
        except CodegenError as e:
            if e.loc is None and op.loc is not None:  # said by a helper: it is about this op
                raise CodegenError(e.message, op) from None
            raise
        except Exception as e:  # noqa: BLE001 - re-raised with the op's location
            # an input outside what the lowering handles: an error at the op, not a traceback
            raise CodegenError(f"cannot compile '{op.name}' for LLVM: {e}", op) from e
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
        if self.layout.kind == "flat" or t.rank <= 1:
            return [v]
        key = (id(v), id(self.b.block))
        got = self._rows.get(key)
        if got is None or got[0] is not v:  # (the value kept alive, so its id stays its own)
            got = self._rows[key] = (v, self.layout.rows(self.b, v, t))
        return list(got[1])

    def from_chunks(self, pieces: list[ir.Value], t: Type) -> ir.Value:
        if not isinstance(t, VectorType) or self.layout.kind == "flat":
            return pieces[0]
        return self.layout.from_rows(self.b, pieces, t)

    def map_chunks(
        self, op: Operation, fn: Callable[..., ir.Value], operands: list[Value] | None = None
    ) -> ir.Value:
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

    def intrinsic(
        self,
        name: str,
        args: Sequence[ir.Value],
        over: Sequence[ir.Type] | None = None,
        ret: ir.Type | None = None,
        flags: Sequence[str] = (),
    ) -> ir.Value:
        """Call llvm.<name> overloaded on the types `over` (default: the first argument's).
        The operands of a min/max that ignores NaNs are quieted where LLVM could see a
        signalling NaN in them (``eqsat.codegen.nans``)."""
        if name in _NAN_IGNORING:
            args = [quieted_if_seen(self.b, a) for a in args]
        over = [args[0].type] if over is None else list(over)
        full = "llvm." + name + "".join("." + mangle(t) for t in over)
        rt = args[0].type if ret is None else ret
        fn = self.m.declare(full, rt, [a.type for a in args])
        return self.b.call(fn, list(args), fastmath=tuple(flags))

    def min_max_num(self, name: str, a: ir.Value, b: ir.Value) -> ir.Value:
        """``llvm.minnum``/``llvm.maxnum`` (NaN ignored) with the interpreter's zero: LLVM may
        return either of (+0, -0); the maximum is -0 only if both are, the minimum +0 only if
        both are. For equal operands that is their bits and-ed (max) or or-ed (min), which is
        the operand itself unless the two are zeros of opposite signs."""
        r = self.intrinsic(name, [a, b])
        t = a.type
        lane = t.element if isinstance(t, ir.VectorType) else t
        it: ir.Type = ir.IntType(bit_width(lane))
        if isinstance(t, ir.VectorType):
            it = ir.VectorType(it, t.count)
        ab, bb = self.b.bitcast(a, it), self.b.bitcast(b, it)
        both = self.b.and_(ab, bb) if name == "maxnum" else self.b.or_(ab, bb)
        equal = self.b.fcmp_ordered("oeq", a, b)
        r = self.b.select(equal, self.b.bitcast(both, t), r)
        return nan_as_the_fold(self, r, b) if bit_width(lane) == 16 else r

    def fix_zero_sign(self, name: str, r: ir.Value, items: Sequence[ir.Value]) -> ir.Value:
        """``r``, the minimum or maximum (``name``: ``minnum``/``maxnum``) of ``items`` folded
        with bare ``llvm.minnum``/``maxnum``, with the interpreter's zero
        (``ZeroWitness``). A fold that makes its items one by one calls ``ZeroWitness.add``
        beside each step instead, while the item is in a register."""
        return ZeroWitness(self, name, r.type).settle(r, items)

    def fma(self, a: ir.Value, b: ir.Value, c: ir.Value) -> ir.Value:
        """a * b + c rounded once: ``llvm.fma``, or in vector registers where that would be a
        libm call per lane (``eqsat.codegen.fma``)."""
        if needs_emulation(a, self.m.triple, self.m.has("fma")):
            return fma_round_to_odd(self.b, a, b, c)
        return self.intrinsic("fma", [a, b, c])

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

    def fault_if(self, cond: ir.Value, message: str, op: Operation) -> None:
        """At run time: if cond (i1, or any lane of an i1 vector) holds, report a fault at
        op (raised as a RuntimeFault when the call returns)."""
        if isinstance(cond.type, ir.VectorType):
            cond = self.intrinsic("vector.reduce.or", [cond], ret=I1)
        fault = self.m.declare("eqsat_fault", ir.VoidType(), [I32])
        with self.b.if_then(cond, likely=False):
            self.b.call(fault, [I32(fault_id(f"'{op.name}' op runtime fault: {message}", op.loc))])

    def splat(self, x: ir.Value, n: int) -> ir.Value:
        return splat(self.b, x, n)

    def scalar_ty(self, t: Type) -> ir.Type:
        return scalar_type(t)


__all__ = [
    "FuncEmitter",
    "MemDesc",
    "ModuleEmitter",
    "abi_params",
    "abi_return",
    "mangle",
    "I1",
    "I64",
]


class ZeroWitness:
    """Which zero a minimum or maximum folded with bare ``llvm.minnum``/``maxnum`` must return:
    the maximum is +0 if any item is +0 (else -0), the minimum -0 if any item is -0. Every
    other value (NaNs included) is the same whatever the order or the zero LLVM picks, so only
    a zero result is replaced (``settle``). ``add`` folds one item into the witness: for 16- or
    32-bit lanes a min (+0 is the least word unsigned, -0 the least signed: a zero maximum is
    +0 iff the unsigned min is +0's word, a zero minimum -0 iff the signed min is -0's;
    x86-64-v2's 16x64 maximum over rows 159 -> 126 ns, avx2's 77 -> 65, in one A/B), for 64-bit
    lanes a compare and an or. One select at the end, where ``FuncEmitter.min_max_num``'s
    compare, and and select per step made a third of a wide max tree's instructions (softmax's
    row maximum; README, "Real programs"). No branch around it: measured, a branch taken only
    for a zero saved 1.3% on softmax but cost 1.5x on a 16x64 maximum over rows on x86-64-v2
    (its conditions, loop-invariant there, kept 16 branches in a loop LLVM otherwise folds
    away). A chain adds each item right after the step that uses it: a witness built after
    the whole chain kept every item live to its end (x86-64-v2's 16x64 f32 maximum over
    columns, chain after chain: 179 stack references in its O3 loop, 28 after, 0.90-0.96x the
    time; ``experiments/results/ab_rmax_interleave_x86-64-v2.md``). The result ``r`` is a
    scalar whose items are the lanes of every vector added, or a vector whose lane i folds
    lane i of each."""

    def __init__(self, em: FuncEmitter, name: str, t: ir.Type) -> None:
        self.em, self.t = em, t
        self.vector = isinstance(t, ir.VectorType)
        self.w = bit_width(t.element if self.vector else t)
        self.want = 0 if name == "maxnum" else 1 << (self.w - 1)  # the zero that wins
        self.least = "umin" if self.want == 0 else "smin"
        self.acc: ir.Value | None = None  # the running min (w < 64) or any-hit (w == 64)
        self.last: ir.Value | None = None  # the fold's last item (its NaN when all are NaN)

    def add(self, x: ir.Value) -> None:
        self.last = x
        em, it = self.em, ir.IntType(self.w)
        xt = ir.VectorType(it, x.type.count) if isinstance(x.type, ir.VectorType) else it
        xb = em.b.bitcast(x, xt)
        lanes = not self.vector and isinstance(xt, ir.VectorType)  # a vector into a scalar
        if self.w < 64:
            if lanes:
                xb = em.intrinsic(f"vector.reduce.{self.least}", [xb], ret=it)
            self.acc = xb if self.acc is None else em.intrinsic(self.least, [self.acc, xb])
            return
        eq = em.b.icmp_unsigned("==", xb, em.const(xt, self.want))
        if lanes:
            eq = em.intrinsic("vector.reduce.or", [eq], ret=I1)
        self.acc = eq if self.acc is None else em.b.or_(self.acc, eq)

    def merge(self, other: ZeroWitness) -> ZeroWitness:
        """This witness with ``other``'s items added after its own (two sub-chains that
        meet, ``other`` the right one)."""
        self.last = other.last if other.last is not None else self.last
        if self.acc is None or other.acc is None:
            self.acc = self.acc if other.acc is None else other.acc
        elif self.w < 64:
            self.acc = self.em.intrinsic(self.least, [self.acc, other.acc])
        else:
            self.acc = self.em.b.or_(self.acc, other.acc)
        return self

    def settle(self, r: ir.Value, more: Sequence[ir.Value] = (), nans: bool = False) -> ir.Value:
        """``r`` with a zero replaced by the zero the items say: those added so far and
        ``more``; with ``nans`` (always for half-precision lanes, ``nan_as_the_fold``) a NaN
        ``r`` replaced by the last item's (lane)."""
        em, t, w = self.em, self.t, self.w
        zero = em.b.fcmp_ordered("oeq", r, em.like(r, 0.0))
        for x in more:
            self.add(x)
        if self.acc is None:
            raise CodegenError("a zero-sign witness settled without items")
        hit = self.acc
        if w < 64:
            hit = em.b.icmp_unsigned("==", hit, em.const(hit.type, self.want))
        ti = ir.VectorType(ir.IntType(w), t.count) if self.vector else ir.IntType(w)
        won = em.b.bitcast(em.const(ti, self.want), t)
        lost = em.b.bitcast(em.const(ti, self.want ^ (1 << (w - 1))), t)
        r = em.b.select(zero, em.b.select(hit, won, lost), r)
        if not (nans or w == 16) or self.last is None:
            return r
        last = self.last
        if not self.vector and isinstance(last.type, ir.VectorType):  # lanes into a scalar
            last = em.b.extract_element(last, I32(last.type.count - 1))
        return nan_as_the_fold(em, r, last)


def nan_as_the_fold(em: FuncEmitter, r: ir.Value, last: ir.Value) -> ir.Value:
    """``r``, a min/max of items in bare ``llvm.minnum``/``maxnum`` steps, with the ordered
    fold's NaN: a fold of NaNs only is its last item (the interpreter's ``maxnumf(NaN, y)`` is
    ``y``, bit for bit), and a bare step is NaN only when both operands are, so a NaN ``r``
    becomes ``last``. Which NaN LLVM returns is not said; on x86 a float or double step returns
    one operand as it is, but a half one is computed in f32 and rounded back, which quiets a
    signalling NaN: every half min/max fold takes this select (f16 chains of
    ``arith.maxnumf`` on NaNs only disagreed with the interpreter before, 50 calls of 50)."""
    return em.b.select(em.b.fcmp_unordered("uno", r, r), last, r)
