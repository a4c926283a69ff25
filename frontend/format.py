"""Interpreting ODS-style assembly formats for both parsing and printing.

A format such as ``"$lhs `,` $rhs attr-dict `:` type($lhs)"`` is compiled once into a list of
directives; ``parse_format`` reads an op with it and ``print_format`` writes one, so the two
can never disagree. Supported directives: literals, ``$operand``/``$attr``/``$region``,
``type(...)``, ``attr-dict``, ``operands``, ``functional-type(operands, results)``, optional
groups ``(...)?`` with a ``^`` anchor, ``oilist(...)`` and ``custom<DynamicIndexList>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from frontend.attributes import Attribute, DenseArrayAttr, UnitAttr
from frontend.ops.spec import DYNAMIC_INDEX, SINGLE, TERMINATOR, OpSpec

if TYPE_CHECKING:
    from frontend.ir import Operation, Value


# -- directives -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Lit:
    text: str


@dataclass(frozen=True)
class Var:
    name: str
    anchor: bool = False


@dataclass(frozen=True)
class TypeOf:
    target: str  # a variable name, "operands" or "results"


@dataclass(frozen=True)
class AttrDict:
    keyword: bool = False


@dataclass(frozen=True)
class AllOperands:
    pass


@dataclass(frozen=True)
class FunctionalType:
    inputs: str
    outputs: str


@dataclass(frozen=True)
class Custom:
    name: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Group:
    elements: tuple[Any, ...]


@dataclass(frozen=True)
class OIList:
    clauses: tuple[tuple[str, str], ...]  # (keyword, variable)


_TOKEN = re.compile(
    r"\s*(?:`([^`]*)`|\$(\w+)(\^)?|(type|functional-type|custom<\w+>|oilist)\(|"
    r"(attr-dict-with-keyword|attr-dict|operands|results)|(\()|(\)\??)|(\^)|(,)|(\|))"
)


def compile_format(fmt: str) -> list[Any]:
    """Directive list of an ODS format string."""
    pos = 0
    stack: list[list[Any]] = [[]]
    while True:
        m = _TOKEN.match(fmt, pos)
        if m is None:
            if fmt[pos:].strip():
                raise ValueError(f"bad assembly format at {fmt[pos:]!r}")
            break
        pos = m.end()
        lit, var, anchor, call, kw, open_, close, _caret, _comma, _bar = m.groups()
        if lit is not None:
            stack[-1].append(Lit(lit))
        elif var is not None:
            stack[-1].append(Var(var, bool(anchor)))
        elif call is not None:
            end = _matching_paren(fmt, pos)
            inner = fmt[pos:end]
            pos = end + 1
            stack[-1].append(_call(call, inner))
        elif kw is not None:
            stack[-1].append(
                AttrDict(kw == "attr-dict-with-keyword") if kw.startswith("attr") else AllOperands()
            )
        elif open_:
            stack.append([])
        elif close:
            elems = stack.pop()
            stack[-1].append(Group(tuple(elems)))
    return stack[0]


def _matching_paren(s: str, pos: int) -> int:
    depth = 1
    for i in range(pos, len(s)):
        depth += {"(": 1, ")": -1}.get(s[i], 0)
        if depth == 0:
            return i
    raise ValueError(f"unbalanced format {s!r}")


def _call(name: str, inner: str) -> Any:
    args = [a.strip().lstrip("$") for a in inner.split(",")]
    if name == "type":
        return TypeOf(args[0])
    if name == "functional-type":
        return FunctionalType(args[0], args[1])
    if name == "oilist":
        clauses = []
        for clause in inner.split("|"):
            m = re.fullmatch(r"\s*`(\w+)`\s*\$(\w+)\s*", clause)
            assert m, f"unsupported oilist clause {clause!r}"
            clauses.append((m.group(1), m.group(2)))
        return OIList(tuple(clauses))
    return Custom(name[len("custom<") : -1], tuple(args))


# -- parse state ----------------------------------------------------------------------------
class ParseState:
    """What an op's text yields before the Operation is built."""

    __slots__ = (
        "all_result_types",
        "attrs",
        "operand_types",
        "operands",
        "regions",
        "result_types",
        "spec",
        "start",
    )

    def __init__(self, spec: OpSpec, start: int) -> None:
        self.spec = spec
        self.start = start
        self.operands: dict[str, list[Value]] = {}
        self.operand_types: dict[str, list[tuple[int, Any]]] = {}
        self.attrs: dict[str, Attribute] = {}
        self.result_types: dict[str, list[Any]] = {}
        self.regions: list[Any] = []
        self.all_result_types: list[Any] | None = None


def _role(spec: OpSpec, name: str) -> str:
    """What ``$name`` in the format denotes: "operand", "result", "region" or "attr"."""
    return spec.roles.get(name, "attr")


def _literal_present(p: Any, text: str) -> bool:
    if not text:
        return True
    if text[0].isalpha() or text[0] == "_":
        return p.try_keyword(text)
    return p.try_punct(text)


# A format is compiled once per op into a list of steps, closures ``step(parser, state)``
# with every lookup (roles, kinds, attribute definitions) done at compile time.
Step = Callable[[Any, ParseState], None]


def parse_format(p: Any, spec: OpSpec, state: ParseState, elements: list[Any]) -> None:
    steps = _PLANS.get(spec.name)
    if steps is None:
        steps = _PLANS[spec.name] = [_compile(spec, el) for el in elements]
    for step in steps:
        step(p, state)


_PLANS: dict[str, list[Step]] = {}


def _compile(spec: OpSpec, el: Any) -> Step:
    if isinstance(el, Lit):
        return _compile_literal(spec, el.text)
    if isinstance(el, Var):
        return _compile_var(spec, el.name)
    if isinstance(el, TypeOf):
        return _compile_types(spec, el.target)
    if isinstance(el, AttrDict):
        keyword = el.keyword

        def attr_dict(p: Any, st: ParseState) -> None:
            if p.try_keyword("attributes") if keyword else p.peek("{"):
                st.attrs.update(p.parse_attr_dict().entries)

        return attr_dict
    if isinstance(el, AllOperands):

        def all_operands(p: Any, st: ParseState) -> None:
            st.operands["*"] = p.parse_operand_list(optional=True)

        return all_operands
    if isinstance(el, FunctionalType):
        inputs = "*" if el.inputs == "operands" else el.inputs  # `operands`: all of them

        def functional_type(p: Any, st: ParseState) -> None:
            p.skip_ws()
            pos = p.pos
            ft = p.parse_function_type()
            st.operand_types[inputs] = [(pos, t) for t in ft.inputs]
            st.all_result_types = list(ft.results)

        return functional_type
    if isinstance(el, Custom):
        custom, args = CUSTOM_PARSERS[el.name], el.args
        return lambda p, st: custom(p, spec, st, args)
    if isinstance(el, Group):
        return _compile_group(spec, el)
    if isinstance(el, OIList):
        clauses = [(kw, var, _compile_var(spec, var)) for kw, var in el.clauses]

        def oilist(p: Any, st: ParseState) -> None:
            seen: set[str] = set()
            while True:
                for keyword, var, step in clauses:
                    if var not in seen and p.try_keyword(keyword):
                        seen.add(var)
                        step(p, st)
                        break
                else:
                    return

        return oilist
    raise ValueError(f"{spec.name}: unsupported format element {el!r}")


def _compile_literal(spec: OpSpec, text: str) -> Step:
    if not text:
        return lambda p, st: None
    if text[0].isalpha() or text[0] == "_":

        def keyword(p: Any, st: ParseState) -> None:
            if not p.try_keyword(text):
                raise p.error(f"expected '{text}' in {spec.name}, found {p.found()}")

        return keyword

    def punct(p: Any, st: ParseState) -> None:
        if not p.try_punct(text):
            raise p.error(f"expected '{text}' in {spec.name}, found {p.found()}")

    return punct


def _compile_var(spec: OpSpec, name: str) -> Step:
    role = _role(spec, name)
    if role == "operand":
        if spec.operand_kinds[name] == SINGLE:

            def operand(p: Any, st: ParseState) -> None:
                st.operands[name] = [p.parse_operand()]

            return operand

        def operands(p: Any, st: ParseState) -> None:
            st.operands[name] = p.parse_operand_list(optional=True)

        return operands
    if role == "region":
        return lambda p, st: st.regions.append(p.parse_region())
    d = spec.attr_def(name)
    assert d is not None, f"{spec.name}: format names unknown ${name}"
    kind = d.kind

    def attribute(p: Any, st: ParseState) -> None:
        start = p.pos
        a = kind.parse(p) if kind.parse else p.parse_attribute()
        if not kind.check(a):
            raise p.error(f"'{name}' of {spec.name} must be {kind.description}", start)
        st.attrs[name] = a

    return attribute


RESULT_BINDING = re.compile(r"(?:%[\w$.\-]+(?:\s*:\s*\d+)?\s*,\s*)*%[\w$.\-]+(?:\s*:\s*\d+)?\s*=")


def _compile_group(spec: OpSpec, el: Group) -> Step:
    """``(...)?``: present when its first element is; a leading literal is consumed then."""
    first = next(i for i, e in enumerate(el.elements) if not (isinstance(e, Lit) and not e.text))
    lead = el.elements[first]
    rest = [_compile(spec, e) for e in el.elements[first + isinstance(lead, Lit) :]]
    present = _presence(spec, lead)

    def group(p: Any, st: ParseState) -> None:
        if present(p):
            for step in rest:
                step(p, st)

    return group


def _presence(spec: OpSpec, first: Any) -> Callable[[Any], bool]:
    if isinstance(first, Lit):
        return lambda p: _literal_present(p, first.text)
    if isinstance(first, Var):
        role = _role(spec, first.name)
        if role == "operand":  # `%x = ...` on the next line is the next op, not an operand
            return lambda p: p.peek("%") and not RESULT_BINDING.match(p.text, p.pos)
        if role == "region":
            return lambda p: p.peek("{")
        d = spec.attr_def(first.name)

        def attribute_present(p: Any) -> bool:
            save = p.pos
            if d is not None and d.kind.try_parse(p) is not None:
                p.pos = save
                return True
            return False

        return attribute_present
    if isinstance(first, TypeOf):
        return lambda p: p.peek(":")  # only used in `($x^ `:` type($x))?` shapes
    return lambda p: False


def _compile_types(spec: OpSpec, target: str) -> Step:
    role = spec.roles.get(target, target)
    if role in ("result", "results"):
        many = role == "results" or spec.result_kinds[target] != SINGLE

        def result_types(p: Any, st: ParseState) -> None:
            types = p.parse_type_list() if many else [p.parse_type()]
            if role == "results":
                st.all_result_types = types
            else:
                st.result_types[target] = types

        return result_types
    key = "*" if role == "operands" else target
    if role == "operand" and spec.operand_kinds[target] == SINGLE:

        def single_type(p: Any, st: ParseState) -> None:
            p.skip_ws()
            st.operand_types[key] = [(p.pos, p.parse_type())]

        return single_type

    def operand_types(p: Any, st: ParseState) -> None:
        positions: list[tuple[int, Any]] = []
        for i in range(len(st.operands.get(key, ()))):
            if i:
                p.expect_punct(",")
            p.skip_ws()
            positions.append((p.pos, p.parse_type()))
        st.operand_types[key] = positions

    return operand_types


# -- custom directives ------------------------------------------------------------------------
def _parse_dynamic_index_list(p: Any, spec: OpSpec, st: ParseState, args: tuple[str, ...]) -> None:
    """``[2, %i, 0]``: static ints and SSA indices mixed; dynamic slots hold kDynamic."""
    dyn_name, static_name = args[0], args[1]
    p.expect_punct("[", "to open index list")
    dynamic: list[Value] = []
    static: list[int] = []
    if not p.try_punct("]"):
        while True:
            if p.peek("%"):
                dynamic.append(p.parse_operand())
                static.append(DYNAMIC_INDEX)
            else:
                static.append(p.expect_i64("integer or SSA index"))
            if p.try_punct("]"):
                break
            p.expect_punct(",", "or ']' in index list")
    st.operands[dyn_name] = dynamic
    st.attrs[static_name] = DenseArrayAttr("i64", tuple(static))


CUSTOM_PARSERS = {"DynamicIndexList": _parse_dynamic_index_list}


# -- printing ---------------------------------------------------------------------------------
class Emitter:
    """Joins printed pieces with MLIR's spacing rules for custom formats."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.space = True
        self.last_punct = False

    def literal(self, text: str) -> None:
        if not text:
            self.space = False
            return
        if len(text) != 1 and text != "->":
            want = True
        elif self.last_punct:
            want = text[0] not in ">)}],"
        else:
            want = text[0] not in "<>(){}[],"
        if want and self.space and self.parts:
            self.parts.append(" ")
        self.parts.append(text)
        self.space = not (len(text) == 1 and text in "<({[")
        self.last_punct = not (text[0].isalpha() or text[0] == "_")

    def item(self, text: str) -> None:
        if not text:
            return
        if self.space and self.parts:
            self.parts.append(" ")
        self.parts.append(text)
        self.space = True
        self.last_punct = False

    def text(self) -> str:
        return "".join(self.parts)


def elided_attrs(spec: OpSpec, op: Operation, elements: list[Any]) -> set[str]:
    """Attributes the custom form shows elsewhere or leaves implicit (defaults, segments)."""
    shown = _SHOWN.get(spec.name)
    if shown is None:
        shown = _SHOWN[spec.name] = _shown_elsewhere(spec, elements)
    names = set(shown)
    for name, default in spec.defaults:
        if op.attributes.get(name) == default:
            names.add(name)
    if spec.implicit is not None:
        names |= spec.implicit(op)
    return names


_SHOWN: dict[str, frozenset[str]] = {}  # op name -> attributes its format spells out


def _shown_elsewhere(spec: OpSpec, elements: list[Any]) -> frozenset[str]:
    names = {"operandSegmentSizes", "resultSegmentSizes"}

    def visit(els: Any) -> None:
        for el in els:
            if isinstance(el, Var) and _role(spec, el.name) == "attr":
                names.add(el.name)
            elif isinstance(el, Custom):
                names.update(el.args[1:])
            elif isinstance(el, Group):
                visit(el.elements)
            elif isinstance(el, OIList):
                names.update(v for _, v in el.clauses)

    visit(elements)
    return frozenset(names)


def print_format(pr: Any, op: Operation, elements: list[Any], out: Emitter | None = None) -> str:
    spec = op.spec
    assert spec is not None
    e = out or Emitter()
    groups = spec.group_operands(op) if spec.operands else {}
    rgroups = spec.group_results(op)
    for el in elements:
        _print_element(pr, op, spec, groups, rgroups, el, e, elements)
    return e.text()


def _print_element(
    pr: Any,
    op: Operation,
    spec: OpSpec,
    groups: dict[str, list[Value]],
    rgroups: dict[str, list[Value]],
    el: Any,
    e: Emitter,
    top: list[Any],
) -> None:
    if isinstance(el, Lit):
        e.literal(el.text)
    elif isinstance(el, Var):
        role = _role(spec, el.name)
        if role == "operand":
            e.item(", ".join(pr.value(v) for v in groups[el.name]))
        elif role == "region":
            e.item(pr.region(op.regions[spec.regions.index(el.name)]))
        else:
            d = spec.attr_def(el.name)
            a = op.attributes.get(el.name)
            if a is not None:
                e.item(d.kind.show(a) if d is not None and d.kind.show else str(a))
    elif isinstance(el, TypeOf):
        role = spec.roles.get(el.target, el.target)
        if role == "results":
            e.item(", ".join(str(t) for t in op.result_types))
        elif role == "operands":
            e.item(", ".join(str(v.type) for v in op.operands))
        elif role == "result":
            e.item(", ".join(str(v.type) for v in rgroups[el.target]))
        else:
            e.item(", ".join(str(v.type) for v in groups[el.target]))
    elif isinstance(el, AttrDict):
        shown = pr.attr_dict(op, elided_attrs(spec, op, top))
        if shown:
            e.item(("attributes " if el.keyword else "") + shown)
    elif isinstance(el, AllOperands):
        e.item(", ".join(pr.value(v) for v in op.operands))
    elif isinstance(el, FunctionalType):
        ins = ", ".join(str(v.type) for v in op.operands)
        outs = [str(t) for t in op.result_types]
        res = outs[0] if len(outs) == 1 else f"({', '.join(outs)})"
        e.item(f"({ins}) -> {res}")
    elif isinstance(el, Custom):
        if el.name == "DynamicIndexList":
            dyn = iter(groups[el.args[0]])
            static = op.attributes[el.args[1]]
            items = [pr.value(next(dyn)) if s == DYNAMIC_INDEX else str(s) for s in static]
            e.literal("")  # `$vector `` custom<...>`: no space before the list
            e.item(f"[{', '.join(items)}]")
    elif isinstance(el, Group):
        if _group_printed(op, spec, groups, el.elements):
            for sub in el.elements:
                _print_element(pr, op, spec, groups, rgroups, sub, e, top)
    elif isinstance(el, OIList):
        # A bare `vector.print` would take the next line's `%x = ...` for its operand (MLIR
        # prints it so, and cannot read it back): spell defaults out when nothing precedes.
        explicit = not e.parts and not spec.has(TERMINATOR)
        for keyword, var in el.clauses:
            if var in op.attributes and (explicit or not _is_default(spec, op, var)):
                e.literal(keyword)
                _print_element(pr, op, spec, groups, rgroups, Var(var), e, top)


def _is_default(spec: OpSpec, op: Operation, name: str) -> bool:
    d = spec.attr_def(name)
    return d is not None and d.default is not None and op.attributes.get(name) == d.default


def _group_printed(
    op: Operation, spec: OpSpec, groups: dict[str, list[Value]], elements: tuple[Any, ...]
) -> bool:
    anchor = next((el for el in elements if isinstance(el, Var) and el.anchor), None)
    if anchor is None:
        anchor = next((el for el in elements if isinstance(el, Var)), None)
    if anchor is None:
        return False
    role = _role(spec, anchor.name)
    if role == "operand":
        return bool(groups[anchor.name])
    if role == "region":
        return bool(op.regions)
    a = op.attributes.get(anchor.name)
    if a is None or isinstance(a, UnitAttr) and False:
        return False
    return not _is_default(spec, op, anchor.name)
