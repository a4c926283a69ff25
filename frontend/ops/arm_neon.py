"""The HWV ops of MLIR's ``arm_neon`` dialect we model: the i8 dot products (``sdot``, in its
flat and 2-D forms) and the widening multiply ``smull``. Syntax is MLIR 22's (checked with
``mlir-opt-22``); semantics in ``frontend.semantics_hwv``, checked by hand (no AArch64 here).
"""

from __future__ import annotations

from typing import Any

from frontend import semantics_hwv as H
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops.common import fail
from frontend.ops.runtime import EvalContext, elem
from frontend.ops.spec import PURE, VECTOR, Operand, OpSpec, Result
from frontend.types import IntegerType, VectorType

P = frozenset({PURE})
I8, I32 = IntegerType(8), IntegerType(32)


def _verify_sdot(two_d: bool):
    def verify(op: Operation) -> None:
        a, b, c = (op.operand(n).type for n in ("a", "b", "c"))
        res = op.results[0].type
        if a not in (VectorType((2,), I32), VectorType((4,), I32)) or res != a:
            raise fail(op, "expects accumulator and result of type vector<2xi32> or vector<4xi32>")
        n = a.shape[0]
        want = VectorType((n, 4), I8) if two_d else VectorType((4 * n,), I8)
        if b != want or c != want:
            raise fail(op, f"expects operands b and c of type {want}")

    return verify


def _sdot(ctx: EvalContext, op: Operation, a: Any, b: Any, c: Any) -> Any:
    return H.dot_accumulate(a, b, c, "i32", "i8")


_SMULL = {  # source lanes x element -> result element
    (8, "i8"): "i16",
    (4, "i16"): "i32",
    (2, "i32"): "i64",
}


def _verify_smull(op: Operation) -> None:
    a, b, res = op.operand("a").type, op.operand("b").type, op.results[0].type
    key = (a.shape[0], str(a.element)) if isinstance(a, VectorType) and a.rank == 1 else None
    wide = _SMULL.get(key)  # type: ignore[arg-type]
    if wide is None or b != a or res != VectorType(a.shape, IntegerType(int(wide[1:]))):
        raise fail(op, "expects vector<8xi8>, vector<4xi16> or vector<2xi32> operands and a "
                       "result of the same lanes at twice the width")


def _smull(ctx: EvalContext, op: Operation, a: Any, b: Any) -> Any:
    return H.widening_mul(a, b, elem(op.operand("a").type), elem(op.results[0].type))


def _sdot_spec(name: str, two_d: bool) -> OpSpec:
    return OpSpec(
        name,
        "Signed i8 dot products of 4 lanes, accumulated into i32 lanes",
        operands=(Operand("a", VECTOR), Operand("b", VECTOR), Operand("c", VECTOR)),
        results=(Result("res", VECTOR),),
        traits=P,
        format="$a `,` $b `,` $c attr-dict `:` type($b) `,` type($c) `to` type($res)",
        infer=lambda op: [op.operand("a").type],
        verify=_verify_sdot(two_d),
        eval=_sdot,
    )


register(
    _sdot_spec("arm_neon.intr.sdot", False),
    _sdot_spec("arm_neon.2d.sdot", True),
    OpSpec(
        "arm_neon.intr.smull",
        "Signed widening multiply",
        operands=(Operand("a", VECTOR), Operand("b", VECTOR)),
        results=(Result("res", VECTOR),),
        traits=P,
        format="$a `,` $b attr-dict `:` type($a) `to` type($res)",
        verify=_verify_smull,
        eval=_smull,
    ),
)
