"""Work done ahead in a second process: a forked child computes ``job(0)``, ``job(1)``, ...
in order and hands each result back through a pipe while this process consumes the ones
before.

Why: a window of a long program (``eqsat.windows``) is extracted from its own e-graph, which
needs nothing of the other windows; decoding, verifying and printing need the windows in
order. ``eqsat.optimizer`` runs the extraction of window k+1 in the child while it decodes
window k, so on two cores the two halves overlap. The child is forked, so it starts with this
process's program, rules and cost model without copying them; only the results travel, pickled
(extracted terms flattened first by ``pack_terms``: a pickled chain of 4,000 nested terms
would recurse past Python's limit).

If the child ends without a result (killed, crashed), ``get`` returns ``None`` and the caller
computes the rest itself: the same function in this process, with this process's error
reporting. An exception raised by ``job`` in the child is raised again by ``get``. Where
``os.fork`` does not exist, ``Ahead.start`` returns ``None``.
"""

from __future__ import annotations

import os
import signal
import sys
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

    def ref(a: Any) -> Any:
        if isinstance(a, Term):
            return [index[id(a)]]
        if isinstance(a, tuple):
            return tuple(ref(x) for x in a)
        return a

    for root in roots.values():
        stack: list[tuple[Term, bool]] = [(root, False)]
        while stack:
            t, ready = stack.pop()
            if id(t) in index:
                continue
            if ready:
                index[id(t)] = len(nodes)
                nodes.append((t.op, tuple(ref(a) for a in t.args)))
                continue
            stack.append((t, True))
            stack.extend((k, False) for k in t.children if id(k) not in index)
    return nodes, {b: index[id(t)] for b, t in roots.items()}


def unpack_terms(nodes: Packed, roots: dict[int, int]) -> dict[int, Term]:
    """The inverse of ``pack_terms``."""
    built: list[Term] = []

    def arg(a: Any) -> Any:
        if isinstance(a, list):
            return built[a[0]]
        if isinstance(a, tuple):
            return tuple(arg(x) for x in a)
        return a

    for op, args in nodes:
        built.append(Term(op, tuple(arg(a) for a in args)))
    return {b: built[i] for b, i in roots.items()}


class Ahead:
    """A forked child computing ``job(i)`` for ``i`` in ``range(count)``; ``get(i)`` in order."""

    def __init__(self, pid: int, conn: Connection) -> None:
        self.pid = pid
        self.conn: Connection | None = conn
        self.delivered = 0  # results received
        self.lost = ""  # how the child ended when it ended without its results ("" if not)

    @classmethod
    def start(cls, job: Callable[[int], Any], count: int) -> Ahead | None:
        """Fork the child (``None`` where processes cannot be forked)."""
        if not hasattr(os, "fork"):
            return None
        sys.stdout.flush()
        sys.stderr.flush()
        recv, send = Pipe(duplex=False)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            recv.close()
            code = 0
            try:
                for i in range(count):
                    send.send(("ok", job(i)))
            except BaseException as e:  # noqa: BLE001 - handed to the parent as it is
                try:
                    send.send(("error", e))
                except Exception:
                    send.send(("error", RuntimeError(f"{type(e).__name__}: {e}")))
                code = 3
            finally:
                send.close()
                os._exit(code)
        send.close()
        return cls(pid, recv)

    def get(self) -> Any:
        """The child's next result (``None`` if it ended without one); raises what it raised."""
        if self.conn is None:
            return None
        try:
            kind, value = self.conn.recv()
        except (EOFError, OSError):  # the child is gone, or going: its pipe closed
            self.lost = self.close(stop=False) or "ended"
            return None
        if kind == "error":
            self.close()
            raise value
        self.delivered += 1
        return value

    def close(self, stop: bool = True) -> str:
        """Stop the child (if it still runs; ``stop=False``: wait for it to end) and reap it;
        how it ended on its own: "killed by SIGKILL", "exit status 1" ("" if stopped here or
        already closed)."""
        if self.conn is None:
            return ""
        self.conn.close()
        self.conn = None
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
