"""The ``scf`` dialect: ``for`` with iter_args, ``if``/``else``, ``while``, and terminators."""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend.attributes import UnitAttr
from frontend.ir import Block, Operation, Region
from frontend.types import IndexType
from frontend.ops.registry import register
from frontend.ops.common import fail
from frontend.ops.kinds import UNIT
from frontend.ops.runtime import SemanticsError, elem, forward
from frontend.ops.spec import (
    ANY,
    I1,
    INT_OR_INDEX,
    PURE,
    TERMINATOR,
    VARIADIC,
    Attr,
    Operand,
    OpSpec,
    Result,
)
from frontend.semantics import as_elem, to_signed, to_unsigned


def _yield(block: Block, values: list[Any], loc: Any) -> None:
    block.append(Operation("scf.yield", values, [], {}, [], loc))


def _ensure_terminator(region: Region, loc: Any) -> None:
    """Bodies without results may leave out their ``scf.yield``, as in MLIR."""
    if not region.blocks:
        region.append(Block())
    block = region.blocks[-1]
    if not block.ops or block.ops[-1].name != "scf.yield":
        _yield(block, [], loc)


def _parse_bindings(p: Any) -> tuple[list[tuple[str, int]], list[Any]]:
    """``%a = %x, %b = %y)`` after an opening paren: the new names (with their positions)
    and the values they start from (iter_args, scf.while's operands)."""
    names: list[tuple[str, int]] = []
    inits: list[Any] = []
    if p.try_punct(")"):
        return names, inits
    while True:
        p.skip_ws()
        pos = p.pos
        name = p.try_regex(_SSA)
        if name is None:
            raise p.error(f"expected SSA name, found {p.found()}")
        names.append((name, pos))
        p.expect_punct("=")
        inits.append(p.parse_operand())
        if p.try_punct(")"):
            return names, inits
        p.expect_punct(",")


# -- scf.for ------------------------------------------------------------------------------------------
def _parse_for(p: Any, st: Any) -> None:
    """``scf.for [unsigned] %iv = %lb to %ub step %s [iter_args(%a = %x, ...) -> (T, ...)]
    [: type] { body }``."""
    if p.try_keyword("unsigned"):
        st.attrs["unsignedCmp"] = UnitAttr()
    p.skip_ws()
    iv_pos = p.pos
    iv = p.try_regex(_SSA)
    if iv is None:
        raise p.error(f"expected induction variable, found {p.found()}")
    p.expect_punct("=")
    bounds = []
    for key, word in (("lowerBound", None), ("upperBound", "to"), ("step", "step")):
        if word:
            p.expect_keyword(word)
        p.skip_ws()
        bounds.append((p.pos, p.text[p.pos : p.pos + 64].split()[0].rstrip(",")))
        st.operands[key] = [p.parse_operand()]
    names: list[tuple[str, int]] = []
    inits: list[Any] = []
    types: list[Any] = []
    if p.try_keyword("iter_args"):
        p.expect_punct("(")
        names, inits = _parse_bindings(p)
        p.expect_punct("->", "and the iter_args result types")
        types = p.parse_result_types()
        if len(types) != len(inits):
            raise p.error("number of iter_args types does not match the number of iter_args")
    st.operands["initArgs"] = inits
    iv_type = st.operands["lowerBound"][0].type
    if p.try_punct(":"):
        iv_type = p.parse_type()
    else:  # without `: type` the bounds are index values (as MLIR resolves them)
        for (pos, name), key in zip(bounds, ("lowerBound", "upperBound", "step")):
            t = st.operands[key][0].type
            if not isinstance(t, IndexType):
                raise p.error(f"use of value '{name}' expects different type than prior uses: "
                              f"'index' vs '{t}'", pos)  # fmt: skip
    entry = [(iv, iv_type, iv_pos)] + [(n, t, pos) for (n, pos), t in zip(names, types)]
    region = p.parse_region(entry_args=entry)
    _ensure_terminator(region, None)
    st.regions.append(region)
    st.all_result_types = types
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)


def _print_for(pr: Any, op: Operation) -> str:
    groups = op.operand_groups()
    block = op.regions[0].blocks[0]
    iv = pr.name_arg(block.args[0])
    text = "unsigned " if "unsignedCmp" in op.attributes else ""
    text += (f"{iv} = {pr.value(groups['lowerBound'][0])} to {pr.value(groups['upperBound'][0])}"
             f" step {pr.value(groups['step'][0])}")
    inits = groups["initArgs"]
    if inits:
        pairs = ", ".join(
            f"{pr.name_arg(a)} = {pr.value(v)}" for a, v in zip(block.args[1:], inits)
        )
        outs = ", ".join(str(v.type) for v in inits)
        text += f" iter_args({pairs}) -> ({outs})"
    if block.args[0].type != _index():
        text += f" : {block.args[0].type}"
    text += " " + pr.region(op.regions[0], entry_args=False, skip_terminator=True)
    attrs = pr.attr_dict(op, {"unsignedCmp"})
    return text + (f" {attrs}" if attrs else "")


def _index() -> Any:
    from frontend.types import IndexType

    return IndexType()


def _verify_for(op: Operation) -> None:
    groups = op.operand_groups()
    lb, ub, step = (groups[k][0].type for k in ("lowerBound", "upperBound", "step"))
    if not lb == ub == step:
        raise fail(op, "lower bound, upper bound and step must have the same type")
    block = op.regions[0].blocks[0]
    if block.args[0].type != lb:
        raise fail(op, "expected induction variable to be same type as bounds and step")
    inits = groups["initArgs"]
    if [a.type for a in block.args[1:]] != [v.type for v in inits]:
        raise fail(op, "types mismatch between iter operands and loop-carried values")
    if [r.type for r in op.results] != [v.type for v in inits]:
        raise fail(op, "mismatch in number or types of loop-carried values and results")
    _check_yield(op, op.regions[0], op.result_types)


def _check_yield(op: Operation, region: Region, types: list[Any]) -> None:
    term = region.blocks[-1].ops[-1] if region.blocks and region.blocks[-1].ops else None
    if term is None or term.name != "scf.yield":
        raise fail(op, "expects its region to end with 'scf.yield'")
    got = [v.type for v in term.operands]
    if got != list(types):
        raise fail(op, f"region yields ({', '.join(map(str, got))}) but the op produces "
                       f"({', '.join(map(str, types))})")


# -- scf.if -------------------------------------------------------------------------------------------
def _parse_if(p: Any, st: Any) -> None:
    st.operands["condition"] = [p.parse_operand()]
    types = p.parse_result_types() if p.try_punct("->") else []
    then = p.parse_region()
    _ensure_terminator(then, None)
    other = Region()
    if p.try_keyword("else"):
        other = p.parse_region()
        _ensure_terminator(other, None)
    st.regions.extend([then, other])
    st.all_result_types = types
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)


def _print_if(pr: Any, op: Operation) -> str:
    text = pr.value(op.operands[0])
    if op.results:
        text += " -> (" + ", ".join(str(t) for t in op.result_types) + ")"
    text += " " + pr.region(op.regions[0], skip_terminator=True)
    if op.regions[1].blocks:
        text += " else " + pr.region(op.regions[1], skip_terminator=True)
    attrs = pr.attr_dict(op)
    return text + (f" {attrs}" if attrs else "")


def _verify_if(op: Operation) -> None:
    _check_yield(op, op.regions[0], op.result_types)
    if op.regions[1].blocks:
        _check_yield(op, op.regions[1], op.result_types)
    elif op.results:
        raise fail(op, "must have an else block if defining values")


# -- scf.while ---------------------------------------------------------------------------------------
def _parse_while(p: Any, st: Any) -> None:
    """``scf.while (%a = %x, ...) : (T, ...) -> (U, ...) { before } do { after }``."""
    p.expect_punct("(")
    names, inits = _parse_bindings(p)
    p.expect_punct(":", "and the while signature")
    p.skip_ws()
    sig_pos = p.pos
    sig = p.parse_function_type()
    if len(sig.inputs) != len(inits):
        raise p.error("expected as many input types as operands", sig_pos)
    st.operands["inits"] = inits
    before = p.parse_region(entry_args=[(n, t, pos) for (n, pos), t in zip(names, sig.inputs)])
    p.expect_keyword("do")
    after = p.parse_region()
    st.regions.extend([before, after])
    st.all_result_types = list(sig.results)
    if p.try_keyword("attributes"):
        st.attrs.update(p.parse_attr_dict().entries)


def _print_while(pr: Any, op: Operation) -> str:
    before, after = op.regions
    args = before.blocks[0].args
    pairs = ", ".join(f"{pr.name_arg(a)} = {pr.value(v)}" for a, v in zip(args, op.operands))
    ins = ", ".join(str(v.type) for v in op.operands)
    outs = ", ".join(str(t) for t in op.result_types)
    outs = outs if len(op.results) == 1 else f"({outs})"
    text = f"({pairs}) : ({ins}) -> {outs} " + pr.region(before, entry_args=False)
    text += " do " + pr.region(after)
    attrs = pr.attr_dict(op)
    return text + (f" attributes {attrs}" if attrs else "")


def _verify_while(op: Operation) -> None:
    before, after = op.regions
    term = before.blocks[-1].ops[-1] if before.blocks and before.blocks[-1].ops else None
    if term is None or term.name != "scf.condition":
        raise fail(op, "expects the 'before' region to end with 'scf.condition'")
    passed = [v.type for v in term.operands[1:]]
    if passed != op.result_types:
        raise fail(op, "scf.condition must forward values of the result types")
    if not after.blocks or [a.type for a in after.blocks[0].args] != passed:
        raise fail(op, "the 'after' region arguments must match the forwarded values")
    _check_yield(op, after, [v.type for v in op.operands])


# -- semantics --------------------------------------------------------------------------------------
def _eval_for(ctx: Any, op: Operation, lb: Any, ub: Any, step: Any, inits: list[Any]) -> list:
    """iv = lb, lb + step, ... while iv < ub (unsigned with ``unsignedCmp``); a step <= 0 would
    never end (MLIR: undefined), so it is a fault."""
    e = elem(op.operands[0].type)
    read = to_unsigned if "unsignedCmp" in op.attributes else to_signed
    lo, hi, st = (int(read(x, e)) for x in (lb, ub, step))
    if st <= 0:
        raise SemanticsError(f"scf.for step must be positive, got {st}")
    body = op.regions[0]
    vals = list(inits)
    for i in range(lo, hi, st):
        w = i - (1 << 64) if i >= 1 << 63 else i  # unsigned bounds may exceed int64
        iv = np.int64(w) if e == "index" else as_elem(np.int64(w), e)
        vals = ctx.run_region(body, [iv, *vals])
    return vals


def _eval_if(ctx: Any, op: Operation, condition: Any) -> list[Any]:
    region = op.regions[0] if condition else op.regions[1]
    return ctx.run_region(region, []) if region.blocks else []


def _eval_while(ctx: Any, op: Operation, inits: list[Any]) -> list[Any]:
    before, after = op.regions
    vals = list(inits)
    while True:
        cond, *args = ctx.run_region(before, vals)
        if not cond:
            return args
        vals = ctx.run_region(after, args)


import re  # noqa: E402

_SSA = re.compile(r"%[\w$.\-]+")

register(
    OpSpec(
        "scf.for",
        "For operation",
        operands=(
            Operand("lowerBound", INT_OR_INDEX),
            Operand("upperBound", INT_OR_INDEX),
            Operand("step", INT_OR_INDEX),
            Operand("initArgs", ANY, VARIADIC),
        ),
        results=(Result("results", ANY, VARIADIC),),
        attrs=(Attr("unsignedCmp", UNIT, optional=True),),
        regions=("region",),
        parse=_parse_for,
        print=_print_for,
        verify=_verify_for,
        eval=_eval_for,
    ),
    OpSpec(
        "scf.if",
        "If-then-else operation",
        operands=(Operand("condition", I1),),
        results=(Result("results", ANY, VARIADIC),),
        regions=("thenRegion", "elseRegion"),
        parse=_parse_if,
        print=_print_if,
        verify=_verify_if,
        eval=_eval_if,
    ),
    OpSpec(
        "scf.while",
        "A generic 'while' loop",
        operands=(Operand("inits", ANY, VARIADIC),),
        results=(Result("results", ANY, VARIADIC),),
        regions=("before", "after"),
        parse=_parse_while,
        print=_print_while,
        verify=_verify_while,
        eval=_eval_while,
    ),
    OpSpec(
        "scf.yield",
        "Loop yield and termination operation",
        operands=(Operand("results", ANY, VARIADIC),),
        traits=frozenset({PURE, TERMINATOR}),
        format="attr-dict ($results^ `:` type($results))?",
        eval=forward,
    ),
    OpSpec(
        "scf.condition",
        "Loop continuation condition",
        operands=(Operand("condition", I1), Operand("args", ANY, VARIADIC)),
        traits=frozenset({PURE, TERMINATOR}),
        format="`(` $condition `)` attr-dict ($args^ `:` type($args))?",
        eval=forward,
    ),
)

