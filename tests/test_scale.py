"""Scale: the memory budget stops every phase cleanly, long programs are optimized in windows
with the same results, and extraction's work grows linearly (counted, never timed)."""

from __future__ import annotations

import gc
import re
import subprocess
import sys
import weakref
from pathlib import Path

import numpy as np
import pytest

import eqsat.extract as extract_mod
from eqsat.encode import Encoder
from eqsat.interpreter import Interpreter
from eqsat.memory import MemoryBudget, MemoryExceeded, format_size, parse_size, rss
from eqsat.optimizer import Budget, optimize_module
from eqsat.saturate import Phase, StopReason, saturate
from eqsat.targets import load_target
from eqsat.windows import plan_windows
from experiments.lib.scaling_programs import addf_chain, straight_line
from frontend import parse
from frontend.ir import gc_settling

ROOT = Path(__file__).resolve().parent.parent


def test_sizes_parse_and_print() -> None:
    assert parse_size("4G") == 4 << 30
    assert parse_size("500M") == 500 << 20
    assert parse_size("1.5GiB") == 3 << 29
    assert format_size(4 << 30) == "4 GiB"
    for bad in ("", "4X", "-1G", "12 parsecs", "100K"):
        with pytest.raises(ValueError):
            parse_size(bad)


def _opt(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eqsat.cli", "opt", *args],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )


@pytest.mark.parametrize("bad", ["lots", "0", "12Q", "100K"])
def test_bad_budget_is_a_usage_error(bad: str) -> None:
    p = _opt("-", "--max-memory", bad, stdin="")
    assert p.returncode == 2
    assert "--max-memory" in p.stderr and "Traceback" not in p.stderr


def test_cli_stops_on_the_budget_with_a_located_message(tmp_path: Path) -> None:
    # 64 MiB is about what the interpreter with eqsat and egglog loaded holds: an early check
    # fails, cleanly.
    f = tmp_path / "p.mlir"
    f.write_text(straight_line(50))
    p = _opt(str(f), "--target", "avx2", "--max-memory", "64M")
    assert p.returncode == 1, p.stderr
    assert re.match(r"eqsat: error: memory budget 64 MiB exceeded during (parse|encode) ", p.stderr)
    assert str(f) in p.stderr and "Traceback" not in p.stderr  # located in the input


def _spent() -> MemoryBudget:
    """A budget already exceeded: the first check of any phase fails."""
    return MemoryBudget(rss() // 2, every=1)


def test_encode_stops_at_a_located_op() -> None:
    module = parse(straight_line(20), "prog.mlir")
    block = module.ops[0].regions[0].blocks[0]
    with pytest.raises(MemoryExceeded) as err:
        Encoder(_spent()).encode_block(block)
    msg = str(err.value)
    assert msg.startswith("memory budget ") and " exceeded during encode at op " in msg
    assert "(prog.mlir:2:" in msg  # the first op of the body, line 2


def test_decode_and_extract_stop_on_the_budget() -> None:
    module = parse(addf_chain(30), "chain.mlir")
    with pytest.raises(MemoryExceeded) as err:
        optimize_module(module, budget=Budget(memory=_spent()))
    assert err.value.phase == "encode"  # the first phase that checks
    # Past encoding: the decoder's own check, and the extractor's.
    from eqsat.decode import Decoder

    ok = optimize_module(module)
    enc = ok.encoder
    assert enc is not None
    roots = {i: ex.term for i, ex in ok.extractions.items()}
    from frontend.ir import Block

    block = module.ops[0].regions[0].blocks[0]
    out = Block([a.type for a in block.args])
    with pytest.raises(MemoryExceeded, match="during decode at output op 1"):
        Decoder(roots, _spent()).decode_block(enc.blocks[0], out, {})
    assert ok.snapshot is not None
    with pytest.raises(MemoryExceeded, match="during extract at e-class 1 of"):
        ok.snapshot.extract(ok.roots[0], ok.cost_model, dag=True, budget=_spent())


def test_saturation_stops_with_reason_memory_and_keeps_the_best_program() -> None:
    module = parse(straight_line(40), "p.mlir")
    result = optimize_module(module, budget=Budget(memory=MemoryBudget(1 << 40)))
    assert {p.stop for p in result.report.phases} == {StopReason.SATURATED}
    # a budget the process is already above half of: every phase stops after one step
    spent = MemoryBudget(int(rss() * 1.5))
    eg = result.egraph
    assert eg is not None
    report = saturate(eg, Phase("again", ("typing",), memory=spent))
    assert report.phases[0].stop in (StopReason.MEMORY, StopReason.SATURATED)
    stopped = optimize_module(parse(straight_line(40), "p.mlir"), budget=Budget(memory=spent))
    assert stopped.report.phases[0].stop == StopReason.MEMORY
    assert stopped.report.phases[0].num_iterations == 1


def test_windows_cover_the_block_and_carry_the_values_later_ops_use() -> None:
    module = parse(straight_line(100, seed=5), "p.mlir")
    block = module.ops[0].regions[0].blocks[0]
    plan = plan_windows(block, 16)
    assert [w.start for w in plan] == list(range(0, len(block.ops), 16))
    assert sum(len(w.ops) for w in plan) == len(block.ops)
    later = [w for w in plan[1:]]
    for w, nxt in zip(plan, later):
        defined = {id(r) for op in w.ops for r in op.results}
        used_later = {id(v) for x in plan[plan.index(nxt):] for op in x.ops for v in op.operands}
        assert {id(v) for v in w.outputs} == defined & used_later


@pytest.mark.parametrize("program", ["straight", "chain"])
def test_windowed_optimization_computes_the_same_values(program: str) -> None:
    text = straight_line(120, seed=3) if program == "straight" else addf_chain(60)
    module = parse(text, "p.mlir")
    whole = optimize_module(module, target=load_target("avx2"), emit="vv")
    windowed = optimize_module(
        module, target=load_target("avx2"), emit="vv", budget=Budget(window=25)
    )
    assert whole.windows == 1 and windowed.windows > 2
    func = module.ops[0]
    rng = np.random.default_rng(0)
    args = []
    for t in func.attributes["function_type"].type.inputs:
        shape = getattr(t, "shape", ())
        x = rng.integers(-4, 5, size=shape).astype(np.float32)  # exact in any order
        args.append(x if shape else np.float32(x))
    name = func.attributes["sym_name"].value
    want = Interpreter(module).call(name, *args)
    for result in (whole, windowed):
        got = Interpreter(result.module).call(name, *args)
        got, exp = (got, want) if isinstance(want, tuple) else ((got,), (want,))
        assert len(got) == len(exp)
        for g, e in zip(got, exp):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(e))


def test_gc_settling_collects_then_freezes_until_the_end() -> None:
    """What the windows rely on: ``settle()`` frees the garbage cycles made so far and freezes
    the objects alive (later collections skip them), ``settle(collect=False)`` only freezes;
    the end unfreezes; with the collector off it does nothing."""

    class Node:
        me: object

    enabled = gc.isenabled()
    kept = [[i] for i in range(1000)]  # container objects: the collector tracks them
    try:
        gc.enable()
        with gc_settling() as settle:
            garbage = Node()
            garbage.me = garbage
            ref = weakref.ref(garbage)
            del garbage
            before = gc.get_freeze_count()
            settle()
            assert ref() is None
            assert gc.get_freeze_count() >= before + len(kept)
            # collect=False: frozen as they are, the garbage cycle with them
            garbage = Node()
            garbage.me = garbage
            ref = weakref.ref(garbage)
            del garbage
            settle(collect=False)
            assert ref() is not None
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        gc.disable()
        with gc_settling() as settle:
            settle()
            assert gc.get_freeze_count() == 0
        assert not gc.isenabled()
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()
    assert len(kept) == 1000


def _set_entries(n: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """(entries over every DAG set, e-classes finalised) extracting an ``n``-op addf chain."""
    monkeypatch.setattr(extract_mod, "DAG_SET_CAP", 16)
    result = optimize_module(parse(addf_chain(n), "c.mlir"))
    snap = result.snapshot
    assert snap is not None
    sets: dict[int, dict[int, float]] = {}
    best = extract_mod._knuth(
        snap, snap.root(result.roots[0]), result.cost_model, True, sets=sets
    )
    return sum(len(s) for s in sets.values()), len(best)


def test_dag_extraction_work_grows_linearly(monkeypatch: pytest.MonkeyPatch) -> None:
    # Uncapped, the sets of an n-op chain hold about n^2/2 entries (quadratic memory: a
    # 20,000-op chain needed 4 GB); capped, at most DAG_SET_CAP per e-class.
    small, small_classes = _set_entries(60, monkeypatch)
    big, big_classes = _set_entries(240, monkeypatch)
    assert 3.6 <= big_classes / small_classes <= 4.4
    assert 3.6 <= big / small <= 4.4, (small, big)
