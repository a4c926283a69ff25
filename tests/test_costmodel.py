"""Target cost models: every shipped target prices with its [cost] table in cycles; ops cost
what their split into native registers costs, with no penalty constant; register pressure is a
spill term over the extracted block; malformed entries name FILE:LINE."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from eqsat.targets import TargetError, builtin_targets, load_target
from eqsat.targets.costmodel import TargetCost

TARGETS = ("x86-64-v2", "avx2", "avx512", "neon")


def vt(*shape: int, elem: str = "f32") -> tuple:
    return ("type", shape, elem)


def binary(t: tuple) -> tuple:
    """Literals of a binary arith op on type ``t`` as the snapshot appends them."""
    return ("", ("operands", t, t), t)


@pytest.mark.parametrize("name", TARGETS)
def test_every_target_loads_with_costs(name: str) -> None:
    target = load_target(name)
    assert name in builtin_targets()
    assert target.cost["default"] >= 0 and "arith.addf" in target.cost
    model = TargetCost(target)
    one = model("ArithAddf", binary(vt(target.lanes("f32"))), ())
    assert one == model.per_register("arith.addf", "f32") > 0


def test_cost_grows_with_registers_spanned() -> None:
    model = TargetCost(load_target("avx2"))  # 8 f32 lanes
    add = model.per_register("arith.addf", "f32")
    assert model("ArithAddf", binary(vt(8)), ()) == add
    assert model("ArithAddf", binary(vt(4, 8)), ()) == 4 * add
    # 12 lanes: two registers and a shuffle for the ragged one
    shuffle = model.per_register("vector.shuffle", "f32")
    assert model("ArithAddf", binary(vt(12)), ()) == 2 * add + shuffle
    # per element type: f64 divides cost more per register, and f64 has 4 lanes
    assert model("ArithDivf", binary(vt(8, elem="f64")), ()) == 2 * 8
    assert model("ArithDivf", binary(vt(8)), ()) == 5


def test_wide_ops_cost_their_split_and_no_penalty() -> None:
    """A 64x64x64 f32 multiply is 32,768 avx2 registers of multiplies: that many times the
    cycles of one, whatever an override says; no target carries a register cap."""
    target = load_target("avx2")
    model = TargetCost(target)
    mul = model.per_register("arith.mulf", "f32")
    assert model("ArithMulf", binary(vt(64, 64, 64)), ()) == 64 * 64 * 64 // 8 * mul
    assert model("ArithMulf", binary(vt(8, 8, 4)), ()) == 32 * mul  # vectorizer output
    cheap = TargetCost(target, {"ArithMulf": 0.0})
    assert cheap("ArithMulf", binary(vt(64, 64, 64)), ()) == 0
    assert not hasattr(target, "max_registers")


def test_moving_whole_registers_is_free_and_a_part_costs_a_shuffle() -> None:
    model = TargetCost(load_target("avx2"))
    row = ((0,), ("operands", vt(4, 16)), vt(16))  # a row of two whole registers
    assert model("Extract", row, ()) == 0
    half = ((0,), ("operands", vt(4, 4)), vt(4))
    assert model("Extract", half, ()) == model.per_register("vector.extract", "f32")


def test_max_registers_in_a_target_file_is_an_error_at_its_line(tmp_path) -> None:
    text = GOOD.read_text().replace("registers = 16\n", "registers = 16\nmax_registers = 4\n")
    path = tmp_path / "old.toml"
    path.write_text(text)
    line = text.splitlines().index("max_registers = 4") + 1
    with pytest.raises(TargetError) as e:
        load_target(str(path))
    assert str(e.value).startswith(f"{path}:{line}: error: 'max_registers' is no longer")


def test_strategies_cost_their_expansion_on_the_target() -> None:
    # transpose 8x8 f32 as one 64-lane shuffle: 8 avx2 registers, each merging 8 source rows
    # two at a time (7 shuffles); 16 x86-64-v2 registers, each merging 4 (3 shuffles)
    lits = ((1, 0), ("operands", vt(8, 8)), vt(8, 8))
    avx2, sse = TargetCost(load_target("avx2")), TargetCost(load_target("x86-64-v2"))
    assert avx2("TransposeShuffle", lits, ()) == 8 * 7 * avx2.per_register("vector.shuffle", "f32")
    assert sse("TransposeShuffle", lits, ()) == 16 * 3 * sse.per_register("vector.shuffle", "f32")
    # the element-wise expansion is that same shuffle once LLVM folds its lane moves
    assert avx2("TransposeElementwise", lits, ()) == avx2("TransposeShuffle", lits, ())
    # a permutation that keeps the rows whole moves registers: one shuffle each
    keep = ((1, 0, 2), ("operands", vt(2, 4, 8)), vt(4, 2, 8))
    assert avx2("TransposeShuffle", keep, ()) == 8 * avx2.per_register("vector.shuffle", "f32")
    # flat_transpose was removed from MLIR 22: every shipped target forbids it
    assert math.isinf(avx2("TransposeFlat", lits, ()))


def test_tiled_nodes_multiply_their_kernel() -> None:
    model = TargetCost(load_target("avx2"))
    assert model("Tiled", (64, (1, 8)), (0.0, 3.0, 1.0, 1.0)) == 64 * 3 + 2


GOOD = Path(__file__).parent.parent / "costs" / "avx2.toml"


def _with(tmp_path: Path, old: str, new: str) -> tuple[str, int]:
    text = GOOD.read_text()
    assert old in text
    text = text.replace(old, new)
    path = tmp_path / "mine.toml"
    path.write_text(text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith(new.split("=")[0]))
    return str(path), line


@pytest.mark.parametrize(
    "old, new, needle",
    [
        ('"arith.subf" = 0.5', '"arith.subff" = 1', "unknown op 'arith.subff'"),
        ('"arith.subf" = 0.5', '"arith.subf" = "cheap"', "non-negative number"),
        ('"arith.subf" = 0.5', '"arith.subf" = -2', "non-negative number"),
        ('"arith.subf" = 0.5', '"arith.subf" = { f33 = 1 }', "unknown element type 'f33'"),
        ('"arith.subf" = 0.5', '"arith.subf" = { f32 = true }', "for f32 must be"),
    ],
)
def test_malformed_cost_entries_name_file_line_and_key(tmp_path, old, new, needle) -> None:
    path, line = _with(tmp_path, old, new)
    with pytest.raises(TargetError) as e:
        load_target(path)
    assert str(e.value).startswith(f"{path}:{line}: error:"), str(e.value)
    assert needle in str(e.value) and "arith.sub" in str(e.value)


def test_ops_without_a_hardware_form_cost_more_at_hwv() -> None:
    target = load_target("avx2")
    vv, hwv = TargetCost(target, emit="vv"), TargetCost(target, emit="hwv")
    native = binary(vt(8))
    assert vv("ArithAddf", native, ()) == hwv("ArithAddf", native, ())  # one ymm add
    two_d = binary(vt(2, 8))
    assert hwv("ArithAddf", two_d, ()) > vv("ArithAddf", two_d, ())  # n-D: VV only
    operands = ("operands", vt(1, 8), vt(8, 8), vt(1, 8))
    contract = (((0, 2), (2, 1), (0, 1)), (0, 0, 1), "add", operands, vt(1, 8))
    assert hwv("Contract", contract, ()) > vv("Contract", contract, ())


def test_a_strategy_key_prices_the_strategy_flat(tmp_path) -> None:
    path = tmp_path / "flat.toml"
    path.write_text(GOOD.read_text() + '"TransposeShuffle" = 7\n')
    model = TargetCost(load_target(str(path)))
    lits = ((1, 0), ("operands", vt(8, 8)), vt(8, 8))
    assert model("TransposeShuffle", lits, ()) == 7


def _outer(rows: int, m: int = 16, n: int = 16, k: int = 16) -> tuple:
    """Literals of a ContractOuter node for an f32 (m x k) * (k x n) matmul, ``rows`` a block."""
    operands = ("operands", vt(m, k), vt(k, n), vt(m, n))
    maps = ((0, 2), (2, 1), (0, 1))
    return (maps, (0, 0, 1), "add", (m, k), rows, operands, vt(m, n))


@pytest.mark.parametrize("name, best", [("avx2", 4), ("x86-64-v2", 1)])
def test_outer_product_row_block_fits_the_accumulator_registers(name: str, best: int) -> None:
    """A 16-wide f32 row is 2 avx2 registers, 4 SSE ones: the block of rows whose accumulators
    fit ``accumulators`` (8, 4) is cheapest: fewer blocks reload fewer rhs rows, more spill."""
    model = TargetCost(load_target(name))
    costs = {rows: model("ContractOuter", _outer(rows), ()) for rows in (1, 2, 4, 8)}
    assert min(costs, key=costs.__getitem__) == best, costs


def test_accumulators_come_from_the_target_file(tmp_path) -> None:
    text = GOOD.read_text()
    assert load_target(str(GOOD)).accumulators == 8
    path = tmp_path / "few.toml"
    path.write_text(text.replace("accumulators = 8", "accumulators = 2"))
    model = TargetCost(load_target(str(path)))
    costs = {rows: model("ContractOuter", _outer(rows), ()) for rows in (1, 2, 4)}
    assert min(costs, key=costs.__getitem__) == 1
    path.write_text(text.replace("accumulators = 8", "accumulators = 0"))
    with pytest.raises(TargetError) as e:
        load_target(str(path))
    assert "'accumulators' must be >= 1" in str(e.value) and str(path) in str(e.value)


def _pairs(fused: int, m: int, n: int, k: int) -> tuple:
    """Literals of a ContractPairBroadcast node (see ``_outer``)."""
    return _outer(fused, m, n, k)[:4] + (fused,) + _outer(fused, m, n, k)[5:]


def test_pair_broadcasts_win_where_their_rhs_mixes_fit_the_registers() -> None:
    """fast-math 8x8x8 f32 on avx2: one pair broadcast feeds two FMAs, cheaper than an outer
    product (a broadcast per FMA). At 16x16x16 the mixes of rhs rows are 32 registers: their
    reloads make the outer product the cheaper one there."""
    model = TargetCost(load_target("avx2"), emit="hwv", reassoc=True)
    outer = min(model("ContractOuter", _outer(r, 8, 8, 8), ()) for r in (1, 2, 4, 8))
    assert model("ContractPairBroadcast", _pairs(1, 8, 8, 8), ()) < outer
    assert model("ContractPairBroadcast", _pairs(1, 8, 8, 8), ()) < model(
        "ContractPairBroadcast", _pairs(0, 8, 8, 8), ())
    big = min(model("ContractOuter", _outer(r), ()) for r in (1, 2, 4, 8))
    assert model("ContractPairBroadcast", _pairs(1, 16, 16, 16), ()) > big


@pytest.mark.parametrize("name", ["avx512", "neon"])
def test_targets_whose_fmas_broadcast_for_free_never_use_pair_broadcasts(name: str) -> None:
    model = TargetCost(load_target(name), emit="hwv", reassoc=True)
    assert model("ContractPairBroadcast", _pairs(1, 8, 8, 8), ()) == float("inf")


def test_pair_broadcasts_without_an_fma_unit_are_unfused() -> None:
    """x86-64-v2 prices vector.fma as the libm call it is: the unfused form is the cheaper."""
    model = TargetCost(load_target("x86-64-v2"), emit="hwv", reassoc=True)
    assert model("ContractPairBroadcast", _pairs(0, 8, 8, 8), ()) < model(
        "ContractPairBroadcast", _pairs(1, 8, 8, 8), ())


REDUCE_OUTER = """func.func @k(%a: vector<16x64xf32>, %acc: vector<64xf32>) -> vector<64xf32> {
  %r = vector.multi_reduction <add>, %a, %acc [0] : vector<16x64xf32> to vector<64xf32>
  return %r : vector<64xf32>
}"""


def test_reduction_over_the_outer_dim_of_wide_rows_is_plain_wide_adds() -> None:
    """The issue's regression: rows of 8 avx2 registers reduced over the outer dim are 15
    wide adds (MLIR's innerparallel), not a transpose and 64 horizontal reductions; the cost
    is those adds' cycles (no spills: the rows stream through)."""
    from eqsat.optimizer import optimize_module
    from frontend import parse

    target = load_target("avx2")
    result = optimize_module(parse(REDUCE_OUTER), target=target, emit="vv")
    ops = [op.name for op in result.module.walk()]
    assert "vector.reduction" not in ops and ops.count("arith.addf") == 16
    add = TargetCost(target).per_register("arith.addf", "f32")
    assert result.cost == 16 * 8 * add


def _chain(n: int) -> str:
    """n wide products all made before any is summed: they are live together."""
    body = [f"  %p{i} = arith.mulf %a{i}, %a{i} : vector<4x32xf32>" for i in range(n)]
    body.append("  %s0 = arith.addf %p0, %p1 : vector<4x32xf32>")
    for i in range(2, n):
        body.append(f"  %s{i - 1} = arith.addf %s{i - 2}, %p{i} : vector<4x32xf32>")
    args = ", ".join(f"%a{i}: vector<4x32xf32>" for i in range(n))
    return f"func.func @k({args}) -> vector<4x32xf32> {{\n" + "\n".join(body) + (
        f"\n  return %s{n - 2} : vector<4x32xf32>\n}}"
    )


def test_pressure_prices_the_registers_live_beyond_the_target() -> None:
    """Products of 16 avx2 registers each, made before they are summed: the schedule keeps
    several live at once, beyond avx2's 16 registers; each register pushed out costs a store
    and a reload. The total is the throughput cost plus that spill term."""
    from eqsat.optimizer import optimize_module
    from eqsat.targets.pressure import live_registers
    from frontend import parse

    target = load_target("avx2")
    model = TargetCost(target)
    result = optimize_module(parse(_chain(4)), target=target, emit="vv", cost=model)
    ex = next(iter(result.extractions.values()))
    snap = result.snapshot
    root = snap.root(result.roots[0])
    live = live_registers(model, snap, root, ex.choice)
    peak = max(live)
    assert peak > target.registers and peak % 16 == 0  # whole products of 16 registers
    per = model.per_register("vector.store", None) + model.per_register("vector.load", None)
    assert ex.program_cost >= (peak - target.registers) * per
    assert ex.cost == ex.dag_cost + ex.program_cost
    narrow = optimize_module(parse(_chain(4).replace("4x32", "8")), target=target, emit="vv")
    assert all(e.program_cost == 0 for e in narrow.extractions.values())


def test_shuffles_across_128_bit_lanes_cost_a_permute_per_source_and_a_blend() -> None:
    avx2, sse = TargetCost(load_target("avx2")), TargetCost(load_target("x86-64-v2"))
    per = avx2.per_register("vector.shuffle", "f64")
    # 4 x f64 in a ymm register: two 128-bit lanes of 2 values
    assert avx2.shuffle_price((0, 4, 2, 6), 4, "f64") == per  # vunpcklpd: within lanes
    assert avx2.shuffle_price((0, 1, 4, 5), 4, "f64") == per  # vinsertf128: whole lanes
    assert avx2.shuffle_price((0, 4, 1, 5), 4, "f64") == 3 * per  # 2 vpermpd + vblendpd
    # 8 x f32: the staged transpose's interleave stays within lanes
    assert avx2.shuffle_price((0, 8, 1, 9, 4, 12, 5, 13), 8, "f32") == avx2.per_register(
        "vector.shuffle", "f32")
    # registers of one 128-bit lane (x86-64-v2) never cross one
    assert sse.shuffle_price((0, 4, 1, 5), 4, "f32") == sse.per_register("vector.shuffle", "f32")
    # a vector.shuffle node is priced by its mask (literals: mask, operand types, result type)
    node = ((0, 4, 1, 5), ("operands", vt(4, elem="f64"), vt(4, elem="f64")), vt(4, elem="f64"))
    assert avx2("Shuffle", node, ()) == 3 * per


TRANSPOSES = ("TransposeShuffle", "TransposeElementwise", "TransposeFlat", "TransposeShuffle4x4",
              "TransposeShuffle4x4Pairs", "TransposeShuffle8x8", "TransposeShuffle16x16")


@pytest.mark.parametrize("strategy,shuffles", [("TransposeShuffle4x4", 16),
                                               ("TransposeShuffle4x4Pairs", 8)])  # fmt: skip
def test_staged_transpose_profile_prices_the_shuffles_its_expander_builds(
    strategy: str, shuffles: int
) -> None:
    """A 4x4 staged transpose's profile, on f64 rows of one ymm register each, costs what the
    shuffles its expander emits cost under the same model, mask by mask: 16 shuffles for the
    interleave of TransposeShuffle4x4 (its first stage crosses 128-bit lanes: two lane permutes
    and a blend each), 8 for the pairs (no stage crosses them: unpcklpd, vperm2f128)."""
    from eqsat.optimizer import optimize_module
    from eqsat.targets.expansions import expansion
    from frontend import parse

    target = load_target("avx2")
    model = TargetCost(target)
    text = """func.func @t(%a: vector<4x4xf64>) -> vector<4x4xf64> {
  %t = vector.transpose %a, [1, 0] : vector<4x4xf64> to vector<4x4xf64>
  return %t : vector<4x4xf64>
}
"""
    others = {s: math.inf for s in TRANSPOSES if s != strategy}
    result = optimize_module(parse(text), target=target, rounds=1,
                             cost=target.cost_model({**others, "Transpose": 1e12}))  # fmt: skip
    emitted_ops = [op for op in result.module.walk() if op.name == "vector.shuffle"]
    assert len(emitted_ops) == 8  # 4 rows x log2(4) stages
    emitted = sum(model.shuffle_price(tuple(op.attributes["mask"].values), 4, "f64")
                  for op in emitted_ops)  # fmt: skip
    lits = ((1, 0), ("operands", vt(4, 4, elem="f64")), vt(4, 4, elem="f64"))
    profiled = sum(n * model.price(op, k, elem, width)
                   for op, k, elem, width, n in expansion(strategy, lits)  # type: ignore[union-attr]
                   if op == "vector.shuffle")  # fmt: skip
    assert profiled == emitted == shuffles * model.per_register("vector.shuffle", "f64")


def test_avx2_transposes_f64_blocks_by_pairs_and_llvm_keeps_them_within_lanes() -> None:
    """On avx2 an f64 4x4 block transpose is extracted as TransposeShuffle4x4Pairs, and its O3
    code has no lane permute (vpermpd) where TransposeShuffle4x4's has two per first-stage
    shuffle (the code is for the avx2 target machine, whatever the host)."""
    from eqsat.codegen import emit_assembly
    from eqsat.optimizer import optimize_module
    from frontend import parse

    target = load_target("avx2")
    text = """func.func @t(%a: vector<8x8xf64>) -> vector<8x8xf64> {
  %t = vector.transpose %a, [1, 0] : vector<8x8xf64> to vector<8x8xf64>
  return %t : vector<8x8xf64>
}
"""
    chosen = optimize_module(parse(text), target=target, emit="hwv")
    pairs = {s: math.inf for s in TRANSPOSES if s != "TransposeShuffle4x4Pairs"}
    forced = optimize_module(parse(text), target=target, emit="hwv",
                             cost=target.cost_model({**pairs, "Transpose": 1e12}, emit="hwv"))  # fmt: skip
    interleave = {s: math.inf for s in TRANSPOSES if s != "TransposeShuffle4x4"}
    old = optimize_module(parse(text), target=target, emit="hwv",
                          cost=target.cost_model({**interleave, "Transpose": 1e12}, emit="hwv"))  # fmt: skip
    assert chosen.cost == forced.cost < old.cost
    assert emit_assembly(forced.module, target).count("vpermpd") == 0
    assert emit_assembly(old.module, target).count("vpermpd") > 0


def test_llvm_folds_the_element_wise_transpose_into_shuffles() -> None:
    """Why TransposeElementwise is priced as the one-shuffle transpose: its 64 extracts and 64
    inserts (8x8 f32) compile at O3 to about the instructions of the one shuffle, not to a
    move per lane (the code is for the avx2 target machine, whatever the host)."""
    from eqsat.codegen import emit_assembly
    from eqsat.forced_strategies import forced_cost_overrides
    from eqsat.optimizer import optimize_module
    from experiments.lib.kernel_variants import count_instructions
    from frontend import parse

    target = load_target("avx2")
    text = """func.func @t(%a: vector<8x8xf32>) -> vector<8x8xf32> {
  %t = vector.transpose %a, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
  return %t : vector<8x8xf32>
}
"""
    counts = {}
    for strategy in ("eltwise", "shuffle_1d"):
        cost = target.cost_model(forced_cost_overrides({"vector.transpose": strategy}))
        module = optimize_module(parse(text), target=target, rounds=1, cost=cost).module
        ops = [op.name for op in module.walk()]
        if strategy == "eltwise":
            assert ops.count("vector.extract") == ops.count("vector.insert") == 64
        counts[strategy] = count_instructions(emit_assembly(module, target), "t")
    assert counts["eltwise"] < 128  # fewer instructions than the expander's lane moves
    assert counts["eltwise"] <= 1.25 * counts["shuffle_1d"]


def test_a_float_in_a_registers_first_lane_is_taken_out_for_free() -> None:
    avx2 = TargetCost(load_target("avx2"))
    row, f32, i32 = vt(2, 16), ("type", "f32"), ("type", "i32")
    extract = avx2.per_register("vector.extract", "f32")
    assert avx2("Extract", ((1, 8), ("operands", row), f32), ()) == 0.0  # lane 0 of register 2
    assert avx2("Extract", ((1, 3), ("operands", row), f32), ()) == extract
    ints = ((1, 8), ("operands", vt(2, 16, elem="i32")), i32)
    assert avx2("Extract", ints, ()) == avx2.per_register("vector.extract", "i32")  # a vmovd
    # an ordered f32 sum of 16 lanes (2 registers): 16 adds, 14 lanes taken out
    from eqsat.targets.expansions import FOLD

    add = avx2.per_register("arith.addf", "f32")
    assert avx2.price(FOLD, 16, "f32") == 16 * add + 14 * extract
    assert avx2.price(FOLD, 16, "i32") > avx2.price(FOLD, 16, "f32")


#: Vector ALU ports that issue float compares, max/min and blends: Skylake's p0/p1/p5 (Zen 2's
#: pipes are no fewer for these), Nehalem's p0/p1/p5, Skylake-X's two 512-bit ports.
VECTOR_PORTS = {"avx2": 3, "x86-64-v2": 3, "avx512": 2}


@pytest.mark.parametrize("name", sorted(VECTOR_PORTS))
@pytest.mark.parametrize("op", ["maxnumf", "minnumf"])
def test_maxnum_minnum_price_what_the_code_generator_emits(name: str, op: str) -> None:
    """The interpreter's zero for (+0, -0) costs an and/or, a compare and a select around
    LLVM's maxnum (eqsat/codegen/emitter.py min_max_num): the table's price per register must
    cover that code's instructions spread over the vector ports (priced 1, it did not)."""
    from eqsat.codegen.api import emit_assembly
    from experiments.lib.kernel_variants import function_assembly

    target = load_target(name)
    w = target.lanes("f32")
    src = (f"func.func @f(%a: vector<{w}xf32>, %b: vector<{w}xf32>) -> vector<{w}xf32> {{\n"
           f"  %r = arith.{op} %a, %b : vector<{w}xf32>\n  return %r : vector<{w}xf32>\n}}\n")  # fmt: skip
    body = [ln.strip() for ln in function_assembly(emit_assembly(src, target), "f")
            if ln.strip() and not ln.strip().startswith((".", "#"))]  # fmt: skip
    # plain register moves are not the op's work; a masked move is AVX-512's select
    compute = [i for i in body if "{%k" in i
               or not i.startswith(("mov", "vmov", "ret", "vzeroupper", "kmov"))]  # fmt: skip
    assert len(compute) >= 5, body  # max, unordered compare, select; and/or, compare, select
    assert TargetCost(target).per_register(f"arith.{op}", "f32") >= len(compute) / VECTOR_PORTS[name]


def test_a_shuffle_register_that_is_a_whole_source_register_is_free() -> None:
    sse = TargetCost(load_target("x86-64-v2"))
    per = sse.per_register("vector.shuffle", "f64")
    # 2 x f64 per xmm register: [a0 a1 | b0 b1] takes registers as they are, [a0 b0 | a1 b1]
    # interleaves (unpcklpd, unpckhpd)
    assert sse.shuffle_price((0, 1, 4, 5), 4, "f64") == 0
    assert sse.shuffle_price((0, 4, 1, 5), 4, "f64") == 2 * per
    assert sse.shuffle_price((1, 0, 4, 5), 4, "f64") == per  # swapped lanes: a shuffle


def test_staged_f64_transposes_on_sse_cost_what_llvm_makes_of_them_alike() -> None:
    """On x86-64-v2 (2 x f64 per register) the 4x4, 4x4-pairs and 8x8 staged transposes of an
    8x8 f64 block compile at O3 to the same unpcklpd/unpckhpd per result register (their
    later stages move whole registers, which LLVM renames away), and their profiles price
    their shuffles alike (the code is for the x86-64-v2 target machine, whatever the host)."""
    import re

    from eqsat.codegen import emit_assembly
    from eqsat.optimizer import optimize_module
    from eqsat.targets.expansions import expansion
    from frontend import parse

    target = load_target("x86-64-v2")
    model = TargetCost(target)
    text = """func.func @t(%a: vector<8x8xf64>) -> vector<8x8xf64> {
  %t = vector.transpose %a, [1, 0] : vector<8x8xf64> to vector<8x8xf64>
  return %t : vector<8x8xf64>
}
"""
    lits = ((1, 0), ("operands", vt(8, 8, elem="f64")), vt(8, 8, elem="f64"))
    priced, shuffles = {}, {}
    for strategy in ("TransposeShuffle4x4", "TransposeShuffle4x4Pairs", "TransposeShuffle8x8"):
        priced[strategy] = sum(n * model.price(op, k, elem, width)
                               for op, k, elem, width, n in expansion(strategy, lits)  # type: ignore[union-attr]
                               if op == "vector.shuffle")  # fmt: skip
        others = {s: math.inf for s in TRANSPOSES if s != strategy}
        module = optimize_module(parse(text), target=target, emit="hwv",
                                 cost=target.cost_model({**others, "Transpose": 1e12}, emit="hwv")).module  # fmt: skip
        asm = emit_assembly(module, target)
        shuffles[strategy] = len(re.findall(r"\bunpck[lh]pd\b", asm))
    assert set(shuffles.values()) == {32}  # one per result register, 4 blocks of 8
    assert len(set(priced.values())) == 1, priced


def test_a_gather_transpose_of_a_read_is_made_at_its_use_and_holds_no_registers() -> None:
    """A transpose by one gather of a value read from memory: LLVM builds each result register
    from the memory lanes where it is used (loads of single lanes, no row held), so the
    pressure term does not count it live; a staged block transpose holds the rows it shuffles.
    On x86-64-v2 (16 registers of 2 x f64) the transposed 16x8 (64 registers) summed over its
    rows spills in the staged form's O3 code and far less in the gather's (the code is for the
    x86-64-v2 target machine, whatever the host)."""
    import re

    from eqsat.codegen import emit_assembly
    from eqsat.forced_strategies import forced_cost_overrides
    from eqsat.optimizer import optimize_module
    from frontend import parse

    target = load_target("x86-64-v2")
    text = """func.func @t(%m: memref<16x8xf64>, %acc: memref<16xf64>, %out: memref<16xf64>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f64
  %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x8xf64>, vector<16x8xf64>
  %t = vector.transpose %v, [1, 0] : vector<16x8xf64> to vector<8x16xf64>
  %a = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<16xf64>, vector<16xf64>
  %r = vector.multi_reduction <add>, %t, %a [0] : vector<8x16xf64> to vector<16xf64>
  vector.transfer_write %r, %out[%c0] {in_bounds = [true]} : vector<16xf64>, memref<16xf64>
  return
}
"""
    spills, pressure = {}, {}
    for strategy in ("shuffle_1d", "TransposeShuffle4x4"):
        cost = target.cost_model(forced_cost_overrides({"vector.transpose": strategy}), "hwv")
        result = optimize_module(parse(text), target=target, emit="hwv", cost=cost)
        pressure[strategy] = next(iter(result.extractions.values())).program_cost
        asm = emit_assembly(result.module, target)
        spills[strategy] = len(re.findall(r"%xmm\d+, -?\d*\(%rsp\)", asm))
    assert pressure["shuffle_1d"] == 0 < pressure["TransposeShuffle4x4"]
    assert 2 * spills["shuffle_1d"] < spills["TransposeShuffle4x4"], spills


WIDE_WRITE = """func.func @k(%m: memref<4x32xf32>, %a: vector<4x32xf32>, %b: vector<4x32xf32>) {
  %c0 = arith.constant 0 : index
  %s = arith.addf %a, %b : vector<4x32xf32>
  vector.transfer_write %s, %m[%c0, %c0] {in_bounds = [true, true]} : vector<4x32xf32>, memref<4x32xf32>
  return
}"""


def test_a_write_costs_the_registers_it_stores() -> None:
    """A write has no result type: the snapshot gives it the type of the vector it stores,
    so a 4x32 f32 transfer_write costs 16 avx2 registers of writes (not one), its row-by-row
    split the same rows, and a maskedstore is priced by its data, not its i1 mask."""
    from eqsat.optimizer import optimize_module
    from frontend import parse

    target = load_target("avx2")
    model = TargetCost(target)
    result = optimize_module(parse(WIDE_WRITE), target=target, emit="vv", cost=model)
    snap = result.snapshot
    write = model.per_register("vector.transfer_write", "f32")
    seen = {}
    for node, op in enumerate(snap.ops):
        if op in ("TransferWrite", "TransferWriteSplit"):
            seen[op] = model.own(op, snap.cost_lits[node])
    assert seen == {"TransferWrite": 16 * write, "TransferWriteSplit": 16 * write}
    add = model.per_register("arith.addf", "f32")
    index = model.per_register("arith.constant", "index")
    assert result.cost == 16 * add + 16 * write + index
    # maskedstore(base, indices, mask, value): the value's lanes and element type
    mask, data = vt(16, elem="i1"), vt(16, elem="f64")
    lits = (("operands", ("type", "memref<?xf64>"), None, mask, data), data)
    per = model.per_register("vector.maskedstore", "f64")
    assert model("Maskedstore", lits, ()) == 4 * per


PERMUTED_READ = """func.func @k(%m: memref<16x16xf32>, %o: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0, %c0], %p {in_bounds = [true, true],
         permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf32>, vector<16x16xf32>
  vector.transfer_write %v, %o[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}"""


def test_a_transfer_whose_lanes_are_apart_costs_gathers_and_reads_rows_then_transposes() -> None:
    """A read whose map swaps the last two dims, left whole, is a gather per register in the
    code generator (so are its rows read apart); the rule transfer-read-permuted-as-transpose
    reads the rows whole and transposes them, which is what extraction picks."""
    from eqsat.optimizer import optimize_module
    from frontend import parse

    target = load_target("avx2")
    model = TargetCost(target)
    t, mem = vt(16, 16), ("type", "memref<16x16xf32>")
    swapped, identity = ("map", 2, (1, 0)), ("map", 2, (0, 1))
    read = lambda m: ((1, 1), ("operands", mem, None, ("type", "f32"), None, m, None), t)  # noqa: E731
    gather = model.per_register("vector.gather", "f32")
    assert model("TransferRead", read(swapped), ()) == 32 * gather
    assert model("TransferReadSplit", read(swapped), ()) == 32 * gather
    plain = model.per_register("vector.transfer_read", "f32")
    assert model("TransferRead", read(identity), ()) == 32 * plain
    result = optimize_module(parse(PERMUTED_READ), target=target, emit="vv", cost=model)
    ops = [op.name for op in result.module.walk()]
    assert "vector.transpose" in ops or "vector.shuffle" in ops, ops
    maps = [op for op in result.module.walk() if "permutation_map" in op.attributes]
    assert all(op.attributes["permutation_map"].map.result_positions() == (0, 1) for op in maps)
