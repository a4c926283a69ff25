"""The HWV ops of MLIR's ``llvm`` dialect: LLVM's target-independent vector intrinsics
(``llvm.intr.fma``, ``vector.reduce.*``, ``matrix.*``) and ``llvm.call_intrinsic`` for the
named target intrinsics we model (horizontal and pairwise adds).

Syntax is MLIR 22's, checked with ``mlir-opt-22`` both ways (custom and generic): fadd, fmul
and the integer reductions have no custom form; the float min/max reductions and fma have
``(operands) attr-dict : functional-type``. Semantics: ``frontend.semantics_hwv``. The masked
memory intrinsics (``masked.load`` ...) address memory through ``!llvm.ptr``, which the
interpreter does not model; at the HWV level their 1-D ``vector.maskedload``/``maskedstore``/
``gather``/``scatter``/``expandload``/``compressstore`` forms stand for them (each lowers to
exactly that intrinsic).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from frontend import semantics as S
from frontend import semantics_hwv as H
from frontend.attributes import DenseArrayAttr, EnumAttr
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops import vector_eval as ve
from frontend.ops import vector_verify as vv
from frontend.ops.common import fail
from frontend.ops.kinds import I32, I32_DENSE, LLVM_FASTMATH, STRING
from frontend.ops.runtime import EvalContext, elem
from frontend.ops.spec import (
    ANY,
    FIXED_VECTOR,
    OPTIONAL,
    PURE,
    VARIADIC,
    Attr,
    Operand,
    OpSpec,
    Result,
    TypeConstraint,
)
from frontend.types import FloatType, IntegerType, Type, VectorType

P = frozenset({PURE})
NO_FLAGS = EnumAttr("llvm.fastmath", "none")
FMF = Attr("fastmathFlags", LLVM_FASTMATH, default=NO_FLAGS)
CALL = "`(` operands `)` attr-dict `:` functional-type(operands, results)"


def _float_like(t: Type) -> bool:
    s = t.element if isinstance(t, VectorType) else t
    return isinstance(s, FloatType)


FLOAT_OR_VECTOR = TypeConstraint("floating-point or vector of floating-point", _float_like)
FIXED_1D = TypeConstraint(
    "1-D fixed-length vector",
    lambda t: isinstance(t, VectorType) and not t.is_scalable and t.rank == 1,
)
VECTOR_1D = TypeConstraint("1-D vector", lambda t: isinstance(t, VectorType) and t.rank == 1)


def llvm_element(t: Type) -> bool:
    """An element type LLVM has: a float or a signless integer (not index, ``si``/``ui``)."""
    return isinstance(t, FloatType) or (isinstance(t, IntegerType) and t.signedness == "signless")


def _llvm_typed(check):
    """``check`` after requiring LLVM element types of every vector (MLIR 22's constraint)."""

    def verify(op: Operation) -> None:
        for i, t in enumerate([v.type for v in op.operands] + [r.type for r in op.results]):
            if isinstance(t, VectorType) and not llvm_element(t.element):
                what = f"operand #{i}" if i < len(op.operands) else "result"
                raise fail(op, f"{what} must be LLVM dialect-compatible vector type, but got {t}")
        check(op)

    return verify


def _reassoc(op: Operation) -> bool:
    flags = op.attributes.get("fastmathFlags")
    return isinstance(flags, EnumAttr) and bool({"reassoc", "fast"} & set(flags.value.split(",")))


# -- fma, fmuladd --------------------------------------------------------------------------
def _same_types(op: Operation) -> None:
    types = {v.type for v in op.operands} | {r.type for r in op.results}
    if len(types) != 1:
        raise fail(op, "requires all operands and results to have the same type")


def _fma(ctx: EvalContext, op: Operation, a: Any, b: Any, c: Any) -> Any:
    return S.fma(a, b, c, elem(op.results[0].type))


def _ternary(name: str, summary: str) -> OpSpec:
    return OpSpec(
        f"llvm.intr.{name}",
        summary,
        operands=tuple(Operand(n, FLOAT_OR_VECTOR) for n in ("a", "b", "c")),
        results=(Result("res", FLOAT_OR_VECTOR),),
        attrs=(FMF,),
        traits=P,
        format=CALL,
        verify=_same_types,
        eval=_fma,
    )


# -- vector.reduce.* ------------------------------------------------------------------------
FLOAT_REDUCTIONS = ("fadd", "fmul", "fmax", "fmin", "fmaximum", "fminimum")
ORDERED = ("fadd", "fmul")  # take a start value; reassoc turns the order into a tree


def _verify_reduce(name: str):
    def verify(op: Operation) -> None:
        v = op.operand("input" if name in ORDERED else "in").type
        res = op.results[0].type
        want_float = name in FLOAT_REDUCTIONS
        if not isinstance(v, VectorType) or v.rank != 1:
            raise fail(op, f"operand must be a 1-D vector, but got {v}")
        e = v.element
        ok = isinstance(e, FloatType) if want_float else isinstance(e, IntegerType)
        if not (ok and llvm_element(e)):
            raise fail(op, f"expected a vector of {'float' if want_float else 'signless integer'}s")
        if res != v.element or (name in ORDERED and op.operand("start_value").type != res):
            raise fail(op, "requires the same element type for all operands and results")

    return verify


def _eval_reduce(name: str):
    if name in ORDERED:

        def ordered(ctx: EvalContext, op: Operation, start: Any, vec: Any) -> Any:
            return H.vector_reduce(name, vec, elem(op.results[0].type), start, _reassoc(op))

        return ordered
    return lambda ctx, op, vec: H.vector_reduce(name, vec, elem(op.results[0].type))


def _reduce(name: str) -> OpSpec:
    floating = name in FLOAT_REDUCTIONS
    operands = (
        (Operand("start_value", ANY), Operand("input", VECTOR_1D))
        if name in ORDERED
        else (Operand("in", VECTOR_1D),)  # scalable too: the interpreter runs them at its vscale
    )
    return OpSpec(
        f"llvm.intr.vector.reduce.{name}",
        f"llvm.vector.reduce.{name}",
        operands=operands,
        results=(Result("res", ANY),),
        attrs=(FMF,) if floating else (),
        traits=P,
        # fadd/fmul and the integer reductions print generically in MLIR 22
        format=CALL if floating and name not in ORDERED else None,
        verify=_verify_reduce(name),
        eval=_eval_reduce(name),
    )


# -- llvm.call_intrinsic ---------------------------------------------------------------------
@dataclass(frozen=True)
class Intrinsic:
    """A target intrinsic we model: its element type, lanes and semantics."""

    elem: str
    lanes: int
    block: int  # pairwise adds: lanes per block (x86: 128 bits; faddp: the whole vector)
    # LLVM overloads it on the vector type: the name's suffix is not checked, any float
    # element works (MLIR translates ``faddp.v4f32`` over vector<4xf16> as ``faddp.v4f16``)
    overloaded: bool = False

    def type(self, element: Type | None = None) -> VectorType:
        """Its vector type; an overloaded one takes the float ``element`` of its arguments."""
        if self.overloaded and isinstance(element, FloatType):
            return VectorType((self.lanes,), element)
        return VectorType((self.lanes,), FloatType(self.elem))


# The named target intrinsics ``llvm.call_intrinsic`` accepts (two operands, same type).
INTRINSICS: dict[str, Intrinsic] = {
    "llvm.x86.sse3.hadd.ps": Intrinsic("f32", 4, 4),
    "llvm.x86.sse3.hadd.pd": Intrinsic("f64", 2, 2),
    "llvm.x86.avx.hadd.ps.256": Intrinsic("f32", 8, 4),
    "llvm.x86.avx.hadd.pd.256": Intrinsic("f64", 4, 2),
    "llvm.aarch64.neon.faddp.v2f32": Intrinsic("f32", 2, 2, overloaded=True),
    "llvm.aarch64.neon.faddp.v4f32": Intrinsic("f32", 4, 4, overloaded=True),
    "llvm.aarch64.neon.faddp.v2f64": Intrinsic("f64", 2, 2, overloaded=True),
}


def _verify_call(op: Operation) -> None:
    name = op.attributes["intrin"].value  # type: ignore[attr-defined]
    intr = INTRINSICS.get(name)
    if intr is None:
        known = ", ".join(sorted(INTRINSICS))
        raise fail(op, f"intrinsic '{name}' is not modelled (known: {known})")
    groups = op.operand_groups()
    if groups["op_bundle_operands"] or op.attributes.get("op_bundle_sizes", EMPTY_I32).values:
        raise fail(op, "operand bundles are not supported")
    args = groups["args"]
    t = intr.type(_element(args[0].type) if args else None)
    types = [v.type for v in args] + [r.type for r in op.results]
    if types != [t, t, t]:
        raise fail(op, f"'{name}' takes two {t} and returns {t}")


def _element(t: Type) -> Type | None:
    return t.element if isinstance(t, VectorType) else None


def _infer_call(op: Operation) -> list[Type]:
    """The result type of a known intrinsic (for ops rebuilt from e-graph terms)."""
    intr = INTRINSICS.get(op.attributes["intrin"].value)  # type: ignore[attr-defined]
    if intr is None:
        return []
    return [intr.type(_element(op.operands[0].type) if op.operands else None)]


def _eval_call(ctx: EvalContext, op: Operation, args: list[Any], bundles: list[Any]) -> Any:
    intr = INTRINSICS[op.attributes["intrin"].value]  # type: ignore[attr-defined]
    return H.pairwise_add(args[0], args[1], elem(op.results[0].type), intr.block)


EMPTY_I32 = DenseArrayAttr("i32", ())

register(
    _ternary("fma", "llvm.fma: fused multiply-add, one rounding"),
    _ternary("fmuladd", "llvm.fmuladd: multiply-add, fused on FMA targets"),
    *(_reduce(name) for name in H.REDUCE_KINDS),
    OpSpec(
        "llvm.intr.matrix.multiply",
        "llvm.matrix.multiply on flattened matrices (row-major unless the run says column-major)",
        operands=(Operand("lhs", FIXED_VECTOR), Operand("rhs", FIXED_VECTOR)),
        results=(Result("res", FIXED_VECTOR),),
        attrs=(Attr("lhs_rows", I32), Attr("lhs_columns", I32), Attr("rhs_columns", I32)),
        traits=P,
        format="$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($res)",
        verify=_llvm_typed(vv.matrix_multiply),
        eval=ve.matrix_multiply,
    ),
    OpSpec(
        "llvm.intr.matrix.transpose",
        "llvm.matrix.transpose on a flattened matrix (row-major unless the run says column-major)",
        operands=(Operand("matrix", FIXED_VECTOR),),
        results=(Result("res", FIXED_VECTOR),),
        attrs=(Attr("rows", I32), Attr("columns", I32)),
        traits=P,
        format="$matrix attr-dict `:` type($matrix) `into` type($res)",
        verify=_llvm_typed(vv.flat_transpose),
        eval=ve.flat_transpose,
    ),
    OpSpec(
        "llvm.call_intrinsic",
        "Call a named target intrinsic (the ones in frontend.ops.llvm.INTRINSICS)",
        operands=(Operand("args", ANY, VARIADIC), Operand("op_bundle_operands", ANY, VARIADIC)),
        results=(Result("results", ANY, OPTIONAL),),
        attrs=(
            Attr("intrin", STRING),
            FMF,
            Attr("op_bundle_sizes", I32_DENSE, default=EMPTY_I32, custom_default=True),
        ),
        traits=P,
        format="$intrin `(` $args `)` attr-dict `:` functional-type($args, results)",
        infer=_infer_call,
        verify=_verify_call,
        eval=_eval_call,
    ),
)
