"""The frontend against the seed corpus (``shared/corpus``, see SEED-INVENTORY §5).

* Every chunk that real MLIR accepts (``seed-valid-mlir{19,22}.mlir``) parses, verifies and
  round-trips: printing is a fixed point and re-parsing gives the same IR, in custom and
  generic form ("same IR" = the same generic text, which shows every attribute and type).
* Per statement (``seed-statements.mlir``), we accept exactly what mlir-opt 19 or 22 accepts
  and reject what both reject, except where SEED-INVENTORY §6 decides otherwise (DECISIONS).
* INVALID-BY-DOC snippets fail with ``FILE:LINE:COL: error:`` at the statement; LEGACY and
  PSEUDO snippets fail with an ``MLIRError``, never another exception.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from frontend import MLIRError, parse, print_module
from tests.corpus import Statement, shared_dir, split_chunks, statements, wrap

SHARED = shared_dir()
pytestmark = pytest.mark.skipif(
    SHARED is None, reason="shared corpus not found: set EQSAT_SHARED or check out ../shared"
)
CORPUS = SHARED / "corpus" if SHARED else Path("/nonexistent")

# Statements where we deliberately differ from "accept iff mlir-opt 19 or 22 accepts".
# Empty today: every §6 decision (poison -1, 0-D insert source, masked element-wise ops,
# removed-in-22 ops) sides with one of the two releases, so the union rule covers it.
DECISIONS: dict[str, str] = {}


def _chunks(name: str) -> list[tuple[str, int, str]]:
    if SHARED is None:
        return []
    return split_chunks(CORPUS / name)[1:]


def _id(header: str) -> str:
    m = re.search(r"STMT: (\S+)", header)
    return m[1] if m else header.splitlines()[0][:40]


def _statements() -> list[Statement]:
    return statements(CORPUS / "seed-statements.mlir") if SHARED else []


VALID = [
    pytest.param(name, line, text, id=f"{name[11:17]}-{_id(header)}")
    for name in ("seed-valid-mlir22.mlir", "seed-valid-mlir19.mlir")
    for header, line, text in _chunks(name)
]


def _pad(text: str, line: int) -> str:
    """The chunk at its own line numbers, so errors point into the corpus file."""
    return "\n" * (line - 1) + text


@pytest.mark.parametrize("name, line, text", VALID)
def test_valid_chunk_round_trips(name: str, line: int, text: str) -> None:
    module = parse(_pad(text, line), str(CORPUS / name))
    custom = print_module(module)
    generic = print_module(module, generic=True)
    again = parse(custom, "<custom>")
    assert print_module(again) == custom, "printing the custom form is not a fixed point"
    assert print_module(again, generic=True) == generic, "custom form lost information"
    from_generic = parse(generic, "<generic>")
    assert print_module(from_generic, generic=True) == generic, "generic form not a fixed point"
    assert print_module(from_generic) == custom, "generic form parses to different IR"


STMTS = [pytest.param(s, id=s.id) for s in _statements()]


def _verdicts(s: Statement) -> str:
    return "; ".join(f"mlir-opt-{v}: {d}" for v, d in sorted(s.verdicts.items()))


@pytest.mark.parametrize("stmt", [p for p in STMTS if p.values[0].status in ("VALID", "MIXED")])
def test_statement_acceptance_matches_mlir(stmt: Statement) -> None:
    if stmt.id in DECISIONS:
        pytest.skip(f"deliberate decision: {DECISIONS[stmt.id]}")
    path = str(CORPUS / "seed-statements.mlir")
    text = wrap(stmt.lines, stmt.line, stmt.free_values)
    if any(stmt.accepted.values()):
        module = parse(text, path)
        assert print_module(parse(print_module(module))) == print_module(module)
        return
    with pytest.raises(MLIRError) as info:
        parse(text, path)
    err = info.value
    assert err.loc is not None and err.loc.file == path, str(err)
    end = stmt.line + len(stmt.lines)
    assert stmt.line <= err.loc.line <= end, f"{err} (MLIR: {_verdicts(stmt)})"


@pytest.mark.parametrize(
    "stmt", [p for p in STMTS if p.values[0].status in ("LEGACY", "PSEUDO", "INVALID-BY-DOC")]
)
def test_non_valid_statement_is_rejected(stmt: Statement) -> None:
    assert not any(stmt.accepted.values()), "corpus header says MLIR accepts it"
    with pytest.raises(MLIRError):
        parse(wrap(stmt.lines, stmt.line, stmt.free_values), "seed-statements.mlir")


# -- seed-examples.mlir: the snippets as the seeds print them ----------------------------------
def _snippets(status: str) -> list:
    out = []
    for header, line, text in _chunks("seed-examples.mlir"):
        m = re.search(r"^// SNIPPET: (\S+)", header, re.MULTILINE)
        if m and re.search(rf"^// STATUS: {status}\b", header, re.MULTILINE):
            out.append(pytest.param(m[1], line, text, id=m[1]))
    return out


def _free_values(snippet: str) -> dict[str, str]:
    """FREE-VALUES of the snippet's statements (``S040`` -> ``S040.1``, ...)."""
    values: dict[str, str] = {}
    for s in _statements():
        if s.id.split(".")[0] == snippet:
            values.update(s.free_values)
    return values


@pytest.mark.parametrize("snippet, line, text", _snippets("INVALID-BY-DOC"))
def test_invalid_by_doc_snippet_reports_location(snippet: str, line: int, text: str) -> None:
    path = str(CORPUS / "seed-examples.mlir")
    lines = text.split("\n")
    source = wrap(lines, line, _free_values(snippet))
    with pytest.raises(MLIRError) as info:
        parse(source, path)
    stmt_line = next(i for i, l in enumerate(lines) if l and not l.startswith("//")) + line
    message = str(info.value)
    assert message.startswith(f"{path}:{stmt_line}:1: error: 'vector.scalable."), message
    assert "multiple of the" in message, message
    assert message.splitlines()[1] == lines[stmt_line - line], "source line not quoted"


@pytest.mark.parametrize("snippet, line, text", _snippets("LEGACY") + _snippets("PSEUDO"))
def test_legacy_and_pseudo_snippets_fail_gracefully(snippet: str, line: int, text: str) -> None:
    path = str(CORPUS / "seed-examples.mlir")
    for source in (_pad(text, line), wrap(text.split("\n"), line, _free_values(snippet))):
        with pytest.raises(MLIRError) as info:
            parse(source, path)
        assert str(info.value).startswith(f"{path}:"), str(info.value)
