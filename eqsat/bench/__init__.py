"""Benchmarks: eqsat's compiled code timed against MLIR 22's own lowerings of the same input.

Sits on top of code generation: it may import codegen, targets, the core and the frontend;
only the CLI imports it. ``mlir_baseline`` holds the MLIR pipelines, ``harness`` compiles LLVM
IR with llvmlite and times it, ``run`` builds one kernel's table, ``command`` is ``eqsat
bench``.
"""
