"""eqsat.bench.numpy_baseline: every computation runs in its one-BLAS-thread child and reports
a median inside its spread; unknown names are refused."""

from __future__ import annotations

import pytest

from eqsat.bench.numpy_baseline import COMPUTATIONS, time_numpy

SIZES = {
    "gemm": {"m": 4, "n": 4, "k": 4},
    "softmax": {"rows": 2, "n": 8},
    "layernorm": {"rows": 2, "n": 8},
    "conv2d_nhwc": {"h": 4, "w": 4, "c": 2, "f": 2, "kh": 3, "kw": 3},
}


def test_every_computation_runs_and_reports_its_spread() -> None:
    assert set(SIZES) == set(COMPUTATIONS)
    for name, sizes in SIZES.items():
        t = time_numpy(name, sizes, repeats=3, sample_seconds=0.001)
        assert t.name == name and t.min_ns <= t.ns <= t.max_ns, t
        assert t.numpy_version


def test_unknown_computation_is_refused() -> None:
    with pytest.raises(ValueError, match="no numpy baseline 'fft'"):
        time_numpy("fft", {})
