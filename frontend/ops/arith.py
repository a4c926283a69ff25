"""The ``arith`` dialect subset real vector programs use: constants, integer and float
arithmetic, comparisons, select and casts. Every op works on scalars and on vectors."""

from __future__ import annotations

from typing import Any

from frontend import semantics as S
from frontend.attributes import (
    DenseElementsAttr,
    EnumAttr,
    FloatAttr,
    IntegerAttr,
)
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops.common import fail
from frontend.ops.kinds import FASTMATH, OVERFLOW, ROUNDING, TYPED_VALUE, predicate_kind
from frontend.ops.runtime import constant, elem
from frontend.ops.spec import (
    ANY,
    COMMUTATIVE,
    ELEMENTWISE,
    FLOAT,
    INT_OR_INDEX,
    LOCAL,
    PURE,
    SELECTS,
    SIGNLESS_INT,
    Attr,
    Operand,
    OpSpec,
    Result,
    like,
)
from frontend.types import (
    FloatType,
    IndexType,
    IntegerType,
    Type,
    VectorType,
    element_type,
    i1,
    i64,
)

NO_FASTMATH = EnumAttr("arith.fastmath", "none")
NO_OVERFLOW = EnumAttr("arith.overflow", "none")
EW = frozenset({PURE, ELEMENTWISE})

INT_LIKE = like(INT_OR_INDEX)
FLOAT_LIKE = like(FLOAT)
BOOL_LIKE = like(SIGNLESS_INT)

CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)


def same_operand_and_result_types(op: Operation) -> None:
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    if types:  # the common case, without hashing the types
        first = types[0]
        for t in types:
            if t is not first and t != first:
                break
        else:
            return
    distinct = set(types)
    if len(distinct) != 1:
        shown = ", ".join(sorted(map(str, distinct)))
        raise fail(op, f"requires the same type for all operands and results (found {shown})")


def _shape_of(t: Type) -> tuple[tuple[int, ...], tuple[bool, ...]] | None:
    """The shape of a vector, scalable dims included (casts keep both)."""
    return (t.shape, t.scalable) if isinstance(t, VectorType) else None


def with_element(t: Type, elem: Type) -> Type:
    """``t`` with its element type replaced (i1 for comparisons, the target for casts)."""
    if isinstance(t, VectorType):
        key = (t, elem)
        made = _WITH_ELEMENT.get(key)
        if made is None:
            if len(_WITH_ELEMENT) >= 1024:
                _WITH_ELEMENT.clear()
            made = _WITH_ELEMENT[key] = VectorType(t.shape, elem, t.scalable)
        return made
    return elem


_WITH_ELEMENT: dict[tuple[Type, Type], Type] = {}  # types are immutable: reuse the ones made


def elementwise(kernel: Any) -> Any:
    """The eval of an element-wise op: ``kernel(*operands, element type of the result)``."""
    return lambda ctx, op, *xs: kernel(*xs, elem(op.results[0].type))


def _compare(kernel: Any, names: tuple[str, ...]) -> Any:
    return lambda ctx, op, a, b: kernel(
        names[op.attributes["predicate"].value], a, b, elem(op.operands[0].type)
    )


def _binary(name: str, constraint: Any, attr: Attr | None, commutative: bool = False) -> OpSpec:
    flag = ""
    if attr is not None:
        flag = f" (`{attr.name if attr.name != 'overflowFlags' else 'overflow'}` `` ${attr.name}^)?"
    return OpSpec(
        f"arith.{name}",
        operands=(Operand("lhs", constraint), Operand("rhs", constraint)),
        results=(Result("result", constraint),),
        attrs=(attr,) if attr else (),
        traits=EW | {LOCAL} | ({COMMUTATIVE} if commutative else set()),
        format=f"$lhs `,` $rhs{flag} attr-dict `:` type($result)",
        infer=lambda op: [op.operands[0].type],
        verify=same_operand_and_result_types,
        eval=elementwise(getattr(S, name)),
    )


FM = Attr("fastmath", FASTMATH, default=NO_FASTMATH)
OV = Attr("overflowFlags", OVERFLOW, default=NO_OVERFLOW)

INT_BINARY = {
    "addi": (OV, True), "subi": (OV, False), "muli": (OV, True), "shli": (OV, False),
    "divsi": (None, False), "divui": (None, False), "ceildivsi": (None, False),
    "ceildivui": (None, False), "floordivsi": (None, False), "remsi": (None, False),
    "remui": (None, False), "andi": (None, True), "ori": (None, True), "xori": (None, True),
    "shrsi": (None, False), "shrui": (None, False), "maxsi": (None, True),
    "minsi": (None, True), "maxui": (None, True), "minui": (None, True),
}
FLOAT_BINARY = {
    "addf": True, "subf": False, "mulf": True, "divf": False, "remf": False,
    "maximumf": True, "minimumf": True, "maxnumf": True, "minnumf": True,
}

register(*(_binary(n, INT_LIKE, a, c) for n, (a, c) in INT_BINARY.items()))
register(*(_binary(n, FLOAT_LIKE, FM, c) for n, c in FLOAT_BINARY.items()))

register(
    OpSpec(
        "arith.negf",
        operands=(Operand("operand", FLOAT_LIKE),),
        results=(Result("result", FLOAT_LIKE),),
        attrs=(FM,),
        traits=EW,
        format="$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
        infer=lambda op: [op.operands[0].type],
        verify=same_operand_and_result_types,
        eval=elementwise(S.negf),
    ),
    OpSpec(
        "arith.cmpi",
        operands=(Operand("lhs", INT_LIKE), Operand("rhs", INT_LIKE)),
        results=(Result("result", BOOL_LIKE),),
        attrs=(Attr("predicate", predicate_kind(CMPI_PREDICATES)),),
        traits=EW,
        format="$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
        infer=lambda op: [with_element(op.operands[0].type, i1)],
        verify=lambda op: _same_operands(op),
        eval=_compare(S.cmpi, CMPI_PREDICATES),
    ),
    OpSpec(
        "arith.cmpf",
        operands=(Operand("lhs", FLOAT_LIKE), Operand("rhs", FLOAT_LIKE)),
        results=(Result("result", BOOL_LIKE),),
        attrs=(Attr("predicate", predicate_kind(CMPF_PREDICATES)), FM),
        traits=EW,
        format="$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)",
        infer=lambda op: [with_element(op.operands[0].type, i1)],
        verify=lambda op: _same_operands(op),
        eval=_compare(S.cmpf, CMPF_PREDICATES),
    ),
)


def _same_operands(op: Operation) -> None:
    if op.operands[0].type != op.operands[1].type:
        raise fail(op, "requires all operands to have the same type")


# -- select --------------------------------------------------------------------------------------
def _parse_select(p: Any, st: Any) -> None:
    """``arith.select %c, %a, %b : T`` or ``: vector<4xi1>, vector<4xT>``."""
    st.operands["condition"] = [p.parse_operand()]
    p.expect_punct(",")
    st.operands["true_value"] = [p.parse_operand()]
    p.expect_punct(",")
    st.operands["false_value"] = [p.parse_operand()]
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    p.expect_punct(":", "and the select type")
    p.skip_ws()
    pos = p.pos
    types = p.parse_type_list()
    if len(types) == 2:
        st.operand_types["condition"] = [(pos, types[0])]
    elif len(types) != 1:
        raise p.error("expected one or two types for arith.select", pos)
    st.result_types["result"] = [types[-1]]


def _print_select(pr: Any, op: Operation) -> str:
    c, a, b = op.operands
    attrs = pr.attr_dict(op)
    types = f"{c.type}, {a.type}" if isinstance(c.type, VectorType) else str(a.type)
    return (f"{pr.value(c)}, {pr.value(a)}, {pr.value(b)}" + (f" {attrs}" if attrs else "")
            + f" : {types}")


def _verify_select(op: Operation) -> None:
    c, a, b = (v.type for v in op.operands)
    if a != b or a != op.results[0].type:
        raise fail(op, "requires the same type for the true value, false value and result")
    if c != i1 and c != with_element(a, i1):
        raise fail(op, f"expected condition type to be i1 or {with_element(a, i1)}")


register(
    OpSpec(
        "arith.select",
        operands=(Operand("condition", BOOL_LIKE), Operand("true_value", ANY),
                  Operand("false_value", ANY)),
        results=(Result("result", ANY),),
        traits=EW | {SELECTS},
        parse=_parse_select,
        fast_formats=(
            "$condition `,` $true_value `,` $false_value attr-dict `:` type($condition) `,` "
            "type($result)",
            "$condition `,` $true_value `,` $false_value attr-dict `:` type($result)",
        ),
        print=_print_select,
        verify=_verify_select,
        eval=lambda ctx, op, c, a, b: S.select(c, a, b),
    )
)


# -- constant -------------------------------------------------------------------------------------
def _parse_constant(p: Any, st: Any) -> None:
    if p.peek("{"):
        st.attrs.update(p.parse_attr_dict().entries)
    start = p.pos
    value = p.parse_attribute("constant value")
    if isinstance(value, IntegerAttr) and value.type == i64 and not _typed_at(p, start):
        pass  # an untyped integer literal means i64, as in MLIR
    st.attrs["value"] = value
    t = getattr(value, "type", None)
    if t is None:
        raise p.error("constant value needs a type", start)
    st.result_types["result"] = [t]


def _typed_at(p: Any, start: int) -> bool:
    return ":" in p.text[start : p.pos]


def _print_constant(pr: Any, op: Operation) -> str:
    value = op.attributes["value"]
    attrs = pr.attr_dict(op, {"value"})
    text = str(value)
    if isinstance(value, IntegerAttr) and " : " not in text and value.type != i1:
        text = f"{value.value} : {value.type}"
    return (f"{attrs} " if attrs else "") + text


def _verify_constant(op: Operation) -> None:
    value = op.attributes["value"]
    t = op.results[0].type
    if getattr(value, "type", None) != t:
        raise fail(op, f"value type {getattr(value, 'type', None)} does not match result type {t}")
    if isinstance(value, DenseElementsAttr) and not isinstance(t, VectorType):
        if not hasattr(t, "shape"):
            raise fail(op, "dense constants need a shaped type")
    if isinstance(t, VectorType) and t.is_scalable and isinstance(value, DenseElementsAttr):
        if len(set(value.values)) > 1:
            raise fail(op, "intializing scalable vectors with elements attribute is not supported "
                           "unless it's a vector splat")
    if isinstance(value, IntegerAttr) and not isinstance(t, (IntegerType, IndexType)):
        raise fail(op, "integer constant needs an integer or index type")
    if isinstance(value, FloatAttr) and not isinstance(t, FloatType):
        raise fail(op, "float constant needs a float type")


register(
    OpSpec(
        "arith.constant",
        attrs=(Attr("value", TYPED_VALUE),),
        results=(Result("result", ANY),),
        traits=frozenset({PURE}),
        parse=_parse_constant,
        fast_formats=("attr-dict $value",),
        print=_print_constant,
        infer=lambda op: [op.attributes["value"].type],
        verify=_verify_constant,
        eval=constant,
    )
)


# -- casts --------------------------------------------------------------------------------------------
def _cast(name: str, src: Any, dst: Any, check: Any, extra: tuple[Attr, ...] = ()) -> OpSpec:
    flags = "".join(f" (`{a.name}` `` ${a.name}^)?" for a in extra if a.name == "fastmath")
    return OpSpec(
        f"arith.{name}",
        operands=(Operand("in", src),),
        results=(Result("out", dst),),
        attrs=extra,
        traits=EW,
        format=f"$in{flags} attr-dict `:` type($in) `to` type($out)",
        verify=_cast_verifier(check),
        eval=_cast_eval(getattr(S, name)),
    )


def _cast_eval(kernel: Any) -> Any:
    """``kernel(x, source element type, result element type)``."""
    return lambda ctx, op, x: kernel(x, elem(op.operands[0].type), elem(op.results[0].type))


def _cast_verifier(check: Any) -> Any:
    def verify(op: Operation) -> None:
        a, b = op.operands[0].type, op.results[0].type
        if _shape_of(a) != _shape_of(b):
            raise fail(op, f"operand type {a} and result type {b} are cast incompatible")
        ea, eb = element_type(a), element_type(b)
        problem = check(ea, eb)
        if problem:
            raise fail(op, f"operand type {a} and result type {b} are cast incompatible: {problem}")

    return verify


def _width(t: Type) -> int:
    return 64 if isinstance(t, IndexType) else t.width  # type: ignore[attr-defined]


def _int_int(op: str) -> Any:
    def check(a: Type, b: Type) -> str:
        if not (isinstance(a, IntegerType) and isinstance(b, IntegerType)):
            return "expected signless integers"
        if op == "ext" and not _width(a) < _width(b):
            return "result must be wider"
        if op == "trunc" and not _width(a) > _width(b):
            return "result must be narrower"
        return ""

    return check


def _float_float(op: str) -> Any:
    def check(a: Type, b: Type) -> str:
        if not (isinstance(a, FloatType) and isinstance(b, FloatType)):
            return "expected floats"
        if op == "ext" and not a.width < b.width:
            return "result must be wider"
        if op == "trunc" and not a.width > b.width:
            return "result must be narrower"
        return ""

    return check


def _int_to_float(a: Type, b: Type) -> str:
    return "" if isinstance(a, IntegerType) and isinstance(b, FloatType) else "expected int to float"


def _float_to_int(a: Type, b: Type) -> str:
    return "" if isinstance(a, FloatType) and isinstance(b, IntegerType) else "expected float to int"


def _index_cast(a: Type, b: Type) -> str:
    ok = (isinstance(a, IndexType) and isinstance(b, IntegerType)) or (
        isinstance(a, IntegerType) and isinstance(b, IndexType)
    )
    return "" if ok else "expected index to integer or integer to index"


def _bitcast(a: Type, b: Type) -> str:
    if isinstance(a, IndexType) or isinstance(b, IndexType):
        return "index has no fixed bit width"
    return "" if _width(a) == _width(b) else "bit widths differ"


INT_ANY = like(INT_OR_INDEX)
NUMERIC = like(INT_OR_INDEX) | like(FLOAT)
register(
    _cast("extsi", INT_ANY, INT_ANY, _int_int("ext")),
    _cast("extui", INT_ANY, INT_ANY, _int_int("ext")),
    _cast("trunci", INT_ANY, INT_ANY, _int_int("trunc")),
    _cast("extf", FLOAT_LIKE, FLOAT_LIKE, _float_float("ext"), (FM,)),
    _cast("truncf", FLOAT_LIKE, FLOAT_LIKE, _float_float("trunc"),
          (Attr("roundingmode", ROUNDING, optional=True), FM)),
    _cast("sitofp", INT_ANY, FLOAT_LIKE, _int_to_float),
    _cast("uitofp", INT_ANY, FLOAT_LIKE, _int_to_float),
    _cast("fptosi", FLOAT_LIKE, INT_ANY, _float_to_int),
    _cast("fptoui", FLOAT_LIKE, INT_ANY, _float_to_int),
    _cast("index_cast", INT_ANY, INT_ANY, _index_cast),
    _cast("index_castui", INT_ANY, INT_ANY, _index_cast),
    _cast("bitcast", NUMERIC, NUMERIC, _bitcast),
)
