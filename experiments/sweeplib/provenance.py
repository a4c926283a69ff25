"""What a record says about where and with what it ran: version, commit, host, file hashes.

Computed on the worker that runs the spec (a cluster's machines may hold another checkout),
and cached per process: ``git`` is asked once, each file hashed once.
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from experiments.sweeplib.spec import Spec

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def project_version() -> str:
    try:
        return metadata.version("eqsat")
    except metadata.PackageNotFoundError:
        return "unknown"


@functools.cache
def git_commit() -> dict[str, Any]:
    """The checkout's commit and whether it had uncommitted changes (None outside git)."""

    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(
                ["git", *args], check=False, cwd=ROOT, capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no") if commit else None
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


@functools.cache
def host() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:  # the model name says more than platform.processor() on Linux
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "name": platform.node(),
        "system": platform.system(),
        "machine": platform.machine(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }


@functools.cache
def _file_hash(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def rule_files(spec: Spec) -> list[Path]:
    """The rule files a spec's run uses, in install order."""
    from eqsat.rulefile import find, rules_dir

    root = rules_dir()
    phases = list(spec.phases) + (["fast-math"] if spec.fast_math else [])
    files = [p for phase in phases for p in sorted((root / phase).glob("*.egg"))]
    return files + [find(p) for p in spec.extra_rules]


def ruleset_hash(spec: Spec) -> str:
    """One hash over the rule files' names and contents: equal hash, equal rules."""
    from eqsat.rulefile import rules_dir

    root = rules_dir()
    h = hashlib.sha256()
    for path in rule_files(spec):
        name = path.relative_to(root) if path.is_relative_to(root) else path.name
        h.update(f"{name}\0{_file_hash(str(path))}\0".encode())
    return h.hexdigest()[:16]


def cost_file(spec: Spec) -> Path | None:
    """The cost file a spec's run reads: its ``costs`` path, else its target's shipped file."""
    if spec.costs:
        return Path(spec.costs)
    if spec.target:
        path = ROOT / "costs" / f"{spec.target}.toml"
        return path if path.is_file() else None
    return None


def describe(spec: Spec) -> dict[str, Any]:
    """The provenance fields of a record for ``spec``."""
    costs = cost_file(spec)
    return {
        "version": project_version(),
        "git": git_commit(),
        "host": host(),
        "target": spec.target,
        "ruleset_hash": ruleset_hash(spec),
        "rule_files": [p.name for p in rule_files(spec)],
        "cost_file": str(costs) if costs else None,
        "cost_hash": _file_hash(str(costs))[:16] if costs else None,
        "budget": dict(spec.budget),
        "seed": spec.seed,
    }
