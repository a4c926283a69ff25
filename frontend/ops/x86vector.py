"""The HWV ops of MLIR's ``x86vector`` dialect we model: the AVX 8 x f32 dot product and the
AVX-512 compress. Syntax is MLIR 22's (checked with ``mlir-opt-22``); semantics in
``frontend.semantics_hwv``, pinned by ``tests/programs/hwv_x86*.mlir`` run on x86 hardware.
"""

from __future__ import annotations

from typing import Any

from frontend import semantics_hwv as H
from frontend.attributes import DenseElementsAttr
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops.common import fail
from frontend.ops.kinds import ANY_ATTR
from frontend.ops.runtime import EvalContext, attr_value, elem
from frontend.ops.spec import MASK, OPTIONAL, PURE, VECTOR, Attr, Operand, OpSpec, Result
from frontend.types import FloatType, IntegerType, VectorType

P = frozenset({PURE})
V8F32 = VectorType((8,), FloatType("f32"))


def _verify_dot(op: Operation) -> None:
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    if any(t != V8F32 for t in types):
        raise fail(op, f"operands and result must be {V8F32}")


# AVX-512 compress works on 512-bit vectors of 32- or 64-bit elements.
_COMPRESS_ELEMS = {16: ("f32", "i32"), 8: ("f64", "i64")}


def _verify_compress(op: Operation) -> None:
    a, k, res = op.operand("a").type, op.operand("k").type, op.results[0].type
    if not (isinstance(a, VectorType) and a.rank == 1 and not a.is_scalable):
        raise fail(op, f"operand 'a' must be a 1-D vector, but got {a}")
    names = _COMPRESS_ELEMS.get(a.shape[0], ())
    if str(a.element) not in names:
        raise fail(op, "expects a 512-bit vector of 16 x 32-bit or 8 x 64-bit elements")
    if res != a or k != VectorType(a.shape, IntegerType(1)):
        raise fail(op, f"expects result {a} and mask {VectorType(a.shape, IntegerType(1))}")
    src = op.operand("src")
    if src is not None and src.type != a:
        raise fail(op, f"operand 'src' must be {a}")
    const = op.attributes.get("constant_src")
    if const is not None:
        if src is not None:
            raise fail(op, "cannot have both src and constant_src")
        if not isinstance(const, DenseElementsAttr) or const.type != a:
            raise fail(op, f"constant_src must be a dense attribute of type {a}")


def _eval_compress(ctx: EvalContext, op: Operation, k: Any, a: Any, src: Any) -> Any:
    t = op.results[0].type
    const = op.attributes.get("constant_src")
    if src is None and const is not None:
        src = attr_value(const, t, ctx.vscale)
    return H.compress(k, a, src, elem(t))


def _parse_compress(p: Any, st: Any) -> None:
    """``%k, %a [, %src] attr-dict : T [, T]`` (ODS: ``(`,` type($src)^)?`` after the type)."""
    st.operands["k"] = [p.parse_operand()]
    p.expect_punct(",")
    st.operands["a"] = [p.parse_operand()]
    st.operands["src"] = [p.parse_operand()] if p.try_punct(",") else []
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    p.expect_punct(":", "before the compress type")
    p.skip_ws()
    pos = p.pos
    t = p.parse_type()
    st.result_types["dst"] = [t]
    st.operand_types["a"] = [(pos, t)]
    if st.operands["src"]:
        p.expect_punct(",", "and the type of src")
        p.skip_ws()
        st.operand_types["src"] = [(p.pos, p.parse_type())]
    st.operand_types["k"] = [(pos, VectorType(getattr(t, "shape", (1,)), IntegerType(1)))]


def _print_compress(pr: Any, op: Operation) -> str:
    k, a = op.operand("k"), op.operand("a")
    src = op.operand("src")
    rest = pr.attr_dict(op)
    text = f"{pr.value(k)}, {pr.value(a)}" + (f", {pr.value(src)}" if src is not None else "")
    text += f" {rest}" if rest else ""
    text += f" : {op.result_types[0]}" + (f", {src.type}" if src is not None else "")
    return text


register(
    OpSpec(
        "x86vector.avx.intr.dot",
        "AVX vdpps: per 128-bit half, the 4-lane dot product in every lane",
        operands=(Operand("a", VECTOR), Operand("b", VECTOR)),
        results=(Result("res", VECTOR),),
        traits=P,
        format="$a `,` $b attr-dict `:` type($res)",
        infer=lambda op: [op.operand("a").type],
        verify=_verify_dot,
        eval=lambda ctx, op, a, b: H.dot_halves(a, b),
    ),
    OpSpec(
        "x86vector.avx512.mask.compress",
        "AVX-512 compress: the selected lanes packed low, the rest from src (or zero)",
        operands=(Operand("k", MASK), Operand("a", VECTOR), Operand("src", VECTOR, OPTIONAL)),
        results=(Result("dst", VECTOR),),
        attrs=(Attr("constant_src", ANY_ATTR, optional=True),),
        traits=P,
        parse=_parse_compress,
        print=_print_compress,
        verify=_verify_compress,
        eval=_eval_compress,
    ),
)
