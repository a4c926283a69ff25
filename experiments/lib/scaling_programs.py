"""MLIR text generators for the scaling study: one op at growing vector sizes, chains of
growing length, and whole programs of thousands of ops.

Every program takes its inputs as function arguments (no constants to fold), so the e-graph
holds the real data flow.
"""

from __future__ import annotations

import random

from experiments.lib.kernels import MATMUL, TRANSPOSE

MAPS = (
    "#mm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
    'affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}\n'
)


def contract(n: int) -> str:
    """One ``n x n x n`` f32 matmul contraction."""
    return MATMUL.format(m=n, n=n, k=n)


def transpose(n: int) -> str:
    """One ``n x n`` f32 transpose and an add (the add keeps the transpose from folding away)."""
    return TRANSPOSE.format(m=n, n=n)


def matmul_chain(length: int, n: int = 8) -> str:
    """``x_{i+1} = contract(x_i, b_i, zero)``: ``length`` dependent ``n x n x n`` matmuls,
    each with its own right operand (the shape of DialEgg's matmul-chain benchmark)."""
    t = f"vector<{n}x{n}xf32>"
    args = ", ".join([f"%x0: {t}", f"%z: {t}"] + [f"%b{i}: {t}" for i in range(length)])
    lines = [MAPS, f"func.func @chain({args}) -> {t} {{"]
    for i in range(length):
        lines.append(f"  %x{i + 1} = vector.contract #mm %x{i}, %b{i}, %z : {t}, {t} into {t}")
    lines += [f"  return %x{length} : {t}", "}", ""]
    return "\n".join(lines)


# The ops of a mixed chain, cycled: each takes the previous value and a fresh argument.
def _step(i: int, prev: str, arg: str, t: str) -> str:
    match i % 4:
        case 0:
            return f"vector.contract #mm {prev}, {arg}, {arg} : {t}, {t} into {t}"
        case 1:
            return f"vector.transpose {prev}, [1, 0] : {t} to {t}"
        case 2:
            return f"arith.addf {prev}, {arg} : {t}"
        case _:
            return f"arith.mulf {prev}, {arg} : {t}"


def mixed_chain(length: int, n: int = 8) -> str:
    """A chain of ``length`` dependent ops cycling contract, transpose, addf, mulf on
    ``n x n`` f32 values (``length // 4`` rounded up arguments feed the chain)."""
    t = f"vector<{n}x{n}xf32>"
    nargs = max(1, (length + 3) // 4)
    args = ", ".join([f"%v0: {t}"] + [f"%a{i}: {t}" for i in range(nargs)])
    lines = [MAPS, f"func.func @chain({args}) -> {t} {{"]
    for i in range(length):
        lines.append(f"  %v{i + 1} = {_step(i, f'%v{i}', f'%a{i // 4}', t)}")
    lines += [f"  return %v{length} : {t}", "}", ""]
    return "\n".join(lines)


def random_program(ops: int, seed: int = 0, n: int = 8, width: int = 32) -> str:
    """A random data-flow program of ``ops`` ops on ``n x n`` f32 values: each op picks its
    operands among the last ``width`` values (wide, shared sub-terms, not one chain), and every
    value not used later is returned, so nothing is dead."""
    rng = random.Random(seed)
    t = f"vector<{n}x{n}xf32>"
    nargs = 8
    values = [f"%a{i}" for i in range(nargs)]
    used: set[str] = set()
    lines = [MAPS, ""]
    body = []
    for i in range(ops):
        window = values[-width:]
        x, y, z = (rng.choice(window) for _ in range(3))
        kind = rng.randrange(6)
        if kind == 0:
            op = f"vector.contract #mm {x}, {y}, {z} : {t}, {t} into {t}"
            used.update((x, y, z))
        elif kind == 1:
            op = f"vector.transpose {x}, [1, 0] : {t} to {t}"
            used.add(x)
        elif kind == 2:
            op = f"vector.fma {x}, {y}, {z} : {t}"
            used.update((x, y, z))
        else:
            name = ("arith.addf", "arith.mulf", "arith.maximumf")[kind - 3]
            op = f"{name} {x}, {y} : {t}"
            used.update((x, y))
        body.append(f"  %v{i} = {op}")
        values.append(f"%v{i}")
    outs = [v for v in values[nargs:] if v not in used] or [values[-1]]
    args = ", ".join(f"%a{i}: {t}" for i in range(nargs))
    types = ", ".join([t] * len(outs))
    lines.append(f"func.func @program({args}) -> ({types}) {{")
    lines += body
    lines += [f"  return {', '.join(outs)} : {types}", "}", ""]
    return "\n".join(lines)
