"""Run a sweep written as data: a file of specs in, a file of records out.

    python experiments/sweep.py SPECS.json --out RECORDS.jsonl [--cluster ADDR] [--workers N]
    python experiments/sweep.py SPECS.json --out RECORDS.jsonl --print-specs

``SPECS.json`` is a JSON list of spec objects, or JSON lines with one spec per line; each has
the fields of ``experiments.sweeplib.Spec`` (``study`` and ``run`` required), e.g.

    {"study": "scaling", "run": "experiments.scaling:run", "target": "avx2",
     "params": {"family": "contract", "size": 64, "repeat": 3}}

Rerunning resumes: specs with a record in ``RECORDS.jsonl`` are skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.sweeplib import Spec, run_sweep  # noqa: E402
from experiments.sweeplib.runner import add_sweep_arguments, executor_from_args  # noqa: E402


def read_specs(path: Path) -> list[Spec]:
    """Specs from a JSON list or JSON lines; errors name the file and line."""
    text = path.read_text(encoding="utf-8")
    items: list[tuple[int, Any]]
    if text.lstrip().startswith("["):
        try:
            items = [(1, item) for item in json.loads(text)]
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{e.lineno}:{e.colno}: error: {e.msg}") from None
    else:
        items = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    items.append((n, json.loads(line)))
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}:{n}:{e.colno}: error: {e.msg}") from None
    specs = []
    for n, item in items:
        try:
            specs.append(Spec.from_dict(item))
        except (TypeError, ValueError) as e:
            raise ValueError(f"{path}:{n}:1: error: bad spec: {e}") from None
    return specs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", type=Path, help="JSON list or JSON lines of specs")
    ap.add_argument("--out", type=Path, required=True, help="record file (JSON lines)")
    ap.add_argument("--print-specs", action="store_true", help="print keys and specs, run none")
    add_sweep_arguments(ap)
    args = ap.parse_args(argv)
    try:
        specs = read_specs(args.specs)
    except OSError as e:
        print(f"error: cannot read {args.specs}: {e.strerror}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(e, file=sys.stderr)
        return 1
    if args.print_specs:
        for s in specs:
            print(s.key, json.dumps(s.to_dict(), sort_keys=True))
        return 0
    if args.fresh:
        args.out.unlink(missing_ok=True)
    result = run_sweep(specs, args.out, executor_from_args(args), progress=not args.no_progress)
    print(
        f"{result.ran} runs now ({result.failed} failed), {result.skipped} from earlier records"
        f" -> {args.out}"
    )
    return 1 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
