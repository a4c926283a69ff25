"""Verifier parity with real MLIR: does eqsat accept exactly what ``mlir-opt`` accepts?

Every form of ``experiments.lib.verifier_forms`` (one op per function, generic form) is parsed
and verified by eqsat and, batched with ``--split-input-file``, by ``mlir-opt-22`` (ops MLIR 22
removed: ``mlir-opt-19``). An op of the ``llvm``, ``x86vector`` and ``arm_neon`` dialects is
accepted by MLIR only end to end: ``mlir-opt`` verifies it, ``LOWER`` takes its function to the
LLVM dialect and ``mlir-translate --mlir-to-llvmir`` translates it (which checks intrinsic
signatures and runs LLVM's IR verifier), each batched with ``--split-input-file``. A form
accepted by both is printed back by eqsat in its custom form, which MLIR must accept too.
Disagreements known and explained in the README are listed in ``KNOWN``; every other one is a
bug.

    python experiments/verifier_parity.py [--show] [--op NAME] [--every N]

prints ``N forms, A accepted by both, R rejected by both, K disagreements``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.lib.verifier_forms import Form, end_to_end, generate  # noqa: E402
from frontend import MLIRError, parse, print_module  # noqa: E402

BATCH = 400
_FUNC = re.compile(r"func\.func @(f\d+)\(")
_DEFINE = re.compile(r"^define [^@]*@(f\d+)\(", re.MULTILINE)
#: mlir-opt passes taking a form of an end-to-end dialect to the LLVM dialect.
LOWER = (
    "--arm-neon-2d-to-intr",
    "--convert-vector-to-llvm=enable-x86vector enable-arm-neon",
    "--convert-to-llvm",
    "--reconcile-unrealized-casts",
    "--mlir-print-op-generic",  # mlir-translate reads it back as is (MLIR 22 prints a
)  # getelementptr without indices as `%p[]`, which its own parser rejects)

#: The direction of a disagreement: which side accepts what the other rejects.
STRICTER = "MLIR accepts, eqsat rejects"
LOOSER = "eqsat accepts, MLIR rejects"
PRINTED = "eqsat's printed form is rejected by MLIR"

#: (op, regular expression on the form's `what`) -> (direction, why eqsat and MLIR differ
#: there); each is listed in the README. A disagreement on a listed form in another direction
#: is not known: it is a new bug (eqsat accepting what MLIR rejects is never listed as allowed
#: by an entry that says eqsat is stricter). eqsat is stricter in all of them but one: MLIR's
#: verifier lets through a form that has no defined semantics (its lowering fails or
#: guesses), and eqsat must run it.
_WHY: dict[tuple[str, str], str] = {
    ("vector.insert", r"operands\[0\] dim"): "MLIR 22 checks only that source rank + position "
    "count = dest rank; eqsat requires the source shape to be the dest's trailing shape",
    ("vector.transpose", r".* scalable$"): "MLIR 22 compares the transposed dim sizes only; "
    "eqsat requires the scalable flags to be permuted too",
    ("vector.transfer_write", r"elem "): "MLIR 22 lets a transfer_write store a vector whose "
    "element type differs from the memref's; eqsat requires them to match",
    ("vector.multi_reduction", r"reduction_dims \+entry"): "MLIR 22 accepts a repeated "
    "reduction dim; eqsat requires distinct dims",
    ("vector.multi_reduction", r"elem "): "MLIR 22 does not check the combining kind against "
    "the element type of a multi_reduction (maximumf over integers); eqsat does, as for "
    "vector.reduction",
    ("vector.outerproduct", r"operands\[1\] dim0 scalable"): "MLIR 22 accepts a scalable rhs "
    "with a fixed accumulator in the generic form but rejects the custom form of the same op "
    "(it infers a scalable accumulator); eqsat prints the custom form",
    ("vector.flat_transpose", r"(rows|columns)|operands|results"): "MLIR 19 does not check the "
    "vector sizes or fixed length against rows x columns; eqsat does (MLIR 19 cannot lower such a "
    "form either)",
    ("vector.matrix_multiply", r"(lhs_|rhs_)|operands|results"): "MLIR 19 does not check the "
    "vector sizes or fixed length against the matrix shape attributes; eqsat does",
    ("llvm.intr.matrix.multiply", r"operands\[\d\] dim0 scalable$"): "MLIR 22 and LLVM's IR "
    "verifier accept a scalable operand of llvm.intr.matrix.multiply, whose vscale x n "
    "elements cannot hold the rows x columns matrix the attributes state; eqsat requires "
    "fixed-length vectors",
    ("llvm.call_intrinsic", r"elem i1$"): "LLVM overloads llvm.aarch64.neon.faddp on any "
    "vector type, so MLIR 22 translates a faddp of i1 vectors; a floating-point pairwise add "
    "of booleans means nothing, eqsat accepts float elements only",
}
_DIRECTION: dict[tuple[str, str], str] = {
    ("vector.outerproduct", r"operands\[1\] dim0 scalable"): PRINTED,
}
KNOWN: dict[tuple[str, str], tuple[str, str]] = {
    key: (_DIRECTION.get(key, STRICTER), why) for key, why in _WHY.items()
}


def find_opt(version: int, tool: str = "mlir-opt") -> str | None:
    for name in (f"{tool}-{version}", f"/usr/lib/llvm-{version}/bin/{tool}"):
        found = shutil.which(name) or (name if Path(name).is_file() else None)
        if found:
            return found
    return None


def eqsat_accepts(form: Form) -> tuple[bool, str]:
    try:
        parse(form.text, form.name)
    except MLIRError as e:
        return False, str(e).splitlines()[0]
    except Exception as e:  # noqa: BLE001 - a crash is a verdict too (and a bug)
        return False, f"CRASH {type(e).__name__}: {e}"
    return True, ""


def _split_run(cmd: list[str], texts: list[str]) -> str:
    """stdout of ``cmd --split-input-file`` over the texts (each chunk is processed alone)."""
    src = "\n// -----\n".join(texts)
    r = subprocess.run(
        [*cmd, "--split-input-file"], input=src, capture_output=True, text=True, timeout=300
    )
    return r.stdout


def mlir_accepts(
    texts: dict[str, str], version: int, lowered: frozenset[str] = frozenset()
) -> dict[str, bool]:
    """{function name: accepted by MLIR <version>} for one-function modules; the functions
    named in ``lowered`` must also lower to the LLVM dialect and translate to LLVM IR."""
    opt = find_opt(version)
    if opt is None:
        raise RuntimeError(f"mlir-opt-{version} not found")
    translate = find_opt(version, "mlir-translate")
    if lowered and translate is None:
        raise RuntimeError(f"mlir-translate-{version} not found")
    names = list(texts)
    out: dict[str, bool] = {}
    for i in range(0, len(names), BATCH):
        chunk = names[i : i + BATCH]
        ok = set(_FUNC.findall(_split_run([opt], [texts[n] for n in chunk])))
        deep = [n for n in chunk if n in ok and n in lowered]
        if deep:
            llvm = _split_run([opt, *LOWER], [texts[n] for n in deep])
            translated = set(_DEFINE.findall(_split_run([translate, "--mlir-to-llvmir"], [llvm])))
            ok -= set(deep) - translated
        out.update({n: n in ok for n in chunk})
    return out


@dataclass
class Disagreement:
    form: Form
    ours: bool
    detail: str
    known: str | None = None
    direction: str = ""  # STRICTER, LOOSER or PRINTED


@dataclass
class Report:
    forms: int = 0
    both_accept: int = 0
    both_reject: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def unknown(self) -> list[Disagreement]:
        return [d for d in self.disagreements if d.known is None]

    def line(self) -> str:
        k = len(self.disagreements)
        listed = k - len(self.unknown)
        return (
            f"{self.forms} forms, {self.both_accept} accepted by both, {self.both_reject} "
            f"rejected by both, {k} disagreements ({listed} listed in the README, "
            f"{len(self.unknown)} not)"
        )


def known(form: Form, direction: str) -> str | None:
    """Why ``form`` disagrees in ``direction``, if KNOWN lists it so (None: a bug)."""
    for (op, what), (way, why) in KNOWN.items():
        if form.op == op and re.match(what, form.what) and way == direction:
            return why
    return None


def compare(forms: list[Form]) -> Report:
    rep = Report(forms=len(forms))
    ours = {f.name: eqsat_accepts(f) for f in forms}
    theirs: dict[str, bool] = {}
    lowered = frozenset(f.name for f in forms if end_to_end(f.op))
    for version in sorted({f.version for f in forms}):
        texts = {f.name: f.text for f in forms if f.version == version}
        theirs.update(mlir_accepts(texts, version, lowered))
    printed: dict[int, dict[str, str]] = {}
    for f in forms:
        ok, detail = ours[f.name]
        if ok and theirs[f.name]:
            printed.setdefault(f.version, {})[f.name] = print_module(
                parse(f.text, f.name), version=f.version
            )
        elif ok == theirs[f.name]:
            rep.both_reject += 1
        else:
            way = LOOSER if ok else STRICTER
            why = way if ok else f"{way}: {detail}"
            rep.disagreements.append(Disagreement(f, ok, why, known(f, way), way))
    by_name = {f.name: f for f in forms}
    for version, texts in printed.items():
        for name, accepted in mlir_accepts(texts, version, lowered).items():
            if accepted:
                rep.both_accept += 1
            else:
                f = by_name[name]
                rep.disagreements.append(
                    Disagreement(f, True, PRINTED, known(f, PRINTED), PRINTED)
                )
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true", help="list every disagreement")
    ap.add_argument("--op", help="only forms of this op")
    ap.add_argument("--every", type=int, default=1, help="only every N-th form")
    args = ap.parse_args(argv)
    forms = generate()[:: args.every]
    if args.op:
        forms = [f for f in forms if f.op == args.op]
    rep = compare(forms)
    print(rep.line())
    per_op = Counter(d.form.op for d in rep.unknown)
    for op, n in per_op.most_common():
        print(f"  {op}: {n}")
    if args.show:
        for d in rep.disagreements:
            tag = f"[known: {d.known}]" if d.known else f"[not listed in direction {d.direction}]"
            print(f"--- {d.form.op} / {d.form.what}: {d.detail} {tag}")
            print(d.form.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
