"""``builtin.module`` and ``builtin.unrealized_conversion_cast``."""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend.attributes import format_symbol
from frontend.ir import Block, Operation
from frontend.ops.common import fail, verify_symbol_parent
from frontend.ops.registry import register
from frontend.ops.kinds import STRING
from frontend.ops.runtime import SemanticsError, no_op, shape
from frontend.ops.spec import ANY, ISOLATED, PURE, VARIADIC, Attr, Operand, OpSpec, Result


def _parse_module(p: Any, st: Any) -> None:
    """``module [@name] [attributes {...}] { ... }``."""
    if p.peek("@"):
        from frontend.attributes import StringAttr

        st.attrs["sym_name"] = StringAttr(p._symbol_name())
    if p.try_keyword("attributes"):
        st.attrs.update(p.parse_attr_dict().entries)
    body = p.parse_region(isolated=True)
    if not body.blocks:  # `module {}` has its one empty block (only a generic form can lack it)
        body.append(Block())
    st.regions.append(body)
    st.all_result_types = []


def _print_module(pr: Any, op: Operation) -> str:
    name = op.attributes.get("sym_name")
    head = f"@{format_symbol(name.value)} " if name is not None else ""
    attrs = pr.attr_dict(op, {"sym_name"})
    pr.push_isolated()
    body = pr.region(op.regions[0])
    pr.pop_isolated()
    return head + (f"attributes {attrs} " if attrs else "") + body


def _verify_module(op: Operation) -> None:
    """As mlir-opt-22: one block (the custom form always makes it; a generic form may
    not), without arguments; a named module is a symbol and needs a symbol table."""
    blocks = op.regions[0].blocks
    if len(blocks) > 1:
        raise fail(op, "expects region #0 to have 0 or 1 blocks")
    if not blocks:
        raise fail(op, "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks")
    if blocks[0].args:
        raise fail(op, "region should have no arguments")
    if "sym_name" in op.attributes:
        verify_symbol_parent(op)


def _eval_cast(ctx: Any, op: Operation, inputs: list[Any]) -> list[Any]:
    """One value in, one out: the same value (vectors reshaped to the result's shape)."""
    if len(inputs) != len(op.results):
        raise SemanticsError(f"cannot run a {len(inputs)} -> {len(op.results)} conversion cast")
    out = []
    for x, r in zip(inputs, op.results):
        want = shape(ctx, r.type)
        if isinstance(x, np.ndarray) and x.shape != want and x.size == int(np.prod(want)):
            x = x.reshape(want)
        out.append(x)
    return out


register(
    OpSpec(
        "builtin.module",
        "A top level container operation",
        attrs=(Attr("sym_name", STRING, optional=True),),
        regions=("bodyRegion",),
        traits=frozenset({ISOLATED}),
        parse=_parse_module,
        print=_print_module,
        verify=_verify_module,
        eval=no_op,
    ),
    OpSpec(
        "builtin.unrealized_conversion_cast",
        "An unrealized conversion from one set of types to another",
        operands=(Operand("inputs", ANY, VARIADIC),),
        results=(Result("outputs", ANY, VARIADIC),),
        traits=frozenset({PURE}),
        format="($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict",
        eval=_eval_cast,
    ),
)
