"""MLIR's own CPU vector integration tests, run through eqsat.

    python experiments/mlir_integration.py DIR [--targets avx2,x86-64-v2] [--out DIR]
                                           [--quick] [--all] [--timeout S] [--jobs N]

DIR is a directory of lit tests in MLIR's style (llvm-project's
``mlir/test/Integration/Dialect/Vector/CPU``; they are not part of this project: point this
at a checkout). For each ``*.mlir`` file (subdirectories only with ``--all``; MLIR keeps its
target-specific tests, ArmSME, ArmSVE, AMX, X86, ... there) the RUN lines give the entry
function and the FileCheck prefixes, or a reason to skip the file. Then our interpreter runs
it; if our frontend rejects it the file is ``unsupported``; if the interpreter's output fails
the CHECK lines it is ``interp-fail``; else it ``pass``es, and each compiled target
(through eqsat's e-graph at the target's hardware level, then LLVM) must pass the CHECK
lines too and print the interpreter's bytes. MLIR 22 runs the file's own RUN pipeline where
installed. ``--quick`` leaves the MLIR stage out and lowers the timeout to 20 s.

Writes ``records.jsonl`` (one object per file), ``mlir_integration.md`` (a table and the
summary, with the files' llvm-project revision: ``experiments/integration/corpus.py``
extracts the directory from a checkout at a tag and records it) under ``--out`` and prints
the summary line.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.integration.runner import Record, Stage, run_file  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
DEFAULT_TARGETS = ("avx2", "x86-64-v2")


def test_files(root: Path, recurse: bool) -> list[Path]:
    """The test files of ``root``, sorted (subdirectories only when ``recurse``)."""
    pattern = "**/*.mlir" if recurse else "*.mlir"
    return sorted(p for p in root.glob(pattern) if p.is_file())


def host_targets(names: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, str]]:
    """The targets this host runs, and why each other one is left out."""
    from eqsat.targets import load_target

    runs, why = [], {}
    for n in names:
        try:
            if load_target(n).runs_on_host():
                runs.append(n)
            else:
                why[n] = "this host cannot run it"
        except Exception as e:  # an unknown target name: say so, run the others
            why[n] = f"cannot load target: {e}"
    return tuple(runs), why


def _cell(st: Stage) -> str:
    if st.status in ("pass", "fail") and st.same_as_interp is False:
        return f"{st.status} (differs from interp)"
    return st.status


def summary(records: list[Record], targets: tuple[str, ...], left_out: dict[str, str]) -> str:
    """``N files: K interpreter passes, of which avx2 X/K and x86-64-v2 Y/K match`` (a target
    matches when its output passes CHECK and is byte-identical to the interpreter's)."""
    passes = [r for r in records if r.status == "pass"]
    k = len(passes)
    parts = []
    for t in (*targets, *left_out):
        if t in left_out:
            parts.append(f"{t} -/{k} (not run: {left_out[t]})")
            continue
        x = sum(1 for r in passes if r.targets.get(t, Stage()).status == "pass"
                and r.targets[t].same_as_interp)
        parts.append(f"{t} {x}/{k}")
    joined = " and ".join(parts) if len(parts) <= 2 else ", ".join(parts)
    return f"{len(records)} files: {k} interpreter passes, of which {joined} match"


def status_counts(records: list[Record]) -> str:
    c = Counter(r.status for r in records)
    mlir = Counter(r.mlir.status for r in records if r.status != "skipped")
    own = ", ".join(f"{n} {s}" for s, n in sorted(c.items()))
    ref = ", ".join(f"{n} {s}" for s, n in sorted(mlir.items()))
    return f"by status: {own}; mlir-runner-22 on the files not skipped: {ref}"


def _first_clause(reason: str) -> str:
    """The first tool error of an MLIR-stage reason (``own RUN pipeline: exit 1: F:L:C: error:
    ...; -test-lower-to-llvm: ...`` -> ``F:L:C: error: ...``)."""
    m = re.search(r"([\w./-]+:\d+:\d+: error: [^;]*)", reason)
    return (m.group(1) if m else reason)[:140]


def markdown(records: list[Record], targets: tuple[str, ...], lines: list[str]) -> str:
    head = ["file", "status", "interp", *targets, "mlir-22", "reason"]
    out = ["# MLIR CPU vector integration tests through eqsat", "", *lines, "",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in records:
        reason = r.reason
        if r.status == "pass":
            bad = [f"{t}: {r.targets[t].reason or r.targets[t].status}" for t in targets
                   if t in r.targets and r.targets[t].status != "pass"]
            if r.mlir.status in ("fail", "error", "timeout"):
                bad.append(f"mlir-22: {_first_clause(r.mlir.reason)}")
            reason = "; ".join(bad)
        cells = [f"`{r.file}`", r.status, _cell(r.interp) if r.status != "skipped" else "",
                 *[_cell(r.targets[t]) if t in r.targets else "" for t in targets],
                 _cell(r.mlir) if r.status != "skipped" else "",
                 reason.replace("|", "\\|")]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path, help="directory of MLIR integration tests")
    ap.add_argument("--targets", default=",".join(DEFAULT_TARGETS),
                    help="compiled targets, comma-separated (default: avx2,x86-64-v2)")
    ap.add_argument("--out", type=Path, default=None,
                    help="results directory (default: experiments/results/mlir_integration)")
    ap.add_argument("--quick", action="store_true", help="no MLIR stage; 20 s timeout")
    ap.add_argument("--all", action="store_true", help="also the target-specific subdirectories")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per stage (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="files run at once (default 1)")
    args = ap.parse_args(argv)
    from experiments.lib.provenance import markdown_header, record

    # taken before the run: its own results files (tracked) would make the tree look dirty
    prov = markdown_header(record(["experiments/mlir_integration.py",
                                   *(sys.argv[1:] if argv is None else argv)]))
    if not args.dir.is_dir():
        print(f"mlir_integration: error: {args.dir} is not a directory", file=sys.stderr)
        return 2
    if args.jobs < 1 or (args.timeout is not None and args.timeout <= 0):
        print("mlir_integration: error: --jobs and --timeout must be positive", file=sys.stderr)
        return 2
    wanted = tuple(t for t in args.targets.split(",") if t)
    targets, left_out = host_targets(wanted)
    timeout = args.timeout or (20.0 if args.quick else 60.0)
    out_dir = args.out or RESULTS / ("mlir_integration-quick" if args.quick else "mlir_integration")
    files = test_files(args.dir, args.all)
    if not files:
        print(f"mlir_integration: error: no *.mlir files in {args.dir}", file=sys.stderr)
        return 1

    def one(path: Path) -> Record:
        rec = run_file(path, targets, timeout, with_mlir=not args.quick)
        if args.all:
            rec.file = str(path.relative_to(args.dir))
        print(f"{rec.file}: {rec.status}" + (f" ({rec.reason[:100]})" if rec.reason else ""),
              file=sys.stderr, flush=True)
        return rec

    with ThreadPoolExecutor(args.jobs) as pool:
        records = list(pool.map(one, files))
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out_dir / "records.jsonl", "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r.to_json()) + "\n")
    line = summary(records, targets, left_out)
    counts = status_counts(records)
    from experiments.integration.corpus import revision

    rev = revision(args.dir)
    if rev is None:
        print(f"mlir_integration: warning: {args.dir} records no llvm-project revision (extract "
              "it with experiments/integration/corpus.py)", file=sys.stderr)
    origin = "llvm-project revision of the files: " + (
        rev or "not recorded (no LLVM_REVISION file in the directory)")
    command = "python experiments/mlir_integration.py " + " ".join(sys.argv[1:] if argv is None
                                                                    else argv)
    (out_dir / "mlir_integration.md").write_text(
        prov + "\n" + markdown(records, targets, [f"**{line}**", "", counts, "", origin, "",
                                                   f"`{command}`"]),
        encoding="utf-8",
    )
    print(counts)
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
