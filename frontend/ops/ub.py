"""The ``ub`` dialect: ``ub.poison``, a value with no defined content.

MLIR 22's vectorizer pads every ``transfer_read`` with it and its unrolling patterns start
insert chains from a poison vector. Its runtime filling is zeros, in the interpreter and in
compiled code alike (``eqsat.codegen.ub``), so both print the same bytes for any program; the
interpreter also tracks which lanes are poison (``eqsat.poison``) and warns where one reaches
a printed or stored value. Rules may treat poison as any value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from frontend.attributes import OpaqueAttr
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops.runtime import SemanticsError, elem, shape
from frontend.ops.spec import PURE, UNDEFINED, Attr, AttrKind, OpSpec, Result
from frontend.semantics import dtype_of
from frontend.types import FloatType, IndexType, IntegerType, VectorType

POISON_ATTR = OpaqueAttr("#ub.poison")
POISON_KIND = AttrKind(
    "poison attribute",
    lambda a: isinstance(a, OpaqueAttr) and a.text == POISON_ATTR.text,
    build=lambda x: POISON_ATTR,
)


def _eval_poison(ctx: Any, op: Operation) -> Any:
    """Zeros of the result type: the one filling the interpreter and compiled code share."""
    t = op.results[0].type
    scalar = t.element if isinstance(t, VectorType) else t
    if not isinstance(scalar, (IntegerType, IndexType, FloatType)):
        raise SemanticsError(f"ub.poison of type {t} has no runtime value here")
    zeros = np.zeros(shape(ctx, t), dtype=dtype_of(elem(t)))
    return zeros if isinstance(t, VectorType) else zeros[()]


register(
    OpSpec(
        "ub.poison",
        "Poisoned constant operation",
        results=(Result("result"),),
        attrs=(Attr("value", POISON_KIND, optional=True, default=POISON_ATTR),),
        traits=frozenset({PURE, UNDEFINED}),
        format="attr-dict (`<` $value^ `>`)? `:` type($result)",
        eval=_eval_poison,
    )
)
