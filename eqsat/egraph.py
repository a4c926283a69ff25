"""A thin wrapper over egglog's low-level ``bindings.EGraph`` that speaks program text.

Why a wrapper: egglog reports errors as one string (``In 4:9-11 of f.egg: <snippet>\\n<message>``)
and sizes as command outputs; the rest of eqsat wants ``path:line:col`` errors, cheap sizes, the
schema (which sorts are e-classes, which arguments are literals) and run statistics as data.

Facts measured on egglog 14.0.0 (see experiments/bench_saturate.py):

- ``parse_and_run_program(text)`` is the fast path: ``(print-size)`` as text costs ~4 us, the same
  command passed as a ``bindings.PrintSize`` object ~28 us (object conversion dominates).
- e-node count: ``(print-size)`` returns per-table row counts; e-class count needs a pass over the
  rows (``freeze()``, ~1 ms per 10k rows), so it is only taken at the end of a phase.
- Error columns are 1-based *characters*; command spans (``EgglogSpan.i/j``) are UTF-8 *bytes*.
- Errors raised while rules run (``panic``, illegal merges) carry no position at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from egglog import bindings

_HEADER = re.compile(r"^In (\d+):(\d+)-(?:(\d+):)?(\d+)(?: of (.+?))?: ", re.MULTILINE)
_DECLARES = re.compile(r"\((?:datatype\*?|sort|constructor|function|relation)[\s)]")


class RuleError(Exception):
    """An egglog error mapped to a position in our own source text.

    ``str()`` gives ``path:line:col: error: message`` (1-based line and character column), the
    form editors and ``mlir-opt`` use. ``exact`` is False when egglog gave no position and the
    one here is our best guess.
    """

    def __init__(
        self,
        path: str,
        line: int,
        col: int,
        message: str,
        *,
        end: tuple[int, int] | None = None,
        exact: bool = True,
        source: str | None = None,
    ) -> None:
        super().__init__(path, line, col, message)
        self.path, self.line, self.col, self.message = path, line, col, message
        self.end = end
        self.exact = exact
        self.source = source

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: error: {self.message}"

    def render(self) -> str:
        """The error, the offending source line, and carets under the culprit."""
        text = str(self)
        lines = (self.source or "").splitlines()
        if not 1 <= self.line <= len(lines):
            return text
        src = lines[self.line - 1]
        width = 1
        if self.end and self.end[0] == self.line:
            width = max(1, self.end[1] - self.col + 1)
        return f"{text}\n{src}\n{' ' * (self.col - 1)}{'^' * width}"


@dataclass(frozen=True)
class Signature:
    """A constructor's argument sorts and result sort."""

    inputs: tuple[str, ...]
    output: str
    unextractable: bool = False


@dataclass
class Schema:
    """What the declarations said: e-class sorts, constructors, container sorts.

    Extraction needs it to tell children (e-classes) from literals; egglog's frozen tables give
    sort names but not which names are datatypes.
    """

    eq_sorts: set[str] = field(default_factory=set)
    constructors: dict[str, Signature] = field(default_factory=dict)
    # container sort name -> (kind, element sorts), e.g. "IVec" -> ("Vec", ("i64",))
    containers: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)

    def add(self, commands: Iterable[object]) -> None:
        for cmd in commands:
            match cmd:
                case bindings.Datatype(name=name, variants=variants):
                    self._datatype(name, variants)
                case bindings.Datatypes(datatypes=items):
                    for _, name, sub in items:
                        if isinstance(sub, bindings.SubVariants):
                            self._datatype(name, sub.variants)
                        else:
                            self._container(name, sub.name, sub.args)
                case bindings.Sort(name=name, presort_and_args=None):
                    self.eq_sorts.add(name)
                case bindings.Sort(name=name, presort_and_args=(kind, args)):
                    self._container(name, kind, args)
                case bindings.Constructor(name=name, schema=schema, unextractable=unext):
                    self.eq_sorts.add(schema.output)
                    self.constructors[name] = Signature(tuple(schema.input), schema.output, unext)
                case _:
                    pass

    def _datatype(self, name: str, variants: Iterable[bindings.Variant]) -> None:
        self.eq_sorts.add(name)
        for v in variants:
            self.constructors[v.name] = Signature(tuple(v.types), name, v.unextractable)

    def _container(self, name: str, kind: str, args: Iterable[object]) -> None:
        elems = tuple(a.name if isinstance(a, bindings.Var) else str(a) for a in args)
        self.containers[name] = (kind, elems)


@dataclass(frozen=True)
class RunStats:
    """What one ``run``/``run-schedule`` command did, from egglog's ``RunReport``.

    ``searched`` counts matches the queries found (the back-off scheduler reports these in a
    separate query pass); ``applied`` counts matches whose actions ran. Keys are egglog's rule
    names: the ``:name`` if given, else the rule's printed text; birewrites add ``=>``/``<=``.
    """

    changed: bool
    searched: Mapping[str, int]
    applied: Mapping[str, int]
    search_seconds: float
    rebuild_seconds: float

    @staticmethod
    def from_report(report: bindings.RunReport, *, scheduled: bool) -> RunStats:
        searched: dict[str, int] = {}
        iterations = report.iterations
        if scheduled and iterations:
            # Scheduled steps report a query pass first, then the action pass.
            for name, rule_reports in iterations[0].rule_set_report.rule_reports.items():
                searched[name] = sum(r.num_matches for r in rule_reports)
        applied = dict(report.num_matches_per_rule)
        if not scheduled:
            searched = dict(applied)
        return RunStats(
            changed=report.updated,
            searched=searched,
            applied=applied,
            search_seconds=_seconds(report.search_and_apply_time_per_ruleset.values()),
            rebuild_seconds=_seconds(report.rebuild_time_per_ruleset.values()),
        )


# The tables in which the encoder binds each op's value (``eqsat.encode``: ``(BoundTerm block
# n)`` is op #n of a block), declared by the schema (``eqsat.schema``): names of the program's
# values, not e-nodes, so the sizes leave them out (as egglog's own ``let`` bindings are).
BINDING_TABLES = {"Term": "BoundTerm", "Multi": "BoundMulti", "State": "BoundState"}
_BINDINGS = frozenset(BINDING_TABLES.values())


def _seconds(deltas: Iterable[timedelta]) -> float:
    return sum((d.total_seconds() for d in deltas), 0.0)


class EGraph:
    """An egglog e-graph fed with program text; errors come back as ``RuleError``."""

    def __init__(self, *, num_threads: int = 1) -> None:
        self.raw = bindings.EGraph(num_threads=num_threads)
        self.schema = Schema()
        self.sources: dict[str, str] = {}  # source name -> text, to place position-less errors
        self._fresh = 0

    # -- running text -------------------------------------------------------------------------

    def run(self, text: str, source: str = "<string>") -> list[object]:
        """Run egglog program text; ``source`` names it in errors (a path or ``<...>``).

        Commands before a failing one have taken effect: egglog runs a program command by
        command (only parse errors reject the whole text).
        """
        self.sources[source] = text
        try:
            if _DECLARES.search(text):
                self.schema.add(self.raw.parse_program(text, filename=source))
            return self.raw.parse_and_run_program(text, filename=source)
        except bindings.EggSmolError as err:
            raise to_rule_error(err.context, source, self.sources) from None

    def run_file(self, path: str | Path) -> list[object]:
        path = Path(path)
        return self.run(path.read_text(encoding="utf-8"), str(path))

    def run_schedule(self, schedule: str, source: str = "<schedule>") -> RunStats:
        """Run one ``run``/``run-schedule`` command and return its statistics."""
        outputs = self.run(schedule, source)
        reports = [o.report for o in outputs if isinstance(o, bindings.RunScheduleOutput)]
        if len(reports) != 1:
            raise ValueError(f"expected one run report from {schedule!r}, got {len(reports)}")
        return RunStats.from_report(reports[0], scheduled="run-with" in schedule)

    def fresh_name(self, stem: str) -> str:
        """A name no user program uses, for schedulers and combined rulesets we declare."""
        self._fresh += 1
        return f"__eqsat_{stem}_{self._fresh}"

    # -- sizes -------------------------------------------------------------------------------

    def sizes(self) -> dict[str, int]:
        """Rows per table (constructors, functions, relations; not the bindings,
        ``BINDING_TABLES``); ~4 us on any graph size."""
        (out,) = self.raw.parse_and_run_program("(print-size)")
        return {name: n for name, n in out.sizes if name not in _BINDINGS}

    def num_nodes(self) -> int:
        """e-nodes: rows over all tables (each e-node or function entry is one row) but the
        bindings (``BINDING_TABLES``)."""
        (out,) = self.raw.parse_and_run_program("(print-size)")
        return sum(n for name, n in out.sizes if name not in _BINDINGS)

    def num_classes(self) -> int:
        """e-classes: distinct ids produced by datatype-valued tables. O(rows): ~1 ms per 10k."""
        frozen = self.raw.freeze()
        eq = self.schema.eq_sorts
        ids = {
            hash(row.output)  # an int: hashing once beats PyO3 equality in a set
            for name, fn in frozen.functions.items()
            if fn.output_sort in eq and not fn.is_let_binding and name not in _BINDINGS
            for row in fn.rows
        }
        return len(ids)

    # -- values ------------------------------------------------------------------------------

    def eval(self, expr: str) -> tuple[str, bindings.Value]:
        """Evaluate an egglog expression (``$root``, ``(Add (Num 1) (Num 2))``) to (sort, id).

        A constructor call not yet in the graph is added, as in egglog's own ``let``.
        """
        text = self.sources["<eval>"] = f"(let __eqsat_eval {expr})"
        try:
            (cmd,) = self.raw.parse_program(text, filename="<eval>")
            return self.raw.eval_expr(cmd.action.rhs)
        except bindings.EggSmolError as err:
            raise to_rule_error(err.context, "<eval>", self.sources) from None


def to_rule_error(context: str, source: str, sources: Mapping[str, str]) -> RuleError:
    """Map an ``EggSmolError`` context to a ``RuleError`` in the text named ``source``.

    The context is ``In L:C-[L2:]C2[ of FILE]: <snippet>\n<message>``, sometimes with several
    headers (the last one is the culprit). Without any header, search ``sources`` for the text.
    """
    headers = list(_HEADER.finditer(context))
    if not headers:
        return _unplaced_error(context.strip(), source, sources)
    last = headers[-1]
    line, col = int(last[1]), int(last[2])
    end_line = int(last[3]) if last[3] else line
    path = last[5] or source
    rest = context[last.end() :].split("\n")
    body = rest[end_line - line + 1 :]
    while body and not body[0].strip():
        body.pop(0)
    message = "\n".join(body).strip() or rest[-1].strip()
    for other in headers[:-1]:
        message += f" (see also {other[5] or source}:{other[1]}:{other[2]})"
    end = (end_line, int(last[4]))
    return RuleError(path, line, col, message, end=end, source=sources.get(path))


def _unplaced_error(message: str, source: str, sources: Mapping[str, str]) -> RuleError:
    """egglog gave no span (errors raised while rules run): look for the panic text."""
    if message.startswith("Panic: "):
        needle = '"' + message.removeprefix("Panic: ") + '"'
        for name in reversed(list(sources)):
            text = sources[name]
            at = text.find(needle)
            if at >= 0:
                start = text.rfind("(panic", 0, at)
                line, col = _line_col(text, start if start >= 0 else at)
                note = " (egglog gave no position; located by the panic text)"
                return RuleError(name, line, col, message + note, exact=False, source=text)
    note = " (egglog gave no position)"
    return RuleError(source, 1, 1, message + note, exact=False, source=sources.get(source))


def _line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and character column of a character index."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def byte_span_to_line_col(text: str, byte_index: int) -> tuple[int, int]:
    """1-based line and character column of a UTF-8 byte offset (egglog command spans)."""
    prefix = text.encode("utf-8")[:byte_index].decode("utf-8", errors="ignore")
    return _line_col(prefix + "\0", len(prefix))
