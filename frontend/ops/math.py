"""The ``math`` dialect: element-wise transcendental and bit-counting functions."""

from __future__ import annotations

from frontend import semantics as S
from frontend.ops.registry import register
from frontend.ops.arith import FLOAT_LIKE, FM, INT_LIKE, elementwise, same_operand_and_result_types
from frontend.ops.spec import ELEMENTWISE, PURE, Operand, OpSpec, Result

EW = frozenset({PURE, ELEMENTWISE})

FLOAT_UNARY = (
    "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "tanh", "sin",
    "cos", "tan", "atan", "asin", "acos", "sinh", "cosh", "asinh", "acosh", "atanh", "erf",
    "erfc", "absf", "ceil", "floor", "round", "roundeven", "trunc", "cbrt",
)
FLOAT_BINARY = ("powf", "atan2", "copysign")
INT_UNARY = ("absi", "ctlz", "cttz", "ctpop")


def _unary(name: str, constraint, fastmath: bool) -> OpSpec:
    flag = " (`fastmath` `` $fastmath^)?" if fastmath else ""
    return OpSpec(
        f"math.{name}",
        operands=(Operand("operand", constraint),),
        results=(Result("result", constraint),),
        attrs=(FM,) if fastmath else (),
        traits=EW,
        format=f"$operand{flag} attr-dict `:` type($result)",
        verify=same_operand_and_result_types,
        eval=elementwise(getattr(S, name)),
    )


def _binary(name: str, constraint, fastmath: bool) -> OpSpec:
    flag = " (`fastmath` `` $fastmath^)?" if fastmath else ""
    return OpSpec(
        f"math.{name}",
        operands=(Operand("lhs", constraint), Operand("rhs", constraint)),
        results=(Result("result", constraint),),
        attrs=(FM,) if fastmath else (),
        traits=EW,
        format=f"$lhs `,` $rhs{flag} attr-dict `:` type($result)",
        verify=same_operand_and_result_types,
        eval=elementwise(getattr(S, name)),
    )


register(*(_unary(n, FLOAT_LIKE, True) for n in FLOAT_UNARY))
register(*(_binary(n, FLOAT_LIKE, True) for n in FLOAT_BINARY))
register(*(_unary(n, INT_LIKE, False) for n in INT_UNARY))
register(
    _binary("ipowi", INT_LIKE, False),
    OpSpec(
        "math.fma",
        operands=(Operand("a", FLOAT_LIKE), Operand("b", FLOAT_LIKE), Operand("c", FLOAT_LIKE)),
        results=(Result("result", FLOAT_LIKE),),
        attrs=(FM,),
        traits=EW,
        format="$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
        verify=same_operand_and_result_types,
        eval=elementwise(S.fma),
    ),
)
