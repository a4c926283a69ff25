"""Research sweeps: run specs (pure data) -> records (one JSON line each), on any executor.

A study builds a list of ``Spec``s; ``run_sweep`` runs the ones without a record yet (so a
rerun resumes where a stopped one left off) on a local process pool, a Dask cluster or a Ray
cluster, and appends one self-describing record per run to a JSON-lines file. The run
function named by a spec is a pure function of the spec: moving a sweep to a cluster does not
change experiment code.
"""

from experiments.sweeplib.executors import Executor, executor_for
from experiments.sweeplib.records import load_records, record_key
from experiments.sweeplib.runner import SweepResult, run_one, run_sweep
from experiments.sweeplib.spec import Spec

__all__ = [
    "Executor",
    "Spec",
    "SweepResult",
    "executor_for",
    "load_records",
    "record_key",
    "run_one",
    "run_sweep",
]
