"""Experiments: the study scripts (each run as ``python experiments/NAME.py`` from the
repository root) and their library, ``experiments.lib``.

Modules that moved into ``experiments.lib`` stay importable under their old names
(``experiments.kernel_variants`` is ``experiments.lib.kernel_variants``), so that scripts and
notebooks written against those names keep working.
"""

import importlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType

MOVED = frozenset(
    {
        "fuzz_shrink",
        "fuzz_tally",
        "kernel_variants",
        "kernels",
        "plot_style",
        "provenance",
        "scaling_programs",
        "tuning_runs",
        "verifier_forms",
    }
)


class _MovedLoader(importlib.abc.Loader):
    """Loads an old name as the ``experiments.lib`` module itself (one module, two names)."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(f"{__name__}.lib.{spec.name.rpartition('.')[2]}")

    def exec_module(self, module: ModuleType) -> None:
        pass


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: object, target: object = None) -> object:
        head, _, name = fullname.rpartition(".")
        if head != __name__ or name not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, _MovedLoader())


if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
    sys.meta_path.append(_MovedFinder())
