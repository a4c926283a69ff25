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
def _llvm_says(triple: str, cpu: str, features: str) -> str:
    """What LLVM writes on stderr while making a target machine (it only warns about an
    unknown CPU or feature, then aborts later, in code generation): captured from file
    descriptor 2. Empty for a triple LLVM has no target for (``triple_problem`` says why)."""
    from llvmlite import binding as llvm

    llvm.initialize_all_targets()
    try:
        target = llvm.Target.from_triple(triple)
    except RuntimeError:
        return ""
    with tempfile.TemporaryFile() as tmp:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            target.create_target_machine(cpu=cpu, features=features)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode(errors="replace")


def triple_problem(triple: str) -> str | None:
    """Why LLVM has no target for the triple (None: it has one)."""
    from llvmlite import binding as llvm

    llvm.initialize_all_targets()
    try:
        llvm.Target.from_triple(triple)
    except RuntimeError as e:
        return str(e)
    return None


def unknown(triple: str, features: str) -> tuple[str, ...]:
    """Names of a well-formed feature string that LLVM does not know for the triple."""
    return tuple(re.findall(r"'[+-]([^']*)' is not a recognized feature",
                            _llvm_says(triple, "", features)))  # fmt: skip


def unknown_cpu(triple: str, cpu: str) -> bool:
    """Is cpu a processor LLVM does not know for the triple (its code would abort LLVM)?"""
    return bool(cpu) and "is not a recognized processor" in _llvm_says(triple, cpu, "")


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
