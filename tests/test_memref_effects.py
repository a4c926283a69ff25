"""memref views and realloc in the e-graph: views are reads of the memory state (ordered by it,
so never merged across a write), realloc is a barrier; programs keep their output through
``eqsat opt`` (the corpus tests run them too)."""

from __future__ import annotations

import io
from pathlib import Path

from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from eqsat.schema import BARRIER_OP, READ_OP, by_constructor
from frontend import parse

VIEW = """
func.func @entry() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %A = memref.alloc() : memref<4xf32>
  memref.store %one, %A[%c0] : memref<4xf32>
  %V1 = memref.reinterpret_cast %A to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xf32> to memref<2x2xf32>
  %a = memref.load %V1[%c0, %c0] : memref<2x2xf32>
  memref.store %two, %A[%c0] : memref<4xf32>
  %V2 = memref.reinterpret_cast %A to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xf32> to memref<2x2xf32>
  %b = memref.load %V2[%c0, %c0] : memref<2x2xf32>
  vector.print %a : f32
  vector.print %b : f32
  %R = memref.realloc %A : memref<4xf32> to memref<8xf32>
  %c = memref.load %R[%c0] : memref<8xf32>
  vector.print %c : f32
  return
}
"""


def _run(module) -> str:
    out = io.StringIO()
    Interpreter(module, out=out).call("entry")
    return out.getvalue()


def test_effect_classes() -> None:
    cons = by_constructor()
    for name in ("MemrefReinterpretCast", "MemrefExpandShape", "MemrefCollapseShape",
                 "MemrefTranspose", "MemrefView", "MemrefAssumeAlignment",
                 "MemrefExtractStridedMetadata"):
        assert cons[name].effect == READ_OP, name
        assert cons[name].args[-1].sort == "State", name
    assert "MemrefRealloc" not in cons  # a barrier: not a constructor, kept in place
    from eqsat.schema import effect_class
    from frontend.ops import lookup

    assert effect_class(lookup("memref.realloc")) == BARRIER_OP


def test_views_are_not_merged_across_a_write() -> None:
    module = parse(VIEW, "view.mlir")
    assert _run(module) == "1\n2\n2\n"
    out = optimize_module(module).module
    assert _run(out) == "1\n2\n2\n"
    text = str(out)
    assert text.count("memref.reinterpret_cast") == 2 and "memref.realloc" in text


def test_corpus_programs_survive_opt() -> None:
    root = Path(__file__).resolve().parent / "programs"
    for name in ("memref_views", "memref_subview_view"):
        module = parse((root / f"{name}.mlir").read_text(), name)
        assert _run(optimize_module(module).module) == (root / f"{name}.expected").read_text()
