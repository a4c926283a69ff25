"""What alignment versioning costs at compile time: LLVM's O3 and code generation of eqsat's
code for cost-corpus kernels, with the target's ``align_versioning`` and with it off.

    python experiments/align_compile_time.py dot_64_f32 chain_16x128_f64 --target x86-64-v2 \
        [--repeat 3] [--out experiments/results/align_compile_time]

Each kernel is optimized once (the target's HWV level, as ``eqsat.bench.run.eqsat_llvm_ir``);
its LLVM IR is emitted both ways and each is compiled to assembly ``--repeat`` times in turn
(the minimum is reported: the machine may be shared). Also reported: the body's size as the
bound counts it (``eqsat.codegen.align_version.body_size``) and the assembly's lines.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from eqsat.codegen import emit_llvm_ir, jit  # noqa: E402
from eqsat.codegen.align_version import body_size  # noqa: E402
from eqsat.optimizer import optimize_module  # noqa: E402
from eqsat.targets import load_target  # noqa: E402
from experiments.cost_corpus import corpus  # noqa: E402
from experiments.lib.provenance import markdown_header  # noqa: E402
from frontend import parse  # noqa: E402


def measure(name: str, target_name: str, repeat: int) -> dict:
    """Times (s, minimum over ``repeat``) and assembly lines of one kernel, versioned or not."""
    target = load_target(target_name)
    off = dataclasses.replace(target, align_versioning=0)
    found = dict(corpus()).get(name)
    if found is None:
        raise SystemExit(f"align_compile_time.py: error: {name}: no such cost-corpus kernel")
    module = optimize_module(parse(found, name), target=target, emit="hwv").module
    func = next(op for op in module.ops if op.name == "func.func")
    irs = {"versioned": emit_llvm_ir(module, target), "off": emit_llvm_ir(module, off)}
    times: dict[str, list[float]] = {k: [] for k in irs}
    lines = {}
    for _ in range(repeat):
        for k, ir in irs.items():
            start = time.perf_counter()
            asm = jit.emit_assembly(ir, target)
            times[k].append(time.perf_counter() - start)
            lines[k] = asm.count("\n")
    return {"kernel": name, "size": body_size(func, target.vector_bits),
            "bound": target.align_versioning, "versioned": "_eqsat_aligned_" in irs["versioned"],
            "seconds": {k: min(v) for k, v in times.items()}, "lines": lines}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="+")
    ap.add_argument("--target", default="x86-64-v2")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=None, help="results path without suffix (.md)")
    args = ap.parse_args(argv)
    rows = [measure(k, args.target, args.repeat) for k in args.kernels]
    out = [f"| kernel | body size (bound {rows[0]['bound']}) | versioned | O3 + asm, versioned "
           "s | off s | asm lines, versioned | off |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        s, n = r["seconds"], r["lines"]
        out.append(f"| {r['kernel']} | {r['size']} | {r['versioned']} | {s['versioned']:.2f} | "
                   f"{s['off']:.2f} | {n['versioned']} | {n['off']} |")
    text = "\n".join(out) + "\n"
    print(text)
    if args.out:
        header = markdown_header()
        Path(args.out + ".md").write_text(
            f"# Alignment versioning: compile time ({args.target})\n\n{header}\n"
            f"Minimum of {args.repeat} compilations each, alternating.\n\n{text}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
