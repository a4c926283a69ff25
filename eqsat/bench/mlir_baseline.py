"""The baseline: the same input lowered to LLVM IR by MLIR 22 itself, once per strategy.

Every variant runs one pass pipeline, MLIR's own reference pipeline (``--test-lower-to-llvm``,
spelled out pass by pass so that options can be set; with every option at its default it gives
byte-identical LLVM IR), preceded by the vector passes it lacks (``lower-vector-mask``,
``lower-vector-multi-reduction``). A forced strategy changes exactly one pass option; all
others stay at MLIR's defaults. Then ``mlir-translate-22 --mlir-to-llvmir``.

Facts of MLIR 22 this table rests on (DESIGN 6b): ``llvmintr`` takes effect only as the
``convert-vector-to-llvm`` pass option (through the transform dialect's ``lower_contraction``
it silently falls back). The matrix intrinsics the two ``llvmintr`` strategies emit assume
opposite layouts (measured here on 8x8 matmul and the 16x64 -> 64x16 transpose inside an inner
multi_reduction): the contraction's ``llvm.matrix.multiply`` is right only with LLVM's
``-matrix-default-layout=row-major``, the transpose's ``llvm.matrix.transpose`` only with
LLVM's default ``column-major``; each variant names the layout it is compiled with
(``Variant.matrix_layout``). ``canonicalize`` runs before the strategy lowering, as in MLIR's
pipeline, and may fold a transpose away before any strategy sees it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

MLIR_VERSION = 22
TOOL_HINT = "install it with `apt-get install mlir-22-tools` (packages from apt.llvm.org)"
TIMEOUT_S = 120

#: MLIR's default of every strategy option (``mlir-opt-22 --help``, ``--dump-pass-pipeline``).
DEFAULTS = {
    "multi_reduction": "inner-parallel",
    "contract": "dot",
    "transpose": "eltwise",
    "reassoc": "false",
}

#: Where each option lives in the pipeline (for the table readers see).
SPELLING = {
    "multi_reduction": "lower-vector-multi-reduction{{lowering-strategy={}}}",
    "contract": "convert-vector-to-llvm{{vector-contract-lowering={}}}",
    "transpose": "convert-vector-to-llvm{{vector-transpose-lowering={}}}",
    "reassoc": "convert-vector-to-llvm{{reassociate-fp-reductions={}}}",
}

#: Forced strategies: (family, variant name, pass option value). Variant names follow the
#: issue's spelling; the values are MLIR 22's (``shuffle1d``, ``inner-parallel``).
STRATEGIES: tuple[tuple[str, str, str], ...] = (
    ("contract", "dot", "dot"),
    ("contract", "outerproduct", "outerproduct"),
    ("contract", "llvmintr", "llvmintr"),
    ("contract", "parallelarith", "parallelarith"),
    ("transpose", "eltwise", "eltwise"),
    ("transpose", "shuffle_1d", "shuffle1d"),
    ("transpose", "shuffle_16x16", "shuffle16x16"),
    ("transpose", "llvmintr", "llvmintr"),
    ("multi_reduction", "innerparallel", "inner-parallel"),
    ("multi_reduction", "innerreduction", "inner-reduction"),
)

#: The pipeline with one slot per option; ``{contract}`` etc. are filled per variant.
PIPELINE = (
    "builtin.module("
    "func.func(lower-vector-mask,"
    "lower-vector-multi-reduction{{lowering-strategy={multi_reduction}}},"
    "convert-vector-to-scf{{full-unroll=false target-rank=1}}),"
    "lower-affine,convert-scf-to-cf,canonicalize,cse,"
    "convert-vector-to-llvm{{vector-contract-lowering={contract} "
    "vector-transpose-lowering={transpose} reassociate-fp-reductions={reassoc}}},"
    "func.func(convert-math-to-llvm),expand-strided-metadata,lower-affine,"
    "finalize-memref-to-llvm,convert-func-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,"
    "convert-index-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts)"
)


@dataclass(frozen=True)
class Variant:
    """One way MLIR lowers the input: a name (``mlir-transpose-shuffle_1d+reassoc``) and the
    options it sets."""

    name: str
    family: str | None  # None for MLIR's default lowering
    strategy: str | None
    options: dict[str, str]

    @property
    def reassoc(self) -> bool:
        return self.options["reassoc"] == "true"

    @property
    def matrix_layout(self) -> str:
        """LLVM's ``-matrix-default-layout`` this variant's intrinsics are correct under."""
        return "column-major" if self.options["transpose"] == "llvmintr" else "row-major"

    def pipeline(self) -> str:
        return PIPELINE.format(**self.options)


def variants(reassoc: bool = True) -> list[Variant]:
    """MLIR's default, then every forced strategy; each also with reassociation if asked."""
    out = []
    flags = ("false", "true") if reassoc else ("false",)
    for flag in flags:
        suffix = "+reassoc" if flag == "true" else ""
        out.append(Variant(f"mlir-default{suffix}", None, None, {**DEFAULTS, "reassoc": flag}))
        for family, name, value in STRATEGIES:
            opts = {**DEFAULTS, family: value, "reassoc": flag}
            out.append(Variant(f"mlir-{family}-{name}{suffix}", family, name, opts))
    return out


class ToolMissing(Exception):
    """An MLIR tool is not installed; the message names it and how to install it."""


class CannotLower(Exception):
    """MLIR rejected the input under one variant's pipeline (reported, not an error)."""


def find_tool(name: str, version: int = MLIR_VERSION) -> str | None:
    """``name-version`` on PATH, else ``/usr/lib/llvm-<version>/bin/name``; None if absent."""
    found = shutil.which(f"{name}-{version}")
    if found:
        return found
    p = Path(f"/usr/lib/llvm-{version}/bin/{name}")
    return str(p) if p.is_file() and os.access(p, os.X_OK) else None


def require_tools() -> tuple[str, str]:
    """Paths of ``mlir-opt-22`` and ``mlir-translate-22``, or ``ToolMissing``."""
    paths = []
    for name in ("mlir-opt", "mlir-translate"):
        path = find_tool(name)
        if path is None:
            raise ToolMissing(f"{name}-{MLIR_VERSION} not found: {TOOL_HINT}")
        paths.append(path)
    return paths[0], paths[1]


def _run(cmd: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            cmd, input=stdin, capture_output=True, text=True, check=False, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        raise CannotLower(f"{Path(cmd[0]).name} timed out after {TIMEOUT_S} s") from None


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return stderr.strip().splitlines()[0] if stderr.strip() else "failed without a message"


def lower_to_llvm_ir(text: str, variant: Variant) -> str:
    """LLVM IR text of MLIR ``text`` under ``variant``'s pipeline; ``CannotLower`` if MLIR
    rejects it (pass failure, or ops left that the translation cannot handle)."""
    opt, translate = require_tools()
    r = _run([opt, f"--pass-pipeline={variant.pipeline()}"], text)
    if r.returncode != 0:
        raise CannotLower(f"mlir-opt: {_first_error(r.stderr)}")
    t = _run([translate, "--mlir-to-llvmir"], r.stdout)
    if t.returncode != 0:
        left = re.search(r"custom op '([\w.]+)'", t.stderr)
        if left:
            raise CannotLower(f"the pipeline leaves {left.group(1)} unlowered")
        raise CannotLower(f"mlir-translate: {_first_error(t.stderr)}")
    return t.stdout


def pipeline_table() -> str:
    """The pipelines as a readable markdown table (README, ``eqsat bench --pipelines``)."""
    rows = [
        "| variant | options changed from MLIR's default | LLVM `-matrix-default-layout` |",
        "|---|---|---|",
    ]
    for v in variants():
        changed = [
            SPELLING[k].format(v.options[k]) for k in DEFAULTS if v.options[k] != DEFAULTS[k]
        ]
        shown = ", ".join(f"`{c}`" for c in changed) or "(none)"
        rows.append(f"| `{v.name}` | {shown} | {v.matrix_layout} |")
    base = PIPELINE.format(**DEFAULTS)
    return "\n".join(rows) + f"\n\nBase pipeline (`mlir-opt-22 --pass-pipeline=...`):\n{base}\n"
