"""What a lit test's ``// RUN:`` lines ask for: the entry function, the FileCheck prefixes, and
whether we model what they need (else a reason to skip the file).

Only the parts of lit that MLIR's CPU vector integration tests use are modelled: ``RUN:`` lines
joined at a trailing backslash, ``DEFINE:``/``REDEFINE:`` substitutions (``%{name}``), pipes,
``REQUIRES:`` (any requirement skips the file: they name emulators and CPU features), and the
substitutions of MLIR's lit config that the MLIR stage fills in (``%s``,
``%mlir_c_runner_utils``, ...; see ``runner.py``).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

_RUNNERS = ("mlir-runner", "mlir-cpu-runner")
#: Runtime libraries the runs may load: our interpreter and runtime model what they print.
ALLOWED_LIBS = ("mlir_c_runner_utils", "mlir_runner_utils", "mlir_float16_utils")
#: Spellings in a RUN pipeline that mean another target or machinery we do not model.
_FOREIGN = (
    (re.compile(r"(?:^|\s)--?march\b"), "another architecture (-march)"),
    (re.compile(r"(?:^|\s)--?mattr\b"), "target features (-mattr)"),
    (re.compile(r"(?:^|\s)--?mcpu\b"), "a specific CPU (-mcpu)"),
    (re.compile(r"(?:^|\s)--?mtriple\b|(?:^|\s)-target\b"), "another target triple"),
    (re.compile(r"%mcr_aarch64_cmd|%{run_sme}|aarch64|qemu", re.I), "an AArch64 emulator"),
    (re.compile(r"arm[-_]?s[mv]e|\bsve\b|\bsme\b", re.I), "Arm SVE/SME"),
    (re.compile(r"\bamx\b|enable-amx", re.I), "Intel AMX"),
    (re.compile(r"%lli\b|\blli\b"), "lli instead of mlir-runner"),
)


@dataclass
class RunPlan:
    """The file's primary run (the first pipeline that JIT-runs and checks its output)."""

    entry: str = "main"
    result: str = "void"
    prefixes: tuple[str, ...] = ("CHECK",)
    full_lines: bool = False
    matrix_layout: str = "row-major"  # the runner's -matrix-default-layout (ours: row-major)
    pipeline: list[list[str]] = field(default_factory=list)  # commands, FileCheck excluded
    libs: list[str] = field(default_factory=list)  # lit spellings of -shared-libs entries
    skip: str = ""  # non-empty: why we do not run this file
    notes: list[str] = field(default_factory=list)


def run_lines(text: str) -> list[str]:
    """The file's RUN commands, continuation lines joined and ``%{name}`` expanded."""
    defs: dict[str, str] = {}
    commands: list[str] = []
    pending, pending_kind = "", ""
    for raw in text.splitlines():
        m = re.match(r"^\s*//\s*(RUN|DEFINE|REDEFINE):\s?(.*)$", raw)
        if m is None:
            continue
        kind, body = m.group(1), m.group(2).rstrip()
        if pending and kind != pending_kind:
            kind = pending_kind  # a continued DEFINE goes on, whatever the next line says
        pending_kind = kind
        if body.endswith("\\"):
            pending += body[:-1] + " "
            continue
        whole, pending = (pending + body).strip(), ""
        if kind in ("DEFINE", "REDEFINE"):
            d = re.match(r"^%\{([\w.-]+)\}\s*=\s*(.*)$", whole)
            if d:
                defs[d.group(1)] = d.group(2).strip()
            continue
        commands.append(_expand(whole, defs))
    if pending.strip() and pending_kind == "RUN":
        commands.append(_expand(pending.strip(), defs))
    return commands


def _expand(cmd: str, defs: dict[str, str]) -> str:
    for _ in range(10):  # definitions may use definitions
        new = re.sub(r"%\{([\w.-]+)\}", lambda m: defs.get(m.group(1), m.group(0)), cmd)
        if new == cmd:
            break
        cmd = new
    return cmd


def _split(cmd: str) -> list[list[str]] | None:
    """Pipeline stages of a shell command (None if it is not a plain pipeline)."""
    try:
        tokens = shlex.split(cmd, posix=True)
    except ValueError:
        return None
    stages: list[list[str]] = [[]]
    for t in tokens:
        if t == "|":
            stages.append([])
        elif t in ("&&", ";", "||", ">", "<", "2>&1"):
            return None
        else:
            stages[-1].append(t)
    return [s for s in stages if s]


def _flag_value(args: list[str], names: tuple[str, ...]) -> list[str]:
    """Values of ``-name=v``, ``--name=v`` and ``-name v`` flags."""
    out = []
    for i, a in enumerate(args):
        for n in names:
            for dash in ("-", "--"):
                if a.startswith(f"{dash}{n}="):
                    out.append(a.split("=", 1)[1])
                elif a == f"{dash}{n}" and i + 1 < len(args):
                    out.append(args[i + 1])
    return out


def library_name(spec: str) -> str:
    """``mlir_c_runner_utils`` of ``%mlir_c_runner_utils`` or
    ``%mlir_lib_dir/libmlir_c_runner_utils%shlibext``."""
    name = spec.rsplit("/", 1)[-1].removeprefix("%").removeprefix("lib")
    return re.split(r"%|\.", name, maxsplit=1)[0]


def plan(text: str) -> RunPlan:
    """The run plan of a test file (``skip`` says why it cannot be run here)."""
    p = RunPlan()
    req = re.findall(r"^\s*//\s*REQUIRES:\s*(.*)$", text, re.M)
    if req:
        p.skip = f"REQUIRES: {', '.join(r.strip() for r in req)}"
        return p
    commands = run_lines(text)
    if not commands:
        p.skip = "no RUN lines"
        return p
    chosen: list[list[str]] | None = None
    for cmd in commands:
        stages = _split(cmd)
        if stages is None or not any(s[0] in _RUNNERS for s in stages):
            continue
        if stages[-1][0] != "FileCheck":
            continue
        chosen = stages
        for rx, why in _FOREIGN:
            if rx.search(cmd):
                p.skip = f"RUN line needs {why}"
                return p
        break
    if chosen is None:
        p.skip = "no RUN pipeline of mlir-runner into FileCheck"
        return p
    runner = next(s for s in chosen if s[0] in _RUNNERS)
    fc = chosen[-1]
    entries = _flag_value(runner[1:], ("e", "entry-point"))
    p.entry = entries[-1] if entries else "main"
    results = _flag_value(runner[1:], ("entry-point-result",))
    p.result = results[-1] if results else "void"
    if p.result != "void":
        p.skip = f"entry returns {p.result} (only void entry points are modelled)"
        return p
    layouts = _flag_value(runner[1:], ("matrix-default-layout",))
    if layouts:
        if layouts[-1] not in ("row-major", "column-major"):
            p.skip = f"unknown -matrix-default-layout={layouts[-1]}"
            return p
        p.matrix_layout = layouts[-1]
    for v in _flag_value(runner[1:], ("shared-libs",)):
        p.libs += [x for x in v.split(",") if x]
    for lib in p.libs:
        if library_name(lib) not in ALLOWED_LIBS:
            p.skip = f"needs runtime library {lib}"
            return p
    prefixes = _flag_value(fc[1:], ("check-prefix", "check-prefixes"))
    if prefixes:
        p.prefixes = tuple(x for v in prefixes for x in v.split(",") if x)
    p.full_lines = "--match-full-lines" in fc or "-match-full-lines" in fc
    if any(a.startswith("--strict-whitespace") or a == "-strict-whitespace" for a in fc):
        p.notes.append("--strict-whitespace ignored")
    p.pipeline = chosen[:-1]
    if len(commands) > 1:
        p.notes.append(f"{len(commands)} RUN commands; the first runner pipeline is used")
    return p
