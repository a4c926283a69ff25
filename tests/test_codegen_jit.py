"""The JIT compiles a module with half-precision code once, to an object file whose needs are
checked before it is loaded (``eqsat.codegen.jit``): an unresolvable runtime function is a
clear error, never the JIT's abort of the process."""

from __future__ import annotations

import ctypes

import pytest

from eqsat.codegen.jit import jit, undefined_symbols
from eqsat.codegen.types import CodegenError
from eqsat.targets import load_target

HALF = """
define float @through_half(float %x) {
  %h = fptrunc float %x to half
  %r = fpext half %h to float
  ret float %r
}
"""


def _target():  # noqa: ANN202
    t = load_target("x86-64-v2")  # no F16C: half conversions are runtime calls
    if not t.runs_on_host():
        pytest.skip("this host does not run x86-64-v2 code")
    return t


def test_half_code_runs_from_the_object_and_its_needs_are_read() -> None:
    from eqsat.codegen.jit import parse_and_optimize, target_machine

    target = _target()
    tm = target_machine(target)
    obj = tm.emit_object(parse_and_optimize(HALF, tm, target.triple))
    assert {"__extendhfsf2", "__truncsfhf2"} <= (undefined_symbols(obj) or set())
    assert "through_half" not in (undefined_symbols(obj) or set())  # defined there
    assert undefined_symbols(b"MZ not an ELF file") is None
    engine = jit(HALF, target)
    through = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_float)(
        engine.get_function_address("through_half"))
    assert through(1.5) == 1.5 and through(1 / 3) == 0.333251953125  # rounded to half


def test_a_runtime_function_the_process_lacks_is_an_error() -> None:
    text = HALF + """
declare half @__eqsat_no_such_runtime(float)
define float @odd(float %x) {
  %h = call half @__eqsat_no_such_runtime(float %x)
  %r = fpext half %h to float
  ret float %r
}
"""
    with pytest.raises(CodegenError, match="__eqsat_no_such_runtime"):
        jit(text, _target())
