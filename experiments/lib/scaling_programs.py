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


def straight_line(ops: int, seed: int = 0, window: int = 32) -> str:
    """A random straight-line program of ``ops`` ops on ``vector<8x8xf32>``, ``vector<8xf32>``
    and ``f32`` values: addf, fma, 8x8 transposes, broadcasts, inserts, extracts and add
    reductions (the kind of program issue 20 found unbounded in memory). Each op reads values
    among the last ``window`` of the types it needs, its first operand the oldest one not yet
    used, so that few values are left over; those are returned. Valid for mlir-opt-22.

    Generated line by line, O(ops) time and memory (a million ops is about 60 MB of text)."""
    rng = random.Random(seed)
    types = {"m": "vector<8x8xf32>", "v": "vector<8xf32>", "s": "f32"}
    pools: dict[str, list[str]] = {k: [] for k in types}
    unused: dict[str, dict[str, None]] = {k: {} for k in types}  # insertion-ordered sets
    args = []
    for kind in types:
        for i in range(2):
            name = f"%{kind}{i}"
            args.append(f"{name}: {types[kind]}")
            pools[kind].append(name)

    position: dict[str, int] = {}  # value -> its index in its pool
    left: list[str] = []  # values that left the window unused: returned

    def pick(kind: str, first: bool = False) -> str:
        pool, waiting = pools[kind], unused[kind]
        if first:
            floor = len(pool) - window
            while waiting:
                oldest = next(iter(waiting))
                if position.get(oldest, 0) >= floor:
                    return oldest
                left.append(oldest)
                del waiting[oldest]
        return rng.choice(pool[-window:])

    body = []
    for i in range(ops):
        k = rng.randrange(12)
        if k < 2:  # addf, matrix or row
            kind = "m" if k == 0 else "v"
            x, y = pick(kind, True), pick(kind)
            line, out, used = f"arith.addf {x}, {y} : {types[kind]}", kind, (x, y)
        elif k < 4:  # fma
            kind = "m" if k == 2 else "v"
            x, y, z = pick(kind, True), pick(kind), pick(kind)
            line, out, used = f"vector.fma {x}, {y}, {z} : {types[kind]}", kind, (x, y, z)
        elif k == 4:
            x = pick("m", True)
            line, out, used = f"vector.transpose {x}, [1, 0] : {types['m']} to {types['m']}", "m", (x,)
        elif k == 5:  # broadcast f32 -> row
            x = pick("s", True)
            line, out, used = f"vector.broadcast {x} : f32 to {types['v']}", "v", (x,)
        elif k == 6:  # broadcast row -> matrix
            x = pick("v", True)
            line, out, used = f"vector.broadcast {x} : {types['v']} to {types['m']}", "m", (x,)
        elif k == 7:  # insert a row
            x, y = pick("v", True), pick("m")
            line = f"vector.insert {x}, {y} [{rng.randrange(8)}] : {types['v']} into {types['m']}"
            out, used = "m", (x, y)
        elif k == 8:  # insert a scalar
            x, y = pick("s", True), pick("v")
            line = f"vector.insert {x}, {y} [{rng.randrange(8)}] : f32 into {types['v']}"
            out, used = "v", (x, y)
        elif k == 9:  # extract a row
            x = pick("m", True)
            line, out, used = f"vector.extract {x}[{rng.randrange(8)}] : {types['v']} from {types['m']}", "v", (x,)
        elif k == 10:  # extract a scalar
            x = pick("v", True)
            line, out, used = f"vector.extract {x}[{rng.randrange(8)}] : f32 from {types['v']}", "s", (x,)
        else:  # reduction with an accumulator
            x, y = pick("v", True), pick("s")
            line, out, used = f"vector.reduction <add>, {x}, {y} : {types['v']} into f32", "s", (x, y)
        name = f"%{i}"
        body.append(f"  {name} = {line}")
        for u in used:
            for kind in types:
                unused[kind].pop(u, None)
        position[name] = len(pools[out])
        pools[out].append(name)
        unused[out][name] = None
    outs = left + [n for kind in types for n in unused[kind]]
    kinds = {n: kind for kind in types for n in pools[kind]}
    ret_types = ", ".join(types[kinds[n]] for n in outs)
    head = f"func.func @program({', '.join(args)}) -> ({ret_types}) {{"
    tail = [f"  return {', '.join(outs)} : {ret_types}", "}", ""]
    return "\n".join([head, *body, *tail])


def addf_chain(length: int, elem: str = "vector<8xf32>") -> str:
    """``x_{i+1} = x_i + a``: a chain of ``length`` dependent ``arith.addf`` (issue 20 found
    ``eqsat opt`` quadratic in memory on it: 0.6 GB at 5,000 ops, 4 GB at 20,000)."""
    lines = [f"func.func @chain(%x0: {elem}, %a: {elem}) -> {elem} {{"]
    lines += [f"  %x{i + 1} = arith.addf %x{i}, %a : {elem}" for i in range(length)]
    lines += [f"  return %x{length} : {elem}", "}", ""]
    return "\n".join(lines)
