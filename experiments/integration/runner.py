"""Run one integration test file through every stage and classify it.

Stages: our interpreter, each compiled target (through eqsat, ``worker.py``), and MLIR 22's own
pipeline, the file's RUN line with lit's substitutions filled in (``mlir_stage``). Every output
is checked against the file's CHECK lines (``filecheck.py``) and compared with the
interpreter's. Each stage runs in a process group of its own under a timeout; nothing a test
file contains can crash the driver.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from experiments.integration import filecheck
from experiments.integration.runlines import RunPlan, plan
from experiments.integration.worker import STATUS_OF

ROOT = Path(__file__).resolve().parents[2]
MLIR_VERSION = 22
REASON_CHARS = 200


@dataclass
class Stage:
    """How one stage ended: ``pass`` (ran, output passes CHECK), ``fail`` (ran, output does
    not), ``error`` (did not run to the end), ``timeout``, ``not-run``; ``same_as_interp``:
    output byte-identical to the interpreter's (None where either did not run)."""

    status: str = "not-run"
    reason: str = ""
    seconds: float = 0.0
    same_as_interp: bool | None = None
    output: str = field(default="", repr=False)


@dataclass
class Record:
    file: str
    status: str = ""  # skipped | unsupported | interp-fail | pass
    reason: str = ""
    entry: str = ""
    prefixes: tuple[str, ...] = ()
    interp: Stage = field(default_factory=Stage)
    targets: dict[str, Stage] = field(default_factory=dict)
    mlir: Stage = field(default_factory=Stage)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        d = asdict(self)
        for st in [d["interp"], d["mlir"], *d["targets"].values()]:
            st.pop("output", None)
        return d


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 3] + "..."


def run_process(cmd: list[str], timeout: float, cwd: Path | None = None,
                env: dict[str, str] | None = None) -> tuple[int | None, str, str, float]:
    """(exit status or None on timeout, stdout, stderr, seconds); the whole process group is
    killed on timeout."""
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
            cwd=cwd, env=env, start_new_session=True,
        )
    except OSError as e:
        return 127, "", str(e), 0.0
    try:
        out, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        code = None
    return code, _text(out), _text(err), time.perf_counter() - t0


def _text(b: bytes) -> str:
    return b.decode("utf-8", errors="replace")


def _last_line(err: str) -> str:
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def _first_error(err: str) -> str:
    """The line of a pipeline's stderr that says why: mlir-opt's first located error or
    unknown option (the runner's "entry point not found" only follows from it), else the first
    ``error:`` line, else the last line."""
    lines = [ln.strip() for ln in err.splitlines() if ln.strip()]
    for ln in lines:
        if re.search(r":\d+:\d+: error:|Unknown command line argument", ln):
            return ln
    for ln in lines:
        if "error:" in ln.lower():
            return ln
    return _last_line(err)


_ADDRESS = re.compile(r"base@ = 0x[0-9a-fA-F]+")


def same_output(a: str, b: str) -> bool:
    """Byte-identical outputs, except the buffer addresses ``printMemref*`` prints."""
    return _ADDRESS.sub("base@ = <addr>", a) == _ADDRESS.sub("base@ = <addr>", b)


def _ours(
    stage: str, path: Path, entry: str, timeout: float, layout: str = "row-major"
) -> tuple[Stage, str]:
    """Run one of our stages; returns the stage and its worker status name."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "experiments.integration.worker", stage, str(path), entry,
           layout]
    code, out, err, secs = run_process(cmd, timeout, cwd=ROOT, env=env)
    if code is None:
        return Stage("timeout", f"no result after {timeout:.0f} s", secs, None, out), "timeout"
    kind = STATUS_OF.get(code, "crash")
    if kind == "ok":
        return Stage("ran", "", secs, None, out), kind
    why = _last_line(err) if kind != "crash" else f"crashed (exit status {code})"
    return Stage("error", _short(why), secs, None, out), kind


def _check(stage: Stage, text: str, p: RunPlan) -> None:
    """Turn a stage that ran into pass/fail against the file's CHECK lines."""
    if stage.status != "ran":
        return
    try:
        r = filecheck.check(stage.output, text, p.prefixes, p.full_lines)
    except filecheck.CheckError as e:  # e.g. a variable used before any definition
        stage.status, stage.reason = "fail", _short(f"FileCheck subset: {e}")
        return
    stage.status = "pass" if r.ok else "fail"
    stage.reason = _short("; ".join(x for x in (r.reason, stage.reason) if x))


def mlir_substitutions() -> dict[str, str] | None:
    """lit's substitutions for MLIR 22's tools and runtime libraries (None: not installed)."""
    from eqsat.bench.mlir_baseline import find_tool

    tools = {n: find_tool(n, MLIR_VERSION) for n in ("mlir-opt", "mlir-runner", "mlir-translate")}
    if tools["mlir-opt"] is None or tools["mlir-runner"] is None:
        return None
    libdir = Path(f"/usr/lib/llvm-{MLIR_VERSION}/lib")
    env = os.environ.get(f"EQSAT_MLIR{MLIR_VERSION}_RUNTIME_DIR")
    if env:
        libdir = Path(env)
    subs = {"%mlir_lib_dir": str(libdir), "%shlibext": ".so"}
    for name in ("mlir_c_runner_utils", "mlir_runner_utils", "mlir_float16_utils"):
        cands = sorted(libdir.glob(f"lib{name}.so*"))
        if cands:
            subs[f"%{name}"] = str(cands[0])
    subs.update({k: v for k, v in tools.items() if v})
    subs["mlir-cpu-runner"] = tools["mlir-runner"]  # type: ignore[assignment]
    return subs


def _substitute(cmd: list[str], subs: dict[str, str], path: Path) -> list[str] | None:
    """One RUN command with lit's substitutions filled in (None: one we do not know)."""
    args = []
    for a in cmd:
        if a in subs and not a.startswith("%"):
            args.append(subs[a])
            continue
        for key in sorted((k for k in subs if k.startswith("%")), key=len, reverse=True):
            a = a.replace(key, subs[key])
        args.append(a.replace("%s", str(path)))
    return None if "%" in " ".join(args) else args


def _fallback_pipeline(path: Path, p: RunPlan, subs: dict[str, str]) -> list[list[str]]:
    """MLIR's reference lowering (``-test-lower-to-llvm``, after the module's transform script
    if it has one) and the runner with the plan's entry: for files whose own RUN line was
    written for another MLIR release."""
    opt = [subs["mlir-opt"], str(path)]
    try:
        if "transform.named_sequence" in path.read_text(encoding="utf-8"):
            opt += ["--transform-interpreter", "--test-transform-dialect-erase-schedule"]
    except (OSError, UnicodeDecodeError):
        pass
    libs = [subs[k] for k in ("%mlir_c_runner_utils", "%mlir_runner_utils", "%mlir_float16_utils")
            if k in subs]
    runner = [subs["mlir-runner"], "-e", p.entry, "-entry-point-result=void",
              f"-shared-libs={','.join(libs)}"]
    return [opt + ["--expand-realloc", "-test-lower-to-llvm"], runner]


def _pipe(stages: list[list[str]], timeout: float) -> Stage:
    code, out, err, secs = run_process(
        ["bash", "-o", "pipefail", "-c", " | ".join(shlex.join(s) for s in stages)], timeout
    )
    if code is None:
        return Stage("timeout", f"no result after {timeout:.0f} s", secs, None, out)
    if code != 0:
        return Stage("error", _short(f"exit {code}: {_first_error(err)}"), secs, None, out)
    return Stage("ran", "", secs, None, out)


def mlir_stage(path: Path, p: RunPlan, timeout: float) -> Stage:
    """The file's own RUN pipeline (FileCheck left out) with MLIR 22's tools; if that fails,
    MLIR's reference lowering (the reason says which ran)."""
    subs = mlir_substitutions()
    if subs is None:
        return Stage("not-run", f"mlir-opt-{MLIR_VERSION} / mlir-runner-{MLIR_VERSION} not found")
    stages = [_substitute(cmd, subs, path) for cmd in p.pipeline]
    own = Stage("not-run", "unknown lit substitution in the RUN line")
    if all(s is not None for s in stages):
        own = _pipe(stages, timeout)  # type: ignore[arg-type]
        if own.status == "ran":
            return own
    fallback = _pipe(_fallback_pipeline(path, p, subs), timeout)
    if fallback.status == "ran":
        fallback.reason = f"own RUN pipeline failed ({own.reason}); ran -test-lower-to-llvm"
        return fallback
    fallback.reason = _short(f"own RUN pipeline: {own.reason}; -test-lower-to-llvm: "
                             f"{fallback.reason}")
    return fallback


def run_file(
    path: Path, targets: tuple[str, ...], timeout: float, with_mlir: bool = True
) -> Record:
    """Every stage of one file, classified (never raises on bad input)."""
    rec = Record(file=path.name)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        rec.status, rec.reason = "unsupported", _short(f"cannot read: {e}")
        return rec
    p = plan(text)
    rec.entry, rec.prefixes, rec.notes = p.entry, p.prefixes, list(p.notes)
    if p.skip:
        rec.status, rec.reason = "skipped", _short(p.skip)
        return rec
    try:
        filecheck.validate(text, p.prefixes)
    except filecheck.CheckError as e:
        rec.status, rec.reason = "unsupported", _short(f"FileCheck subset: {e}")
        return rec
    if with_mlir:
        rec.mlir = mlir_stage(path, p, timeout)
        _check(rec.mlir, text, p)
    rec.interp, kind = _ours("interp", path, p.entry, timeout, p.matrix_layout)
    rec.interp.reason = rec.interp.reason.replace(f"{path.parent}/", "")
    rec.mlir.reason = rec.mlir.reason.replace(f"{path.parent}/", "")
    if kind == "frontend":
        rec.status, rec.reason = "unsupported", rec.interp.reason.removeprefix("frontend: ")
        where = re.match(r"^(.*?:\d+):\d+: error", rec.reason)
        if where and rec.mlir.status == "error" and f"{where.group(1)}:" in rec.mlir.reason:
            rec.reason = _short(f"(mlir-opt-{MLIR_VERSION} rejects it too) {rec.reason}")
        return rec
    _check(rec.interp, text, p)
    if rec.mlir.output and rec.interp.status in ("pass", "fail"):
        rec.mlir.same_as_interp = same_output(rec.mlir.output, rec.interp.output)
    if rec.interp.status != "pass":
        rec.status = "interp-fail"
        rec.reason = rec.interp.reason or rec.interp.status
        return rec
    rec.status = "pass"
    for t in targets:
        st, _ = _ours(t, path, p.entry, timeout, p.matrix_layout)
        _check(st, text, p)
        if st.status in ("pass", "fail"):
            st.same_as_interp = same_output(st.output, rec.interp.output)
        rec.targets[t] = st
    return rec
