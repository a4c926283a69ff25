"""What the CLI asks of code generation: run a function compiled for a target, or print its
LLVM IR or assembly. ``eqsat.cli`` and ``eqsat.commands`` import this lazily (it is the top
floor)."""

from __future__ import annotations

import sys

from eqsat.codegen.api import compile, emit_assembly, emit_llvm_ir
from eqsat.codegen.types import CodegenError
from eqsat.targets import load_target
from frontend.ir import Module

RUN_ORDER = ("avx512", "avx2", "x86-64-v2")  # best first


def best_host_target() -> str | None:
    """The best target whose code this host can execute (None: only the interpreter)."""
    for name in RUN_ORDER:
        try:
            if load_target(name).runs_on_host():
                return name
        except Exception:  # a missing or broken target file: try the next one
            continue
    return None


def run(
    module: Module,
    target: str,
    entry: str,
    layout: str = "nested",
    reassoc: bool = False,
    matrix_layout: str = "row-major",
    fp_contract: bool = False,
) -> None:
    """Compile module for target, memory accesses bounds-checked, and call entry (no
    arguments); prints go to sys.stdout."""
    program = compile(
        module,
        target,
        entry=entry,
        layout=layout,
        reassoc=reassoc,
        checked=True,
        matrix_layout=matrix_layout,
        fp_contract=fp_contract,
    )
    try:
        program[entry]()
    finally:
        sys.stdout.flush()


def emit(
    module: Module,
    target: str,
    kind: str,
    layout: str = "nested",
    reassoc: bool = False,
    fp_contract: bool = False,
) -> str:
    """LLVM IR ('llvm') or the target's assembly ('asm') of module."""
    if kind == "llvm":
        return emit_llvm_ir(module, target, layout, reassoc, fp_contract=fp_contract)
    if kind == "asm":
        return emit_assembly(module, target, layout, reassoc, fp_contract)
    raise CodegenError(f"unknown output kind {kind!r}")


__all__ = ["CodegenError", "best_host_target", "emit", "run"]
