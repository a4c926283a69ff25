"""The zero-sign witness of a minnum/maxnum fold (``eqsat.codegen.emitter.ZeroWitness``) is
built beside the fold, one step per item right after the step that uses it: built after the
whole fold it kept every item live to the end, and on x86-64-v2 (16 xmm registers) a few
column chains of a maximum over rows spilled (reduce_maxnumf_16x64_d0_f32, 1.7x MLIR 22's
time; experiments/results/ab_rmax_interleave_x86-64-v2.md). Bits stay the interpreter's."""

from __future__ import annotations

import re

from eqsat.codegen.api import emit_assembly, emit_llvm_ir

STEP = re.compile(r'call .*@"llvm\.(maxnum|umin|minnum|smin)\.')


def _columns(groups: int, rows: int, e: str = "f32", op: str = "arith.maxnumf") -> str:
    """A maximum over ``rows`` rows of ``groups`` 4-lane columns, column after column (as
    eqsat's column tiling of a multi_reduction emits it): one chain per column."""
    w = 4 * groups
    lines = [f"func.func @f(%m: memref<{rows}x{w}x{e}>, %a: memref<{w}x{e}>, "
             f"%o: memref<{w}x{e}>) {{"]  # fmt: skip
    lines += [f"  %i{i} = arith.constant {i} : index" for i in range(max(rows, w))]
    for g in range(groups):
        lines.append(f"  %s{g}_0 = vector.load %a[%i{4 * g}] : memref<{w}x{e}>, vector<4x{e}>")
        for i in range(rows):
            lines.append(f"  %x{g}_{i} = vector.load %m[%i{i}, %i{4 * g}] : "
                         f"memref<{rows}x{w}x{e}>, vector<4x{e}>")  # fmt: skip
            lines.append(f"  %s{g}_{i + 1} = {op} %s{g}_{i}, %x{g}_{i} : vector<4x{e}>")
        lines.append(f"  vector.store %s{g}_{rows}, %o[%i{4 * g}] : memref<{w}x{e}>, vector<4x{e}>")
    return "\n".join(lines) + "\n  return\n}\n"


def _steps(ir_text: str) -> list[str]:
    """The min/max and witness calls of @f, in order."""
    return STEP.findall(ir_text.split("define ", 2)[1])


def test_a_chain_adds_each_operand_to_the_witness_after_its_step() -> None:
    steps = _steps(emit_llvm_ir(_columns(1, 8), "x86-64-v2"))
    assert steps == ["maxnum", "umin"] + ["maxnum", "umin"] * 7


def test_a_fold_adds_each_item_to_the_witness_after_its_step() -> None:
    text = ("func.func @f(%v: vector<8x4xf32>, %a: vector<4xf32>) -> vector<4xf32> {\n"
            "  %r = vector.multi_reduction <minnumf>, %v, %a [0] : vector<8x4xf32> to "
            "vector<4xf32>\n  return %r : vector<4xf32>\n}\n")  # fmt: skip
    steps = _steps(emit_llvm_ir(text, "x86-64-v2", layout="flat"))
    assert steps == ["minnum", "smin"] * 8


def test_column_chains_of_a_maximum_do_not_spill_on_sse() -> None:
    """Two 16-row column chains: 2 accumulators and 2 witnesses fit in 16 xmm registers; with
    the witness built after each chain its 16 rows stayed live and 24 of them went to the
    stack (LLVM 22)."""
    asm = emit_assembly(_columns(2, 16), "x86-64-v2")
    assert asm.count("maxps") and asm.count("pminud")
    assert re.findall(r"mov[au]p[sd]\s+%xmm\d+, -?\d*\(%rsp\)", asm) == []
