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
core does not load the targets or LLVM. The modules behind ``optimize`` and ``interpret`` are
``eqsat.optimizer`` (``optimize_module``: the saturation report and the e-graph) and
``eqsat.interpreter`` (``Interpreter``).
"""

from __future__ import annotations

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
        from eqsat.version import version

        return version()
    raise AttributeError(f"module 'eqsat' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
