"""Rule files: egglog's own language, one file per concern, a law comment above every rule.

Rule files live in the ``rules`` package (data, found with ``importlib.resources`` whether eqsat
is installed or run from a checkout), one subdirectory per phase::

    rules/canonicalize/broadcast.egg
    rules/explore/contract.egg
    rules/legalize/...

Convention: each ``rewrite``/``birewrite``/``rule`` is preceded by a ``; law``
comment line stating the equation it implements, and may carry ``:name "..."``. The parser is
egglog's own (``parse_program``), so what we list is exactly what egglog will run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from egglog import bindings

from eqsat.egraph import EGraph, RuleError, byte_span_to_line_col, to_rule_error
from frontend.errors import decode_source, did_you_mean

RULES_PACKAGE = "rules"


@dataclass(frozen=True)
class Rule:
    """One rewrite, birewrite or rule of a rule file.

    ``keys`` are the names egglog uses in its run reports (``:name``, else the rule's printed
    text; a birewrite reports its two directions as ``key=>`` and ``key<=``). ``label`` is the
    short name to show people: the ``:name``, else ``file.egg:line``.
    """

    kind: str
    ruleset: str
    label: str
    keys: tuple[str, ...]
    law: str
    line: int
    # Constructors the rule's right-hand side (its actions) builds: what it can produce.
    builds: frozenset[str] = frozenset()
    # Constructors its left-hand side (its query) matches.
    reads: frozenset[str] = frozenset()
    # Byte offsets of the command in the file's UTF-8 text (start, end).
    span: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class RuleFile:
    """A parsed rule file: where it is, its text, the rulesets it declares and its rules."""

    path: Path
    text: str = field(repr=False)
    rulesets: tuple[str, ...]
    rules: tuple[Rule, ...]

    @property
    def phase(self) -> str:
        """The phase directory the file sits in (``canonicalize``, ``explore``, ...)."""
        return self.path.parent.name

    def without_law(self) -> tuple[Rule, ...]:
        """Rules that break the convention: no ``;`` law comment above them."""
        return tuple(r for r in self.rules if not r.law)

    def labels(self) -> dict[str, str]:
        """Report key -> short label, for printing saturation reports."""
        out: dict[str, str] = {}
        for rule in self.rules:
            for key in rule.keys:
                out[key] = rule.label + (key[-2:] if rule.kind == "birewrite" else "")
        return out

    def install(self, egraph: EGraph) -> None:
        """Run the file's declarations and rules in ``egraph``; errors name this file, and an
        unknown constructor gets the closest known names."""
        try:
            egraph.run(self.text, str(self.path))
        except RuleError as e:
            m = re.match(r"Unbound (?:function|symbol) (\S+)", e.message)
            if m is None:
                raise
            known = set(egraph.schema.constructors) | _declared_functions(egraph)
            e.message += did_you_mean(m.group(1), known)
            raise

    def without(self, labels: set[str]) -> RuleFile:
        """This file with the rules named in ``labels`` (``Rule.label``) taken out: their text
        is blanked (lines kept, so errors still point into the file)."""
        drop = [r for r in self.rules if r.label in labels]
        if not drop:
            return self
        data = bytearray(self.text.encode("utf-8"))
        for r in drop:
            for k in range(r.span[0], r.span[1]):
                if data[k] not in b"\n":
                    data[k] = ord(" ")
        return RuleFile(
            self.path,
            data.decode("utf-8"),
            self.rulesets,
            tuple(r for r in self.rules if r.label not in labels),
        )


def rules_dir() -> Path:
    """The ``rules`` package directory (a checkout or an installed copy)."""
    return Path(str(files(RULES_PACKAGE)))


def find(name: str | Path) -> Path:
    """A rule file by path, or by name under ``rules/`` (``explore/contract`` or with ``.egg``)."""
    path = Path(name)
    if path.is_file():
        return path
    candidate = rules_dir() / path
    if candidate.suffix != ".egg":
        candidate = candidate.with_name(candidate.name + ".egg")
    if candidate.is_file():
        return candidate
    raise FileNotFoundError(f"no rule file {str(name)!r} (looked in {rules_dir()})")


def load(name: str | Path) -> RuleFile:
    """Read and parse a rule file; a syntax error raises ``RuleError`` at its line.

    The same text at the same path is not parsed again: every ``optimize_module`` call loads
    every phase's files, and parsing them took about a fifth of optimizing a small kernel."""
    path = find(name)
    text = decode_source(path.read_bytes(), str(path))
    key = (str(path), text)
    parsed = _PARSED.get(key)
    if parsed is None:
        parsed = _PARSED[key] = parse(text, path)
    return parsed


_PARSED: dict[tuple[str, str], RuleFile] = {}  # RuleFiles are immutable: shared


# Parentheses nested deeper than this are refused before egglog's recursive parser sees them
# (10,000 levels overflow its stack); the built-in rules nest fewer than 20.
MAX_NESTING = 256


def _check_nesting(text: str, path: Path) -> None:
    depth, line, col, in_string, comment, escaped = 0, 1, 0, False, False, False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, comment = line + 1, 0, False
        elif comment:
            continue
        elif in_string:
            in_string = escaped or ch != '"'
            escaped = not escaped and ch == "\\"
        elif ch == '"':
            in_string = True
        elif ch == ";":
            comment = True
        elif ch == "(":
            depth += 1
            if depth > MAX_NESTING:
                raise RuleError(str(path), line, col, f"terms nest deeper than {MAX_NESTING} "
                                "parentheses", source=text)  # fmt: skip
        elif ch == ")":
            depth -= 1


def parse(text: str, path: Path) -> RuleFile:
    """Parse rule-file text with egglog's parser (no declarations needed to parse)."""
    _check_nesting(text, path)
    try:
        commands = bindings.EGraph().parse_program(text, filename=str(path))
    except bindings.EggSmolError as err:
        raise to_rule_error(err.context, str(path), {str(path): text}) from None
    _check_commands(text, path)
    rulesets: list[str] = []
    rules: list[Rule] = []
    for cmd in commands:
        match cmd:
            case bindings.AddRuleset(name=name) | bindings.UnstableCombinedRuleset(name=name):
                rulesets.append(name)
            case bindings.RewriteCommand() | bindings.BiRewriteCommand() | bindings.RuleCommand():
                rules.append(_rule(cmd, text, path))
            case _:
                pass
    for rule in rules:
        if not rule.ruleset:
            line, col = byte_span_to_line_col(text, rule.span[0])
            raise RuleError(
                str(path),
                line,
                col,
                f"{rule.kind} {rule.label} is outside every named ruleset: egglog's default "
                "ruleset never runs in eqsat's phases; declare `(ruleset NAME)` and add "
                "`:ruleset NAME` to the rule",
                source=text,
            )
    return RuleFile(path, text, tuple(rulesets), tuple(rules))


# Top-level commands a rule file may hold: declarations, rules and facts. Everything else
# (``run``, ``run-schedule``, ``output``, ``extract``, ``check``, ``push``, ``include``, ...)
# would run when the file is installed, outside every phase budget, and ``output`` writes files.
DECLARATIVE = frozenset(
    {
        "ruleset", "unstable-combined-ruleset", "rewrite", "birewrite", "rule",
        "datatype", "datatype*", "sort", "constructor", "function", "relation",
        "set", "let", "union",
    }
)


def top_level_forms(text: str) -> list[tuple[str, int]]:
    """(head keyword, character offset) of every top-level ``( ... )`` form of egglog text
    (strings and ``;`` comments skipped)."""
    forms: list[tuple[str, int]] = []
    depth, i, n = 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif ch == "(":
            if depth == 0:
                m = re.match(r"\(\s*([^\s()]+)", text[i:])
                forms.append((m.group(1) if m else "", i))
            depth += 1
        elif ch == ")":
            depth -= 1
        i += 1
    return forms


def _check_commands(text: str, path: Path) -> None:
    """Reject commands that are not declarations, rules or facts, at their position."""
    for head, at in top_level_forms(text):
        if head in DECLARATIVE:
            continue
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        raise RuleError(
            str(path),
            line,
            col,
            f"`({head} ...)` is not allowed in a rule file: rule files hold declarations, "
            "rules and facts only (eqsat runs the rulesets itself, phase by phase, within "
            f"its budgets){did_you_mean(head, DECLARATIVE)}",
            end=(line, col + len(head)),
            source=text,
        )


def _declared_functions(egraph: EGraph) -> set[str]:
    """Names of the functions and relations declared in the schema text (not constructors)."""
    from eqsat.schema import schema_text

    return set(re.findall(r"\((?:function|relation)\s+([^\s()]+)", schema_text()))


def phase_files(phase: str, root: Path | None = None) -> tuple[RuleFile, ...]:
    """All rule files of one phase directory, in name order (the order they are installed).

    ``root`` defaults to the ``rules`` package; pass another directory to use other rules.
    """
    directory = (root or rules_dir()) / phase
    if not directory.is_dir():
        raise FileNotFoundError(f"no phase directory {directory}")
    return tuple(load(p) for p in sorted(directory.glob("*.egg")))


def phase_rulesets(phase: str, root: Path | None = None) -> tuple[str, ...]:
    """The rulesets a phase's files declare, in file order."""
    return tuple(rs for f in phase_files(phase, root) for rs in f.rulesets)


def _rule(cmd: object, text: str, path: Path) -> Rule:
    if isinstance(cmd, bindings.RuleCommand):
        kind, ruleset, name, span = "rule", cmd.rule.ruleset, cmd.rule.name, cmd.rule.span
    else:
        kind = "birewrite" if isinstance(cmd, bindings.BiRewriteCommand) else "rewrite"
        ruleset, name, span = cmd.name, cmd.rewrite.name, cmd.rewrite.span
    key = name or str(cmd)
    keys = (key + "=>", key + "<=") if kind == "birewrite" else (key,)
    line, _ = byte_span_to_line_col(text, span.i)
    label = name or f"{path.name}:{line}"
    source = text.encode("utf-8")[span.i : span.j].decode("utf-8", "replace")
    law = _law(text, line, span.j)
    return Rule(
        kind,
        ruleset,
        label,
        keys,
        law,
        line,
        _builds(source, kind),
        _reads(source, kind),
        (span.i, span.j),
    )


def _items(sexpr: str) -> list[str]:
    """The top-level items of one parenthesized s-expression (strings and comments skipped)."""
    items: list[str] = []
    depth, start, i, n = 0, -1, 0, len(sexpr)
    while i < n:
        ch = sexpr[i]
        if ch == '"':
            j = i + 1
            while j < n and sexpr[j] != '"':
                j += 2 if sexpr[j] == "\\" else 1
            if depth == 1 and start < 0:
                items.append(sexpr[i : j + 1])
            i = j + 1
            continue
        if ch == ";":
            while i < n and sexpr[i] != "\n":
                i += 1
            continue
        if ch == "(":
            depth += 1
            if depth == 2:
                start = i
        elif ch == ")":
            if depth == 2 and start >= 0:
                items.append(sexpr[start : i + 1])
                start = -1
            depth -= 1
        elif depth == 1 and not ch.isspace() and start < 0:
            j = i
            while j < n and not sexpr[j].isspace() and sexpr[j] not in "()":
                j += 1
            items.append(sexpr[i:j])
            i = j
            continue
        i += 1
    return items


def _heads(parts: list[str]) -> frozenset[str]:
    return frozenset(set(re.findall(r"\(\s*([A-Za-z$][\w$-]*)", " ".join(parts))) - _ACTIONS)


def _reads(source: str, kind: str) -> frozenset[str]:
    """Constructor names in a rule's left-hand side (a birewrite's two sides)."""
    items = _items(source)
    return _heads(items[1:3] if kind == "birewrite" else items[1:2])


def _builds(source: str, kind: str) -> frozenset[str]:
    """Constructor names applied in a rule's right-hand side: a rewrite's result, a
    birewrite's two sides, a rule's actions (minus the action keywords themselves)."""
    items = _items(source)
    if kind == "rule":
        parts = items[2:3]
    elif kind == "birewrite":
        parts = items[1:3]
    else:
        parts = items[2:3]
    return _heads(parts)


_ACTIONS = frozenset(
    {"union", "set", "let", "delete", "subsume", "panic", "extract", "vec-of", "=", "!="}
)


def _law(text: str, line: int, end_byte: int) -> str:
    """The ``;`` comment block right above ``line``; else a comment trailing the rule."""
    lines = text.splitlines()
    block: list[str] = []
    i = line - 2
    while i >= 0 and lines[i].lstrip().startswith(";"):
        block.append(lines[i].lstrip().lstrip(";").strip())
        i -= 1
    if block:
        return " ".join(reversed([b for b in block if b]))
    last_line, _ = byte_span_to_line_col(text, max(end_byte - 1, 0))
    tail = lines[last_line - 1] if last_line <= len(lines) else ""
    code, sep, comment = tail.partition(";")
    return comment.lstrip(";").strip() if sep and code.strip() else ""
