"""Where ``eqsat opt`` spends its CPU time on issue 20's programs: CPU seconds per phase of
``eqsat opt FILE --target avx2 --max-memory 4G`` on ``straight_line(N)``, in this process.

Why: ``--stats`` (and ``experiments/opt_time.py``, which quotes it) times the phases in wall
seconds, which on a shared machine say as much about the other work as about ours. Here each
phase's function is wrapped to add up ``time.process_time()`` (this process's CPU time), so the
figures add up to the run's own CPU time. The wrapping adds a call per phase entry (thousands,
not millions): it does not change the split. Appends one JSON record per run to
``phases.jsonl`` and rewrites ``phases.md`` in ``--out`` (default ``results/scaling-100k``).

Usage: ``python experiments/opt_phases.py --ops 16000``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from experiments.lib.provenance import record  # noqa: E402
from experiments.lib.scaling_programs import straight_line  # noqa: E402
from experiments.opt_time import log_record  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "experiments" / "results" / "scaling-100k"

# (module, attribute, phase): the functions each phase runs in, looked up at call time by
# their callers (so wrapping the module attribute times every call). ``refine`` runs inside
# ``_extract_root`` and is reported as part of it.
PHASES = (
    ("eqsat.commands", "parse", "parse + verify input"),
    ("eqsat.encode", "Encoder.encode_block", "encode (Python)"),
    ("eqsat.optimizer", "_load", "encode (egglog load)"),
    ("eqsat.optimizer", "saturate", "saturate"),
    ("eqsat.optimizer", "Snapshot", "extract: read e-graph"),
    ("eqsat.optimizer", "_extract_root", "extract: greedy + refine"),
    ("eqsat.extract_refine", "refine", "  of which refine"),
    ("eqsat.decode", "Decoder.decode_block", "decode"),
    ("eqsat.optimizer", "_verify", "verify output"),
    ("eqsat.commands", "print_module", "print"),
)


def _wrap(spent: Counter[str], module: str, attr: str, phase: str) -> None:
    owner: Any = importlib.import_module(module)
    *path, name = attr.split(".")
    for part in path:
        owner = getattr(owner, part)
    inner: Callable[..., Any] = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        t = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[phase] += time.process_time() - t

    setattr(owner, name, timed)


def measure(ops: int, budget: str = "4G") -> dict[str, Any]:
    """CPU seconds per phase of one ``eqsat opt`` run on ``straight_line(ops)`` (in process:
    run it in a fresh process to keep the wrapping out of other work)."""
    from eqsat.cli import main

    spent: Counter[str] = Counter()
    for module, attr, phase in PHASES:
        _wrap(spent, module, attr, phase)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / f"straight{ops}.mlir", Path(tmp) / "out.mlir"
        src.write_text(straight_line(ops))
        t0 = time.process_time()
        # one process: a second one extracting windows ahead (eqsat.ahead) would take its
        # phases' time out of this process's count
        rc = main(["opt", str(src), "--target", "avx2", "--max-memory", budget,
                   "--single-process", "-o", str(dst)])  # fmt: skip
        total = time.process_time() - t0
        lines = sum(1 for _ in dst.open()) if dst.exists() else 0
    named = sum(v for k, v in spent.items() if not k.startswith(" "))
    phases = {phase: round(spent[phase], 2) for _, _, phase in PHASES}
    phases["other"] = round(total - named, 2)
    return {"ops": ops, "budget": budget, "returncode": rc, "cpu_s": round(total, 2),
            "phases_cpu_s": phases, "output_lines": lines}  # fmt: skip


def markdown(records: list[dict[str, Any]]) -> str:
    names = [phase for _, _, phase in PHASES] + ["other"]
    rows = ["| commit | ops | CPU s | " + " | ".join(n.strip() for n in names) + " |",
            "|" + "---|" * (len(names) + 3)]  # fmt: skip
    for r in records:
        git = r["provenance"]["git"]
        commit = (git["commit"] or "?")[:7] + ("+" if git["dirty"] else "")
        if not git["commit"] and r.get("tree"):  # a copy of a commit outside git
            commit = r["tree"]
        cells = [str(r["phases_cpu_s"].get(n, "")) for n in names]
        rows.append(f"| {commit} | {r['ops']:,} | {r['cpu_s']} | " + " | ".join(cells) + " |")
    return "\n".join([
        "# CPU seconds per phase of `eqsat opt --target avx2 --max-memory 4G`",
        "",
        "Measured in process (`time.process_time()` around each phase's function; `of which",
        "refine` is part of `greedy + refine`; `other`: the rest of the run after the imports,",
        "mostly the encoder's bookkeeping and the CLI). A `+` after the commit: the tree had",
        "changes not committed.",
        "",
        *rows,
        "",
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=16_000)
    ap.add_argument("--budget", default="4G", help="--max-memory of the run (default 4G)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rec = {"provenance": record(), **measure(args.ops, args.budget)}
    log_record(rec, args.out / "phases.jsonl", args.out / "phases.md", markdown)
    return 0 if rec["returncode"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
