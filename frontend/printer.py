"""Writing IR back as MLIR text, in each op's custom syntax or in the generic form.

Value names are assigned as MLIR does: ``%0, %1, ...`` for results and ``%argN`` for block
arguments, numbered afresh inside each isolated region (each function). Attribute
dictionaries are sorted by name, as MLIR's ``DictionaryAttr`` is, and ``func.``-ops inside a
function drop their dialect prefix (``return``). Printing then parsing gives the same IR, and
printing is a fixed point. ``version`` selects the generic spelling of attributes whose
storage changed between MLIR releases (``array_until`` in the op table).
"""

from __future__ import annotations

from typing import Any, TextIO

from frontend.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    IntegerAttr,
    format_entry,
    format_symbol,
)
from frontend.fastprint import CompiledPrinter, compile_printer
from frontend.format import compile_format, print_format
from frontend.ir import Block, Module, Operation, Region, Value, gc_paused, use_printer
from frontend.ops.spec import VERBATIM, OpSpec
from frontend.print_templates import Templates


_CHUNK = 1 << 20  # characters copied at a time from a body printed ahead
_SPLICE = "\x00"  # brackets the index of a body printed ahead in ``write_module``'s text


class PrintedBody:
    """The lines of a function body printed while it was being built, as ``print_module``
    would print them: ``print_module(..., ready=...)`` uses them as long as the body still
    holds exactly the ops printed, none of them with regions (which a later pass could change
    in place). Why: ``eqsat.optimizer`` builds a long body window by window, and printing each
    window as it is made lets a second process's work overlap the printing instead of it all
    waiting for the last window. The text goes to a temporary file as it is printed: held in
    memory it would count against the memory budget while the later windows are optimized
    (217 MB at 100,000 ops)."""

    def __init__(self, block: Block) -> None:
        import tempfile

        self.block = block
        self.ops: list[Operation] = []
        # (surrogateescape: a string attribute's non-UTF-8 bytes come back as they went)
        self.spool = tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogateescape",
                                            newline="")  # fmt: skip
        self.valid = True  # False once an op with regions was given
        p = self.printer = Printer()
        p.indent = 2  # in the module, in the function (see ``_print_func`` and ``region``)
        p.push_isolated()
        for a in block.args:
            p.name_arg(a)

    def add(self, ops: list[Operation], keys: dict[int, tuple[Any, ...]] | None = None) -> None:
        """Print ``ops``, the next ops of the body (they must know their function: the body's
        block must sit in its ``func.func`` already). ``keys``: their signatures, by id of op,
        as ``frontend.verifier.verify_ops`` computed them just before (unchanged since), so
        that each op's is computed once."""
        if not self.valid or not ops:
            return
        if any(op.regions for op in ops):
            self.valid = False
            return
        p = self.printer
        p.templates.known = keys
        try:
            with gc_paused():
                lines = ([p.op(op) for op in ops] if keys is None
                         else p.templates.lines(p, ops, keys))  # fmt: skip
                self.spool.write("\n".join(lines) + "\n")
        finally:
            p.templates.known = None
        self.ops.extend(ops)

    def text(self) -> str:
        """The lines printed, joined by newlines ("" for none)."""
        self.spool.seek(0)
        return self.spool.read()[:-1]

    def copy_to(self, out: TextIO) -> None:
        """Write ``text()`` to ``out`` a chunk at a time: never the whole text in memory
        (at 100,000 input ops it is 217 MB, and each copy of a string that size took a
        tenth of a second or more)."""
        self.spool.seek(0)
        held = ""  # the last character read: the final newline, which ``text()`` drops
        while chunk := self.spool.read(_CHUNK):
            out.write(held + chunk[:-1])
            held = chunk[-1]

    def matches(self, block: Block) -> bool:
        """Whether the lines are still ``block``'s ops printed."""
        return (
            self.valid
            and block is self.block
            and len(block.ops) == len(self.ops)
            and all(a is b for a, b in zip(block.ops, self.ops))
        )


class Printer:
    def __init__(
        self,
        generic: bool = False,
        version: int = 22,
        ready: dict[int, PrintedBody] | None = None,
    ) -> None:
        self.generic = generic
        self.version = version
        self.names: dict[int, str] = {}
        self.counters: list[list[int]] = [[0, 0]]  # [next result, next arg] per isolated scope
        self.indent = 0
        self.templates = Templates()  # ops printed by signature (``frontend.print_templates``)
        # bodies printed ahead (``PrintedBody``), by id of their block; only the default form
        self.ready = ready if ready and not generic and version == 22 else {}
        # with a list (``write_module``), a ready body's text is left out, a marker in its
        # place, and the body appended here
        self.spliced: list[PrintedBody] | None = None

    # -- names --------------------------------------------------------------------------
    def value(self, v: Value) -> str:
        name = self.names.get(id(v))
        if name is None:
            return f"%<<unknown {v.name}>>"
        return name

    def _name_results(self, op: Operation) -> str:
        if not op.results:
            return ""
        c = self.counters[-1]
        base = f"%{c[0]}"
        c[0] += 1
        if len(op.results) == 1:
            self.names[id(op.results[0])] = base
            return f"{base} = "
        for i, r in enumerate(op.results):
            self.names[id(r)] = f"{base}#{i}"
        return f"{base}:{len(op.results)} = "

    def name_arg(self, v: Value) -> str:
        c = self.counters[-1]
        name = f"%arg{c[1]}"
        c[1] += 1
        self.names[id(v)] = name
        return name

    def push_isolated(self) -> None:
        self.counters.append([0, 0])

    def pop_isolated(self) -> None:
        self.counters.pop()

    # -- pieces ---------------------------------------------------------------------------
    def attr_dict(self, op: Operation, elided: set[str] | frozenset[str] = frozenset()) -> str:
        items = [format_entry(k, v) for k, v in sorted(op.attributes.items()) if k not in elided]
        return "{" + ", ".join(items) + "}" if items else ""

    def typed_args(self, args: list[Value]) -> str:
        return ", ".join(f"{self.name_arg(a)}: {a.type}" for a in args)

    def region(self, region: Region, entry_args: bool = True, skip_terminator: bool = False) -> str:
        """``{ ... }`` with blocks; the entry block's label is omitted when it has no args
        or when the op's own syntax already named them (``entry_args=False``)."""
        if not region.blocks:
            return "{\n" + "  " * self.indent + "}"
        self.indent += 1
        lines: list[str] = []
        for i, block in enumerate(region.blocks):
            show_label = i > 0 or (entry_args and (block.args or self.generic))
            if show_label:
                args = f"({self.typed_args(block.args)})" if block.args else ""
                lines.append("  " * (self.indent - 1) + f"^bb{i}{args}:")
            ops = block.ops
            if skip_terminator and ops and i == len(region.blocks) - 1:
                term = ops[-1]
                if not term.operands and term.spec is not None and term.spec.has("terminator"):
                    ops = ops[:-1]
            done = self.ready.get(id(block))
            if done is not None and self.indent == 2 and ops is block.ops and done.matches(block):
                if ops and self.spliced is not None:  # ``write_module``: copied in later
                    lines.append(f"{_SPLICE}{len(self.spliced)}{_SPLICE}")
                    self.spliced.append(done)
                elif ops:
                    lines.append(done.text())
                continue
            for op in ops:
                lines.append(self.op(op))
        self.indent -= 1
        body = "\n".join(lines) + "\n" if lines else ""  # each line ends with a newline
        return "{\n" + body + "  " * self.indent + "}"

    # -- operations -------------------------------------------------------------------------
    def op(self, op: Operation) -> str:
        pad = "  " * self.indent
        spec = op.spec
        # Names of the results are assigned after the body so that regions number first,
        # as MLIR does; but the line needs the prefix, so reserve it now.
        results = op.results
        if len(results) == 1:  # _name_results, inline for the common case
            c = self.counters[-1]
            prefix = f"%{c[0]}"
            c[0] += 1
            self.names[id(results[0])] = prefix
            prefix += " = "
        else:
            prefix = self._name_results(op)
        if (
            spec is None
            or (self.generic and VERBATIM not in spec.traits)
            or (spec.print is None and spec.format is None)
        ):
            return pad + prefix + self.generic_op(op)
        name = op.name
        if spec.print is None and FAST_PRINT and not op.regions and not name.startswith("func."):
            # (``func.`` ops print by where they are: see below)
            return pad + prefix + self.templates.text(self, op, spec, _formatted)
        if name.startswith("func.") and _in_function(op):
            name = spec.mnemonic  # func.func's default dialect, as MLIR prints it
        if spec.print is not None:
            body = spec.print(self, op)
            if body is None:  # a form the custom syntax cannot spell
                return pad + prefix + self.generic_op(op)
        else:
            return pad + prefix + _formatted(self, op, name)
        return pad + prefix + _joined(spec, name, body)

    def generic_op(self, op: Operation) -> str:
        spec = op.spec
        inherent = {a.name for a in spec.attrs} | {"operandSegmentSizes"} if spec else set()
        attrs = sorted(op.attributes.items())
        props = [format_entry(k, self._stored(op, k, v)) for k, v in attrs if k in inherent]
        extra = [format_entry(k, v) for k, v in attrs if k not in inherent]
        text = f'"{op.name}"({", ".join(self.value(v) for v in op.operands)})'
        if props:
            text += " <{" + ", ".join(props) + "}>"
        if op.regions:
            isolated = spec is not None and spec.has("isolated")
            parts = []
            for r in op.regions:
                if isolated:
                    self.push_isolated()
                parts.append(self.region(r))
                if isolated:
                    self.pop_isolated()
            text += " (" + ", ".join(parts) + ")"
        if extra:
            text += " {" + ", ".join(extra) + "}"
        ins = ", ".join(str(v.type) for v in op.operands)
        outs = [str(t) for t in op.result_types]
        res = outs[0] if len(outs) == 1 and not outs[0].startswith("(") else f"({', '.join(outs)})"
        return text + f" : ({ins}) -> {res}"

    def _stored(self, op: Operation, name: str, a: Attribute) -> Attribute:
        """The attribute as MLIR ``self.version`` stores it (dense arrays were ArrayAttrs)."""
        d = op.spec.attr_def(name) if op.spec else None
        if d is not None and self.version <= d.array_until and isinstance(a, DenseArrayAttr):
            return ArrayAttr(tuple(IntegerAttr(int(v)) for v in a.values))
        return a


FAST_PRINT = True  # print through frontend.fastprint (tests turn it off to compare both)
_PRINTERS: dict[str, CompiledPrinter | _Interpreted] = {}  # op name -> its printer


class _Interpreted:
    """The printer of a format that ``compile_printer`` does not cover (or of any format,
    with ``FAST_PRINT`` off): ``print_format`` itself."""

    __slots__ = ("spec",)

    def __init__(self, spec: OpSpec) -> None:
        self.spec = spec

    def print(self, pr: Printer, op: Operation) -> str:
        return print_format(pr, op, self.spec.compiled_format)


def _compiled_printer(spec: OpSpec) -> CompiledPrinter | _Interpreted:
    if not FAST_PRINT:
        return _Interpreted(spec)
    printer = _PRINTERS[spec.name] = compile_printer(spec, spec.compiled_format) or _Interpreted(
        spec
    )
    return printer


def _formatted(pr: Printer, op: Operation, name: str = "") -> str:
    """``op`` (of a spec with a format) after its results' names, by its format's printer."""
    spec = op.spec
    assert spec is not None
    if spec.compiled_format is None:
        spec.compiled_format = compile_format(spec.format)
    printer = _PRINTERS.get(spec.name) if FAST_PRINT else None
    if printer is None or printer.spec is not spec:
        printer = _compiled_printer(spec)
    return _joined(spec, name or op.name, printer.print(pr, op))


def _joined(spec: OpSpec, name: str, body: str) -> str:
    # MLIR prints a format that opens with a `(` literal right after the name: `f(%a)`.
    sep = "" if body.startswith("(") and spec.format and spec.format.startswith("`(`") else " "
    return name + (sep + body if body else "")


def _in_function(op: Operation) -> bool:
    block = op.parent
    region = block.parent if block is not None else None
    parent = region.parent if region is not None else None
    return parent is not None and parent.name == "func.func"


def print_module(
    module: Module,
    generic: bool = False,
    version: int = 22,
    ready: dict[int, PrintedBody] | None = None,
) -> str:
    """The whole module as text, wrapped in ``module { ... }``. ``ready``: function bodies
    printed ahead (``PrintedBody``), used where they still match."""
    return _module_text(Printer(generic, version, ready), module)


def write_module(
    module: Module,
    out: TextIO,
    generic: bool = False,
    version: int = 22,
    ready: dict[int, PrintedBody] | None = None,
) -> None:
    """``print_module``'s text written to ``out``, each body printed ahead copied from its
    file a chunk at a time instead of joined into one string with the rest."""
    p = Printer(generic, version, ready)
    p.spliced = []
    parts = _module_text(p, module).split(_SPLICE)
    # (the printer escapes control characters in strings: no other marker can be there)
    assert len(parts) == 2 * len(p.spliced) + 1, "a marker character in the printed text"
    for i, part in enumerate(parts):
        if i % 2:
            p.spliced[int(part)].copy_to(out)
        else:
            out.write(part)


def _module_text(p: Printer, module: Module) -> str:
    generic = p.generic
    p.indent = 1
    with gc_paused():
        body = "\n".join(p.op(op) for op in module.ops)
    if generic:
        attrs = dict(module.attributes)
        if module.name:
            from frontend.attributes import StringAttr

            attrs["sym_name"] = StringAttr(module.name)
        a = (
            " {" + ", ".join(format_entry(k, v) for k, v in sorted(attrs.items())) + "}"
            if attrs
            else ""
        )
        return f'"builtin.module"() ({{\n{body}\n}}){a} : () -> ()\n'
    head = "module"
    if module.name:
        head += f" @{format_symbol(module.name)}"
    if module.attributes:
        head += (
            " attributes {"
            + ", ".join(format_entry(k, v) for k, v in sorted(module.attributes.items()))
            + "}"
        )
    return f"{head} {{\n{body}\n}}\n" if module.ops else f"{head} {{\n}}\n"


def print_op(op: Operation, generic: bool = False, version: int = 22) -> str:
    return Printer(generic, version).op(op)


def show_attribute(a: Attribute) -> str:
    return str(a)


use_printer(print_module)  # str(module) prints it


__all__ = ["Block", "Printer", "print_module", "print_op"]
