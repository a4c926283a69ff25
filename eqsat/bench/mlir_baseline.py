"""The baseline: the same input lowered to LLVM IR by MLIR 22 itself, once per strategy.

Every variant runs one pass pipeline, MLIR's own reference pipeline (``--test-lower-to-llvm``,
spelled out pass by pass so that options can be set; with every option at its default it gives
byte-identical LLVM IR), preceded by the vector passes it lacks (``lower-vector-mask``,
``lower-vector-multi-reduction``). A forced strategy changes exactly one pass option; all
others stay at MLIR's defaults. Then ``mlir-translate-22 --mlir-to-llvmir``.

Facts of MLIR 22 this table rests on: ``llvmintr`` takes effect only as the
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

import functools
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
    "full_unroll": "false",
    "target_rank": "1",
    "alignment": "false",
    "avx2_transpose": "false",
}

#: Where each option lives in the pipeline (for the table readers see).
SPELLING = {
    "multi_reduction": "lower-vector-multi-reduction{{lowering-strategy={}}}",
    "contract": "convert-vector-to-llvm{{vector-contract-lowering={}}}",
    "transpose": "convert-vector-to-llvm{{vector-transpose-lowering={}}}",
    "reassoc": "convert-vector-to-llvm{{reassociate-fp-reductions={}}}",
    "full_unroll": "convert-vector-to-scf{{full-unroll={}}}",
    "target_rank": "convert-vector-to-scf{{target-rank={}}}",
    "alignment": "convert-vector-to-llvm{{use-vector-alignment={}}}",
    "avx2_transpose": "transform.apply_patterns.vector.lower_transpose avx2_lowering_strategy={}",
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

#: The rest of the space ``space_variants`` searches: (option, variant name, value), each
#: crossed with every combination of the strategies above. Transfers lowered to 1-D fully
#: unrolled (``full-unroll``) or to scalars (``target-rank=0``); loads and stores at the
#: vector's alignment (the benchmark's buffers are 64-byte aligned); the x86vector AVX2 8x8
#: transpose (inline ``vblendps``: targets with AVX2 only).
EXTRA: tuple[tuple[str, str, str], ...] = (
    ("full_unroll", "transfer-full_unroll", "true"),
    ("target_rank", "transfer-rank0", "0"),
    ("alignment", "align-vector", "true"),
    ("avx2_transpose", "transpose-avx2", "true"),
)

#: The op each strategy family lowers (a family is searched when the input has the op, or a
#: vector.contract, whose lowerings make transposes and reductions).
FAMILY_OP = {
    "contract": "vector.contract",
    "transpose": "vector.transpose",
    "multi_reduction": "vector.multi_reduction",
}

#: Transform script that lowers 8x8 f32 transposes with MLIR's x86vector AVX2 sequence; it
#: is appended to the input and run (then erased) before the pipeline.
AVX2_TRANSPOSE_SCRIPT = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%m: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %m : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_transpose lowering_strategy = "eltwise" avx2_lowering_strategy = true
    } : !transform.any_op
    transform.yield
  }
}
"""

#: The pipeline with one slot per option; ``{contract}`` etc. are filled per variant.
PIPELINE = (
    "builtin.module("
    "func.func(lower-vector-mask,"
    "lower-vector-multi-reduction{{lowering-strategy={multi_reduction}}},"
    "convert-vector-to-scf{{full-unroll={full_unroll} target-rank={target_rank}}}),"
    "lower-affine,convert-scf-to-cf,canonicalize,cse,"
    "convert-vector-to-llvm{{vector-contract-lowering={contract} "
    "vector-transpose-lowering={transpose} reassociate-fp-reductions={reassoc} "
    "use-vector-alignment={alignment}}},"
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
        pipe = PIPELINE.format(**self.options)
        if self.options["avx2_transpose"] == "true":
            pipe = pipe.replace(
                "builtin.module(",
                "builtin.module(transform-interpreter,test-transform-dialect-erase-schedule,", 1
            )
        return pipe

    def input_text(self, text: str) -> str:
        """The MLIR text this variant's pipeline reads (the input, plus a transform script)."""
        return text + AVX2_TRANSPOSE_SCRIPT if self.options["avx2_transpose"] == "true" else text


def variants(reassoc: bool = True) -> list[Variant]:
    """MLIR's default, then every forced strategy; each also with reassociation if asked."""
    out = []
    for group in ("", "+reassoc") if reassoc else ("",):
        out += single_variants(group)
    return out


def _flag(group: str) -> str:
    return "true" if group else "false"


def single_variants(group: str = "") -> list[Variant]:
    """MLIR's default and every forced strategy alone, in ``group`` (``eqsat.bench.variants``:
    ``+reassoc`` and ``+fast-math`` both set ``reassociate-fp-reductions``)."""
    opts = {**DEFAULTS, "reassoc": _flag(group)}
    out = [Variant(f"mlir-default{group}", None, None, opts)]
    for family, name, value in STRATEGIES:
        out.append(Variant(f"mlir-{family}-{name}{group}", family, name, {**opts, family: value}))
    return out


#: Options ``space_variants`` calls strategies (the rest, ``EXTRA``'s transfer options, are
#: crossed with the best strategies only: ``transfer_variants``).
STRATEGY_KEYS = (*FAMILY_OP, "avx2_transpose")


def space_variants(text: str, group: str = "", avx2: bool = False) -> list[Variant]:
    """Every combination of the strategy families the input needs (``FAMILY_OP``) with every
    ``EXTRA`` option (the AVX2 transpose only when ``avx2`` and transposes can occur: it
    lowers the 8x8 f32 ones first, the transpose option the rest), in
    ``group``; named by the options that differ from MLIR's default (``mlir-default`` when
    none)."""
    import itertools

    has_contract = "vector.contract" in text
    axes: list[list[tuple[str, str, str] | None]] = []
    for family, op in FAMILY_OP.items():
        if op in text or has_contract:
            axes.append([None] + [s for s in STRATEGIES if s[0] == family
                                  and s[2] != DEFAULTS[family]])  # fmt: skip
    for option in EXTRA:
        if option[0] == "avx2_transpose" and not (
            avx2 and ("vector.transpose" in text or has_contract)
        ):
            continue
        axes.append([None, option])
    out = []
    for combo in itertools.product(*axes):
        chosen = [c for c in combo if c is not None]
        opts = {**DEFAULTS, "reassoc": _flag(group)}
        for key, _, value in chosen:
            opts[key] = value
        if not chosen:
            out.append(Variant(f"mlir-default{group}", None, None, opts))
            continue
        name = "-".join(f"{key}-{n}" if key in FAMILY_OP else n for key, n, _ in chosen)
        family = chosen[0][0] if len(chosen) == 1 else None
        out.append(Variant(f"mlir-{name}{group}", family, chosen[0][1] if family else None,
                           opts))  # fmt: skip
    return out


def _part(v: Variant, keys: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(v.options[k] for k in keys)


def strategy_variants(text: str, group: str = "", avx2: bool = False) -> list[Variant]:
    """The first stage of the search: every combination of strategies with MLIR's default
    transfer lowering, and MLIR's default strategies with every transfer option."""
    extra = tuple(k for k in DEFAULTS if k not in STRATEGY_KEYS and k != "reassoc")
    plain = _part(Variant("", None, None, DEFAULTS), extra)
    default = _part(Variant("", None, None, DEFAULTS), STRATEGY_KEYS)
    return [v for v in space_variants(text, group, avx2)
            if _part(v, extra) == plain or _part(v, STRATEGY_KEYS) == default]  # fmt: skip


def transfer_variants(
    text: str, bases: list[Variant], group: str = "", avx2: bool = False
) -> list[Variant]:
    """The second stage: the strategies of ``bases`` (the fastest of the first stage) with
    every combination of the transfer options."""
    wanted = {_part(b, STRATEGY_KEYS) for b in bases}
    return [v for v in space_variants(text, group, avx2) if _part(v, STRATEGY_KEYS) in wanted]


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
    return _lower(variant.input_text(text), variant.pipeline())


@functools.lru_cache(maxsize=4096)
def _lower(text: str, pipeline: str) -> str:
    """LLVM IR of ``text`` under ``pipeline`` (cached: every target lowers the same way)."""
    opt, translate = require_tools()
    r = _run([opt, f"--pass-pipeline={pipeline}"], text)
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
