"""Texts compiled code refers to by number (print texts, element-type names, fault messages):
one process-wide, append-only table shared by the emitter and the runtime callbacks."""

from __future__ import annotations

TEXTS: list[str] = []
_IDS: dict[str, int] = {}


def text_id(s: str) -> int:
    if s not in _IDS:
        _IDS[s] = len(TEXTS)
        TEXTS.append(s)
    return _IDS[s]


FAULT_SITES: list[tuple[str, object]] = []  # (message, source location) by fault id


def fault_id(message: str, loc: object) -> int:
    FAULT_SITES.append((message, loc))
    return len(FAULT_SITES) - 1
