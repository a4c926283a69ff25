"""The operation layer of the grammar: SSA names, ops (custom and generic), regions, modules.

``parse_module(text, file)`` is the entry point. Each op is read through its ``OpSpec``: a
custom parser hook or its interpreted assembly format, or the generic
``"d.op"(%a) <{props}> ({regions}) {attrs} : (types) -> types`` form that every op accepts.
"""

from __future__ import annotations

import re
from typing import Any

from frontend.attributes import Attribute, DictAttr
from frontend.errors import MLIRError, Source, VerifyError, locate
from frontend.fastpath import HEAD, SPACE, FastOp, compile_fast_path
from frontend.format import ParseState, compile_format, parse_format
from frontend.ir import Block, Module, Operation, Region, Value, gc_paused, make_op
from frontend.lexer import BLOCK_ID, SSA_ID
from frontend.ops import lookup
from frontend.ops.spec import SINGLE, OpSpec, segments_attr
from frontend.parse_attrs import AttrParser
from frontend.types import FunctionType, Type, VectorType

# Ops that may be written without their dialect prefix, as MLIR's default dialects allow.
_DEFAULT_DIALECT = {"return": "func.return", "call": "func.call", "module": "builtin.module"}


class _Scope:
    __slots__ = ("isolated", "names")

    def __init__(self, isolated: bool) -> None:
        self.names: dict[str, Value | list[Value]] = {}
        self.isolated = isolated


class Parser(AttrParser):
    """Reads one MLIR source text into a ``Module``."""

    def __init__(self, text: str, file: str = "<input>") -> None:
        super().__init__(text, file)
        self.scopes: list[_Scope] = [_Scope(True)]
        self.source = Source(file, text)  # where the ops it makes were written
        # The default dialect of the region being read: inside a func.func's body a bare
        # `module` is `func.module`, which does not exist (as mlir-opt-22 says).
        self.in_func = [False]

    # -- SSA values ---------------------------------------------------------------------
    def parse_operand(self) -> Value:
        self.skip_ws()
        start = self.pos
        m = SSA_ID.match(self.text, start)
        if m is None:
            raise self.error(f"expected SSA operand, found {self.found()}")
        self.pos = m.end()
        return self.resolve(m.group(), start)

    def resolve(self, tok: str, start: int) -> Value:
        """The value an SSA use ``%name`` or ``%name#i`` (at offset ``start``) refers to."""
        found = self.scopes[-1].names.get(tok)
        if found.__class__ is Value:  # the common case: a plain name of this scope
            return found  # type: ignore[return-value]
        name, _, idx = tok.partition("#")
        for scope in reversed(self.scopes):
            found = scope.names.get(name)
            if found is not None:
                if isinstance(found, list):
                    i = int(idx or 0)
                    if i >= len(found):
                        raise self.error(f"result number {i} out of range for {name}", start)
                    return found[i]
                if idx and idx != "0":
                    raise self.error(f"{name} has a single result; '#{idx}' is out of range", start)
                return found
            if scope.isolated:
                break
        raise self.error(f"use of undeclared SSA value name '{name}'", start)

    def parse_operand_list(self, optional: bool = True) -> list[Value]:
        if not self.peek("%"):
            if optional:
                return []
            raise self.error(f"expected SSA operand, found {self.found()}")
        values = [self.parse_operand()]
        while self.peek(","):
            save = self.pos
            self.expect_punct(",")
            if not self.peek("%"):
                self.pos = save
                break
            values.append(self.parse_operand())
        return values

    def define(self, name: str, value: Value | list[Value], pos: int) -> None:
        scope = self.scopes[-1]
        if name in scope.names:
            raise self.error(f"redefinition of SSA value '{name}'", pos)
        scope.names[name] = value
        if isinstance(value, Value):
            value.name = name[1:]

    def parse_typed_arg(self) -> tuple[str, Type, int]:
        """``%name : type`` as in block and function argument lists."""
        self.skip_ws()
        pos = self.pos
        name = self.try_regex(SSA_ID)
        if name is None or "#" in name:
            raise self.error(f"expected SSA argument name, found {self.found()}")
        self.expect_punct(":", "after argument name")
        return name, self.parse_type(), pos

    # -- regions and blocks --------------------------------------------------------------
    def parse_region(
        self, entry_args: list[tuple[str, Type, int]] | None = None, isolated: bool = False
    ) -> Region:
        self.expect_punct("{", "to open region")
        self.scopes.append(_Scope(isolated))
        region = Region()
        try:
            if entry_args is not None or not (self.peek("^") or self.peek("}")):
                block = region.append(Block())
                for name, t, pos in entry_args or []:
                    self.define(name, block.add_arg(t), pos)
                self._parse_block_body(block)
            while self.peek("^"):
                region.append(self._parse_labeled_block())
            self.expect_punct("}", "to close region")
        finally:
            self.scopes.pop()
        return region

    def _parse_labeled_block(self) -> Block:
        self.skip_ws()
        label = self.try_regex(BLOCK_ID)
        block = Block(label=label[1:] if label else None)
        if self.try_punct("(") and not self.try_punct(")"):
            while True:
                name, t, pos = self.parse_typed_arg()
                self.define(name, block.add_arg(t), pos)
                if self.try_punct(")"):
                    break
                self.expect_punct(",", "or ')' in block arguments")
        self.expect_punct(":", "after block label")
        self._parse_block_body(block)
        return block

    def _parse_block_body(self, block: Block) -> None:
        ops, text, names = block.ops, self.text, self.scopes[-1].names
        head = None  # the next op's head, when the op before read it (see _parse_fast)
        while True:
            if head is None:
                head = self._head()
                if head is None:
                    if self.peek("}") or self.peek("^"):
                        return
                    if self.at_end():
                        raise self.error("expected '}' to close region, found end of input")
                    op = self.parse_operation()
                    op.parent = block
                    ops.append(op)
                    continue
            # _parse_fast, inline: this loop reads nearly every op of a program
            result, name, start, pos = head
            fasts = _FAST.get(name) if FAST_PATH else ()
            if fasts is None:
                fasts = _FAST[name] = _compile_fast(name)
            op = None
            for fast in fasts:
                m = fast.match(text, pos)
                if m is not None:
                    g = m.groups()
                    try:
                        op = fast.build(self, m, g, start, names, result)
                    except MLIRError:
                        break
                    end, head = m.end(), g[-3]
                    if head is None:
                        self.pos = end
                    else:
                        self.pos = start = end - len(head)
                        head = (g[-2], g[-1], start, end)
                    break
            if op is None:
                op = self.parse_operation(head, fast=False)
                head = None
            op.parent = block
            ops.append(op)

    # -- operations -----------------------------------------------------------------------
    # An op's head is `%x = dialect.op` or `dialect.op`, after whitespace and comments, as
    # (result name or None, op name, offset of the op, offset after the name).
    def _head(self) -> tuple[str | None, str, int, int] | None:
        m = _LINE.match(self.text, self.pos)
        if m is None:
            return None
        _, result, name = m.groups()
        return result, name, m.start(1), m.end()

    def parse_operation(
        self, head: tuple[str | None, str, int, int] | None = None, fast: bool = True
    ) -> Operation:
        """One op; ``head`` is its head if the caller has it, ``fast=False`` when the caller
        already tried ``_parse_fast`` on it."""
        if head is None:
            head = self._head()
        if head is not None:  # the common `%x = dialect.op` / `dialect.op`
            if fast and FAST_PATH:
                op = self._parse_fast(head)[0]
                if op is not None:
                    return op
            result, name, start, self.pos = head
            bindings = [(result, 1, start)] if result else []
            name_pos = self.pos - len(name)
        else:
            self.skip_ws()
            start = self.pos
            bindings = self._result_bindings()
            self.skip_ws()
            name_pos = self.pos
            name = None if self.peek('"') else self.try_regex(_OP_NAME)
            if name is None and not self.peek('"'):
                raise self.error(f"expected operation name, found {self.found()}")
        if name is None:
            op = self._parse_generic(start)
        else:
            spec = lookup(_DEFAULT_DIALECT.get(name, name))
            if name == "module" and self.in_func[-1]:
                raise self.error("custom op 'module' is unknown (tried 'func.module' as well)",
                                 name_pos)  # fmt: skip
            if spec is None:
                raise self.error(f"unknown operation '{name}'", name_pos)
            self.in_func.append(spec.name == "func.func" or (
                self.in_func[-1] and spec.name != "builtin.module"))  # fmt: skip
            try:
                op = self._parse_custom(spec, start)
            finally:
                self.in_func.pop()
        self._skip_location()
        self._bind_results(op, bindings, start)
        return op

    def _parse_fast(self, head: tuple[str | None, str, int, int]) -> tuple[Any, Any]:
        """(the op with this head, read by a ``FastOp``, the head of the op after it or
        None), or (None, None) when it has no FastOp or none fits: the general path then
        reads (or rejects) it. The cursor is left at the next op."""
        result, name, start, pos = head
        fasts = _FAST.get(name)
        if fasts is None:
            fasts = _FAST[name] = _compile_fast(name)
        for fast in fasts:
            m = fast.match(self.text, pos)
            if m is not None:
                g = m.groups()
                try:
                    op = fast.build(self, m, g, start, self.scopes[-1].names, result)
                except MLIRError:
                    return _NO_OP
                end = m.end()
                next_head = g[-3]  # the expression goes on to read it: see fastpath.END
                if next_head is None:
                    self.pos = end
                    return op, None
                self.pos = next_start = end - len(next_head)
                return op, (g[-2], g[-1], next_start, end)
        return _NO_OP

    def _result_bindings(self) -> list[tuple[str, int, int]]:
        if not self.peek("%"):
            return []
        out: list[tuple[str, int, int]] = []
        while True:
            self.skip_ws()
            pos = self.pos
            tok = self.try_regex(SSA_ID)
            if tok is None or "#" in tok:
                raise self.error(f"expected result name, found {self.found()}")
            count = 1
            if (
                self.text.startswith(":", self.pos)
                and self.text[self.pos + 1 : self.pos + 2].isdigit()
            ):
                self.pos += 1
                count = self.expect_int("result count")
                if count < 1:
                    raise self.error("expected a positive result count", pos)
            out.append((tok, count, pos))
            if not self.try_punct(","):
                break
        self.expect_punct("=", "after result names")
        return out

    def _bind_results(
        self, op: Operation, bindings: list[tuple[str, int, int]], start: int
    ) -> None:
        if not bindings:
            return
        if len(bindings) == 1 and bindings[0][1] == 1 and len(op.results) == 1:  # `%x = `
            name, _, pos = bindings[0]
            self.define(name, op.results[0], pos)  # which names the value too
            return
        wanted = sum(c for _, c, _ in bindings)
        if bindings and wanted != len(op.results):
            raise self.error(
                f"operation '{op.name}' defines {len(op.results)} results but "
                f"{wanted} names were given to bind",
                start,
            )
        i = 0
        for name, count, pos in bindings:
            vals = op.results[i : i + count]
            self.define(name, vals[0] if count == 1 else vals, pos)
            for j, v in enumerate(vals):
                v.name = name[1:] if count == 1 else f"{name[1:]}#{j}"
            i += count

    def _skip_location(self) -> None:
        if self.try_keyword("loc"):
            self.balanced("(", ")")

    def _parse_custom(self, spec: OpSpec, start: int) -> Operation:
        st = ParseState(spec, start)
        if spec.parse is not None:
            spec.parse(self, st)
            return self.build(st)
        if spec.format is None:
            raise self.error(f"'{spec.name}' has no custom syntax; use the generic form", start)
        if spec.compiled_format is None:
            spec.compiled_format = compile_format(spec.format)
        parse_format(self, spec, st, spec.compiled_format)
        return self.build(st)

    def build(self, st: ParseState) -> Operation:
        """Turn a filled ``ParseState`` into an op: operand order, types, defaults, results."""
        spec = st.spec
        given = st.operands
        sizes: list[int] | None = None
        if "*" in given:
            operands = given["*"]
        else:
            operands = []
            for o in spec.operands:
                operands += given.get(o.name, ())
            if spec.segmented:
                sizes = [len(given.get(o.name, ())) for o in spec.operands]
        for key, typed in st.operand_types.items():
            values = operands if key == "*" else given.get(key, ())
            if len(typed) != len(values):
                raise self.error(
                    f"{spec.name}: {len(values)} operands but {len(typed)} types given", st.start
                )
            for (pos, t), v in zip(typed, values):
                if t is not v.type and t != v.type:
                    raise self.error(
                        f"use of value '%{v.name}' expects different type than prior uses: "
                        f"{t} vs {v.type}",
                        pos,
                    )
        attrs = st.attrs
        if sizes is not None:
            attrs["operandSegmentSizes"] = segments_attr(sizes)
        for name, default in spec.defaults:
            if name not in attrs:
                attrs[name] = default
        op = make_op(spec, operands, attrs, self.source, st.start)  # the state is done with them
        if st.regions:
            op.regions = st.regions
            for r in op.regions:
                r.parent = op
        result_types = st.all_result_types
        if result_types is None:
            named = st.result_types
            if len(named) == len(spec.results):  # every result's type was written
                result_types = [t for r in spec.results for t in named[r.name]]
        if result_types is None:
            named = [st.result_types.get(r.name) for r in spec.results]
            if spec.infer is None:
                raise self.error(f"{spec.name}: result types are not given", st.start)
            try:
                result_types = spec.infer(op)
            except VerifyError:
                raise
            except (MLIRError, ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
                raise VerifyError(f"'{spec.name}' op {e}", op.loc) from None
            for i, stated in enumerate(named):
                if stated is not None and i < len(result_types) and stated[0] != result_types[i]:
                    raise VerifyError(
                        f"'{spec.name}' op result type {stated[0]} does not match the "
                        f"inferred type {result_types[i]}",
                        op.loc,
                    )
        op.results = [Value(t, op, i) for i, t in enumerate(result_types)]
        if spec.complete is not None:
            spec.complete(op)
        return op

    def _parse_generic(self, start: int) -> Operation:
        self.skip_ws()
        name_pos = self.pos
        name = self.expect_string("operation name")
        spec = lookup(name)
        if spec is None:
            raise self.error(f"unknown operation '{name}'", name_pos)
        self.expect_punct("(", "to open the operand list")
        operands = [] if self.peek(")") else self.parse_operand_list(optional=False)
        self.expect_punct(")", "to close the operand list")
        attrs: dict[str, Attribute] = {}
        if self.try_punct("<{"):
            self.pos -= 1
            attrs.update(self.parse_attr_dict().entries)
            self.expect_punct(">", "to close properties")
        regions: list[Region] = []
        if self.try_punct("("):
            while True:
                regions.append(self.parse_region(isolated=spec.has("isolated")))
                if not self.try_punct(","):
                    break
            self.expect_punct(")", "to close the region list")
        if self.peek("{"):
            attrs.update(self.parse_attr_dict().entries)
        self.expect_punct(":", "and the operation's function type")
        self.skip_ws()
        type_pos = self.pos
        ftype = self.parse_type()
        if not isinstance(ftype, FunctionType):
            raise self.error("expected a function type '(inputs) -> results'", type_pos)
        if len(ftype.inputs) != len(operands):
            raise self.error(
                f"'{name}' has {len(operands)} operands but its type lists {len(ftype.inputs)}",
                type_pos,
            )
        for v, t in zip(operands, ftype.inputs):
            if v.type != t:
                raise self.error(
                    f"use of value '%{v.name}' expects different type than prior uses: "
                    f"{t} vs {v.type}",
                    type_pos,
                )
        op = Operation(
            name, operands, list(ftype.results), attrs, regions, locate(self.file, self.text, start)
        )
        for d in spec.attrs:
            a = op.attributes.get(d.name)
            if a is None and d.custom_default:
                raise self.error(f"'{name}' op requires attribute '{d.name}'", start)
            if a is None and d.default is not None:
                op.attributes[d.name] = d.default
            elif a is not None and d.array_until and not d.kind.check(a):
                try:  # MLIR 19 spelled these dense arrays as `[1, 2]`
                    op.attributes[d.name] = d.kind.convert(a)
                except ValueError:
                    pass  # the verifier names the broken constraint
        if spec.needs_segments() and "operandSegmentSizes" not in op.attributes:
            raise self.error(f"'{name}' needs an operandSegmentSizes property", start)
        if spec.complete is not None:
            spec.complete(op)
        if spec.infer is not None:
            self._check_inferred(op, spec)
        return op

    def _check_inferred(self, op: Operation, spec: OpSpec) -> None:
        """A generic form states its result types: they must be the ones the op infers (as
        MLIR's InferTypeOpInterface checks); ops whose other rules fail are left to the
        verifier, which names the broken rule."""
        try:
            inferred = spec.infer(op)
        except (MLIRError, ValueError, KeyError, IndexError, TypeError, AttributeError):
            return
        stated = [r.type for r in op.results]
        same = (
            list(inferred) == stated
            if spec.infer_scalable
            else [_fixed(t) for t in inferred] == [_fixed(t) for t in stated]
        )
        if not same:
            raise VerifyError(
                f"'{spec.name}' op inferred type(s) {', '.join(map(str, inferred))} are "
                f"incompatible with return type(s) of operation {', '.join(map(str, stated))}",
                op.loc,
            )

    # -- top level --------------------------------------------------------------------------
    def parse_top_level(self) -> Module:
        ops: list[Operation] = []
        while not self.at_end():
            if self.peek("#") or self.peek("!"):
                self._parse_alias()
                continue
            ops.append(self.parse_operation())
        if len(ops) == 1 and ops[0].name == "builtin.module":
            mod_op = ops[0]
            module = Module([], dict(mod_op.attributes), source=self.file)
            sym = module.attributes.pop("sym_name", None)
            module.name = getattr(sym, "value", None)
            for op in mod_op.regions[0].blocks[0].ops if mod_op.regions[0].blocks else []:
                module.body.append(op)
            return module
        # Other ops beside a module: MLIR wraps them all in an implicit module, so the module
        # is nested (e.g. the one holding a transform script beside the functions).
        return Module(ops, source=self.file)

    def _parse_alias(self) -> None:
        self.skip_ws()
        start = self.pos
        is_type = self.text[self.pos] == "!"
        name = self.try_regex(_ALIAS)
        if name is None:
            raise self.error(f"expected alias definition, found {self.found()}")
        if not self.try_punct("="):
            raise self.error(f"expected '=' in alias definition of {name}")
        table: dict[str, Any] = self.type_aliases if is_type else self.attr_aliases
        if name in table:
            raise self.error(f"redefinition of alias {name}", start)
        table[name] = self.parse_type() if is_type else self.parse_attribute()


def _fixed(t: Any) -> Any:
    """A vector type with its scalable flags dropped: MLIR's ops that do not infer their
    result types (transpose, outerproduct) compare only the shapes."""
    return VectorType(t.shape, t.element) if isinstance(t, VectorType) and t.is_scalable else t


_OP_NAME = re.compile(r"[A-Za-z_][\w$]*(?:\.[\w$]+)*")
# Whitespace and comments, then `%x = dialect.op` or `dialect.op`: (head, %x, dialect.op).
_LINE = re.compile(SPACE + HEAD)
_ALIAS = re.compile(r"[#!][A-Za-z_][\w$.]*")


FAST_PATH = True  # try frontend.fastpath first (tests turn it off to compare both paths)
_NO_OP = (None, None)
_FAST: dict[str, tuple[FastOp, ...]] = {}  # op name as written -> its fast paths


def _compile_fast(name: str) -> tuple[FastOp, ...]:
    """The fast paths of an op: of its format, or of the ``fast_formats`` of a custom parser."""
    spec = lookup(_DEFAULT_DIALECT.get(name, name))
    if spec is None:
        return ()
    if spec.parse is None and spec.format is not None:
        if spec.compiled_format is None:
            spec.compiled_format = compile_format(spec.format)
        formats = [spec.compiled_format]
    else:
        formats = [compile_format(f) for f in spec.fast_formats]
    fasts = (compile_fast_path(spec, f) for f in formats)
    return tuple(f for f in fasts if f is not None)


def parse_module(text: str, file: str = "<input>") -> Module:
    """Parse MLIR text into a Module (not yet verified: see ``frontend.verifier``)."""
    parser = Parser(text, file)
    try:
        with gc_paused():
            return parser.parse_top_level()
    except RecursionError:
        raise parser.error("input nests too deeply", parser.pos) from None


def parse_dict(p: Parser) -> DictAttr:
    return p.parse_attr_dict()


__all__ = ["SINGLE", "Parser", "parse_module"]
