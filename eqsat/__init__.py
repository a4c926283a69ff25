"""eqsat: equality saturation for MLIR's vector dialect.

``eqsat.compile(source, target="avx2")`` is the Python API of code generation (see
``eqsat.codegen.compile``); it is looked up on first use, so importing the e-graph core does
not load LLVM.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "compile":
        from eqsat.codegen import compile

        return compile
    raise AttributeError(f"module 'eqsat' has no attribute {name!r}")
