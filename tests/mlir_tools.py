"""Run MLIR programs through real, installed MLIR (the differential-testing reference).

The corpus in ``tests/programs/`` is made of self-contained programs with a ``func.func
@entry()`` that prints with ``vector.print``.  This module lowers such a program with
``mlir-opt-N`` and runs it with the JIT runner of the same release, returning stdout.

Tools (Debian/Ubuntu ``apt.llvm.org`` packages ``mlir-19-tools``, ``mlir-22-tools``):

* MLIR 22: ``mlir-opt-22`` and ``mlir-runner-22``.
* MLIR 19: ``mlir-opt-19`` and ``mlir-cpu-runner-19`` (the runner was renamed ``mlir-runner`` in
  MLIR 20; ``find_tool("mlir-runner", 19)`` finds either name).
* The runtime library ``libmlir_c_runner_utils.so`` (``printF32``, ``printNewline``, ...) is in
  ``libmlir-22`` / ``libmlir-19``.  Those two packages CONFLICT (installing one removes the
  other and the matching ``mlir-N-tools``).  Keep ``libmlir-22`` installed and unpack the 19
  library somewhere else: ``apt-get download libmlir-19 && dpkg-deb -x libmlir-19_*.deb x &&
  cp -a x/usr/lib/llvm-19/lib /opt/mlir-19-runtime/``.  ``runner_library`` looks in
  ``/usr/lib/llvm-N/lib``, ``/opt/mlir-N-runtime/lib`` and ``$EQSAT_MLIR<N>_RUNTIME_DIR``;
  if the 19 library is absent, ``runtime_for(19)`` falls back to the 22 one (same output here).

Pipelines (see ``tests/programs/README.md`` for why each pass is there):

* 22: ``PIPELINES_22`` is tried in order; the first whose output contains only ``llvm``/
  ``builtin`` ops is run.  The first is ``--test-lower-to-llvm`` (whose contraction lowering
  is the default ``dot`` strategy); it cannot lower non-``add`` kinds or mixed element types
  of matmul shape, which the explicit pipeline with ``vector-contract-lowering=outerproduct``
  can.  Every pipeline that lowers a corpus program prints the same bytes (checked): values
  are chosen so that FMA contraction and reduction order do not matter.
* 19: ``PIPELINE_19`` (``--test-lower-to-llvm``), run with ``RUNNER_ARGS[19]``:
  ``-O0 -enable-matrix`` is required by ``vector.flat_transpose`` / ``vector.matrix_multiply``
  (LLVM's LowerMatrixIntrinsics pass; without it x86 ISel aborts "Do not know how to widen the
  result of this operator!").  ``-enable-matrix`` only takes effect when an explicit ``-O<n>`` is
  given.  ``-matrix-default-layout=row-major`` applies the project's decision (row-major
  flattened matrices, as MLIR's contract -> matrix_multiply lowering assumes); LLVM's own
  default is column-major.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from pathlib import Path

PROGRAMS_DIR = Path(__file__).resolve().parent / "programs"

_COMMON_TAIL = (
    "--convert-vector-to-scf",
    "--expand-strided-metadata",
    "--lower-affine",
    "--convert-scf-to-cf",
)
_LLVM_TAIL = (
    "--convert-math-to-llvm",
    "--convert-arith-to-llvm",
    "--finalize-memref-to-llvm",
    "--convert-func-to-llvm",
    "--convert-cf-to-llvm",
    "--convert-index-to-llvm",
    "--convert-ub-to-llvm",
    "--reconcile-unrealized-casts",
)
_VECTOR_PRE = (
    "--expand-realloc",  # memref.realloc -> alloc + copy (no LLVM lowering of its own)
    "--lower-vector-mask",
    "--lower-vector-multi-reduction",
    "--test-vector-scan-lowering",
)


def _pipeline_22(strategy: str) -> tuple[str, ...]:
    return (
        _VECTOR_PRE
        + _COMMON_TAIL
        + (f"--convert-vector-to-llvm=vector-contract-lowering={strategy}",)
        + _LLVM_TAIL
    )


#: MLIR 22 pass pipelines, tried in this order (see module docstring).
PIPELINES_22: tuple[tuple[str, ...], ...] = (
    _VECTOR_PRE + ("--test-lower-to-llvm",),
    _pipeline_22("outerproduct"),
    _pipeline_22("dot"),
    _pipeline_22("parallelarith"),
)
#: Run first when a program carries a transform script (its lowering choices), then erased.
_TRANSFORM = ("--transform-interpreter", "--test-transform-dialect-erase-schedule")
#: MLIR 19 pass pipeline (only the ops removed in 22 are run with 19).
PIPELINE_19: tuple[str, ...] = _VECTOR_PRE + ("--test-lower-to-llvm",)
PIPELINES_19: tuple[tuple[str, ...], ...] = (PIPELINE_19,)
#: Extra runner flags per version.
RUNNER_ARGS: dict[int, tuple[str, ...]] = {
    22: (),
    19: ("-O0", "-enable-matrix", "-matrix-default-layout=row-major"),
}

#: x86vector ops need the x86vector patterns of convert-vector-to-llvm before the usual pipeline.
X86VECTOR_PRE: tuple[str, ...] = ("--convert-vector-to-llvm=enable-x86vector",)
#: The LLVM matrix intrinsics need LLVM's matrix lowering, row-major (the project convention).
MATRIX_RUNNER_ARGS: tuple[str, ...] = ("-O0", "-enable-matrix", "-matrix-default-layout=row-major")

TIMEOUT_S = 60

_RUNNER_NAMES = {
    "mlir-runner": ("mlir-runner", "mlir-cpu-runner"),
    "mlir-cpu-runner": ("mlir-cpu-runner", "mlir-runner"),
}


class MLIRError(RuntimeError):
    """Lowering or running a program with real MLIR failed."""


@functools.cache
def find_tool(name: str, version: int) -> str | None:
    """Path of MLIR tool ``name`` (e.g. ``"mlir-opt"``) of release ``version``, or None.

    Looks for ``name-version`` on PATH, then ``/usr/lib/llvm-<version>/bin/name``.  For the JIT
    runner, ``mlir-runner`` and its pre-20 name ``mlir-cpu-runner`` are interchangeable.
    """
    for n in _RUNNER_NAMES.get(name, (name,)):
        found = shutil.which(f"{n}-{version}")
        if found:
            return found
        p = Path(f"/usr/lib/llvm-{version}/bin/{n}")
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    return None


@functools.cache
def runner_library(version: int) -> str | None:
    """Path of ``libmlir_c_runner_utils.so`` for MLIR ``version``, or None."""
    dirs = []
    env = os.environ.get(f"EQSAT_MLIR{version}_RUNTIME_DIR")
    if env:
        dirs.append(Path(env))
    dirs += [Path(f"/usr/lib/llvm-{version}/lib"), Path(f"/opt/mlir-{version}-runtime/lib")]
    for d in dirs:
        if not d.is_dir():
            continue
        for cand in sorted(d.glob("libmlir_c_runner_utils.so*")):
            if cand.is_file():
                return str(cand)
    return None


#: Other releases whose runtime library may stand in when a version's own is missing (the
#: print entry points printF32/printI64/printNewline/... are plain C with a stable ABI; MLIR 19
#: programs of the corpus print byte-identical output with the MLIR 22 library).
_RUNTIME_FALLBACK = {19: (22,), 22: ()}


def runtime_for(version: int) -> str | None:
    """The runtime library to pass to the runner of ``version`` (its own, else a fallback)."""
    lib = runner_library(version)
    if lib is None:
        for other in _RUNTIME_FALLBACK.get(version, ()):
            lib = runner_library(other)
            if lib is not None:
                break
    return lib


def _shared_libs(version: int) -> str:
    """The runtime library, plus ``libmlir_runner_utils`` beside it where present (it holds
    ``printMemrefF32`` and friends)."""
    lib = Path(runtime_for(version) or "")
    extra = sorted(lib.parent.glob("libmlir_runner_utils.so*")) if lib.name else []
    return ",".join([str(lib)] + [str(p) for p in extra[:1]])


def missing_tools(version: int) -> list[str]:
    """Names of what is missing to run programs with MLIR ``version`` (empty: all present)."""
    missing = []
    if find_tool("mlir-opt", version) is None:
        missing.append(f"mlir-opt-{version}")
    if find_tool("mlir-runner", version) is None:
        missing.append(f"mlir-runner-{version} / mlir-cpu-runner-{version}")
    if runtime_for(version) is None:
        missing.append(f"libmlir_c_runner_utils.so (MLIR {version})")
    return missing


MLIR22 = find_tool("mlir-opt", 22) is not None
MLIR19 = find_tool("mlir-opt", 19) is not None
RUN22 = not missing_tools(22)
RUN19 = not missing_tools(19)

_HEADER = re.compile(r"^//\s*REFERENCE:\s*(mlir22|mlir19|hand)\b\s*(?:--\s*(.*))?$")


def reference_of(path: str | os.PathLike) -> tuple[str, str]:
    """``('mlir22'|'mlir19'|'hand', note)`` from the program's first line.

    The first line must be ``// REFERENCE: mlir22``, ``// REFERENCE: mlir19`` or
    ``// REFERENCE: hand -- <why MLIR cannot run it>`` (an optional ``-- note`` is allowed for
    all three).  Raises ValueError on a missing or malformed header.
    """
    with open(path, encoding="utf-8") as f:
        first = f.readline().rstrip("\n")
    m = _HEADER.match(first.strip())
    if not m:
        raise ValueError(
            f"{path}: first line must be '// REFERENCE: mlir22|mlir19|hand [-- note]',"
            f" got {first!r}"
        )
    kind, note = m.group(1), (m.group(2) or "").strip()
    if kind == "hand" and not note:
        raise ValueError(f"{path}: '// REFERENCE: hand' needs '-- <why MLIR cannot run it>'")
    return kind, note


_REQUIRES = re.compile(r"^//\s*REQUIRES:\s*(.*)$", re.MULTILINE)


def required_features(path: str | os.PathLike) -> list[str]:
    """The host CPU features (``/proc/cpuinfo`` flag names) a ``// REQUIRES: avx512f`` line of
    a program asks for: its target-specific ops only run where the host has them."""
    head = Path(path).read_text(encoding="utf-8")[:2000]
    return [f for m in _REQUIRES.finditer(head) for f in m.group(1).replace(",", " ").split()]


def missing_host_features(path: str | os.PathLike) -> list[str]:
    """Features the program requires that this host lacks (all of them off Linux/x86)."""
    needed = required_features(path)
    if not needed:
        return []
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return needed
    flags: set[str] = set()
    for line in info.splitlines():
        if line.startswith("flags"):
            flags.update(line.partition(":")[2].split())
    return [f for f in needed if f not in flags]


def _run(cmd: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            cmd, input=stdin, capture_output=True, text=True, check=False, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        raise MLIRError(
            f"{' '.join(cmd)} timed out after {TIMEOUT_S} s; stdout so far:\n{out[:2000]}"
        ) from None


def _unlowered_ops(text: str) -> list[str]:
    """Ops of other dialects than llvm/builtin left in lowered IR (best-effort scan)."""
    bad = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith(("//", "#", "^", "}", "module", "llvm.", '"llvm.')):
            continue
        m = re.match(r"^(?:%[^=]*=\s*)?\"?([a-z_]\w*)\.([\w.]+)", s)
        if m and m.group(1) not in ("llvm", "builtin"):
            bad.append(f"{m.group(1)}.{m.group(2)}")
    return bad


def lower(text: str, version: int = 22) -> tuple[str, tuple[str, ...]]:
    """Lower MLIR ``text`` to the LLVM dialect; returns (lowered text, pipeline used)."""
    opt = find_tool("mlir-opt", version)
    if opt is None:
        raise MLIRError(f"mlir-opt-{version} not found")
    pipelines = PIPELINES_22 if version >= 20 else PIPELINES_19
    if "x86vector." in text:
        pipelines = tuple(X86VECTOR_PRE + pipe for pipe in pipelines)
    if "transform.named_sequence" in text:  # run the module's transform script first
        pipelines = tuple(_TRANSFORM + p for p in pipelines)
    errors = []
    for pipe in pipelines:
        r = _run([opt, *pipe], text)
        if r.returncode != 0:
            errors.append(f"[{' '.join(pipe)}] exit {r.returncode}:\n{r.stderr.strip()}")
            continue
        left = _unlowered_ops(r.stdout)
        if left:
            errors.append(f"[{' '.join(pipe)}] left unlowered: {sorted(set(left))}")
            continue
        return r.stdout, pipe
    raise MLIRError(f"mlir-opt-{version}: no pipeline lowers the program:\n" + "\n".join(errors))


def run_text_with_mlir(
    text: str, version: int = 22, runner_args: tuple[str, ...] | None = None
) -> str:
    """Lower and JIT-run MLIR ``text`` (entry ``@entry() -> ()``); returns stdout.

    ``runner_args`` replaces the version's ``RUNNER_ARGS`` (e.g. another matrix layout)."""
    missing = missing_tools(version)
    if missing:
        raise MLIRError(f"MLIR {version} is not usable; missing: {', '.join(missing)}")
    lowered, pipe = lower(text, version)
    runner = find_tool("mlir-runner", version)
    cmd = [
        runner,
        "-e",
        "entry",
        "-entry-point-result=void",
        f"-shared-libs={_shared_libs(version)}",
        *(RUNNER_ARGS.get(version, ()) if runner_args is None else runner_args),
    ]
    if "llvm.intr.matrix." in text and version >= 20:
        cmd += MATRIX_RUNNER_ARGS
    r = _run(cmd, lowered)
    if r.returncode != 0:
        err = r.stderr.strip()
        if len(err) > 4000:
            err = err[:4000] + "\n... (truncated)"
        raise MLIRError(
            f"{' '.join(cmd)} failed (exit {r.returncode}) after "
            f"mlir-opt-{version} {' '.join(pipe)}:\n{err}\n--- stdout so far ---\n"
            f"{r.stdout}"
        )
    return r.stdout


def run_with_mlir(path: str | os.PathLike, version: int = 22) -> str:
    """Lower program file ``path`` with ``mlir-opt-<version>`` and run it; returns stdout.

    Raises MLIRError (with the tool's stderr) if lowering or running fails.
    """
    return run_text_with_mlir(Path(path).read_text(encoding="utf-8"), version)


def run_reference(path: str | os.PathLike) -> str:
    """Run ``path`` with the MLIR its header names (``hand`` programs raise ValueError)."""
    kind, _ = reference_of(path)
    if kind == "hand":
        raise ValueError(
            f"{path}: reference is by hand; read {Path(path).with_suffix('.expected')}"
        )
    return run_with_mlir(path, 22 if kind == "mlir22" else 19)


def validate_with_mlir_opt(text: str, version: int = 22, generic: bool = False) -> tuple[bool, str]:
    """Parse and verify ``text`` with ``mlir-opt-<version>`` (no passes).

    Returns ``(True, printed IR)`` (generic form if ``generic``) or ``(False, stderr)``.
    """
    opt = find_tool("mlir-opt", version)
    if opt is None:
        return False, f"mlir-opt-{version} not found"
    cmd = [opt] + (["--mlir-print-op-generic"] if generic else [])
    r = _run(cmd, text)
    if r.returncode != 0:
        return False, r.stderr
    return True, r.stdout


def program_paths() -> list[Path]:
    """All corpus programs, sorted by name."""
    return sorted(PROGRAMS_DIR.glob("*.mlir"))


def expected_path(path: str | os.PathLike) -> Path:
    return Path(path).with_suffix(".expected")


def regenerate(paths: list[Path] | None = None) -> None:
    """Rewrite ``.expected`` files of mlir22/mlir19 programs from real MLIR (maintainers only)."""
    for p in paths or program_paths():
        kind, _ = reference_of(p)
        if kind == "hand":
            continue
        out = run_reference(p)
        expected_path(p).write_text(out, encoding="utf-8")


if __name__ == "__main__":  # python tests/mlir_tools.py [--regen] [programs...]
    import sys

    args = sys.argv[1:]
    regen = "--regen" in args
    files = [Path(a) for a in args if a != "--regen"] or program_paths()
    for p in files:
        kind, note = reference_of(p)
        if kind == "hand":
            print(f"== {p.name}: hand ({note})")
            continue
        if regen:
            regenerate([p])
            print(f"== {p.name}: regenerated ({kind})")
        else:
            print(f"== {p.name} ({kind})")
            sys.stdout.write(run_reference(p))
