"""What the benchmark times: a variant is a name, a way to get LLVM IR (in MLIR's ABI), the
comparison group it belongs to and, rarely, its own LLVM options.

Every variant of one kernel compiles under the same LLVM options (the target file's:
``eqsat.codegen.llvm_options.LlvmOptions.of``) unless it names others (a study of the options
themselves); only the layout of LLVM's matrix intrinsics is the variant's own (MLIR's two
``llvmintr`` strategies assume opposite layouts). The group says
what floating-point freedom the code has and which eqsat row its ratio is taken to:

- ``""``: none (IEEE order; MLIR's reductions in order),
- ``"+reassoc"``: float reductions may be reassociated (MLIR's ``reassociate-fp-reductions``;
  eqsat emits its reductions with LLVM's ``reassoc`` flag, no fast-math rewrites),
- ``"+fast-math"``: every floating-point instruction of the LLVM IR carries LLVM's ``fast``
  flags (``with_fast_math``, applied alike to MLIR's IR and eqsat's), and eqsat also runs its
  fast-math rewrite rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from eqsat.codegen.llvm_options import LlvmOptions

GROUPS = ("", "+reassoc", "+fast-math")


@dataclass(frozen=True)
class Variant:
    """One row of a benchmark. ``llvm_ir`` returns LLVM IR text whose entry function has the
    kernel's MLIR name and ABI, or raises ``eqsat.bench.mlir_baseline.CannotLower`` (the row
    then says why). Researchers add rows with ``bench(..., extra=[Variant(...)])``."""

    name: str
    llvm_ir: Callable[[], str]
    group: str = ""
    matrix_layout: str = "row-major"
    threadsafe: bool = False  # llvm_ir may run in a thread (MLIR's: separate processes)
    # LLVM options of this variant alone (studies of the options themselves); None: the
    # target file's, as every other variant (like with like)
    options: LlvmOptions | None = None

    def __post_init__(self) -> None:
        if self.group not in GROUPS:
            raise ValueError(f"variant {self.name}: group {self.group!r} is not one of {GROUPS}")


_FLAGS = r"(?:(?:fast|reassoc|nnan|ninf|nsz|arcp|contract|afn) )*"
_FP_TYPE = r"(?:<\d+ x (?:half|bfloat|float|double)>|half|bfloat|float|double)"
_ARITH = re.compile(rf"(= (?:fadd|fsub|fmul|fdiv|frem|fneg|fcmp) ){_FLAGS}")
_CALL = re.compile(rf"(= (?:tail |notail |musttail )?call ){_FLAGS}(?={_FP_TYPE} @)")


def with_fast_math(ir: str) -> str:
    """``ir`` with LLVM's ``fast`` flags on every floating-point operation and every call that
    returns a float or a vector of floats (what ``-ffast-math`` gives a C compiler's IR)."""
    return _CALL.sub(r"\1fast ", _ARITH.sub(r"\1fast ", ir))
