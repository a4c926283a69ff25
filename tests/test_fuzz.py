"""Differential fuzzing in CI: random programs through every stage of the pipeline
(`experiments/fuzz.py` runs the long campaign), and every saved regression replayed."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eqsat.fuzzgen import programs
from experiments import fuzz
from experiments.lib.fuzz_shrink import shrink
from experiments.lib.fuzz_tally import range_limit
from frontend import parse, print_module

REGRESSIONS = sorted(fuzz.REGRESSIONS.glob("*.mlir"))


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(programs(max_ops=14))
def test_generated_programs_verify_and_print_back(program: fuzz.Any) -> None:
    text = program.text
    assert print_module(parse(text)) == text  # parse() verifies


def test_generator_covers_the_op_families_and_the_kernel_shapes() -> None:
    """Every op family, and the wide arguments and contractions up to 16 per dim that the fast
    lowerings (block shuffle transposes, blocked outer products, pair broadcasts) are for: one
    test over one generated thousand (generating it is most of the cost)."""
    texts = [text for text, _ in fuzz.generate(1000, seed=11, max_ops=14)]
    seen = set()
    for text in texts:
        seen.update(w for w in text.split() if w.startswith(("vector.", "arith.", "math.",
                                                             "scf.", "memref.")))
    for op in ("vector.contract", "vector.transfer_read", "vector.transfer_write",
               "vector.gather", "vector.transpose", "vector.broadcast", "vector.shape_cast",
               "vector.multi_reduction", "vector.scan", "vector.shuffle", "scf.for",
               "vector.maskedload", "arith.addf", "arith.addi", "math.fma"):
        assert op in seen, op
    transposes = {m for t in texts for m in re.findall(
        r"vector.transpose %\w+, \[1, 0\] : vector<(\d+x\d+)xf32>", t)}
    assert {"8x8", "16x16"} <= transposes, transposes  # the 8x8 and 16x16 block shuffles
    assert {"4x4", "8x4", "4x8"} & transposes, transposes  # 4x4 blocks
    contracts = [t for t in texts if "vector.contract" in t]
    assert any(re.search(r"vector<16x\d+xf32>.*vector<\d+x16xf32>", line)
               for t in contracts for line in t.splitlines() if "vector.contract" in line)
    assert any("vector<64x" in t for t in texts)  # 64 lanes


@functools.cache
def _fifty() -> tuple[tuple[str, int], ...]:
    return tuple(fuzz.generate(50, seed=2026))


@pytest.mark.parametrize("batch", [0, 1])
def test_programs_agree_at_every_stage(batch: int) -> None:
    """Every variant (default costs, strategies forced, each target's widths, compiled
    runs where the code generator exists, fast-math stages within their tolerance, one
    strategy of each family forced) on 50 programs in two batches of 25 (two tests, so that
    parallel workers share them), a quarter of them kernel-sized (compiling those dominates:
    the campaign in experiments/results/fuzz runs hundreds): no mismatch, no crash."""
    cases = list(_fifty()[batch * 25 : (batch + 1) * 25])
    forced = fuzz.forced_variant(fuzz.forced_for_batch(batch))
    findings = fuzz.check_batch(cases, [*fuzz.variants(), forced])
    assert not findings, "\n\n".join(f"{f.kind} at {f.stage}: {f.detail}\n{f.text}"
                                     for f in findings[:3])


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: p.stem)
def test_fuzz_regression(path: Path) -> None:
    text, seed = fuzz.read_regression(path)
    findings = fuzz.check_program(text, seed, fuzz.regression_variants(path))
    assert not findings, findings[0].detail


WRONG_RULES = """
(ruleset wrong)
; negf(x) == x - x   (wrong)
(rewrite (ArithNegf t x f) (ArithSubf t x x f) :ruleset wrong :name "neg-wrong")
"""


def test_fuzzer_catches_a_wrong_rewrite_and_shrinks_it(tmp_path: Path) -> None:
    """A deliberately wrong rule, forced by its cost: the fuzzer reports a mismatch, shrinks
    the program to the op at fault and saves a regression file that replays it."""
    from eqsat.cost import vv_cost

    rules = tmp_path / "wrong.egg"
    rules.write_text(WRONG_RULES)
    bad = fuzz.Variant("wrong", fuzz._optimize(extra_rule_paths=(rules,),
                                               cost=vv_cost({"ArithNegf": 1e6})))
    text = """module {
  func.func @f(%arg0: vector<4xf32>, %arg1: vector<3xi8>) -> (vector<4xf32>, vector<3xi8>) {
    %0 = arith.mulf %arg0, %arg0 : vector<4xf32>
    %1 = arith.negf %0 : vector<4xf32>
    %2 = arith.addi %arg1, %arg1 : vector<3xi8>
    return %1, %2 : vector<4xf32>, vector<3xi8>
  }
}
"""
    findings = fuzz.check_batch([(text, 7)], [bad])
    assert [f.kind for f in findings] == ["mismatch"]
    small = shrink(findings[0], lambda text, seed: fuzz.check_program(text, seed, [bad]))
    assert "arith.negf" in small.text and "arith.addi" not in small.text
    assert "arith.mulf" not in small.text  # cut: its result became an argument
    saved = fuzz.save_regression(small, tmp_path)
    replay_text, replay_seed = fuzz.read_regression(saved)
    assert fuzz.check_program(replay_text, replay_seed, [bad])
    assert not fuzz.check_program(replay_text, replay_seed, fuzz.variants("quick"))


PAIR = """module {
  func.func @f(%a: vector<8x8xf32>, %b: vector<8x8xf32>, %c: vector<8x8xf32>, %x: vector<4xf32>)
      -> (vector<8x8xf32>, vector<4xi32>, vector<4xf32>) {
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<8x8xf32>, vector<8x8xf32> into vector<8x8xf32>
    %1 = arith.fptosi %x : vector<4xf32> to vector<4xi32>
    %2 = vector.transpose %0, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
    %3 = vector.reduction <minnumf>, %x : vector<4xf32> into f32
    %4 = vector.broadcast %3 : f32 to vector<4xf32>
    return %2, %1, %4 : vector<8x8xf32>, vector<4xi32>, vector<4xf32>
  }
}
"""


def test_tally_counts_strategies_lowerings_and_exclusions() -> None:
    """A forced pair broadcast (fast-math, compared within the tolerance) and an 8x8 shuffle
    transpose are counted as chosen; a compiled stage counts the lowerings of the ops it
    compiled, and leaves the program out for its fptosi, by name (its minnumf is compared: the
    compiled minnum returns the interpreter's zero)."""
    text = print_module(parse(PAIR))
    tally = fuzz.Tally()
    compiled = [v for v in fuzz.variants() if v.name == "compiled-avx2"]
    chosen = [fuzz.forced_variant("ContractPairBroadcast"),
              fuzz.forced_variant("TransposeShuffle8x8"), *compiled]
    assert chosen[0].fast_math and not chosen[1].fast_math
    findings = fuzz.check_batch([(text, 3)], chosen, tally=tally)
    assert not findings, findings[0].detail
    assert tally.programs == 1
    assert tally.strategies["ContractPairBroadcast"] == 1
    assert tally.strategies["TransposeShuffle8x8"] == 1
    assert tally.strategies["ContractOuter"] == 0
    if compiled:
        assert tally.lowerings["vector.contract"] == tally.lowerings["arith.fptosi"] == 1
        reasons = tally.excluded["compiled-avx2"]
        assert sorted(r.split(":")[0] for r in reasons) == ["arith.fptosi"]
        assert "compiled-avx2" not in tally.compared
    report = tally.report(["# t"])
    assert "| `ContractPairBroadcast` | 1 |" in report and "arith.fptosi" in report


F16_DOT = """module {
  func.func @f(%a: vector<8x2xf16>, %b: vector<2x8xf16>, %c: vector<8x8xf16>) -> vector<8x8xf16> {
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<8x2xf16>, vector<2x8xf16> into vector<8x8xf16>
    return %0 : vector<8x8xf16>
  }
}
"""


def test_f16_fast_math_is_compared_within_the_tolerance() -> None:
    """An f16 contraction on the ordinary input (values of a few units, sums of two
    products of them) is compared by every fast-math stage; values past sqrt(65504 / 32)
    are not (32 products of them may overflow in one order only). The old limit, a fixed
    2^-24 of the largest value (0.004 for f16), compared no f16 program."""
    assert range_limit(np.float16) == pytest.approx(45.24, abs=0.01)
    assert not fuzz.near_range([np.array([3.5, -12.0, 40.0], np.float16)])
    assert fuzz.near_range([np.array([3.5, 50.0], np.float16)])
    assert not fuzz.near_range([np.array([1e18], np.float32)])
    tally = fuzz.Tally()
    chosen = [v for v in fuzz.variants() if v.fast_math]
    assert chosen
    findings = fuzz.check_batch([(print_module(parse(F16_DOT)), 5)], chosen, tally=tally)
    assert not findings, findings[0].detail
    assert {v.name for v in chosen} == set(tally.compared), dict(tally.excluded)


def test_exclusions_name_the_op_precisely() -> None:
    """An integer-to-float bitcast exposes no NaN payload: compared; a float-to-integer one
    is not; 'minnumf' in a function name is no minnumf op."""
    def reasons(body: str, args: str = "%x: vector<4xi32>") -> list[str]:
        m = parse(f"func.func @minnumf({args}) {{\n{body}\n  return\n}}\n")
        return fuzz.compiled_exclusions(m.ops[0])

    assert reasons("  %0 = arith.bitcast %x : vector<4xi32> to vector<4xf32>") == []
    assert reasons("  %0 = arith.bitcast %x : vector<4xf32> to vector<4xi32>",
                   "%x: vector<4xf32>") != []
    assert reasons("  %0 = arith.addi %x, %x : vector<4xi32>") == []
    # optimized stages too: a rule may swap a commutative float op's operands, and which of two
    # NaNs an add returns (its payload, shown by the bitcast) is unspecified
    float_bits = parse("func.func @f(%x: vector<4xf32>) {\n  %0 = arith.bitcast %x : "
                       "vector<4xf32> to vector<4xi32>\n  return\n}\n").ops[0]
    assert "payload" in " ".join(fuzz.optimized_exclusions(float_bits))
    int_bits = parse("func.func @f(%x: vector<4xi32>) {\n  %0 = arith.bitcast %x : "
                     "vector<4xi32> to vector<4xf32>\n  return\n}\n").ops[0]
    assert fuzz.optimized_exclusions(int_bits) == []


def test_fast_math_tolerance() -> None:
    eps = float(np.finfo(np.float32).eps)
    a = np.array([1.0, 100.0, -3.0], np.float32)
    assert fuzz.close(a, a + np.float32(50 * eps * 100))
    assert not fuzz.close(a, a + np.float32(100 * eps * 100))
    assert not fuzz.close(np.array([np.inf], np.float32), np.array([-np.inf], np.float32))
    assert fuzz.close(np.array([np.nan], np.float32), np.array([-np.nan], np.float32))
    assert not fuzz.close(np.array([1], np.int32), np.array([2], np.int32))
    assert fuzz.close("( 1.5, 2 )\n", "( 1.50000001, 2 )\n")
    assert not fuzz.close("( 1.5, 2 )\n", "( 1.6, 2 )\n")
    assert not fuzz.close("( 1.5 )\n", "( 1.5, 2 )\n")


def test_campaign_batches_force_every_strategy() -> None:
    """Batch k forces the k-th strategy of every family: within as many batches as the
    largest family has strategies, every strategy is forced once."""
    from eqsat.strategies import STRATEGIES

    largest = max(sum(fuzz._family(s) == f for s in STRATEGIES) for f in fuzz.FAMILY_OPS)
    seen = [s for k in range(largest) for s in fuzz.forced_for_batch(k)]
    assert set(seen) == set(STRATEGIES)
    one = fuzz.forced_for_batch(2)
    assert len({fuzz._family(s) for s in one}) == len(one) == len(fuzz.FAMILY_OPS)
    (again,) = fuzz.variant_named(fuzz.forced_variant(one).name)
    assert again.name == fuzz.forced_variant(one).name


def test_fp_contract_stages_compare_with_the_fused_reference() -> None:
    """An fp-contract stage's code is checked against the interpreter's fused mode: it passes
    there, and the same code checked against the default (rounded products) reference fails,
    so the stage does compare fused bits."""
    import dataclasses

    from eqsat.targets import load_target

    if not load_target("x86-64-v2").runs_on_host():
        pytest.skip("this host cannot run x86-64-v2 code")
    maps = ("[affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
            "affine_map<(i, j, k) -> (i, j)>]")  # fmt: skip
    text = (
        "func.func @f(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %c: vector<4x4xf32>)"
        " -> vector<4x4xf32> {\n"
        f"  %0 = vector.contract {{indexing_maps = {maps}, iterator_types = [\"parallel\", "
        "\"parallel\", \"reduction\"], kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf32>, "
        "vector<8x4xf32> into vector<4x4xf32>\n"
        "  return %0 : vector<4x4xf32>\n}\n"
    )
    text = print_module(parse(text))  # the printer's form, as generated programs are
    names = ("compiled-fp-contract-x86-64-v2", "opt-fp-contract-hwv-avx2")
    chosen = [v for v in fuzz.variants() if v.name in names]
    assert sorted(v.name for v in chosen) == sorted(names)
    assert fuzz.check_program(text, 3, chosen) == []
    unfused_reference = [dataclasses.replace(v, fp_contract=False) for v in chosen]
    found = fuzz.check_program(text, 3, unfused_reference)
    assert {f.stage for f in found} == set(names), found


def test_a_campaign_resumes_where_it_stopped_and_refuses_other_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A run killed mid-campaign leaves a state from which the next run checks exactly the
    programs not yet checked, keeping the findings and the tally; other code or other
    programs are refused."""
    from experiments.sweeplib import provenance

    programs = [(f"program {i}", i) for i in range(10)]
    checked: list[str] = []
    runs = {"left": 2}  # batches the first run gets through before it is killed

    def fake_check(batch, chosen, tally=None):  # noqa: ANN001, ANN202
        if runs["left"] == 0:
            raise KeyboardInterrupt
        runs["left"] -= 1
        checked.extend(t for t, _ in batch)
        tally.programs += len(batch)
        tally.compared["opt"] += len(batch)
        return [fuzz.Finding("mismatch", "opt", "x", t, s) for t, s in batch if s == 1]

    monkeypatch.setattr(fuzz, "generate", lambda n, seed, max_ops: iter(programs[:n]))
    monkeypatch.setattr(fuzz, "check_batch", fake_check)
    monkeypatch.setattr(provenance, "git_commit", lambda: {"commit": "c0ffee" * 6 + "ab",
                                                           "dirty": False})
    state = tmp_path / "campaign.json"
    args = ["--n", "10", "--batch", "3", "--seed", "7", "--state", str(state), "--no-shrink"]
    with pytest.raises(KeyboardInterrupt):
        fuzz.main(args)
    assert checked == [t for t, _ in programs[:6]]
    runs["left"] = 99
    assert fuzz.main(args) == 1  # the first run's finding is still a finding
    assert checked == [t for t, _ in programs]  # each program once, in order
    out = capsys.readouterr().out
    assert "10 programs, 1 mismatches" in out and "10 of 10 programs, complete" in out
    saved = json.loads(state.read_text())
    assert saved["done"] == 10 and saved["tally"]["compared"] == {"opt": 10}

    monkeypatch.setattr(provenance, "git_commit", lambda: {"commit": "beef" * 10,
                                                           "dirty": False})
    assert fuzz.main(args) == 2
    assert "checks commit c0ffeec0ffee, this checkout is beefbeefbeef" in capsys.readouterr().err
    monkeypatch.setattr(provenance, "git_commit", lambda: {"commit": "c0ffee" * 6 + "ab",
                                                           "dirty": True})
    assert fuzz.main(args) == 2
    assert "has uncommitted changes" in capsys.readouterr().err
    monkeypatch.setattr(provenance, "git_commit", lambda: {"commit": "c0ffee" * 6 + "ab",
                                                           "dirty": False})
    assert fuzz.main([*args[:-3], "--seed", "8", "--state", str(state), "--no-shrink"]) == 2
    assert "--seed 7 (now 8)" in capsys.readouterr().err
    state.write_text("{not json")
    assert fuzz.main(args) == 2
    assert "not a fuzz campaign state file" in capsys.readouterr().err


def test_batches_in_worker_processes_give_the_same_tally(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs 2 checks the batches in two worker processes; the campaign's programs, tally
    and findings are those of one process (a merge that lost or doubled a batch would show)."""
    from experiments.sweeplib import provenance

    monkeypatch.setattr(provenance, "git_commit", lambda: {"commit": "ab" * 20, "dirty": False})
    saved = []
    for jobs in (1, 2):
        state = tmp_path / f"state{jobs}.json"
        assert fuzz.main(["--n", "6", "--batch", "2", "--seed", "5", "--quick", "--no-shrink",
                          "--jobs", str(jobs), "--state", str(state)]) == 0
        data = json.loads(state.read_text())
        del data["tally"]["seconds"], data["seconds"]
        saved.append(data)
    assert saved[0] == saved[1] and saved[0]["done"] == 6
    assert saved[0]["tally"]["programs"] == 6 and sum(saved[0]["tally"]["compared"].values())
    with pytest.raises(SystemExit):
        fuzz.main(["--jobs", "0"])
