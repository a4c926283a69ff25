"""The studies' figures are fit for a paper: distinct styles beyond ten series, the legend
outside the axes, eqsat's choice highlighted, error bars from the spread, penalty costs off the
axes, reduced runs labelled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from experiments import lowering_choices  # noqa: E402
from experiments.lib.plot_style import (  # noqa: E402
    label_plan,
    legend_outside,
    series_style,
    without_penalties,
)


def _key(i: int) -> tuple[Any, ...]:
    s = series_style(i)
    return (tuple(s["color"]), s["marker"], s["linestyle"])


def test_series_stay_distinct_beyond_ten() -> None:
    keys = [_key(i) for i in range(60)]
    assert len(set(keys)) == 60
    assert keys[0][0] == keys[10][0] and keys[0][1] != keys[10][1]  # colour repeats, marker not


def test_legend_sits_outside_the_axes() -> None:
    fig, ax = plt.subplots()
    for i in range(14):
        ax.plot([1, 2], [i, i + 1], label=f"series {i}", **series_style(i))
    legend_outside(ax)
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1
    plt.close(fig)


def test_penalty_points_are_left_out_and_counted() -> None:
    xs, ys, dropped = without_penalties([1.0, 5.0, 3e7], [10.0, 20.0, 30.0])
    assert (xs, ys, dropped) == ([1.0, 5.0], [10.0, 20.0], 1)


def test_reduced_runs_are_labelled() -> None:
    fig = plt.figure()
    label_plan(fig, "full")
    assert not fig.texts
    label_plan(fig, "quick")
    assert "QUICK RUN" in fig.texts[0].get_text()
    plt.close(fig)


def test_lowering_choices_highlights_eqsats_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    figures = []
    monkeypatch.setattr(plt, "close", figures.append)
    summ = [
        {"kernel": f"k{i}", "target": "avx2", "reassoc": False, "regret": 0.01 * i,
         "points": [(1.0 + i, 10.0), (3.0, 12.0), (2e7, 50.0)],
         "spreads": {(3.0, 12.0): (11.0, 14.0)}}
        for i in range(12)
    ]  # fmt: skip
    lowering_choices.plot(summ, tmp_path / "lc.png", "smoke")
    (fig,) = figures
    bx = fig.axes[1]
    stars = [line for line in bx.get_lines() if line.get_marker() == "*"]
    assert len(stars) == 12 + 1  # one per kernel, and the legend's entry
    assert all(max(line.get_xdata(), default=0) < 1e6 for line in bx.get_lines())
    assert "12 alternatives with a penalty cost not drawn" in bx.get_title()
    assert "SMOKE RUN" in fig.texts[0].get_text()
    # Error bars from the recorded spread: (11, 14) ns around 12, relative to the best (10).
    bars = [c for c in bx.collections if c.get_segments()]
    assert len(bars) == 12
    (segment,) = bars[0].get_segments()
    assert segment[0][1] == pytest.approx(1.1) and segment[1][1] == pytest.approx(1.4)
    assert "min-max of the samples" in bx.get_title()
