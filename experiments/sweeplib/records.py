"""The record file: one JSON object per line, appended as runs finish.

Appending line by line (flushed and synced) means a killed sweep loses at most the line it
was writing; ``load_records`` skips such a torn last line, so the rerun simply runs that spec
again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

FORMAT = "eqsat-sweep-record/1"


def record_key(record: Mapping[str, Any]) -> str:
    return str(record["key"])


def iter_records(path: str | Path) -> Iterator[dict[str, Any]]:
    """Every complete record of a file, in file order (a missing file has none)."""
    path = Path(path)
    if not path.exists():
        return
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.endswith("\n"):
                return  # torn last line of an interrupted sweep
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and record.get("format") == FORMAT:
                yield record


def load_records(path: str | Path, ok_only: bool = True) -> dict[str, dict[str, Any]]:
    """key -> latest record; ``ok_only`` drops runs that failed (a rerun retries them)."""
    out: dict[str, dict[str, Any]] = {}
    for record in iter_records(path):
        if ok_only and record.get("status") != "ok":
            continue
        out[record_key(record)] = record
    return out


def append_record(fh: IO[str], record: Mapping[str, Any]) -> None:
    fh.write(json.dumps(record, sort_keys=True, default=_plain) + "\n")
    fh.flush()
    os.fsync(fh.fileno())


def _plain(obj: object) -> object:
    """JSON for values run functions commonly return (numpy scalars, tuples, paths)."""
    if hasattr(obj, "item"):
        return obj.item()  # type: ignore[union-attr]
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)  # type: ignore[type-var]
    return str(obj)
