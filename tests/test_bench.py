"""`eqsat bench`: MLIR 22 baseline pipelines, the llvmlite timing harness, JSON and errors.

Timings are never asserted (only that they exist); few repeats and 1 ms samples keep it fast.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from eqsat.bench import mlir_baseline, run
from eqsat.bench.command import format_report, report_json
from eqsat.bench.harness import BenchError, Compiled, compare, make_inputs, signature
from eqsat.cli import main
from eqsat.targets import load_target
from frontend import parse

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "experiments" / "bench_kernels"
HAVE_MLIR = all(mlir_baseline.find_tool(t) for t in ("mlir-opt", "mlir-translate"))
needs_mlir = pytest.mark.skipif(
    not HAVE_MLIR, reason="mlir-opt-22 / mlir-translate-22 not installed (mlir-22-tools)"
)
FAST = ["--repeats", "1", "--sample-ms", "1", "--placements", "1", "--space", "single"]


def _host_target() -> str:
    for name in ("avx2", "x86-64-v2"):
        if load_target(name).runs_on_host():
            return name
    pytest.skip("this host runs none of the x86-64 targets")


# A kernel with a scalar argument, a memref written through and a scalar result, and LLVM IR
# for it by hand in MLIR's ABI: right (B = A * s) and deliberately wrong (B = A + s).
SCALE = """
func.func @scale(%s: f32, %A: memref<8xf32>, %B: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %x = vector.transfer_read %A[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  %sb = vector.broadcast %s : f32 to vector<8xf32>
  %y = arith.mulf %x, %sb : vector<8xf32>
  vector.transfer_write %y, %B[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  %e = vector.extract %y[0] : f32 from vector<8xf32>
  return %e : f32
}
"""
SCALE_LL = """
define float @scale(float %s, ptr %a0, ptr %a1, i64 %a2, i64 %a3, i64 %a4,
                    ptr %b0, ptr %b1, i64 %b2, i64 %b3, i64 %b4) {
  %x = load <8 x float>, ptr %a1, align 4
  %v = insertelement <8 x float> poison, float %s, i64 0
  %sb = shufflevector <8 x float> %v, <8 x float> poison, <8 x i32> zeroinitializer
  %y = OP <8 x float> %x, %sb
  store <8 x float> %y, ptr %b1, align 4
  %e = extractelement <8 x float> %y, i64 0
  ret float %e
}
"""


def _scale_outputs(op: str, target: str) -> tuple[list, list]:
    module = parse(SCALE, "scale.mlir")
    sig = signature(module, "scale")
    inputs = make_inputs(sig, {"s": "1.5"}, seed=3)
    ref = run.interpret(module, sig, inputs)
    got = Compiled(SCALE_LL.replace("OP", op), sig, load_target(target)).run(inputs)
    return ref, got


def test_results_equal_accepts_right_and_detects_wrong_code() -> None:
    target = _host_target()
    ref, good = _scale_outputs("fmul", target)
    assert compare(ref, good, run.RTOL).equal
    assert good[-1] == pytest.approx(float(ref[-1]))  # the scalar result came back
    ref, bad = _scale_outputs("fadd", target)
    agreement = compare(ref, bad, run.RTOL)
    assert not agreement.equal and agreement.label().startswith("NO")


def test_compare_tolerance_and_exactness() -> None:
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    assert compare([a], [a.copy()], 1e-5).exact
    close = compare([a], [a + np.float32(1e-7)], 1e-5)
    assert close.equal and not close.exact
    assert not compare([a], [a * 2], 1e-5).equal
    assert not compare([np.arange(3)], [np.arange(3) + 1], 1e-5).equal


def test_exact_means_the_same_bits_and_a_zeros_sign_counts() -> None:
    """-0.0 == +0.0 as numbers, not as bits: a row with the other zero is right but not
    bit-exact; NaNs match whatever their payload."""
    from eqsat.bench.harness import same_bits

    pos = np.array([0.0, 1.0, np.nan], dtype=np.float32)
    neg = np.array([-0.0, 1.0, -np.nan], dtype=np.float32)
    agreement = compare([pos], [neg], 1e-5)
    assert agreement.equal and not agreement.exact
    assert same_bits([pos[1:]], [neg[1:]]) and not same_bits([pos], [neg])
    assert same_bits([np.float64(0.5)], [np.float32(0.5)])  # a Python float beside a typed one


def test_edge_probes_hold_signed_zeros_nans_and_infinities() -> None:
    """Each probe redraws the float buffers (integers and scalars keep their values); between
    them they hold both zeros, NaNs and both infinities. A row exact on the ordinary inputs
    but not on a probe is no longer exact, and its label says why."""
    from eqsat.bench.harness import Agreement, edge_inputs, with_edges

    inputs = [np.zeros((64,), np.float32), np.arange(8, dtype=np.int32), np.float32(2.0)]
    probes = edge_inputs(inputs)
    assert len(probes) >= 2
    floats = np.concatenate([p[0] for p in probes])
    zeros = floats == 0
    assert np.any(np.signbit(floats) & zeros) and np.any(~np.signbit(floats) & zeros)
    assert np.isnan(floats).any() and np.isposinf(floats).any() and np.isneginf(floats).any()
    assert all(np.array_equal(p[1], inputs[1]) and p[2] == inputs[2] for p in probes)
    exact = Agreement(True, True, 0.0)
    ref = [[np.array([0.0], np.float32)]]
    assert with_edges(exact, ref, [[np.array([0.0], np.float32)]]).exact
    other = with_edges(exact, ref, [[np.array([-0.0], np.float32)]])
    assert other.equal and not other.exact and other.label() == "~ at edges"
    assert with_edges(exact, ref, None) == exact  # not probed: as it was


RMAX = """func.func @rmax(%a: memref<16x8xf32>, %o: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %v = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
  %acc = vector.transfer_read %o[%c0], %p {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  %r = vector.multi_reduction <maxnumf>, %v, %acc [0] : vector<16x8xf32> to vector<8xf32>
  vector.transfer_write %r, %o[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  return
}
"""


@needs_mlir
def test_a_row_with_other_bits_at_edge_values_is_not_bit_exact() -> None:
    """MLIR's maxnumf lowering (llvm.maxnum) may give a maximum of +0 and -0 either sign; the
    interpreter gives +0. Ordinary inputs hold no zeros, so only the edge-value probes tell
    that MLIR's row is not bit-exact; eqsat's row is, on both."""
    target = load_target(_host_target())
    report = run.bench(RMAX, "rmax.mlir", "rmax", target, repeats=1, placements=1,
                       sample_seconds=0.001, only=["mlir-default"])  # fmt: skip
    eq, mlir = report.row("eqsat"), report.row("mlir-default")
    assert eq.exact and mlir.equal and not mlir.exact, report.rows
    assert mlir.agreement.edges is False and "edge-value" in format_report(report)


def test_timer_gives_positive_times() -> None:
    module = parse(SCALE, "scale.mlir")
    sig = signature(module, "scale")
    inputs = make_inputs(sig, {"s": "2"})
    timer = Compiled(SCALE_LL.replace("OP", "fmul"), sig, load_target(_host_target())).timer(
        inputs
    )
    assert timer.calibrate(0.001) >= 1 and timer.sample() > 0


def test_signature_refuses_what_it_cannot_run() -> None:
    vec = parse("func.func @v(%a: vector<4xf32>) {\n  return\n}\n", "v.mlir")
    with pytest.raises(BenchError, match="vectors passed by value are not"):
        signature(vec, "v")
    dyn = parse("func.func @d(%a: memref<?xf32>) {\n  return\n}\n", "d.mlir")
    with pytest.raises(BenchError, match="dynamic shape"):
        signature(dyn, "d")
    sig = signature(parse(SCALE, "s.mlir"), "scale")
    with pytest.raises(BenchError, match="--arg s=VALUE"):
        make_inputs(sig, {})
    with pytest.raises(BenchError, match="no such scalar"):
        make_inputs(sig, {"s": "1", "t": "2"})


def test_inputs_are_64_byte_aligned() -> None:
    sig = signature(parse(SCALE, "s.mlir"), "scale")
    for buf in make_inputs(sig, {"s": "1"})[1:]:
        assert buf.ctypes.data % 64 == 0


def test_clock_is_measured_on_x86() -> None:
    _host_target()
    ghz = run.cpu_clock_ghz()
    assert ghz is not None and 0.2 < ghz[0] < 10 and "measured" in ghz[1]


def test_contraction_flops() -> None:
    def flops(name: str) -> int | None:
        return run.contraction_flops(parse((KERNELS / f"{name}.mlir").read_text()), name)

    assert flops("matmul_8x8x8") == 2 * 8 * 8 * 8
    assert flops("matvec_16x16") == 2 * 16 * 16
    assert flops("dot_64") == 2 * 64
    assert flops("transpose_8x8") is None


def test_pipeline_table_names_every_variant() -> None:
    table = mlir_baseline.pipeline_table()
    names = [v.name for v in mlir_baseline.variants()]
    assert len(names) == len(set(names)) == 22
    for name in names:
        assert f"`{name}`" in table
    assert "vector-contract-lowering=llvmintr" in table
    assert "lowering-strategy=inner-reduction" in table


@needs_mlir
def test_default_variant_is_mlirs_reference_pipeline() -> None:
    """mlir-default, spelled pass by pass, gives the LLVM IR of ``--test-lower-to-llvm``."""
    text = (KERNELS / "reduce_inner_16x64.mlir").read_text()
    default = mlir_baseline.variants()[0]
    ours = mlir_baseline.lower_to_llvm_ir(text, default)
    opt, translate = mlir_baseline.require_tools()
    flags = ["--lower-vector-mask", "--lower-vector-multi-reduction", "--test-lower-to-llvm"]
    lowered = subprocess.run([opt, *flags], input=text, capture_output=True, text=True)
    ll = subprocess.run([translate, "--mlir-to-llvmir"], input=lowered.stdout,
                        capture_output=True, text=True)  # fmt: skip
    assert ll.returncode == 0 and ours == ll.stdout


@needs_mlir
def test_bench_small_kernel_with_mlir_variants() -> None:
    target = load_target(_host_target())
    text = (KERNELS / "matmul_8x8x8.mlir").read_text()
    only = ["mlir-default", "mlir-contract-outerproduct", "mlir-contract-llvmintr+reassoc"]
    report = run.bench(text, "mm.mlir", "matmul_8x8x8", target, repeats=1, reassoc=True,
                       sample_seconds=0.001, only=only, placements=1)  # fmt: skip
    assert [r.variant for r in report.rows if r.variant.startswith("mlir-")] == only
    for row in report.rows:  # with eqsat.codegen installed, the eqsat row comes first
        assert row.ns_per_call and row.ns_per_call > 0 and row.equal, row
        assert report.ratio(row) is not None
    assert report.flops == 1024 and report.ratio(report.rows[0]) == 1.0


@needs_mlir
def test_a_variant_mlir_cannot_lower_is_a_row_not_an_error(tmp_path: Path) -> None:
    """MLIR 22's default (dot) lowering leaves a maxnumf matmul contract unlowered."""
    text = (KERNELS / "matmul_8x8x8.mlir").read_text().replace(
        '"reduction"]}', '"reduction"], kind = #vector.kind<maxnumf>}'
    )
    only = ["mlir-default", "mlir-contract-outerproduct"]
    report = run.bench(text, "mmax.mlir", "matmul_8x8x8", load_target(_host_target()),
                       repeats=1, sample_seconds=0.001, only=only, placements=1)  # fmt: skip
    default, outer = report.row("mlir-default"), report.row("mlir-contract-outerproduct")
    assert default.ns_per_call is None and default.equal is None
    assert default.note == "MLIR cannot lower: the pipeline leaves vector.contract unlowered"
    assert outer.ns_per_call and outer.equal
    assert {"variant": "mlir-default", "ns_per_call": None, "equal": None} in [
        {k: r[k] for k in ("variant", "ns_per_call", "equal")} for r in report_json(report)
    ]


@needs_mlir
def test_each_llvmintr_strategy_is_right_under_its_own_matrix_layout() -> None:
    """MLIR 22's contract llvmintr needs row-major, its transpose llvmintr column-major."""
    target = load_target(_host_target())
    for name, only in [
        ("matmul_8x8x8", "mlir-contract-llvmintr"),
        ("reduce_inner_16x64", "mlir-transpose-llvmintr"),
    ]:
        text = (KERNELS / f"{name}.mlir").read_text()
        report = run.bench(text, name, name, target, repeats=1, sample_seconds=0.001,
                           only=[only], placements=1)  # fmt: skip
        assert report.rows[0].equal, (name, report.rows[0])


@needs_mlir
def test_eqsat_row_appears_when_codegen_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wiring only: a stand-in code generator (MLIR's own IR) takes the eqsat row's place."""
    target = load_target(_host_target())
    text = (KERNELS / "transpose_8x8.mlir").read_text()
    default = mlir_baseline.variants()[0]
    monkeypatch.setattr(
        run, "eqsat_llvm_ir", lambda *a: mlir_baseline.lower_to_llvm_ir(text, default)
    )
    report = run.bench(text, "t.mlir", "transpose_8x8", target, repeats=1, placements=1,
                       sample_seconds=0.001, only=["mlir-transpose-shuffle_1d"])  # fmt: skip
    assert [r.variant for r in report.rows] == ["eqsat", "mlir-transpose-shuffle_1d"]
    assert all(r.equal for r in report.rows)
    assert report.baseline_for(report.rows[1]) is report.rows[0]


@needs_mlir
def test_cli_json_has_exactly_the_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    kernel = str(KERNELS / "transpose_8x8.mlir")
    args = ["bench", kernel, "--entry", "transpose_8x8", "--target", _host_target()]
    assert main([*args, "--baseline", "mlir", "--json", str(out), "--reassoc", *FAST]) == 0
    table = capsys.readouterr().out
    rows = json.loads(out.read_text())
    names = [r["variant"] for r in rows]
    assert "mlir-default" in names and "mlir-transpose-shuffle_16x16+reassoc" in names
    for r in rows:
        assert {"variant", "ns_per_call", "equal", "spread", "compile_ms", "target"} <= set(r)
        assert r["equal"] is True and r["ns_per_call"] > 0 and r["target"] == _host_target()
        lo, hi = r["spread"]
        assert lo <= hi and r["compile_ms"] > 0
        assert (r["same_as"] or r["variant"]) in table  # identical LLVM IR: timed once


def test_report_json_keys_without_timing() -> None:
    report = run.Report("f", "e", load_target("avx2"), 1)
    report.rows = [run.Row("mlir-default", note="MLIR cannot lower: x")]
    assert report_json(report) == [{"variant": "mlir-default", "ns_per_call": None,
                                    "equal": None, "exact": None, "spread": None, "compile_ms": None,
                                    "target": "avx2", "group": "", "same_as": None,
                                    "note": "MLIR cannot lower: x", "fp_contract": False}]  # fmt: skip


def test_cli_missing_mlir_tools_is_a_clean_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _host_target()
    monkeypatch.setattr(mlir_baseline, "find_tool", lambda name, version=22: None)
    kernel = str(KERNELS / "transpose_8x8.mlir")
    rc = main(["bench", kernel, "--entry", "transpose_8x8", "--target", _host_target(),
               "--baseline", "mlir", *FAST])  # fmt: skip
    err = capsys.readouterr().err
    assert rc == 1 and "mlir-opt-22 not found" in err and "apt-get install mlir-22-tools" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--entry", "nope"], "no function @nope"),
        (["--entry", "axpy_8x32"], "give --arg alpha=VALUE"),
        (["--entry", "axpy_8x32", "--arg", "alpha=x"], "not a number"),
    ],
)
def test_cli_input_errors(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the kernel without its "// ARGS: alpha=0.75" line, which would give the missing scalar
    text = (KERNELS / "axpy_8x32.mlir").read_text().replace("// ARGS:", "// (args)")
    kernel = tmp_path / "axpy_8x32.mlir"
    kernel.write_text(text)
    rc = main(["bench", str(kernel), "--target", _host_target(), "--baseline", "mlir", *extra,
               *FAST])  # fmt: skip
    err = capsys.readouterr().err
    assert rc == 1 and message in err and "Traceback" not in err


def test_cli_unknown_target_and_bad_arg_syntax(capsys: pytest.CaptureFixture[str]) -> None:
    kernel = str(KERNELS / "axpy_8x32.mlir")
    assert main(["bench", kernel, "--entry", "axpy_8x32", "--target", "nope"]) == 2  # usage
    assert "unknown target 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["bench", kernel, "--entry", "axpy_8x32", "--arg", "alpha"])
    assert e.value.code == 2 and "--arg expects NAME=VALUE" in capsys.readouterr().err


def test_contraction_kernels_report_the_call_overhead(capsys: pytest.CaptureFixture[str]) -> None:
    """The loop also times an empty function of the kernel's MLIR signature: what the ABI's
    call costs alone."""
    kernel = str(KERNELS / "matmul_8x8x8.mlir")
    args = ["bench", kernel, "--entry", "matmul_8x8x8", "--target", _host_target(), *FAST]
    assert main(args) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("call overhead: "))
    overhead = float(line.split()[2])
    eqsat = float(next(ln for ln in out.splitlines() if ln.startswith("eqsat ")).split()[1])
    assert 0 < overhead < eqsat and "alone" in line


def test_empty_function_has_the_kernels_abi() -> None:
    module = parse(SCALE, "scale.mlir")
    sig = signature(module, "scale")
    from eqsat.bench.harness import empty_function_text

    inputs = make_inputs(sig, {"s": "1.5"}, seed=3)
    Compiled(empty_function_text(sig), sig, load_target(_host_target())).run(inputs)


def test_cli_takes_scalars_from_the_files_args_line(capsys: pytest.CaptureFixture[str]) -> None:
    kernel = str(KERNELS / "axpy_8x32.mlir")  # has "// ARGS: alpha=0.75"
    assert main(["bench", kernel, "--entry", "axpy_8x32", "--target", _host_target(), *FAST]) == 0
    assert capsys.readouterr().out.count("eqsat") >= 1


@needs_mlir
def test_bench_survives_mlir_code_that_overflows_the_stack() -> None:
    """MLIR's lowering of a kernel inside an scf.for puts allocas in the loop body: each
    iteration grows the stack until it overflows. That variant is a row naming the signal and
    the reason; the eqsat row is still timed."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
    if soft == resource.RLIM_INFINITY or soft > 8 << 20:
        pytest.skip("the stack limit is above 8 MiB: 3000 iterations of 4 KiB do not overflow it")
    path = KERNELS / "loops" / "loop_reduce_inner_16x64.mlir"
    text = path.read_text()
    report = run.bench(text, path.name, "loop_reduce_inner_16x64", load_target(_host_target()),
                       scalars={"n": "3000"}, repeats=1, sample_seconds=0.001, placements=1,
                       only=["mlir-default"])  # fmt: skip
    ours, mlir = report.row("eqsat"), report.row("mlir-default")
    assert ours.ns_per_call and ours.equal
    assert mlir.ns_per_call is None and mlir.equal is None
    assert mlir.failure.startswith("crashed (SIGSEGV) while running: stack overflow")
    assert "alloca(s) outside the entry block" in mlir.failure
    row = next(r for r in report_json(report) if r["variant"] == "mlir-default")
    assert row["ns_per_call"] is None and "SIGSEGV" in row["note"]


def test_allocas_outside_the_entry_block_are_counted() -> None:
    from eqsat.bench.isolate import allocas_outside_entry

    ir = ("define void @f() {\n  %a = alloca i32, align 4\n  br label %l\nl:\n"
          "  %b = alloca [64 x float], align 4\n  br label %l\n}\n")  # fmt: skip
    assert allocas_outside_entry(ir) == 1
    assert allocas_outside_entry(ir.replace("  %b = alloca [64 x float], align 4\n", "")) == 0


@needs_mlir
def test_mlirs_default_lowering_of_every_loop_kernel_has_allocas_in_the_loop() -> None:
    """The repetition-loop kernels are the crash cases: MLIR's default lowering puts allocas
    outside the entry block (inside the loop) in each of them."""
    from eqsat.bench.isolate import allocas_outside_entry

    default = mlir_baseline.single_variants("")[0]
    paths = sorted((KERNELS / "loops").glob("*.mlir"))
    assert len(paths) == 10
    for path in paths:
        ir = mlir_baseline.lower_to_llvm_ir(path.read_text(), default)
        assert allocas_outside_entry(ir) >= 1, path.name


def test_every_variant_compiles_under_the_targets_llvm_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Like with like: eqsat's code and a stand-in for MLIR's go to child processes under the
    same options, the target file's (scheduler direction), whatever their names."""
    from eqsat.bench.variants import Variant
    from eqsat.codegen.llvm_options import LlvmOptions

    target = load_target("avx2")
    sig = signature(parse(SCALE, "s.mlir"), "scale")
    from eqsat.bench.isolate import ItemResult

    jobs = []

    def record(job, results):  # type: ignore[no-untyped-def]
        jobs.append(job)
        results.update({i: ItemResult() for i, _ in job.items})

    monkeypatch.setattr(run, "run_isolated", record)
    ir = SCALE_LL.replace("OP", "fmul")
    variants = [Variant("eqsat", lambda: ir), Variant("mlir-default", lambda: ir + "\n"),
                Variant("mlir-x+fast-math", lambda: ir, "+fast-math")]  # fmt: skip
    run.measure(variants, sig, make_inputs(sig, {"s": "1"}), target, 1, 0.001, 2)
    assert len(jobs) == 2  # one process per placement: one set of options
    assert {j.options for j in jobs} == {LlvmOptions.of(target)}
    assert target.schedule == "topdown" and jobs[0].options.schedule == "topdown"
    assert len(jobs[0].items) == 3  # distinct IR: the fast-math copy carries `fast` flags
    assert "fmul fast <8 x float>" in jobs[0].items[2][1]


def test_assembly_is_printed_only_under_the_options_it_was_compiled_with() -> None:
    from eqsat.codegen.llvm_options import LlvmOptions, apply

    target = load_target(_host_target())
    sig = signature(parse(SCALE, "s.mlir"), "scale")
    c = Compiled(SCALE_LL.replace("OP", "fmul"), sig, target)
    assert "vmulps" in c.asm() or "mulps" in c.asm()
    other = LlvmOptions("bidirectional")
    apply(other)
    try:
        with pytest.raises(BenchError, match="print it in the process that compiled it"):
            c.asm()
    finally:
        apply(LlvmOptions.of(target))


def test_fast_math_flags_go_on_every_float_op_and_float_call() -> None:
    from eqsat.bench.variants import with_fast_math

    ir = ("  %a = fadd reassoc <8 x float> %x, %y\n  %b = fcmp olt float %p, %q\n"
          "  %c = tail call reassoc float @llvm.vector.reduce.fadd.v8f32(float 0.0, <8 x float> %a)\n"
          "  %d = call i32 @g(i32 1)\n  %e = add i32 1, 2\n")  # fmt: skip
    out = with_fast_math(ir)
    assert "fadd fast <8 x float>" in out and "fcmp fast olt" in out
    assert "tail call fast float @llvm.vector.reduce.fadd" in out
    assert "call i32 @g" in out and "add i32 1, 2" in out


@needs_mlir
def test_mlirs_avx2_transpose_runs_where_the_host_has_avx2() -> None:
    """MLIR's x86vector 8x8 transpose is inline assembly: the harness parses it (LLVM's asm
    parser is initialised) and the variant is right."""
    target = load_target("avx2")
    if not target.runs_on_host():
        pytest.skip("this host cannot run avx2 code")
    text = (KERNELS / "transpose_8x8.mlir").read_text()
    ir = mlir_baseline.lower_to_llvm_ir(text, next(
        v for v in mlir_baseline.space_variants(text, "", True) if v.name == "mlir-transpose-avx2"))
    assert "vblendps" in ir
    report = run.bench(text, "t.mlir", "transpose_8x8", target, repeats=1, placements=1,
                       sample_seconds=0.001, only=["mlir-transpose-avx2"])  # fmt: skip
    row = report.row("mlir-transpose-avx2")
    assert row.ns_per_call and row.equal and row.failure is None


@needs_mlir
def test_space_names_each_combination_by_what_differs_from_mlirs_default() -> None:
    text = (KERNELS / "matvec_16x16.mlir").read_text()
    names = [v.name for v in mlir_baseline.space_variants(text, "+reassoc", avx2=True)]
    assert len(names) == len(set(names)) == 4 * 4 * 2 * 2 * 2 * 2 * 2
    assert "mlir-default+reassoc" in names
    assert "mlir-contract-outerproduct-transpose-shuffle_1d+reassoc" in names
    first = mlir_baseline.strategy_variants(text, "", avx2=False)
    assert len(first) == 4 * 4 * 2 + 2 * 2 * 2 - 1


def test_a_target_the_host_cannot_run_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    if load_target("avx512").runs_on_host():
        pytest.skip("this host runs avx512 code")
    kernel = str(KERNELS / "transpose_8x8.mlir")
    rc = main(["bench", kernel, "--entry", "transpose_8x8", "--target", "avx512", *FAST])
    err = capsys.readouterr().err
    assert rc == 1 and "this host cannot execute avx512 code" in err and "Traceback" not in err


def test_best_mlir_leaves_out_rows_only_screened() -> None:
    from eqsat.bench.command import best_mlir
    from eqsat.bench.harness import Agreement

    ok = Agreement(True, True, 0.0)
    report = run.Report("f", "e", load_target("avx2"), 1)
    report.rows = [run.Row("mlir-a", ns_per_call=10.0, agreement=ok),
                   run.Row("mlir-b", ns_per_call=8.0, agreement=ok, screened_only=True),
                   run.Row("mlir-c", ns_per_call=9.0, agreement=Agreement(False, False, 1.0))]
    assert best_mlir(report) == {"": ("mlir-a", 10.0)}


@needs_mlir
def test_full_space_search_times_finalists_and_their_twins() -> None:
    """The staged search: rows left after the screen are marked, the best MLIR row was timed
    in full, and a row with the same LLVM IR as a finalist is a finalist too."""
    from eqsat.bench.command import best_mlir

    target = load_target(_host_target())
    text = (KERNELS / "transpose_8x8.mlir").read_text()
    report = run.bench(text, "t.mlir", "transpose_8x8", target, repeats=1, placements=1,
                       sample_seconds=0.001)  # fmt: skip
    names = {r.variant for r in report.rows}
    assert "mlir-default" in names and "mlir-transfer-full_unroll" in names
    best = report.row(best_mlir(report)[""][0])
    assert not best.screened_only and best.equal
    final = {r.same_as or r.variant for r in report.rows if not r.screened_only}
    for r in report.rows:
        if r.screened_only:
            assert (r.same_as or r.variant) not in final, r.variant


def test_eqsat_reassoc_row_reassociates_reductions_without_fast_math_rules() -> None:
    """+reassoc prices float reductions as trees (a reduction over the inner dimension then
    changes strategy), without the fast-math rewrite rules."""
    text = (KERNELS / "reduce_inner_16x64.mlir").read_text()
    target = load_target("avx2")
    strict = run.eqsat_llvm_ir(parse(text), target, "", "nested")
    reassoc = run.eqsat_llvm_ir(parse(text), target, "+reassoc", "nested")
    assert strict != reassoc and "reassoc" in reassoc and "reassoc" not in strict


@needs_mlir
def test_fp_contract_mode_makes_mlirs_outerproduct_the_bit_exact_rival() -> None:
    """In fp-contract mode eqsat's row and MLIR's outerproduct lowering compute the fused
    contraction's bits (the interpreter's in that mode); MLIR's default (dot) rounds each
    product: right, not bit-exact. Without the mode the outerproduct lowering is not
    bit-exact either."""
    target = load_target(_host_target())
    text = (KERNELS / "matmul_8x8x8.mlir").read_text()
    only = ["mlir-default", "mlir-contract-outerproduct"]
    for fused in (True, False):
        report = run.bench(text, "mm.mlir", "matmul_8x8x8", target, repeats=1, placements=1,
                           sample_seconds=0.001, only=only, fp_contract=fused)  # fmt: skip
        eq, dot, outer = (report.row(n) for n in ("eqsat", *only))
        assert report.fp_contract is fused and eq.exact and outer.equal and dot.equal
        assert outer.exact is fused and not dot.exact, report.rows
        assert ("fp-contract mode" in format_report(report)) is fused


def test_mlir_also_runs_after_eqsats_loop_passes() -> None:
    """eqsat's rows are hoisted and unrolled (eqsat.optimizer.loop_level); MLIR's variants
    run on the program after those passes too (mlir-loops-*), where they change it."""
    target = load_target("avx2")
    flat = (KERNELS / "axpy_8x32.mlir").read_text()
    looped = """func.func @k(%x: memref<8xf32>, %y: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %a = vector.transfer_read %x[%c0], %p {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
    %b = vector.transfer_read %y[%c0], %p {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
    %s = arith.addf %a, %b : vector<8xf32>
    vector.transfer_write %s, %y[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  }
  return
}"""  # the read of %x and the read-write pair of %y leave the loop

    def names(text: str, loops: bool = True) -> list[str]:
        vs = run.default_variants(text, parse(text), target, ("", "+reassoc"), "mlir",
                                  only=["mlir-default", "mlir-default+reassoc"],
                                  space="single", loops=loops)  # fmt: skip
        return [v.name for v in vs]

    assert names(looped) == ["eqsat", "eqsat+reassoc", "mlir-default", "mlir-loops-default",
                             "mlir-default+reassoc", "mlir-loops-default+reassoc"]  # fmt: skip
    assert names(looped, loops=False) == names(flat) == [
        "eqsat", "eqsat+reassoc", "mlir-default", "mlir-default+reassoc"]
