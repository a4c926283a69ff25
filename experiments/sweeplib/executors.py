"""Where runs execute: in-process, a local process pool, a Dask cluster or a Ray cluster.

Every executor does one thing, ``map_unordered(fn, items)``: call ``fn`` on each item somewhere
and yield the results as they finish. The runner needs nothing else, which is why experiment
code is the same on all of them. Dask and Ray are imported only when asked for.

Addresses (``--cluster``):

- ``local`` or none: a ``ProcessPoolExecutor`` with ``workers`` processes (``serial``: in this
  process, one run at a time; for debugging and profiling);
- ``dask://HOST:PORT``: the Dask scheduler at ``tcp://HOST:PORT`` (``dask://`` followed by any
  other scheme's address, e.g. ``dask://tls://HOST:PORT``, is passed on as it is);
- ``ray://HOST:PORT``: a Ray cluster's client server (``ray start --head`` prints it; port
  10001 by default); ``ray://auto`` joins the cluster this machine is part of, ``ray://local``
  starts a private one-machine Ray for this sweep.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol


class Executor(Protocol):
    name: str

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]: ...

    def close(self) -> None: ...


class SerialExecutor:
    name = "serial"

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        for item in items:
            yield fn(item)

    def close(self) -> None:
        pass


class LocalExecutor:
    """A process pool: each run in a fresh-ish process, so one run's e-graph cannot bloat
    another's memory. ``forkserver`` rather than ``fork``: egglog's runtime holds threads."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.name = f"local process pool ({self.workers} workers)"
        ctx = multiprocessing.get_context("forkserver")
        self._pool = cf.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        futures = [self._pool.submit(fn, item) for item in items]
        try:
            for fut in cf.as_completed(futures):
                yield fut.result()
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """A ``distributed.Client`` to a running scheduler. Workers must be able to import eqsat
    and ``experiments`` (install the same checkout on every worker)."""

    def __init__(self, address: str) -> None:
        from distributed import Client

        self.address = address
        self.name = f"dask cluster at {address}"
        self._client = Client(address, set_as_default=False)

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        from distributed import as_completed

        futures = [self._client.submit(fn, item, pure=False) for item in items]
        if not futures:
            return
        try:
            for fut in as_completed(futures, loop=self._client.loop):
                yield fut.result()
        finally:
            self._client.cancel(futures)

    def close(self) -> None:
        self._client.close()


class RayExecutor:
    """Ray tasks on a cluster (``ray.init(address)``); ``address=None`` starts a local Ray."""

    def __init__(self, address: str | None, workers: int | None = None) -> None:
        import ray

        self._ray = ray
        self.name = f"ray cluster at {address}" if address else "local ray"
        kwargs: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False}
        if address is None:  # "local" starts a new Ray even where another one runs
            address = "local"
            kwargs.update(num_cpus=workers or 1, include_dashboard=False)
        self._owned = not ray.is_initialized()
        ray.init(address=address, **kwargs)

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        ray = self._ray
        remote = ray.remote(fn)
        pending = [remote.remote(item) for item in items]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            for ref in pending:
                ray.cancel(ref)

    def close(self) -> None:
        if self._owned:
            self._ray.shutdown()


def executor_for(cluster: str | None = None, workers: int | None = None) -> Executor:
    """The executor an address names (see the module docstring)."""
    if cluster in (None, "", "local"):
        return LocalExecutor(workers)
    if cluster == "serial":
        return SerialExecutor()
    scheme, sep, rest = cluster.partition("://")
    if not sep or not rest:
        raise ValueError(
            f"--cluster expects local, serial, dask://HOST:PORT or ray://HOST:PORT, got {cluster!r}"
        )
    if scheme == "dask":
        return DaskExecutor(rest if "://" in rest else f"tcp://{rest}")
    if scheme == "ray":
        return RayExecutor(
            None if rest == "local" else ("auto" if rest == "auto" else cluster), workers
        )
    raise ValueError(f"unknown cluster scheme {scheme!r} in {cluster!r} (dask:// or ray://)")
