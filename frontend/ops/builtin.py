"""``builtin.module`` and ``builtin.unrealized_conversion_cast``."""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend.attributes import format_symbol
from frontend.ir import Operation
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
    st.regions.append(p.parse_region(isolated=True))
    st.all_result_types = []


def _print_module(pr: Any, op: Operation) -> str:
    name = op.attributes.get("sym_name")
    head = f"@{format_symbol(name.value)} " if name is not None else ""
    attrs = pr.attr_dict(op, {"sym_name"})
    pr.push_isolated()
    body = pr.region(op.regions[0])
    pr.pop_isolated()
    return head + (f"attributes {attrs} " if attrs else "") + body


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
