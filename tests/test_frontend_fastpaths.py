"""The frontend's fast paths agree with the general code they shortcut.

``frontend.fastpath`` (parsing), ``frontend.fastprint`` (printing) and ``frontend.fastverify``
(verification) are compiled from the op specs for throughput; the interpreted format, the
interpreted printer and the general checks stay the definition. Each test runs both and
compares: the module built (printed generically, with value names, attributes and
locations), the diagnostic, the printed text.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import frontend.parser
import frontend.printer
from experiments.bench_parse import generate
from frontend import MLIRError, parse, parse_module, print_module
from frontend.attributes import DenseArrayAttr, IntegerAttr, StringAttr, UnitAttr
from frontend.errors import VerifyError
from frontend.ir import Value
from frontend.ops.common import fail
from frontend.printer import print_op
from frontend.types import VectorType, f32, i1, index
from frontend.verifier import (
    _verify_attributes,
    _verify_operands,
    _verify_regions,
    _verify_results,
    verify_op,
)
from tests.corpus import ROOT

PROGRAMS = sorted((ROOT / "tests" / "programs").glob("*.mlir"))
SIG = "%a: vector<8xf32>, %b: vector<8xf32>, %x: vector<4x8xf32>, %k: vector<8xi1>, %s: f32"


def fn(*body: str) -> str:
    return f"func.func @f({SIG}) {{\n" + "".join(f"  {s}\n" for s in body) + "  return\n}\n"


def _outcome(text: str) -> object:
    try:
        module = parse(text, "fast.mlir")
    except MLIRError as e:
        return f"error: {e}"
    ops = [
        (
            op.name,
            repr(list(op.attributes.items())),
            [r.name for r in op.results],
            op.loc and op.loc.offset,
        )
        for op in module.walk()
    ]
    return print_module(module, generic=True), ops


# Shapes where the fast path once disagreed with the general path, and the common ones.
CASES = [
    fn("%t = vector.broadcast %s : f32to vector<8xf32>"),  # not the type `f32`
    fn("%t = vector.broadcast %s : f32 to vector<8xf32>"),
    fn("%m = vector.constant_mask [2] : vector<8xi1>", ", %a : vector<8xf32>"),  # a type list
    fn("%t = arith.addf %a, %b : vector<8xf32>", 'loc("x.mlir":1:2)'),  # its location
    fn(
        "%t = arith.addf %a, %b : vector<8xf32>",
        "// %u = arith.addf here",
        "%u = arith.mulf %t, %b : vector<8xf32>",
    ),
    fn("// a comment: x = y", "%t = arith.addf %a, %b : vector<8xf32>"),
    fn("%t = arith.addf %a, %b : vector<8xf32> // c", "{fastmath = #arith.fastmath<fast>}"),
    "func.func @f(%a: f32) -> f32 {\n  return\n%a}\n",  # `%a` belongs to the return
    fn("%té = arith.addf %a, %b : vector<8xf32>"),
    fn("%t = arith.addf %a, %b fastmath<fast> : vector<8xf32>"),
    fn("%t = arith.addf %a, %b {x = 1} : vector<8xf32>"),
    fn("%t = arith.addf %a, %b : vector<8xf32>", "%t = arith.mulf %a, %b : vector<8xf32>"),
    fn("%t = arith.select %k, %a, %b : vector<8xi1>, vector<8xf32>"),
    fn("%c = arith.cmpf olt, %s, %s : f32", "%t = arith.select %c, %s, %s : f32"),
    fn("%t = arith.select %k, %a, %b : vector<8xf32>"),
    fn("%c = arith.constant 0.5 : f32", "%d = arith.constant dense<1.0> : vector<8xf32>"),
    fn("%c = arith.constant 7", "%d = arith.constant true", "%e = arith.constant 1 : index"),
    fn("%c = arith.constant 0x7FC00000 : f32"),
    fn("%t = vector.extract %x[1] : vector<8xf32> from vector<4x8xf32>"),
    fn("%t = vector.insert %a, %x [5] : vector<8xf32> into vector<4x8xf32>"),
    fn("%t = vector.shuffle %a, %b [0, 9] : vector<8xf32>, vector<8xf32>"),
    fn("%t = vector.reduction <add>, %a, %s : vector<8xf32> into f32"),
    fn("%t = vector.reduction <add>, %a, : vector<8xf32> into f32"),
]


@pytest.mark.parametrize("source", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_fast_and_general_parse_agree(monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    fast = _outcome(source)
    monkeypatch.setattr(frontend.parser, "FAST_PATH", False)
    assert _outcome(source) == fast


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_fast_and_general_agree_on_programs(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    text = path.read_text()
    fast = _outcome(text)
    monkeypatch.setattr(frontend.parser, "FAST_PATH", False)
    assert _outcome(text) == fast


def _mutants(seed: int, count: int) -> list[str]:
    """Texts near valid ones: characters and tokens dropped, inserted, swapped."""
    rng = random.Random(seed)
    texts = [p.read_text() for p in PROGRAMS[::4]] + [generate(300, per_function=30, seed=seed)]
    pieces = list("%,:=x0[]{}<> \n\t") + ["f32", "to", "// c\n", "\n%0", "\nloc(", "é", ", %a"]
    out = []
    for _ in range(count):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(text))
            if rng.random() < 0.5:
                text = text[:at] + text[at + rng.randint(1, 4) :]
            else:
                text = text[:at] + rng.choice(pieces) + text[at:]
        out.append(text)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_fast_and_general_agree_on_mutants(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    for text in _mutants(seed, 60):
        fast = _outcome(text)
        monkeypatch.setattr(frontend.parser, "FAST_PATH", False)
        general = _outcome(text)
        monkeypatch.setattr(frontend.parser, "FAST_PATH", True)
        assert general == fast, text


def _printed(monkeypatch: pytest.MonkeyPatch, module: object, fast: bool) -> tuple[str, ...]:
    monkeypatch.setattr(frontend.printer, "FAST_PRINT", fast)
    return (
        print_module(module),  # type: ignore[arg-type]
        print_module(module, version=19),  # type: ignore[arg-type]
        print_module(module, generic=True),  # type: ignore[arg-type]
    )


def test_compiled_printers_print_as_the_formats(monkeypatch: pytest.MonkeyPatch) -> None:
    modules = [parse_module(p.read_text()) for p in PROGRAMS]
    modules.append(parse_module(generate(3000, seed=3)))
    modules += [parse_module(c) for c in CASES if not isinstance(_outcome(c), str)]
    for module in modules:
        assert _printed(monkeypatch, module, True) == _printed(monkeypatch, module, False)


def _general_verify(op: object) -> None:
    """``verify_op`` without the compiled checks."""
    spec = op.spec  # type: ignore[attr-defined]
    _verify_operands(op, spec)  # type: ignore[arg-type]
    _verify_results(op, spec)  # type: ignore[arg-type]
    _verify_attributes(op, spec)  # type: ignore[arg-type]
    _verify_regions(op, spec)  # type: ignore[arg-type]
    if spec.verify is not None:
        try:
            spec.verify(op)
        except VerifyError:
            raise
        except (AttributeError, KeyError, IndexError, TypeError, ValueError) as e:
            raise fail(op, f"is malformed ({type(e).__name__}: {e})") from None  # type: ignore


def _verdict(check: object, op: object) -> str:
    try:
        check(op)  # type: ignore[operator]
    except MLIRError as e:
        return str(e)
    return "ok"


def test_compiled_checks_and_printers_on_broken_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ops with operands, results and attributes taken away, added or swapped: the compiled
    checks report what the general checks report, the printers print the same."""
    modules = [parse_module(p.read_text()) for p in PROGRAMS[::3]]
    modules.append(parse_module(generate(600, per_function=60, seed=5)))
    ops = [op for m in modules for op in m.walk() if not op.regions]
    rng = random.Random(0)
    spare = [Value(t) for t in (f32, i1, index, VectorType((8,), f32), VectorType((4,), i1))]
    attrs = [IntegerAttr(3), UnitAttr(), StringAttr("x"), DenseArrayAttr("i32", (1, 1))]
    for _ in range(3000):
        op = rng.choice(ops)
        saved = list(op.operands), list(op.results), dict(op.attributes)
        how = rng.randrange(6)
        if how == 0 and op.operands:
            op.operands.pop(rng.randrange(len(op.operands)))
        elif how == 1:
            op.operands.insert(rng.randint(0, len(op.operands)), rng.choice(spare))
        elif how == 2 and op.operands:
            op.operands[rng.randrange(len(op.operands))] = rng.choice(spare)
        elif how == 3 and op.results:
            op.results.pop()
        elif how == 4 and op.attributes:
            op.attributes.pop(rng.choice(list(op.attributes)))
        elif op.attributes:
            op.attributes[rng.choice(list(op.attributes))] = rng.choice(attrs)
        assert _verdict(verify_op, op) == _verdict(_general_verify, op)
        printed = []
        for fast in (True, False):
            monkeypatch.setattr(frontend.printer, "FAST_PRINT", fast)
            try:
                printed.append(print_op(op))
            except Exception as e:  # a broken op may not print: then both fail alike
                printed.append(type(e).__name__)
        assert printed[0] == printed[1]
        op.operands[:], op.results[:] = saved[0], saved[1]
        op.attributes.clear()
        op.attributes.update(saved[2])
