"""An op's printed text as a template with holes for its operands' names, made once per
signature and filled for every op of that signature.

Why: a long program's output repeats a few op signatures hundreds of thousands of times (the
native tiling's slices of one vector type, with the same offsets: ``eqsat.decode`` shares
their attribute and type objects), and the compiled printer (``frontend.fastprint``) spells
their attributes and types again for each. Here the printer runs once per signature, with
each operand named by a placeholder; the other ops of that signature get the text with their
operands' names put in.

A signature is ``frontend.ir.signature``: the op's spec, attribute objects and operand and
result types, by identity (so ``0.0`` and ``-0.0`` never share a template; the memo holds
the objects, so their identities stay theirs). Nothing else of an op reaches its compiled printer
but its operands' names (ops with regions are not templated; an op using one value twice
makes no template, its text not telling which operand each name is). A template is kept only when,
filled with the first op's names, it gives exactly what the compiled printer printed for that
op, else that signature is printed in full each time; a spec whose templates are rarely used
again (its ops carry attributes of their own) is no longer templated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from frontend.ir import Operation, signature, signature_objects

# Placeholders: ``_MARK + str(i) + _MARK`` names operand ``i`` while a template is made.
_MARK = "\x00"
# Templates kept per printer before the memo starts over (each holds a few objects alive).
_MAX = 1 << 14
# A spec is no longer templated once it made this many templates with fewer reuses than that.
_TRIAL = 256

# A template: a format string with a ``%s`` for each operand name, and the operands' order in
# it (``None``: each operand once, in order); ``None`` for a signature printed in full (its
# template did not reproduce the printer's text).
type Template = tuple[str, tuple[int, ...] | None] | None


class Templates:
    """The templates of one ``Printer`` (its names are the ones filled in)."""

    __slots__ = ("known", "memo", "pins", "uses")

    def __init__(self) -> None:
        self.memo: dict[tuple[Any, ...], Template] = {}
        self.pins: list[Any] = []  # the objects whose identities the keys hold
        self.uses: dict[int, list[int]] = {}  # id(spec) -> [templates made, reuses]
        # Signatures computed already, by id of op (``frontend.printer.PrintedBody.add``)
        self.known: dict[int, tuple[Any, ...]] | None = None

    def text(self, pr: Any, op: Operation, spec: Any,
             render: Callable[[Any, Operation], str]) -> str:  # fmt: skip
        """``render(pr, op)``: the text of ``op`` after its results' names."""
        operands = op.operands
        known = self.known
        key = known.get(id(op)) if known is not None else None
        if key is None:
            key = signature(op, spec)
        tpl = self.memo.get(key, False)
        if tpl is False:
            return self._first(pr, op, spec, render, key)
        if tpl is None:
            return render(pr, op)
        self.uses[id(spec)][1] += 1
        got = pr.names.get
        names = [got(id(v)) for v in operands]
        if None in names:  # a value without a name: the printer spells what it prints for it
            return render(pr, op)
        return _filled(tpl, names)

    def lines(self, pr: Any, ops: list[Operation], keys: dict[int, tuple[Any, ...]]) -> list[str]:
        """``[pr.op(op) for op in ops]``, ops without regions at ``pr``'s indent, each with a
        template for its signature (``keys``, by id of op, as ``text`` reads them) filled here:
        ``Printer.op``'s templated branch inlined, results named as it names them. Why: a
        long program's body is 2 M such ops at 100,000 input ops, and the two calls per op
        were a third of printing them."""
        memo, uses, names = self.memo, self.uses, pr.names
        counter = pr.counters[-1]
        pad = "  " * pr.indent
        out: list[str] = []
        for op in ops:
            key = keys.get(id(op))
            tpl = memo.get(key) if key is not None else None
            results = op.results
            if tpl is None or len(results) != 1:  # no template yet, or printed in full
                out.append(pr.op(op))
                continue
            got = [names.get(id(v)) for v in op.operands]
            if None in got:
                out.append(pr.op(op))
                continue
            name = f"%{counter[0]}"
            counter[0] += 1
            names[id(results[0])] = name
            uses[key[0]][1] += 1  # (``key[0]`` is the spec's id: see ``signature``)
            out.append(f"{pad}{name} = {_filled(tpl, got)}")
        return out

    def _first(self, pr: Any, op: Operation, spec: Any, render: Callable[[Any, Operation], str],
               key: tuple[Any, ...]) -> str:  # fmt: skip
        """The first op of its signature: printed in full, its template made and checked."""
        text = render(pr, op)
        uses = self.uses.setdefault(id(spec), [0, 0])
        if uses[0] >= _TRIAL and uses[1] < uses[0]:
            return text  # this spec's ops rarely share a signature
        operands = op.operands
        if len({id(v) for v in operands}) != len(operands):
            return text  # a value used twice: its places in the text are not told apart
        if len(self.memo) >= _MAX:
            self.memo.clear()
            self.pins.clear()
        real = pr.names
        pr.names = {id(v): f"{_MARK}{i}{_MARK}" for i, v in enumerate(operands)}
        try:
            marked = render(pr, op)
        finally:
            pr.names = real
        pieces = marked.split(_MARK)
        holes = pieces[1::2]
        tpl: Template = None
        if len(pieces) % 2 == 1 and all(h.isdigit() and int(h) < len(operands) for h in holes):
            order = tuple(map(int, holes))
            fmt = "%s".join(piece.replace("%", "%%") for piece in pieces[0::2])
            tpl = (fmt, None if order == tuple(range(len(operands))) else order)
            names = [real.get(id(v)) or pr.value(v) for v in operands]
            if _filled(tpl, names) != text:  # (checked as it will be filled)
                tpl = None
        self.memo[key] = tpl
        self.pins.append(signature_objects(op, spec))
        uses[0] += 1
        return text


def _filled(tpl: tuple[str, tuple[int, ...] | None], names: list[str]) -> str:
    """A template's text with its operands' names put in (``names`` in operand order)."""
    fmt, order = tpl
    return fmt % (tuple(names) if order is None else tuple([names[i] for i in order]))
