"""eqsat: equality saturation for MLIR's vector dialect.

The Python front door (``eqsat.api``)::

    import eqsat
    module = eqsat.parse(text)                          # parse and verify MLIR text
    better = eqsat.optimize(module, target="avx2")      # equality saturation, per target
    program = eqsat.compile(better, target="avx2")      # LLVM JIT (optimize=True does both)
    program.f(x, y)                                     # numpy in, numpy out
    eqsat.interpret(better, "f", x, y)                  # the numpy reference interpreter

``compile`` and ``eqsat run`` do not optimize unless asked. Targets are names (``eqsat
targets`` lists them), target files or ``eqsat.targets.Target`` objects.

The front door is looked up on first use (module ``__getattr__``), so importing the e-graph
core does not load the targets or LLVM. ``eqsat.optimize`` and ``eqsat.interpret`` are also the
names of modules (``from eqsat.optimize import optimize_module`` still works): the package keeps
the front door's functions under those names when the modules are imported.
"""

from __future__ import annotations

import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing is not imported at run time: see eqsat.entry)
    from typing import Any

FRONT_DOOR = ("parse", "optimize", "compile", "interpret")
__all__ = [*FRONT_DOOR, "__version__"]


def __getattr__(name: str) -> Any:
    if name in FRONT_DOOR:
        from eqsat import api

        return getattr(api, name)
    if name == "__version__":
        from eqsat.api import version

        return version()
    raise AttributeError(f"module 'eqsat' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The ``eqsat`` package: importing submodule ``eqsat.optimize`` (or ``eqsat.interpret``)
    does not replace the front door's function of that name (the submodule stays reachable
    through ``sys.modules`` and ``from eqsat.optimize import ...``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in FRONT_DOOR and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
