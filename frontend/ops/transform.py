"""``transform.named_sequence``: MLIR's script of rewrites, kept verbatim.

A module may carry the transform script MLIR's own tests use to pick a lowering
(``transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct``). We
do not run transform scripts: the op is kept verbatim (printed back as it was written), and
``module_strategy_choices`` reads its vector lowering choices as data, which ``eqsat opt``
turns into forced strategies.
"""

from __future__ import annotations

import re
from typing import Any

from frontend.attributes import StringAttr, format_symbol
from frontend.ir import Module, Operation
from frontend.ops.registry import register
from frontend.ops.common import fail
from frontend.ops.kinds import STRING, SYMBOL_NAME
from frontend.ops.runtime import no_op
from frontend.ops.spec import SYMBOL, VERBATIM, Attr, OpSpec

#: The transform ops that pick a vector lowering: the op they lower, the MLIR 22 strategy
#: names they accept (their ``lowering_strategy`` enum) and the default when it is elided.
LOWERINGS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "lower_contraction": (
        "vector.contract",
        ("dot", "llvmintr", "outerproduct", "parallelarith"),
        "outerproduct",
    ),
    "lower_transpose": (
        "vector.transpose",
        ("eltwise", "llvmintr", "shuffle_1d", "shuffle_16x16"),
        "eltwise",
    ),
    "lower_multi_reduction": (
        "vector.multi_reduction",
        ("innerparallel", "innerreduction"),
        "innerparallel",
    ),
}
_CHOICE = re.compile(
    r"transform\.apply_patterns\.vector\.(" + "|".join(LOWERINGS) + r")\b"
    r"(?:\s+lowering_strategy\s*=\s*\"?([\w]+)\"?)?"
)


def _parse_named_sequence(p: Any, st: Any) -> None:
    """``transform.named_sequence @name(args) [-> results] [attributes {..}] { body }``: the
    text after the name is kept as it is (balanced parentheses and braces)."""
    st.attrs["sym_name"] = StringAttr(p._symbol_name())
    p.skip_ws()
    start = p.pos
    if not p.peek("("):
        raise p.error(f"expected '(' to open the argument list, found {p.found()}")
    p.balanced("(", ")")
    if p.try_punct("->"):
        if p.peek("("):
            p.balanced("(", ")")
        else:
            p.parse_type()
    if p.try_keyword("attributes"):
        p.balanced("{", "}")
    if not p.peek("{"):
        raise p.error(f"expected '{{' to open the sequence body, found {p.found()}")
    p.balanced("{", "}")
    st.attrs["body"] = StringAttr(p.text[start : p.pos])
    st.all_result_types = []


def _print_named_sequence(pr: Any, op: Operation) -> str:
    return f"@{format_symbol(op.attributes['sym_name'].value)}{op.attributes['body'].value}"


def _choices_of(op: Operation) -> list[tuple[str, str]]:
    """(lowered op, strategy) per lowering pattern named in the sequence, in textual order."""
    out = []
    for m in _CHOICE.finditer(op.attributes["body"].value):
        target, names, default = LOWERINGS[m.group(1)]
        strategy = m.group(2) or default
        if strategy not in names:
            raise fail(
                op,
                f"'transform.apply_patterns.vector.{m.group(1)}' lowering_strategy must be one "
                f"of [{', '.join(names)}], got '{strategy}'",
            )
        out.append((target, strategy))
    return out


def _verify_named_sequence(op: Operation) -> None:
    _choices_of(op)


def module_strategy_choices(module: Module) -> dict[str, str]:
    """The lowering strategy a module's transform script forces per vector op, e.g.
    ``{"vector.contract": "outerproduct", "vector.transpose": "shuffle_1d"}`` (MLIR 22's
    strategy names). The first choice for an op wins: MLIR applies the patterns of a
    sequence's first ``apply_patterns`` block before the later ones."""
    choices: dict[str, str] = {}
    for op in module.walk():
        if op.name == "transform.named_sequence":
            for target, strategy in _choices_of(op):
                choices.setdefault(target, strategy)
    return choices


register(
    OpSpec(
        "transform.named_sequence",
        "A transform script (kept verbatim; its vector lowering choices are read as data)",
        attrs=(Attr("sym_name", SYMBOL_NAME), Attr("body", STRING)),
        traits=frozenset({SYMBOL, VERBATIM}),
        parse=_parse_named_sequence,
        print=_print_named_sequence,
        verify=_verify_named_sequence,
        eval=no_op,
    ),
)
