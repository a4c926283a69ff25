"""Every lowering strategy, forced by a cost table, computes what the op it lowers computes.

For each strategy: a small function holding the original op (several shapes, element types,
kinds), ``optimize_module`` with costs that leave only that strategy affordable; then the rule
must have fired, the decoded function must hold the ops the strategy expands to (and not the
original op), both functions must give bit-identical results in the reference interpreter on
random inputs, and the expanded program must verify with real MLIR (``mlir-opt-22``, or
``mlir-opt-19`` for the ops MLIR 22 removed) when it is installed.
"""

from __future__ import annotations

import functools
import subprocess
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from eqsat.cost import vv_cost
from eqsat.interpreter import Interpreter
from eqsat.optimizer import OptimizeResult, optimize_module
from eqsat.rulefile import rules_dir, RuleFile, load
from eqsat.strategies import STRATEGIES
from frontend import parse, print_module
from frontend.ir import Module
from frontend.semantics import dtype_of
from frontend.types import IndexType, MemRefType, VectorType
from tests.mlir_tools import find_tool

BIG = 1e6
REMOVED_IN_22 = ("vector.flat_transpose", "vector.matrix_multiply")


@dataclass(frozen=True, eq=False)
class Case:
    id: str
    strategy: str
    rule: str
    original: str  # the constructor the strategy replaces (priced out)
    body: str  # the function, named @f
    expect: tuple[str, ...]  # ops the expansion must contain
    absent: str | None = None  # an op that must be gone
    ints: bool = False  # integer-valued float inputs (sums exact in any order)
    scalars: dict[int, int] = field(default_factory=dict)  # argument # -> index value
    fp_contract: bool = False  # fp-contract mode: optimized, and both sides run, in it


def force(case: Case) -> Any:
    costs = {name: BIG for name in STRATEGIES if name != case.strategy}
    costs[case.original] = BIG
    costs[case.strategy] = 1.0
    return vv_cost(costs)


def random_args(module: Module, case: Case, rng: np.random.Generator) -> list[Any]:
    func = module.functions()["f"]
    args: list[Any] = []
    for i, t in enumerate(func.attributes["function_type"].type.inputs):
        if isinstance(t, IndexType):
            args.append(case.scalars[i])
            continue
        shape = tuple(t.shape) if isinstance(t, (VectorType, MemRefType)) else ()
        elem = str(t.element) if isinstance(t, (VectorType, MemRefType)) else str(t)
        dt = dtype_of(elem)
        if elem == "i1":
            a = rng.integers(0, 2, shape).astype(bool)
        elif np.issubdtype(dt, np.floating) and not case.ints:
            a = rng.standard_normal(shape).astype(dt)
        else:
            a = rng.integers(-5, 6, shape).astype(dt)
        args.append(np.array(a) if shape else a[()])
    return args


def run(module: Module, args: list[Any], fp_contract: bool = False) -> list[Any]:
    copies = [np.array(a) if isinstance(a, np.ndarray) else a for a in args]
    out = Interpreter(module, fp_contract=fp_contract).call("f", *copies)
    outs = list(out) if isinstance(out, tuple) else [out]
    return outs + [a for a in copies if isinstance(a, np.ndarray)]


def same(a: Any, b: Any) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def ops_of(module: Module) -> list[str]:
    return [op.name for op in module.walk()]


def func(sig: str, ret: str, body: str) -> str:
    return f"func.func @f({sig}) -> {ret} {{\n{body}\n}}\n"


# -- cases ---------------------------------------------------------------------------------------------
MM = ("#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, "
      "affine_map<(m, n, k) -> (m, n)>], iterator_types = [\"parallel\", \"parallel\", "
      "\"reduction\"], kind = #vector.kind<KIND>}\n")
MM_T = ("#mm = {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, "
        "affine_map<(m, n, k) -> (n, m)>], iterator_types = [\"parallel\", \"parallel\", "
        "\"reduction\"], kind = #vector.kind<KIND>}\n")
MV = ("#mm = {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (k)>, "
      "affine_map<(m, k) -> (m)>], iterator_types = [\"parallel\", \"reduction\"], "
      "kind = #vector.kind<KIND>}\n")
VM = ("#mm = {indexing_maps = [affine_map<(k, n) -> (k)>, affine_map<(k, n) -> (k, n)>, "
      "affine_map<(k, n) -> (n)>], iterator_types = [\"reduction\", \"parallel\"], "
      "kind = #vector.kind<KIND>}\n")
BATCH = ("#mm = {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, "
         "affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (m, b, n)>], "
         "iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"reduction\"], "
         "kind = #vector.kind<KIND>}\n")
DOT2 = ("#mm = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, "
        "affine_map<(i, j) -> ()>], iterator_types = [\"reduction\", \"reduction\"], "
        "kind = #vector.kind<KIND>}\n")
OUTER = ("#mm = {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, "
         "affine_map<(i, j) -> (j, i)>], iterator_types = [\"parallel\", \"parallel\"], "
         "kind = #vector.kind<KIND>}\n")


def contract(trait: str, kind: str, lhs: str, rhs: str, acc: str) -> str:
    return trait.replace("KIND", kind) + func(
        f"%a: {lhs}, %b: {rhs}, %c: {acc}", acc,
        f"  %r = vector.contract #mm %a, %b, %c : {lhs}, {rhs} into {acc}\n  return %r : {acc}")


CONTRACTS = {  # id -> (program, integer-valued inputs needed for exact float sums in any order)
    "mm-f32": (contract(MM, "add", "vector<2x3xf32>", "vector<3x4xf32>", "vector<2x4xf32>"), False),
    "mm-t-f32": (contract(MM_T, "add", "vector<3x2xf32>", "vector<4x3xf32>", "vector<4x2xf32>"),
                 False),
    "mm-i32": (contract(MM, "add", "vector<3x2xi32>", "vector<2x3xi32>", "vector<3x3xi32>"), False),
    "mm-f16-f32": (contract(MM, "add", "vector<2x4xf16>", "vector<4x3xf16>", "vector<2x3xf32>"),
                   False),
    "mm-f32-f16": (contract(MM, "add", "vector<2x3xf32>", "vector<3x2xf32>", "vector<2x2xf16>"),
                   False),
    "mm-i8-i32": (contract(MM, "add", "vector<2x4xi8>", "vector<4x2xi8>", "vector<2x2xi32>"), False),
    "mm-maxnumf": (contract(MM, "maxnumf", "vector<2x3xf32>", "vector<3x4xf32>", "vector<2x4xf32>"),
                   False),
    "mm-mul-i32": (contract(MM, "mul", "vector<2x2xi32>", "vector<2x3xi32>", "vector<2x3xi32>"),
                   False),
    "mv-f32": (contract(MV, "add", "vector<4x3xf32>", "vector<3xf32>", "vector<4xf32>"), False),
    "vm-f64": (contract(VM, "add", "vector<3xf64>", "vector<3x5xf64>", "vector<5xf64>"), False),
    "vm-minsi": (contract(VM, "minsi", "vector<3xi16>", "vector<3x5xi16>", "vector<5xi16>"), False),
}
GENERAL = {
    "batch-f32": contract(BATCH, "add", "vector<2x3x4xf32>", "vector<2x4x2xf32>",
                          "vector<3x2x2xf32>"),
    "dot2-f32": contract(DOT2, "add", "vector<2x3xf32>", "vector<3x2xf32>", "f32"),
    "outer-xor": contract(OUTER, "xor", "vector<3xi8>", "vector<2xi8>", "vector<2x3xi8>"),
    "batch-maximumf": contract(BATCH, "maximumf", "vector<2x3x4xf16>", "vector<2x4x2xf16>",
                               "vector<3x2x2xf16>"),
}

CASES: list[Case] = []


def add(*cases: Case) -> None:
    CASES.extend(cases)


for cid, (prog, ints) in CONTRACTS.items():
    for strat, rule in (("ContractDot", "contract-as-dot"),
                        ("ContractParallel", "contract-as-parallel-arith")):
        add(Case(f"{strat}-{cid}", strat, rule, "Contract", prog,
                 ("vector.reduction",) if strat == "ContractDot" else ("vector.multi_reduction",),
                 "vector.contract", ints))
    rule = "contract-matvec-as-outerproducts" if cid[:2] in ("mv", "vm") else \
        "contract-matmul-as-outerproducts"
    add(Case(f"ContractOuter-{cid}", "ContractOuter", rule, "Contract", prog,
             ("vector.outerproduct",), "vector.contract", ints))
    if "kind = #vector.kind<add>" in prog and "xf" in prog.split(" into ")[1]:
        add(Case(f"ContractOuterFused-{cid}", "ContractOuterFused",
                 rule.replace("-as-outerproducts", "-as-fused-outerproducts"), "Contract", prog,
                 ("vector.outerproduct",), "vector.contract", fp_contract=True))
    if cid.startswith("mm") and "add" in prog.split("kind = #vector.kind<")[1][:4]:
        acc_is_float = "xf" in prog.split(" into ")[1].split(">")[0]
        rule = "contract-as-matrix-multiply" + ("-float" if acc_is_float else "")
        add(Case(f"ContractMatmul-{cid}", "ContractMatmul", rule,
                 "Contract", prog, ("vector.matrix_multiply",), "vector.contract", ints=True))
PAIRS = {  # float matmuls with an even reduction length and row width (pair broadcasts)
    "mm-f32": contract(MM, "add", "vector<3x4xf32>", "vector<4x6xf32>", "vector<3x6xf32>"),
    "mm-t-f32": contract(MM_T, "add", "vector<2x3xf32>", "vector<4x2xf32>", "vector<4x3xf32>"),
    "mm-f16-f32": contract(MM, "add", "vector<2x4xf16>", "vector<4x8xf16>", "vector<2x8xf32>"),
}
for cid, prog in PAIRS.items():
    add(Case(f"ContractPairBroadcast-{cid}", "ContractPairBroadcast",
             "contract-as-pair-broadcasts", "Contract", prog, ("vector.shuffle",),
             "vector.contract", ints=True))
for cid, prog in GENERAL.items():
    to = "-to-scalar" if "into f32" in prog else ""
    add(Case(f"ContractDot-{cid}", "ContractDot", f"contract{to}-as-dot", "Contract", prog,
             ("vector.reduction",), "vector.contract"),
        Case(f"ContractParallel-{cid}", "ContractParallel", f"contract{to}-as-parallel-arith",
             "Contract", prog, (), "vector.contract"))


def unary(op: str, src: str, dst: str, attrs: str = "", name: str = "") -> str:
    return func(f"%a: {src}", dst, f"  %r = {op} %a{attrs} : {src} to {dst}\n  return %r : {dst}")


def transpose(src: str, perm: str, dst: str) -> str:
    return func(f"%a: {src}", dst,
                f"  %r = vector.transpose %a, {perm} : {src} to {dst}\n  return %r : {dst}")


for cid, prog in {
    "2x3xf32": transpose("vector<2x3xf32>", "[1, 0]", "vector<3x2xf32>"),
    "2x3x4xi32": transpose("vector<2x3x4xi32>", "[2, 0, 1]", "vector<4x2x3xi32>"),
    "4x2xi1": transpose("vector<4x2xi1>", "[1, 0]", "vector<2x4xi1>"),
}.items():
    add(Case(f"TransposeElementwise-{cid}", "TransposeElementwise", "transpose-as-elementwise",
             "Transpose", prog, ("vector.extract", "vector.insert"), "vector.transpose"),
        Case(f"TransposeShuffle-{cid}", "TransposeShuffle", "transpose-as-shuffle",
             "Transpose", prog, ("vector.shuffle",), "vector.transpose"))
for cid, prog in {
    "2x3xf32": transpose("vector<2x3xf32>", "[1, 0]", "vector<3x2xf32>"),
    "4x8xi16": transpose("vector<4x8xi16>", "[1, 0]", "vector<8x4xi16>"),
}.items():
    add(Case(f"TransposeFlat-{cid}", "TransposeFlat", "transpose-as-flat-transpose", "Transpose",
             prog, ("vector.flat_transpose",), "vector.transpose"))
# Staged block shuffles: block size -> 2-D transposes (rows, cols, element type) they apply to.
STAGED = {16: [(16, 16, "f32"), (32, 16, "f32"), (16, 48, "i8")],
          8: [(8, 8, "f32"), (16, 8, "f32"), (8, 24, "i16")],
          4: [(4, 4, "f32"), (8, 12, "f64")]}
for block, shapes in STAGED.items():
    strat = f"TransposeShuffle{block}x{block}"
    for rows, cols, el in shapes:
        prog = transpose(f"vector<{rows}x{cols}x{el}>", "[1, 0]", f"vector<{cols}x{rows}x{el}>")
        add(Case(f"{strat}-{rows}x{cols}x{el}", strat, f"transpose-as-shuffle-{block}x{block}",
                 "Transpose", prog, ("vector.shuffle",), "vector.transpose"))
# The 4x4 transpose by pairs (64-bit elements only: see NOT_APPLICABLE)
for rows, cols, el in [(4, 4, "f64"), (8, 12, "f64"), (4, 8, "i64")]:
    prog = transpose(f"vector<{rows}x{cols}x{el}>", "[1, 0]", f"vector<{cols}x{rows}x{el}>")
    add(Case(f"TransposeShuffle4x4Pairs-{rows}x{cols}x{el}", "TransposeShuffle4x4Pairs",
             "transpose-as-shuffle-4x4-pairs", "Transpose", prog, ("vector.shuffle",),
             "vector.transpose"))


def multi_reduction(kind: str, src: str, dims: str, dst: str) -> str:
    return func(f"%a: {src}, %c: {dst}", dst,
                f"  %r = vector.multi_reduction <{kind}>, %a, %c {dims} : {src} to {dst}\n"
                f"  return %r : {dst}")


for cid, prog in {
    "add-f32-02": multi_reduction("add", "vector<2x3x4xf32>", "[0, 2]", "vector<3xf32>"),
    "maxnumf-f32-1": multi_reduction("maxnumf", "vector<2x3x4xf32>", "[1]", "vector<2x4xf32>"),
    "mul-i32-0": multi_reduction("mul", "vector<3x4xi32>", "[0]", "vector<4xi32>"),
    "xor-i8-1": multi_reduction("xor", "vector<3x4xi8>", "[1]", "vector<3xi8>"),
    "minui-i16-2": multi_reduction("minui", "vector<2x2x5xi16>", "[2]", "vector<2x2xi16>"),
}.items():
    add(Case(f"MultiReductionInnerParallel-{cid}", "MultiReductionInnerParallel",
             "multi-reduction-inner-parallel", "MultiReduction", prog, ("vector.extract",),
             "vector.multi_reduction"),
        Case(f"MultiReductionInnerReduction-{cid}", "MultiReductionInnerReduction",
             "multi-reduction-inner-reduction", "MultiReduction", prog, ("vector.reduction",),
             "vector.multi_reduction"))
add(Case("MultiReductionInnerReduction-all-f32", "MultiReductionInnerReduction",
         "multi-reduction-inner-reduction", "MultiReduction",
         multi_reduction("add", "vector<2x3xf32>", "[0, 1]", "f32"), ("vector.reduction",),
         "vector.multi_reduction"))

for cid, prog in {
    "scalar": unary("vector.broadcast", "f32", "vector<2x3xf32>"),
    "row": unary("vector.broadcast", "vector<3xi32>", "vector<2x3xi32>"),
    "stretch": unary("vector.broadcast", "vector<2x1xf32>", "vector<3x2x4xf32>"),
    "3d": unary("vector.broadcast", "vector<2x1x3xi8>", "vector<2x2x3xi8>"),
    "0d": unary("vector.broadcast", "vector<f32>", "vector<2x2xf32>"),
}.items():
    add(Case(f"BroadcastUnrolled-{cid}", "BroadcastUnrolled", "broadcast-as-rows", "Broadcast",
             prog, ("vector.insert",)))
for cid, prog in {
    "2x3-6": unary("vector.shape_cast", "vector<2x3xf32>", "vector<6xf32>"),
    "6-3x2": unary("vector.shape_cast", "vector<6xi32>", "vector<3x2xi32>"),
    "2x3x4-6x4": unary("vector.shape_cast", "vector<2x3x4xf32>", "vector<6x4xf32>"),
    "4x6-3x8": unary("vector.shape_cast", "vector<4x6xi8>", "vector<3x8xi8>"),
    "4-1x4": unary("vector.shape_cast", "vector<4xf32>", "vector<1x4xf32>"),
    "1x1x4-4": unary("vector.shape_cast", "vector<1x1x4xf32>", "vector<4xf32>"),
}.items():
    add(Case(f"ShapeCastUnrolled-{cid}", "ShapeCastUnrolled", "shape-cast-as-extract-insert",
             "ShapeCast", prog, ("vector.extract",) if cid.endswith("-4") else ("vector.insert",),
             "vector.shape_cast"))
add(Case("ExtractStridedSliceShuffle-8", "ExtractStridedSliceShuffle",
         "extract-strided-slice-as-shuffle", "ExtractStridedSlice",
         func("%a: vector<8xf32>", "vector<4xf32>",
              "  %r = vector.extract_strided_slice %a {offsets = [3], sizes = [4], strides = [1]}"
              " : vector<8xf32> to vector<4xf32>\n  return %r : vector<4xf32>"),
         ("vector.shuffle",), "vector.extract_strided_slice"),
    Case("InsertStridedSliceShuffle-8", "InsertStridedSliceShuffle",
         "insert-strided-slice-as-shuffle", "InsertStridedSlice",
         func("%a: vector<3xi32>, %b: vector<8xi32>", "vector<8xi32>",
              "  %r = vector.insert_strided_slice %a, %b {offsets = [4], strides = [1]}"
              " : vector<3xi32> into vector<8xi32>\n  return %r : vector<8xi32>"),
         ("vector.shuffle",), "vector.insert_strided_slice"))


def read(mem: str, vec: str, attrs: str, mask: str = "", idx: str = "%i") -> str:
    sig = f"%m: {mem}, %i: index, %p: f32" + (", %k: " + mask if mask else "")
    return func(sig, vec, f"  %r = vector.transfer_read %m[{idx}], %p{', %k' if mask else ''}"
                          f" {attrs} : {mem}, {vec}\n  return %r : {vec}")


def write(mem: str, vec: str, attrs: str, mask: str = "", idx: str = "%i") -> str:
    sig = f"%m: {mem}, %i: index, %v: {vec}" + (", %k: " + mask if mask else "")
    return func(sig, "()", f"  vector.transfer_write %v, %m[{idx}]{', %k' if mask else ''}"
                           f" {attrs} : {vec}, {mem}\n  return")


IN = "{in_bounds = [true]}"
OUT = "{in_bounds = [false]}"
READS = {  # id -> (program, index arguments)
    "1d-in": (read("memref<10xf32>", "vector<4xf32>", IN), {1: 3}),
    "1d-out": (read("memref<10xf32>", "vector<4xf32>", OUT), {1: 8}),
    "1d-far": (read("memref<10xf32>", "vector<4xf32>", OUT), {1: 12}),
    "1d-mask": (read("memref<10xf32>", "vector<4xf32>", OUT, "vector<4xi1>"), {1: 7}),
    "1d-mask-in": (read("memref<10xf32>", "vector<4xf32>", IN, "vector<4xi1>"), {1: 2}),
    "2d-row": (read("memref<3x10xf32>", "vector<4xf32>", OUT, idx="%i, %i"), {1: 2}),
}
for cid, (prog, scalars) in READS.items():
    masked_ok = "in_bounds = [false]" in prog or "%k" in prog
    if masked_ok:
        add(Case(f"TransferReadMasked-{cid}", "TransferReadMasked", "transfer-read-as-masked-load"
                 if "false" in prog else "transfer-read-masked-as-masked-load", "TransferRead",
                 prog, ("vector.maskedload",), "vector.transfer_read", scalars=scalars))
    add(Case(f"TransferReadGather-{cid}", "TransferReadGather", "transfer-read-as-gather",
             "TransferRead", prog, ("vector.gather", "vector.step"), "vector.transfer_read",
             scalars=scalars))
add(Case("TransferReadPlain-1d", "TransferReadPlain", "transfer-read-as-load", "TransferRead",
         READS["1d-in"][0], ("vector.load",), "vector.transfer_read", scalars={1: 6}),
    Case("TransferReadPlain-row", "TransferReadPlain", "transfer-read-as-load", "TransferRead",
         read("memref<5x6xf32>", "vector<4xf32>", "{in_bounds = [true]}", idx="%i, %i"),
         ("vector.load",), "vector.transfer_read", scalars={1: 2}))
add(Case("TransferReadPlain-strided", "TransferReadPlain", "transfer-read-as-load",
         "TransferRead", read("memref<5x6xf32, strided<[8, 1], offset: 3>>", "vector<4xf32>",
                              "{in_bounds = [true]}", idx="%i, %i"),
         ("vector.load",), "vector.transfer_read", scalars={1: 1}),
    Case("TransferWritePlain-strided", "TransferWritePlain", "transfer-write-as-store",
         "TransferWrite", write("memref<6xf32, strided<[1], offset: ?>>", "vector<4xf32>", IN),
         ("vector.store",), "vector.transfer_write", scalars={1: 2}))
for cid, (prog, scalars) in {
    "2d-out": (read("memref<5x6xf32>", "vector<3x4xf32>", "{in_bounds = [true, false]}",
                    idx="%i, %i"), {1: 2}),
    "2d-transposed": (read("memref<5x6xf32>", "vector<4x3xf32>",
                           "{permutation_map = affine_map<(d0, d1) -> (d1, d0)>, "
                           "in_bounds = [true, false]}", idx="%i, %i"), {1: 1}),
    "2d-broadcast": (read("memref<5x6xf32>", "vector<3x4xf32>",
                          "{permutation_map = affine_map<(d0, d1) -> (0, d1)>, "
                          "in_bounds = [true, false]}", idx="%i, %i"), {1: 3}),
    "3d": (read("memref<3x4x5xf32>", "vector<2x2x3xf32>", "{in_bounds = [true, true, false]}",
                idx="%i, %i, %i"), {1: 1}),
}.items():
    add(Case(f"TransferReadSplit-{cid}", "TransferReadSplit", "transfer-read-split-rows",
             "TransferRead", prog, ("vector.transfer_read", "vector.insert"), scalars=scalars))

WRITES = {
    "1d-in": (write("memref<10xf32>", "vector<4xf32>", IN), {1: 3}),
    "1d-out": (write("memref<10xf32>", "vector<4xf32>", OUT), {1: 8}),
    "1d-mask": (write("memref<10xf32>", "vector<4xf32>", OUT, "vector<4xi1>"), {1: 7}),
    "1d-mask-in": (write("memref<10xf32>", "vector<4xf32>", IN, "vector<4xi1>"), {1: 1}),
}
for cid, (prog, scalars) in WRITES.items():
    if "in_bounds = [false]" in prog or "%k" in prog:
        add(Case(f"TransferWriteMasked-{cid}", "TransferWriteMasked",
                 "transfer-write-as-masked-store" if "false" in prog
                 else "transfer-write-masked-as-masked-store", "TransferWrite", prog,
                 ("vector.maskedstore",), "vector.transfer_write", scalars=scalars))
    add(Case(f"TransferWriteScatter-{cid}", "TransferWriteScatter", "transfer-write-as-scatter",
             "TransferWrite", prog, ("vector.scatter",), "vector.transfer_write", scalars=scalars))
add(Case("TransferWritePlain-1d", "TransferWritePlain", "transfer-write-as-store", "TransferWrite",
         WRITES["1d-in"][0], ("vector.store",), "vector.transfer_write", scalars={1: 6}),
    Case("TransferWritePlain-row", "TransferWritePlain", "transfer-write-as-store",
         "TransferWrite", write("memref<5x6xf32>", "vector<4xf32>", "{in_bounds = [true]}",
                                idx="%i, %i"), ("vector.store",), "vector.transfer_write",
         scalars={1: 2}),
    Case("TransferWriteSplit-2d-out", "TransferWriteSplit", "transfer-write-split-rows",
         "TransferWrite", write("memref<5x6xf32>", "vector<3x4xf32>",
                                "{in_bounds = [true, false]}", idx="%i, %i"),
         ("vector.transfer_write", "vector.extract"), scalars={1: 2}),
    Case("TransferWriteSplit-transposed", "TransferWriteSplit", "transfer-write-split-rows",
         "TransferWrite", write("memref<5x6xf32>", "vector<4x3xf32>",
                                "{permutation_map = affine_map<(d0, d1) -> (d1, d0)>, "
                                "in_bounds = [true, false]}", idx="%i, %i"),
         ("vector.transfer_write", "vector.extract"), scalars={1: 1}))

# Effects keep their order: a read before and a read after a write of the same memref.
ORDER = func(
    "%m: memref<8xf32>, %i: index, %v: vector<4xf32>, %p: f32",
    "(vector<4xf32>, vector<4xf32>)",
    "  %r0 = vector.transfer_read %m[%i], %p {in_bounds = [false]} : memref<8xf32>, vector<4xf32>\n"
    "  vector.transfer_write %v, %m[%i] {in_bounds = [false]} : vector<4xf32>, memref<8xf32>\n"
    "  %r1 = vector.transfer_read %m[%i], %p {in_bounds = [false]} : memref<8xf32>, vector<4xf32>\n"
    "  return %r0, %r1 : vector<4xf32>, vector<4xf32>")
for strat, rule, op in (("TransferReadMasked", "transfer-read-as-masked-load", "vector.maskedload"),
                        ("TransferReadGather", "transfer-read-as-gather", "vector.gather")):
    add(Case(f"{strat}-order", strat, rule, "TransferRead", ORDER, (op,), "vector.transfer_read",
             scalars={1: 6}))
for strat, rule, op in (("TransferWriteMasked", "transfer-write-as-masked-store",
                         "vector.maskedstore"),
                        ("TransferWriteScatter", "transfer-write-as-scatter", "vector.scatter")):
    add(Case(f"{strat}-order", strat, rule, "TransferWrite", ORDER, (op,),
             "vector.transfer_write", scalars={1: 6}))


# -- the tests -----------------------------------------------------------------------------------------
FAMILY = {"Contract": "contract", "Transpose": "transpose", "MultiReduction": "multi_reduction",
          "Broadcast": "broadcast", "ShapeCast": "shape_cast", "ExtractStridedSlice":
          "strided_slice", "InsertStridedSlice": "strided_slice", "TransferRead": "transfer",
          "TransferWrite": "transfer"}


@functools.cache
def family_rules(family: str, fp_contract: bool = False) -> dict[str, tuple[RuleFile, ...]]:
    """Only the strategy's own rule files (fast-math ones included, and in fp-contract mode
    the fp-contract ones): fast, and the strategy sees the op as written."""
    dirs = ("fast-math", "fp-contract") if fp_contract else ("fast-math",)
    extra = tuple(load(f"{d}/{family}") for d in dirs
                  if (rules_dir() / d / f"{family}.egg").is_file())  # fmt: skip
    return {"explore": (load(f"explore/{family}"),) + extra}


@functools.cache
def expand(case: Case) -> tuple[Module, OptimizeResult]:
    module = parse(case.body)
    return module, optimize_module(module, family_rules(FAMILY[case.original], case.fp_contract),
                                   cost=force(case), fp_contract=case.fp_contract)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_strategy(case: Case) -> None:
    module, result = expand(case)
    applied = result.report.phase("explore").applied
    assert applied.get(case.rule, 0) > 0, f"rule {case.rule} did not fire: {dict(applied)}"
    ops = ops_of(result.module)
    text = print_module(result.module)
    for op in case.expect:
        assert op in ops, f"{op} missing from the expansion:\n{text}"
    if case.absent:
        assert case.absent not in ops, f"{case.absent} still there:\n{text}"
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    for _ in range(3):
        args = random_args(module, case, rng)
        want, got = run(module, args, case.fp_contract), run(result.module, args, case.fp_contract)
        assert len(want) == len(got)
        for w, g in zip(want, got):
            assert same(w, g), f"{case.id}: expected\n{w}\ngot\n{g}\n{text}"


@pytest.mark.parametrize("fused", [1, 0])
def test_pair_broadcasts_fused_and_not(fused: int) -> None:
    """Both forms of ContractPairBroadcast (vector.fma, or mulf + addf) compute the
    contraction: exactly on integer-valued floats (any order, any rounding count), within a
    few ulps of the magnitude on random ones (reassociated)."""
    case = next(c for c in CASES if c.id == "ContractPairBroadcast-mm-f32")
    base = force(case)

    def cost(op: str, lits: tuple[Any, ...], kids: tuple[float, ...]) -> float:
        other = op == "ContractPairBroadcast" and lits[4] != fused
        return base(op, lits, kids) + (BIG if other else 0.0)

    module = parse(case.body)
    result = optimize_module(module, family_rules("contract"), cost=cost)
    ops = ops_of(result.module)
    assert ("vector.fma" in ops) == bool(fused) and "vector.contract" not in ops
    rng = np.random.default_rng(7 + fused)
    for ints in (True, False):
        probe = Case(case.id, case.strategy, case.rule, case.original, case.body, (), ints=ints)
        args = random_args(module, probe, rng)
        want, got = run(module, args), run(result.module, args)
        for w, g in zip(want, got):
            if ints:
                assert same(w, g)
            else:
                assert np.allclose(w, g, rtol=0, atol=1e-5 * float(np.abs(w).max()))


@pytest.mark.parametrize("version", [22, 19])
def test_expansions_verify_with_mlir(version: int) -> None:
    """Every expansion is valid MLIR: one mlir-opt run over all of them (--split-input-file);
    the ops MLIR 22 removed (flat_transpose, matrix_multiply) are checked with MLIR 19."""
    opt = find_tool("mlir-opt", version)
    if opt is None:
        pytest.skip(f"mlir-opt-{version} not installed")
    chunks, ids = [], []
    for case in CASES:
        result = expand(case)[1]
        old = any(op in ops_of(result.module) for op in REMOVED_IN_22)
        if old == (version == 19):
            chunks.append(print_module(result.module, version=version))
            ids.append(case.id)
    proc = subprocess.run([opt, "--split-input-file", "--verify-each"], check=False,
                          input="\n// -----\n".join(chunks), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, f"mlir-opt-{version} rejects an expansion:\n{proc.stderr}"
    assert proc.stdout.count("func.func @f") == len(chunks), ids


NOT_APPLICABLE = [  # (strategy, program): the rules must leave these alone
    ("ContractMatmul", contract(MM, "maxnumf", "vector<2x3xf32>", "vector<3x4xf32>",
                                "vector<2x4xf32>")),  # the intrinsic only sums
    ("ContractOuter", GENERAL["batch-f32"]),  # a batch dim is not an outer product
    ("ContractOuter", GENERAL["dot2-f32"]),  # no free dim
    ("ContractPairBroadcast", contract(MM, "add", "vector<2x3xf32>", "vector<3x4xf32>",
                                       "vector<2x4xf32>")),  # odd reduction length
    ("ContractPairBroadcast", contract(MM, "add", "vector<2x4xf32>", "vector<4x3xf32>",
                                       "vector<2x3xf32>")),  # odd row width
    ("ContractPairBroadcast", contract(MM, "add", "vector<2x4xi32>", "vector<4x2xi32>",
                                       "vector<2x2xi32>")),  # integers: Outer is exact
    ("ContractPairBroadcast", contract(MM, "maxnumf", "vector<2x4xf32>", "vector<4x2xf32>",
                                       "vector<2x2xf32>")),  # sums only
    ("TransposeShuffle16x16", transpose("vector<16x8xf32>", "[1, 0]", "vector<8x16xf32>")),
    ("TransposeShuffle8x8", transpose("vector<8x4xf32>", "[1, 0]", "vector<4x8xf32>")),
    ("TransposeShuffle4x4", transpose("vector<4x6xf32>", "[1, 0]", "vector<6x4xf32>")),
    ("TransposeShuffle4x4Pairs", transpose("vector<4x4xf32>", "[1, 0]", "vector<4x4xf32>")),
    ("TransposeShuffle4x4Pairs", transpose("vector<4x6xf64>", "[1, 0]", "vector<6x4xf64>")),
    ("TransposeFlat", transpose("vector<2x3x4xi32>", "[2, 0, 1]", "vector<4x2x3xi32>")),
    ("MultiReductionInnerParallel", multi_reduction("add", "vector<2x3xf32>", "[0, 1]", "f32")),
    ("TransferReadPlain", read("memref<10xf32>", "vector<4xf32>", OUT)),  # may leave the memref
    ("TransferReadPlain", read("memref<4x4xf32, strided<[1, 4]>>", "vector<4xf32>", IN,
                               idx="%i, %i")),  # vector.load needs a unit innermost stride
    ("TransferReadMasked", read("memref<10xf32>", "vector<4xf32>", IN)),  # nothing to mask
    ("TransferReadSplit", read("memref<5x6xf32>", "vector<3x4xf32>",
                               "{in_bounds = [false, true]}", idx="%i, %i")),  # rows may be OOB
    ("TransferReadGather", read("memref<5x6xf32>", "vector<4xf32>",
                                "{permutation_map = affine_map<(d0, d1) -> (d0)>, "
                                "in_bounds = [false]}", idx="%i, %i")),  # not the minor dim
    ("TransferWritePlain", write("memref<10xf32>", "vector<4xf32>", IN, "vector<4xi1>")),
]


@pytest.mark.parametrize("strategy,program", NOT_APPLICABLE,
                         ids=[f"{s}-{i}" for i, (s, _) in enumerate(NOT_APPLICABLE)])
def test_guards(strategy: str, program: str) -> None:
    """Where a strategy would be wrong (or invalid MLIR) its rules do not apply."""
    family = {"Contract": "contract", "Transpose": "transpose", "MultiReduction":
              "multi_reduction", "TransferRead": "transfer", "TransferWrite": "transfer"}
    name = next(f for prefix, f in family.items() if strategy.startswith(prefix))
    result = optimize_module(parse(program), family_rules(name))
    assert result.egraph is not None
    table = result.egraph.raw.freeze().functions.get(strategy)
    assert table is None or not table.rows, f"{strategy} was introduced"


def test_every_strategy_is_tested() -> None:
    tested = {c.strategy for c in CASES}
    assert set(STRATEGIES) <= tested, set(STRATEGIES) - tested


def test_strategies_lose_at_vv_level() -> None:
    """With every rule file and the plain VV cost model the original op (cost 1) is kept:
    every expansion costs more."""
    from eqsat.schema import by_constructor

    for case in CASES[::9]:
        result = optimize_module(parse(case.body))
        assert by_constructor()[case.original].op in ops_of(result.module), case.id


@pytest.mark.parametrize("case", [c for c in CASES if c.id in (
    "ContractOuter-mm-t-f32", "TransferReadMasked-order", "MultiReductionInnerParallel-add-f32-02",
    "TransposeShuffle16x16-32x16xf32")], ids=lambda c: c.id)
def test_strategy_with_every_rule_file(case: Case) -> None:
    """Forced strategies still apply after canonicalization, with every rule file installed."""
    module = parse(case.body)
    result = optimize_module(module, cost=force(case))
    assert result.report.phase("explore").applied.get(case.rule, 0) > 0
    args = random_args(module, case, np.random.default_rng(0))
    for w, g in zip(run(module, args), run(result.module, args)):
        assert same(w, g), case.id
