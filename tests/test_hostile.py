"""Hostile input, through the command line as a user runs it: every malformed file gets exit
status 1 and one ``FILE:LINE:COL: error: ...`` line (or the CLI's own ``eqsat: error:``
message), bad usage gets exit status 2; never a traceback, never a hang (each run has a
timeout). The corpus is ``tests/hostile/``; deeply nested and random inputs are made here."""

from __future__ import annotations

import io
import re
from typing import Any
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HOSTILE = Path(__file__).parent / "hostile"
EXAMPLE = str(Path(__file__).parent.parent / "examples" / "matmul_transpose.mlir")
# Files that parse: they go wrong only when run.
RUN_ONLY = {"huge_shape", "runtime_out_of_bounds", "runtime_division_by_zero"}
MLIR = sorted(p for p in HOSTILE.glob("*.mlir") if p.stem not in RUN_ONLY)
RUNS = sorted(p for p in HOSTILE.glob("*.mlir") if p.stem in RUN_ONLY)
TIMEOUT = 120


def eqsat(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eqsat.cli", *args],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=TIMEOUT,
    )


def assert_located_error(r: subprocess.CompletedProcess[str], path: Path | str) -> None:
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    first = r.stderr.splitlines()[0]
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: \S", first), first


@pytest.mark.parametrize("path", MLIR, ids=lambda p: p.stem)
def test_malformed_mlir_is_one_located_error(path: Path) -> None:
    assert_located_error(eqsat("parse", str(path)), path)


@pytest.mark.parametrize("path", MLIR[::4], ids=lambda p: p.stem)
def test_opt_reports_the_same_errors(path: Path) -> None:
    assert_located_error(eqsat("opt", str(path)), path)


@pytest.mark.parametrize("path", RUNS, ids=lambda p: p.stem)
def test_run_time_faults_are_located_errors(path: Path) -> None:
    """Out-of-bounds access, division by zero, a vector<1000000000xf32> (refused before it
    is allocated: the interpreter holds at most 2^26 elements per value)."""
    assert_located_error(eqsat("run", str(path)), path)


def test_huge_shapes_parse_and_optimize_without_allocating() -> None:
    """Shapes are only numbers until something runs: parse and opt are fast and small."""
    path = HOSTILE / "huge_shape.mlir"
    assert eqsat("parse", str(path)).returncode == 0
    r = eqsat("opt", str(path), "--native", "f32=8")
    assert r.returncode == 0, r.stderr
    assert "vector<1000000000xf32>" in r.stdout


NESTED = {
    "regions": lambda n: "func.func @f(%c: i1) {\n" + "scf.if %c {\n" * n + "}\n" * n
    + "return\n}\n",
    "attributes": lambda n: "func.func @f() attributes {x = " + "[" * n + "]" * n
    + "} {\n return\n}\n",
    "types": lambda n: "func.func @f(%a: " + "tuple<" * n + "i32" + ">" * n
    + ") {\n return\n}\n",
    "affine": lambda n: "func.func @f(%m: memref<4xf32>) {\n %c0 = arith.constant 0 : index\n"
    " %p = arith.constant 0.0 : f32\n %0 = vector.transfer_read %m[%c0], %p "
    "{permutation_map = affine_map<(d0) -> (" + "(" * n + "d0" + ")" * n + ")>} : "
    "memref<4xf32>, vector<4xf32>\n return\n}\n",
}


@pytest.mark.parametrize("kind", sorted(NESTED))
def test_ten_thousand_levels_of_nesting(kind: str, tmp_path: Path) -> None:
    path = tmp_path / f"deep_{kind}.mlir"
    path.write_text(NESTED[kind](10_000))
    assert_located_error(eqsat("parse", str(path)), path)


@pytest.mark.parametrize("seed", range(3))
def test_random_binary_junk(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "junk.mlir"
    data = np.random.default_rng(seed).integers(0, 256, 4096, dtype=np.uint8).tobytes()
    path.write_bytes(data)
    assert_located_error(eqsat("parse", str(path)), path)


def test_binary_junk_names_the_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "j.mlir"
    path.write_bytes(b"func.func @f() {\n  %0 = ar\xffith\n}\n")
    r = eqsat("parse", str(path))
    assert_located_error(r, path)
    assert r.stderr.startswith(f"{path}:2:10: error: invalid UTF-8 byte 0xff")


def test_binary_junk_on_stdin() -> None:
    r = subprocess.run([sys.executable, "-m", "eqsat.cli", "parse", "-"], input=b"\x00\xff",
                       capture_output=True, timeout=TIMEOUT)
    assert r.returncode == 1
    assert r.stderr.decode().startswith("<stdin>:1:2: error: invalid UTF-8 byte 0xff")


@pytest.mark.parametrize("path", sorted((HOSTILE / "rules").glob("*.egg")), ids=lambda p: p.stem)
def test_malformed_rule_files(path: Path) -> None:
    assert_located_error(eqsat("opt", EXAMPLE, "--rules", str(path)), path)


BENCH_REFUSALS = {
    # a value of the file's ARGS line: located there (it was blamed on --arg, unlocated)
    "args_line": ("// ARGS: n=abc\nfunc.func @k(%n: index, %x: memref<8xf32>) {\n  return\n}\n",
                  ":1:10: error: // ARGS n=abc: not a number of type index"),
    # a signature bench cannot call: located at the function (it was the file's name only)
    "dynamic_memref": ("func.func @k(%x: memref<?xf32>) {\n  return\n}\n",
                       ":1:1: error: %x: memrefs of dynamic shape are not supported"),
}


@pytest.mark.parametrize("case", sorted(BENCH_REFUSALS))
def test_bench_refusals_are_located(case: str, tmp_path: Path, capsys: Any) -> None:
    from eqsat.cli import main

    text, said = BENCH_REFUSALS[case]
    path = tmp_path / "k.mlir"
    path.write_text(text)
    assert main(["bench", str(path), "--entry", "k", "--target", _host_target()]) == 1
    assert capsys.readouterr().err.startswith(f"{path}{said}")


def test_opt_keeps_an_op_whose_result_types_it_could_not_rebuild(tmp_path: Path,
                                                                   capsys: Any) -> None:
    """builtin.unrealized_conversion_cast (variadic results, no type inference) is kept as
    it is: decoding it once raised a TypeError (a traceback from `eqsat opt`)."""
    from eqsat.cli import main

    path = tmp_path / "cast.mlir"
    path.write_text(
        "func.func @entry() {\n"
        "  %v = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>\n"
        "  %c = builtin.unrealized_conversion_cast %v : vector<4xi32> to vector<2x2xi32>\n"
        "  vector.print %c : vector<2x2xi32>\n  return\n}\n"
    )
    assert main(["opt", str(path)]) == 0
    out = capsys.readouterr().out
    assert "builtin.unrealized_conversion_cast %0 : vector<4xi32> to vector<2x2xi32>" in out


def test_check_rules_on_a_program_that_does_not_parse() -> None:
    """The program's located error and exit 1, before any rule runs (it used to check every
    rule for a minute on no program and bury the error in the report)."""
    path = HOSTILE / "bad_token.mlir"
    r = eqsat("check-rules", str(path))
    assert_located_error(r, path)
    assert r.stdout == ""


@pytest.mark.parametrize("path", sorted((HOSTILE / "costs").glob("*.toml")), ids=lambda p: p.stem)
def test_malformed_cost_tables(path: Path) -> None:
    r = eqsat("opt", EXAMPLE, "--costs", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    # A file that is not TOML text is read as a target file and reported at its line.
    located = re.match(rf"{re.escape(str(path))}:\d+: error: \S", r.stderr)
    assert located or r.stderr.startswith(f"eqsat: error: cannot read cost table {path}"), r.stderr


@pytest.mark.parametrize(
    "path", sorted((HOSTILE / "targets").glob("*.toml")), ids=lambda p: p.stem
)
def test_malformed_target_files_through_the_cli(path: Path) -> None:
    r = eqsat("opt", EXAMPLE, "--target", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert re.match(rf"{re.escape(str(path))}(:\d+)?: error: \S", r.stderr), r.stderr


@pytest.mark.parametrize(
    "path", sorted((HOSTILE / "targets").glob("*.toml")), ids=lambda p: p.stem
)
def test_malformed_target_files(path: Path) -> None:
    from eqsat.targets import TargetError, load_target

    with pytest.raises(TargetError, match=rf"^{re.escape(str(path))}:\d+: error: \S"):
        load_target(path)


# What once passed for a target file (silently ignored, or LLVM's abort at --emit asm).
TARGET_REFUSALS = {
    "unknown_section": ":11: error: unknown section [widths]",
    "unknown_key": ":7: error: unknown key 'vectorbits' in [target]",
    "zero_registers": ":6: error: 'registers' must be >= 1",
    "unknown_cpu": ":3: error: LLVM knows no processor 'pentium9'",
    "unknown_triple": ":2: error: 'triple': No available targets are compatible",
    "unknown_legalize": ":7: error: no legalize rule file 'avx3'",
}


@pytest.mark.parametrize("name", sorted(TARGET_REFUSALS))
def test_target_files_are_read_strictly(name: str) -> None:
    from eqsat.targets import TargetError, load_target

    path = HOSTILE / "targets" / f"{name}.toml"
    with pytest.raises(TargetError, match=re.escape(f"{path}{TARGET_REFUSALS[name]}")):
        load_target(path)


def test_unknown_target_names_the_known_ones() -> None:
    from eqsat.targets import TargetError, load_target

    with pytest.raises(TargetError, match="unknown target 'pdp11' \\(known: .*avx2"):
        load_target("pdp11")


@pytest.mark.parametrize(
    "args",
    [
        ["opt", EXAMPLE, "--native", "f32=junk"],
        ["opt", EXAMPLE, "--native", "\x7f\x01=8"],
        ["opt", EXAMPLE, "--native", "f32=0"],
        ["opt", EXAMPLE, "--max-seconds", "-1"],
        ["opt", EXAMPLE, "--max-nodes", "0"],
        ["opt", EXAMPLE, "--emit", "nonsense"],
        ["run", EXAMPLE, "--vscale", "0"],
        ["run", EXAMPLE, "--max-seconds", "0"],
        ["opt", EXAMPLE, "--target", "pdp11"],
        ["opt", EXAMPLE, "--emit", "hwv"],
        ["opt", EXAMPLE, "--dump-egraph", "graph.txt"],  # (it wrote JSON there silently)
        ["bench", EXAMPLE, "--entry", "entry", "--arg", "n"],
        ["frobnicate"],
        [],
    ],
    ids=lambda a: " ".join(a[:1] + a[2:]) or "nothing",
)
def test_bad_usage_exits_2(args: list[str]) -> None:
    r = eqsat(*args)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "error:" in r.stderr


@pytest.mark.parametrize("target", ["no/such/file.mlir", str(HOSTILE)])
def test_unreadable_input(target: str) -> None:
    r = eqsat("parse", target)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"eqsat: error: cannot read {target}"), r.stderr


# -- the Python API ------------------------------------------------------------------------
API = """
func.func @f(%a: vector<4xf32>, %m: memref<2x3xi32>) -> vector<4xf32> {
  return %a : vector<4xf32>
}
"""
GOOD = (np.zeros(4, np.float32), np.zeros((2, 3), np.int32))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "takes 2 arguments, got 0"),
        ((GOOD[0],), "takes 2 arguments, got 1"),
        ((np.zeros(5, np.float32), GOOD[1]), "argument 0 of @f: shape"),
        ((GOOD[0], np.zeros((3, 2), np.int32)), "argument 1 of @f: array of shape"),
        ((GOOD[0], np.zeros((2, 3), np.float32)), "argument 1 of @f: values of dtype float32"),
        (("abc", GOOD[1]), "argument 0 of @f: values of dtype <U3"),
        ((np.zeros(4, object), GOOD[1]), "argument 0 of @f: values of dtype object"),
        ((GOOD[0], [[1, 2, 3], [4, 5, 6]]), "argument 1 of @f: a memref argument must be"),
        ((None, GOOD[1]), "argument 0 of @f"),
    ],
)
def test_interpreter_api_rejects_wrong_arrays(args: tuple, message: str) -> None:
    from eqsat.interpreter import Interpreter
    from frontend import parse

    with pytest.raises(TypeError, match=re.escape(message)):
        Interpreter(parse(API)).call("f", *args)


# -- compiled runs: checked mode faults where memory would be corrupted ----------------------
RUN_FAULTS = sorted((HOSTILE / "runs").glob("*.mlir"))


def _host_target() -> str:
    from eqsat.codegen.commands import best_host_target

    t = best_host_target()
    if t is None:
        pytest.skip("this host runs none of the shipped targets")
    return t


def _compile_checked(path: Path) -> Any:
    from eqsat.codegen.api import compile
    from frontend import parse

    return compile(parse(path.read_text(), str(path)), _host_target(), "entry", checked=True)


def _expected_fault(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("// FAULT: "), path
    return first.removeprefix("// FAULT: ")


@pytest.mark.parametrize(
    "path", [p for p in RUN_FAULTS if not p.stem.startswith("oom_")], ids=lambda p: p.stem
)
def test_checked_compiled_runs_fault_at_the_op(path: Path) -> None:
    """Views larger than their buffer, bad sizes, bad deallocs: a located fault (checked
    mode, as `eqsat run` compiles), never a segfault or glibc's abort."""
    from frontend.errors import RuntimeFault

    program = _compile_checked(path)
    with pytest.raises(RuntimeFault, match=re.escape(_expected_fault(path))) as e:
        program()
    assert str(e.value).startswith(f"{path}:"), str(e.value)


LIFETIME_FAULTS = [p for p in RUN_FAULTS if p.stem.startswith(("uaf_", "dealloc_"))]


@pytest.mark.parametrize("path", LIFETIME_FAULTS, ids=lambda p: p.stem)
def test_the_interpreter_reports_use_after_free_where_checked_code_does(path: Path) -> None:
    """Use after free, double free, the dealloc of an alloca or a global: the interpreter's
    fault is the same, at the same op."""
    from eqsat.interpreter import Interpreter
    from frontend import parse
    from frontend.errors import RuntimeFault

    with pytest.raises(RuntimeFault, match=re.escape(_expected_fault(path))) as e:
        Interpreter(parse(path.read_text(), str(path)), out=io.StringIO()).call("entry")
    compiled = _outcome(lambda: _compile_checked(path)())
    assert compiled[1] is not None and str(e.value).startswith(compiled[1] + ":")


def test_the_dealloc_of_an_argument_says_so_in_both_engines() -> None:
    from eqsat.codegen.api import compile
    from eqsat.interpreter import Interpreter
    from frontend import parse
    from frontend.errors import RuntimeFault

    src = """func.func @entry(%m: memref<4xf32>) {
  memref.dealloc %m : memref<4xf32>
  return
}"""
    want = "the memref is not from memref.alloc (it is an argument)"
    with pytest.raises(RuntimeFault, match=re.escape(want)):
        Interpreter(parse(src, "arg.mlir"), out=io.StringIO()).call("entry", np.zeros(4, np.float32))
    program = compile(parse(src, "arg.mlir"), _host_target(), "entry", checked=True)
    with pytest.raises(RuntimeFault, match=re.escape(want)):
        program(np.zeros(4, np.float32))


def test_a_live_buffer_in_a_busy_filter_slot_is_not_a_use_after_free() -> None:
    """The probe's runtime lookup decides: with every filter slot set (as if every pointer
    collided with a freed one), accesses to live buffers run and print their values."""
    import ctypes

    from eqsat.codegen import runtime_checked

    src = """
func.func @entry() {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c2 = arith.constant 2 : index
  %f = arith.constant 7.5 : f32
  memref.dealloc %a : memref<4xf32>
  memref.store %f, %b[%c2] : memref<4xf32>
  %x = memref.load %b[%c2] : memref<4xf32>
  vector.print %x : f32
  memref.dealloc %b : memref<4xf32>
  return
}
"""
    from eqsat.codegen.api import compile

    program = compile(src, _host_target(), checked=True)
    assert "eqsat.freed_probe" in program.llvm_ir
    ctypes.memset(runtime_checked.FILTER, 1, ctypes.sizeof(runtime_checked.FILTER))
    out, fault = _outcome(program)
    assert (out, fault) == ("7.5\n", None)
    assert not any(runtime_checked.FILTER), "the filter is cleared when the call returns"


def test_modules_that_free_nothing_probe_nothing() -> None:
    """The use-after-free probe costs nothing where no buffer can be freed."""
    from eqsat.codegen.api import compile

    src = (HOSTILE / "runs" / "uaf_load.mlir").read_text()
    no_free = "\n".join(line for line in src.splitlines() if "dealloc" not in line)
    assert "eqsat.freed_probe" in compile(src, _host_target(), checked=True).llvm_ir
    assert "eqsat.freed_probe" not in compile(no_free, _host_target(), checked=True).llvm_ir


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.mark.parametrize(
    "path", [p for p in RUN_FAULTS if p.stem.startswith("oom_")], ids=lambda p: p.stem
)
def test_compiled_allocation_failure_is_a_located_fault(path: Path) -> None:
    """10^12 elements, or allocating until memory runs out (address space capped at 4 GiB):
    malloc's null is a fault at the alloc, not a null dereference."""
    target = _host_target()
    r = subprocess.run(
        [sys.executable, "-m", "eqsat.cli", "run", str(path), "--target", target],
        capture_output=True, text=True, timeout=TIMEOUT, preexec_fn=_limit_memory,
    )  # fmt: skip
    assert_located_error(r, path)
    assert _expected_fault(path) in r.stderr


def test_views_of_an_argument_are_checked_against_the_array() -> None:
    from eqsat.codegen.api import compile
    from frontend.errors import RuntimeFault

    src = """
func.func @f(%m: memref<4xf32>) {
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [8], strides: [1]
    : memref<4xf32> to memref<8xf32>
  %c7 = arith.constant 7 : index
  %x = arith.constant 1.0 : f32
  memref.store %x, %v[%c7] : memref<8xf32>
  return
}
"""
    program = compile(src, _host_target(), checked=True)
    with pytest.raises(RuntimeFault, match="exceeds its buffer of 16 bytes \\(argument\\)"):
        program(np.zeros(4, np.float32))


def _outcome(run: Any) -> tuple[str, str | None]:
    """(what it printed, FILE:LINE:COL of its fault or None)."""
    import io
    from contextlib import redirect_stdout

    from frontend.errors import RuntimeFault

    out = io.StringIO()
    with redirect_stdout(out):
        try:
            run()
        except RuntimeFault as e:
            return out.getvalue(), str(e).split(": error:")[0]
    return out.getvalue(), None


@pytest.mark.parametrize("path", sorted((HOSTILE / "agree").glob("*.mlir")), ids=lambda p: p.stem)
def test_compiled_runs_agree_with_the_interpreter(path: Path) -> None:
    """User functions named like runtime or C-library symbols (@exp, @malloc, @eqsat_fault)
    keep their own meaning and leave code generation's calls alone; names LLVM cannot spell
    (@"é", @""); unsigned and overflowing loops: the compiled program prints what the
    interpreter prints and faults where it faults."""
    from eqsat.codegen.api import compile
    from eqsat.interpreter import Interpreter
    from frontend import parse

    module = parse(path.read_text(), str(path))
    program = compile(module, _host_target(), "entry", checked=True)
    want = _outcome(lambda: Interpreter(module, out=sys.stdout).call("entry"))
    assert _outcome(program) == want


WRITES = """
func.func @f(%m: memref<4xi8>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 7 : i8
  memref.store %x, %m[%c0] : memref<4xi8>
  return
}
func.func @g(%m: memref<4xi8>) -> i8 {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<4xi8>
  return %x : i8
}
"""


def _read_only_arrays() -> list[np.ndarray]:
    frozen = np.ones(4, np.int8)
    frozen.flags.writeable = False
    return [np.frombuffer(bytes([1, 1, 1, 1]), np.int8), frozen]


@pytest.mark.parametrize("engine", ["interpreter", "compiled"])
def test_read_only_arrays_are_never_written(engine: str) -> None:
    """A write into a read-only array (immutable bytes behind np.frombuffer, writeable=False)
    is an error naming the argument; reading one is fine."""
    from eqsat.codegen.api import compile
    from eqsat.interpreter import Interpreter
    from frontend import parse

    module = parse(WRITES)
    if engine == "compiled":
        program = compile(module, _host_target())
        f, g = program.f, program.g
    else:
        f = lambda a: Interpreter(module).call("f", a)  # noqa: E731
        g = lambda a: Interpreter(module).call("g", a)  # noqa: E731
    for a in _read_only_arrays():
        assert g(a) == 1
        with pytest.raises((TypeError, ValueError), match="writes to a read-only array"):
            f(a)
        assert a.tolist() == [1, 1, 1, 1]


def test_threads_compiling_in_a_fresh_process() -> None:
    """The op table is loaded once, whole, before any thread's lookup sees it."""
    code = """
import threading
from eqsat.codegen.api import compile
errors = []
def go():
    try:
        compile("func.func @f(%a: i32) -> i32 {\\n  return %a : i32\\n}\\n")
    except Exception as e:
        errors.append(repr(e))
threads = [threading.Thread(target=go) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(errors)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=TIMEOUT)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_enabled_features_the_host_lacks_keep_code_from_running() -> None:
    """A target file enabling AVX-512 without listing it in `requires` is still refused
    here when the host lacks it (running it would be SIGILL)."""
    import llvmlite.binding as llvm

    from eqsat.codegen.api import compile
    from eqsat.codegen.types import CodegenError
    from eqsat.targets import load_target

    if llvm.get_host_cpu_features().get("avx512bw", False):
        pytest.skip("this host has AVX-512: the file's code would run")
    target = load_target(HOSTILE / "targets_host" / "avx512_without_requires.toml")
    assert not target.requires and not target.runs_on_host()
    with pytest.raises(CodegenError, match="this host cannot execute code .* lacks avx512bw"):
        compile("func.func @f() {\n  return\n}\n", target)


def test_closed_stdin_is_a_clean_error() -> None:
    r = subprocess.run([sys.executable, "-m", "eqsat.cli", "parse", "-"], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=TIMEOUT,
                       preexec_fn=lambda: __import__("os").close(0))  # fmt: skip
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("eqsat: error: cannot read <stdin>: standard input is closed")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this host")
@pytest.mark.parametrize("args", [["parse", EXAMPLE], ["run", EXAMPLE, "--target", "interp"]],
                         ids=["parse", "run"])  # fmt: skip
def test_output_to_a_full_device(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "eqsat.cli", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)  # fmt: skip
    assert r.returncode == 1, r.stderr
    assert r.stderr == "eqsat: error: cannot write the output: No space left on device\n"


def test_bench_scalar_out_of_range(tmp_path: Path) -> None:
    path = tmp_path / "k.mlir"
    path.write_text("func.func @k(%m: memref<16xf32>, %n: i8) {\n  return\n}\n")
    r = eqsat("bench", str(path), "--entry", "k", "--arg", "n=300", "--repeats", "1")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "--arg n=300: out of range for i8 (-128 to 127)" in r.stderr


SPIN = """
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000 : index
  scf.for %i = %c0 to %n step %c1 {
    vector.print %i : index
  }
  return
}
"""


# prints one line, then runs for ever compiled (its iv xor-folded so LLVM keeps the loop)
SPIN_COMPILED = """
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 9000000000000000000 : index
  %z = arith.constant 0 : i64
  vector.print %c0 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i64) {
    %j = arith.index_cast %i : index to i64
    %b = arith.xori %a, %j : i64
    scf.yield %b : i64
  }
  vector.print %r : i64
  return
}
"""


def _sigint_default() -> None:
    """In the child: SIGINT's default action. A suite started in the background by a
    non-interactive shell (CI scripts: ``cmd &``) runs with SIGINT ignored, and an ignored
    signal stays ignored across exec, so eqsat (rightly) keeps it ignored and the test's
    Ctrl-C would do nothing."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_ctrl_c_stops_a_run(engine: str, tmp_path: Path) -> None:
    """SIGINT while a program runs (interpreted, or compiled in its child process): "eqsat:
    interrupted", exit 130, no traceback, no process left running."""
    import os
    import signal

    path = tmp_path / "spin.mlir"
    path.write_text(SPIN if engine == "interp" else SPIN_COMPILED)
    target = "interp" if engine == "interp" else _host_target()
    p = subprocess.Popen([sys.executable, "-m", "eqsat.cli", "run", str(path), "--target",
                          target], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONUNBUFFERED": "1"},
                         preexec_fn=_sigint_default)  # fmt: skip
    try:
        assert p.stdout is not None and p.stdout.readline() == "0\n"  # it is running
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=TIMEOUT)
    finally:
        p.kill()
    assert p.returncode == 130 and err == "eqsat: interrupted\n", err


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_a_killed_run_leaves_no_generated_code_running(tmp_path: Path) -> None:
    """SIGKILL to `eqsat run` while its compiled code spins in the guard's child: the child
    dies with it (PR_SET_PDEATHSIG), instead of spinning on as an orphan."""
    import os
    import signal
    import time

    path = tmp_path / "spin.mlir"
    path.write_text(SPIN_COMPILED)
    p = subprocess.Popen([sys.executable, "-m", "eqsat.cli", "run", str(path), "--target",
                          _host_target()], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    try:
        assert p.stdout is not None and p.stdout.readline() == "0\n"  # the child is running
        children = Path(f"/proc/{p.pid}/task/{p.pid}/children").read_text().split()
        assert len(children) == 1, children
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=TIMEOUT)
        deadline = time.monotonic() + 10
        while Path(f"/proc/{children[0]}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # (an orphan is reaped by init once it is killed)
        state = Path(f"/proc/{children[0]}/stat")
        alive = state.exists() and state.read_text().split(") ")[-1][:1] not in ("Z", "X")
        assert not alive, "the guard's child outlived its parent"
    finally:
        p.kill()


@pytest.mark.parametrize("module", ["eqsat", "eqsat.cli"])
def test_ctrl_c_while_the_command_line_imports(module: str) -> None:
    """SIGINT while Python is still importing eqsat (sent once numpy, the first of the big
    imports, is loaded, as -X importtime reports): the same one line and exit 130."""
    import signal

    p = subprocess.Popen([sys.executable, "-X", "importtime", "-m", module, "parse",
                          str(HOSTILE / "bad_token.mlir")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=_sigint_default)  # fmt: skip
    try:
        assert p.stderr is not None
        for line in p.stderr:
            if line.split("|")[-1].strip() == "numpy":
                p.send_signal(signal.SIGINT)
                break
        else:
            pytest.fail("numpy was never imported")
        _, err = p.communicate(timeout=TIMEOUT)
    finally:
        p.kill()
    said = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert p.returncode == 130 and said == ["eqsat: interrupted"], err


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_run_max_seconds(engine: str, tmp_path: Path) -> None:
    path = tmp_path / "spin.mlir"
    path.write_text(SPIN_COMPILED)
    target = "interp" if engine == "interp" else _host_target()
    r = eqsat("run", str(path), "--target", target, "--max-seconds", "1")
    # (the compiled run's limit counts its compilation too: it may stop before printing)
    assert r.returncode == 1 and r.stdout in ("0\n", ""), r.stderr
    assert r.stderr.endswith("did not finish within 1 s (--max-seconds); stopped\n"), r.stderr


@pytest.mark.parametrize("target", ["interp", "compiled"])
def test_string_bytes_print_as_mlir_runner_prints_them(target: str) -> None:
    """`"\\FF"` is the byte 0xFF (not the UTF-8 of U+00FF) and a NUL ends the string, as
    mlir-runner-22 prints them (measured: `a\\xffbA\\t"`)."""
    path = HOSTILE / "agree" / "string_escapes.mlir"
    t = "interp" if target == "interp" else _host_target()
    r = subprocess.run([sys.executable, "-m", "eqsat.cli", "run", str(path), "--target", t],
                       capture_output=True, timeout=TIMEOUT)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout == b'a\xffbA\t"'


@pytest.mark.parametrize(
    "name",
    [
        "nested_function", "for_bounds_not_index", "mask_non_maskable", "module_in_function",
        "module_without_block", "module_block_arguments", "named_module_in_function",
    ],
)  # fmt: skip
def test_mlir_rejects_them_too(name: str) -> None:
    """Forms our verifier once accepted: mlir-opt-22 rejects them with the same message."""
    from tests import mlir_tools

    opt = mlir_tools.find_tool("mlir-opt", 22)
    if opt is None:
        pytest.skip("mlir-opt-22 is not installed")
    path = HOSTILE / f"{name}.mlir"
    theirs = subprocess.run([opt, str(path)], capture_output=True, text=True, timeout=TIMEOUT)
    ours = eqsat("parse", str(path))
    assert theirs.returncode == 1 and ours.returncode == 1
    t, o = theirs.stderr.splitlines()[0], ours.stderr.splitlines()[0]
    assert t.split(":")[:2] == o.split(":")[:2]  # the same file and line
    assert t.split(" error: ", 1)[1] in o  # (we may say more)


@pytest.mark.parametrize("path", sorted((HOSTILE / "compile").glob("*.mlir")), ids=lambda p: p.stem)
def test_what_code_generation_refuses_is_located(path: Path) -> None:
    """An input the interpreter takes but code generation does not: an error at the op."""
    r = eqsat("run", str(path), "--target", _host_target())
    assert_located_error(r, path)


# A builtin.module inside a function body: mlir-opt-22 takes an unnamed one with one block
# (custom or generic form, holding functions or nothing), and refuses the rest.
MODULES_IN_FUNCTIONS = {
    "custom_empty": ("builtin.module {\n  }", None),
    "generic_with_function": (
        '"builtin.module"() ({\n    func.func @g() {\n      return\n    }\n  }) : () -> ()',
        None,
    ),
    "generic_empty_block": ('"builtin.module"() ({\n  ^bb0:\n  }) : () -> ()', None),
    "two_blocks": (
        '"builtin.module"() ({\n  ^bb0:\n  ^bb1:\n  }) : () -> ()',
        "'builtin.module' op expects region #0 to have 0 or 1 blocks",
    ),
    "no_block": (
        '"builtin.module"() ({\n  }) : () -> ()',
        "'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: "
        "region with 1 blocks",
    ),
}


@pytest.mark.parametrize("name", sorted(MODULES_IN_FUNCTIONS))
def test_a_module_inside_a_function_is_judged_as_mlir_opt_judges_it(name: str) -> None:
    from frontend import parse, print_module
    from frontend.errors import MLIRError
    from tests import mlir_tools

    body, refusal = MODULES_IN_FUNCTIONS[name]
    src = f"func.func @f() {{\n  {body}\n  return\n}}\n"
    if refusal is None:
        again = print_module(parse(src))
        assert "builtin.module {" in again and print_module(parse(again)) == again
    else:
        with pytest.raises(MLIRError, match=re.escape(refusal)):
            parse(src)
    opt = mlir_tools.find_tool("mlir-opt", 22)
    if opt is not None:
        theirs = subprocess.run([opt], input=src, capture_output=True, text=True, timeout=TIMEOUT)
        assert (theirs.returncode == 0) == (refusal is None), theirs.stderr
        assert refusal is None or refusal in theirs.stderr
