"""A fast path for the common shape of each op's custom syntax.

Most ops in real programs are one line of SSA names, simple types, integer lists and enum
keywords. For every op with a declarative format (and for the ``fast_formats`` of ops with
a custom parser) we compile one regular expression that matches exactly that shape: an
attr-dict with nested braces, a nested or aliased type, a region, a comment or a location
inside the op make it fail. The expression goes on to read the head of the next op
(``END``), so the parser needs one match per op.

Each op also gets a builder, a small Python function generated from the format (see
``FastOp.source``), that turns the match into the ``Operation`` in one go: operands are
looked up by name, types and attributes come from caches keyed by their spelling (both are
immutable values), and anything unusual (a value from an outer scope, a ``%x#1`` use, a
spelling not seen before) is read with the sub-parsers the general path uses, so both paths
build the same op. When the expression does not match, or anything is off (an undefined
value, a piece that does not read back exactly, a type error), the builder raises and the op
is parsed again by the general path, which reports the error. ``tests/test_frontend_fastpaths``
compares the two.
"""

from __future__ import annotations

import re
from typing import Any

from frontend.attributes import DictAttr
from frontend.errors import MLIRError, VerifyError
from frontend.format import (
    CUSTOM_PARSERS,
    RESULT_BINDING,
    AllOperands,
    AttrDict,
    Custom,
    Group,
    Lit,
    ParseState,
    TypeOf,
    Var,
)
from frontend.ir import Value, make_op
from frontend.ops.spec import SINGLE, OpSpec, segments_attr
from frontend.parse_types import TYPE_CACHE
from frontend.types import Type

# Whitespace between tokens (possessive: no token starts with a space, so it never gives any
# back; that spares the expression engine the bookkeeping).
WS = r"[ \t\n\r\f\v]*+"
# Operands and types are looked up by the text they match, so that text must be what the
# general path reads there: whole names and words (the lookaheads), not a prefix of one.
# Names are matched as ASCII (cheaper): a name with other letters fails the lookahead, and
# the general path reads it.
OPERAND = r"%(?:[0-9]++|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*+)(?:#[0-9]++)?(?![\w$.\-#])"
OPERANDS = rf"(?:{OPERAND}(?:{WS},{WS}{OPERAND})*)?"
TYPE = r"(?:(?:vector|memref|tensor)<[^<>()!#]*>|[a-z][a-z0-9]*(?![\w$.]))"
BINDING = RESULT_BINDING.pattern  # `%x = `: what the general path takes for one
# Whitespace and comments (possessive: never back into a comment).
SPACE = r"[ \t\n\r\f\v]*+(?://[^\n]*+[ \t\n\r\f\v]*+)*+"
# The head of an op, `%x = dialect.op` or `dialect.op`, in three groups (head, %x, dialect.op);
# ASCII_HEAD matches the same, or nothing for names with other letters.
HEAD = r"((?:(%(?:\d+|[A-Za-z_$.\-][\w$.\-]*))[ \t]*=[ \t]*)?([A-Za-z_][\w$]*(?:\.[\w$]+)*))"
ASCII_HEAD = (
    r"((?:(%(?:[0-9]++|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*+))[ \t]*=[ \t]*)?"
    r"([A-Za-z_][A-Za-z0-9_$]*+(?:\.[A-Za-z0-9_$]++)*+)(?![\w$]|\.[\w$]))"
)
# The op ends here (no attr-dict follows), and nothing the general path would still read
# follows, not even on a later line: a `loc(...)`, a `, more` continuing a list of types or
# operands. The expression then goes on to read the head of the next op, if there is one:
# the parser does not need a match of its own to find it (one match per op, not two).
END = rf"(?=[ \t]*(?:\n|\}}|//|$)){SPACE}(?!loc|,)(?:{ASCII_HEAD})?"

# Spellings read before (by any parser) and what they denote. Only text that cannot hold an
# alias is cached (types and index lists never match with '#' or '!', see _dict_at for
# attr-dicts), so a spelling means the same in every file.
TYPE_LISTS: dict[str, tuple[Type, ...]] = {}
ATTR_DICTS: dict[str, tuple[tuple[str, Any], ...]] = {}
INDEX_LISTS: dict[str, Any] = {}
CACHE_LIMIT = 4096  # entries per cache: a program has few spellings, a process may see many


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


class Unsupported(Exception):
    """The format has an element the fast path does not cover: use the general path."""


class Mismatch(MLIRError):
    """The fast path cannot build this op; the general path will parse (and report) it."""


class FastOp:
    """One op's compiled expression and its generated builder.

    ``build(p, m, g, start, names, result)`` makes the op from the match ``m`` of ``regex``
    at the text after the op name (``g`` its groups, ``start`` where the op begins, ``names``
    the innermost scope's SSA names) and binds its result to ``result`` (``%x``, or None); it
    raises an ``MLIRError`` when the general path must take over. The last three groups are
    the next op's head (see ``END``).
    """

    __slots__ = ("build", "match", "regex", "source")

    def __init__(self, spec: OpSpec, elements: list[Any]) -> None:
        gen = _Generator(spec)
        pattern = "".join(gen.element(el) for el in elements) + END
        self.regex = re.compile(pattern)
        self.match = self.regex.match
        self.source = gen.source()
        namespace = dict(gen.env)
        exec(compile(self.source, f"<fast path of {spec.name}>", "exec"), namespace)
        self.build = namespace["build"]


def compile_fast_path(spec: OpSpec, elements: list[Any]) -> FastOp | None:
    try:
        return FastOp(spec, elements)
    except Unsupported:
        return None


# -- code generation ------------------------------------------------------------------------
class _Generator:
    """Walks a format once, producing the expression (one capture group per variable part)
    and the builder's code: ``fill`` reads operands and attributes in format order, ``check``
    compares written operand types with the values' types."""

    def __init__(self, spec: OpSpec) -> None:
        self.spec = spec
        self.groups = 0
        self.optional = 0  # nesting depth of optional groups
        self.fill: list[str] = []
        self.check: list[str] = []
        self.operands: dict[str, tuple[str, bool]] = {}  # operand (or "*") -> (var, is list)
        self.results: dict[str, tuple[str, bool]] = {}  # result (or "*") -> (var, is list)
        self.env: dict[str, Any] = {
            "Value": Value,
            "Mismatch": Mismatch,
            "MLIRError": MLIRError,
            "make_op": make_op,
            "segments": _segments,
            "TYPES": TYPE_CACHE,
            "type_at": _type_at,
            "types_at": _types_at,
            "operand_list": _operand_list,
            "same_types": _same_types,
            "attr_at": _attr_at,
            "dict_at": _dict_at,
            "infer": _infer,
            "spec": spec,
        }

    def _group(self) -> int:
        self.groups += 1
        return self.groups

    def _const(self, prefix: str, value: Any) -> str:
        name = f"{prefix}{len(self.env)}"
        self.env[name] = value
        return name

    # -- format elements: each returns its piece of the expression ---------------------------
    def element(self, el: Any) -> str:
        spec = self.spec
        if isinstance(el, Lit):
            if not el.text:
                return ""
            word = el.text[0].isalpha() or el.text[0] == "_"
            return WS + re.escape(el.text) + (r"(?![\w$.])" if word else "")
        if isinstance(el, AttrDict):  # present only if flat: `{a = [1], b}`
            i = self._group()
            self.fill.append(f"if g[{i - 1}] is not None: attrs.update(dict_at(p, m, {i}))")
            # Absent only if the general path would not read one (a nested one: it does).
            opener = r"attributes(?![\w$.])" if el.keyword else r"\{"
            if el.keyword:
                return rf"(?:{WS}{opener}{WS}(\{{[^{{}}]*\}})|(?!{SPACE}{opener}))"
            return rf"(?:{WS}(\{{[^{{}}]*\}}))?(?!{SPACE}\{{)"
        if isinstance(el, AllOperands):
            i = self._group()
            self.fill.append(f"o_all = operand_list(p, names, g[{i - 1}], start)")
            self.operands["*"] = ("o_all", True)
            return rf"{WS}({OPERANDS})"
        if isinstance(el, Var):
            return self._var(el.name)
        if isinstance(el, TypeOf):
            return self._types(el.target)
        if isinstance(el, Custom) and el.name == "DynamicIndexList":
            i = self._group()
            dyn, static = el.args[0], el.args[1]
            var = f"o_{len(self.operands)}"
            self.operands[dyn] = (var, True)
            custom = self._const("CUSTOM", (el, spec))
            self.fill.append(f"{var}, attrs[{static!r}] = index_list(p, m, {i}, {custom})")
            self.env["index_list"] = _index_list
            return rf"{WS}(\[[^\[\]]*\])"
        if isinstance(el, Group):
            # Present when the general path finds its first element (format._presence): then
            # it must match; absent when that is not there.
            lead = next(e for e in el.elements if not (isinstance(e, Lit) and not e.text))
            if isinstance(lead, Var) and spec.roles.get(lead.name) == "operand":
                binding = f"{SPACE}{BINDING}"  # the next op's `%x = `, not an operand
                guard, absent = f"(?!{binding})", f"(?={binding})|(?!{SPACE}%)"
            elif isinstance(lead, Lit):
                guard, absent = "", f"(?!{SPACE}{self.element(lead)[len(WS) :]})"
            else:
                raise Unsupported(type(lead).__name__)
            self.optional += 1
            inner = "".join(self.element(e) for e in el.elements)
            self.optional -= 1
            return f"(?:{guard}{inner}|{absent})"
        raise Unsupported(type(el).__name__)

    def _var(self, name: str) -> str:
        spec = self.spec
        role = spec.roles.get(name, "attr")
        if role == "operand":
            i = self._group()
            var = f"o_{len(self.operands)}"
            if spec.operand_kinds[name] == SINGLE:
                if self.optional:
                    raise Unsupported(name)  # a single operand that may be left out
                self.operands[name] = (var, False)
                self.fill.append(f"{var} = names.get(g[{i - 1}])")
                self.fill.append(f"if {var}.__class__ is not Value:")
                self.fill.append(f"    {var} = p.resolve(g[{i - 1}], start)")
                return rf"{WS}({OPERAND})"
            self.operands[name] = (var, True)
            self.fill.append(f"{var} = operand_list(p, names, g[{i - 1}], start)")
            return rf"{WS}({OPERANDS})"
        d = spec.attr_def(name)
        if role != "attr" or d is None or d.kind.pattern is None:
            raise Unsupported(name)
        i = self._group()
        cache: dict[str, Any] = {}  # the attribute of each spelling read before
        kind = self._const("KIND", (d.kind, name, cache))
        seen = self._const("SEEN", cache)
        self.fill += [
            f"if g[{i - 1}] is not None:",
            f"    a = {seen}.get(g[{i - 1}])",
            f"    attrs[{name!r}] = a if a is not None else attr_at(p, m, {i}, {kind})",
        ]
        return rf"{WS}({d.kind.pattern})"

    def _types(self, target: str) -> str:
        spec = self.spec
        i = self._group()
        role = spec.roles.get(target, target)
        if role in ("result", "results"):
            if self.optional:
                raise Unsupported(target)  # a result type that may be left out
            many = role == "results" or spec.result_kinds[target] != SINGLE
            var = f"r_{len(self.results)}"
            self.results["*" if role == "results" else target] = (var, many)
            if many:
                self.check.append(f"{var} = types_at(p, m, {i})")
                return rf"{WS}({TYPE}(?:{WS},{WS}{TYPE})*)"
            self.check.append(f"{var} = TYPES.get(g[{i - 1}])")
            self.check.append(f"if {var} is None: {var} = type_at(p, m, {i})")
            return rf"{WS}({TYPE})"
        key = "*" if role == "operands" else target
        if key not in self.operands:
            raise Unsupported(target)  # a type written before (or without) its operand
        var = self.operands[key][0]
        guard = f"if g[{i - 1}] is not None: " if self.optional else ""
        if role == "operand" and spec.operand_kinds[target] == SINGLE:
            if self.optional:
                raise Unsupported(target)
            self.check.append(f"t = TYPES.get(g[{i - 1}])")
            self.check.append(f"if t is None: t = type_at(p, m, {i})")
            self.check.append(f"if t is not {var}.type and t != {var}.type: raise Mismatch('')")
            return rf"{WS}({TYPE})"
        self.check.append(f"{guard}same_types(types_at(p, m, {i}), {var})")
        return rf"{WS}((?:{TYPE}(?:{WS},{WS}{TYPE})*)?)"

    # -- the builder -------------------------------------------------------------------------
    def source(self) -> str:
        spec = self.spec
        body = ["attrs = {}", *self.fill, *self.check]
        # Operands in the spec's order (a group the format does not mention is empty).
        if "*" in self.operands:
            body.append("operands = o_all")
        else:
            pieces = []
            for o in spec.operands:
                var, is_list = self.operands.get(o.name, ("()", True))
                pieces.append(f"*{var}" if is_list else var)
            body.append(f"operands = [{', '.join(pieces)}]")
            if spec.segmented:
                sizes = []
                for o in spec.operands:
                    var, is_list = self.operands.get(o.name, ("()", True))
                    sizes.append(f"len({var})" if is_list else "1")
                body.append(f"attrs['operandSegmentSizes'] = segments(({', '.join(sizes)},))")
        for k, (name, _) in enumerate(spec.defaults):
            body.append(f"if {name!r} not in attrs: attrs[{name!r}] = DEFAULT{k}")
            self.env[f"DEFAULT{k}"] = spec.defaults[k][1]
        body.append("op = make_op(spec, operands, attrs, p.source, start)")
        body += self._result_code()
        if spec.complete is not None:
            self.env["complete"] = spec.complete
            body.append("complete(op)")
        # Bind `%x = ` as Parser._bind_results does (the general path reports a wrong count).
        one = spec.results[0].name if len(spec.results) == 1 else None
        if one in self.results and not self.results[one][1]:  # exactly one result, written
            body += [
                "if result is not None:",
                "    if result in names: raise Mismatch('')",
                "    value = names[result] = op.results[0]",
                "    value.name = result[1:]",
            ]
        elif not spec.results:
            body.append("if result is not None: raise Mismatch('')")
        else:  # how many results the type rule gave is only known now
            body += [
                "if result is not None:",
                "    if len(op.results) != 1 or result in names: raise Mismatch('')",
                "    value = names[result] = op.results[0]",
                "    value.name = result[1:]",
            ]
        body.append("return op")
        return "def build(p, m, g, start, names, result):\n" + "".join(
            f"    {line}\n" for line in body
        )

    def _result_code(self) -> list[str]:
        spec, results = self.spec, self.results
        if "*" in results:
            return [f"op.results = [Value(t, op, i) for i, t in enumerate({results['*'][0]})]"]
        if not spec.results:
            return []
        if all(r.name in results for r in spec.results):  # every result's type is written
            if all(not results[r.name][1] for r in spec.results):
                made = [f"Value({results[r.name][0]}, op, {i})" for i, r in enumerate(spec.results)]
                return [f"op.results = [{', '.join(made)}]"]
            types = ", ".join(
                f"*{results[r.name][0]}" if results[r.name][1] else results[r.name][0]
                for r in spec.results
            )
            return [f"op.results = [Value(t, op, i) for i, t in enumerate([{types}])]"]
        if spec.infer is None:
            raise Unsupported("result types are neither written nor inferred")
        stated = []
        for r in spec.results:
            var, many = results.get(r.name, ("None", True))
            stated.append(var if many else f"[{var}]")
        if any(s != "None" for s in stated):
            return [f"op.results = infer(op, [{', '.join(stated)}])"]
        self.env["infer_types"] = spec.infer
        return [  # the spec's type rule; anything it raises sends the op to the general path
            "try:",
            "    types = infer_types(op)",
            "except (MLIRError, ValueError, KeyError, IndexError, TypeError, AttributeError):",
            "    raise Mismatch('') from None",
            "op.results = [Value(t, op, i) for i, t in enumerate(types)]",
        ]


# -- what the builders call -------------------------------------------------------------------
def _type_at(p: Any, m: re.Match[str], group: int) -> Type:
    """The type spelled by capture ``group``, read by ``parse_type`` (then cached)."""
    start, end = m.span(group)
    p.pos = start
    t = p.parse_type()
    if p.pos != end:
        raise Mismatch("type does not read back exactly")
    TYPE_CACHE[m.string[start:end]] = t
    return t


def _types_at(p: Any, m: re.Match[str], group: int) -> tuple[Type, ...]:
    """Each type of the comma-separated list in capture ``group`` (then cached)."""
    text = m.group(group)
    types = TYPE_LISTS.get(text)
    if types is not None:
        return types
    start, end = m.span(group)
    out: list[Type] = []
    p.pos = start
    while p.pos < end:
        if out and not p.try_punct(","):
            raise Mismatch("type list does not read back exactly")
        out.append(p.parse_type())
    if p.pos != end:
        raise Mismatch("type list does not read back exactly")
    types = _remember(TYPE_LISTS, text, tuple(out))
    return types


def _same_types(types: tuple[Type, ...], values: list[Value]) -> None:
    if len(types) != len(values):
        raise Mismatch("operand and type counts differ")
    for t, v in zip(types, values, strict=True):
        if t is not v.type and t != v.type:
            raise Mismatch("operand type differs")


def _operand_list(p: Any, names: dict[str, Any], text: str | None, start: int) -> list[Value]:
    if not text:
        return []
    out = []
    for tok in text.split(","):
        tok = tok.strip(" \t\n\r\f\v")
        v = names.get(tok)
        out.append(v if v.__class__ is Value else p.resolve(tok, start))
    return out


def _attr_at(p: Any, m: re.Match[str], group: int, entry: tuple[Any, str, dict]) -> Any:
    """The attribute in capture ``group``, by the kind's parser (cached by spelling)."""
    kind, name, cache = entry
    text = m.group(group)
    a = cache.get(text)
    if a is None:
        p.pos = m.start(group)
        a = kind.parse(p) if kind.parse is not None else p.parse_attribute()
        if p.pos != m.end(group) or not kind.check(a):
            raise Mismatch(f"'{name}' does not read back exactly")
        _remember(cache, text, a)
    return a


def _dict_at(p: Any, m: re.Match[str], group: int) -> tuple[tuple[str, Any], ...]:
    text = m.group(group)
    entries = ATTR_DICTS.get(text)
    if entries is None:
        p.pos = m.start(group)
        d: DictAttr = p.parse_attr_dict()
        if p.pos != m.end(group):
            raise Mismatch("attribute dictionary does not read back exactly")
        entries = d.entries
        if not ("#" in text or "!" in text or '"' in text):  # no alias can be in it
            _remember(ATTR_DICTS, text, entries)
    return entries


def _index_list(p: Any, m: re.Match[str], group: int, entry: tuple[Custom, OpSpec]) -> Any:
    """``[2, %i, 0]`` of a DynamicIndexList: (dynamic operands, static positions)."""
    el, spec = entry
    text = m.group(group)
    static = INDEX_LISTS.get(text)
    if static is not None:
        return [], static
    st = ParseState(spec, 0)
    p.pos = m.start(group)
    CUSTOM_PARSERS[el.name](p, spec, st, el.args)
    if p.pos != m.end(group):
        raise Mismatch("custom directive does not read back exactly")
    dynamic, static = st.operands[el.args[0]], st.attrs[el.args[1]]
    if not dynamic:
        _remember(INDEX_LISTS, text, static)
    return dynamic, static


def _segments(sizes: tuple[int, ...]) -> Any:
    attr = _SEGMENTS.get(sizes)
    if attr is None:
        attr = _remember(_SEGMENTS, sizes, segments_attr(list(sizes)))
    return attr


_SEGMENTS: dict[tuple[int, ...], Any] = {}  # operandSegmentSizes by value (attrs are immutable)


def _infer(op: Any, stated: list[list[Type] | None]) -> list[Value]:
    """Result values from the spec's type rule, checked against any types that were written."""
    spec = op.spec
    if spec.infer is None:
        raise Mismatch("result types are not given")
    try:
        types = spec.infer(op)
    except MLIRError:
        raise
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
        raise VerifyError(f"'{spec.name}' op {e}", op.loc) from None
    for i, written in enumerate(stated):
        if written is not None and i < len(types) and written[0] != types[i]:
            raise Mismatch("result type differs from the inferred one")
    return [Value(t, op, i) for i, t in enumerate(types)]
