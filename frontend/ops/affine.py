"""The ``affine`` ops tiling leaves in vectorized code: ``affine.apply``, ``affine.min`` and
``affine.max`` of an affine map over index operands (``affine.min #map(%i)[%s]``).

Division and ``mod`` follow MLIR's lowering to arith (``-lower-affine``), which is what
compiled MLIR computes: see ``frontend.affine.floordiv``/``ceildiv``/``mod``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend.attributes import AffineMapAttr
from frontend.ir import Operation
from frontend.ops.common import fail
from frontend.ops.kinds import INDEX_MAP
from frontend.ops.registry import register
from frontend.ops.spec import INDEX, PURE, VARIADIC, Attr, Operand, OpSpec, Result
from frontend.types import IndexType

_INDEX = IndexType()


def _parse(p: Any, st: Any) -> None:
    """``MAP ( dims ) [ syms ]? attr-dict``: the map is an attribute or an alias."""
    start = p.pos
    a = p.parse_attribute("affine map")
    if not isinstance(a, AffineMapAttr):
        raise p.error(f"expected an affine map, found {a}", start)
    p.expect_punct("(", "to open the dimension operands")
    dims = p.parse_operand_list(optional=True)
    p.expect_punct(")", "to close the dimension operands")
    syms = []
    if p.try_punct("["):
        syms = p.parse_operand_list(optional=True)
        p.expect_punct("]", "to close the symbol operands")
    m = a.map
    if len(dims) != m.num_dims or len(syms) != m.num_symbols:
        raise p.error(f"custom op '{st.spec.name}' dimension or symbol index mismatch", start)
    st.attrs["map"] = a
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    st.operands["mapOperands"] = dims + syms
    st.operand_types["mapOperands"] = [(start, _INDEX)] * (len(dims) + len(syms))
    st.all_result_types = [_INDEX]


def _print(pr: Any, op: Operation) -> str:
    m = op.attributes["map"].map
    vals = [pr.value(v) for v in op.operands]
    dims, syms = vals[: m.num_dims], vals[m.num_dims :]
    text = f"{op.attributes['map']}({', '.join(dims)})"
    if syms:
        text += f"[{', '.join(syms)}]"
    rest = pr.attr_dict(op, {"map"})
    return text + (" " + rest if rest else "")


def _verify(op: Operation) -> None:
    m = op.attributes["map"].map
    if len(op.operands) != m.num_dims + m.num_symbols:
        raise fail(op, "operand count and affine map dimension and symbol count must match")
    if op.name == "affine.apply":
        if len(m.results) != 1:
            raise fail(op, "mapping must produce one value")
    elif not m.results:
        raise fail(op, "affine map expect at least one result")


def _values(op: Operation, operands: list[Any]) -> list[int]:
    m = op.attributes["map"].map
    xs = tuple(int(v) for v in operands)
    return list(m.evaluate(xs[: m.num_dims], xs[m.num_dims :]))


def _wrap(v: int) -> np.int64:
    v &= (1 << 64) - 1
    return np.int64(v - (1 << 64) if v >> 63 else v)


def _spec(name: str, summary: str, pick: Any) -> OpSpec:
    return OpSpec(
        f"affine.{name}",
        summary,
        operands=(Operand("mapOperands", INDEX, VARIADIC),),
        results=(Result("result", INDEX),),
        attrs=(Attr("map", INDEX_MAP),),
        traits=frozenset({PURE}),
        parse=_parse,
        print=_print,
        infer=lambda op: [_INDEX],
        verify=_verify,
        eval=lambda ctx, op, operands: _wrap(pick(_values(op, operands))),
    )


register(
    _spec("apply", "affine apply operation", lambda vs: vs[0]),
    _spec("min", "min operation", min),
    _spec("max", "max operation", max),
)
