"""Shared corpora for the tests: the seed examples split into chunks, with their headers."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def shared_dir() -> Path | None:
    """``shared/`` lies next to the checkout (``../shared``), or where EQSAT_SHARED says."""
    for candidate in (os.environ.get("EQSAT_SHARED"), ROOT.parent / "shared", ROOT / "shared"):
        if candidate and Path(candidate, "corpus").is_dir():
            return Path(candidate)
    return None


def split_chunks(path: Path) -> list[tuple[str, int, str]]:
    """``// -----`` separated chunks: (header comment text, first line number, text)."""
    chunks: list[tuple[str, int, str]] = []
    line_no = 1
    for part in path.read_text().split("// -----\n"):
        header = "\n".join(l for l in part.splitlines() if l.startswith("//"))
        chunks.append((header, line_no, part))
        line_no += part.count("\n") + 1
    return chunks


# -- per-statement corpus (seed-statements.mlir) -------------------------------------------------
_HEADER_TAGS = ("// STMT:", "// SNIPPET:", "// DOC-STATUS:", "// mlir-opt-", "// FREE-VALUES")


@dataclass
class Statement:
    """One chunk of ``seed-statements.mlir`` and what real MLIR said about it."""

    id: str
    status: str  # VALID | MIXED | INVALID-BY-DOC | PSEUDO | LEGACY
    accepted: dict[int, bool]  # MLIR release -> parse=True verify=True
    verdicts: dict[int, str]  # MLIR release -> the header line's verdict, for messages
    free_values: dict[str, str]  # SSA name -> type, in order
    line: int  # first line of the chunk in its file
    lines: list[str]  # the chunk's lines, header comments included


def statements(path: Path) -> list[Statement]:
    out = []
    for header, line, text in split_chunks(path)[1:]:
        sid = re.search(r"^// STMT: (\S+)", header, re.MULTILINE)
        status = re.search(r"^// DOC-STATUS: (\S+)", header, re.MULTILINE)
        if sid is None or status is None:
            continue
        accepted, verdicts = {}, {}
        for m in re.finditer(
            r"^// mlir-opt-(\d+): (parse=(\w+) verify=(\w+).*)$", header, re.MULTILINE
        ):
            accepted[int(m[1])] = m[3] == m[4] == "True"
            verdicts[int(m[1])] = m[2]
        free = re.search(r"^// FREE-VALUES\(\d+\): (.*)$", header, re.MULTILINE)
        values = json.loads(free[1]) if free else {}
        out.append(Statement(sid[1], status[1], accepted, verdicts, values, line, text.split("\n")))
    return out


def wrap(lines: list[str], first_line: int, free_values: dict[str, str]) -> str:
    """The chunk as ``func.func @seed_example(<free values>) { <stmt> return }``, with every
    statement character at its original line and column, so that diagnostics point into the
    corpus file. ``#alias = ...`` definitions before the statement stay at the top level."""
    body = ["" if l.startswith(_HEADER_TAGS) else l for l in lines]
    depth, start = 0, len(body)
    for i, l in enumerate(body):
        s = l.strip()
        if depth == 0 and s and not s.startswith(("#", "//")):
            start = i
            break
        if not s.startswith("//"):
            depth += sum(s.count(c) for c in "[{(") - sum(s.count(c) for c in "]})")
    args = ", ".join(f"{name}: {t}" for name, t in free_values.items())
    head = f"func.func @seed_example({args}) {{"
    prev = max(start - 1, 0)
    if body[prev].strip() and not body[prev].lstrip().startswith("//"):
        body[prev] += " " + head  # the last line of an alias definition
    else:
        body[prev] = head
    return "\n" * (first_line - 1) + "\n".join(body) + "\n  return\n}\n"
