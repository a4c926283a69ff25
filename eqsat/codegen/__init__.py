"""Code generation: our IR to LLVM IR (llvmlite), JIT-compiled for a target file's machine.

Imports only the frontend, the e-graph core and ``eqsat.targets``; nothing below imports it.
"""

from eqsat.codegen.api import Function, Program, compile, emit_assembly, emit_llvm_ir
from eqsat.codegen.types import CodegenError

__all__ = ["CodegenError", "Function", "Program", "compile", "emit_assembly", "emit_llvm_ir"]
