"""Provenance of a results file: commit, dirty flag, date, host CPU and features, LLVM / MLIR /
llvmlite versions, load, command line.

Usage: ``from experiments.lib.provenance import record, markdown_header, write_sidecar`` and put
``markdown_header()`` at the top of a ``.md`` result, ``record()`` into JSON records, or
``write_sidecar(path)`` next to a CSV (``<path>.provenance.json``).
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from experiments.sweeplib.provenance import git_commit, host


@functools.cache
def cpu_features() -> list[str]:
    """The host CPU features LLVM sees (its names: ``avx2``, ``fma``, ``avx512f``, ...)."""
    try:
        from llvmlite import binding as llvm

        return sorted(name for name, on in llvm.get_host_cpu_features().items() if on)
    except (ImportError, RuntimeError):
        return []


@functools.cache
def tool_versions() -> dict[str, str | None]:
    """llvmlite and the LLVM it links, and the MLIR tools' LLVM (``mlir-opt-22 --version``)."""
    out: dict[str, str | None] = {"llvmlite": None, "llvmlite_llvm": None, "mlir_opt": None}
    try:
        import llvmlite
        from llvmlite import binding as llvm

        out["llvmlite"] = llvmlite.__version__
        out["llvmlite_llvm"] = ".".join(map(str, llvm.llvm_version_info))
    except ImportError:
        pass
    from eqsat.bench.mlir_baseline import find_tool

    opt = find_tool("mlir-opt")
    if opt:
        try:
            text = subprocess.run(
                [opt, "--version"], capture_output=True, text=True, timeout=10, check=False
            ).stdout
            line = next((ln.strip() for ln in text.splitlines() if "version" in ln), None)
            out["mlir_opt"] = f"{opt}: {line}" if line else opt
        except (OSError, subprocess.SubprocessError):
            out["mlir_opt"] = opt
    return out


def record(argv: list[str] | None = None) -> dict[str, Any]:
    """The provenance fields of a results file written now by the command ``argv``
    (``sys.argv`` by default)."""
    argv = sys.argv if argv is None else argv
    try:
        load = list(os.getloadavg())
    except OSError:
        load = None
    return {
        "git": git_commit(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "host": host(),
        "cpu_features": cpu_features(),
        "versions": tool_versions(),
        "load_average": load,
        "command": shlex.join([Path(sys.executable).name, *argv]),
    }


def markdown_header(prov: dict[str, Any] | None = None) -> str:
    """A few markdown lines stating ``prov`` (``record()`` by default)."""
    p = prov or record()
    git = p["git"]
    commit = (git["commit"] or "unknown")[:12] + (" (dirty tree)" if git["dirty"] else "")
    h, v = p["host"], p["versions"]
    vector = [f for f in p["cpu_features"] if f.startswith(("avx", "fma", "sse4"))]
    load = ", ".join(f"{x:.2f}" for x in p["load_average"]) if p["load_average"] else "unknown"
    return "\n".join([
        f"Command: `{p['command']}`; commit {commit}; {p['date']}.",
        f"Host: {h['cpu']}, {h['cpus']} CPUs, {h['system']} {h['machine']}; vector features: "
        f"{' '.join(vector) or 'none'}; load average (1, 5, 15 min) {load}.",
        f"llvmlite {v['llvmlite']} (LLVM {v['llvmlite_llvm']}); MLIR: {v['mlir_opt']}.",
    ]) + "\n"  # fmt: skip


def write_sidecar(path: str | Path, prov: dict[str, Any] | None = None) -> Path:
    """Write ``prov`` (``record()`` by default) to ``<path>.provenance.json``; its path."""
    side = Path(f"{path}.provenance.json")
    side.write_text(json.dumps(prov or record(), indent=1) + "\n")
    return side
