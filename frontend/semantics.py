"""numpy reference semantics of the `vector` dialect and the `arith`/`math`/`memref` ops around
it: the oracle every rewrite is checked against. Pure numpy, no imports from the rest of the
project; the op table calls these functions.

The kernels live in these modules, all re-exported here:

* :mod:`frontend.semantics_core`: element types (``'i1' 'i8' 'i16' 'i32' 'i64' 'index' 'f16'
  'bf16' 'f32' 'f64'``, any ``iN`` up to 64 bits), storage conventions, exact rounding,
  :class:`SemanticsError`;
* :mod:`frontend.semantics_arith`: `arith` element-wise ops;
* :mod:`frontend.semantics_math`: `math` element-wise ops;
* :mod:`frontend.semantics_vector`: combining kinds, contract, reductions, scan, shape ops;
* :mod:`frontend.semantics_memory`: :class:`MemRef` and the memory ops;
* :mod:`frontend.semantics_print`: the exact text of ``vector.print``.

Decisions (evidence: tiny programs run through mlir-opt-22 + mlir-runner-22):

* scan: inclusive ignores the initial value; exclusive starts from it; the second result is
  the last output element (so an exclusive scan omits the last source element);
* contract/outerproduct with a non-add kind fold every product into acc; outerproduct's float
  add is fused (one rounding); contract's float products are rounded (MLIR's own lowerings
  differ there);
* multi_reduction with no reduction dims returns the source, ignoring acc;
* transfer masks are indexed like the vector with broadcast dims dropped and the remaining
  dims in memref order (read and write alike);
* gather/scatter offsets count in the row-major linearisation of a contiguous memref (measured,
  MLIR 22), along the innermost dim of a strided view; leaving the memref is an error (UB);
* flat_transpose and matrix_multiply use ROW-MAJOR flattened matrices (project decision);
* fma (vector.fma, math.fma) rounds once, as documented; note that MLIR 22 lowers vector.fma
  to llvm.intr.fmuladd, which LLVM may leave unfused (measured on bf16), so the last bit of
  fma/outerproduct results is lowering-dependent;
* a NaN an op produces gets the host's sign (x86: -nan, as MLIR's JIT prints at run time;
  constant folding prints nan): compare NaN signs leniently;
* vector.print prints `index` values UNSIGNED; `str` adds no newline;
* poison (shift >= width, fptosi out of range, shuffle/extract/insert index -1) gets a fixed
  value (documented per function); division by zero, signed division overflow and every
  out-of-bounds access raise SemanticsError.
"""

from __future__ import annotations

from .semantics_arith import *
from .semantics_core import *
from .semantics_math import *
from .semantics_memory import *
from .semantics_print import *
from .semantics_vector import *
