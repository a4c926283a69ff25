"""Property: any well-typed program computes the same bits after optimization, whichever
alternatives extraction is pushed to pick (original ops, lowering strategies, native tiles).

Programs are random chains of element-wise ops, transposes, broadcasts, shape casts,
extracts, reductions and contractions over small f32 vectors.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eqsat.cost import vv_cost
from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from frontend import parse

MM = (
    "{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
    'affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}'
)


def vt(shape: tuple[int, ...]) -> str:
    return f"vector<{'x'.join(map(str, shape))}xf32>"


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, list[tuple[int, ...]]]:
    """MLIR text of ``@f`` and the shapes of its arguments."""
    a, b = draw(st.sampled_from([(2, 3), (2, 4), (3, 4), (4, 4)]))
    args = [(a, b), (a, b), (b, a), (b,)]
    values: list[tuple[str, tuple[int, ...]]] = [(f"%arg{i}", s) for i, s in enumerate(args)]
    lines: list[str] = []

    def pick(pred=lambda s: True) -> tuple[str, tuple[int, ...]] | None:
        options = [v for v in values if pred(v[1])]
        return draw(st.sampled_from(options)) if options else None

    for n in range(draw(st.integers(3, 9))):
        name = f"%v{n}"
        kind = draw(st.sampled_from(
            ["binary", "binary", "transpose", "broadcast", "shape_cast", "extract",
             "reduce", "contract", "fma"]))
        x = pick(lambda s: len(s) >= 1)
        assert x is not None
        result: tuple[int, ...] | None = None
        if kind == "binary":
            y = pick(lambda s: s == x[1])
            op = draw(st.sampled_from(["addf", "subf", "mulf", "maximumf"]))
            lines.append(f"{name} = arith.{op} {x[0]}, {y[0]} : {vt(x[1])}")
            result = x[1]
        elif kind == "fma":
            y = pick(lambda s: s == x[1])
            lines.append(f"{name} = vector.fma {x[0]}, {y[0]}, {x[0]} : {vt(x[1])}")
            result = x[1]
        elif kind == "transpose" and len(x[1]) == 2:
            result = (x[1][1], x[1][0])
            lines.append(f"{name} = vector.transpose {x[0]}, [1, 0] : {vt(x[1])} to {vt(result)}")
        elif kind == "broadcast" and len(x[1]) == 1:
            result = (2, x[1][0])
            lines.append(f"{name} = vector.broadcast {x[0]} : {vt(x[1])} to {vt(result)}")
        elif kind == "shape_cast":
            n_el = int(np.prod(x[1]))
            result = (n_el,) if len(x[1]) == 2 else (2, n_el // 2) if n_el % 2 == 0 else None
            if result is not None:
                lines.append(f"{name} = vector.shape_cast {x[0]} : {vt(x[1])} to {vt(result)}")
        elif kind == "extract" and len(x[1]) == 2:
            row = draw(st.integers(0, x[1][0] - 1))
            result = (x[1][1],)
            lines.append(f"{name} = vector.extract {x[0]}[{row}] : {vt(result)} from {vt(x[1])}")
        elif kind == "reduce" and len(x[1]) == 2:
            acc = pick(lambda s: s == (x[1][0],))
            if acc is not None:
                result = (x[1][0],)
                lines.append(f"{name} = vector.multi_reduction <add>, {x[0]}, {acc[0]} [1] : "
                             f"{vt(x[1])} to {vt(result)}")
        elif kind == "contract" and len(x[1]) == 2:
            y = pick(lambda s: len(s) == 2 and s[0] == x[1][1])
            if y is not None:
                acc = pick(lambda s: s == (x[1][0], y[1][1]))
                if acc is not None:
                    result = acc[1]
                    lines.append(f"{name} = vector.contract {MM} {x[0]}, {y[0]}, {acc[0]} : "
                                 f"{vt(x[1])}, {vt(y[1])} into {vt(result)}")
        if result is not None:
            values.append((name, result))
    out, shape = values[-1]
    params = ", ".join(f"%arg{i}: {vt(s)}" for i, s in enumerate(args))
    body = "\n  ".join(lines)
    text = f"func.func @f({params}) -> {vt(shape)} {{\n  {body}\n  return {out} : {vt(shape)}\n}}\n"
    return text, args


LOWERED = vv_cost({name: 1e6 for name in (
    "Contract", "Transpose", "MultiReduction", "Broadcast", "ShapeCast", "ContractMatmul",
    "TransposeFlat",
)})


def wide(literals: tuple) -> float:
    n = 1
    for d in literals[-1][1]:
        n *= d
    return float(n * n)


TILED = vv_cost({op: wide for op in ("ArithAddf", "ArithSubf", "ArithMulf", "Fma")})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.integers(0, 2**32 - 1))
def test_optimized_programs_compute_the_same_bits(case, seed) -> None:
    text, shapes = case
    module = parse(text)
    rng = np.random.default_rng(seed)
    args = [rng.normal(0, 2, s).astype(np.float32) for s in shapes]
    want = Interpreter(module).call("f", *[a.copy() for a in args])
    for cost, native in ((None, None), (LOWERED, None), (TILED, {"f32": 2})):
        result = optimize_module(module, cost=cost, native=native)
        got = Interpreter(result.module).call("f", *[a.copy() for a in args])
        assert np.array_equal(np.asarray(want), np.asarray(got), equal_nan=True), (
            f"{text}\n--- optimized ---\n{result.module}"
        )
