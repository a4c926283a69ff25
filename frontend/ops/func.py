"""The ``func`` dialect: functions, calls and returns."""

from __future__ import annotations

from typing import Any

from frontend.attributes import (
    ArrayAttr,
    DictAttr,
    StringAttr,
    TypeAttr,
    format_symbol,
)
from frontend.ir import Operation
from frontend.ops.registry import register
from frontend.ops.common import fail, verify_symbol_parent
from frontend.ops.kinds import DICT_ARRAY, FUNCTION_TYPE, STRING, SYMBOL_NAME, SYMBOL_REF
from frontend.ops.runtime import forward, no_op
from frontend.ops.spec import (
    ANY,
    ISOLATED,
    PURE,
    SYMBOL,
    TERMINATOR,
    VARIADIC,
    Attr,
    Operand,
    OpSpec,
    Result,
)
from frontend.types import FunctionType


def _parse_func(p: Any, st: Any) -> None:
    """``func.func [private] @name(%a: T {attrs}, ...) [-> results] [attributes {..}] [{..}]``."""
    for vis in ("private", "public", "nested"):
        if p.try_keyword(vis):
            st.attrs["sym_visibility"] = StringAttr(vis)
    st.attrs["sym_name"] = StringAttr(p._symbol_name())
    p.expect_punct("(", "to open the argument list")
    args: list[tuple[str, Any, int]] = []
    inputs: list[Any] = []
    arg_attrs: list[DictAttr] = []
    if not p.try_punct(")"):
        while True:
            if p.peek("%"):
                name, t, pos = p.parse_typed_arg()
                args.append((name, t, pos))
            else:  # a declaration lists bare types
                t = p.parse_type()
            inputs.append(t)
            arg_attrs.append(p.parse_attr_dict() if p.peek("{") else DictAttr(()))
            if p.try_punct(")"):
                break
            p.expect_punct(",", "or ')' in the argument list")
    if args and len(args) != len(inputs):
        raise p.error("expected SSA names for every argument or for none")
    results: list[Any] = []
    res_attrs: list[DictAttr] = []
    if p.try_punct("->"):
        if p.peek("(") and not _is_function_type_result(p):
            p.expect_punct("(")
            if not p.try_punct(")"):
                while True:
                    results.append(p.parse_type())
                    res_attrs.append(p.parse_attr_dict() if p.peek("{") else DictAttr(()))
                    if p.try_punct(")"):
                        break
                    p.expect_punct(",")
        else:
            results.append(p.parse_type())
            res_attrs.append(DictAttr(()))
    st.attrs["function_type"] = TypeAttr(FunctionType(tuple(inputs), tuple(results)))
    if any(d.entries for d in arg_attrs):
        st.attrs["arg_attrs"] = ArrayAttr(tuple(arg_attrs))
    if any(d.entries for d in res_attrs):
        st.attrs["res_attrs"] = ArrayAttr(tuple(res_attrs))
    if p.try_keyword("attributes"):
        st.attrs.update(p.parse_attr_dict().entries)
    if p.peek("{"):
        if not args and inputs:
            raise p.error("a function with a body needs named arguments")
        st.regions.append(p.parse_region(entry_args=args, isolated=True))
    else:
        from frontend.ir import Region

        st.regions.append(Region())
    st.all_result_types = []


def _is_function_type_result(p: Any) -> bool:
    save = p.pos
    try:
        p.parse_type()
        return True
    except Exception:
        return False
    finally:
        p.pos = save


def _print_func(pr: Any, op: Operation) -> str:
    ftype: FunctionType = op.attributes["function_type"].type
    name = op.attributes["sym_name"].value
    vis = op.attributes.get("sym_visibility")
    head = (f"{vis.value} " if vis is not None else "") + f"@{format_symbol(name)}"
    region = op.regions[0]
    arg_attrs = op.attributes.get("arg_attrs")
    res_attrs = op.attributes.get("res_attrs")

    def with_attrs(text: str, attrs: Any, i: int) -> str:
        if attrs is not None and attrs.values[i].entries:
            return f"{text} {attrs.values[i]}"
        return text

    pr.push_isolated()
    if region.blocks:
        args = [
            with_attrs(f"{pr.name_arg(a)}: {a.type}", arg_attrs, i)
            for i, a in enumerate(region.blocks[0].args)
        ]
    else:
        args = [with_attrs(str(t), arg_attrs, i) for i, t in enumerate(ftype.inputs)]
    text = f"{head}({', '.join(args)})"
    if ftype.results:
        outs = [with_attrs(str(t), res_attrs, i) for i, t in enumerate(ftype.results)]
        single = len(outs) == 1 and res_attrs is None and not isinstance(ftype.results[0],
                                                                          FunctionType)
        text += f" -> {outs[0]}" if single else f" -> ({', '.join(outs)})"
    elided = {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"}
    attrs = pr.attr_dict(op, elided)
    if attrs:
        text += f" attributes {attrs}"
    if region.blocks:
        text += " " + pr.region(region, entry_args=False)
    pr.pop_isolated()
    return text


def _verify_func(op: Operation) -> None:
    verify_symbol_parent(op)
    ftype = op.attributes["function_type"].type
    region = op.regions[0]
    if not region.blocks:
        return
    if [a.type for a in region.blocks[0].args] != list(ftype.inputs):
        raise fail(op, "type of entry block arguments does not match the function signature")


def _verify_return(op: Operation) -> None:
    func = _enclosing_func(op)
    if func is None:
        raise fail(op, "expects parent op 'func.func'")
    want = list(func.attributes["function_type"].type.results)
    got = [v.type for v in op.operands]
    if got != want:
        raise fail(op, f"has {len(got)} operands of types ({', '.join(map(str, got))}), but the "
                       f"enclosing function returns ({', '.join(map(str, want))})")


def _enclosing_func(op: Operation) -> Operation | None:
    block = op.parent
    region = block.parent if block else None
    return region.parent if region and region.parent and region.parent.name == "func.func" else None


register(
    OpSpec(
        "func.func",
        "An operation with a name containing a single SSACFG region",
        attrs=(
            Attr("sym_name", SYMBOL_NAME),
            Attr("function_type", FUNCTION_TYPE),
            Attr("sym_visibility", STRING, optional=True),
            Attr("arg_attrs", DICT_ARRAY, optional=True),
            Attr("res_attrs", DICT_ARRAY, optional=True),
        ),
        regions=("body",),
        traits=frozenset({ISOLATED, SYMBOL}),
        parse=_parse_func,
        print=_print_func,
        verify=_verify_func,
        eval=no_op,  # a definition: func.call runs its body
    ),
    OpSpec(
        "func.return",
        "Function return operation",
        operands=(Operand("operands", ANY, VARIADIC),),
        traits=frozenset({PURE, TERMINATOR}),
        format="attr-dict ($operands^ `:` type($operands))?",
        verify=_verify_return,
        eval=forward,
    ),
    OpSpec(
        "func.call",
        "Call operation",
        operands=(Operand("operands", ANY, VARIADIC),),
        results=(Result("results", ANY, VARIADIC),),
        attrs=(Attr("callee", SYMBOL_REF),),
        format="$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)",
        eval=lambda ctx, op, operands: ctx.invoke(op.attributes["callee"].root, operands),
    ),
)

