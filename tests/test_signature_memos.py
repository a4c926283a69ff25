"""The memos keyed by an op's signature: printing by template (``frontend.print_templates``)
and verifying each signature of a ``LOCAL`` op once (``frontend.verifier``). Each must give
what the op's full printer and verifier give, op by op."""

from __future__ import annotations

from functools import cache

import pytest

import frontend.printer
import frontend.verifier
from eqsat.optimizer import optimize_module
from eqsat.targets import load_target
from experiments.lib.scaling_programs import straight_line
from frontend import MLIRError, parse, print_module
from frontend.attributes import ArrayAttr, DenseArrayAttr, FloatAttr, IntegerAttr
from frontend.ir import Block, Module, Operation, Value
from frontend.ops import lookup
from frontend.ops.spec import LOCAL
from frontend.printer import Printer
from frontend.types import VectorType, f32
from frontend.verifier import verify_op
from tests.corpus import ROOT

PROGRAMS = sorted((ROOT / "tests" / "programs").glob("*.mlir"))


@cache
def _optimized() -> Module:
    """A straight-line program optimized for avx2: its ops built by the decoder, which shares
    attribute and type objects between them (most of them printed by template)."""
    program = parse(straight_line(600), "straight.mlir")
    return optimize_module(program, target=load_target("avx2"), emit="hwv").module
V8 = VectorType((8,), f32)
V4 = VectorType((4,), f32)


def _printed(ops: list[Operation], args: list[Value]) -> list[str]:
    p = Printer()
    for a in args:
        p.name_arg(a)
    return [p.op(op) for op in ops]


def _both(monkeypatch: pytest.MonkeyPatch, ops: list[Operation], args: list[Value]) -> None:
    """Templated printing gives what the formats' interpreted printer gives."""
    templated = _printed(ops, args)
    monkeypatch.setattr(frontend.printer, "FAST_PRINT", False)
    assert templated == _printed(ops, args)
    monkeypatch.setattr(frontend.printer, "FAST_PRINT", True)


def test_templates_fill_in_each_ops_own_operands(monkeypatch: pytest.MonkeyPatch) -> None:
    """One signature (the same type and attribute objects), operands in every arrangement: a
    value used twice (whose text cannot make a template), then three apart, then one
    reused, then a value with no name."""
    block = Block([V8, V8, V8])
    a, b, c = block.args
    spec = lookup("vector.fma")
    ops = [Operation("vector.fma", list(x), [V8]) for x in ((a, b, b), (a, b, c), (c, a, b))]
    ops.append(Operation("vector.fma", [ops[1].results[0], ops[0].results[0], a], [V8]))
    ops.append(Operation("vector.fma", [a, Value(V8, name="lost"), b], [V8]))
    assert all(op.spec is spec for op in ops)
    _both(monkeypatch, ops, block.args)
    text = _printed(ops, block.args)
    assert text[0].endswith("%arg0, %arg1, %arg1 : vector<8xf32>")
    assert text[2].endswith("%arg2, %arg0, %arg1 : vector<8xf32>")
    assert text[3].endswith("%1, %0, %arg0 : vector<8xf32>")
    assert "<<unknown lost>>" in text[4]


def test_templates_keep_equal_looking_attributes_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """0.0 == -0.0 and 1 == True in Python: the key holds objects by identity, and a shared
    attribute object (the decoder's) prints the same in every op that holds it."""
    zero, minus = FloatAttr(0.0, f32), FloatAttr(-0.0, f32)
    assert zero == minus
    ops = [Operation("arith.constant", [], [f32], {"value": x}) for x in (zero, minus, zero, minus)]
    _both(monkeypatch, ops, [])
    text = _printed(ops, [])
    assert "-0.0" not in text[0] and "-0.0" in text[1] and text[3].endswith(text[1][4:])
    block = Block([V8])
    pos = [DenseArrayAttr("i64", (1,)), DenseArrayAttr("i64", (True,))]
    ops = [Operation("vector.extract", [block.args[0]], [f32], {"static_position": p}) for p in pos]
    _both(monkeypatch, ops, block.args)


def test_templates_on_programs_and_an_optimized_program(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Byte-identical to the interpreted formats: every test program as parsed, and an
    optimized program (``_optimized``)."""
    modules = [parse(p.read_text(), p.name) for p in PROGRAMS]
    out = _optimized()
    modules.append(out)
    for module in modules:
        templated = print_module(module)
        monkeypatch.setattr(frontend.printer, "FAST_PRINT", False)
        assert print_module(module) == templated
        monkeypatch.setattr(frontend.printer, "FAST_PRINT", True)
    p = Printer()
    p.push_isolated()
    func = next(op for op in out.ops if op.name == "func.func")
    for a in func.regions[0].blocks[0].args:
        p.name_arg(a)
    for op in func.regions[0].blocks[0].ops:
        p.op(op)
    assert sum(u for _, u in p.templates.uses.values()) > len(func.regions[0].blocks[0].ops) // 2


class _Detached(Value):
    """An operand that lets a verifier read its type and nothing else (not its defining op,
    not its uses, not its name)."""

    def __getattribute__(self, name: str) -> object:
        if name not in ("type", "__class__"):
            raise AssertionError(f"a LOCAL op's verifier read the operand's {name!r}")
        return object.__getattribute__(self, name)


class _Nowhere:
    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"a LOCAL op's verifier read its parent's {name!r}")


def _verdict(op: Operation) -> str:
    frontend.verifier._PASSED.clear()
    try:
        verify_op(op)
    except MLIRError as e:
        return str(e)
    return "ok"


def _twin(op: Operation) -> Operation:
    """``op``'s signature on operands that allow reading only their types, in no block."""
    twin = Operation(op.name, [_Detached(v.type) for v in op.operands], op.result_types,
                     dict(op.attributes), [], op.loc)  # fmt: skip
    twin.results = [Value(r.type, twin, i) for i, r in enumerate(op.results)]
    twin.parent = _Nowhere()  # type: ignore[assignment]
    return twin


def test_local_ops_verify_by_their_signature_alone() -> None:
    """Every ``LOCAL`` op of the test programs and of an optimized program, and broken
    variants of them: its verifier gives the same verdict on a twin whose operands allow
    reading only their types and whose parent allows nothing. So two ops of one signature
    (the memo's key) get one verdict, and the memo cannot pass an invalid op."""
    modules = [parse(p.read_text(), p.name) for p in PROGRAMS]
    modules.append(_optimized())
    ops = [op for m in modules for op in m.walk() if op.spec and LOCAL in op.spec.traits]
    names = {op.name for op in ops}
    assert {"vector.extract_strided_slice", "vector.fma", "arith.addf", "vector.shuffle",
            "vector.insert", "vector.extract"} <= names  # fmt: skip
    broken = 0
    for op in ops:
        assert _verdict(op) == "ok"
        assert _verdict(_twin(op)) == "ok"
        if op.results:  # broken: a result type that no rule accepts
            twin = _twin(op)
            twin.results = [Value(VectorType((3, 7), f32), twin, 0)] + twin.results[1:]
            original = op.results
            op.results = [Value(VectorType((3, 7), f32), op, 0)] + op.results[1:]
            try:
                verdict = _verdict(op)
                assert verdict == _verdict(twin)
            finally:
                op.results = original
            broken += verdict != "ok"
    # every one is rejected (vector.insert and insert_strided_slice checked their result
    # type against nothing before: text input had it by inference)
    assert broken == sum(1 for op in ops if op.results)


def _array(values: tuple[int, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(v) for v in values))


def test_the_verify_memo_never_passes_an_op_it_did_not_verify() -> None:
    """A valid slice is remembered; slices with the same attribute values in other objects,
    or the same objects and another result type, are each verified (and rejected), every
    time."""
    frontend.verifier._PASSED.clear()
    block = Block([V8])
    ints = {k: _array(v) for k, v in (("offsets", (0,)), ("sizes", (4,)), ("strides", (1,)))}
    good = Operation("vector.extract_strided_slice", block.args, [V4], dict(ints))
    verify_op(good)
    assert len(frontend.verifier._PASSED) == 1
    wrong_type = Operation("vector.extract_strided_slice", block.args, [V8], dict(ints))
    out_of_range = Operation("vector.extract_strided_slice", block.args, [V4],
                             {**ints, "offsets": _array((6,))})  # fmt: skip
    for bad in (wrong_type, out_of_range, wrong_type):
        with pytest.raises(MLIRError):
            verify_op(bad)
    assert len(frontend.verifier._PASSED) == 1
    verify_op(Operation("vector.extract_strided_slice", [Value(V8)], [V4], dict(ints)))
    assert len(frontend.verifier._PASSED) == 1  # the same signature: a hit


def test_a_non_local_spec_is_verified_every_time() -> None:
    """Specs without the trait keep per-op verification (their rules may read more)."""
    spec = lookup("vector.broadcast")
    assert spec is not None and LOCAL not in spec.traits
    frontend.verifier._PASSED.clear()
    verify_op(Operation("vector.broadcast", [Value(f32)], [V8]))
    assert not frontend.verifier._PASSED


def test_signatures_from_the_verifier_print_as_those_computed_by_the_printer() -> None:
    """``verify_ops(..., keys)`` hands each op's signature to ``PrintedBody.add`` (each
    computed once): they are the ops' own, and the text is the one printed without them."""
    from frontend.ir import signature
    from frontend.printer import PrintedBody
    from frontend.verifier import symbol_table, verify_ops

    module = _optimized()
    body = module.ops[0].regions[0].blocks[0]
    ops = [op for op in body.ops if not op.spec.has("terminator")]
    keys: dict[int, tuple[object, ...]] = {}
    verify_ops(ops, symbol_table(module), keys)
    local = [op for op in ops if LOCAL in op.spec.traits]
    assert local and len(keys) == len(local)
    assert all(keys[id(op)] == signature(op, op.spec) for op in local)
    given, computed = PrintedBody(body), PrintedBody(body)
    # with keys, an op of a signature printed before is filled from its template without a
    # call of ``Printer.op`` (``Templates.lines``)
    calls = []
    op_of = given.printer.op
    given.printer.op = lambda op: calls.append(op) or op_of(op)  # type: ignore[method-assign]
    given.add(ops, keys)
    computed.add(ops)
    assert given.text() == computed.text()
    assert len(calls) < len(ops) / 2, (len(calls), len(ops))
    # a key the printer is given is the one it uses: another op's prints with that op's
    # template (an op of the same spec printed before, of other attributes or types)
    i, j = _two_signatures(ops, keys)
    other = PrintedBody(body)
    other.add(ops, keys | {id(ops[i]): keys[id(ops[j])]})
    assert other.text() != computed.text()


def _two_signatures(ops: list[Operation], keys: dict[int, tuple[object, ...]]
                    ) -> tuple[int, int]:  # fmt: skip
    """``(i, j)``, ``j < i``: two ops of one spec, ``vector.extract_strided_slice``, whose
    signatures differ."""
    slices = [i for i, op in enumerate(ops) if op.name == "vector.extract_strided_slice"]
    j = slices[0]
    i = next(i for i in slices if keys[id(ops[i])] != keys[id(ops[j])])
    return i, j
