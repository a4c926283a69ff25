"""LLVM's command-line options for one compile: the target file's (scheduler direction) and the
matrix intrinsics' layout.

llvmlite exposes them only as process-wide options (``llvm.set_option``), so they belong to a
process: the benchmark compiles each set of options in its own child process
(``eqsat.bench.worker``), setting them once. ``apply`` records what the process runs under;
code that prints or compiles later can check ``current()`` instead of trusting whatever was set
last.
"""

from __future__ import annotations

from dataclasses import dataclass

from eqsat.targets import Target
from eqsat.targets.target import SCHEDULES

MATRIX_LAYOUTS = ("row-major", "column-major")


@dataclass(frozen=True)
class LlvmOptions:
    """The options one compile runs under (hashable: the benchmark groups variants by them)."""

    schedule: str = SCHEDULES[0]  # -misched-prera-direction
    matrix_layout: str = "row-major"  # -matrix-default-layout (llvm.matrix.* intrinsics)

    @classmethod
    def of(cls, target: Target, matrix_layout: str = "row-major") -> LlvmOptions:
        """The target file's options (every variant benchmarked on it compiles under these)."""
        return cls(target.schedule, matrix_layout)

    def argv(self) -> list[str]:
        return [
            f"-misched-prera-direction={self.schedule}",
            f"--matrix-default-layout={self.matrix_layout}",
        ]

    def label(self) -> str:
        return f"schedule={self.schedule} matrix={self.matrix_layout}"


_CURRENT: list[LlvmOptions] = []


def apply(options: LlvmOptions) -> None:
    """Set ``options`` process-wide (a no-op when they are already set)."""
    from llvmlite import binding as llvm

    if _CURRENT and _CURRENT[0] == options:
        return
    for flag in options.argv():
        llvm.set_option("", flag)
    _CURRENT[:] = [options]


def current() -> LlvmOptions | None:
    """The options this process last set with ``apply`` (None before any)."""
    return _CURRENT[0] if _CURRENT else None
