"""`eqsat opt --dump-egraph`: the saturated e-graph in extraction-gym's JSON format."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from eqsat.cli import main
from eqsat.export import serialize
from eqsat.optimizer import optimize_module
from frontend import parse

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "matmul_transpose.mlir"


def gym_tree_cost(graph: dict) -> dict[str, float]:
    """What an extraction-gym bottom-up extractor computes: the cheapest tree cost per class,
    children named by node and standing for that node's class."""
    nodes = graph["nodes"]
    best: dict[str, float] = {}
    changed = True
    while changed:
        changed = False
        for n in nodes.values():
            kids = [best.get(nodes[c]["eclass"], math.inf) for c in n["children"]]
            c = n["cost"] + sum(kids)
            if c < best.get(n["eclass"], math.inf):
                best[n["eclass"]], changed = c, True
    return best


def test_dump_has_extraction_gym_shape(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    assert main(["opt", str(EXAMPLE), "--native", "f32=8", "--dump-egraph", str(out)]) == 0
    graph = json.loads(out.read_text())
    nodes = graph["nodes"]
    assert nodes and graph["root_eclasses"]
    for node in nodes.values():
        assert set(node) >= {"op", "children", "eclass", "cost"}
        assert isinstance(node["op"], str) and isinstance(node["eclass"], str)
        assert isinstance(node["cost"], float) and node["cost"] >= 0
        assert all(c in nodes for c in node["children"])
    classes = {n["eclass"] for n in nodes.values()}
    assert set(graph["root_eclasses"]) <= classes
    assert set(graph["class_data"]) == classes
    ops = {n["op"] for n in nodes.values()}
    assert "type-of" not in ops and "NativeTile" not in ops  # analyses are not terms
    # Saturation put strategies beside the op they lower, in one class.
    by_class: dict[str, set[str]] = {}
    for n in nodes.values():
        by_class.setdefault(n["eclass"], set()).add(n["op"])
    assert any({"Transpose", "TransposeShuffle"} <= s for s in by_class.values())


def test_gym_extraction_finds_our_cost() -> None:
    """A tree extractor reading only the JSON finds the cost our own tree extractor found."""
    result = optimize_module(parse(EXAMPLE.read_text(), str(EXAMPLE)), extractor="tree")
    graph = serialize(result.egraph, result.roots)
    (root,) = graph["root_eclasses"]
    assert gym_tree_cost(graph)[root] == pytest.approx(result.cost)


def test_cost_overrides_reach_the_dump(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    assert main(["opt", str(EXAMPLE), "--cost", "Transpose=100", "--dump-egraph", str(out)]) == 0
    nodes = json.loads(out.read_text())["nodes"].values()
    assert {n["cost"] for n in nodes if n["op"] == "Transpose"} == {100.0}
    assert {n["cost"] for n in nodes if n["op"] == "VT"} == {0.0}


def test_unwritable_dump_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match="cannot write /nonexistent/g.json"):
        main(["opt", str(EXAMPLE), "--dump-egraph", "/nonexistent/g.json"])


def test_dump_egraph_draws_small_programs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--dump-egraph G.dot``: one box per e-class of the JSON export, an edge per child;
    ``G.svg`` runs Graphviz's dot, or fails before the work with a clear error without it."""
    import re
    import shutil

    dot = tmp_path / "g.dot"
    data = tmp_path / "g.json"
    assert main(["opt", str(EXAMPLE), "--dump-egraph", str(dot)]) == 0
    assert main(["opt", str(EXAMPLE), "--dump-egraph", str(data)]) == 0
    capsys.readouterr()
    text, graph = dot.read_text(), json.loads(data.read_text())
    assert text.startswith("digraph egraph {")
    assert len(re.findall(r"subgraph cluster_", text)) == len(
        {n["eclass"] for n in graph["nodes"].values()}
    )
    assert text.count(" -> ") == sum(len(n["children"]) for n in graph["nodes"].values())
    svg = tmp_path / "g.svg"
    if shutil.which("dot") is None:
        with pytest.raises(SystemExit) as e:
            main(["opt", str(EXAMPLE), "--dump-egraph", str(svg)])
        assert "Graphviz" in str(e.value) and not svg.exists()
        assert capsys.readouterr().out == ""  # failed before printing anything
    else:
        assert main(["opt", str(EXAMPLE), "--dump-egraph", str(svg)]) == 0
        assert "<svg" in svg.read_text()
