"""The second process that extracts windows ahead of decoding (``eqsat.ahead``): the same
program as one process, terms that cross the pipe with their sharing, errors raised again in
the parent, a dead child replaced by this process, and a memory budget that counts both."""

from __future__ import annotations

import gc
import os
import signal
import time
import weakref

import pytest

from eqsat.ahead import Ahead, pack_terms, unpack_terms
from eqsat.extract import Term
from eqsat.memory import MemoryBudget, rss
from eqsat.optimizer import Budget, _worth, optimize_module
from eqsat.targets import load_target
from experiments.lib.scaling_programs import straight_line
from frontend import parse
from frontend.printer import print_module

forks = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


@forks
def test_windows_extracted_ahead_give_the_same_program() -> None:
    module = parse(straight_line(150, seed=7), "p.mlir")
    target = load_target("avx2")
    one = optimize_module(module, target=target, budget=Budget(window=30, ahead=False))
    two = optimize_module(module, target=target, budget=Budget(window=30, ahead=True))
    assert one.windows == two.windows > 2
    assert one.ahead == "" and f"of {two.windows} extracted in a second process" in two.ahead
    assert print_module(two.module) == print_module(one.module)
    assert two.cost == one.cost
    # the saturation reports (summed over the windows) came back through the pipe
    assert [(p.name, p.stop, p.nodes) for p in two.report.phases] == [
        (p.name, p.stop, p.nodes) for p in one.report.phases
    ]


def test_bodies_printed_window_by_window_print_as_the_module_does() -> None:
    module = parse(straight_line(150, seed=7), "p.mlir")
    result = optimize_module(module, target=load_target("avx2"), budget=Budget(window=30))
    body = result.module.ops[0].regions[0].blocks[0]
    done = result.printed[id(body)]
    assert done.matches(body) and len(done.text().splitlines()) == len(body.ops)
    whole = print_module(result.module)
    assert done.text() in whole
    assert print_module(result.module, ready=result.printed) == whole
    # a line of its own shows it is used; a body changed since is printed afresh
    done.text = lambda: "  // printed ahead"  # type: ignore[method-assign]
    assert "// printed ahead" in print_module(result.module, ready=result.printed)
    assert "// printed ahead" not in print_module(result.module, generic=True,
                                                  ready=result.printed)  # fmt: skip
    body.ops.insert(0, body.ops.pop(1))
    assert not done.matches(body)
    assert "// printed ahead" not in print_module(result.module, ready=result.printed)


def test_written_module_copies_bodies_printed_ahead_chunk_by_chunk(monkeypatch) -> None:
    """``write_module`` writes what ``print_module`` returns, each body printed ahead copied
    from its file (chunks of 7 characters here: the copy must cross chunk boundaries and
    drop only the body's final newline), not from the string of ``text()``."""
    import io

    import frontend.printer as printer

    module = parse(straight_line(150, seed=7), "p.mlir")
    result = optimize_module(module, target=load_target("avx2"), budget=Budget(window=30))
    whole = print_module(result.module)
    monkeypatch.setattr(printer, "_CHUNK", 7)
    out = io.StringIO()
    printer.write_module(result.module, out, ready=result.printed)
    assert out.getvalue() == whole
    (done,) = result.printed.values()
    done.text = lambda: "  // not copied"  # type: ignore[method-assign]
    out = io.StringIO()
    printer.write_module(result.module, out, ready=result.printed)
    assert out.getvalue() == whole
    # without bodies printed ahead, or in the generic form, it is ``print_module`` alike
    for generic in (False, True):
        out = io.StringIO()
        printer.write_module(result.module, out, generic=generic)
        assert out.getvalue() == print_module(result.module, generic=generic)


def test_packed_terms_keep_their_sharing_and_literals() -> None:
    leaf = Term("Arg", ("f32", 0))
    shared = Term("AddF", (leaf, leaf))
    a = Term("MulF", (shared, Term("Const", (1.5,))))
    b = Term("Vec", ((shared, a), (4, 8), "name"))
    nodes, at = pack_terms({0: a, 3: b})
    assert len(nodes) == 5  # each distinct term once
    got = unpack_terms(nodes, at)
    assert got[0] == a and got[3] == b
    # the decoder keys values by term identity: one object per shared term
    assert got[3].args[0][0] is got[0].args[0]
    assert got[0].args[0].args[0] is got[0].args[0].args[1]
    assert got[3].args[0][1] is got[0]


def test_unpacked_terms_are_freed_without_the_collector() -> None:
    """``unpack_terms`` leaves no reference cycle: the optimizer freezes what a piece from the
    second process made without a collection looking for garbage (``frontend.ir.gc_settling``)."""
    t = Term("Arg", ("f32", 0))
    for i in range(50):
        t = Term("Add", (t, (Term("Const", (float(i),)), t)))
    enabled = gc.isenabled()
    gc.disable()
    try:
        got = unpack_terms(*pack_terms({0: t}))
        ref = weakref.ref(got[0].args[1][0])
        del got
        assert ref() is None  # freed by its reference count alone
    finally:
        if enabled:
            gc.enable()


@forks
def test_pieces_from_the_second_process_leave_no_garbage_cycle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What ``settle(collect=False)`` relies on: each piece the second process extracted is
    unpacked, decoded, verified and printed here without making garbage that only the cyclic
    collector would free (it would stay, frozen, to the end of the run)."""
    from contextlib import contextmanager

    import eqsat.optimizer as opt_mod

    real = opt_mod.gc_settling
    found: list[int] = []

    @contextmanager
    def checking():  # type: ignore[no-untyped-def]
        with real() as settle:

            def check(collect: bool = True) -> None:
                if not collect:
                    gc.set_debug(gc.DEBUG_SAVEALL)
                    try:
                        gc.collect()
                        found.append(len(gc.garbage))
                    finally:
                        gc.set_debug(0)
                        gc.garbage.clear()
                settle(collect)

            yield check

    monkeypatch.setattr(opt_mod, "gc_settling", checking)
    module = parse(straight_line(150, seed=7), "p.mlir")
    enabled = gc.isenabled()
    gc.enable()
    try:
        result = optimize_module(module, target=load_target("avx2"),
                                 budget=Budget(window=30, ahead=True))  # fmt: skip
    finally:
        if not enabled:
            gc.disable()
    assert result.windows > 2 and found and found == [0] * len(found)


def test_a_deep_chain_crosses_the_pipe() -> None:
    t = Term("Arg", ("f32", 0))
    for _ in range(20_000):  # deeper than pickle's recursion allows for nested terms
        t = Term("Neg", (t,))
    nodes, at = pack_terms({0: t})
    import pickle

    back = unpack_terms(*pickle.loads(pickle.dumps((nodes, at))))[0]
    depth = 0
    while back.op == "Neg":
        back, depth = back.args[0], depth + 1  # type: ignore[assignment]
    assert depth == 20_000 and back == Term("Arg", ("f32", 0))


@forks
def test_the_child_freezes_what_it_inherits() -> None:
    """The second process's collections skip the objects it was forked with (the program):
    frozen first thing, they are not walked by every full collection the extraction makes."""
    kept = [[i] for i in range(5000)]  # objects of this process, tracked by the collector

    def job(i: int) -> tuple[int, bool]:
        tracked = {id(o) for o in gc.get_objects()}  # (the frozen ones are not listed)
        return gc.get_freeze_count(), id(kept[0]) in tracked

    ahead = Ahead.start(job, 1)
    assert ahead is not None
    try:
        (frozen, walked), child = ahead.get(0, job, lambda left: False)  # the child's
    finally:
        ahead.close()
    assert child and frozen >= len(kept) and not walked
    assert len(kept) == 5000


@forks
def test_results_in_order_and_errors_raised_again() -> None:
    def job(i: int) -> int:
        if i == 2:
            raise ValueError(f"job {i} failed")
        return i * i

    ahead = Ahead.start(job, 4)
    assert ahead is not None
    try:
        assert [ahead.get(0, job)[0], ahead.get(1, job)[0]] == [0, 1]
        with pytest.raises(ValueError, match="job 2 failed"):  # raised by whichever ran it
            ahead.get(2, job)
    finally:
        ahead.close()


@forks
def test_this_process_takes_jobs_from_the_back_while_it_waits() -> None:
    parent = os.getpid()

    def job(i: int) -> tuple[int, int]:
        if os.getpid() != parent:
            time.sleep(0.3)  # a slow child: this process catches up and takes the last jobs
        return i, os.getpid()

    ahead = Ahead.start(job, 6)
    assert ahead is not None
    try:
        got = [ahead.get(i, job) for i in range(6)]
    finally:
        ahead.close()
    assert [value[0] for value, _ in got] == list(range(6))
    by_child = [i for i, (value, child) in enumerate(got) if child]
    assert all((value[1] != parent) == child for value, child in got)
    # the child takes from the front (on a loaded machine it may not get to any), this
    # process the rest from the back while the slow child works
    assert by_child == list(range(len(by_child))) and len(by_child) < 6
    assert ahead.delivered == len(by_child) and ahead.lost == ""


@forks
def test_this_process_takes_no_job_that_is_not_worth_it() -> None:
    """``worth`` says no: this process waits for the slow child, which does every job."""
    parent = os.getpid()
    asked: list[int] = []

    def job(i: int) -> int:
        if os.getpid() != parent:
            time.sleep(0.05)
        return os.getpid()

    def worth(left: int) -> bool:
        asked.append(left)
        return False

    ahead = Ahead.start(job, 4)
    assert ahead is not None
    try:
        got = [ahead.get(i, job, worth) for i in range(4)]
    finally:
        ahead.close()
    assert all(child and pid != parent for pid, child in got)
    assert asked and all(0 < left <= 4 for left in asked)


def test_a_piece_is_taken_only_when_the_second_process_would_still_be_at_work() -> None:
    """``_worth``: with paces E (extract) and D (decode) known, take one of ``left`` pieces
    while ``undecoded`` wait only if (left - 1) * E > (undecoded - 1) * D."""
    # paces: 10 pieces extracted in 25 s (E = 2.5), 10 decoded in 18 s (D = 1.8)
    pace = [25.0, 10, 18.0, 10]
    assert _worth(pace, undecoded=20, left=18)  # 42.5 > 34.2: the child would still work
    assert not _worth(pace, undecoded=20, left=14)  # 32.5 < 34.2: it ends first, let it
    assert not _worth(pace, undecoded=3, left=1)  # the last one: the child ends first
    assert _worth([0.0, 0, 0.0, 0], undecoded=25, left=24)  # no pace known yet: take one
    assert _worth([0.0, 0, 0.0, 0], undecoded=25, left=24, taken=[0])
    assert not _worth([0.0, 0, 0.0, 0], undecoded=25, left=23, taken=[1])  # only one
    assert _worth([25.0, 10, 0.0, 0], undecoded=25, left=1)


@forks
def test_a_child_that_dies_leaves_the_rest_to_this_process() -> None:
    parent = os.getpid()

    def job(i: int) -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # the child dies in its first job
        time.sleep(0.2)
        return i

    ahead = Ahead.start(job, 3)
    assert ahead is not None
    assert [ahead.get(i, job) for i in range(3)] == [(0, False), (1, False), (2, False)]
    assert ahead.lost == "killed by SIGKILL" and ahead.delivered == 0
    ahead.close()


@forks
def test_a_child_whose_loop_fails_ends_there(monkeypatch: pytest.MonkeyPatch) -> None:
    # (when even its report of a failure fails, e.g. on a closed pipe) the child must end,
    # never return into the caller's code
    import eqsat.ahead as ahead_mod

    def broken(*args: object) -> int:
        raise BrokenPipeError("the parent stopped listening")

    monkeypatch.setattr(ahead_mod, "_child", broken)
    def here(i: int) -> int:
        time.sleep(0.3)  # the child is gone by the time this process looks again
        return -i

    ahead = Ahead.start(lambda i: i, 2)
    assert ahead is not None
    assert [ahead.get(i, here) for i in range(2)] == [(0, False), (-1, False)]
    assert ahead.lost == "exit status 3"
    ahead.close()


def test_the_budget_counts_its_peers_above_what_they_share() -> None:
    me = os.getpid()
    alone = MemoryBudget(1 << 40).used()
    # this process as its own peer, sharing nothing: counted twice
    twice = MemoryBudget(1 << 40, peers={me: 0}).used()
    assert twice > 1.8 * alone
    # a peer whose whole size is shared (counted here already) adds nothing
    same = MemoryBudget(1 << 40, peers={me: rss() * 2}).used()
    assert same < 1.2 * alone
    # this process counted by a peer as far as it shares it (here: all of it)
    moved = MemoryBudget(1 << 40, peers={me: 0}, shared=rss() * 2).used()
    assert moved < 1.2 * alone
    # a process that has ended counts 0
    gone = MemoryBudget(1 << 40, peers={2**22 + 12345: 0}).used()
    assert gone < 1.2 * alone


def test_the_last_verification_skips_the_ops_verified_piece_by_piece_and_no_more() -> None:
    """``verify_module(module, verified)`` skips the first ``verified[id(block)]`` ops of a
    block (verified as their piece was built) and verifies the rest, the terminator with its
    function's types among them."""
    from frontend import MLIRError
    from frontend.verifier import verify_module

    module = parse(
        "func.func @f(%a: vector<4xf32>, %b: vector<8xf32>) -> vector<4xf32> {\n"
        "  %0 = arith.addf %a, %a : vector<4xf32>\n"
        "  %1 = arith.mulf %0, %0 : vector<4xf32>\n"
        "  return %1 : vector<4xf32>\n}",
        "p.mlir",
    )
    block = module.ops[0].regions[0].blocks[0]
    add, _, ret = block.ops
    add.operands[0] = block.args[1]  # 8 lanes added to 4
    verify_module(module, {id(block): 1})  # skipped: as if verified before it was changed
    for verified in ({id(block): 0}, None):
        with pytest.raises(MLIRError):
            verify_module(module, verified)
    add.operands[0] = block.args[0]
    verify_module(module, {id(block): 2})
    ret.operands[0] = block.args[1]  # the return no longer matches @f's type
    with pytest.raises(MLIRError):
        verify_module(module, {id(block): 2})
