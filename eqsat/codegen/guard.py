"""Calling generated code so that a fault in it is reported, not the end of the interpreter.

``call_guarded`` runs a function in a forked child process: what it writes to ``sys.stdout``
reaches the parent's ``sys.stdout`` as it is written (so output printed before a crash is
kept), an exception it raises is raised again in the parent, and a child killed by a signal
(SIGSEGV from a stack overflow, SIGILL from an instruction the host lacks, ...) becomes a
``GeneratedCodeCrash``. Where ``os.fork`` does not exist the function runs in this process.
"""

from __future__ import annotations

import ctypes
import faulthandler
import os
import pickle
import signal
import sys
import tempfile
from collections.abc import Callable
from typing import Any


class GeneratedCodeCrash(Exception):
    """The generated code killed its process (the message names the signal)."""


class GeneratedCodeTimeout(GeneratedCodeCrash):
    """The generated code ran past its time limit and was stopped."""


class _PipeWriter:
    """A text stream writing straight to a file descriptor (no buffering to lose)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, text: str) -> int:
        data = text.encode(errors="surrogateescape")  # a string literal's non-UTF-8 bytes
        while data:
            data = data[os.write(self.fd, data) :]
        return len(text)

    def flush(self) -> None:
        pass


def _prctl() -> Any:
    """libc's ``prctl`` (Linux), looked up in the parent: no dynamic loading after a fork."""
    try:
        return ctypes.CDLL(None).prctl if sys.platform.startswith("linux") else None
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()
_PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """In the child: be killed when the parent dies (Linux's PR_SET_PDEATHSIG), so that a
    parent killed outright (SIGKILL, which it cannot relay) leaves no generated code spinning
    on; if the parent is already gone, exit. Elsewhere the parent's own cleanup is all."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)


def call_guarded(fn: Callable[[], Any], what: str, timeout: float | None = None) -> None:
    """Call ``fn`` (which returns nothing) in a child process; ``what`` names it in the
    error of a crash ("the avx2 code of @main"). The child is killed after ``timeout``
    seconds (``GeneratedCodeTimeout``) or when the parent is interrupted (Ctrl-C: the
    KeyboardInterrupt goes on; code in the child cannot be interrupted itself)."""
    if not hasattr(os, "fork"):
        fn()
        return
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as err:
        r, w = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 0
            try:
                _die_with(parent)
                os.close(r)
                faulthandler.disable()  # the parent reports the signal, without a dump
                sys.stdout = _PipeWriter(w)  # type: ignore[assignment]
                fn()
            except BaseException as e:  # noqa: BLE001 - handed to the parent as it is
                try:
                    err.write(pickle.dumps(e))
                except Exception:
                    err.write(pickle.dumps(RuntimeError(f"{type(e).__name__}: {e}")))
                err.flush()
                code = 3
            finally:
                sys.stderr.flush()
                os._exit(code)
        os.close(w)
        try:
            _relay(r, timeout, what)
        except BaseException:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise
        _, status = os.waitpid(pid, 0)
        sys.stdout.flush()
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = f"signal {sig}"
            raise GeneratedCodeCrash(f"{what} crashed ({name})")
        if os.WEXITSTATUS(status) == 3:
            err.seek(0)
            raise pickle.loads(err.read())
        if os.WEXITSTATUS(status) != 0:
            raise GeneratedCodeCrash(f"{what} exited with status {os.WEXITSTATUS(status)}")


def _relay(r: int, timeout: float | None, what: str) -> None:
    """Copy the child's output to sys.stdout until it closes the pipe (bytes as they are,
    where sys.stdout has a binary buffer); GeneratedCodeTimeout after timeout seconds."""
    import select
    import time

    deadline = None if timeout is None else time.monotonic() + timeout
    with os.fdopen(r, "rb") as out:
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([out], [], [], left)
            if not ready:
                raise GeneratedCodeTimeout(f"{what} did not finish within {timeout:g} s "
                                           "(--max-seconds); stopped")  # fmt: skip
            chunk = out.read1(65536)
            if not chunk:
                return
            buffer = getattr(sys.stdout, "buffer", None)
            if buffer is not None:
                sys.stdout.flush()
                buffer.write(chunk)
                buffer.flush()
            else:
                sys.stdout.write(chunk.decode(errors="replace"))
