"""Lowerings of ``scf`` (loops and branches with phis) and ``func`` (calls, returns).

Loop-carried values are phis in the loop header, so vectors stay in SSA registers; memref
values carried by a loop are carried field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir

from eqsat.codegen.descriptor import MemDesc, UnrankedDesc, pack_memref, unpack_memref
from eqsat.codegen.emitter import FuncEmitter
from eqsat.codegen.runtime_memref import runtime_call
from eqsat.codegen.types import CodegenError
from frontend.ir import Operation
from frontend.types import MemRefType, Type


def _phis(em: FuncEmitter, types: list[Type], incoming: list[Any], pred: ir.Block) -> list[Any]:
    """One phi per value (memrefs: one per descriptor field), seeded from pred."""
    out: list[Any] = []
    for t, x in zip(types, incoming):
        if isinstance(x, MemDesc):
            fields = []
            for f in x.fields():
                p = em.b.phi(f.type)
                p.add_incoming(f, pred)
                fields.append(p)
            r = len(x.sizes)
            out.append(
                MemDesc(x.type, fields[0], fields[1], fields[2], fields[3 : 3 + r], fields[3 + r :])
            )
        else:
            p = em.b.phi(x.type)
            p.add_incoming(x, pred)
            out.append(p)
    return out


def _add_incoming(phis: list[Any], values: list[Any], pred: ir.Block) -> None:
    for p, x in zip(phis, values):
        if isinstance(p, MemDesc):
            for pf, xf in zip(p.fields(), x.fields()):
                pf.add_incoming(xf, pred)
        else:
            p.add_incoming(x, pred)


def scf_for(em: FuncEmitter, op: Operation) -> Any:
    """iv = lb, lb + step, ... while iv < ub, compared unsigned with ``unsignedCmp``; the loop
    also ends when iv + step overflows (as the interpreter's, whose iv is unbounded)."""
    lb, ub, step, *inits = (em.get(v) for v in op.operands)
    unsigned = "unsignedCmp" in op.attributes
    zero = ir.Constant(step.type, 0)
    bad = em.b.icmp_unsigned("==", step, zero) if unsigned else em.b.icmp_signed("<=", step, zero)
    em.fault_if(bad, "scf.for step must be positive", op)
    ub = em.b.select(bad, lb, ub)  # after a fault the loop does not run
    body_block = op.regions[0].blocks[0]
    pre = em.b.block
    header = em.b.append_basic_block("for.header")
    body = em.b.append_basic_block("for.body")
    exit_ = em.b.append_basic_block("for.exit")
    em.b.branch(header)
    em.b.position_at_end(header)
    iv = em.b.phi(lb.type)
    iv.add_incoming(lb, pre)
    types = [v.type for v in op.operands[3:]]
    carried = _phis(em, types, inits, pre)
    less = em.b.icmp_unsigned if unsigned else em.b.icmp_signed
    em.b.cbranch(less("<", iv, ub), body, exit_)
    em.b.position_at_end(body)
    yielded = em.run_block(body_block, [iv, *carried])
    add = em.b.uadd_with_overflow if unsigned else em.b.sadd_with_overflow
    sum_ = add(iv, step)
    nxt, over = em.b.extract_value(sum_, 0), em.b.extract_value(sum_, 1)
    latch = em.b.block
    iv.add_incoming(nxt, latch)
    _add_incoming(carried, yielded, latch)
    em.b.cbranch(over, exit_, header)
    em.b.position_at_end(exit_)
    if not carried:
        return carried
    out = _phis(em, types, carried, header)
    _add_incoming(out, yielded, latch)
    return out


def scf_if(em: FuncEmitter, op: Operation) -> Any:
    cond = em.get(op.operands[0])
    then_b = em.b.append_basic_block("if.then")
    else_b = em.b.append_basic_block("if.else")
    merge = em.b.append_basic_block("if.end")
    em.b.cbranch(cond, then_b, else_b)
    arms: list[tuple[list[Any], ir.Block]] = []
    for region, block in zip(op.regions, (then_b, else_b)):
        em.b.position_at_end(block)
        vals = em.run_block(region.blocks[0], []) if region.blocks else []
        arms.append((vals, em.b.block))
        em.b.branch(merge)
    if len(op.regions) < 2:
        em.b.position_at_end(else_b)
        em.b.branch(merge)
    em.b.position_at_end(merge)
    if not op.results:
        return None
    (v0, b0), (v1, b1) = arms
    phis = _phis(em, [r.type for r in op.results], v0, b0)
    _add_incoming(phis, v1, b1)
    return phis


def scf_while(em: FuncEmitter, op: Operation) -> Any:
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    inits = [em.get(v) for v in op.operands]
    pre = em.b.block
    head = em.b.append_basic_block("while.before")
    body = em.b.append_basic_block("while.after")
    exit_ = em.b.append_basic_block("while.exit")
    em.b.branch(head)
    em.b.position_at_end(head)
    args = _phis(em, [a.type for a in before.args], inits, pre)
    cond, *passed = em.run_block(before, args)
    em.b.cbranch(cond, body, exit_)
    em.b.position_at_end(body)
    yielded = em.run_block(after, passed)
    _add_incoming(args, yielded, em.b.block)
    em.b.branch(head)
    em.b.position_at_end(exit_)
    return passed


# -- func -------------------------------------------------------------------------------------------
def func_return(em: FuncEmitter, op: Operation) -> Any:
    vals = [em.get(v) for v in op.operands]
    vals = [pack_memref(em.b, x) if isinstance(x, MemDesc) else x for x in vals]
    if not vals:
        em.b.ret_void()
    elif len(vals) == 1:
        em.b.ret(vals[0])
    else:
        agg: ir.Value = ir.Constant(em.fn.function_type.return_type, ir.Undefined)
        for i, v in enumerate(vals):
            agg = em.b.insert_value(agg, v, i)
        em.b.ret(agg)
    # code after a return (none in verified input) would land in a fresh, dead block
    em.b.position_at_end(em.b.append_basic_block("after.return"))
    em.b.unreachable()
    return None


def func_call(em: FuncEmitter, op: Operation) -> Any:
    name = op.attributes["callee"].root
    fn = em.m.functions.get(name)
    if fn is None:
        raise CodegenError(f"call to unknown function @{name}", op)
    target = em.m.source.lookup_symbol(name)
    if (
        target is None
        or not target.regions
        or not target.regions[0].blocks
        or not target.regions[0].blocks[0].ops
    ):
        if runtime_call(em, op, name):
            return None
        em.fault_if(ir.Constant(ir.IntType(1), 1), f"call to function without a body @{name}", op)
        undef = [_undef(em, rv.type) for rv in op.results]
        return undef if len(undef) != 1 else undef[0]
    args: list[ir.Value] = []
    for v in op.operands:
        x = em.get(v)
        if isinstance(x, UnrankedDesc):
            raise CodegenError("unranked memrefs are passed to runner functions only", op)
        args.extend(x.fields() if isinstance(x, MemDesc) else [x])
    if em.m.checked:
        return _bounded_call(em, op, fn, args)
    return _call(em, op, fn, args)


def _call(em: FuncEmitter, op: Operation, fn: ir.Function, args: list[ir.Value]) -> Any:
    r = em.b.call(fn, args)
    res = [rv.type for rv in op.results]
    if not res:
        return None
    outs = [r] if len(res) == 1 else [em.b.extract_value(r, i) for i in range(len(res))]
    return [
        unpack_memref(em.b, o, t) if isinstance(t, MemRefType) else o for o, t in zip(outs, res)
    ]


def _bounded_call(em: FuncEmitter, op: Operation, fn: ir.Function, args: list[ir.Value]) -> Any:
    """Checked mode: calls nested deeper than the interpreter's MAX_CALL_DEPTH are a fault
    (and not made) instead of a stack overflow or an endless loop."""
    from eqsat.interpreter import MAX_CALL_DEPTH

    i64 = ir.IntType(64)
    depth = em.m.module.globals.get(CALL_DEPTH)
    if depth is None:
        depth = ir.GlobalVariable(em.m.module, i64, name=CALL_DEPTH)
        depth.linkage = "internal"
        depth.initializer = ir.Constant(i64, 0)
    d = em.b.load(depth)
    over = em.b.icmp_signed(">=", d, ir.Constant(i64, MAX_CALL_DEPTH))
    em.fault_if(over, f"calls nested deeper than {MAX_CALL_DEPTH} (runaway recursion?)", op)
    call_b = em.b.append_basic_block("call")
    skip_b = em.b.append_basic_block("call.skipped")
    merge = em.b.append_basic_block("call.done")
    em.b.cbranch(over, skip_b, call_b)
    em.b.position_at_end(call_b)
    em.b.store(em.b.add(d, ir.Constant(i64, 1)), depth)
    out = _call(em, op, fn, args)
    em.b.store(d, depth)
    done = em.b.block
    em.b.branch(merge)
    em.b.position_at_end(skip_b)
    undef = [_undef(em, rv.type) for rv in op.results]
    em.b.branch(merge)
    em.b.position_at_end(merge)
    if out is None:
        return None
    phis = _phis(em, [rv.type for rv in op.results], out, done)
    _add_incoming(phis, undef, skip_b)
    return phis


CALL_DEPTH = "_eqsat_call_depth"


def _undef(em: FuncEmitter, t: Type) -> Any:
    """A placeholder result after a fault (the caller raises before anyone reads it)."""
    if isinstance(t, MemRefType):
        r = len(t.shape)
        z = ir.Constant(ir.IntType(64), 0)
        null = ir.Constant(ir.PointerType(), None)
        return MemDesc(t, null, null, z, [z] * r, [z] * r)
    return ir.Constant(em.ty(t), ir.Undefined)


LOWERINGS: dict[str, Callable[[FuncEmitter, Operation], Any]] = {
    "scf.for": scf_for,
    "scf.if": scf_if,
    "scf.while": scf_while,
    "func.return": func_return,
    "func.call": func_call,
}
