"""The targets floor: per-target files (``costs/*.toml``), their cost models and the HWV level.

Imports run one way: this floor reads the frontend and the e-graph core, never the reverse.
"""

from eqsat.targets.target import Target, TargetError, builtin_targets, load_target

__all__ = ["Target", "TargetError", "builtin_targets", "load_target"]
