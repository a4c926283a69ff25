"""Run a sweep: the specs without a record, on an executor, one record line per finished run."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from experiments.sweeplib.executors import Executor, executor_for
from experiments.sweeplib.provenance import describe
from experiments.sweeplib.records import FORMAT, append_record, load_records
from experiments.sweeplib.spec import Spec


def run_one(spec: Spec) -> dict[str, Any]:
    """Run one spec and wrap its result in a self-describing record. Never raises for the
    run's own failure: the record says ``status: error`` with the traceback, so one bad
    configuration does not stop a sweep of thousands."""
    started = datetime.now(UTC)
    t0 = time.perf_counter()
    result: Any = None
    error = None
    try:
        result = dict(spec.function()(spec))
    except Exception:  # noqa: BLE001 - reported in the record, retried on the next run
        error = traceback.format_exc(limit=8)
    seconds = time.perf_counter() - t0
    return {
        "format": FORMAT,
        "key": spec.key,
        "study": spec.study,
        "status": "ok" if error is None else "error",
        "spec": spec.to_dict(),
        "result": result,
        "error": error,
        "started": started.isoformat(timespec="milliseconds"),
        "finished": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "seconds": seconds,
        **describe(spec),
    }


@dataclass
class SweepResult:
    """What a sweep did: how many runs were already recorded, ran now, failed; all records."""

    skipped: int
    ran: int
    failed: int
    records: list[dict[str, Any]]

    def ok(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r["status"] == "ok"]


def run_sweep(
    specs: Sequence[Spec],
    out: str | Path,
    executor: Executor | None = None,
    *,
    progress: bool = True,
    desc: str | None = None,
) -> SweepResult:
    """Run every spec of ``specs`` that has no ``ok`` record in ``out`` yet; append a record
    for each as it finishes. Returns the records of all ``specs`` (old and new), in spec order.
    """
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    keys = [s.key for s in specs]
    if len(set(keys)) != len(keys):
        raise ValueError("a sweep lists the same spec twice")
    done = load_records(out)
    todo = [s for s in specs if s.key not in done]
    _end_with_newline(out)
    own = executor is None and bool(todo)
    if own:
        executor = executor_for(None, min(len(todo), _default_workers()))
    failed = 0
    try:
        with out.open("a", encoding="utf-8") as fh, _bar(len(todo), progress, desc) as bar:
            for record in executor.map_unordered(run_one, todo) if todo else ():
                append_record(fh, record)
                done[record["key"]] = record
                if record["status"] != "ok":
                    failed += 1
                    print(f"run {record['key']} failed:\n{record['error']}", file=sys.stderr)
                bar.update(1)
    finally:
        if own and executor is not None:
            executor.close()
    by_key = load_records(out, ok_only=False) | done
    return SweepResult(len(specs) - len(todo), len(todo), failed, [by_key[k] for k in keys])


def _default_workers() -> int:
    import os

    return os.cpu_count() or 1


def _end_with_newline(path: Path) -> None:
    """Close a torn last line (a killed sweep) so the next record starts a line of its own."""
    if path.exists() and path.stat().st_size:
        with path.open("rb+") as fh:
            fh.seek(-1, 2)
            if fh.read(1) != b"\n":
                fh.write(b"\n")


def _bar(total: int, enabled: bool, desc: str | None) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, disable=not enabled or total == 0, desc=desc, unit="run")


def add_plan_arguments(ap: argparse.ArgumentParser, quick: str, smoke: str) -> None:
    """A study's size: full by default, ``--quick`` (under 2 minutes) or ``--smoke`` (tests)."""
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help=quick)
    mode.add_argument("--smoke", action="store_true", help=smoke)


def plan_of(args: argparse.Namespace) -> str:
    """``smoke``, ``quick`` or ``full``: what ``add_plan_arguments`` parsed."""
    return "smoke" if args.smoke else "quick" if args.quick else "full"


def add_sweep_arguments(ap: argparse.ArgumentParser) -> None:
    """The options every study script shares."""
    ap.add_argument(
        "--cluster",
        default=None,
        metavar="ADDR",
        help="where runs execute: local (process pool, the default), serial, "
        "dask://HOST:PORT or ray://HOST:PORT",
    )
    ap.add_argument("--workers", type=int, default=None, help="local pool size (default: CPUs)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument(
        "--fresh", action="store_true", help="discard earlier records instead of resuming"
    )


def executor_from_args(args: argparse.Namespace) -> Executor:
    """The executor ``--cluster`` names; bad usage exits 2, an unreachable cluster 1."""
    try:
        return executor_for(args.cluster, args.workers)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    except (OSError, ConnectionError, TimeoutError) as e:
        print(f"error: cannot reach the cluster at {args.cluster}: {e}", file=sys.stderr)
        raise SystemExit(1) from None
