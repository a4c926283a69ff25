"""The declared constraints of an op spec, compiled into one predicate for the verifier.

``verifier.verify_op`` checks every op against its spec: operand and result counts, their
type constraints, the attributes' kinds. For each spec this module generates a small Python
function (see ``CompiledChecks.source``) that does those checks with everything that depends
only on the spec worked out in advance. It answers True when all of them hold; False sends
the op to the general checks, which find (and report) the broken rule, so it may say False
for a valid op but never True for an invalid one.

Checks are pure functions of immutable values, so each check remembers the last type (or
attribute) object that passed it: the next op of the spec usually has that very object (the
parser shares them), and is checked by one identity test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from frontend.ops.spec import ANY, OPTIONAL, SINGLE, OpSpec


class CompiledChecks:
    __slots__ = ("passes", "source", "spec")

    def __init__(self, spec: OpSpec, verify_operands: Callable[[Any, OpSpec], None]) -> None:
        self.spec = spec
        gen = _Generator(spec)
        if spec.segmented:  # sizes come from an attribute: the general check (it raises)
            gen.env["verify_operands"] = verify_operands
            gen.lines.append("verify_operands(op, spec)")
        else:
            gen.values("op.operands", spec.operands, upper_bound=True)
        gen.values("op.results", spec.results, upper_bound=False)
        gen.attributes()
        self.source = gen.source()
        namespace = dict(gen.env)
        exec(compile(self.source, f"<checks of {spec.name}>", "exec"), namespace)
        self.passes: Callable[[Any], bool] = namespace["passes"]


class _Generator:
    def __init__(self, spec: OpSpec) -> None:
        self.spec = spec
        self.lines: list[str] = []
        self.seen: list[Any] = []  # per check, the last object that passed it
        self.env: dict[str, Any] = {"spec": spec, "seen": self.seen}

    def _check(self, check: Callable[[Any], bool], value: str, indent: str = "") -> None:
        """``value`` (an expression naming a type or attribute) must pass ``check``."""
        k = len(self.seen)
        self.seen.append(None)
        self.env[f"check_{k}"] = check
        self.lines += [
            f"{indent}x = {value}",
            f"{indent}if x is not seen[{k}]:",
            f"{indent}    if not check_{k}(x):",
            f"{indent}        return False",
            f"{indent}    seen[{k}] = x",
        ]

    def values(self, values: str, groups: tuple[Any, ...], upper_bound: bool) -> None:
        """Count and types of the operands or results, as ``verifier._verify_operands`` and
        ``_verify_results`` size the groups: one value per single group, the rest to the one
        optional or variadic group (an optional one takes at most one, for operands)."""
        flexible = [i for i, g in enumerate(groups) if g.kind != SINGLE]
        n = len(groups)
        self.lines.append(f"values = {values}")
        if len(flexible) > 1:
            self.lines.append("return False")  # the general check sizes those
            return
        if not flexible:
            self.lines.append(f"if len(values) != {n}: return False")
            for i, g in enumerate(groups):
                if g.constraint is not ANY:
                    self._check(g.constraint.check, f"values[{i}].type")
            return
        k = flexible[0]
        at_most = upper_bound and groups[k].kind == OPTIONAL
        self.lines.append("n = len(values)")
        self.lines.append(f"if n < {n - 1}{f' or n > {n}' if at_most else ''}: return False")
        for i, g in enumerate(groups):
            if i != k and g.constraint is not ANY:  # before the group from the start, after
                self._check(g.constraint.check, f"values[{i if i < k else i - n}].type")
        if groups[k].constraint is not ANY:
            self.lines.append(f"for v in values[{k}:n - {n - 1 - k}]:")
            self._check(groups[k].constraint.check, "v.type", "    ")

    def attributes(self) -> None:
        """As ``verifier._verify_attributes``: a required one is there, each one present is of
        its kind."""
        if not self.spec.attrs:
            return
        self.lines.append("attrs = op.attributes")
        for d in self.spec.attrs:
            self.lines.append(f"a = attrs.get({d.name!r})")
            if not d.optional and d.default is None:
                self.lines.append("if a is None: return False")
            self.lines.append("if a is not None:")
            self._check(d.kind.check, "a", "    ")

    def source(self) -> str:
        body = "".join(f"    {line}\n" for line in [*self.lines, "return True"])
        return "def passes(op):\n" + body
