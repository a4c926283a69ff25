"""Running a ``Job`` in a child process (``eqsat.bench.worker``) and surviving it.

A variant whose code faults, hangs or aborts LLVM ends its child process, not the benchmark:
the item the child had announced last gets the failure (signal name, or timeout, and the reason
when the LLVM IR shows one: allocas outside the entry block, which MLIR's lowering puts inside
a loop, grow the stack on every iteration), and the job restarts without it.
"""

from __future__ import annotations

import os
import pickle
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eqsat.bench.worker import Job, read_message

#: Seconds without a message after which a child is killed, by what it announced last.
STEP_TIMEOUT = {"compile": 300.0, "run": 30.0, "calibrate": 60.0, "sample": 30.0, "": 120.0}
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ItemResult:
    """What the children reported about one item (one variant's LLVM IR)."""

    compile_ms: list[float] = field(default_factory=list)
    outputs: list[Any] | None = None
    probe_outputs: list[list[Any]] | None = None  # on each of the job's ``probes``
    samples: list[list[float]] = field(default_factory=list)  # one list per placement
    asm: str | None = None
    failure: str | None = None  # crashed / hung / refused: why


_LABEL = re.compile(r"^[\w.$\-\"]+:")
_ALLOCA = re.compile(r"^\s*%[\w.\"-]+ = alloca ")


def allocas_outside_entry(ir: str) -> int:
    """How many ``alloca``s of the LLVM IR sit outside their function's entry block (each one
    runs, and grows the stack, every time its block does: in a loop, until it overflows)."""
    count, in_body, past_entry = 0, False, False
    for line in ir.splitlines():
        if line.startswith("define "):
            in_body, past_entry = True, False
        elif in_body and line.startswith("}"):
            in_body = False
        elif in_body and _LABEL.match(line):
            past_entry = True
        elif in_body and past_entry and _ALLOCA.match(line):
            count += 1
    return count


def describe_death(returncode: int, phase: str, ir: str | None, stderr: str) -> str:
    """The failure of a child that died in ``phase`` of an item with LLVM IR ``ir``."""
    if returncode < 0:
        try:
            what = signal.Signals(-returncode).name
        except ValueError:
            what = f"signal {-returncode}"
    else:
        what = f"exit status {returncode}"
    reason = ""
    allocas = allocas_outside_entry(ir) if ir else 0
    if returncode in (-signal.SIGSEGV, -signal.SIGBUS) and allocas and phase == "run":
        reason = (f": stack overflow, probably: {allocas} alloca(s) outside the entry block "
                  "(allocas inside a loop grow the stack every iteration)")  # fmt: skip
    else:
        line = next((ln for ln in reversed(stderr.splitlines())
                     if "LLVM ERROR" in ln or "Error" in ln), "")  # fmt: skip
        reason = f": {line.strip()}" if line else ""
    return f"crashed ({what}) while {_VERB.get(phase, phase)}{reason}"


_VERB = {"compile": "compiling", "run": "running", "calibrate": "calibrating", "sample": "timing"}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    path = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + path if path else "")
    return env


def _attempt(job: Job, results: dict[int, ItemResult], irs: dict[int, str]) -> set[int]:
    """One child process for ``job``; its reports go into ``results``. Returns the id of the
    item the child died or hung on; empty when it finished (items it refused as bad IR have
    their failure set and are simply not timed)."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "eqsat.bench.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=_env(),
        )  # fmt: skip
        messages: queue.Queue[tuple[Any, ...] | None] = queue.Queue()

        def reader() -> None:
            assert proc.stdout is not None
            while (m := read_message(proc.stdout)) is not None:
                messages.put(m)
            messages.put(None)

        threading.Thread(target=reader, daemon=True).start()
        assert proc.stdin is not None
        try:
            proc.stdin.write(pickle.dumps(job))
            proc.stdin.close()
        except BrokenPipeError:
            pass
        current, phase = None, ""
        samples: dict[int, list[float]] = {}
        while True:
            try:
                m = messages.get(timeout=STEP_TIMEOUT.get(phase, STEP_TIMEOUT[""]))
            except queue.Empty:
                proc.kill()
                proc.wait()
                if current is None:
                    raise RuntimeError("benchmark worker hung before starting") from None
                results[current].failure = (
                    f"hung: no progress for {STEP_TIMEOUT.get(phase, 0):.0f} s while "
                    f"{_VERB.get(phase, phase)} (killed)"
                )
                return {current}
            if m is None:  # the child is gone
                rc = proc.wait()
                err.seek(0)
                stderr = err.read().decode(errors="replace")
                if current is None:
                    raise RuntimeError(f"benchmark worker died before starting:\n{stderr[-2000:]}")
                results[current].failure = describe_death(rc, phase, irs.get(current), stderr)
                return {current}
            kind = m[0]
            if kind == "start":
                current, phase = m[1], m[2]
            elif kind == "compiled":
                results[m[1]].compile_ms.append(m[2])
                if m[3] is not None:
                    results[m[1]].asm = m[3]
            elif kind == "ran":
                results[m[1]].outputs = m[2]
            elif kind == "probed":
                results[m[1]].probe_outputs = m[2]
            elif kind == "sample":
                samples.setdefault(m[1], []).append(m[2])
            elif kind == "error":
                results[m[1]].failure = m[2]
            elif kind == "done":
                proc.wait()
                for i, s in samples.items():
                    results[i].samples.append(s)
                return set()


def run_isolated(job: Job, results: dict[int, ItemResult]) -> None:
    """Run ``job`` in child processes until every item has finished or failed; each item's
    reports (and failure) go into ``results`` (created for items not there yet)."""
    irs = dict(job.items)
    for i in irs:
        results.setdefault(i, ItemResult())
    items = [(i, ir) for i, ir in job.items if results[i].failure is None]
    while items:
        failed = _attempt(Job(**{**job.__dict__, "items": items}), results, irs)
        if not failed:
            return
        items = [(i, ir) for i, ir in items if i not in failed]
