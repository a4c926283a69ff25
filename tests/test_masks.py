"""vector.mask around one op takes part in optimization (eqsat/encode.py masked_op,
rules/canonicalize/mask.egg): an all-true mask disappears, masked reductions and reads become
unmasked forms they equal (the cost model chooses), and the optimized program computes the same bits."""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from eqsat.check_rules import check_rules
from eqsat.codegen import compile
from eqsat.cost import vv_cost
from eqsat.encode import Encoder
from eqsat.interpreter import Interpreter
from eqsat.optimizer import optimize_module
from eqsat.rulefile import load, rules_dir
from eqsat.targets import load_target
from frontend import parse, parse_file

PROGRAM = """
func.func @f(%x: vector<4x8xf32>, %acc: vector<4xf32>, %m: memref<16xf32>, %n: index, %s: f32) -> (vector<4xf32>, vector<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 2.5 : f32
  %k = vector.create_mask %n, %n : vector<4x8xi1>
  %0 = vector.mask %k { vector.multi_reduction <add>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %k1 = vector.create_mask %n : vector<8xi1>
  %1 = vector.mask %k1 { vector.transfer_read %m[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  %all = vector.constant_mask [8] : vector<8xi1>
  %2 = vector.mask %all { vector.reduction <add>, %1, %s : vector<8xf32> into f32 } : vector<8xi1> -> f32
  return %0, %1, %2 : vector<4xf32>, vector<8xf32>, f32
}
"""


@pytest.mark.parametrize("n", [0, 3, 8])
def test_masked_ops_are_optimized_and_compute_the_same_bits(n: int) -> None:
    module = parse(PROGRAM)
    result = optimize_module(module, target=load_target("avx2"), emit="vv")
    names = Counter(op.name for op in result.module.walk())
    # the all-true mask is gone, the read carries its mask itself; the masked reduction is
    # the cost model's choice (the mask, or a select feeding the bare reduction)
    assert names["vector.constant_mask"] == 0 and names["vector.mask"] <= 1, names
    reads = [op for op in result.module.walk() if op.name == "vector.transfer_read"]
    assert len(reads) == 1 and len(reads[0].operands) == 4  # source, index, padding, mask
    rng = np.random.default_rng(n)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    acc = rng.standard_normal(4).astype(np.float32)
    mem = rng.standard_normal(16).astype(np.float32)
    s = np.float32(rng.standard_normal())
    want = Interpreter(module).call("f", x, acc, mem.copy(), n, s)
    got = Interpreter(result.module).call("f", x, acc, mem.copy(), n, s)
    for a, b in zip(want, got):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


def test_a_mask_the_rules_cannot_remove_round_trips_as_a_mask() -> None:
    """A mask around an element-wise op (no rule folds it; MLIR 19 accepts it) stays that
    mask, even with masks forbidden: nothing else computes it."""
    text = """
func.func @g(%x: vector<8xf32>, %y: vector<8xf32>, %n: index) -> vector<8xf32> {
  %k = vector.create_mask %n : vector<8xi1>
  %0 = vector.mask %k { arith.addf %x, %y : vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  return %0 : vector<8xf32>
}
"""
    module = parse(text)
    for cost in (None, vv_cost({"Masked": float("inf")})):
        result = optimize_module(module, emit="vv", cost=cost)
        assert Counter(op.name for op in result.module.walk())["vector.mask"] == 1
        x = np.arange(8, dtype=np.float32)
        want = Interpreter(module).call("g", x, x, 5)
        got = Interpreter(result.module).call("g", x, x, 5)
        assert np.asarray(got).tolist() == [0, 2, 4, 6, 8, 0, 0, 0]
        assert np.asarray(want).tobytes() == np.asarray(got).tobytes()


def test_a_masked_read_with_a_passthru_folds_to_a_select() -> None:
    """mask(m, pt) { read } with masks forbidden: the masked read and a select of the
    passthru (mask-transfer-read-passthru-as-select), masked-off lanes from pt."""
    text = """
func.func @g(%m: memref<16xf32>, %pt: vector<8xf32>, %n: index) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 2.5 : f32
  %k = vector.create_mask %n : vector<8xi1>
  %0 = vector.mask %k, %pt { vector.transfer_read %m[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  return %0 : vector<8xf32>
}
"""
    module = parse(text)
    result = optimize_module(module, emit="vv", cost=vv_cost({"Masked": float("inf")}))
    names = Counter(op.name for op in result.module.walk())
    assert names["vector.mask"] == 0 and names["arith.select"] == 1, names
    mem = np.arange(16, dtype=np.float32)
    pt = -np.ones(8, dtype=np.float32)
    for n in (0, 5, 8):
        want = Interpreter(module).call("g", mem, pt, n)
        got = Interpreter(result.module).call("g", mem, pt, n)
        assert np.asarray(want).tobytes() == np.asarray(got).tobytes()
    assert np.asarray(got).tolist() == list(range(8))


KINDS = """
func.func @k(%x: vector<4x8xf32>, %acc: vector<4xf32>, %xi: vector<4x8xi32>, %acci: vector<4xi32>, %a: vector<4x8xf32>, %b: vector<4x8xf32>, %r: index, %n: index) -> (vector<4xf32>, vector<4xf32>, vector<4xi32>, vector<4xi32>, vector<4xf32>) {
  %k = vector.create_mask %r, %n : vector<4x8xi1>
  %0 = vector.mask %k { vector.multi_reduction <minimumf>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %1 = vector.mask %k { vector.multi_reduction <maxnumf>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %2 = vector.mask %k { vector.multi_reduction <minui>, %xi, %acci [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %3 = vector.mask %k { vector.multi_reduction <and>, %xi, %acci [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %4 = vector.mask %k { vector.contract {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x8xf32>, vector<4x8xf32> into vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  return %0, %1, %2, %3, %4 : vector<4xf32>, vector<4xf32>, vector<4xi32>, vector<4xi32>, vector<4xf32>
}
"""


def _with_special_values(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    x = rng.standard_normal(shape).astype(np.float32)
    x.flat[::5] = np.nan
    x.flat[1::7] = np.inf
    x.flat[2::9] = -0.0
    return x


@pytest.mark.parametrize("masks", ["priced", "forbidden"])
@pytest.mark.parametrize("emit", ["vv", "hwv"])
def test_masked_reductions_of_every_kind_keep_their_bits(emit: str, masks: str) -> None:
    """Masked reductions of several kinds and a masked contraction, optimized with masks
    priced as usual or forbidden (``--cost Masked=inf``: every mask folds to a select of the
    kind's neutral element, rules/canonicalize/mask.egg): with masked-off lanes full of NaN,
    infinities, signed zeros and extreme integers, the optimized program (interpreted at VV,
    compiled for the host at HWV) gives the bits the masked program gives."""
    module = parse(KINDS)
    target = load_target("avx2" if load_target("avx2").runs_on_host() else "x86-64-v2")
    overrides = {"Masked": float("inf")} if masks == "forbidden" else None
    cost = target.cost_model(overrides, emit=emit)
    result = optimize_module(module, target=target, emit=emit, cost=cost)
    if masks == "forbidden":
        assert Counter(op.name for op in result.module.walk())["vector.mask"] == 0
    rng = np.random.default_rng(7)
    x, a, b = (_with_special_values(rng, (4, 8)) for _ in range(3))
    acc = rng.standard_normal(4).astype(np.float32)
    xi = rng.integers(-(2**31), 2**31, (4, 8), dtype=np.int64).astype(np.int32)
    xi.flat[::3] = 0
    acci = np.array([-1, 2**31 - 1, 0, 17], dtype=np.int32)
    run = compile(result.module, target)["k"] if emit == "hwv" else None
    for r, n in [(0, 0), (2, 5), (4, 8), (3, 1)]:
        args = (x, acc, xi, acci, a, b, r, n)
        want = Interpreter(module).call("k", *args)
        got = run(*args) if run is not None else Interpreter(result.module).call("k", *args)
        for w, g in zip(want, got):
            assert np.asarray(w).tobytes() == np.asarray(g).tobytes(), (r, n, w, g)


def test_every_masked_kind_rewrites_to_a_select(tmp_path: Path) -> None:
    """The fold rules fire on every masked op of the program, and each rewrite checks out
    on random and special inputs (eqsat check-rules on it)."""
    corpus = tmp_path / "kinds.mlir"
    corpus.write_text(KINDS)
    report = check_rules([corpus], rule_files=[load(rules_dir() / "canonicalize" / "mask.egg")])
    fired = {name: r.fired for name, r in report.results.items()}
    assert fired["mask-multi-reduction-as-select"] == 4, fired
    assert fired["mask-contract-add-as-select"] == 1, fired
    assert report.unsound() == [] and report.ill_typed() == []


MASKED_WRITE = """
func.func @w(%m: memref<4x16xf32>, %v: vector<4x16xf32>, %r: index, %n: index) {
  %c0 = arith.constant 0 : index
  %k = vector.create_mask %r, %n : vector<4x16xi1>
  vector.mask %k { vector.transfer_write %v, %m[%c0, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, memref<4x16xf32> } : vector<4x16xi1>
  return
}
"""


@pytest.mark.parametrize("emit", ["vv", "hwv"])
def test_a_masked_write_leaves_masked_off_memory_untouched(emit: str) -> None:
    """vector.mask around a transfer_write is the write with that mask (eqsat/encode.py
    masked_write): after optimization no lane outside the mask is written."""
    module = parse(MASKED_WRITE)
    target = load_target("avx2" if load_target("avx2").runs_on_host() else "x86-64-v2")
    result = optimize_module(module, target=target, emit=emit)
    assert Counter(op.name for op in result.module.walk())["vector.mask"] == 0
    v = np.arange(64, dtype=np.float32).reshape(4, 16)
    for r, n in [(3, 10), (0, 16), (4, 1)]:
        mem = np.full((4, 16), -7.0, dtype=np.float32)
        if emit == "vv":
            Interpreter(result.module).call("w", mem, v, r, n)
        else:
            compile(result.module, target)["w"](mem, v, r, n)
        want = np.where((np.arange(4)[:, None] < r) & (np.arange(16) < n), v, -7.0)
        assert mem.tobytes() == want.astype(np.float32).tobytes(), (r, n)


CORPUS = Path(__file__).parent / "programs" / "vectorized"


@pytest.mark.parametrize(
    ("name", "emit", "target_name"),
    [
        ("matmul_f32_masked_contract", "hwv", "avx2"),
        ("matmul_f32_masked_contract", "hwv", "x86-64-v2"),
        ("matmul_i32_masked_contract", "vv", "avx2"),
        ("reduce_masked_kinds_i32", "hwv", "avx2"),
        ("reduce_masked_kinds_f32", "hwv", "x86-64-v2"),
        ("reduce_masked_kinds_f32", "vv", "avx2"),
        ("copy_masked", "hwv", "avx2"),
        ("reduce_masked_lowered", "hwv", "avx2"),
        ("gather_rows_masked", "vv", "avx2"),
    ],
)
def test_every_mask_of_the_vectorizer_folds_away_and_keeps_the_golden(
    name: str, emit: str, target_name: str
) -> None:
    """With masks forbidden (``--cost Masked=inf``) the masked programs mlir-opt-22 wrote
    (masked contractions, reductions of every kind, reads and writes) come out with no
    vector.mask at all, through the fold rules alone, and still print mlir-runner-22's
    output (interpreted at VV, no poison lane reaching a printed value; compiled for the
    target at HWV)."""
    target = load_target(target_name)
    if emit == "hwv" and not target.runs_on_host():
        pytest.skip(f"this host cannot run {target_name} code")
    module = parse_file(CORPUS / f"{name}.mlir")
    cost = target.cost_model({"Masked": float("inf")}, emit=emit)
    result = optimize_module(module, target=target, emit=emit, cost=cost)
    assert Counter(op.name for op in result.module.walk())["vector.mask"] == 0
    out = io.StringIO()
    if emit == "vv":
        interp = Interpreter(result.module, out=out, err=io.StringIO())
        interp.call("entry")
        assert interp.warnings == []
    else:
        with contextlib.redirect_stdout(out):
            compile(result.module, target)["entry"]()
    assert out.getvalue() == (CORPUS / f"{name}.expected").read_text()


def test_a_kept_mask_decodes_the_original_op_not_the_extracted_equal() -> None:
    """Decoding a ``Masked`` whose inner e-class yielded another op (an equal of the
    *unmasked* op, here a stand-in with another kind) emits the original masked op on the
    decoded operands: the mask is never put around a form whose lanes may differ."""
    from eqsat.decode import Decoder
    from eqsat.extract import Term
    from frontend.ir import Block

    module = parse("""
func.func @f(%x: vector<4x8xf32>, %acc: vector<4xf32>, %n: index) -> vector<4xf32> {
  %k = vector.create_mask %n, %n : vector<4x8xi1>
  %0 = vector.mask %k { vector.multi_reduction <add>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  return %0 : vector<4xf32>
}""")
    func = module.ops[0]
    enc = Encoder().encode_block(func.regions[0].blocks[0])
    (mid,) = enc.masked
    vt = lambda *shape: Term("VT", (shape, "f32"))  # noqa: E731
    arg = lambda i, t: Term("Arg", (enc.index, i, t))  # noqa: E731
    x, acc = arg(0, vt(4, 8)), arg(1, vt(4))
    mask = Term("CreateMask", (Term("VT", ((4, 8), "i1")),
                               Term("TCons", (arg(2, Term("TT", ("index",))),
                                              Term("TCons", (arg(2, Term("TT", ("index",))),
                                                             Term("TNil")))))))
    other = Term("MultiReduction", (vt(4), x, acc, "mul", (1,)))
    ops = Term("TCons", (x, Term("TCons", (acc, Term("TNil")))))
    masked = Term("Masked", (vt(4), mask, Term("TNil"), other, mid, ops))
    root = Term("Exit", (Term("TCons", (masked, Term("TNil"))),
                         Term("StInit", (enc.index, "mem")), Term("StInit", (enc.index, "io"))))
    block = Block([a.type for a in func.regions[0].blocks[0].args])
    Decoder({enc.index: root}).decode_block(enc, block, {})
    (mask_op,) = [op for op in block.ops if op.name == "vector.mask"]
    inner = mask_op.regions[0].blocks[0].ops[0]
    assert inner.name == "vector.multi_reduction"
    assert inner.attributes["kind"].value == "add"
