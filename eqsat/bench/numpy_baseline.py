"""numpy on the same data as a kernel: the reference a user would otherwise call.

numpy runs in a child process started with ``OPENBLAS_NUM_THREADS=1`` (OpenBLAS reads it once,
when numpy loads; the rest of the environment is inherited, so an ``OPENBLAS_CORETYPE`` set on
the host stays in force and the report names the core OpenBLAS picked). It is timed like the
harness times a kernel: thread CPU time of a loop of calls, median of ``repeats`` samples.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

# name -> (setup, statement) run in the child with `np`, `rng`, `n` (sizes dict) defined;
# the setup makes inputs, the statement is one call of the computation (its output
# preallocated where numpy allows it, as the kernels write theirs in place).
COMPUTATIONS: dict[str, tuple[str, str]] = {
    "gemm": (
        "a = rng.standard_normal((n['m'], n['k']), dtype=np.float32)\n"
        "b = rng.standard_normal((n['k'], n['n']), dtype=np.float32)\n"
        "c = rng.standard_normal((n['m'], n['n']), dtype=np.float32)\n"
        "out = np.empty_like(c)",
        "np.matmul(a, b, out=out); out += c",
    ),
    "softmax": (
        "x = rng.standard_normal((n['rows'], n['n']), dtype=np.float32)\n"
        "y = np.empty_like(x)",
        "np.subtract(x, x.max(axis=1, keepdims=True), out=y); np.exp(y, out=y); "
        "y /= y.sum(axis=1, keepdims=True)",
    ),
    "layernorm": (
        "x = rng.standard_normal((n['rows'], n['n']), dtype=np.float32)\n"
        "g = rng.standard_normal(n['n'], dtype=np.float32)\n"
        "b = rng.standard_normal(n['n'], dtype=np.float32)\n"
        "eps = np.float32(1e-5)",
        "d = x - x.mean(axis=1, keepdims=True, dtype=np.float32); "
        "y = d / np.sqrt((d * d).mean(axis=1, keepdims=True, dtype=np.float32) + eps) * g + b",
    ),
    "conv2d_nhwc": (
        "i = rng.standard_normal((n['h'], n['w'], n['c']), dtype=np.float32)\n"
        "k = rng.standard_normal((n['kh'], n['kw'], n['c'], n['f']), dtype=np.float32)\n"
        "o = rng.standard_normal((n['h'] - n['kh'] + 1, n['w'] - n['kw'] + 1, n['f']), "
        "dtype=np.float32)\n"
        "from numpy.lib.stride_tricks import sliding_window_view as windows",
        "w = windows(i, (n['kh'], n['kw']), axis=(0, 1)); "
        "r = o + np.tensordot(w, k, axes=([2, 3, 4], [2, 0, 1]))",
    ),
}

_CHILD = r"""
import json, sys, time
import numpy as np
spec = json.loads(sys.argv[1])
n = spec["sizes"]
rng = np.random.default_rng(0)
exec(spec["setup"])
stmt = compile(spec["stmt"], "<numpy>", "exec")
def sample(calls):
    t0 = time.thread_time_ns()
    for _ in range(calls):
        exec(stmt)
    return (time.thread_time_ns() - t0) / calls
calls = 1
while sample(calls) * calls < spec["sample_ns"]:
    calls *= 2
times = sorted(sample(calls) for _ in range(spec["repeats"]))
core = None
try:
    from numpy import show_config  # noqa: F401
    cfg = np.show_config(mode="dicts")
    core = cfg.get("Build Dependencies", {}).get("blas", {}).get("openblas configuration")
except Exception:
    pass
print(json.dumps({"ns": times[len(times) // 2], "min": times[0], "max": times[-1],
                  "calls": calls, "numpy": np.__version__, "openblas": core}))
"""


@dataclass(frozen=True)
class NumpyTime:
    """Median ns per call (and the spread) of one numpy computation, one BLAS thread."""

    name: str
    ns: float
    min_ns: float
    max_ns: float
    numpy_version: str
    openblas: str | None
    core: str | None  # the OpenBLAS kernel family it reported (OPENBLAS_VERBOSE=2)


def time_numpy(
    name: str, sizes: dict[str, int], repeats: int = 7, sample_seconds: float = 0.05
) -> NumpyTime:
    """Time ``COMPUTATIONS[name]`` on inputs of ``sizes`` in a one-BLAS-thread child."""
    if name not in COMPUTATIONS:
        raise ValueError(f"no numpy baseline {name!r} (known: {', '.join(COMPUTATIONS)})")
    setup, stmt = COMPUTATIONS[name]
    spec = {
        "sizes": sizes,
        "setup": setup,
        "stmt": stmt,
        "repeats": repeats,
        "sample_ns": sample_seconds * 1e9,
    }
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OPENBLAS_VERBOSE="2")
    r = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(spec)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if r.returncode != 0:
        raise RuntimeError(f"numpy baseline {name} failed: {r.stderr.strip()[-500:]}")
    out = json.loads(r.stdout.strip().splitlines()[-1])
    core = next(
        (line.split(":", 1)[1].strip() for line in r.stdout.splitlines() + r.stderr.splitlines()
         if line.startswith("Core:")),
        None,
    )
    return NumpyTime(
        name, out["ns"], out["min"], out["max"], out["numpy"], out["openblas"], core
    )


__all__ = ["COMPUTATIONS", "NumpyTime", "time_numpy"]
