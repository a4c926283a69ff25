"""Printers compiled from assembly formats.

``format.print_format`` interprets an op's format for every op it prints. Here each format is
turned once into a small Python function (see ``CompiledPrinter.source``) that does the same
work with every decision that depends only on the spec taken in advance: where each operand
group sits in the operand list, which attribute anchors an optional group, which attributes
the attr-dict never shows. The ``Emitter``'s spacing rules are spelled out inline on three
local variables (its ``parts``, ``space`` and ``last_punct``), so the text is the same.
Formats with an ``oilist`` keep the interpreted printer.
"""

from __future__ import annotations

from typing import Any

from frontend.format import (
    AllOperands,
    AttrDict,
    Custom,
    FunctionalType,
    Group,
    Lit,
    TypeOf,
    Var,
    _shown_elsewhere,
    elided_attrs,
)
from frontend.ops.spec import DYNAMIC_INDEX, SINGLE, OpSpec


class Unsupported(Exception):
    """The format has an element the compiled printer does not cover."""


class CompiledPrinter:
    """``print(pr, op)`` returns what ``print_format(pr, op, elements)`` returns."""

    __slots__ = ("print", "source", "spec")

    def __init__(self, spec: OpSpec, elements: list[Any]) -> None:
        self.spec = spec
        gen = _Generator(spec, elements)
        for el in elements:
            gen.element(el, 1)
        self.source = gen.source()
        namespace = dict(gen.env)
        exec(compile(self.source, f"<printer of {spec.name}>", "exec"), namespace)
        self.print = namespace["print_op"]


def compile_printer(spec: OpSpec, elements: list[Any]) -> CompiledPrinter | None:
    try:
        return CompiledPrinter(spec, elements)
    except Unsupported:
        return None


class _State:
    """The ``Emitter``'s state as far as it is known when the code is generated: ``space`` and
    ``last_punct`` as True/False or None (known only when the code runs, in the variables of
    those names), ``parts`` as "nonempty" True/False/None; ``synced`` lists the variables
    that already hold their known value."""

    __slots__ = ("last_punct", "nonempty", "space", "synced")

    def __init__(self, space: Any, last_punct: Any, nonempty: Any, synced: set[str]) -> None:
        self.space, self.last_punct, self.nonempty = space, last_punct, nonempty
        self.synced = synced

    def copy(self) -> _State:
        return _State(self.space, self.last_punct, self.nonempty, set(self.synced))

    def merge(self, other: _State) -> None:
        """Either this state or ``other``, whichever path ran (both synced)."""
        for name in ("space", "last_punct", "nonempty"):
            if getattr(self, name) != getattr(other, name):
                setattr(self, name, None)


class _Generator:
    def __init__(self, spec: OpSpec, elements: list[Any]) -> None:
        self.spec = spec
        self.lines: list[str] = []
        self.env: dict[str, Any] = {
            "spec": spec,
            "elements": elements,
            "elided_attrs": elided_attrs,
            "DYNAMIC_INDEX": DYNAMIC_INDEX,
        }
        self.shown = _shown_elsewhere(spec, elements)  # never in the attr-dict
        self.state = _State(True, False, False, {"space", "last_punct"})
        self.head: list[str] = []

    def _emit(self, depth: int, *lines: str) -> None:
        self.lines.extend("    " * depth + line for line in lines)

    def _const(self, prefix: str, value: Any) -> str:
        name = f"{prefix}{len(self.env)}"
        self.env[name] = value
        return name

    # -- the Emitter, inline ---------------------------------------------------------------------
    def sync(self, depth: int) -> None:
        """Make the variables hold every known part of the state (before a branch)."""
        st = self.state
        for name in ("space", "last_punct"):
            value = getattr(st, name)
            if value is not None and name not in st.synced:
                self._emit(depth, f"{name} = {value}")
                st.synced.add(name)

    def _separator(self, depth: int, want: str | bool) -> bool:
        """Emit the space before a piece; True if it is always there (then the caller
        prefixes it), False if never or decided by the emitted code."""
        st = self.state
        factors = []
        for known, runtime in (
            (want if isinstance(want, bool) else None, want),
            (st.space, "space"),
            (st.nonempty, "parts"),
        ):
            if known is False:
                return False
            if known is None:
                factors.append(runtime)
        if not factors:
            return True
        self._emit(depth, f"if {' and '.join(factors)}:", "    parts.append(' ')")
        return False

    def _set(self, space: bool, last_punct: bool) -> None:
        """The state after a piece was appended."""
        st = self.state
        for name, value in (("space", space), ("last_punct", last_punct)):
            if getattr(st, name) != value:
                setattr(st, name, value)
                st.synced.discard(name)
        st.nonempty = True

    def literal(self, text: str, depth: int) -> None:
        st = self.state
        if not text:
            if st.space is not False:
                st.space = False
                st.synced.discard("space")
            return
        if len(text) != 1 and text != "->":
            after_punct = after_word = True
        else:
            after_punct = text[0] not in ">)}],"
            after_word = text[0] not in "<>(){}[],"
        if st.last_punct is not None:
            want: str | bool = after_punct if st.last_punct else after_word
        elif after_punct == after_word:
            want = after_punct
        else:
            want = "last_punct" if after_punct else "not last_punct"
        prefix = " " if self._separator(depth, want) else ""
        self._emit(depth, f"parts.append({prefix + text!r})")
        self._set(
            not (len(text) == 1 and text in "<({["), not (text[0].isalpha() or text[0] == "_")
        )

    def item(self, expr: str, depth: int, nonempty: bool = False) -> None:
        """A piece that may be empty (then nothing changes), unless ``nonempty``."""
        if nonempty:
            prefix = "' ' + " if self._separator(depth, True) else ""
            self._emit(depth, f"parts.append({prefix}{expr})")
            self._set(True, False)
            return
        self.sync(depth)
        before = self.state.copy()
        self._emit(depth, f"text = {expr}", "if text:")
        prefix = "' ' + " if self._separator(depth + 1, True) else ""
        self._emit(depth + 1, f"parts.append({prefix}text)")
        self._set(True, False)
        self.sync(depth + 1)
        self.state.merge(before)

    # -- where operand and result groups are -----------------------------------------------------
    def group(self, name: str, results: bool = False) -> str:
        """An expression for the values of group ``name`` (as ``group_operands`` finds them)."""
        spec = self.spec
        if not results and spec.segmented:
            if "groups = spec.group_operands(op)" not in self.head:
                self.head.append("groups = spec.group_operands(op)")
            return f"groups[{name!r}]"
        groups = spec.results if results else spec.operands
        values = "op.results" if results else "op.operands"
        singles = spec.single_results if results else spec.single_operands
        rest = "rest_results" if results else "rest"
        start, flexible = 0, False  # the group starts at start (+ rest if after a flexible one)
        for g in groups:
            if g.name == name:
                begin = f"{start} + {rest}" if flexible else str(start)
                if g.kind == SINGLE:
                    return (
                        f"{values}[{begin}:{begin} + 1]"
                        if flexible
                        else (f"{values}[{start}:{start + 1}]")
                    )
                line = f"{rest} = len({values}) - {singles}"
                if line not in self.head:
                    self.head.append(line)
                return f"{values}[{begin}:{begin} + {rest}]"
            if g.kind == SINGLE:
                start += 1
            else:
                flexible = True
                line = f"{rest} = len({values}) - {singles}"
                if line not in self.head:
                    self.head.append(line)
        raise Unsupported(name)

    def single(self, name: str, results: bool = False) -> tuple[str, int] | None:
        """``(values, index)`` when group ``name`` is one value at a fixed index (no flexible
        group before it, no segments): the printer reads it without a slice and a join."""
        spec = self.spec
        if not results and spec.segmented:
            return None
        start = 0
        for g in spec.results if results else spec.operands:
            if g.kind != SINGLE:
                return None
            if g.name == name:
                return ("op.results" if results else "op.operands"), start
            start += 1
        return None

    # -- format elements -------------------------------------------------------------------------
    def element(self, el: Any, depth: int) -> None:
        spec = self.spec
        if isinstance(el, Lit):
            self.literal(el.text, depth)
        elif isinstance(el, Var):
            role = spec.roles.get(el.name, "attr")
            if role == "operand":
                one = self.single(el.name)
                if one is not None:  # what the join of its one-value slice gives
                    values, i = one
                    self.item(
                        f"(names.get(id(v := {values}[{i}])) or value(v)) "
                        f"if len({values}) > {i} else ''",
                        depth,
                    )
                    return
                self.item(
                    f"', '.join([names.get(id(v)) or value(v) for v in {self.group(el.name)}])",
                    depth,
                )
            elif role == "region":
                index = spec.regions.index(el.name)
                self.item(f"pr.region(op.regions[{index}])", depth)
            else:
                d = spec.attr_def(el.name)
                show = self._const("show_", d.kind.show if d is not None and d.kind.show else str)
                self.item(
                    f"{show}(a) if (a := op.attributes.get({el.name!r})) is not None else ''", depth
                )
        elif isinstance(el, TypeOf):
            role = spec.roles.get(el.target, el.target)
            if role == "results":
                values = "op.results"
            elif role == "operands":
                values = "op.operands"
            else:
                one = self.single(el.target, results=role == "result")
                if one is not None:  # what the join of its one-value slice gives
                    values, i = one
                    self.item(f"str({values}[{i}].type) if len({values}) > {i} else ''", depth)
                    return
                values = self.group(el.target, results=role == "result")
            self.item(f"', '.join([str(v.type) for v in {values}])", depth)
        elif isinstance(el, AttrDict):
            shown = self._const("SHOWN_", self.shown)
            opener = "'attributes ' + " if el.keyword else ""
            self.item(
                f"{opener}pr.attr_dict(op, elided_attrs(spec, op, elements)) "
                f"if (attrs := op.attributes) and not attrs.keys() <= {shown} else ''",
                depth,
            ) if not el.keyword else self._keyword_dict(shown, depth)
        elif isinstance(el, AllOperands):
            self.item("', '.join([names.get(id(v)) or value(v) for v in op.operands])", depth)
        elif isinstance(el, FunctionalType):
            self._emit(
                depth,
                "outs = [str(v.type) for v in op.results]",
                "res = outs[0] if len(outs) == 1 else '(' + ', '.join(outs) + ')'",
            )
            self.item(
                "'(' + ', '.join([str(v.type) for v in op.operands]) + ') -> ' + res",
                depth,
                nonempty=True,
            )
        elif isinstance(el, Custom) and el.name == "DynamicIndexList":
            self._emit(
                depth,
                f"dyn = iter({self.group(el.args[0])})",
                f"static = op.attributes[{el.args[1]!r}]",
                "items = [value(next(dyn)) if s == DYNAMIC_INDEX else str(s) for s in static]",
            )
            self.literal("", depth)
            self.item("'[' + ', '.join(items) + ']'", depth, nonempty=True)
        elif isinstance(el, Group):
            self.sync(depth)
            before = self.state.copy()
            self._emit(depth, f"if {self.printed(el.elements)}:")
            n = len(self.lines)
            for sub in el.elements:
                self.element(sub, depth + 1)
            self.sync(depth + 1)
            if len(self.lines) == n:
                self._emit(depth + 1, "pass")
            self.state.merge(before)
        else:
            raise Unsupported(type(el).__name__)

    def _keyword_dict(self, shown: str, depth: int) -> None:
        self.item(
            "'attributes ' + d if (attrs := op.attributes) and not attrs.keys() <= "
            f"{shown} and (d := pr.attr_dict(op, elided_attrs(spec, op, elements))) else ''",
            depth,
        )

    def printed(self, elements: tuple[Any, ...]) -> str:
        """When an optional group is printed: as ``format._group_printed`` decides."""
        spec = self.spec
        anchor = next((el for el in elements if isinstance(el, Var) and el.anchor), None)
        if anchor is None:
            anchor = next((el for el in elements if isinstance(el, Var)), None)
        if anchor is None:
            return "False"
        role = spec.roles.get(anchor.name, "attr")
        if role == "operand":
            return f"{self.group(anchor.name)}"
        if role == "region":
            return "op.regions"
        d = spec.attr_def(anchor.name)
        got = f"(a := op.attributes.get({anchor.name!r})) is not None"
        if d is None or d.default is None:
            return got
        return f"{got} and not a == {self._const('default_', d.default)}"

    def source(self) -> str:
        # An operand's name is pr.value(v): looked up here, pr.value makes the fallback.
        head = ["def print_op(pr, op):", "    value, names = pr.value, pr.names", "    parts = []"]
        head += ["    " + line for line in self.head]
        if any("space" in line for line in self.lines):
            head.append("    space = True")
        if any("last_punct" in line for line in self.lines):
            head.append("    last_punct = False")
        return "\n".join(head + self.lines + ["    return ''.join(parts)", ""])
