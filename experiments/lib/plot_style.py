"""How the studies' figures look, in one place, so that they can go into a paper: a distinct
colour and marker for every series (beyond matplotlib's ten colours), the legend outside the
axes, eqsat's own choice highlighted, error bars from the measured spread, points the cost
model rules out with a penalty kept off the axes (counted in a note instead), and runs smaller
than the full study labelled as such on the figure itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")  # "*" marks eqsat's choice
LINESTYLES = ("-", "--", ":", "-.")
# Predicted costs at or above this are penalties, not prices (records of earlier cost models
# added 1e6 per register to over-wide ops; a user's table may do the same): drawn, they would
# stretch a log axis over six decades. The shipped model has no penalty (``inf`` forbids).
PENALTY = 1e6


def series_style(i: int) -> dict[str, Any]:
    """Colour, marker and line style of series ``i``: unique for the first 400 series (ten
    colours x ten markers x four line styles; the marker changes with every colour round)."""
    import matplotlib.pyplot as plt

    return {
        "color": plt.cm.tab10(i % 10),
        "marker": MARKERS[(i + i // 10) % len(MARKERS)],
        "linestyle": LINESTYLES[(i // 100) % len(LINESTYLES)],
    }


def legend_outside(ax: Any, fontsize: int = 7) -> None:
    """The legend to the right of the axes, in as many columns as it needs to fit."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    ncol = 1 + len(handles) // 25
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=fontsize, frameon=False,
              ncol=ncol, borderaxespad=0.0)  # fmt: skip


def without_penalties(
    xs: Sequence[float], ys: Sequence[float], limit: float = PENALTY
) -> tuple[list[float], list[float], int]:
    """The points whose x is below the penalty, and how many were left out."""
    kept = [(x, y) for x, y in zip(xs, ys) if x < limit]
    return [x for x, _ in kept], [y for _, y in kept], len(xs) - len(kept)


def label_plan(fig: Any, plan: str) -> None:
    """Say on the figure when it comes from a reduced run (``--quick``/``--smoke``)."""
    if plan == "full":
        return
    fig.text(0.5, 0.995, f"{plan.upper()} RUN (--{plan}): reduced sizes and samples, not the "
             "study's figures", ha="center", va="top", fontsize=9, color="tab:red")  # fmt: skip
