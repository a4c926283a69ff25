"""The generated cost-model corpus (experiments/cost_corpus.py) and the regret/tau summary of
experiments/cost_regret.py, checked on known synthetic timings."""

from __future__ import annotations

import hashlib
import re

import pytest

from experiments.cost_corpus import corpus, held_out
from experiments.cost_regret import NOISE, kendall_tau, merge_records, summarize
from frontend import parse
from frontend.verifier import verify_module


def test_the_corpus_is_broad_and_every_kernel_repeats_in_a_loop() -> None:
    kernels = corpus()
    assert len(kernels) >= 150
    names = [n for n, _ in kernels]
    for family in ("mm_", "matvec_", "vecmat_", "dot_", "bmm_", "transpose_", "transpose3_",
                   "reduce_", "bcast_", "chain_", "fma_", "read_perm_", "read_masked_"):  # fmt: skip
        assert any(n.startswith(family) for n in names), family
    for elem in ("f32", "f64", "i32", "f16"):
        assert any(n.endswith(elem) for n in names), elem
    # every matmul operand layout: lhs (ik, ki) x rhs (kj, jk) x acc (ij, ji)
    layouts = {m.group(1) for n in names if (m := re.match(r"mm_(\w\w_\w\w_\w\w)_", n))}
    assert len(layouts) == 8
    assert all("scf.for" in text for _, text in kernels)
    for name, text in kernels[::15]:  # a spread sample parses and verifies
        verify_module(parse(text, f"{name}.mlir"))


def test_the_held_out_split_is_a_hash_of_the_name() -> None:
    kernels = corpus()
    held = [n for n, _ in kernels if held_out(n)]
    assert 0.15 < len(held) / len(kernels) < 0.35
    for n in held[:5]:
        assert hashlib.sha256(n.encode()).digest()[0] % 4 == 0
    assert corpus() == kernels  # deterministic


def test_kendall_tau_on_known_rankings() -> None:
    assert kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert kendall_tau([1, 2, 3, 4], [40, 30, 20, 10]) == -1.0
    assert kendall_tau([1, 2, 3, 4], [10, 30, 20, 40]) == pytest.approx(4 / 6)
    assert kendall_tau([1], [2]) is None


def _rec(kernel: str, ours: float, alts: list[tuple[float, float]], mlir: dict, held: bool) -> dict:
    eq = {"eqsat": {"cost": alts[0][0], "ns": ours}}
    eq.update({f"alt{i}": {"cost": c, "ns": t} for i, (c, t) in enumerate(alts[1:])})
    return {"kernel": kernel, "target": "avx2", "held_out": held, "eqsat": eq, "mlir": mlir}


def test_regret_and_wins_from_known_timings() -> None:
    records = [
        # eqsat 100 ns, the field's best 80 ns (an MLIR row): regret 25%, not a win
        _rec("a", 100.0, [(1, 100.0), (2, 120.0)], {"mlir-default": 80.0}, False),
        # eqsat is the fastest row: regret 0, a win; its 4 alternatives rank perfectly
        _rec("b", 50.0, [(1, 50.0), (2, 60.0), (3, 70.0), (4, 90.0)], {"mlir-x": 55.0}, True),
    ]
    s = summarize(records)["avx2"]
    assert s["worst_regret"] == pytest.approx(0.25)
    assert s["geomean_regret"] == pytest.approx(1.25**0.5 - 1)
    assert s["at_least_mlir_best"] == 1 and s["over_25pct"] == 0
    assert s["tau_groups"] == 1 and s["tau_mean"] == 1.0  # only the held-out group of >= 4


def test_kernels_with_fewer_than_two_rivals_are_reported_apart() -> None:
    records = [
        _rec("a", 100.0, [(1, 100.0), (2, 120.0)], {"mlir-default": 80.0}, False),
        # one rival only (MLIR's default): its 100% regret is reported apart
        _rec("lonely", 100.0, [(1, 100.0)], {"mlir-default": 50.0}, False),
    ]
    s = summarize(records)["avx2"]
    assert s["kernels"] == 1 and s["apart"] == ["lonely"]
    assert s["worst_regret"] == pytest.approx(0.25)


def test_the_bit_exact_field_leaves_out_rows_with_other_bits() -> None:
    # MLIR's fastest row fuses (equal within tolerance, other bits): against all rows eqsat's
    # regret is 25%, against the bit-exact rows (eqsat's and MLIR's exact one at 110 ns) 0
    rec = _rec("fused", 100.0, [(1, 100.0), (2, 120.0)],
               {"mlir-fused": 80.0, "mlir-exact": 110.0}, False)  # fmt: skip
    rec["exact"] = ["alt0", "mlir-exact"]
    s = summarize([rec])["avx2"]
    assert s["worst_regret"] == pytest.approx(0.25) and s["at_least_mlir_best"] == 0
    assert s["exact_worst_regret"] == 0.0 and s["exact_at_least_mlir_best"] == 1
    # an exact MLIR row faster than eqsat counts against it
    rec["exact"] = ["mlir-fused"]
    s = summarize([rec])["avx2"]
    assert s["exact_worst_regret"] == pytest.approx(0.25) and s["exact_at_least_mlir_best"] == 0


def test_a_re_run_replaces_the_earlier_record_of_its_kernel() -> None:
    first = {"records": [_rec("a", 100.0, [(1, 100.0)], {"m": 50.0}, False),
                         _rec("b", 10.0, [(1, 10.0)], {"m": 20.0}, False)]}  # fmt: skip
    rerun = {"records": [_rec("a", 40.0, [(1, 40.0)], {"m": 50.0}, False)]}
    merged = merge_records([first, rerun])
    assert [r["kernel"] for r in merged] == ["a", "b"]  # order kept, "a" once
    assert merged[0]["eqsat"]["eqsat"]["ns"] == 40.0


def _backward_branches(asm: list[str]) -> int:
    """Jumps in a function's assembly to a label defined above them: loops."""
    seen: set[str] = set()
    n = 0
    for line in asm:
        s = line.split("#", 1)[0].strip()
        if s.endswith(":"):
            seen.add(s[:-1])
        elif (m := re.match(r"j\w+\s+(\S+)$", s)) and m.group(1) in seen:
            n += 1
    return n


@pytest.mark.parametrize("name", ["fma_8x128_f32", "transpose_16x16_f32", "mm_ik_kj_ij_8x8x8_f32"])
def test_each_repetition_is_real_work_that_o3_keeps_in_a_loop(name: str) -> None:
    """Each repetition reads and writes its own slice, so eqsat's loop pass cannot hoist the
    reads and LLVM O3 cannot delete the loop: the compiled function still loops (with one
    shared slice the loop collapsed to one pass, no branch at all)."""
    from eqsat.bench.run import eqsat_llvm_ir
    from eqsat.targets import load_target
    from experiments.cost_regret import assembly

    text = dict(corpus())[name]
    assert re.search(r"vector\.transfer_read %m0\[%r, ", text)
    target = load_target("avx2")
    asm = assembly(eqsat_llvm_ir(parse(text, f"{name}.mlir"), target, "", "nested"), target, name)
    assert _backward_branches(asm) >= 1, "\n".join(asm)


def test_a_permutation_map_gains_the_unused_repetition_dim() -> None:
    text = dict(corpus())["read_perm_8x32_f32"]
    assert "permutation_map = affine_map<(d0, d1, d2) -> (d2, d1)>" in text
    assert "memref<16x8x32xf32>" in text


def test_fp_contract_mode_reaches_every_alternative() -> None:
    """``cost_regret --fp-contract`` studies the fused meaning: eqsat's choice and its
    alternatives are optimized and compiled in fp-contract mode (each multiply-add one
    ``llvm.fma``), and the default mode emits none (a mode not threaded through would time the
    unfused programs against MLIR's fused rows)."""
    from eqsat.targets import load_target
    from experiments.cost_regret import alternatives

    text = dict(corpus())["matvec_ik_8x8_f32"]
    target = load_target("avx2")
    fused = alternatives("matvec_ik_8x8_f32", text, target, fp_contract=True)
    plain = alternatives("matvec_ik_8x8_f32", text, target)
    assert fused and all("llvm.fma" in a["ir"] for a in fused.values()), list(fused)
    assert not any("llvm.fma" in a["ir"] for a in plain.values()), list(plain)


def test_tie_aware_tau_counts_times_within_the_noise_as_ties() -> None:
    # times 100 and 103 are within 5%: that pair is a tie for any predictor, so the model
    # that orders it wrongly loses nothing, and the strict tau-b still counts it against it
    costs, times = [1, 2, 3, 4], [103, 100, 200, 300]
    assert kendall_tau(costs, times) == pytest.approx(4 / 6)
    tied = kendall_tau(costs, times, NOISE)
    assert tied == pytest.approx(5 / (6 * 5) ** 0.5)
    assert kendall_tau(costs, [100, 103, 200, 300], NOISE) == tied  # either order: the same


def test_tau_is_over_held_out_groups_unless_a_run_is_over_every_split() -> None:
    group = [(1, 100.0), (2, 200.0), (3, 300.0), (4, 250.0)]
    rec = _rec("t", 100.0, group, {}, False)
    assert summarize([rec])["avx2"]["tau_groups"] == 0
    s = summarize([rec], held_only=False)["avx2"]
    assert s["tau_groups"] == 1 and s["tau_mean"] == pytest.approx(4 / 6)
    assert s["tau_ties_mean"] == pytest.approx(4 / 6)  # 250 vs 300: 17% apart, no tie


def test_a_predictor_that_prices_a_group_alike_scores_zero_there() -> None:
    flat = _rec("flat", 100.0, [(5, 100.0), (5, 200.0), (5, 300.0), (5, 400.0)], {}, True)
    ranked = _rec("ranked", 100.0, [(1, 100.0), (2, 200.0), (3, 300.0), (4, 400.0)], {}, True)
    s = summarize([flat, ranked])["avx2"]
    assert s["tau_groups"] == 2 and s["tau_mean"] == pytest.approx(0.5)


def test_llvm_mca_per_repetition_divides_a_pass_by_the_repetitions_it_runs() -> None:
    """One pass over a loop body unrolled by 4 runs 4 repetitions of the kernel; a body LLVM
    unrolled away runs all 16; a function without a loop runs once."""
    from experiments.cost_regret import repetitions_per_pass

    text = dict(corpus())["transpose_8x8_f32"].replace("step %c1", "step %c4").replace(
        "%c1 = arith.constant 1 : index", "%c4 = arith.constant 4 : index")
    module = parse(text)
    loop = ["\tvmovups\t(%rsi,%rcx), %ymm0", "\taddq\t$1024, %rcx", "\tjb\t.LBB0_1", "\tretq"]
    assert repetitions_per_pass(module, loop) == 4
    assert repetitions_per_pass(module, [loop[0], loop[3]]) == 16
    flat = parse("func.func @f(%a: vector<4xf32>) -> vector<4xf32> {\n  return %a : vector<4xf32>\n}\n")
    assert repetitions_per_pass(flat, loop) == 1
