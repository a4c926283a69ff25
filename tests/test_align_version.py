"""Alignment versioning (``eqsat/codegen/align_version.py``): on x86-64-v2 a function whose
vector accesses go through memref arguments checks their alignment at entry and runs a copy
whose loads are known aligned (folded into SSE arithmetic); both paths compute what the
interpreter computes, bit for bit, on aligned and misaligned buffers and on views with static
and dynamic offsets."""

import re

import numpy as np
import pytest

from eqsat.codegen.align_version import Versioned, body_size, versioned_args
from eqsat.codegen.api import compile, emit_assembly, emit_llvm_ir
from eqsat.interpreter import Interpreter
from eqsat.targets import TargetError, load_target
from frontend import parse

V2 = load_target("x86-64-v2")
runs = pytest.mark.skipif(not V2.runs_on_host(), reason="this host cannot run x86-64-v2 code")

# a loop over rows: c = a * b + c, f32 and f64
KERNEL = """
func.func @k(%a: memref<8x16x{t}>, %b: memref<8x16x{t}>, %c: memref<8x16x{t}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {{
    %x = vector.load %a[%r, %c0] : memref<8x16x{t}>, vector<16x{t}>
    %y = vector.load %b[%r, %c0] : memref<8x16x{t}>, vector<16x{t}>
    %z = vector.load %c[%r, %c0] : memref<8x16x{t}>, vector<16x{t}>
    %p = arith.mulf %x, %y : vector<16x{t}>
    %s = arith.addf %p, %z : vector<16x{t}>
    vector.store %s, %c[%r, %c0] : memref<8x16x{t}>, vector<16x{t}>
  }}
  return
}}
"""

# a function on views: a dynamic offset, a static offset of one element, and a plain buffer;
# OUTER calls it with such views
ADD = """
func.func @add(%a: memref<64xf32, strided<[1], offset: ?>>,
               %b: memref<64xf32, strided<[1], offset: 1>>, %c: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<64xf32, strided<[1], offset: ?>>, vector<64xf32>
  %y = vector.load %b[%c0] : memref<64xf32, strided<[1], offset: 1>>, vector<64xf32>
  %z = arith.addf %x, %y : vector<64xf32>
  %w = arith.mulf %z, %y : vector<64xf32>
  vector.store %w, %c[%c0] : memref<64xf32>, vector<64xf32>
  return
}
"""
VIEWS = ADD + """
func.func @outer(%a: memref<72xf32>, %b: memref<72xf32>, %c: memref<64xf32>, %i: index) {
  %sa = memref.subview %a[%i] [64] [1] : memref<72xf32> to memref<64xf32, strided<[1], offset: ?>>
  %sb = memref.subview %b[1] [64] [1] : memref<72xf32> to memref<64xf32, strided<[1], offset: 1>>
  call @add(%sa, %sb, %c) : (memref<64xf32, strided<[1], offset: ?>>, memref<64xf32, strided<[1], offset: 1>>, memref<64xf32>) -> ()
  return
}
"""


def _at(n: int, dtype: type, shift: int, seed: int) -> np.ndarray:
    """n random elements starting ``shift`` elements past a 64-byte boundary."""
    size = np.dtype(dtype).itemsize
    raw = np.zeros((n + shift) * size + 64, np.uint8)
    start = (-raw.ctypes.data) % 64 + shift * size
    x = raw[start : start + n * size].view(dtype)
    x[...] = np.random.default_rng(seed).standard_normal(n).astype(dtype)
    return x


@pytest.mark.parametrize("t, fold", [("f32", "addps"), ("f64", "addpd")])
def test_the_aligned_copy_folds_loads_and_the_entry_checks(t, fold):
    src = KERNEL.format(t=t)
    asm = emit_assembly(src, V2)
    copy = asm[asm.index("_eqsat_aligned_k:") :]
    plain = asm[asm.index("\nk:") : asm.index("_eqsat_aligned_k:")]
    memory_operand = re.compile(r"\t(mulp|addp)[sd]\t-?\d*\(%")
    assert memory_operand.search(copy), copy  # a load folded: marked aligned
    assert not memory_operand.search(plain)  # the unchanged body: separate movups
    assert re.search(r"\tmovup[sd]\t", plain) and fold in copy
    ir = emit_llvm_ir(src, V2)
    entry = ir[ir.index('define void @"k"') :]
    assert "and i64" in entry and ", 15" in entry and "@\"_eqsat_aligned_k\"" in entry
    assert re.search(r'define void @"_eqsat_aligned_k"\(ptr %"\.1", ptr align 16', ir)


def test_the_checked_arguments():
    """Each memref argument a vector row of 16 bytes or more goes through (a row of one f32,
    as dot products store, is left unchecked), with its static offset (None: dynamic)."""
    add = parse(VIEWS, "<test>").functions()["add"]
    assert versioned_args(add, 16) == [Versioned(1, 4, None), Versioned(6, 4, 1),
                                       Versioned(11, 4, 0)]  # fmt: skip
    one = VIEWS.replace("vector<64xf32>", "vector<1xf32>")
    assert versioned_args(parse(one, "<test>").functions()["add"], 16) == []


def test_avx2_and_checked_mode_do_not_version():
    src = KERNEL.format(t="f32")
    assert "_eqsat_aligned_" not in emit_llvm_ir(src, "avx2")
    assert "_eqsat_aligned_" not in emit_llvm_ir(src, V2, checked=True)


def test_a_body_over_the_bound_is_not_versioned(tmp_path):
    text = open(V2.path).read()
    assert "align_versioning = 8192" in text
    small = tmp_path / "small.toml"
    # the kernel's size: 3 loads, a mulf, an addf and a store of 4 registers each, and 7 other
    # ops (func, 3 constants, for, yield, return)
    assert body_size(parse(KERNEL.format(t="f32"), "<test>").ops[0], 128) == 31
    small.write_text(text.replace("align_versioning = 8192", "align_versioning = 30"))
    assert "_eqsat_aligned_" not in emit_llvm_ir(KERNEL.format(t="f32"), load_target(str(small)))
    small.write_text(text.replace("align_versioning = 8192", "align_versioning = 31"))
    assert "_eqsat_aligned_" in emit_llvm_ir(KERNEL.format(t="f32"), load_target(str(small)))


@pytest.mark.parametrize(
    "value, needle", [("-1", "got -1"), ("true", "got True"), ('"big"', "got 'big'")]
)
def test_a_bad_setting_is_a_located_error(tmp_path, value, needle):
    text = open(V2.path).read()
    line = text.splitlines().index("align_versioning = 8192") + 1
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("align_versioning = 8192", f"align_versioning = {value}"))
    with pytest.raises(TargetError) as e:
        load_target(str(bad))
    assert str(e.value).startswith(f"{bad}:{line}: error: 'align_versioning' must be")
    assert needle in str(e.value)


@runs
@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("shifts", [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (3, 2, 1)])
def test_both_paths_compute_the_interpreters_bits(t, shifts):
    src = KERNEL.format(t=t)
    program = compile(src, V2)
    module = parse(src, "<test>")
    dtype = np.float32 if t == "f32" else np.float64
    a, b, c = (_at(128, dtype, s, i).reshape(8, 16) for i, s in enumerate(shifts))
    assert (a.ctypes.data % 16 == 0) == (shifts[0] == 0)  # (the fast path needs all three)
    want = c.copy()
    Interpreter(module).call("k", a.copy(), b.copy(), want)
    program.k(a, b, c)
    assert c.tobytes() == want.tobytes()


def test_a_function_the_module_calls_is_not_versioned():
    assert "_eqsat_aligned_add" in emit_llvm_ir(ADD, V2)
    assert "_eqsat_aligned_add" not in emit_llvm_ir(VIEWS, V2)  # @outer calls it


@runs
@pytest.mark.parametrize("sa, sb, i", [(0, 0, 0), (0, 3, 4), (0, 3, 1), (1, 3, 0), (2, 0, 2)])
def test_views_with_offsets_on_both_paths(sa, sb, i):
    """@add called through MLIR's ABI with @outer's views (a's dynamic offset i, b's static
    offset 1) against @outer interpreted. (0, 3, 4): every first element on a 16-byte boundary
    (b's from a pointer 12 past one): the aligned copy runs; the others miss somewhere."""
    import ctypes

    program = compile(ADD, V2)
    assert "_eqsat_aligned_add" in program.llvm_ir
    a, b = _at(72, np.float32, sa, 1), _at(72, np.float32, sb, 2)
    c, want = np.zeros(64, np.float32), np.zeros(64, np.float32)
    Interpreter(parse(VIEWS, "<test>")).call("outer", a.copy(), b.copy(), want, i)
    proto = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * 2 + [ctypes.c_int64] * 3) * 3)
    add = proto(program.engine.get_function_address("add"))
    views = ((a, i), (b, 1), (c, 0))  # (buffer, offset): MLIR's descriptor of each
    add(*[x for m, off in views for x in (m.ctypes.data, m.ctypes.data, off, 64, 1)])
    assert c.tobytes() == want.tobytes()


RESULTS = """
func.func @s(%a: memref<64xf32>) -> (f32, vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<64xf32>, vector<64xf32>
  %r = vector.reduction <maxnumf>, %x : vector<64xf32> into f32
  %y = vector.load %a[%c0] : memref<64xf32>, vector<16xf32>
  %z = arith.mulf %y, %y : vector<16xf32>
  return %r, %z : f32, vector<16xf32>
}
"""


@runs
@pytest.mark.parametrize("shift", [0, 1, 2])
def test_a_function_with_results_returns_them_from_either_path(shift):
    program = compile(RESULTS, V2)
    assert "_eqsat_aligned_s" in program.llvm_ir
    a = _at(64, np.float32, shift, 7)
    want = Interpreter(parse(RESULTS, "<test>")).call("s", a.copy())
    got = program.s(a)
    assert [np.asarray(x).tobytes() for x in got] == [np.asarray(x).tobytes() for x in want]


@runs
def test_the_entry_calls_the_aligned_copy_exactly_when_every_argument_is_aligned():
    """The aligned copy replaced by a Python callback (its definition cut from the IR, the
    JIT resolving the name to the callback): the entry calls it on aligned buffers only."""
    import ctypes

    import llvmlite.binding as llvm

    from eqsat.codegen import jit

    ir = emit_llvm_ir(KERNEL.format(t="f32"), V2)
    start = ir.index('define void @"_eqsat_aligned_k"')
    end = ir.index("\n}\n", start) + 3
    params = ir[ir.index("(", start) : ir.index(")", start) + 1]
    ir = ir[:start] + "declare void @_eqsat_test_aligned_k" + params + "\n" + ir[end:]
    ir = ir.replace('@"_eqsat_aligned_k"', "@_eqsat_test_aligned_k")
    calls = []
    proto = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_int64] * 5) * 3)
    callback = proto(lambda *a: calls.append((a[1], a[8], a[15])))
    llvm.add_symbol("_eqsat_test_aligned_k", ctypes.cast(callback, ctypes.c_void_p).value)
    engine = jit.jit(ir, V2)
    k = proto(engine.get_function_address("k"))
    for shifts in [(0, 0, 0), (0, 1, 0), (0, 0, 2), (3, 3, 3)]:
        a, b, c = (_at(128, np.float32, s, i) for i, s in enumerate(shifts))
        calls.clear()
        k(*[x for m in (a, b, c) for x in (m.ctypes.data, m.ctypes.data, 0, 8, 16, 16, 1)])
        aligned = shifts == (0, 0, 0)
        assert calls == ([(a.ctypes.data, b.ctypes.data, c.ctypes.data)] if aligned else [])


def test_the_compile_time_script_compiles_both_ways():
    """experiments/align_compile_time.py: the versioned code is the larger (two bodies)."""
    from experiments.align_compile_time import measure

    r = measure("dot_64_f32", "x86-64-v2", 1)
    assert r["versioned"] and r["size"] <= r["bound"]
    assert r["lines"]["versioned"] > r["lines"]["off"]
