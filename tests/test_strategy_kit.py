"""The strategy kit's memo of attribute conversions (``eqsat.strategy_kit._converted``) gives
what the op table's own conversion gives, and never mixes up values that compare equal."""

from __future__ import annotations

import pytest

from eqsat.strategy_kit import _converted
from frontend.attributes import ArrayAttr, IntegerAttr
from frontend.ops import lookup


def test_memoized_conversion_equals_the_op_tables() -> None:
    spec = lookup("vector.extract_strided_slice")
    assert spec is not None
    kind = spec.attr_def("offsets").kind  # type: ignore[union-attr]
    for value in ([0, 8], (0, 8), [8, 0], [0, 8]):
        assert _converted(spec, "offsets", value) == kind.convert(value)
    assert _converted(spec, "offsets", [3, 4]) == ArrayAttr((IntegerAttr(3), IntegerAttr(4)))


def test_equal_values_of_other_classes_are_converted_on_their_own() -> None:
    spec = lookup("vector.extract_strided_slice")
    assert _converted(spec, "offsets", [1]) == ArrayAttr((IntegerAttr(1),))
    with pytest.raises(ValueError):  # True == 1, but a bool is no offset
        _converted(spec, "offsets", [True])
