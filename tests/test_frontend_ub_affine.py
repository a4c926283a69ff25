"""``ub.poison`` and ``affine.apply/min/max``: parse, print (custom and generic), verify, with
the same verdict as mlir-opt-22 on every case (the parity check skips without MLIR 22)."""

from __future__ import annotations

import pytest

from frontend import parse, print_module
from frontend.errors import MLIRError
from tests import mlir_tools

ACCEPTED = [
    "%0 = ub.poison : f32",
    "%0 = ub.poison : vector<4xf32>",
    "%0 = ub.poison : vector<2x3xi8>",
    "%0 = ub.poison : vector<[4]xi1>",
    "%0 = ub.poison : index",
    "%0 = ub.poison : i1",
    "%0 = ub.poison : vector<f16>",
    "%0 = ub.poison {tag = 1 : i64} : f32",
    "%0 = ub.poison <#ub.poison> : f32",
    '%0 = "ub.poison"() <{value = #ub.poison}> : () -> f32',
    '%0 = "ub.poison"() : () -> vector<8xi32>',
    "%0 = affine.apply affine_map<(d0) -> (d0 - 1)>(%i)",
    "%0 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv 4 + s0)>(%i)[%j]",
    "%0 = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%j]",
    "%0 = affine.apply affine_map<(d0, d1) -> (d0 mod 3 + d1 ceildiv 2)>(%i, %j) {tag}",
    "%0 = affine.min affine_map<(d0) -> (-d0 + 100, 8)>(%i)",
    "%0 = affine.apply affine_map<(d0)[s0, s1] -> (d0 * (s0 + s1) + (d0 - 3) ceildiv (s0 * 2))>(%i)[%j, %j]",
    "%0 = affine.max affine_map<(d0)[s0] -> (d0, s0 - 3, 0)>(%i)[%j]",
    '%0 = "affine.apply"(%i) <{map = affine_map<(d0) -> (d0 mod 3)>}> : (index) -> index',
    '%0 = "affine.min"(%i, %j) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (index, index) -> index',
]
REJECTED = [
    ("%0 = ub.poison <#ub.foo> : f32", "poison attribute"),
    ("%0 = ub.poison", "':'"),
    ("%0 = affine.apply affine_map<(d0, d1) -> (d0)>(%i)", "dimension or symbol index mismatch"),
    ("%0 = affine.apply affine_map<(d0)[s0] -> (d0)>(%i)", "dimension or symbol index mismatch"),
    ("%0 = affine.apply affine_map<(d0) -> (d0, 1)>(%i)", "one value"),
    ("%0 = affine.min affine_map<(d0) -> ()>(%i)", "at least one result"),
    ("%0 = affine.max affine_map<(d0) -> (d0)>(%f)", "index"),
    ("%0 = affine.apply affine_map<(d0) -> (d0)>(%i) : index", "expected"),
    ('%0 = "affine.apply"(%i, %j) <{map = affine_map<(d0) -> (d0)>}> : (index, index) -> index',
     "operand count and affine map dimension and symbol count must match"),
    ('%0 = "affine.apply"(%i) <{map = affine_map<(d0) -> (d0)>}> : (index) -> i32', "index"),
    ("%0 = affine.apply affine_map<(d0, d1) -> (d0 floordiv d1)>(%i, %j)",
     "right operand of floordiv has to be either a constant or symbolic"),
    ("%0 = affine.apply affine_map<(d0)[s0] -> (s0 mod (d0 + 1))>(%i)[%j]",
     "right operand of mod has to be either a constant or symbolic"),
    ("%0 = affine.min affine_map<(d0, d1) -> (d0 * d1)>(%i, %j)",
     "at least one of the multiply operands has to be either a constant or symbolic"),
]


def _wrap(stmt: str) -> str:
    return f"func.func @f(%i: index, %j: index, %f: f32) {{\n  {stmt}\n  return\n}}\n"


@pytest.mark.parametrize("stmt", ACCEPTED)
def test_accepted_and_printed_back(stmt: str) -> None:
    text = print_module(parse(_wrap(stmt)))
    again = print_module(parse(text))
    assert again == text
    generic = print_module(parse(text), generic=True)
    assert print_module(parse(generic)) == text


@pytest.mark.parametrize(("stmt", "message"), REJECTED)
def test_rejected_with_a_located_error(stmt: str, message: str) -> None:
    with pytest.raises(MLIRError) as e:
        parse(_wrap(stmt))
    assert message in str(e.value)
    assert str(e.value).startswith(("<input>:2:", "<input>:3:"))  # FILE:LINE:COL


def test_custom_form_prints_like_mlir() -> None:
    text = print_module(parse(_wrap(ACCEPTED[12]) + _wrap(ACCEPTED[1]).replace("@f", "@g")))
    assert "affine.apply affine_map<(d0)[s0] -> (d0 floordiv 4 + s0)>(%arg0)[%arg1]" in text
    assert "ub.poison : vector<4xf32>" in text
    tile = print_module(parse(_wrap(ACCEPTED[15])))
    assert "affine.min affine_map<(d0) -> (-d0 + 100, 8)>(%arg0)" in tile


@pytest.mark.skipif(not mlir_tools.MLIR22, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize(
    ("stmt", "accepted"), [(s, True) for s in ACCEPTED] + [(s, False) for s, _ in REJECTED]
)
def test_same_verdict_as_mlir22(stmt: str, accepted: bool) -> None:
    ok, message = mlir_tools.validate_with_mlir_opt(_wrap(stmt), 22)
    assert ok == accepted, message
    if ok:  # and what MLIR prints back, we read as the same op
        assert print_module(parse(message)) == print_module(parse(_wrap(stmt)))
