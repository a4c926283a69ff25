"""A run spec: everything one run depends on, as plain data.

Specs are frozen and JSON-able, so they travel to any executor (pickled to a process pool,
Dask or Ray worker) and their canonical JSON is the key by which a rerun recognises a run
that already has a record. The run function is named, not passed (``"module:function"``), so
a spec stays data and a worker imports the same code the driver would run.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

DEFAULT_PHASES = ("canonicalize", "explore")


@dataclass(frozen=True)
class Spec:
    """One run. ``params`` are the study's own inputs (kernel, size, ...); the other fields are
    what every study shares and every record states.

    - ``run``: ``"package.module:function"``, called as ``function(spec) -> dict``.
    - ``target``: a target name of ``costs/`` (or None for the target-independent VV model).
    - ``phases``/``fast_math``/``extra_rules``: which rule files the run uses (hashed in the
      record); ``costs``: a cost-file path overriding the target's own file.
    - ``budget``: saturation limits (``eqsat.optimizer.Budget`` fields).
    """

    study: str
    run: str
    params: Mapping[str, Any] = field(default_factory=dict)
    target: str | None = None
    phases: tuple[str, ...] = DEFAULT_PHASES
    fast_math: bool = False
    extra_rules: tuple[str, ...] = ()
    costs: str | None = None
    budget: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    def __post_init__(self) -> None:
        if ":" not in self.run:
            raise ValueError(f"spec run must be 'module:function', got {self.run!r}")
        object.__setattr__(self, "phases", tuple(self.phases))
        object.__setattr__(self, "extra_rules", tuple(self.extra_rules))
        # Round-trip through JSON: params must be plain data, and equal specs must compare equal.
        object.__setattr__(self, "params", json.loads(_canonical(dict(self.params))))
        object.__setattr__(self, "budget", json.loads(_canonical(dict(self.budget))))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["phases"], d["extra_rules"] = list(self.phases), list(self.extra_rules)
        return d

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> Spec:
        return Spec(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})

    @property
    def key(self) -> str:
        """A stable hash of the whole spec: equal specs, equal keys, on any machine."""
        return hashlib.sha256(_canonical(self.to_dict()).encode()).hexdigest()[:16]

    def function(self) -> Callable[[Spec], Mapping[str, Any]]:
        module, _, name = self.run.partition(":")
        fn = importlib.import_module(module)
        for part in name.split("."):
            fn = getattr(fn, part)
        return fn  # type: ignore[return-value]


def _canonical(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)
