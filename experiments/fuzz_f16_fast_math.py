"""How many generated f16 programs the fast-math stages compare, under the range rule of
``experiments/lib/fuzz_tally.py`` (``range_limit``: sqrt(max / SUM_TERMS)) and under the
fixed share of the type's largest value it replaced (2^-24 of it: 0.004 for f16), and what
the comparisons found.

    python experiments/fuzz_f16_fast_math.py --n 400 --seed 11 [--out FILE]

Only programs with an f16 value and a defined result on the ordinary-values input count;
the fast-math stages (``fuzz.variants()`` with ``fast_math``) run on each of them.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script

from experiments import fuzz  # noqa: E402
from experiments.lib.fuzz_tally import Tally, float_constants, near_range  # noqa: E402
from experiments.lib.provenance import markdown_header  # noqa: E402

OLD_SHARE = 2.0**-24  # the rule before: a value above this share of its type's largest one


def _old_near(values: list) -> bool:
    for v in values:
        a = np.asarray(v) if not isinstance(v, str) else None
        if a is None or not np.issubdtype(a.dtype, np.floating) or not a.size:
            continue
        finite = np.abs(a[np.isfinite(a)]).astype(np.float64)
        if finite.size and finite.max() > float(np.finfo(a.dtype).max) * OLD_SHARE:
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).parent / "results" / "fuzz" / "f16_fast_math.md")
    args = ap.parse_args(argv)
    stages = [v for v in fuzz.variants() if v.fast_math]
    tally, counts, findings = Tally(), Counter(), []
    for text, seed in fuzz.generate(args.n, args.seed):
        if "f16" not in text:
            continue
        case = fuzz._prepare(text, seed, findings)
        if case is None or not case.ordinary:
            continue
        values = [*case.trials[0][0], *case.trials[0][1], *float_constants(case.module)]
        counts["programs"] += 1
        counts["old rule"] += not _old_near(values)
        counts["range_limit"] += not near_range(values)
        for v in stages:
            findings += fuzz._check_one(case, v, tally)
    lines = [
        "# f16 programs the fast-math stages compare",
        "",
        markdown_header(),
        f"{args.n} generated programs (seed {args.seed}); {counts['programs']} hold f16 and "
        "are defined on the ordinary-values input.",
        "",
        "| rule | compared | left out |",
        "|---|---|---|",
        f"| 2^-24 of the largest value (before) | {counts['old rule']} | "
        f"{counts['programs'] - counts['old rule']} |",
        f"| `range_limit`: sqrt(max / 32) (now) | {counts['range_limit']} | "
        f"{counts['programs'] - counts['range_limit']} |",
        "",
        "Stage by stage (now; a compiled stage also leaves out its own ops, by name):",
        "",
        "| stage | compared | mismatches and crashes |",
        "|---|---|---|",
        *(f"| {v.name} | {tally.compared[v.name]} | "
          f"{sum(1 for f in findings if f.stage == v.name)} |" for v in stages),
        "",
        "Left out, by reason (per stage): "
        + "; ".join(f"{s}: " + ", ".join(f"{r} ({n})" for r, n in c.items())
                    for s, c in tally.excluded.items()),
    ]  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
