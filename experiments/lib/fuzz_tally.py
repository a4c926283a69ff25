"""What a fuzz campaign exercised and what it left out, program by program.

``Tally`` counts, for every lowering strategy of ``eqsat.strategy_kit.STRATEGIES`` and every
code generator lowering of ``eqsat.codegen.table.LOWERINGS``, how many generated programs
used it (a strategy: chosen by an optimizing stage's extraction, any round; a lowering: an op
of that name in a module a compiled stage compiled), and, per stage, how many programs were
left out of the comparison and why (``compiled_exclusions`` names the op at fault).

Fast-math stages are compared within ``FAST_MATH_ULPS`` ulps of the largest finite magnitude
among the inputs and the reference results (``close``), on the ordinary-values input only;
where some value is near its type's largest finite value (``near_range``) reassociation may
overflow or cancel to anything, and that comparison is left out, with its reason.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from eqsat import special_values
from frontend.ir import Block, Module, Operation
from frontend.semantics_core import is_float

# A reassociated sum of n terms of magnitude at most S is off by at most about n * eps * S;
# the fuzzer's contractions sum at most 16 products (and an accumulator), so 64 ulps of the
# largest finite output (at least 1) bound it with room for the mixed-in additions.
FAST_MATH_ULPS = 64


def function_of(block: Block) -> str | None:
    """The ``sym_name`` of the ``func.func`` holding ``block`` (None outside a function)."""
    node: Any = block
    while node is not None:
        if isinstance(node, Operation) and node.name == "func.func":
            return str(node.attributes["sym_name"].value)
        node = node.parent
    return None


def _term_ops(term: Any, seen: set[int], out: set[str]) -> None:
    stack = [term]
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        out.add(t.op)
        stack.extend(t.children)


def strategies_used(result: Any) -> dict[str, set[str]]:
    """Function name -> the strategy constructors the extraction chose for it, over every
    round of an ``eqsat.optimizer.OptimizeResult``."""
    from eqsat.strategies import STRATEGIES

    out: dict[str, set[str]] = defaultdict(set)
    for r in (result, *getattr(result, "later_rounds", ())):
        if r.encoder is None:
            continue
        for b in r.encoder.blocks:
            fn = function_of(b.block)
            ex = r.extractions.get(b.index)
            if fn is None or ex is None:
                continue
            ops: set[str] = set()
            _term_ops(ex.term, set(), ops)
            out[fn] |= ops & STRATEGIES.keys()
    return out


def lowerings_used(module: Module) -> dict[str, set[str]]:
    """Function name -> the code generator lowerings (op names of ``LOWERINGS``) its ops use."""
    from eqsat.codegen.table import LOWERINGS

    out: dict[str, set[str]] = {}
    for func in module.ops:
        if func.name != "func.func":
            continue
        name = str(func.attributes["sym_name"].value)
        out[name] = {op.name for op in func.walk() if op.name in LOWERINGS}
    return out


# Why a compiled run of a program is not compared with the interpreter: LLVM leaves these
# results unspecified where the interpreter gives one value.
_POISON = {
    "arith.fptosi": "arith.fptosi: an out-of-range input is poison in LLVM",
    "arith.fptoui": "arith.fptoui: an out-of-range input is poison in LLVM",
}
_NAN_BITS = "bitcast of a float to integers: LLVM leaves a computed NaN's payload unspecified"
_NAN_BITS_OPT = ("bitcast of a float to integers: a computed NaN's payload is unspecified (a "
                 "rule may swap a commutative float op's operands, and x86 keeps the first "
                 "NaN)")  # fmt: skip


def compiled_exclusions(func: Operation) -> list[str]:
    """The reasons (one per kind of op at fault) a compiled run of ``func`` is not compared."""
    reasons = {_POISON[op.name] for op in func.walk() if op.name in _POISON}
    return sorted(reasons | ({_NAN_BITS} if _float_bitcast(func) else set()))


def optimized_exclusions(func: Operation) -> list[str]:
    """The reasons an optimized (interpreted) run of ``func`` is not compared: which NaN a
    float op returns when both operands are NaN is unspecified (the rule checker takes any
    NaN as equal to any NaN), and an integer bitcast shows its payload (found by fuzzing:
    seed 2032, a contraction's sum reordered at the HWV level)."""
    return [_NAN_BITS_OPT] if _float_bitcast(func) else []


def _float_bitcast(func: Operation) -> bool:
    return any(op.name in ("arith.bitcast", "vector.bitcast") and op.operands
               and is_float(_elem(op.operands[0].type)) for op in func.walk())  # fmt: skip


def _elem(t: Any) -> str:
    from frontend.types import elem_code

    return elem_code(getattr(t, "element", t))


# -- fast-math comparison -------------------------------------------------------------------------
_NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)", re.IGNORECASE)
# A reassociated sum adds at most SUM_TERMS terms (the fuzzer's contractions: 16 products
# and an accumulator), each the product of two values. While every value is at most
# sqrt(max / SUM_TERMS) of its type (``range_limit``), every partial sum in every order is
# finite, so the orders differ by rounding only, which the tolerance bounds. Past that, one
# order may overflow where another does not, or cancel to anything: no tolerance bounds it.
# (A fixed share of the largest value, 2^-24 before, left f16 at 0.004: every f16 program
# with a value above it, that is each one, was never compared.)
SUM_TERMS = 32


def range_limit(dtype: Any) -> float:
    """The largest magnitude a value of this float type may have for fast-math comparison."""
    return float(np.sqrt(float(np.finfo(dtype).max) / SUM_TERMS))


def near_range(values: Iterable[Any]) -> bool:
    """Whether some float array among ``values`` holds a finite magnitude past its type's
    ``range_limit``."""
    for v in values:
        a = np.asarray(v) if not isinstance(v, str) else None
        if a is None or not np.issubdtype(a.dtype, np.floating) or not a.size:
            continue
        finite = np.abs(a[np.isfinite(a)]).astype(np.float64)
        if finite.size and finite.max() > range_limit(a.dtype):
            return True
    return False


def float_constants(module: Module) -> list[np.ndarray]:
    """The float ``arith.constant`` values of ``module``, each as an array of its type (a
    constant near the range's end overflows a reassociated product or sum as an input does)."""
    from frontend.semantics_core import dtype_of

    out = []
    for op in module.walk():
        if op.name != "arith.constant":
            continue
        attr = op.attributes.get("value")
        elem = _elem(getattr(attr, "type", None)) if attr is not None else ""
        if not elem or not is_float(elem) or elem == "bf16":
            continue
        raw = getattr(attr, "values", None)
        raw = [getattr(attr, "value", None)] if raw is None else list(raw)
        try:
            out.append(np.array([float(x) for x in raw], dtype=dtype_of(elem)))
        except (TypeError, ValueError, OverflowError):
            continue
    return out


def magnitude(values: Iterable[Any]) -> float:
    """The largest finite float magnitude among ``values`` (at least 1): the scale of the
    terms a reassociated sum adds up, as far as the inputs and the reference results tell."""
    top = 1.0
    for v in values:
        if isinstance(v, str):
            nums = np.array([float(x) for x in _NUMBER.findall(v)] or [0.0])
        else:
            nums = np.asarray(v)
            if not np.issubdtype(nums.dtype, np.floating):
                continue
        nums = np.abs(nums[np.isfinite(nums)]).astype(np.float64)
        if nums.size:
            top = max(top, float(nums.max()))
    return top


def close(want: Any, got: Any, scale: float = 1.0) -> bool:
    """Equal within ``FAST_MATH_ULPS`` ulps of ``scale`` (at least the largest finite
    magnitude of ``want``): floats, also in printed output (whose other text must be equal);
    integers exactly; NaN equals any NaN, an infinity only itself."""
    if isinstance(want, str) or isinstance(got, str):
        if not (isinstance(want, str) and isinstance(got, str)):
            return False
        if _NUMBER.sub("#", want) != _NUMBER.sub("#", got):
            return False
        a = np.array([float(x) for x in _NUMBER.findall(want)])
        b = np.array([float(x) for x in _NUMBER.findall(got)])
        # printed floats carry six significant digits at least
        return _within(a, b, max(1e-5, FAST_MATH_ULPS * 2.0**-23), scale)
    a, b = np.asarray(want), np.asarray(got)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if not np.issubdtype(a.dtype, np.floating):
        return special_values.same_bits(a, b)
    eps = FAST_MATH_ULPS * float(np.finfo(a.dtype).eps)
    return _within(a.astype(np.float64), b.astype(np.float64), eps, scale)


def _within(a: np.ndarray, b: np.ndarray, tol: float, scale: float) -> bool:
    if a.shape != b.shape:
        return False
    scale = max(scale, magnitude([a]))
    same_class = (np.isnan(a) == np.isnan(b)) & (np.isinf(a) == np.isinf(b))
    if not same_class.all() or not (a[np.isinf(a)] == b[np.isinf(b)]).all():
        return False
    ok = np.isfinite(a)
    return bool((np.abs(a[ok] - b[ok]) <= tol * scale).all())


# -- the tally ------------------------------------------------------------------------------------
@dataclass
class Tally:
    """Programs per strategy, per lowering, and per (stage, reason) left out."""

    programs: int = 0
    strategies: Counter[str] = field(default_factory=Counter)
    lowerings: Counter[str] = field(default_factory=Counter)
    excluded: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    compared: Counter[str] = field(default_factory=Counter)  # stage -> programs compared
    seconds: Counter[str] = field(default_factory=Counter)  # stage -> time spent (batches)

    def add_batch(self, strategies: Iterable[set[str]], lowerings: Iterable[set[str]]) -> None:
        """One batch's per-program sets (each program counted once per name)."""
        for s in strategies:
            self.strategies.update(s)
        for s in lowerings:
            self.lowerings.update(s)

    def to_json(self) -> dict[str, Any]:
        """The tally as plain JSON values (a campaign's state file keeps it between runs)."""
        return {"programs": self.programs, "strategies": dict(self.strategies),
                "lowerings": dict(self.lowerings),
                "excluded": {k: dict(v) for k, v in self.excluded.items()},
                "compared": dict(self.compared), "seconds": dict(self.seconds)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        tally = cls(programs=int(data["programs"]), strategies=Counter(data["strategies"]),
                    lowerings=Counter(data["lowerings"]), compared=Counter(data["compared"]),
                    seconds=Counter(data["seconds"]))
        for stage, reasons in data["excluded"].items():
            tally.excluded[stage].update(reasons)
        return tally

    def merge(self, other: Tally) -> None:
        """Add another tally's counts (a batch checked in a worker process)."""
        self.programs += other.programs
        for mine, theirs in ((self.strategies, other.strategies),
                             (self.lowerings, other.lowerings),
                             (self.compared, other.compared), (self.seconds, other.seconds)):
            mine.update(theirs)
        for stage, reasons in other.excluded.items():
            self.excluded[stage].update(reasons)

    def exclude(self, stage: str, reasons: list[str]) -> None:
        for r in reasons:
            self.excluded[stage][r] += 1

    def exclusion_lines(self) -> list[str]:
        """``stage: N programs not compared`` lines, each reason with its count."""
        out = []
        for stage in sorted(self.excluded):
            for reason, n in sorted(self.excluded[stage].items(), key=lambda kv: -kv[1]):
                out.append(f"{stage}: {n} programs not compared ({reason})")
        return out

    def report(self, header: list[str]) -> str:
        """The coverage report (markdown): every strategy and lowering, used or not."""
        from eqsat.codegen.table import LOWERINGS
        from eqsat.strategies import STRATEGIES

        lines = [*header, "", f"**{self.programs} programs**", "",
                 "## Lowering strategies chosen by an optimizing stage (programs)", "",
                 "| strategy | programs |", "|---|---|"]
        lines += [f"| `{name}` | {self.strategies[name]} |" for name in STRATEGIES]
        never = [n for n in STRATEGIES if not self.strategies[n]]
        lines += ["", f"never chosen: {', '.join(never) if never else 'none'}", "",
                  "## Code generator lowerings run by a compiled stage (programs)", "",
                  "| lowering (op) | programs |", "|---|---|"]
        lines += [f"| `{name}` | {n} |" for name, n in sorted(self.lowerings.items())]
        unused = sorted(set(LOWERINGS) - set(self.lowerings))
        lines += ["", f"{len(self.lowerings)} of {len(LOWERINGS)} lowerings ran; never: "
                  + (", ".join(f"`{n}`" for n in unused) or "none"), "",
                  "## Programs left out of a stage's comparison, by reason", ""]
        lines += [f"- {line}" for line in self.exclusion_lines()] or ["- none"]
        lines += ["", "Programs compared per stage: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(self.compared.items())), "",
                  "Seconds per stage (whole batches, the loaded machine's wall clock): "
                  + ", ".join(f"{k} {v:.0f}" for k, v in self.seconds.most_common())]
        return "\n".join(lines) + "\n"
