"""Shared corpora for the tests: the seed examples split into chunks, with their headers."""

from __future__ import annotations

import os
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
