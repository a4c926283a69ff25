"""LLVM feature strings of target files: checked before LLVM sees them (a malformed one trips
an assertion inside LLVM; an unknown name is silently ignored), and compared with the host's
features before code runs (an instruction the CPU lacks is SIGILL)."""

from __future__ import annotations

import os
import re
import sys
import tempfile
from functools import cache

_FEATURE = re.compile(r"[+-][A-Za-z0-9][A-Za-z0-9._-]*")


def malformed(features: str) -> str | None:
    """The first item of a feature string that is not ``+name`` or ``-name`` (None: all are)."""
    if not features.strip():
        return None
    for item in features.split(","):
        if not _FEATURE.fullmatch(item.strip()):
            return item
    return None


def enabled(features: str) -> set[str]:
    """The names a well-formed feature string turns on (the last sign of a name wins)."""
    on: set[str] = set()
    for item in filter(None, (f.strip() for f in features.split(","))):
        (on.add if item[0] == "+" else on.discard)(item[1:])
    return on


@cache
def unknown(triple: str, features: str) -> tuple[str, ...]:
    """Names of a well-formed feature string that LLVM does not know for the triple (LLVM
    only warns about them on stderr: the warning is captured from file descriptor 2)."""
    from llvmlite import binding as llvm

    llvm.initialize_all_targets()
    try:
        target = llvm.Target.from_triple(triple)
    except RuntimeError:
        return ()  # reported where the target machine is made
    with tempfile.TemporaryFile() as tmp:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            target.create_target_machine(cpu="", features=features)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        said = tmp.read().decode(errors="replace")
    return tuple(re.findall(r"'[+-]([^']*)' is not a recognized feature", said))


def missing_on_host(features: str, requires: tuple[str, ...]) -> list[str]:
    """Required or enabled features the host CPU reports absent (names the host's list does
    not mention, such as tuning flags, are not counted)."""
    from llvmlite import binding as llvm

    try:
        host = llvm.get_host_cpu_features()
    except RuntimeError:
        return list(requires) or ["(host features unknown)"]
    need = sorted(set(requires) | enabled(features))
    return [f for f in need if not host.get(f, f not in requires)]
