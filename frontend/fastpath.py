"""A fast path for the common shape of each op's custom syntax.

Most ops in real programs are one line of SSA names, simple types, integer lists and enum
keywords. For every op with a declarative format we compile one regular expression that
matches exactly that shape: an attr-dict, a nested or aliased type, a region, a comment or a
location inside the op make it fail. The matched pieces are then read with the sub-parsers
the general path uses (operand lookup, ``parse_type``, the attribute kinds' ``parse``), so
both paths build the same op. When the expression does not match, or anything is off (an
undefined value, a piece that does not read back exactly, a type error), the op is parsed
again by the general path, which reports the error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from frontend.errors import MLIRError
from frontend.format import (
    CUSTOM_PARSERS,
    AllOperands,
    AttrDict,
    Custom,
    Group,
    Lit,
    ParseState,
    TypeOf,
    Var,
)
from frontend.ops.spec import SINGLE, OpSpec
from frontend.parse_types import TYPE_CACHE
from frontend.types import Type

WS = r"[ \t\n\r\f\v]*"
OPERAND = r"%(?:\d+|[A-Za-z_$.\-][\w$.\-]*)(?:#\d+)?"
OPERANDS = rf"(?:{OPERAND}(?:{WS},{WS}{OPERAND})*)?"
TYPE = r"(?:(?:vector|memref|tensor)<[^<>()!#]*>|[a-z][a-z0-9]*)"
RESULT_BINDING = rf"{OPERAND}(?:{WS}:{WS}\d+)?{WS}(?:,{WS}{OPERAND}(?:{WS}:{WS}\d+)?{WS})*="
END = r"(?=[ \t]*(?:\n|\}|//|$))"  # the op ends here: no trailing loc(...) or attr-dict
_OPERAND = re.compile(OPERAND)

# A step reads one matched group into the parse state: step(parser, state, match).
Step = Callable[[Any, ParseState, "re.Match[str]"], None]


class Unsupported(Exception):
    """The format has an element the fast path does not cover: use the general path."""


class FastPath:
    """One op's compiled expression and the steps that read its groups. Every step owns
    exactly one capture group, numbered in order (all other groups are non-capturing)."""

    __slots__ = ("regex", "steps")

    def __init__(self, spec: OpSpec, elements: list[Any]) -> None:
        parts: list[str] = []
        self.steps: list[Step] = []
        for el in elements:
            parts.append(self._element(spec, el))
        self.regex = re.compile("".join(parts) + END)

    def parse(self, p: Any, st: ParseState) -> bool:
        """Fill ``st`` from the text at ``p.pos``; False (nothing consumed) if it does not fit."""
        start = p.pos
        m = self.regex.match(p.text, start)
        if m is None:
            return False
        try:
            for step in self.steps:
                step(p, st, m)
        except MLIRError:
            p.pos = start
            return False
        p.pos = m.end()
        return True

    # -- compiling -------------------------------------------------------------------------
    def _element(self, spec: OpSpec, el: Any) -> str:
        if isinstance(el, Lit):
            if not el.text:
                return ""
            word = el.text[0].isalpha() or el.text[0] == "_"
            return WS + re.escape(el.text) + (r"(?![\w$.])" if word else "")
        if isinstance(el, AttrDict):  # present only if flat: `{a = [1], b}`
            self.steps.append(_attr_dict(len(self.steps) + 1))
            opener = rf"{WS}attributes(?![\w$.])" if el.keyword else ""
            return rf"(?:{opener}{WS}(\{{[^{{}}]*\}}))?(?!{WS}\{{)"
        if isinstance(el, AllOperands):
            self.steps.append(_operands("*", len(self.steps) + 1))
            return rf"{WS}({OPERANDS})"
        if isinstance(el, Var):
            return self._var(spec, el.name)
        if isinstance(el, TypeOf):
            return self._types(spec, el.target)
        if isinstance(el, Custom) and el.name in CUSTOM_PARSERS:
            self.steps.append(_replay_custom(spec, el, len(self.steps) + 1))
            return rf"{WS}(\[[^\[\]]*\])"
        if isinstance(el, Group):
            lead = next(e for e in el.elements if not (isinstance(e, Lit) and not e.text))
            guard = ""
            if isinstance(lead, Var) and spec.roles.get(lead.name) == "operand":
                guard = rf"(?!{WS}{RESULT_BINDING})"  # the next op's `%x = `, not an operand
            inner = "".join(self._element(spec, e) for e in el.elements)
            return f"(?:{guard}{inner})?"
        raise Unsupported(type(el).__name__)

    def _var(self, spec: OpSpec, name: str) -> str:
        group = len(self.steps) + 1
        role = spec.roles.get(name, "attr")
        if role == "operand":
            if spec.operand_kinds[name] == SINGLE:
                self.steps.append(_operand(name, group))
                return rf"{WS}({OPERAND})"
            self.steps.append(_operands(name, group))
            return rf"{WS}({OPERANDS})"
        d = spec.attr_def(name)
        if role != "attr" or d is None or d.kind.pattern is None:
            raise Unsupported(name)
        self.steps.append(_replay_attr(spec, name, d.kind, group))
        return rf"{WS}({d.kind.pattern})"

    def _types(self, spec: OpSpec, target: str) -> str:
        group = len(self.steps) + 1
        role = spec.roles.get(target, target)
        if role in ("result", "results"):
            many = role == "results" or spec.result_kinds[target] != SINGLE
            if not many:
                self.steps.append(_result_type(target, group))
                return rf"{WS}({TYPE})"
            self.steps.append(_result_types(target, role == "results", group))
            return rf"{WS}({TYPE}(?:{WS},{WS}{TYPE})*)"
        key = "*" if role == "operands" else target
        if role == "operand" and spec.operand_kinds[target] == SINGLE:
            self.steps.append(_operand_type(key, group))
            return rf"{WS}({TYPE})"
        self.steps.append(_operand_types(key, group))
        return rf"{WS}((?:{TYPE}(?:{WS},{WS}{TYPE})*)?)"


def compile_fast_path(spec: OpSpec, elements: list[Any]) -> FastPath | None:
    try:
        return FastPath(spec, elements)
    except Unsupported:
        return None


# -- steps: each reads its capture group with the general path's own sub-parsers -------------
def _type_at(p: Any, m: re.Match[str], group: int, start: int, end: int) -> Type:
    text = m.string[start:end]
    t = TYPE_CACHE.get(text)
    if t is None:
        p.pos = start
        t = p.parse_type()
        if p.pos != end:
            raise MLIRError("type does not read back exactly")
        TYPE_CACHE[text] = t
    return t


def _operand(name: str, group: int) -> Step:
    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        if m.start(group) < 0:
            return  # in an absent optional group
        st.operands[name] = [p.resolve(m.group(group), m.start(group))]

    return step


def _operands(name: str, group: int) -> Step:
    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        if m.start(group) < 0:
            return  # in an absent optional group
        st.operands[name] = [
            p.resolve(t.group(0), t.start())
            for t in _OPERAND.finditer(m.string, m.start(group), m.end(group))
        ]

    return step


def _operand_type(key: str, group: int) -> Step:
    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        if m.start(group) < 0:
            return  # in an absent optional group
        start, end = m.span(group)
        st.operand_types[key] = [(start, _type_at(p, m, group, start, end))]

    return step


def _type_list(p: Any, m: re.Match[str], group: int) -> list[tuple[int, Type]]:
    """Each type of a comma-separated list with its offset, read by ``parse_type``."""
    start, end = m.span(group)
    out: list[tuple[int, Type]] = []
    p.pos = start
    while p.pos < end:
        if out and not p.try_punct(","):
            raise MLIRError("type list does not read back exactly")
        p.skip_ws()
        pos = p.pos
        out.append((pos, p.parse_type()))
    if p.pos != end:
        raise MLIRError("type list does not read back exactly")
    return out


def _operand_types(key: str, group: int) -> Step:
    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        if m.start(group) < 0:
            return  # in an absent optional group
        st.operand_types[key] = _type_list(p, m, group)

    return step


def _result_type(target: str, group: int) -> Step:
    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        start, end = m.span(group)
        if start >= 0:
            st.result_types[target] = [_type_at(p, m, group, start, end)]

    return step


def _result_types(target: str, all_results: bool, group: int) -> Step:
    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        if m.start(group) < 0:
            return  # in an absent optional group
        types = [t for _, t in _type_list(p, m, group)]
        if all_results:
            st.all_result_types = types
        else:
            st.result_types[target] = types

    return step


def _attr_dict(group: int) -> Step:
    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        if m.start(group) >= 0:
            p.pos = m.start(group)
            st.attrs.update(p.parse_attr_dict().entries)
            if p.pos != m.end(group):
                raise MLIRError("attribute dictionary does not read back exactly")

    return step


def _replay_attr(spec: OpSpec, name: str, kind: Any, group: int) -> Step:
    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        if m.start(group) < 0:
            return  # in an absent optional group
        p.pos = m.start(group)
        a = kind.parse(p)
        if p.pos != m.end(group) or not kind.check(a):
            raise MLIRError(f"'{name}' does not read back exactly")
        st.attrs[name] = a

    return step


def _replay_custom(spec: OpSpec, el: Custom, group: int) -> Step:
    custom = CUSTOM_PARSERS[el.name]

    def step(p: Any, st: ParseState, m: re.Match[str]) -> None:
        p.pos = m.start(group)
        custom(p, spec, st, el.args)
        if p.pos != m.end(group):
            raise MLIRError("custom directive does not read back exactly")

    return step
