"""The memory budget: every phase of ``eqsat opt`` reads the process's resident size between
pieces of its work and stops cleanly when the budget is spent, instead of growing until the
kernel's OOM killer ends the process (and whatever else runs on the machine).

Why resident size read from ``/proc/self/statm`` (~5 us): it is what the OOM killer weighs, it
counts egglog's Rust heap as well as Python's, and it is cheap enough to read every few hundred
ops. Where one piece of work cannot be interrupted (one egglog command), its input is bounded
instead (``eqsat.optimizer`` feeds the program to egglog in pieces and checks between them).

``hard_limit`` is the safety net behind the checks: an address-space limit (``RLIMIT_AS``) a
little above the budget, so that an allocation that slips between two checks fails with a
``MemoryError`` (reported like the checks) rather than an OOM kill. It is process-wide, so only
the command line sets it, once, at start-up.
"""

from __future__ import annotations

import os
import re
import resource
from collections.abc import Callable
from dataclasses import dataclass, field

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
DEFAULT_CAP = 8 * GiB  # the default budget: min(8 GiB, a third of physical memory)
# Address space a process holds beyond its resident size (shared libraries, allocator arenas,
# thread stacks): measured 190 MB on an 800 MB ``eqsat opt`` run; the hard limit adds this much.
ADDRESS_SLACK = 768 * MiB
_UNITS = {"": 1, "B": 1, "K": KiB, "M": MiB, "G": GiB, "T": 1 << 40}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*$", re.IGNORECASE)
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def physical_memory() -> int:
    """Bytes of physical memory (0 when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def default_limit() -> int:
    """A safe share of the machine: a third of physical memory, at most 8 GiB."""
    phys = physical_memory()
    return min(DEFAULT_CAP, phys // 3) if phys else DEFAULT_CAP


def parse_size(text: str) -> int:
    """``4G``, ``500M``, ``1.5GiB``, ``64k``, ``123456`` (bytes) -> bytes; ``ValueError``
    for anything else or a size below 1 MiB (too small to run Python at all)."""
    m = _SIZE.match(text)
    if m is None:
        raise ValueError(f"expected a size such as 4G, 500M or 1.5GiB, got {text!r}")
    n = int(float(m[1]) * _UNITS[m[2].upper()])
    if n < MiB:
        raise ValueError(f"must be at least 1M, got {text!r}")
    return n


def format_size(n: int) -> str:
    """``4 GiB``, ``500 MiB``, ``1.5 GiB``: how budgets are named in messages."""
    for unit, size in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} B"


def rss() -> int:
    """The process's resident size in bytes, now (not the peak)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:  # not Linux: the peak is the best we can read
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KiB


def rss_of(pid: int) -> int:
    """Another process's resident size in bytes (0 once it has ended)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def peak_rss() -> int:
    """The process's peak resident size in bytes so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KiB


class MemoryExceeded(Exception):
    """The budget was spent: which phase, and where in the program it was working."""

    def __init__(self, limit: int, phase: str, where: str | None = None) -> None:
        super().__init__(limit, phase, where)
        self.limit, self.phase, self.where = limit, phase, where

    def __str__(self) -> str:
        at = f" {self.where}" if self.where else ""
        return f"memory budget {format_size(self.limit)} exceeded during {self.phase}{at}"


@dataclass
class MemoryBudget:
    """A limit on resident size. ``every``: how many work units (ops, e-classes) pass between
    two reads of the resident size in the loops that call ``tick``."""

    limit: int
    every: int = 512
    checks: int = 0  # resident-size reads so far (tests count them)
    # Processes working for the same command (``eqsat.ahead``): pid -> bytes of its resident
    # size not to count (counted here already); ``shared``: bytes of this process's own
    # resident size a peer counts. A forked child starts with its parent's resident pages in
    # its own resident size, shared until either writes them: the parent counts what the
    # child holds above its size right after the fork, the child the same of itself and its
    # parent whole (pages the parent frees, or either copies on a write, after the fork are
    # missed or counted twice: a few percent on issue 20's programs).
    peers: dict[int, int] = field(default_factory=dict)
    shared: int = 0

    def used(self) -> int:
        self.checks += 1
        own = rss()
        if not self.peers:
            return own
        return max(0, own - self.shared) + sum(
            max(0, rss_of(p) - base) for p, base in self.peers.items()
        )

    def exceeded(self, share: float = 1.0) -> bool:
        """Whether resident size is above ``share`` of the limit."""
        return self.used() > self.limit * share

    def check(self, phase: str, where: str | Callable[[], str] | None = None) -> None:
        """Raise ``MemoryExceeded`` when resident size is above the limit. ``where`` (or what
        it returns, only computed on failure) locates the work in the program."""
        if self.used() > self.limit:
            raise MemoryExceeded(self.limit, phase, where() if callable(where) else where)

    def tick(self, count: int, phase: str, where: str | Callable[[], str] | None = None) -> None:
        """``check`` once every ``every`` calls (``count`` is the caller's running count)."""
        if count % self.every == 0:
            self.check(phase, where)


def hard_limit(limit: int) -> None:
    """Cap the address space at ``limit`` plus what the process already holds beyond its
    resident size: past it allocations fail (``MemoryError``) instead of the OOM killer
    stepping in. Never raises an existing, lower cap."""
    try:
        with open("/proc/self/statm", "rb") as f:
            size, resident = (int(x) * _PAGE for x in f.read().split()[:2])
    except OSError:
        size = resident = 0
    want = limit + max(0, size - resident) + ADDRESS_SLACK
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY and soft <= want:
        return
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    resource.setrlimit(resource.RLIMIT_AS, (want, hard))


class PeakSampler:
    """The largest resident size seen while the ``with`` body runs, sampled every
    ``interval`` seconds by a thread (``ru_maxrss`` is the process's peak since it started,
    useless for one of many runs in a process). ``peak``: bytes; ``start``: before the body."""

    def __init__(self, interval: float = 0.02) -> None:
        self.interval = interval
        self.start = self.peak = 0
        self._stop: object = None

    def __enter__(self) -> PeakSampler:
        import threading

        self.start = self.peak = rss()
        stop = self._stop = threading.Event()

        def sample() -> None:
            while not stop.wait(self.interval):
                self.peak = max(self.peak, rss())

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()  # type: ignore[attr-defined]
        self._thread.join()
        self.peak = max(self.peak, rss())
