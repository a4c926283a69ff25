"""A generated kernel corpus for judging cost models: op families x layouts x shapes x types.

Every kernel reads its operands from memrefs, does one vector computation and writes the
result back, inside an ``scf.for %r`` of ``REPS`` repetitions (so one call is not dominated by
call overhead). Each memref argument has a leading ``REPS`` dim and repetition ``%r`` reads
and writes its own slice ``[%r, 0, ...]``: every repetition is distinct work. (With one slice
for all, the reads were loop-invariant: eqsat's loop pass hoisted them, every repetition then
computed the same values and LLVM O3 deleted the loop, so a call timed one pass.) Families: contractions (matmul with every operand layout, matvec, vecmat, dot,
batched matmul), transposes (every 2-D and some 3-D permutations), multi_reductions over each
dim, broadcasts, FMA and element-wise chains, transfers with permutation maps and masks, and
compounds of two lowered ops (a transpose feeding a reduction), whose
alternatives are many (either op's strategies forced). Shapes
make rows of 1 to 16 avx2 registers, odd sizes among them; element types f32, f64, i32, f16.

The split is deterministic: a kernel is held out (never looked at by tuning) when the SHA-256
of its name is 0 mod 4 (``held_out``). Generation is deterministic too; ``--out DIR`` writes
one ``<name>.mlir`` per kernel after checking that it parses and verifies.

    python experiments/cost_corpus.py --out experiments/cost_corpus [--list]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

REPS = 16
FLOAT = ("f32", "f64", "f16")
ZERO = {"f32": "0.0", "f64": "0.0", "f16": "0.0", "i32": "0"}


def held_out(name: str) -> bool:
    """Whether kernel ``name`` belongs to the held-out split (no tuning looks at it)."""
    return hashlib.sha256(name.encode()).digest()[0] % 4 == 0


def _vt(shape: tuple[int, ...], e: str) -> str:
    return f"vector<{'x'.join(map(str, shape))}x{e}>" if shape else e


def _mt(shape: tuple[int, ...], e: str) -> str:
    return f"memref<{'x'.join(map(str, shape))}x{e}>"


class _K:
    """One kernel under construction: memref arguments, reads, a body, writes."""

    def __init__(self, name: str, e: str) -> None:
        self.name, self.e = name, e
        self.args: list[str] = []
        self.lines: list[str] = []
        self.pre: list[str] = []

    def arg(self, shape: tuple[int, ...]) -> str:
        """A memref argument holding one ``shape`` slice per repetition (leading dim ``REPS``)."""
        n = f"%m{len(self.args)}"
        self.args.append(f"{n}: {_mt((REPS, *shape), self.e)}")
        return n

    @staticmethod
    def index(rank: int) -> str:
        """Indices of repetition ``%r``'s slice of a memref argument of ``rank`` dims."""
        return ", ".join(["%r"] + ["%c0"] * rank)

    def read(self, shape: tuple[int, ...], perm: str | None = None, mem: tuple[int, ...] | None = None,
             mask: str | None = None) -> str:  # fmt: skip
        mem = mem or shape
        m = self.arg(mem)
        v = f"%v{len(self.lines)}"
        idx = self.index(len(mem))
        attrs = [f"in_bounds = [{', '.join(['true'] * len(shape))}]"]
        if perm:  # the memref's leading repetition dim is not read along
            attrs.append(f"permutation_map = {_lead(perm)}")
        mask_s = f", {mask}" if mask else ""
        if mask:
            attrs = [a for a in attrs if not a.startswith("in_bounds")]
        self.lines.append(
            f"{v} = vector.transfer_read {m}[{idx}], %pad{mask_s} {{{', '.join(attrs)}}} : "
            f"{_mt((REPS, *mem), self.e)}, {_vt(shape, self.e)}"
        )
        return v

    def op(self, text: str) -> str:
        v = f"%v{len(self.lines)}"
        self.lines.append(f"{v} = {text}")
        return v

    def write(self, v: str, shape: tuple[int, ...]) -> None:
        if not shape:  # a scalar result: store it through a 1-element vector
            b = self.op(f"vector.broadcast {v} : {self.e} to vector<1x{self.e}>")
            v, shape = b, (1,)
        m = self.arg(shape)
        idx = self.index(len(shape))
        inb = ", ".join(["true"] * len(shape))
        self.lines.append(
            f"vector.transfer_write {v}, {m}[{idx}] {{in_bounds = [{inb}]}} : "
            f"{_vt(shape, self.e)}, {_mt((REPS, *shape), self.e)}"
        )

    def text(self) -> str:
        body = "\n".join("    " + line for line in self.lines)
        return (
            f"func.func @{self.name}({', '.join(self.args)}) {{\n"
            "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
            f"  %reps = arith.constant {REPS} : index\n"
            f"  %pad = arith.constant {ZERO[self.e]} : {self.e}\n"
            + "".join(f"  {p}\n" for p in self.pre)
            + "  scf.for %r = %c0 to %reps step %c1 {\n"
            f"{body}\n  }}\n  return\n}}\n"
        )


def _map(dims: str, res: str) -> str:
    return f"affine_map<({dims}) -> ({res})>"


def _lead(perm: str) -> str:
    """``perm`` (an affine map over a memref's dims ``d0..dn``) with a new, unused leading dim:
    the repetition dim. ``(d0, d1) -> (d1, d0)`` becomes ``(d0, d1, d2) -> (d2, d1)``."""
    m = re.fullmatch(r"affine_map<\((.*)\) -> \((.*)\)>", perm)
    assert m, perm
    shift = lambda t: re.sub(r"d(\d+)", lambda d: f"d{int(d.group(1)) + 1}", t)  # noqa: E731
    dims = ", ".join(f"d{i}" for i in range(len(m.group(1).split(",")) + 1))
    return f"affine_map<({dims}) -> ({shift(m.group(2))})>"


def _contract(name: str, e: str, maps: tuple[str, str, str], its: str, shapes: tuple, kind: str = "add") -> str:  # fmt: skip
    k = _K(name, e)
    a, b, c = (k.read(s) for s in shapes[:3])
    r = k.op(
        f"vector.contract {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}], "
        f"kind = #vector.kind<{kind}>}} {a}, {b}, {c} : {_vt(shapes[0], e)}, "
        f"{_vt(shapes[1], e)} into {_vt(shapes[2], e)}"
    )
    k.write(r, shapes[2])
    return k.text()


def contractions() -> Iterator[tuple[str, str]]:
    d3 = "i, j, kk"
    pos = {"i": "i", "j": "j", "k": "kk"}
    for (m, n, kk), e in itertools.product(((8, 8, 8), (4, 16, 8), (8, 24, 4), (2, 64, 4)), ("f32",)):
        for la, lb, lc in itertools.product(("ik", "ki"), ("kj", "jk"), ("ij", "ji")):
            size = {"i": m, "j": n, "k": kk}
            maps = tuple(_map(d3, ", ".join(pos[x] for x in lay)) for lay in (la, lb, lc))
            shapes = tuple(tuple(size[x] for x in lay) for lay in (la, lb, lc))
            its = '"parallel", "parallel", "reduction"'
            yield f"mm_{la}_{lb}_{lc}_{m}x{n}x{kk}_{e}", _contract(
                f"mm_{la}_{lb}_{lc}_{m}x{n}x{kk}_{e}", e, maps, its, shapes)  # type: ignore[arg-type]
    for (m, n, kk), e in itertools.product(((8, 8, 8), (4, 16, 4)), ("f64", "i32")):
        size = {"i": m, "j": n, "k": kk}
        for la, lb in (("ik", "kj"), ("ik", "jk")):
            maps = tuple(_map(d3, ", ".join(pos[x] for x in lay)) for lay in (la, lb, "ij"))
            shapes = tuple(tuple(size[x] for x in lay) for lay in (la, lb, "ij"))
            name = f"mm_{la}_{lb}_ij_{m}x{n}x{kk}_{e}"
            yield name, _contract(name, e, maps, '"parallel", "parallel", "reduction"', shapes)  # type: ignore[arg-type]
    for (m, kk), e, lay in itertools.product(((8, 8), (16, 16), (12, 20), (32, 8), (8, 64)),
                                             ("f32", "f64"), ("ik", "ki")):  # fmt: skip
        size = {"i": m, "k": kk}
        d2 = "i, kk"
        maps = (_map(d2, ", ".join(pos[x] for x in lay)), _map(d2, "kk"), _map(d2, "i"))
        shapes = (tuple(size[x] for x in lay), (kk,), (m,))
        name = f"matvec_{lay}_{m}x{kk}_{e}"
        yield name, _contract(name, e, maps, '"parallel", "reduction"', shapes)
    for (kk, n), e in itertools.product(((8, 16), (16, 8)), ("f32",)):
        d2 = "j, kk"
        maps = (_map(d2, "kk"), _map(d2, "kk, j"), _map(d2, "j"))
        name = f"vecmat_{kk}x{n}_{e}"
        yield name, _contract(name, e, maps, '"parallel", "reduction"', ((kk,), (kk, n), (n,)))
    for kk, e in itertools.product((8, 64, 100, 128), ("f32", "f64", "i32")):
        k = _K(f"dot_{kk}_{e}", e)
        a, b = k.read((kk,)), k.read((kk,))
        acc = k.op(f"arith.constant {ZERO[e]} : {e}")
        r = k.op(
            f"vector.contract {{indexing_maps = [{_map('kk', 'kk')}, {_map('kk', 'kk')}, "
            f"{_map('kk', '')}], iterator_types = [\"reduction\"], kind = #vector.kind<add>}} "
            f"{a}, {b}, {acc} : {_vt((kk,), e)}, {_vt((kk,), e)} into {e}"
        )
        k.write(r, ())
        yield k.name, k.text()
    for (bb, m, n, kk), e in itertools.product(((2, 4, 8, 4), (4, 8, 8, 8)), ("f32", "f64")):
        d4 = "b, i, j, kk"
        maps = (_map(d4, "b, i, kk"), _map(d4, "b, kk, j"), _map(d4, "b, i, j"))
        its = '"parallel", "parallel", "parallel", "reduction"'
        name = f"bmm_{bb}x{m}x{n}x{kk}_{e}"
        yield name, _contract(name, e, maps, its, ((bb, m, kk), (bb, kk, n), (bb, m, n)))


def transposes() -> Iterator[tuple[str, str]]:
    for (r, c), e in itertools.product(((8, 8), (16, 16), (4, 32), (32, 4), (8, 24), (12, 20), (16, 64)),
                                       ("f32", "f64", "i32", "f16")):  # fmt: skip
        if e != "f32" and (r, c) in ((12, 20), (16, 64)):
            continue
        k = _K(f"transpose_{r}x{c}_{e}", e)
        v = k.read((r, c))
        t = k.op(f"vector.transpose {v}, [1, 0] : {_vt((r, c), e)} to {_vt((c, r), e)}")
        k.write(t, (c, r))
        yield k.name, k.text()
    for perm, shape in itertools.product(((0, 2, 1), (1, 0, 2), (2, 1, 0), (1, 2, 0), (2, 0, 1)),
                                         ((2, 4, 8), (4, 8, 16))):  # fmt: skip
        out = tuple(shape[p] for p in perm)
        k = _K(f"transpose3_{''.join(map(str, perm))}_{'x'.join(map(str, shape))}_f32", "f32")
        v = k.read(shape)
        t = k.op(f"vector.transpose {v}, [{', '.join(map(str, perm))}] : "
                 f"{_vt(shape, 'f32')} to {_vt(out, 'f32')}")  # fmt: skip
        k.write(t, out)
        yield k.name, k.text()


def reductions() -> Iterator[tuple[str, str]]:
    cases = [((16, 64), 0), ((16, 64), 1), ((64, 16), 0), ((64, 16), 1), ((8, 128), 0),
             ((8, 128), 1), ((4, 8), 0), ((4, 8), 1), ((32, 24), 0), ((32, 24), 1),
             ((6, 40), 0), ((6, 40), 1)]  # fmt: skip
    for (shape, dim), e in itertools.product(cases, ("f32", "f64", "i32")):
        if e != "f32" and shape in ((6, 40), (32, 24), (8, 128)):
            continue
        yield _reduction(shape, (dim,), e, "add")
    for shape, dims in (((4, 8, 16), (0,)), ((4, 8, 16), (1,)), ((4, 8, 16), (2,)),
                        ((4, 8, 16), (0, 1)), ((2, 16, 32), (1, 2)), ((2, 16, 32), (0,))):  # fmt: skip
        yield _reduction(shape, dims, "f32", "add")
    for shape, dim in (((16, 64), 0), ((16, 64), 1)):
        yield _reduction(shape, (dim,), "f32", "maxnumf")


def _reduction(shape: tuple[int, ...], dims: tuple[int, ...], e: str, kind: str) -> tuple[str, str]:
    out = tuple(s for i, s in enumerate(shape) if i not in dims)
    name = f"reduce_{kind}_{'x'.join(map(str, shape))}_d{''.join(map(str, dims))}_{e}"
    k = _K(name, e)
    v = k.read(shape)
    acc = k.read(out) if out else k.op(f"arith.constant {ZERO[e]} : {e}")
    r = k.op(f"vector.multi_reduction <{kind}>, {v}, {acc} [{', '.join(map(str, dims))}] : "
             f"{_vt(shape, e)} to {_vt(out, e)}")  # fmt: skip
    k.write(r, out)
    return name, k.text()


def broadcasts() -> Iterator[tuple[str, str]]:
    for (r, c), e in itertools.product(((8, 8), (16, 32), (4, 100), (8, 128)), ("f32", "f64", "i32")):
        k = _K(f"bcast_row_{r}x{c}_{e}", e)
        row, x = k.read((c,)), k.read((r, c))
        b = k.op(f"vector.broadcast {row} : {_vt((c,), e)} to {_vt((r, c), e)}")
        add = "arith.addf" if e in FLOAT else "arith.addi"
        s = k.op(f"{add} {b}, {x} : {_vt((r, c), e)}")
        k.write(s, (r, c))
        yield k.name, k.text()


def elementwise() -> Iterator[tuple[str, str]]:
    for (r, c), e in itertools.product(((4, 32), (8, 64), (16, 128), (3, 24), (2, 12)),
                                       ("f32", "f64", "i32", "f16")):  # fmt: skip
        k = _K(f"chain_{r}x{c}_{e}", e)
        a, b, c_ = k.read((r, c)), k.read((r, c)), k.read((r, c))
        t = _vt((r, c), e)
        f = e in FLOAT
        p = k.op(f"{'arith.mulf' if f else 'arith.muli'} {a}, {b} : {t}")
        s = k.op(f"{'arith.addf' if f else 'arith.addi'} {p}, {c_} : {t}")
        d = k.op(f"{'arith.subf' if f else 'arith.subi'} {s}, {a} : {t}")
        k.write(d, (r, c))
        yield k.name, k.text()
    for (r, c), e in itertools.product(((8, 32), (16, 64), (4, 20), (8, 128)), ("f32", "f64")):
        k = _K(f"fma_{r}x{c}_{e}", e)
        a, b, c_ = k.read((r, c)), k.read((r, c)), k.read((r, c))
        f = k.op(f"vector.fma {a}, {b}, {c_} : {_vt((r, c), e)}")
        k.write(f, (r, c))
        yield k.name, k.text()


def transfers() -> Iterator[tuple[str, str]]:
    for (r, c), e in itertools.product(((8, 8), (16, 16), (8, 32), (4, 12)), ("f32", "f64", "i32")):
        k = _K(f"read_perm_{r}x{c}_{e}", e)
        v = k.read((c, r), perm=_map("d0, d1", "d1, d0"), mem=(r, c))
        x = k.read((c, r))
        s = k.op(f"{'arith.addf' if e in FLOAT else 'arith.addi'} {v}, {x} : {_vt((c, r), e)}")
        k.write(s, (c, r))
        yield k.name, k.text()
    for n, e in itertools.product((8, 20, 64, 100), ("f32", "f64", "i32")):
        k = _K(f"read_masked_{n}_{e}", e)
        k.pre.append(f"%n = arith.constant {n - n // 3} : index")
        mask = k.op(f"vector.create_mask %n : vector<{n}xi1>")
        v = k.read((n,), mask=mask)
        s = k.op(f"{'arith.addf' if e in FLOAT else 'arith.addi'} {v}, {v} : {_vt((n,), e)}")
        k.write(s, (n,))
        yield k.name, k.text()


def compounds() -> Iterator[tuple[str, str]]:
    """Two lowered ops in one kernel, so that a kernel has many alternatives (each strategy of
    either op forced): a reduction of a transpose. (A matmul of a transposed operand is left
    out: tried, no forced transpose strategy was extracted there, so it added nothing.)"""
    for (r, c), e, dim in itertools.product(((8, 16), (16, 8), (8, 32), (32, 8)),
                                            ("f32", "f64", "i32"), (0, 1)):  # fmt: skip
        name = f"treduce_{r}x{c}_d{dim}_{e}"
        k = _K(name, e)
        v = k.read((r, c))
        t = k.op(f"vector.transpose {v}, [1, 0] : {_vt((r, c), e)} to {_vt((c, r), e)}")
        out = (r,) if dim == 0 else (c,)
        acc = k.read(out)
        red = k.op(f"vector.multi_reduction <add>, {t}, {acc} [{dim}] : "
                   f"{_vt((c, r), e)} to {_vt(out, e)}")  # fmt: skip
        k.write(red, out)
        yield name, k.text()


FAMILIES = (contractions, transposes, reductions, broadcasts, elementwise, transfers, compounds)


def corpus() -> list[tuple[str, str]]:
    """Every kernel as (name, text), in a fixed order."""
    out = [kv for family in FAMILIES for kv in family()]
    names = [n for n, _ in out]
    assert len(names) == len(set(names)), "kernel names must be unique"
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="write one <name>.mlir per kernel into this directory")
    p.add_argument("--list", action="store_true", help="print name and split per kernel")
    args = p.parse_args()
    from frontend import parse
    from frontend.verifier import verify_module

    kernels = corpus()
    for name, text in kernels:
        verify_module(parse(text, f"{name}.mlir"))
    if args.list:
        for name, _ in kernels:
            print(name, "held-out" if held_out(name) else "tuning")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for name, text in kernels:
            (out / f"{name}.mlir").write_text(text)
    held = sum(held_out(n) for n, _ in kernels)
    print(f"{len(kernels)} kernels ({held} held out), all parse and verify", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
