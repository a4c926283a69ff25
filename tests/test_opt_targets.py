"""`eqsat opt --target`: choices follow the target files, costs are cycle estimates, every corpus
program still computes its golden output on every target, and the CLI around it."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from eqsat.cli import main
from eqsat.interpreter import run_function
from eqsat.optimizer import optimize_module
from eqsat.targets import load_target
from experiments.lib.kernels import MATMUL, suite
from frontend import parse, parse_file, print_module
from frontend.types import VectorType
from tests import mlir_tools

TARGETS = ("x86-64-v2", "avx2", "avx512", "neon")
ROOT = Path(__file__).parent.parent
PROGRAMS = sorted((ROOT / "tests" / "programs").glob("*.mlir"))
MLIR22 = {p for p in PROGRAMS if mlir_tools.reference_of(p)[0] == "mlir22"}  # goldens from MLIR 22
COMPUTE_PREFIXES = ("arith.", "math.")
COMPUTE = {
    "vector.fma", "vector.contract", "vector.outerproduct", "vector.reduction",
    "vector.multi_reduction", "vector.broadcast", "vector.matrix_multiply",
}


def forms(text: str, target: str) -> Counter[str]:
    result = optimize_module(parse(text), target=load_target(target), emit="vv")
    return Counter(op.name for op in result.module.walk())


@pytest.mark.parametrize(
    "kernel", ["matmul 16x16x16", "transpose 16x16", "multi_reduction 16x16", "transfer 8x8 tiles of 64x64"]
)
def test_targets_do_not_all_choose_the_same_forms(kernel: str) -> None:
    text = dict(suite())[kernel]
    chosen = {t: forms(text, t) for t in TARGETS}
    assert len({repr(v) for v in chosen.values()}) > 1, chosen


def test_one_cost_in_a_target_file_flips_the_choice(tmp_path: Path) -> None:
    text = dict(suite())["transpose 8x8"]
    assert forms(text, "avx2")["vector.shuffle"] >= 1  # shuffles are cheap on avx2
    mine = tmp_path / "avx2-slow-shuffles.toml"
    mine.write_text(
        (ROOT / "costs" / "avx2.toml")
        .read_text()
        .replace('"vector.shuffle" = 1', '"vector.shuffle" = 50')
    )
    flipped = forms(text, str(mine))
    assert flipped["vector.shuffle"] == 0 and flipped["vector.transpose"] >= 1


def _lanes(t: object) -> int:
    return t.num_elements() if isinstance(t, VectorType) else 1  # type: ignore[attr-defined]


def test_big_contract_costs_cycles_not_penalties() -> None:
    """The issue's case: a 64x64x64 f32 matmul on avx2 is lowered by a strategy (the whole
    contraction left to the code generator's lane-by-lane fold is slower) at a cost that
    estimates cycles: at least its 32,768 FMAs at the FMA's throughput, within 10x of them."""
    target = load_target("avx2")
    result = optimize_module(parse(MATMUL.format(m=64, n=64, k=64)), target=target)
    fmas = 64 * 64 * 64 // target.lanes("f32") * target.cost_model().per_register(
        "vector.fma", "f32"
    )
    assert fmas <= result.cost < 10 * fmas
    assert not any(op.name == "vector.contract" for op in result.module.walk())


def _run(module) -> str:
    out = io.StringIO()
    run_function(module, "entry", out=out)
    return out.getvalue()


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_corpus_programs_keep_their_output_on_every_target(target: str, path: Path) -> None:
    """Both levels print the golden; the VV output of a program MLIR 22 ran is also valid
    MLIR 22 (checked here, on the same extraction, when mlir-opt-22 is installed)."""
    want = path.with_suffix(".expected").read_text()
    for emit in ("vv", "hwv"):
        result = optimize_module(parse_file(path), target=load_target(target), emit=emit)
        assert _run(result.module) == want, emit
        if emit == "vv" and path in MLIR22 and not mlir_tools.missing_tools(22):
            ok, message = mlir_tools.validate_with_mlir_opt(print_module(result.module), 22)
            assert ok, message


# -- the command line ------------------------------------------------------------------------------
EXAMPLE = str(ROOT / "examples" / "matmul_transpose.mlir")


def test_targets_command_lists_widths(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["targets"]) == 0
    out = capsys.readouterr().out
    for name in TARGETS:
        assert name in out
    assert "f32=8" in out and "f32=16" in out


def test_explain_json_is_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opt", EXAMPLE, "--target", "avx2", "--explain", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ops = {r["op"]: r for r in data["ops"]}
    contract = ops["vector.contract"]
    assert {"form", "op", "cost"} <= set(contract["chosen"])
    assert contract["alternatives"], "a contract has strategy alternatives"
    costs = [a["cost"] for a in contract["alternatives"]]
    assert all(isinstance(c, (int, float)) or c == "inf" for c in costs)
    if contract["chosen"]["form"] != "Contract":
        assert contract["rules"] and all(r["applied"] > 0 for r in contract["rules"])


def test_explain_text_names_forms_and_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "matmul.mlir"
    path.write_text(MATMUL.format(m=64, n=64, k=64))
    assert main(["opt", str(path), "--target", "avx2", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "vector.contract" in out and "chosen  ContractOuter rows=1" in out
    assert "other   Contract" in out and "other   Tiled" in out and "by rule contract-" in out


def test_user_target_file_via_costs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text((ROOT / "costs" / "avx2.toml").read_text())
    assert main(["opt", EXAMPLE, "--costs", str(mine), "--emit", "vv"]) == 0
    assert "func.func" in capsys.readouterr().out


def test_bad_cost_key_in_user_target_is_file_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text((ROOT / "costs" / "avx2.toml").read_text().replace('"arith.subf"', '"sub"'))
    assert main(["opt", EXAMPLE, "--target", str(mine)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{mine}:") and ": error: unknown op 'sub'" in err


def test_hwv_needs_a_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opt", EXAMPLE, "--emit", "hwv"]) == 2  # a usage error
    assert "--emit hwv needs a --target" in capsys.readouterr().err


def test_exact_extractor_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opt", EXAMPLE, "--target", "neon", "--extractor", "exact", "--stats"]) == 0
    captured = capsys.readouterr()
    assert "func.func" in captured.out and "extracted cost" in captured.err


# -- random programs: every target, at HWV (the default with a target) -----------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from eqsat.interpreter import Interpreter  # noqa: E402
from tests.test_random_programs import programs  # noqa: E402


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.integers(0, 2**32 - 1), st.sampled_from(TARGETS))
def test_random_programs_compute_the_same_bits_on_every_target(case, seed, target) -> None:
    import numpy as np

    text, shapes = case
    module = parse(text)
    rng = np.random.default_rng(seed)
    args = [rng.normal(0, 2, s).astype(np.float32) for s in shapes]
    want = Interpreter(module).call("f", *[a.copy() for a in args])
    result = optimize_module(module, target=load_target(target), emit="hwv")
    got = Interpreter(result.module).call("f", *[a.copy() for a in args])
    assert np.array_equal(np.asarray(want), np.asarray(got), equal_nan=True), (
        f"{target}\n{text}\n--- optimized ---\n{result.module}"
    )


def test_legalize_files_follow_the_target(monkeypatch: pytest.MonkeyPatch) -> None:
    import eqsat.optimizer as opt

    class Fake:
        def __init__(self, name: str) -> None:
            self.path = Path("rules/legalize") / f"{name}.egg"

    files = tuple(Fake(n) for n in ("avx512", "common", "neon", "x86"))
    monkeypatch.setattr(opt, "phase_files", lambda phase: files)
    chosen = opt.legalize_files(load_target("avx2").legalize)
    assert [f.path.stem for f in chosen] == ["common", "x86"]
    assert len(opt.legalize_files(())) == 4  # a target that names none uses them all

    def missing(phase: str) -> tuple:
        raise FileNotFoundError(phase)

    monkeypatch.setattr(opt, "phase_files", missing)
    assert opt.legalize_files(("common",)) == ()  # no legalize directory: no such rules


# -- the outer-product lowering's row blocks ------------------------------------------------------
ODD_MATMUL = """
#mm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
       affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @entry(%a: vector<5x3xf32>, %b: vector<3x6xf32>, %c: vector<5x6xf32>) -> vector<5x6xf32> {
  %r = vector.contract #mm %a, %b, %c : vector<5x3xf32>, vector<3x6xf32> into vector<5x6xf32>
  return %r : vector<5x6xf32>
}
"""


@pytest.mark.parametrize("rows", [1, 2, 4, 8])
def test_every_row_block_computes_the_contraction(rows: int) -> None:
    """Blocks that do not divide the 5 rows (2, 4) and exceed them (8) give the same bits."""
    from eqsat.cost import vv_cost

    base = vv_cost()

    def only(op: str, lits: tuple, kids: tuple) -> float:
        if op == "ContractOuter":
            return 0.0 if lits[4] == rows else 1e9
        return base(op, lits, kids) + (1e9 if op.startswith("Contract") else 0.0)

    module = parse(ODD_MATMUL)
    out = optimize_module(module, cost=only).module
    names = Counter(op.name for op in out.walk())
    assert "vector.contract" not in names and names["vector.outerproduct"] == 5 * 3
    rng = np.random.default_rng(rows)
    args = [rng.standard_normal(s).astype(np.float32) for s in ((5, 3), (3, 6), (5, 6))]
    want = Interpreter(module).call("entry", *args)
    got = Interpreter(out).call("entry", *args)
    assert np.array_equal(np.asarray(want), np.asarray(got))


def test_bt_matmul_takes_the_outer_product_in_one_register_rows() -> None:
    """C += A * B^T, 8x8x8 on avx2: the outer-product form (one AXPY per row, each one ymm
    register) beats 64 ordered dot products; every compute op fits one register."""
    path = ROOT / "experiments" / "bench_kernels" / "matmul_bt_8x8x8.mlir"
    out = optimize_module(parse_file(path), target=load_target("avx2"), emit="vv").module
    names = Counter(op.name for op in out.walk())
    assert names["vector.outerproduct"] == 64 and "vector.reduction" not in names
    for op in out.walk():
        if op.name in ("vector.outerproduct", "arith.addf"):
            assert all(_lanes(v.type) <= 8 for v in [*op.results, *op.operands])


def test_ops_a_strategy_emits_get_their_own_choice_in_a_second_round() -> None:
    """matvec 16x16 on avx2: the outer-product lowering transposes the matrix; the second
    round lowers that transpose too (a staged shuffle sequence) instead of leaving it to
    code generation. One round keeps it; either way the program computes the same bits."""
    path = ROOT / "experiments" / "bench_kernels" / "matvec_16x16.mlir"
    target = load_target("avx2")
    one = optimize_module(parse_file(path), target=target, rounds=1)
    two = optimize_module(parse_file(path), target=target)
    assert "vector.transpose" in {op.name for op in one.module.walk()}
    names = Counter(op.name for op in two.module.walk())
    assert "vector.transpose" not in names and names["vector.shuffle"] >= 64
    assert "next round" in two.seconds
    rng = np.random.default_rng(0)
    a, x = rng.standard_normal((16, 16), np.float32), rng.standard_normal(16, np.float32)
    outs = []
    for m in (parse_file(path), one.module, two.module):
        y = np.zeros(16, np.float32)
        Interpreter(m).call("matvec_16x16", a, x, y)
        outs.append(y)
    assert np.array_equal(outs[0], outs[1]) and np.array_equal(outs[0], outs[2])


def test_a_second_round_keeps_defaulted_attributes_absent() -> None:
    """A reduction an expander emits has no fastmath attribute; encoding it again must not
    print an empty ``fastmath<>`` (which MLIR rejects)."""
    path = ROOT / "tests" / "programs" / "kernel_tiled_matmul.mlir"
    out = optimize_module(parse_file(path), target=load_target("avx2"), emit="vv")
    text = print_module(out.module)
    assert "vector.reduction" in text and "fastmath<>" not in text
