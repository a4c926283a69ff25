"""Work shared with a second process: a forked child runs ``job(0)``, ``job(1)``, ... from the
front while this process consumes their results in order, and takes jobs from the back itself
whenever it would otherwise wait.

Why: a window of a long program (``eqsat.windows``) is extracted from its own e-graph, which
needs nothing of the other windows; decoding, verifying and printing need the windows in
order. ``eqsat.optimizer`` runs the extraction of the next windows in the child while it
decodes the one before, and extracts the last windows itself when it has caught up, so on two
cores the two processes share the whole run. The child is forked, so it starts with this
process's program, rules and cost model without copying them; only the results travel, pickled
(extracted terms flattened first by ``pack_terms``: a pickled chain of 4,000 nested terms
would recurse past Python's limit).

If the child ends without finishing (killed, crashed), the jobs it did not deliver run here:
the same function in this process, with this process's error reporting. An exception raised
by ``job`` in the child is raised again by ``get`` for that job. Where ``os.fork`` does not
exist, ``Ahead.start`` returns ``None``. (In a process with other threads, numpy's BLAS pool
for one, Python warns that a fork may deadlock the child: the child runs only Python and
egglog, and takes no lock those threads hold.)
"""

from __future__ import annotations

import gc
import mmap
import os
import pickle
import signal
import struct
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection, Pipe
from typing import Any

from eqsat.extract import Term

# A packed term refers to an earlier node of the list as ``[index]`` (a list: no literal or
# container of a term is one).
type Packed = list[tuple[str, tuple[Any, ...]]]


def pack_terms(roots: dict[int, Term]) -> tuple[Packed, dict[int, int]]:
    """``roots``' terms as a flat list of ``(op, args)`` nodes, children before parents, each
    shared term once; and each root's position. ``unpack_terms`` rebuilds them with the same
    sharing (the decoder keys values by term identity)."""
    index: dict[int, int] = {}
    nodes: Packed = []
    for root in roots.values():
        stack: list[tuple[Term, bool]] = [(root, False)]
        while stack:
            t, ready = stack.pop()
            if id(t) in index:
                continue
            if ready:
                index[id(t)] = len(nodes)
                nodes.append((t.op, tuple(_ref(a, index) for a in t.args)))
                continue
            stack.append((t, True))
            stack.extend((k, False) for k in t.children if id(k) not in index)
    return nodes, {b: index[id(t)] for b, t in roots.items()}


def unpack_terms(nodes: Packed, roots: dict[int, int]) -> dict[int, Term]:
    """The inverse of ``pack_terms``."""
    built: list[Term] = []
    for op, args in nodes:
        built.append(Term(op, tuple(_arg(a, built) for a in args)))
    return {b: built[i] for b, i in roots.items()}


# Module functions, not closures: a nested function that calls itself is a reference cycle
# (function -> cell -> function) holding what it closes over, here every term of a window,
# until the cyclic collector runs, which ``eqsat.optimizer`` skips for pieces that come
# through here (``frontend.ir.gc_settling``).
def _ref(a: Any, index: dict[int, int]) -> Any:
    if isinstance(a, Term):
        return [index[id(a)]]
    if isinstance(a, tuple):
        return tuple(_ref(x, index) for x in a)
    return a


def _arg(a: Any, built: list[Term]) -> Any:
    if isinstance(a, list):
        return built[a[0]]
    if isinstance(a, tuple):
        return tuple(_arg(x, built) for x in a)
    return a


class Ahead:
    """Jobs ``0 .. count-1`` shared by a forked child, which takes them from the front, and
    this process, which takes them from the back whenever it would otherwise wait for the
    child (``get``). Results come back in order either way.

    The child writes each result to a file the two share (a pipe would block it until this
    process reads, which it does not while it runs a job itself) and tells which through a
    pipe; the next job to take from each end sits in shared memory behind a lock."""

    def __init__(self, pid: int, conn: Connection, ends: mmap.mmap, lock: Any,
                 results: Any) -> None:  # fmt: skip
        self.pid = pid
        self.conn: Connection | None = conn
        self.ends, self.lock, self.results = ends, lock, results
        self.ready: dict[int, tuple[bool, Any]] = {}  # job -> (from the child, result)
        self.delivered = 0  # results the child delivered
        self.lost = ""  # how the child ended when it ended without finishing ("" if not)
        self.last = 0.0  # when (time.perf_counter) the child's last message came, 0 before

    @classmethod
    def start(cls, job: Callable[[int], Any], count: int) -> Ahead | None:
        """Fork the child (``None`` where processes cannot be forked)."""
        if not hasattr(os, "fork"):
            return None
        import multiprocessing
        import tempfile

        sys.stdout.flush()
        sys.stderr.flush()
        ends = mmap.mmap(-1, _ENDS.size)  # shared with the child: [front, back)
        _ENDS.pack_into(ends, 0, 0, count)
        lock = multiprocessing.get_context("fork").Lock()
        results = tempfile.TemporaryFile()
        recv, send = Pipe(duplex=False)
        pid = os.fork()
        if pid == 0:  # the child: never returns, whatever happens (it would run the caller on)
            code = 3
            try:
                # What the parent made (the program, ...) is no garbage here, and stays so:
                # frozen, the child's collections skip it (each full one walked the whole
                # input program, 0.3 s at 30,000 ops) and leave its pages shared.
                gc.freeze()
                recv.close()
                code = _child(job, ends, lock, results.fileno(), send)
            finally:
                os._exit(code)
        send.close()
        return cls(pid, recv, ends, lock, results)

    def _take_back(self, worth: Callable[[int], bool] | None = None) -> int | None:
        # (a child killed while it held the lock never gives it back: then take nothing, and
        # the pipe's end says the child is gone)
        if not self.lock.acquire(timeout=5):
            return None
        try:
            front, back = _ENDS.unpack_from(self.ends, 0)
            if back <= front or (worth is not None and not worth(back - front)):
                return None
            _ENDS.pack_into(self.ends, 0, front, back - 1)
            return back - 1
        finally:
            self.lock.release()

    def _receive(self, block: bool) -> bool:
        """Read the child's next message, if one is there (or ``block``); False when none."""
        assert self.conn is not None
        if not block and not self.conn.poll(0):
            return False
        try:
            kind, i, offset, size = self.conn.recv()
        except (EOFError, OSError):  # the child is gone, or going: its pipe closed
            ended = self.close(stop=False)
            front, back = _ENDS.unpack_from(self.ends, 0)  # (no one else writes them now)
            if ended != "exit status 0" or front < back:
                self.lost = ended or "ended"
            return True
        self.last = time.perf_counter()
        value = pickle.loads(os.pread(self.results.fileno(), size, offset))
        self.ready[i] = (kind == "ok", value if kind == "ok" else _Raised(value))
        self.delivered += kind == "ok"
        return True

    def get(self, i: int, here: Callable[[int], Any],
            worth: Callable[[int], bool] | None = None) -> tuple[Any, bool]:  # fmt: skip
        """Job ``i``'s result and whether the child computed it (then as its ``job``
        returned it, through pickle; else ``here(i)``'s). Call for ``i = 0, 1, ...`` in
        order. While the child has not delivered ``i``, this process runs ``here(j)`` for
        the last job left, ``j``, keeping its result for later; when none is left, or
        ``worth(jobs left)`` says taking one would not end the run sooner, it waits.
        A job the child never delivers (it ended) is run here; what the child raised is
        raised here, for the job it raised in."""
        while i not in self.ready:
            if self.conn is None:  # the child is gone: the rest is this process's
                return here(i), False
            if self._receive(block=False):
                continue
            j = self._take_back(worth)
            if j is not None:
                try:
                    self.ready[j] = (False, here(j))
                except Exception as e:  # raised in its turn, after the jobs before it
                    self.ready[j] = (False, _Raised(e))
            else:
                self._receive(block=True)
        child, value = self.ready.pop(i)
        if isinstance(value, _Raised):
            self.close()
            raise value.error
        return value, child

    def close(self, stop: bool = True) -> str:
        """Stop the child (if it still runs; ``stop=False``: wait for it to end) and reap it;
        how it ended on its own: "killed by SIGKILL", "exit status 1" ("" if stopped here or
        already closed)."""
        if self.conn is None:
            return ""
        self.conn.close()
        self.conn = None
        self.results.close()
        pid, status = os.waitpid(self.pid, os.WNOHANG if stop else 0)
        if pid == 0:  # still running: stop it
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            return ""
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            try:
                return f"killed by {signal.Signals(sig).name}"
            except ValueError:
                return f"killed by signal {sig}"
        return f"exit status {os.WEXITSTATUS(status)}"


_ENDS = struct.Struct("qq")  # the next job from the front, one past the last from the back


class _Raised:
    """What the child raised, kept until its job's turn."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _child(job: Callable[[int], Any], ends: mmap.mmap, lock: Any, fd: int,
           send: Connection) -> int:  # fmt: skip
    """The child's loop: take the next job from the front, run it, write its pickled result
    at the end of ``fd`` and say where. Returns the exit status."""
    offset = 0

    def put(kind: str, i: int, value: Any) -> None:
        nonlocal offset
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.pwrite(fd, view, offset + len(data) - len(view)):]
        send.send((kind, i, offset, len(data)))
        offset += len(data)

    i = -1
    try:
        while True:
            with lock:
                front, back = _ENDS.unpack_from(ends, 0)
                if front >= back:
                    return 0
                _ENDS.pack_into(ends, 0, front + 1, back)
            i = front
            put("ok", i, job(i))
    except BaseException as e:  # noqa: BLE001 - handed to the parent as it is
        try:
            put("error", i, e)
        except Exception:
            put("error", i, RuntimeError(f"{type(e).__name__}: {e}"))
        return 3
    finally:
        send.close()
