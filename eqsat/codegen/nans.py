"""Signalling NaNs LLVM could see: made quiet where the interpreter treats them as quiet.

The interpreter's ``minnumf``/``maxnumf`` ignore a NaN operand, signalling or quiet
(``frontend.semantics``). LLVM 22's ``llvm.minnum``/``maxnum`` may instead return a NaN when
an operand is a signalling NaN (LangRef: non-deterministically), and its optimizer uses that
freedom where it sees the NaN: ``minnum(minnum(minnum(x, -0.0), sNaN), qNaN)`` became
``minnum(x, MAX)`` at O3, dropping the -0.0 (the 10,000-program fuzz campaign's finding,
``tests/fuzz_regressions/``). x86's own lowering ignores a signalling NaN as a quiet one, so
only a NaN the optimizer can see matters: a constant, or a value moved out of constants. Such
an operand is quieted in integer ops, which LLVM folds into a quiet constant (no instruction
left); a value computed at run time is left as it is.
"""

from __future__ import annotations

from llvmlite import ir

from eqsat.codegen.types import bit_width

# Instructions whose value is their operands' moved or reinterpreted (LLVM folds them when the
# operands are constants), and how many of them a check follows before giving up.
_MOVES = frozenset({"extractvalue", "insertvalue", "extractelement", "insertelement",
                    "shufflevector", "bitcast"})  # fmt: skip
_MAX_STEPS = 4096

# Fraction bits of each float type: the quiet bit is the highest of them.
_FRACTION = {"half": 10, "bfloat": 7, "float": 23, "double": 52}


def from_constants(v: ir.Value) -> bool:
    """Whether ``v`` is a constant or made only by moving constants' lanes (``_MOVES``)."""
    todo, seen = [v], set()
    while todo:
        x = todo.pop()
        if isinstance(x, ir.Constant) or id(x) in seen:
            continue
        if not isinstance(x, ir.Instruction) or x.opname not in _MOVES or len(seen) > _MAX_STEPS:
            return False
        seen.add(id(x))
        todo.extend(o for o in x.operands if isinstance(o, ir.Value))
    return True


def quieted(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """``x`` (a float scalar or vector) with the quiet bit set in each NaN, in integer ops:
    LLVM may drop a float-level quieting, as it does not tell NaNs apart."""
    t = x.type
    lane = t.element if isinstance(t, ir.VectorType) else t
    it: ir.Type = ir.IntType(bit_width(lane))
    quiet, zero = it(1 << (_FRACTION[str(lane)] - 1)), it(0)
    if isinstance(t, ir.VectorType):
        it = ir.VectorType(it, t.count)
        quiet, zero = ir.Constant(it, [quiet] * t.count), ir.Constant(it, [zero] * t.count)
    nan = b.fcmp_unordered("uno", x, x)
    return b.bitcast(b.or_(b.bitcast(x, it), b.select(nan, quiet, zero)), t)


def quieted_if_seen(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """``quieted(b, x)`` where LLVM's optimizer could see a NaN in ``x`` (``from_constants``),
    else ``x``."""
    return quieted(b, x) if from_constants(x) else x
