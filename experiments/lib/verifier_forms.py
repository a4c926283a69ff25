"""Edge forms of every op, generated from the op table, for verifier parity with real MLIR.

Seeds are the ops of the differential corpus (``tests/programs/*.mlir``): each is a valid
instance of its op. Every seed is mutated one thing at a time, guided by its ``OpSpec``:

* types: every vector's element type swapped (i1, index, f16, bf16, ui8, si32, f64), a vector
  made 0-D, a dim made 1, scalable, one larger or one smaller (just outside);
* attributes: each entry of an integer array +1 / -1 / poison (-1) / dynamic (with an index
  operand), arrays emptied, extended, shortened; integers +1 / -1 / 0; boolean arrays flipped;
  permutation maps swapped, shortened, made identity; each optional attribute removed, or
  added where another seed of the op has it;
* dense literals of ``arith.constant`` in every spelling (splat, list, nested, hex, booleans,
  integers for i1, out-of-range, float for int and int for float) over the element pool.

A form is one function holding one op in generic form (so every op is written the same way
whatever its custom syntax), ready for ``mlir-opt --split-input-file``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from frontend import MLIRError, parse, print_module
from frontend.affine import AffineMap
from frontend.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    IntegerAttr,
    StringAttr,
    TypeAttr,
)
from frontend.ir import Block, Module, Operation, Region
from frontend.ops import all_specs
from frontend.ops.spec import DYNAMIC_INDEX, SYMBOL, VARIADIC, OpSpec, segments_attr
from frontend.types import (
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    Type,
    VectorType,
)

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "programs"

ELEMENTS: tuple[Type, ...] = (
    IntegerType(1),
    IndexType(),
    FloatType("f16"),
    FloatType("bf16"),
    IntegerType(8, "unsigned"),
    IntegerType(32, "signed"),
    FloatType("f64"),
)
SEEDS_PER_OP = 4
#: Dialects whose ops MLIR checks in two places: ``mlir-opt`` verifies little of an intrinsic's
#: operand types, LLVM's IR verifier checks the rest when the module is translated. Their forms
#: return the op's results, so that lowering to the LLVM dialect cannot erase a dead op.
END_TO_END_DIALECTS = ("llvm", "x86vector", "arm_neon")


def end_to_end(op: str) -> bool:
    """Is ``op``'s acceptance by MLIR decided end to end (verify, lower, translate)?"""
    return op.split(".", 1)[0] in END_TO_END_DIALECTS


@dataclass(frozen=True)
class Form:
    op: str  # the op under test
    what: str  # which edge: "seed", "elem f16", "attr static_position[0]+1", ...
    text: str  # one func.func @<name> holding the op (generic form)
    name: str  # the function's symbol: how its acceptance is found in mlir-opt's output
    version: int  # 22, or 19 for ops MLIR 22 removed


# -- seeds --------------------------------------------------------------------------------
def seed_ops() -> dict[str, list[Operation]]:
    """Distinct region-free instances of each op in the corpus, at most SEEDS_PER_OP each."""
    out: dict[str, list[Operation]] = {}
    seen: set[str] = set()
    for path in sorted(PROGRAMS.glob("*.mlir")):
        try:
            module = parse(path.read_text(), str(path))
        except MLIRError:
            continue
        for op in module.walk():
            skip = ("func.func", "func.return", "func.call")
            if op.regions or op.name in skip or op.spec is None:
                continue
            if op.name.startswith("transform.") or op.spec.has(SYMBOL):
                continue  # symbols (memref.global) live at the top level, not in a function
            key = _signature(op)
            if key in seen or len(out.get(op.name, [])) >= SEEDS_PER_OP:
                continue
            seen.add(key)
            out.setdefault(op.name, []).append(op)
    return out


def _signature(op: Operation) -> str:
    types = ",".join(str(v.type) for v in op.operands) + "->" + ",".join(
        str(r.type) for r in op.results
    )
    attrs = ",".join(f"{k}={v}" for k, v in sorted(op.attributes.items()))
    return f"{op.name}|{types}|{attrs}"


# -- one instance, rebuilt from parts -----------------------------------------------------
@dataclass
class Instance:
    name: str
    operands: list[Type]
    results: list[Type]
    attrs: dict[str, Attribute]

    @classmethod
    def of(cls, op: Operation) -> Instance:
        return cls(
            op.name,
            [v.type for v in op.operands],
            [r.type for r in op.results],
            dict(op.attributes),
        )

    def copy(self) -> Instance:
        return Instance(self.name, list(self.operands), list(self.results), dict(self.attrs))

    def text(self, fname: str, version: int, returns: bool = False) -> str:
        """The function; ``returns``: it returns the op's results (so no pass erases the op)."""
        block = Block(list(self.operands))
        op = Operation(self.name, list(block.args), list(self.results), dict(self.attrs))
        block.append(op)
        block.append(Operation("func.return", list(op.results) if returns else []))
        out = tuple(self.results) if returns else ()
        func = Operation(
            "func.func",
            [],
            [],
            {
                "sym_name": StringAttr(fname),
                "function_type": TypeAttr(FunctionType(tuple(self.operands), out)),
            },
            [Region([block])],
        )
        body = print_module(Module([func]), generic=True, version=version)
        return body


# -- mutations ----------------------------------------------------------------------------
def _vector_types(inst: Instance) -> Iterator[tuple[str, int]]:
    for side in ("operands", "results"):
        for i, t in enumerate(getattr(inst, side)):
            if isinstance(t, VectorType):
                yield side, i


def _retype(t: Type, elem: Type) -> Type:
    return VectorType(t.shape, elem, t.scalable) if isinstance(t, VectorType) else t


def type_mutations(inst: Instance) -> Iterator[tuple[str, Instance]]:
    vecs = list(_vector_types(inst))
    if not vecs:
        return
    for elem in ELEMENTS:  # every vector (and same-typed scalar) takes the new element
        old = {getattr(inst, s)[i].element for s, i in vecs}
        m = inst.copy()
        for side in ("operands", "results"):
            ts = getattr(m, side)
            for i, t in enumerate(ts):
                if isinstance(t, VectorType):
                    ts[i] = _retype(t, elem)
                elif t in old:
                    ts[i] = elem
        yield f"elem {elem}", m
    for side, i in vecs:
        t: VectorType = getattr(inst, side)[i]
        variants: list[tuple[str, VectorType]] = [(f"{side}[{i}] 0-D", VectorType((), t.element))]
        for d, size in enumerate(t.shape):
            variants.append((f"{side}[{i}] dim{d}=1", _dim(t, d, 1, t.scalable[d])))
            variants.append((f"{side}[{i}] dim{d}+1", _dim(t, d, size + 1, t.scalable[d])))
            if size > 1:
                variants.append((f"{side}[{i}] dim{d}-1", _dim(t, d, size - 1, t.scalable[d])))
            if not t.scalable[d]:
                variants.append((f"{side}[{i}] dim{d} scalable", _dim(t, d, size, True)))
        for what, nt in variants:
            m = inst.copy()
            getattr(m, side)[i] = nt
            yield what, m


def _dim(t: VectorType, d: int, size: int, scalable: bool) -> VectorType:
    shape = list(t.shape)
    sc = list(t.scalable)
    shape[d], sc[d] = size, scalable
    return VectorType(tuple(shape), t.element, tuple(sc))


def _dynamic_operand(spec: OpSpec, attr: str) -> str | None:
    """The variadic index operand holding the dynamic entries of ``static_<x>``."""
    if not attr.startswith("static_"):
        return None
    base = attr[len("static_") :]
    for o in spec.operands:
        if o.kind == VARIADIC and o.name in (base, f"dynamic_{base}", f"dynamic_{base[:-1]}"):
            return o.name
    return None


def attr_mutations(
    inst: Instance, spec: OpSpec, others: list[Instance]
) -> Iterator[tuple[str, Instance]]:
    for name, a in list(inst.attrs.items()):
        if name == "operandSegmentSizes":
            continue
        d = spec.attr_def(name)
        if d is not None and (d.optional or d.default is not None):  # may be left out
            m = inst.copy()
            del m.attrs[name]
            yield f"drop {name}", m
        yield from _value_mutations(inst, spec, name, a)
    for d in spec.attrs:  # optional attributes: as another seed has it, else a sample value
        if d.optional and d.name not in inst.attrs:
            value = next((o.attrs[d.name] for o in others if d.name in o.attrs), None)
            for sample in (16, 1, True, "fast", [0]):
                if value is not None:
                    break
                try:
                    value = d.kind.convert(sample)
                except ValueError:
                    continue
            if value is not None:
                m = inst.copy()
                m.attrs[d.name] = value
                yield f"add {d.name}", m


def _value_mutations(
    inst: Instance, spec: OpSpec, name: str, a: Attribute
) -> Iterator[tuple[str, Instance]]:
    def with_attr(v: Attribute) -> Instance:
        m = inst.copy()
        m.attrs[name] = v
        return m

    if isinstance(a, DenseArrayAttr) and all(isinstance(v, (int, bool)) for v in a.values):
        vals = list(a.values)
        is_bool = a.element == "i1"
        if is_bool:
            for i in range(len(vals)):
                flipped = DenseArrayAttr(a.element, _set(vals, i, not vals[i]))
                yield f"{name}[{i}] flip", with_attr(flipped)
        else:
            for i, v in enumerate(vals):
                if v == DYNAMIC_INDEX:
                    continue
                yield f"{name}[{i}]+1", with_attr(DenseArrayAttr(a.element, _set(vals, i, v + 1)))
                yield f"{name}[{i}]-1", with_attr(DenseArrayAttr(a.element, _set(vals, i, v - 1)))
                yield f"{name}[{i}]=poison", with_attr(DenseArrayAttr(a.element, _set(vals, i, -1)))
                dyn = _dynamic_operand(spec, name)
                if dyn is not None:
                    m = with_attr(DenseArrayAttr(a.element, _set(vals, i, DYNAMIC_INDEX)))
                    if _add_dynamic(m, spec, dyn, vals, i):
                        yield f"{name}[{i}] dynamic", m
        yield f"{name} empty", with_attr(DenseArrayAttr(a.element, ()))
        yield f"{name} +entry", with_attr(DenseArrayAttr(a.element, tuple(vals) + (0,)))
        if vals:
            yield f"{name} -entry", with_attr(DenseArrayAttr(a.element, tuple(vals[:-1])))
            if sorted(vals) == list(range(len(vals))):  # a permutation
                yield f"{name} reversed", with_attr(DenseArrayAttr(a.element, tuple(vals[::-1])))
    elif isinstance(a, IntegerAttr) and not _is_bool(a):
        for delta in (1, -1):
            yield f"{name}{delta:+d}", with_attr(IntegerAttr(a.value + delta, a.type))
        yield f"{name}=0", with_attr(IntegerAttr(0, a.type))
    elif isinstance(a, ArrayAttr) and a.values and all(_is_bool(v) for v in a.values):
        for i in range(len(a.values)):
            vals = list(a.values)
            vals[i] = BoolAttr(not vals[i].value)
            yield f"{name}[{i}] flip", with_attr(ArrayAttr(tuple(vals)))
    elif isinstance(a, AffineMapAttr):
        mp = a.map
        res = list(mp.results)
        if len(res) > 1:
            swapped = tuple([res[1], res[0]] + res[2:])
            yield f"{name} swapped", with_attr(AffineMapAttr(AffineMap(mp.num_dims, 0, swapped)))
            shorter = tuple(res[1:])
            yield f"{name} shorter", with_attr(AffineMapAttr(AffineMap(mp.num_dims, 0, shorter)))
        yield f"{name} identity", with_attr(AffineMapAttr(AffineMap.identity(mp.num_dims)))


def _is_bool(a: Attribute) -> bool:
    return isinstance(a, IntegerAttr) and a.type == IntegerType(1)


def _set(vals: list, i: int, v: object) -> tuple:
    out = list(vals)
    out[i] = v
    return tuple(out)


def _add_dynamic(m: Instance, spec: OpSpec, operand: str, vals: list, i: int) -> bool:
    """Insert an index operand for the new dynamic entry (in its group, in order)."""
    groups = [o.name for o in spec.operands]
    if "operandSegmentSizes" in m.attrs:
        sizes = list(m.attrs["operandSegmentSizes"].values)
    elif sum(o.kind != "single" for o in spec.operands) == 1:
        n_single = sum(o.kind == "single" for o in spec.operands)
        sizes = [1 if o.kind == "single" else len(m.operands) - n_single for o in spec.operands]
    else:
        return False
    g = groups.index(operand)
    start = sum(sizes[:g])
    before = sum(1 for v in vals[:i] if v == DYNAMIC_INDEX)
    m.operands.insert(start + before, IndexType())
    sizes[g] += 1
    if "operandSegmentSizes" in m.attrs:
        m.attrs["operandSegmentSizes"] = segments_attr(sizes)
    return True


# -- dense literals -----------------------------------------------------------------------
_SPELLINGS_INT = (
    "1", "-1", "0", "[1, 0, 1, 0]", "[[1, 0], [1, 0]]", "true", "[true, false, true, false]",
    "2", "-2", "255", "256", "-129", "1.5", '"0x01000000"', "[1, 0]", "[]",
)  # fmt: skip
_SPELLINGS_FLOAT = (
    "1.5", "-0.0", "1", "[1.0, 2.0, 3.0, 4.0]", "[[1.0, 2.0], [3.0, 4.0]]", "0x3C00",
    "0x7FC00000", "true", "1.0e+39", "[1.0, 2.0]", "[]", "inf",
)  # fmt: skip


def dense_forms() -> Iterator[tuple[str, str]]:
    """(what, `arith.constant` line) over element types, shapes and literal spellings."""
    elems = ("i1", "i8", "ui8", "si8", "i32", "index", "f16", "bf16", "f32", "f64")
    shapes = ("vector<4x{e}>", "vector<2x2x{e}>", "vector<{e}>", "vector<1x{e}>", "vector<[4]x{e}>")
    for e, shape in itertools.product(elems, shapes):
        t = shape.format(e=e)
        spellings = _SPELLINGS_FLOAT if e.startswith(("f", "bf")) else _SPELLINGS_INT
        for lit in spellings:
            yield f"dense<{lit}> : {t}", f"%c = arith.constant dense<{lit}> : {t}"


# -- all forms ----------------------------------------------------------------------------
def generate() -> list[Form]:
    """Every form: seeds, their one-step mutations, dense literals (deterministic order)."""
    specs = all_specs()
    forms: list[Form] = []
    seen: set[str] = set()

    def add(op: str, what: str, inst: Instance | None, line: str | None, version: int) -> None:
        fname = f"f{len(forms)}"
        if inst is not None:
            try:
                text = inst.text(fname, version, returns=end_to_end(op))
            except Exception:  # noqa: BLE001 - a mutation our printer cannot spell is skipped
                return
        else:
            text = f"func.func @{fname}() {{\n  {line}\n  return\n}}\n"
        key = text.replace(f"@{fname}", "@f")
        if key in seen:
            return
        seen.add(key)
        forms.append(Form(op, what, text, fname, version))

    for name, ops in sorted(seed_ops().items()):
        spec = specs[name]
        version = 22 if spec.until >= 22 else 19
        insts = [Instance.of(o) for o in ops]
        for inst in insts:
            add(name, "seed", inst, None, version)
            for what, m in itertools.chain(
                type_mutations(inst), attr_mutations(inst, spec, insts)
            ):
                add(name, what, m, None, version)
    for what, line in dense_forms():
        add("arith.constant", what, None, line, 22)
    return forms
