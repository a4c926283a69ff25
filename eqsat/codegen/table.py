"""The lowering table: op name -> lowering, assembled from the dialect modules.

``UNSUPPORTED`` lists the ops of the op table that have no lowering, with the reason; a test
checks that every op is in exactly one of the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eqsat.codegen import (
    affine,
    arith,
    hwv_target,
    llvm_intr,
    llvm_memory,
    math,
    memref,
    memref_views,
    runtime,
    scf,
    ub,
    vector_memory,
    vector_reduce,
    vector_shape,
)

LOWERINGS: dict[str, Callable[..., Any]] = {
    **affine.LOWERINGS,
    **arith.LOWERINGS,
    **ub.LOWERINGS,
    **math.LOWERINGS,
    **memref.LOWERINGS,
    **memref_views.LOWERINGS,
    **scf.LOWERINGS,
    **vector_shape.LOWERINGS,
    **vector_reduce.LOWERINGS,
    **vector_memory.LOWERINGS,
    **runtime.LOWERINGS,
    **llvm_intr.LOWERINGS,
    **llvm_memory.LOWERINGS,
    **hwv_target.LOWERINGS,
}

# Ops that never reach a lowering: definitions and terminators handled by their parent.
STRUCTURAL = {
    "builtin.module": "the module itself (its functions and globals are emitted one by one)",
    "func.func": "a definition: emitted by eqsat.codegen.module",
    "scf.yield": "terminator: its operands are handed to the parent op",
    "scf.condition": "terminator of scf.while's before region: handled by scf.while",
    "vector.yield": "terminator of vector.mask's region: handled by vector.mask",
    "transform.named_sequence": "a transform script (kept verbatim), not code: not emitted",
}

UNSUPPORTED = {
    "builtin.unrealized_conversion_cast": "a conversion artifact with no meaning of its own",
}
