"""``builtin.module`` and ``builtin.unrealized_conversion_cast``."""

from __future__ import annotations

from typing import Any

from frontend.ir import Operation
from frontend.ops import register
from frontend.ops.kinds import STRING
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
    head = f"@{name.value} " if name is not None else ""
    attrs = pr.attr_dict(op, {"sym_name"})
    pr.push_isolated()
    body = pr.region(op.regions[0])
    pr.pop_isolated()
    return head + (f"attributes {attrs} " if attrs else "") + body


register(
    OpSpec(
        "builtin.module",
        "A top level container operation",
        attrs=(Attr("sym_name", STRING, optional=True),),
        regions=("bodyRegion",),
        traits=frozenset({ISOLATED}),
        parse=_parse_module,
        print=_print_module,
    ),
    OpSpec(
        "builtin.unrealized_conversion_cast",
        "An unrealized conversion from one set of types to another",
        operands=(Operand("inputs", ANY, VARIADIC),),
        results=(Result("outputs", ANY, VARIADIC),),
        traits=frozenset({PURE}),
        format="($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict",
    ),
)
