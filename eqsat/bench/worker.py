"""The child process that compiles, runs and times variants: ``python -m eqsat.bench.worker``.

Generated code that faults (MLIR's allocas inside a loop overflow the stack), hangs or aborts
LLVM takes this process down, never the benchmark (``eqsat.bench.isolate`` reads what it
reported before dying). It reads one pickled ``Job`` from stdin, sets the job's LLVM options
once (they are process-wide in llvmlite: one process, one set of options), and writes framed
pickled messages to its original stdout as it goes (anything else written to fd 1 goes to
stderr):

    ("start", i, phase)           about to compile / run / calibrate / sample item i
    ("compiled", i, ms, asm)      asm is None unless the job asks for it
    ("ran", i, outputs)           the outputs of one call
    ("probed", i, [outputs])      the outputs of one call on each of the job's ``probes``
    ("sample", i, ns)             one timing sample, ns per call
    ("error", i, message)         a BenchError of item i (bad IR): the item is dropped
    ("done",)
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import time
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from eqsat.codegen.llvm_options import LlvmOptions
from eqsat.targets import Target


@dataclass
class Job:
    """What one child process does: compile every item under ``options`` (each into a fresh
    execution engine), run each once (``run_once``), then time them, samples interleaved."""

    target: Target
    options: LlvmOptions
    sig: Any  # eqsat.bench.harness.Signature
    inputs: list[Any]
    items: list[tuple[int, str]]  # (item id, LLVM IR text)
    run_once: bool = True
    repeats: int = 0
    sample_seconds: float = 0.02
    want_asm: bool = False
    skip: set[int] = field(default_factory=set)
    # more input sets run once after ``inputs`` (``eqsat.bench.harness.edge_inputs``)
    probes: list[list[Any]] = field(default_factory=list)


def write_message(out: BinaryIO, msg: tuple[Any, ...]) -> None:
    data = pickle.dumps(msg)
    out.write(struct.pack("<Q", len(data)) + data)
    out.flush()


def read_message(inp: BinaryIO) -> tuple[Any, ...] | None:
    head = inp.read(8)
    if len(head) < 8:
        return None
    (n,) = struct.unpack("<Q", head)
    data = inp.read(n)
    return pickle.loads(data) if len(data) == n else None


def run_job(job: Job, out: BinaryIO) -> None:
    from eqsat.bench.harness import BenchError, Compiled
    from eqsat.codegen.llvm_options import apply

    apply(job.options)
    compiled = {}
    for i, ir in job.items:
        write_message(out, ("start", i, "compile"))
        t0 = time.perf_counter()
        try:
            c = Compiled(ir, job.sig, job.target, job.options)
        except BenchError as e:
            write_message(out, ("error", i, str(e)))
            continue
        ms = (time.perf_counter() - t0) * 1000
        write_message(out, ("compiled", i, ms, c.asm() if job.want_asm else None))
        compiled[i] = c
        if job.run_once:
            write_message(out, ("start", i, "run"))
            write_message(out, ("ran", i, c.run(job.inputs)))
            if job.probes:
                write_message(out, ("probed", i, [c.run(p) for p in job.probes]))
    if job.repeats:
        timers = {}
        for i, c in compiled.items():
            write_message(out, ("start", i, "calibrate"))
            timers[i] = c.timer(job.inputs)
            timers[i].calibrate(job.sample_seconds)
        for _ in range(job.repeats):
            for i, t in timers.items():
                write_message(out, ("start", i, "sample"))
                write_message(out, ("sample", i, t.sample()))
    write_message(out, ("done",))


def main() -> None:
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # stray prints of LLVM or Python must not corrupt the message stream
    job = pickle.load(sys.stdin.buffer)
    run_job(job, out)


if __name__ == "__main__":
    main()
