"""Interpreting ODS-style assembly formats for both parsing and printing.

A format such as ``"$lhs `,` $rhs attr-dict `:` type($lhs)"`` is compiled once into a list of
directives; ``parse_format`` reads an op with it and ``print_format`` writes one, so the two
can never disagree. Supported directives: literals, ``$operand``/``$attr``/``$region``,
``type(...)``, ``attr-dict``, ``operands``, ``functional-type(operands, results)``, optional
groups ``(...)?`` with a ``^`` anchor, ``oilist(...)`` and ``custom<DynamicIndexList>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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
@dataclass
class ParseState:
    """What an op's text yields before the Operation is built."""

    spec: OpSpec
    start: int
    operands: dict[str, list[Value]] = field(default_factory=dict)
    operand_types: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)
    attrs: dict[str, Attribute] = field(default_factory=dict)
    result_types: dict[str, list[Any]] = field(default_factory=dict)
    regions: list[Any] = field(default_factory=list)
    all_result_types: list[Any] | None = None


def _role(spec: OpSpec, name: str) -> str:
    if any(o.name == name for o in spec.operands):
        return "operand"
    if any(r.name == name for r in spec.results):
        return "result"
    if name in spec.regions:
        return "region"
    return "attr"


def _literal_present(p: Any, text: str) -> bool:
    if not text:
        return True
    if text[0].isalpha() or text[0] == "_":
        return p.try_keyword(text)
    return p.try_punct(text)


def parse_format(p: Any, spec: OpSpec, state: ParseState, elements: list[Any]) -> None:
    for el in elements:
        _parse_element(p, spec, state, el)


def _parse_element(p: Any, spec: OpSpec, st: ParseState, el: Any) -> None:
    if isinstance(el, Lit):
        if el.text and not _literal_present(p, el.text):
            raise p.error(f"expected '{el.text}' in {spec.name}, found {p.found()}")
    elif isinstance(el, Var):
        role = _role(spec, el.name)
        if role == "operand":
            kind = next(o.kind for o in spec.operands if o.name == el.name)
            if kind == SINGLE:
                st.operands[el.name] = [p.parse_operand()]
            else:
                st.operands[el.name] = p.parse_operand_list(optional=kind != SINGLE)
        elif role == "region":
            st.regions.append(p.parse_region())
        else:
            d = spec.attr_def(el.name)
            assert d is not None, f"{spec.name}: format names unknown ${el.name}"
            start = p.pos
            a = d.kind.parse(p) if d.kind.parse else p.parse_attribute()
            if not d.kind.check(a):
                raise p.error(f"'{el.name}' of {spec.name} must be {d.kind.description}", start)
            st.attrs[el.name] = a
    elif isinstance(el, TypeOf):
        _parse_types(p, spec, st, el.target)
    elif isinstance(el, AttrDict):
        if el.keyword:
            if p.try_keyword("attributes"):
                _merge_attrs(p, st, p.parse_attr_dict())
        elif p.peek("{"):
            _merge_attrs(p, st, p.parse_attr_dict())
    elif isinstance(el, AllOperands):
        st.operands["*"] = p.parse_operand_list(optional=True)
    elif isinstance(el, FunctionalType):
        p.skip_ws()
        ft_pos = p.pos
        ft = p.parse_function_type()
        st.operand_types[el.inputs] = [(ft_pos, t) for t in ft.inputs]
        st.all_result_types = list(ft.results)
    elif isinstance(el, Custom):
        CUSTOM_PARSERS[el.name](p, spec, st, el.args)
    elif isinstance(el, Group):
        first = next(i for i, e in enumerate(el.elements) if not (isinstance(e, Lit) and not e.text))
        if _group_present(p, spec, el.elements[first]):
            start = first + 1 if isinstance(el.elements[first], Lit) else first
            for sub in el.elements[start:]:
                _parse_element(p, spec, st, sub)
    elif isinstance(el, OIList):
        seen: set[str] = set()
        while True:
            for keyword, var in el.clauses:
                if var not in seen and p.try_keyword(keyword):
                    seen.add(var)
                    _parse_element(p, spec, st, Var(var))
                    break
            else:
                return


def _merge_attrs(p: Any, st: ParseState, d: Any) -> None:
    for k, v in d.entries:
        st.attrs[k] = v


_RESULT_BINDING = re.compile(r"(?:%[\w$.\-]+(?:\s*:\s*\d+)?\s*,\s*)*%[\w$.\-]+(?:\s*:\s*\d+)?\s*=")


def _group_present(p: Any, spec: OpSpec, first: Any) -> bool:
    if isinstance(first, Lit):
        return _literal_present(p, first.text)
    if isinstance(first, Var):
        role = _role(spec, first.name)
        if role == "operand":  # `%x = ...` on the next line is the next op, not an operand
            return p.peek("%") and not _RESULT_BINDING.match(p.text, p.pos)
        if role == "region":
            return p.peek("{")
        d = spec.attr_def(first.name)
        save = p.pos
        if d is not None and d.kind.try_parse(p) is not None:
            p.pos = save
            return True
        return False
    if isinstance(first, TypeOf):
        return p.peek(":")  # only used in `($x^ `:` type($x))?` shapes
    return False


def _parse_types(p: Any, spec: OpSpec, st: ParseState, target: str) -> None:
    declared = any(o.name == target for o in spec.operands) or any(
        r.name == target for r in spec.results
    )
    role = _role(spec, target) if declared or target not in ("operands", "results") else target
    p.skip_ws()
    if role in ("result", "results"):
        many = role == "results" or next(r.kind for r in spec.results if r.name == target) != SINGLE
        types = p.parse_type_list() if many else [p.parse_type()]
        if role == "results":
            st.all_result_types = types
        else:
            st.result_types[target] = types
        return
    key = "*" if role == "operands" else target
    kind = SINGLE if role == "operand" and _is_single(spec, target) else "many"
    positions: list[tuple[int, Any]] = []
    if kind == SINGLE:
        p.skip_ws()
        positions.append((p.pos, p.parse_type()))
    else:
        count = len(st.operands.get(key, []))
        for i in range(count):
            if i:
                p.expect_punct(",")
            p.skip_ws()
            positions.append((p.pos, p.parse_type()))
    st.operand_types[key] = positions


def _is_single(spec: OpSpec, name: str) -> bool:
    return next(o.kind for o in spec.operands if o.name == name) == SINGLE


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
    for d in spec.attrs:
        if d.default is not None and op.attributes.get(d.name) == d.default:
            names.add(d.name)
    if spec.implicit is not None:
        names |= spec.implicit(op)
    return names


def print_format(pr: Any, op: Operation, elements: list[Any], out: Emitter | None = None) -> str:
    spec = op.spec
    assert spec is not None
    e = out or Emitter()
    groups = spec.group_operands(op) if spec.operands else {}
    rgroups = spec.group_results(op)
    for el in elements:
        _print_element(pr, op, spec, groups, rgroups, el, e, elements)
    return e.text()


def _print_element(pr: Any, op: Operation, spec: OpSpec, groups: dict[str, list[Value]],
                   rgroups: dict[str, list[Value]], el: Any, e: Emitter,
                   top: list[Any]) -> None:
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
        declared = any(o.name == el.target for o in spec.operands) or any(
            r.name == el.target for r in spec.results
        )
        if el.target == "results" and not declared:
            e.item(", ".join(str(t) for t in op.result_types))
        elif el.target == "operands" and not declared:
            e.item(", ".join(str(v.type) for v in op.operands))
        elif _role(spec, el.target) == "result":
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


def _group_printed(op: Operation, spec: OpSpec, groups: dict[str, list[Value]],
                   elements: tuple[Any, ...]) -> bool:
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
