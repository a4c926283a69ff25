"""Checked compiled runs of the masked, expand/compress and gather/scatter memory ops: an
active lane outside the memref is a located runtime fault at the op (as in the interpreter),
a masked-off lane outside is never touched, in-bounds programs print what the interpreter
prints. ``eqsat run`` runs compiled code in a forked child (``eqsat.codegen.guard``), so a
wild access would show as a reported crash, not take the test process down."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from eqsat.cli import main
from eqsat.codegen.commands import best_host_target

HEAD = """func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<3x4xf32>
  %r0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %r1 = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : vector<4xf32>
  %r2 = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : vector<4xf32>
  vector.store %r0, %m[%c0, %c0] : memref<3x4xf32>, vector<4xf32>
  vector.store %r1, %m[%c1, %c0] : memref<3x4xf32>, vector<4xf32>
  vector.store %r2, %m[%c2, %c0] : memref<3x4xf32>, vector<4xf32>
  %p = arith.constant dense<-1.0> : vector<4xf32>
  %v = arith.constant dense<[20.0, 21.0, 22.0, 23.0]> : vector<4xf32>
  %mk = arith.constant dense<MASK> : vector<4xi1>
  %iv = arith.constant dense<IV> : vector<4xi32>
  vector.print str "before\\n"
"""
TAIL = """  vector.print str "after\\n"
  %a = vector.load %m[%c0, %c0] : memref<3x4xf32>, vector<4xf32>
  %b = vector.load %m[%c1, %c0] : memref<3x4xf32>, vector<4xf32>
  %c = vector.load %m[%c2, %c0] : memref<3x4xf32>, vector<4xf32>
  vector.print %a : vector<4xf32>
  vector.print %b : vector<4xf32>
  vector.print %c : vector<4xf32>
  return
}
"""
T = "memref<3x4xf32>"
OPS = {
    "vector.maskedload": (
        f"%x = vector.maskedload %m[%I, %J], %mk, %p : {T}, vector<4xi1>, vector<4xf32> "
        "into vector<4xf32>\n  vector.print %x : vector<4xf32>"
    ),
    "vector.maskedstore": (
        f"vector.maskedstore %m[%I, %J], %mk, %v : {T}, vector<4xi1>, vector<4xf32>"
    ),
    "vector.expandload": (
        f"%x = vector.expandload %m[%I, %J], %mk, %p : {T}, vector<4xi1>, vector<4xf32> "
        "into vector<4xf32>\n  vector.print %x : vector<4xf32>"
    ),
    "vector.compressstore": (
        f"vector.compressstore %m[%I, %J], %mk, %v : {T}, vector<4xi1>, vector<4xf32>"
    ),
    "vector.gather": (
        f"%x = vector.gather %m[%I, %J][%iv], %mk, %p : {T}, vector<4xi32>, vector<4xi1>, "
        "vector<4xf32> into vector<4xf32>\n  vector.print %x : vector<4xf32>"
    ),
    "vector.scatter": (
        f"vector.scatter %m[%I, %J][%iv], %mk, %v : {T}, vector<4xi32>, vector<4xi1>, "
        "vector<4xf32>"
    ),
}
# (base I, base J, mask, index vector, faults?)
CASES = {
    "inside": ("c1", "c0", "[true, false, true, true]", "[0, 3, 6, -4]", False),
    # lanes 2 and 3 are outside (slice past dim 1; flat offsets 17 and 50 >= 12) but off
    "masked_off": ("c2", "c2", "[true, true, false, false]", "[0, -9, 7, 40]", False),
    # active lanes outside: columns 4, 5 (popcount 3 from column 2 reaches 4); flat offset 12
    "active_out": ("c2", "c2", "[true, false, true, true]", "[0, 5, 2, -2]", True),
    # outside on the leading dim (row 3; flat offset 13)
    "leading_dim": ("c3", "c1", "[true, false, false, false]", "[0, 0, 0, 0]", True),
}


def _program(op: str, case: str) -> tuple[str, int]:
    i, j, mask, iv, _ = CASES[case]
    body = OPS[op].replace("%I", f"%{i}").replace("%J", f"%{j}")
    text = HEAD.replace("MASK", mask).replace("IV", iv) + f"  {body}\n" + TAIL
    return text, HEAD.count("\n") + 1


@dataclass
class _Ran:
    returncode: int
    stdout: str
    stderr: str


def _run(capsys: pytest.CaptureFixture[str], path, target: str, *options: str) -> _Ran:
    """``eqsat run PATH --target TARGET`` in this process (the command line's own code)."""
    capsys.readouterr()
    code = main(["run", str(path), "--target", target, *options])
    out, err = capsys.readouterr()
    return _Ran(code, out, err)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("op", OPS)
def test_checked_run_matches_the_interpreter(op: str, case: str, tmp_path, capsys) -> None:
    target = best_host_target()
    if target is None:
        pytest.skip("this host can execute code for none of our targets")
    text, line = _program(op, case)
    path = tmp_path / "p.mlir"
    path.write_text(text)
    want, got = _run(capsys, path, "interp"), _run(capsys, path, target)
    assert "Traceback" not in got.stderr and got.returncode in (0, 1), got.stderr
    if CASES[case][4]:
        assert want.returncode == 1 and got.returncode == 1, (want.stderr, got.stderr)
        assert got.stdout == want.stdout == "before\n"
        first = got.stderr.splitlines()[0]
        assert first.startswith(f"{path}:{line}:3: error: '{op}' op runtime fault"), first
        assert first.split(" error: ")[0] == want.stderr.splitlines()[0].split(" error: ")[0]
    else:
        assert want.returncode == 0, want.stderr
        assert got.returncode == 0, got.stderr
        assert got.stdout == want.stdout
        assert "after\n" in got.stdout


ROWS = """func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<3x4xf32>
  %r0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  vector.store %r0, %m[%c0, %c0] : memref<3x4xf32>, vector<4xf32>
  vector.store %r0, %m[%c1, %c0] : memref<3x4xf32>, vector<4xf32>
  %c2 = arith.constant 2 : index
  vector.store %r0, %m[%c2, %c0] : memref<3x4xf32>, vector<4xf32>
  %mk = arith.constant dense<[[true, false, true, false], [true, ROW1]]> : K
  %p = arith.constant dense<-1.0> : V
  %v = arith.constant dense<[[20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0]]> : V
  %x = vector.expandload %m[%c1, %c1], %mk, %p : M, K, V into V
  vector.print %x : V
  vector.compressstore %m[%c1, %c1], %mk, %v : M, K, V
  %a = vector.load %m[%c1, %c0] : memref<3x4xf32>, vector<4xf32>
  %b = vector.load %m[%c2, %c0] : memref<3x4xf32>, vector<4xf32>
  vector.print %a : vector<4xf32>
  vector.print %b : vector<4xf32>
  return
}
""".replace("M, K", "memref<3x4xf32>, K")
ROWS = ROWS.replace("V", "vector<2x4xf32>").replace("K", "vector<2x4xi1>")


@pytest.mark.parametrize("layout", ["nested", "flat"])
def test_expand_compress_count_set_lanes_per_minor_row(layout: str, tmp_path, capsys) -> None:
    """A 2-D expandload/compressstore takes popcount(row) consecutive elements from each
    row's start, also where the layout keeps the whole vector in one piece (flat); the bound
    is checked per row."""
    target = best_host_target()
    if target is None:
        pytest.skip("this host can execute code for none of our targets")
    path = tmp_path / "rows.mlir"
    path.write_text(ROWS.replace("ROW1", "true, false, false"))
    want = _run(capsys, path, "interp", "--layout", layout)
    got = _run(capsys, path, target, "--layout", layout)
    assert want.returncode == got.returncode == 0, (want.stderr, got.stderr)
    assert got.stdout == want.stdout and "( 2, -1, 3, -1 )" in got.stdout
    path.write_text(ROWS.replace("ROW1", "true, true, true"))  # 4 from column 1 of row 2
    want = _run(capsys, path, "interp", "--layout", layout)
    got = _run(capsys, path, target, "--layout", layout)
    assert want.returncode == got.returncode == 1, (want.stderr, got.stderr)
    first = got.stderr.splitlines()[0]
    assert first.startswith(f"{path}:13:3: error: 'vector.expandload' op runtime fault"), first


VIEW = """func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<3x4xf32>
  %r0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  vector.store %r0, %m[%c0, %c0] : memref<3x4xf32>, vector<4xf32>
  vector.store %r0, %m[%c1, %c0] : memref<3x4xf32>, vector<4xf32>
  %s = memref.subview %m[0, 1] [3, 2] [1, 1] : memref<3x4xf32> to S
  %iv = arith.constant dense<[0, 1, IDX]> : vector<3xi32>
  %mk = arith.constant dense<true> : vector<3xi1>
  %p = arith.constant dense<7.0> : vector<3xf32>
  %g = vector.gather %s[%c1, %c0][%iv], %mk, %p : S, vector<3xi32>, vector<3xi1>, vector<3xf32> \
into vector<3xf32>
  vector.print %g : vector<3xf32>
  return
}
""".replace("S", "memref<3x2xf32, strided<[4, 1], offset: 1>>")


@pytest.mark.parametrize("idx", [1, 2])
def test_gather_through_a_strided_view_stays_inside_its_dims(idx: int, tmp_path, capsys) -> None:
    """On a view that is not the identity layout the offset moves along the innermost dim
    and must stay inside it (as the interpreter decides), even where the flat memory goes on."""
    target = best_host_target()
    if target is None:
        pytest.skip("this host can execute code for none of our targets")
    path = tmp_path / "view.mlir"
    path.write_text(VIEW.replace("IDX", str(idx)))
    want, got = _run(capsys, path, "interp"), _run(capsys, path, target)
    assert want.returncode == got.returncode == (0 if idx == 1 else 1), (want.stderr, got.stderr)
    assert got.stdout == want.stdout
    if idx == 2:
        first = got.stderr.splitlines()[0]
        assert first.startswith(f"{path}:12:3: error: 'vector.gather' op runtime fault"), first
