"""MLIR's own vector dialect tests as outside input: does eqsat take each test case as
``mlir-opt-22`` does, and print back what MLIR reads?

    python experiments/mlir_dialect_tests.py DIR [--out DIR] [--jobs N]

DIR holds llvm-project's ``mlir/test/Dialect/Vector`` (not part of this project: extract it
from a checkout or a release tarball; a ``LLVM_REVISION`` file there, as
``experiments/integration/corpus.py`` writes, is quoted). Each file is split at its
``// -----`` lines, as its RUN lines' ``--split-input-file`` does; each case is read by
``mlir-opt-22 --allow-unregistered-dialect`` and by eqsat's frontend (parse and verify).
A case is:

- ``both``: accepted by both; eqsat's printed form must be accepted by MLIR too
  (``printed-rejected`` otherwise) and read back by eqsat to the same text;
- ``neither``: rejected by both (``invalid.mlir`` is all such cases);
- ``unsupported``: eqsat names an op or type it does not model (another dialect's, a test op);
- ``stricter``: MLIR accepts, eqsat rejects with a located error naming another reason;
- ``looser``: eqsat accepts what MLIR rejects (a bug: eqsat would run a program MLIR calls
  invalid);
- ``crash``: eqsat raised anything but its own located error (a bug).

Writes ``records.jsonl`` and ``mlir_dialect_tests.md`` (counts per file and outcome, every
looser, crash and printed-rejected case, the stricter ones by reason) under ``--out``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.verifier_parity import find_opt  # noqa: E402
from frontend import MLIRError, parse, print_module  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "mlir_dialect_tests"
SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)
#: eqsat's words for an op, type or attribute it does not model: the case is unsupported.
UNSUPPORTED = re.compile(r"unknown (operation|op|type|dialect|attribute)|is not supported|"
                         r"unsupported|not modelled|no such op", re.IGNORECASE)
OUTCOMES = ("both", "neither", "unsupported", "stricter", "looser", "printed-rejected", "crash")
#: Looser cases eqsat takes on purpose (MLIR's words -> why); each is in the README.
KNOWN_LOOSER = {
    "expects a MaskableOpInterface within the mask region": "eqsat also reads MLIR 19's "
    "masked element-wise ops (masked-off lanes are the passthru or 0; tests/test_masks.py)",
}


@dataclass
class Case:
    file: str
    index: int  # the case's place in its file (0-based)
    line: int  # its first line in the file
    outcome: str
    eqsat: str  # eqsat's message ("" when it accepts)
    mlir: str  # MLIR's first error line ("" when it accepts)


def cases(path: Path) -> list[tuple[int, str]]:
    """(first line, text) of each ``// -----`` case of a file."""
    text = path.read_text(encoding="utf-8")
    out, start, line = [], 0, 1
    for m in SPLIT.finditer(text):
        out.append((line, text[start : m.start()]))
        line += text[start : m.end()].count("\n") + 1  # the case starts after the split line
        start = m.end() + 1
    out.append((line, text[start:]))
    return [(ln, t) for ln, t in out if t.strip()]


def mlir_verdict(opt: str, text: str) -> str:
    """"" if ``mlir-opt`` accepts ``text``, else its first error line."""
    try:
        r = subprocess.run([opt, "--allow-unregistered-dialect", "-o", "/dev/null"],
                           input=text, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "timeout"
    if r.returncode == 0:
        return ""
    errors = [ln for ln in r.stderr.splitlines() if "error" in ln]
    return (errors or r.stderr.splitlines() or ["rejected"])[0].strip()


def judge(opt: str, file: str, index: int, line: int, text: str) -> Case:
    mlir = mlir_verdict(opt, text)
    name = f"{file}:case{index}"
    try:
        module = parse(text, name)
    except MLIRError as e:
        msg = str(e).splitlines()[0]
        if mlir:
            outcome = "neither"
        else:
            outcome = "unsupported" if UNSUPPORTED.search(msg) else "stricter"
        return Case(file, index, line, outcome, msg, mlir)
    except RecursionError as e:
        return Case(file, index, line, "crash", f"RecursionError: {e}", mlir)
    except Exception as e:  # noqa: BLE001 - any other exception is a bug, and the finding
        return Case(file, index, line, "crash", f"{type(e).__name__}: {e}", mlir)
    if mlir:
        return Case(file, index, line, "looser", "", mlir)
    try:
        printed = print_module(module)
        again = print_module(parse(printed, name + ":printed"))
    except Exception as e:  # noqa: BLE001
        return Case(file, index, line, "crash", f"printing: {type(e).__name__}: {e}", mlir)
    if again != printed:
        return Case(file, index, line, "crash", "printed form does not read back the same", "")
    back = mlir_verdict(opt, printed)
    if back:
        return Case(file, index, line, "printed-rejected", "", back)
    return Case(file, index, line, "both", "", "")


def _known(r: Case) -> str:
    why = next((w for k, w in KNOWN_LOOSER.items() if k in r.mlir), None)
    return f" (known: {why})" if why and r.outcome == "looser" else ""


def markdown(records: list[Case], origin: str, command: str) -> str:
    per_file: dict[str, Counter[str]] = {}
    for r in records:
        per_file.setdefault(r.file, Counter())[r.outcome] += 1
    total = Counter(r.outcome for r in records)
    lines = ["# MLIR's vector dialect tests through eqsat's frontend", "",
             f"`{command}`", "", origin, "",
             f"**{len(records)} cases in {len(per_file)} files: "
             + ", ".join(f"{total[o]} {o}" for o in OUTCOMES) + "**", "",
             "| file | " + " | ".join(OUTCOMES) + " |", "|---|" + "---|" * len(OUTCOMES)]
    for f in sorted(per_file):
        lines.append(f"| `{f}` | " + " | ".join(str(per_file[f][o]) for o in OUTCOMES) + " |")
    for outcome in ("crash", "looser", "printed-rejected"):
        bad = [r for r in records if r.outcome == outcome]
        lines += ["", f"## {outcome} ({len(bad)})", ""]
        lines += [f"- `{r.file}` case {r.index} (line {r.line}): eqsat: {r.eqsat or 'accepts'};"
                  f" MLIR: {r.mlir or 'accepts'}" + _known(r) for r in bad] or ["none"]
    reasons = Counter(re.sub(r"^.*?error: ", "", r.eqsat)[:90]
                      for r in records if r.outcome == "stricter")
    lines += ["", f"## stricter, by eqsat's reason ({total['stricter']})", ""]
    lines += [f"- {n} x {why}" for why, n in reasons.most_common()] or ["none"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path, help="llvm-project's mlir/test/Dialect/Vector")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--jobs", type=int, default=2, help="cases judged at once (default 2)")
    args = ap.parse_args(argv)
    if not args.dir.is_dir():
        ap.error(f"{args.dir}: not a directory")
    opt = find_opt(22)
    if opt is None:
        print("mlir_dialect_tests: error: mlir-opt-22 not found", file=sys.stderr)
        return 1
    work = [(p.name, i, ln, t) for p in sorted(args.dir.glob("*.mlir"))
            for i, (ln, t) in enumerate(cases(p))]
    if not work:
        ap.error(f"{args.dir}: no *.mlir files")
    with ThreadPoolExecutor(args.jobs) as pool:
        records = list(pool.map(lambda w: judge(opt, *w), work))
    from experiments.integration.corpus import revision
    from experiments.lib.provenance import markdown_header, record

    rev = revision(args.dir)
    origin = "llvm-project revision of the files: " + (rev or "not recorded")
    prov = record(["experiments/mlir_dialect_tests.py", *(sys.argv[1:] if argv is None
                                                          else argv)])
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "records.jsonl", "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(asdict(r)) + "\n")
    (args.out / "mlir_dialect_tests.md").write_text(
        markdown_header(prov) + "\n" + markdown(records, origin, prov["command"]),
        encoding="utf-8")
    total = Counter(r.outcome for r in records)
    print(f"{len(records)} cases: " + ", ".join(f"{total[o]} {o}" for o in OUTCOMES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
