"""Verifier parity with real MLIR on a sample of the generated edge forms (all of them:
``python -m experiments.verifier_parity``). Skips where mlir-opt is not installed."""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mlir_tools import MLIR19, MLIR22, find_tool

from experiments.lib.verifier_forms import Form, generate
from experiments import verifier_parity as vp
from experiments.verifier_parity import compare

EVERY = 20  # a few hundred forms, spread over every op and every kind of edge


@functools.cache
def _forms() -> tuple[Form, ...]:
    return tuple(generate())


def test_generator_covers_the_edges() -> None:
    whats = [f.what for f in _forms()]
    for edge in ("0-D", "scalable", "=poison", " dynamic", "elem i1", "elem index", "elem f16",
                 "elem bf16", "elem ui8", "drop ", "add ", "empty", "dim0=1", "dim0+1",
                 'dense<"0x', "dense<true>", "dense<[[", "dense<-1>"):
        assert any(edge in w for w in whats), edge
    ops = {f.op for f in _forms()}
    assert len(ops) > 80 and "vector.flat_transpose" in ops and "memref.subview" in ops
    assert len(_forms()) > 5000
    names = [f.name for f in _forms()]
    assert len(set(names)) == len(names)


def test_known_disagreements_record_their_direction() -> None:
    """Each allowed disagreement says which side is stricter; the same form disagreeing the
    other way round is not allowed by it (eqsat turning looser where it was stricter is a bug)."""
    ways = {vp.STRICTER, vp.LOOSER, vp.PRINTED}
    for key, (way, why) in vp.KNOWN.items():
        assert way in ways and why, key
    for (op, what), (way, _) in vp.KNOWN.items():
        form = next((f for f in _forms() if f.op == op and re.match(what, f.what)), None)
        if form is None:
            continue
        assert vp.known(form, way) is not None
        for other in ways - {way}:
            assert vp.known(form, other) is None, (op, what, other)


def test_sample_agrees_with_mlir() -> None:
    if not MLIR22 or find_tool("mlir-translate", 22) is None:
        pytest.skip("mlir-opt-22 / mlir-translate-22 not installed (llvm-dialect forms are "
                    "accepted end to end)")
    sample = [f for f in _forms()[::EVERY] if f.version == 22 or MLIR19]
    assert len(sample) > 250
    rep = compare(sample)
    assert rep.both_accept > 50 and rep.both_reject > 100, rep.line()
    # Unknown includes a listed form disagreeing in a direction its entry does not record.
    bad = [f"{d.form.op} / {d.form.what}: {d.detail} ({d.direction})" for d in rep.unknown]
    assert not bad, rep.line() + "\n" + "\n".join(bad)
    for d in rep.disagreements:
        assert d.direction in (vp.STRICTER, vp.LOOSER, vp.PRINTED)
