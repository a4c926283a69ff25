"""Regenerate the vectorized corpus: linalg kernels vectorized by mlir-opt-22 itself.

Each case below is a linalg kernel on static shapes (memrefs; tensors where the op only
vectorizes there, then ``--one-shot-bufferize``) and a transform script: the whole op through
``transform.structured.vectorize``, ``vectorize_children_and_apply_patterns`` with and without
folding into ``vector.contract``, tiling with ``tile_using_for`` then either, and masked
vectorization with ``vector_sizes`` on partial tiles. For each case this writes

* ``linalg/NAME.mlir``: the source (kernel + transform script), ours, checked in;
* ``NAME.mlir``: mlir-opt-22's output with a ``@entry`` driver appended that fills every
  argument deterministically, calls ``@kernel`` and prints the outputs;
* ``NAME.expected``: what mlir-runner-22 prints for it (``tests/mlir_tools.py`` lowers it).

The corpus tests (``tests/test_vectorized_corpus.py``) need none of MLIR: everything they read
is checked in. Run from the repository root::

    python tests/programs/vectorized/regenerate.py            # every case
    python tests/programs/vectorized/regenerate.py matmul_f32_whole conv_1d_nwc
    python tests/programs/vectorized/regenerate.py --list
    python tests/programs/vectorized/regenerate.py --out /tmp/v NAME   # elsewhere
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from tests import mlir_tools  # noqa: E402

BUFFERIZE = (
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--drop-equivalent-buffer-results",
)


@dataclass(frozen=True)
class Case:
    """One program: a kernel body (``func.func @kernel``), how to vectorize it, what it prints.

    ``schedule`` is the body of the transform script, with ``OP`` standing for the matched
    op's handle; ``outputs`` are the indices of the kernel arguments printed after the call;
    ``scale`` multiplies the (integer) fill values of float arguments."""

    name: str
    kernel: str
    op: str
    schedule: str
    summary: str
    outputs: tuple[int, ...] = (-1,)
    scale: float = 1.0
    tensors: bool = False


# -- transform scripts ----------------------------------------------------------------------------
WHOLE = "transform.structured.vectorize OP : !transform.any_op"
CHILDREN = (
    "%f = transform.get_parent_op OP {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op\n"
    "%v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op"
)

HOIST = "\n%h = transform.structured.hoist_redundant_vector_transfers %v : (!transform.any_op) -> !transform.any_op"
LOWER = """
transform.apply_patterns to %v {
  transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
  transform.apply_patterns.vector.lower_outerproduct
  transform.apply_patterns.vector.transfer_permutation_patterns
  transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = innerparallel
  transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
  transform.apply_patterns.vector.lower_broadcast
  transform.apply_patterns.vector.lower_transpose lowering_strategy = eltwise
  transform.apply_patterns.vector.lower_shape_cast
} : !transform.any_op"""


def children(*options: str) -> str:
    """``vectorize_children_and_apply_patterns`` with these unit options."""
    return CHILDREN.replace("apply_patterns %f :", f"apply_patterns %f {{{', '.join(options)}}} :")


CHILDREN_NOFOLD = children("disable_multi_reduction_to_contract_patterns")


def tiled(tiles: list[int], then: str, sizes: list[int] | None = None) -> str:
    """Tile with ``tile_using_for``, then ``then`` (WHOLE, CHILDREN, ...) on the tile; with
    ``sizes``, masked vectorization of the tile to those vector sizes."""
    n = sum(1 for t in tiles if t)
    loops = ", ".join(["!transform.any_op"] * n)
    head = (
        f"%t, %loops:{n} = transform.structured.tile_using_for OP tile_sizes {tiles} : "
        f"(!transform.any_op) -> (!transform.any_op, {loops})\n"
    )
    if sizes is not None:
        return head + f"transform.structured.vectorize %t vector_sizes {sizes} : !transform.any_op"
    return head + then.replace("OP", "%t")


def decomposed(tiles: list[int], then: str) -> str:
    """Tile the window dims to 1, decompose the 2-D op into a 1-D one, then ``then``."""
    return tiled(tiles, "").rstrip("\n") + (
        "\n%d = transform.structured.decompose %t : (!transform.any_op) -> !transform.any_op\n"
        + then.replace("OP", "%d")
    )


def _mm(m: int, k: int, n: int, e: str = "f32", acc: str | None = None) -> str:
    acc = acc or e
    return (
        f"func.func @kernel(%A: memref<{m}x{k}x{e}>, %B: memref<{k}x{n}x{e}>, %C: memref<{m}x{n}x{acc}>) {{\n"
        f"  linalg.matmul ins(%A, %B : memref<{m}x{k}x{e}>, memref<{k}x{n}x{e}>) outs(%C : memref<{m}x{n}x{acc}>)\n"
        "  return\n}"
    )


def _generic(args: list[str], maps: list[str], iters: list[str], n_in: int, body: str) -> str:
    """A linalg.generic kernel on memrefs ``args`` (the first ``n_in`` are inputs)."""
    sig = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    ins = ", ".join(f"%a{i}" for i in range(n_in))
    outs = ", ".join(f"%a{i}" for i in range(n_in, len(args)))
    tin = ", ".join(args[:n_in])
    tout = ", ".join(args[n_in:])
    bargs = ", ".join(f"%x{i}: {_elem(t)}" for i, t in enumerate(args))
    its = ", ".join(f'"{i}"' for i in iters)
    return (
        f"func.func @kernel({sig}) {{\n"
        f"  linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}}\n"
        f"      ins({ins} : {tin}) outs({outs} : {tout}) {{\n"
        f"  ^bb0({bargs}):\n{body}\n  }}\n  return\n}}"
    )


def _elem(t: str) -> str:
    return t.rsplit("x", 1)[1].rstrip(">")


def _named(op: str, ins: list[str], outs: list[str], attrs: str = "", tail: str = "") -> str:
    """A named linalg op on memrefs: ``op attrs ins(...) outs(...) tail``."""
    args = ins + outs
    sig = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    names_in = ", ".join(f"%a{i}" for i in range(len(ins)))
    names_out = ", ".join(f"%a{i}" for i in range(len(ins), len(args)))
    return (
        f"func.func @kernel({sig}) {{\n"
        f"  {op} {attrs}ins({names_in} : {', '.join(ins)}) outs({names_out} : {', '.join(outs)}){tail}\n"
        "  return\n}"
    )


def _tensor_named(op: str, ins: list[str], out: str, attrs: str = "") -> str:
    """A named linalg op on tensors returning its result (bufferized after vectorization)."""
    sig = ", ".join(f"%a{i}: {t}" for i, t in enumerate(ins + [out]))
    names_in = ", ".join(f"%a{i}" for i in range(len(ins)))
    return (
        f"func.func @kernel({sig}) -> {out} {{\n"
        f"  %r = {op} {attrs}ins({names_in} : {', '.join(ins)}) outs(%a{len(ins)} : {out}) -> {out}\n"
        f"  return %r : {out}\n}}"
    )


def _reduce(src: str, dst: str, dims: list[int], combine: str) -> str:
    """``linalg.reduce`` of ``src`` over ``dims`` into ``dst`` with the op ``combine``."""
    e = _elem(src)
    return _named("linalg.reduce", [src], [dst], tail=(
        f" dimensions = {dims}\n    (%x: {e}, %y: {e}) {{\n      %s = {combine} %x, %y : {e}\n"
        "      linalg.yield %s : " + e + "\n    }"))


CONV = "{dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} "
CONV2 = "{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} "
CONV_S2 = "{dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} "
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
ROW2 = "affine_map<(d0, d1) -> (d0)>"

SOFTMAX = """func.func @kernel(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %m = memref.alloca() : memref<4xf32>
  %s = memref.alloca() : memref<4xf32>
  %ninf = arith.constant -3.0e+38 : f32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%ninf : f32) outs(%m : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<4x8xf32>, memref<4xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : memref<4x8xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : memref<4xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.divf %b, %a : f32
    linalg.yield %r : f32
  }
  return
}"""

LAYERNORM = """func.func @kernel(%x: memref<4x16xf32>, %g: memref<16xf32>, %y: memref<4x16xf32>) {
  %mean = memref.alloca() : memref<4xf32>
  %var = memref.alloca() : memref<4xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%mean : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%var : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x16xf32>) outs(%mean : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.constant 0.0625 : f32
    %s = arith.mulf %a, %n : f32
    %r = arith.addf %s, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : memref<4x16xf32>, memref<4xf32>) outs(%var : memref<4xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32):
    %n = arith.constant 0.0625 : f32
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.mulf %d2, %n : f32
    %r = arith.addf %s, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %var, %g : memref<4x16xf32>, memref<4xf32>, memref<4xf32>, memref<16xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32, %w: f32, %o: f32):
    %eps = arith.constant 1.0e-05 : f32
    %d = arith.subf %a, %m : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %n = arith.mulf %d, %r : f32
    %s = arith.mulf %n, %w : f32
    linalg.yield %s : f32
  }
  return
}"""

GATHER = """func.func @kernel(%t: tensor<8x8xf32>, %idx: tensor<4xi32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<4xi32>) outs(%o : tensor<4x8xf32>) {
  ^bb0(%i: i32, %out: f32):
    %c5 = arith.constant 5 : i32
    %c8 = arith.constant 8 : i32
    %p = arith.addi %i, %c5 : i32
    %w = arith.remsi %p, %c8 : i32
    %row = arith.index_cast %w : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %t[%row, %col] : tensor<8x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}"""

GATHER_ODD = GATHER.replace("tensor<4xi32>", "tensor<3xi32>").replace("tensor<4x8xf32>", "tensor<3x5xf32>")

PAD = """func.func @kernel(%t: tensor<3x5xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant 9.0 : f32
  %p = tensor.pad %t low[0, 1] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<3x5xf32> to tensor<4x8xf32>
  %r = linalg.copy ins(%p : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}"""

PACK = """func.func @kernel(%t: tensor<8x8xf32>, %o: tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32> {
  %r = linalg.pack %t inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %o : tensor<8x8xf32> -> tensor<2x2x4x4xf32>
  return %r : tensor<2x2x4x4xf32>
}"""

def _reductions(src: str, dst: str, dims: list[int], combines: list[str]) -> str:
    """One kernel of several ``linalg.reduce`` ops: ``src`` argument ``k`` reduced over
    ``dims`` into output argument ``len(combines) + k`` with the op ``combines[k]``."""
    n, e = len(combines), _elem(src)
    sig = ", ".join([f"%x{k}: {src}" for k in range(n)] + [f"%y{k}: {dst}" for k in range(n)])
    body = "".join(
        f"  linalg.reduce ins(%x{k} : {src}) outs(%y{k} : {dst}) dimensions = {dims}\n"
        f"    (%a: {e}, %b: {e}) {{\n      %s = {c} %a, %b : {e}\n      linalg.yield %s : {e}\n    }}\n"
        for k, c in enumerate(combines))
    return f"func.func @kernel({sig}) {{\n{body}  return\n}}"


INT_KINDS = ["arith.muli", "arith.minsi", "arith.maxsi", "arith.minui", "arith.maxui",
             "arith.andi", "arith.ori", "arith.xori"]
FLOAT_KINDS = ["arith.mulf", "arith.minimumf", "arith.maximumf", "arith.minnumf", "arith.maxnumf"]
TO_CONTRACT = """
%f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
transform.apply_patterns to %f {
  transform.apply_patterns.vector.reduction_to_contract
} : !transform.any_op"""


LOWER_MASKED_REDUCTION = """
%f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
transform.apply_patterns to %f {
  transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = innerreduction
} : !transform.any_op"""


def masked(sizes: list[int], then: str = "") -> str:
    """Masked vectorization of the whole op to ``sizes``, then ``then``."""
    return WHOLE.replace("OP :", f"OP vector_sizes {sizes} :") + then


M = "memref"
CASES: list[Case] = [
    # -- matmul --------------------------------------------------------------------------------
    Case("matmul_f32_whole", _mm(4, 8, 6), "linalg.matmul", WHOLE,
         "4x8x6 matmul, whole op vectorized: broadcast reads, mulf + multi_reduction"),
    Case("matmul_f32_children", _mm(4, 8, 6), "linalg.matmul", CHILDREN,
         "4x8x6 matmul through vectorize_children_and_apply_patterns: vector.contract"),
    Case("matmul_f32_nofold", _mm(4, 8, 6), "linalg.matmul", CHILDREN_NOFOLD,
         "same without folding into contract: mulf + multi_reduction after patterns"),
    Case("matmul_f32_tiled", _mm(8, 16, 16), "linalg.matmul", tiled([4, 8, 8], CHILDREN),
         "8x16x16 matmul tiled 4x8x8 in scf.for loops over subviews, tiles to contract"),
    Case("matmul_f32_masked", _mm(8, 16, 12), "linalg.matmul", tiled([4, 8, 8], "", [4, 8, 8]),
         "8x16x12 matmul tiled 4x8x8 with a partial tile: affine.min, create_mask, vector.mask, ub.poison padding"),
    Case("matmul_f32_masked_odd", _mm(3, 5, 7), "linalg.matmul", WHOLE.replace(
        "OP :", "OP vector_sizes [4, 8, 8] :"),
         "3x5x7 matmul masked to vector sizes 4x8x8 (every dim partial)"),
    Case("matmul_i32_children", _mm(4, 4, 8, "i32"), "linalg.matmul", CHILDREN,
         "i32 matmul to contract"),
    Case("matmul_i8_i32", _mm(4, 8, 4, "i8", "i32"), "linalg.matmul", CHILDREN,
         "i8 x i8 into i32: extsi folded into the contraction"),
    Case("matmul_f16_f32", _mm(4, 8, 4, "f16", "f32"), "linalg.matmul", CHILDREN_NOFOLD,
         "f16 x f16 into f32 (extf), multi_reduction form"),
    Case("matmul_transpose_b", _generic(
        [f"{M}<4x8xf32>", f"{M}<6x8xf32>", f"{M}<4x6xf32>"],
        ["affine_map<(d0, d1, d2) -> (d0, d2)>", "affine_map<(d0, d1, d2) -> (d1, d2)>",
         "affine_map<(d0, d1, d2) -> (d0, d1)>"], ["parallel", "parallel", "reduction"], 2,
        "    %p = arith.mulf %x0, %x1 : f32\n    %s = arith.addf %x2, %p : f32\n"
        "    linalg.yield %s : f32"), "linalg.generic", CHILDREN,
         "A * B^T as a generic: contract with a transposed rhs map"),
    Case("batch_matmul_children", _named("linalg.batch_matmul",
         [f"{M}<2x4x8xf32>", f"{M}<2x8x4xf32>"], [f"{M}<2x4x4xf32>"]), "linalg.batch_matmul",
         CHILDREN, "batch matmul 2x4x8x4 to a contract with a batch dim"),
    Case("batch_matmul_whole", _named("linalg.batch_matmul",
         [f"{M}<3x2x4xf32>", f"{M}<3x4x5xf32>"], [f"{M}<3x2x5xf32>"]), "linalg.batch_matmul",
         WHOLE, "batch matmul 3x2x4x5, whole op: 4-D multi_reduction"),
    Case("batch_matmul_masked", _named("linalg.batch_matmul",
         [f"{M}<2x3x5xf32>", f"{M}<2x5x6xf32>"], [f"{M}<2x3x6xf32>"]), "linalg.batch_matmul",
         WHOLE.replace("OP :", "OP vector_sizes [2, 4, 8, 8] :"),
         "batch matmul masked to 2x4x8x8"),
    Case("batch_reduce_matmul", _named("linalg.batch_reduce_matmul",
         [f"{M}<3x4x8xf32>", f"{M}<3x8x4xf32>"], [f"{M}<4x4xf32>"]),
         "linalg.batch_reduce_matmul", CHILDREN, "batch-reduce matmul: two reduction dims"),
    Case("matvec", _named("linalg.matvec", [f"{M}<8x16xf32>", f"{M}<16xf32>"], [f"{M}<8xf32>"]),
         "linalg.matvec", CHILDREN, "matrix-vector product to contract"),
    Case("vecmat_i32", _named("linalg.vecmat", [f"{M}<8xi32>", f"{M}<8x4xi32>"], [f"{M}<4xi32>"]),
         "linalg.vecmat", CHILDREN_NOFOLD, "vector-matrix product, i32, multi_reduction form"),
    Case("dot_f32", _named("linalg.dot", [f"{M}<16xf32>", f"{M}<16xf32>"], [f"{M}<f32>"]),
         "linalg.dot", CHILDREN, "dot product into a 0-D memref"),
    # -- convolutions and pooling ----------------------------------------------------------------
    Case("conv_1d_nwc_wcf", _named("linalg.conv_1d_nwc_wcf",
         [f"{M}<1x10x3xf32>", f"{M}<3x3x4xf32>"], [f"{M}<1x8x4xf32>"], CONV),
         "linalg.conv_1d_nwc_wcf", CHILDREN, "1-D convolution NWC/WCF: unrolled over the window"),
    Case("conv_1d_nwc_strided", _named("linalg.conv_1d_nwc_wcf",
         [f"{M}<2x9x2xf32>", f"{M}<3x2x3xf32>"], [f"{M}<2x4x3xf32>"], CONV_S2),
         "linalg.conv_1d_nwc_wcf", WHOLE, "1-D convolution with stride 2, batch 2"),
    Case("conv_2d_nhwc_hwcf", _tensor_named("linalg.conv_2d_nhwc_hwcf",
         ["tensor<1x6x6x3xf32>", "tensor<3x3x3x4xf32>"], "tensor<1x4x4x4xf32>", CONV2),
         "linalg.conv_2d_nhwc_hwcf", decomposed([0, 1, 0, 0, 1], CHILDREN),
         "2-D convolution on tensors: tiled to unit height, decomposed to 1-D, vectorized, bufferized",
         tensors=True),
    Case("depthwise_conv_1d", _named("linalg.depthwise_conv_1d_nwc_wc",
         [f"{M}<1x10x8xf32>", f"{M}<3x8xf32>"], [f"{M}<1x8x8xf32>"], CONV),
         "linalg.depthwise_conv_1d_nwc_wc", CHILDREN, "depthwise 1-D convolution: fma per tap"),
    Case("depthwise_conv_2d", _tensor_named("linalg.depthwise_conv_2d_nhwc_hwc",
         ["tensor<1x5x5x4xf32>", "tensor<2x2x4xf32>"], "tensor<1x4x4x4xf32>", CONV2),
         "linalg.depthwise_conv_2d_nhwc_hwc", decomposed([0, 1, 0, 0, 1], CHILDREN),
         "depthwise 2-D convolution on tensors, decomposed to 1-D", tensors=True),
    Case("pooling_nwc_max", _named("linalg.pooling_nwc_max",
         [f"{M}<1x10x4xf32>", f"{M}<3xf32>"], [f"{M}<1x8x4xf32>"], CONV),
         "linalg.pooling_nwc_max", CHILDREN, "1-D max pooling: maximumf over the window"),
    Case("pooling_nwc_sum_i32", _named("linalg.pooling_nwc_sum",
         [f"{M}<1x9x4xi32>", f"{M}<2xi32>"], [f"{M}<1x8x4xi32>"], CONV),
         "linalg.pooling_nwc_sum", WHOLE, "1-D sum pooling on i32"),
    Case("pooling_nhwc_max", _tensor_named("linalg.pooling_nhwc_max",
         ["tensor<1x5x5x4xf32>", "tensor<2x2xf32>"], "tensor<1x4x4x4xf32>", CONV2),
         "linalg.pooling_nhwc_max", decomposed([0, 1, 0, 0, 1], CHILDREN),
         "2-D max pooling on tensors, decomposed to 1-D", tensors=True),
    # -- reductions ---------------------------------------------------------------------------
    Case("reduce_rows", _reduce(f"{M}<4x16xf32>", f"{M}<4xf32>", [1], "arith.addf"),
         "linalg.reduce", CHILDREN, "row sums: multi_reduction over the inner dim"),
    Case("reduce_cols_max", _reduce(f"{M}<8x4xf32>", f"{M}<4xf32>", [0], "arith.maximumf"),
         "linalg.reduce", WHOLE, "column maxima: multi_reduction over the outer dim"),
    Case("reduce_3d_mid_i32", _reduce(f"{M}<2x6x4xi32>", f"{M}<2x4xi32>", [1], "arith.addi"),
         "linalg.reduce", CHILDREN, "i32 sum over the middle dim of a 3-D memref"),
    Case("reduce_all_f16", _reduce(f"{M}<4x8xf16>", f"{M}<f16>", [0, 1], "arith.addf"),
         "linalg.reduce", WHOLE, "f16 sum of every element into a 0-D memref"),
    Case("reduce_masked_rows", _reduce(f"{M}<3x10xf32>", f"{M}<3xf32>", [1], "arith.addf"),
         "linalg.reduce", WHOLE.replace("OP :", "OP vector_sizes [4, 16] :"),
         "row sums masked to 4x16 (masked multi_reduction, poison padding)"),
    # -- data movement ------------------------------------------------------------------------
    Case("transpose_2d", _named("linalg.transpose", [f"{M}<4x8xf32>"], [f"{M}<8x4xf32>"],
         tail=" permutation = [1, 0]"), "linalg.transpose", CHILDREN, "2-D transpose"),
    Case("transpose_3d_i8", _named("linalg.transpose", [f"{M}<2x3x4xi8>"], [f"{M}<4x2x3xi8>"],
         tail=" permutation = [2, 0, 1]"), "linalg.transpose", WHOLE, "3-D transpose of i8"),
    Case("broadcast_rows", _named("linalg.broadcast", [f"{M}<8xf32>"], [f"{M}<4x8xf32>"],
         tail=" dimensions = [0]"), "linalg.broadcast", CHILDREN, "a row broadcast to 4 rows"),
    Case("broadcast_add_i16", _generic(
        [f"{M}<4x8xi16>", f"{M}<4xi16>", f"{M}<4x8xi16>"], [ID2, ROW2, ID2],
        ["parallel", "parallel"], 2,
        "    %s = arith.addi %x0, %x1 : i16\n    %m = arith.muli %s, %s : i16\n"
        "    linalg.yield %m : i16"), "linalg.generic", WHOLE,
         "i16 column broadcast, add and square (transposed broadcast read)"),
    Case("elementwise_i8", _generic(
        [f"{M}<4x16xi8>", f"{M}<4x16xi8>", f"{M}<4x16xi8>"], [ID2, ID2, ID2],
        ["parallel", "parallel"], 2,
        "    %m = arith.muli %x0, %x1 : i8\n    %a = arith.maxsi %m, %x0 : i8\n"
        "    %s = arith.shrsi %a, %x2 : i8\n    %c = arith.cmpi slt, %x0, %x1 : i8\n"
        "    %r = arith.select %c, %a, %s : i8\n    linalg.yield %r : i8"),
         "linalg.generic", CHILDREN, "i8 muli/maxsi/shrsi/cmpi/select"),
    Case("elementwise_f16", _generic(
        [f"{M}<2x8xf16>", f"{M}<2x8xf32>"], [ID2, ID2], ["parallel", "parallel"], 1,
        "    %e = arith.extf %x0 : f16 to f32\n    %h = arith.mulf %e, %e : f32\n"
        "    %a = math.absf %x0 : f16\n    %b = arith.extf %a : f16 to f32\n"
        "    %s = arith.subf %h, %b : f32\n    linalg.yield %s : f32"),
         "linalg.generic", WHOLE, "f16 -> f32 extf, mulf, absf, subf", scale=0.5),
    Case("fill_copy", """func.func @kernel(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  %c = arith.constant 2.5 : f32
  linalg.copy ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  %s = memref.subview %b[1, 2] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 10>>
  linalg.fill ins(%c : f32) outs(%s : memref<2x4xf32, strided<[8, 1], offset: 10>>)
  return
}""", "linalg.fill", CHILDREN, "copy then fill a strided subview"),
    Case("softmax_rows", SOFTMAX, "linalg.generic", CHILDREN,
         "softmax over rows: max, exp(x - max), sum, divide", scale=0.25),
    Case("layernorm_rows", LAYERNORM, "linalg.generic", CHILDREN,
         "layernorm over rows: mean, variance, rsqrt, scale", scale=0.5),
    # -- what a lowering pipeline does next ---------------------------------------------------
    Case("matmul_hoisted", _mm(8, 32, 16), "linalg.matmul", tiled([4, 8, 8], CHILDREN + HOIST),
         "8x32x16 matmul tiled 4x8x8, accumulator hoisted out of the k loop into iter_args"),
    Case("matmul_lowered", _mm(4, 4, 8), "linalg.matmul", CHILDREN + LOWER,
         "4x4x8 matmul with MLIR's lowering patterns applied: outer products as fma, 1-D "
         "transfers, insert chains over ub.poison"),
    Case("reduce_lowered", _reduce(f"{M}<4x8xf32>", f"{M}<4xf32>", [1], "arith.addf"),
         "linalg.reduce", CHILDREN + LOWER,
         "row sums through lower_multi_reduction (innerparallel) and 1-D transfers"),
    Case("transpose_lowered", _named("linalg.transpose", [f"{M}<4x8xi32>"], [f"{M}<8x4xi32>"],
         tail=" permutation = [1, 0]"), "linalg.transpose", CHILDREN + LOWER,
         "i32 transpose lowered element-wise into insert chains over ub.poison"),
    Case("matmul_i8_ext_folded", _mm(4, 8, 4, "i8", "i32"), "linalg.matmul",
         children("fold_type_extensions_into_contract"),
         "i8 x i8 into i32 with the extsi folded into a mixed-type contract"),
    Case("depthwise_conv_flat", _named("linalg.depthwise_conv_1d_nwc_wc",
         [f"{M}<1x10x8xf32>", f"{M}<3x8xf32>"], [f"{M}<1x8x8xf32>"], CONV),
         "linalg.depthwise_conv_1d_nwc_wc", children("flatten_1d_depthwise_conv"),
         "depthwise 1-D convolution flattened over W x C (shape_cast)"),
    Case("iota_generic", _generic(
        [f"{M}<4x8xi32>", f"{M}<4x8xi32>"], [ID2, ID2], ["parallel", "parallel"], 1,
        "    %i = linalg.index 0 : index\n    %j = linalg.index 1 : index\n"
        "    %k = arith.muli %i, %j : index\n    %c = arith.index_cast %k : index to i32\n"
        "    %s = arith.addi %c, %x0 : i32\n    linalg.yield %s : i32"),
         "linalg.generic", CHILDREN, "linalg.index in a generic: vector.step and broadcasts"),
    # -- on tensors, bufferized after vectorization ------------------------------------------
    Case("gather_rows", GATHER, "linalg.generic", children("vectorize_nd_extract"),
         "tensor.extract at data-dependent rows (vectorize_nd_extract): vector.gather",
         tensors=True),
    Case("gather_rows_masked", GATHER_ODD, "linalg.generic",
         WHOLE.replace("OP :", "OP vector_sizes [4, 8] {vectorize_nd_extract} :"),
         "data-dependent rows of a 3x5 output, masked to 4x8: vector.mask around vector.gather",
         tensors=True),
    Case("pad_copy", PAD, "tensor.pad", children("vectorize_padding"),
         "tensor.pad with a constant, vectorized as a masked read and a write", tensors=True),
    # -- masked vectorization (vector_sizes) beyond add ----------------------------------------
    Case("matmul_f32_masked_contract", _mm(3, 5, 7), "linalg.matmul",
         masked([4, 8, 8], TO_CONTRACT),
         "3x5x7 matmul masked to 4x8x8, folded by reduction_to_contract: vector.mask around vector.contract"),
    Case("matmul_i32_masked_contract", _mm(5, 3, 6, "i32"), "linalg.matmul",
         masked([8, 8, 4], TO_CONTRACT), "i32 5x3x6 matmul masked to 8x8x4: masked vector.contract"),
    Case("matvec_masked_contract", _named("linalg.matvec", [f"{M}<5x7xf32>", f"{M}<7xf32>"],
         [f"{M}<5xf32>"]), "linalg.matvec", masked([8, 8], TO_CONTRACT),
         "5x7 matvec masked to 8x8: masked vector.contract"),
    Case("reduce_masked_kinds_i32", _reductions(f"{M}<3x10xi32>", f"{M}<10xi32>", [0], INT_KINDS),
         "linalg.reduce", masked([4, 16]),
         "column reductions masked to 4x16 of kinds mul, minsi, maxsi, minui, maxui, and, or, xor",
         outputs=tuple(range(8, 16))),
    Case("reduce_masked_kinds_f32", _reductions(f"{M}<5x3xf32>", f"{M}<3xf32>", [0], FLOAT_KINDS),
         "linalg.reduce", masked([8, 4]),
         "column reductions masked to 8x4 of kinds mul, minimumf, maximumf, minnumf, maxnumf",
         outputs=tuple(range(5, 10))),
    Case("reduce_masked_lowered", _reduce(f"{M}<3x10xf32>", f"{M}<3xf32>", [1], "arith.maximumf"),
         "linalg.reduce", masked([4, 16], LOWER_MASKED_REDUCTION),
         "row maxima masked to 4x16, lower_multi_reduction (innerreduction): vector.mask around 1-D vector.reduction"),
    Case("dot_masked", _named("linalg.dot", [f"{M}<13xf32>", f"{M}<13xf32>"], [f"{M}<f32>"]),
         "linalg.dot", masked([16]), "13-element dot masked to 16: masked reduction to a scalar"),
    Case("copy_masked", _named("linalg.copy", [f"{M}<3x10xf32>"], [f"{M}<3x10xf32>"]),
         "linalg.copy", masked([4, 16]), "3x10 copy masked to 4x16: masked read and masked write"),
    Case("transpose_masked", _named("linalg.transpose", [f"{M}<3x5xi32>"], [f"{M}<5x3xi32>"],
         tail=" permutation = [1, 0]"), "linalg.transpose", masked([8, 4]),
         "3x5 i32 transpose masked to 8x4: masked transposed read and masked write"),
    Case("pack_tiles", PACK, "linalg.pack", WHOLE,
         "linalg.pack of an 8x8 matrix into 4x4 tiles: transfer_read, shape_cast, transpose",
         tensors=True),
]


# -- the driver -----------------------------------------------------------------------------------
class _Consts:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.seen: set[int] = set()

    def __call__(self, v: int) -> str:
        name = f"%c{v}" if v >= 0 else f"%cm{-v}"
        if v not in self.seen:
            self.seen.add(v)
            self.lines.append(f"  {name} = arith.constant {v} : index")
        return name


def _memref_parts(t: str) -> tuple[list[int], str]:
    m = re.fullmatch(r"memref<((?:\d+x)*)([a-z0-9]+)>", t.strip())
    if m is None:
        raise ValueError(f"driver: unsupported kernel argument type {t}")
    dims = [int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def driver(signature: list[str], results: list[str], outputs: tuple[int, ...],
           scale: float) -> str:
    """``@entry``: allocate and fill every argument, call ``@kernel``, print the outputs row
    by row. Element ``f`` (row-major) of argument ``k`` is ``((7 f + 5 k + 3) mod 11) - 5``
    (times ``scale`` for floats): small integers, so sums are exact in any order."""
    c = _Consts()
    body: list[str] = []
    args = []
    for k, t in enumerate(signature):
        dims, e = _memref_parts(t)
        name = f"%arg{k}"
        args.append(name)
        body.append(f"  {name} = memref.alloc() : {t}")
        ivs = [f"%i{k}_{d}" for d in range(len(dims))]
        indent = "  "
        for d, n in enumerate(dims):
            body.append(f"{indent}scf.for {ivs[d]} = {c(0)} to {c(n)} step {c(1)} {{")
            indent += "  "
        flat = c(0)
        for d, n in enumerate(dims):
            body.append(f"{indent}%f{k}_{d}a = arith.muli {flat}, {c(n)} : index")
            body.append(f"{indent}%f{k}_{d} = arith.addi %f{k}_{d}a, {ivs[d]} : index")
            flat = f"%f{k}_{d}"
        body += [
            f"{indent}%v{k}a = arith.muli {flat}, {c(7)} : index",
            f"{indent}%v{k}b = arith.addi %v{k}a, {c(5 * k + 3)} : index",
            f"{indent}%v{k}c = arith.remsi %v{k}b, {c(11)} : index",
            f"{indent}%v{k}d = arith.subi %v{k}c, {c(5)} : index",
            f"{indent}%v{k}e = arith.index_cast %v{k}d : index to i32",
        ]
        if e.startswith(("f", "bf")):
            body.append(f"{indent}%v{k}f = arith.sitofp %v{k}e : i32 to f32")
            body.append(f"{indent}%v{k}g = arith.constant {scale!r} : f32")
            body.append(f"{indent}%v{k}h = arith.mulf %v{k}f, %v{k}g : f32")
            val = f"%v{k}h"
            if e != "f32":
                body.append(f"{indent}%v{k}i = arith.truncf %v{k}h : f32 to {e}")
                val = f"%v{k}i"
        else:
            val = f"%v{k}e"
            if e != "i32":
                body.append(f"{indent}%v{k}i = arith.trunci %v{k}e : i32 to {e}")
                val = f"%v{k}i"
        idx = ", ".join(ivs)
        body.append(f"{indent}memref.store {val}, {name}[{idx}] : {t}")
        for _ in dims:
            indent = indent[:-2]
            body.append(f"{indent}}}")
    types = ", ".join(signature)
    if results:
        names = ", ".join(f"%ret{i}" for i in range(len(results)))
        body.append(f"  {names} = call @kernel({', '.join(args)}) : ({types}) -> ({', '.join(results)})")
    else:
        body.append(f"  call @kernel({', '.join(args)}) : ({types}) -> ()")
    for k in outputs:
        k = k % len(signature)
        body += _print_memref(f"%arg{k}", signature[k], c, f"p{k}")
    for k in range(len(signature)):
        body.append(f"  memref.dealloc %arg{k} : {signature[k]}")
    return "func.func @entry() {\n" + "\n".join(c.lines + body) + "\n  return\n}"


def _print_memref(name: str, t: str, c: _Consts, tag: str) -> list[str]:
    dims, e = _memref_parts(t)
    out, indent = [], "  "
    pad = f"%{tag}pad"
    zero = "0.0" if e.startswith(("f", "bf")) else "0"
    out.append(f"  {pad} = arith.constant {zero} : {e}")
    if not dims:
        out.append(f"  %{tag}v = memref.load {name}[] : {t}")
        out.append(f"  vector.print %{tag}v : {e}")
        return out
    ivs = [f"%{tag}i{d}" for d in range(len(dims) - 1)]
    for d, n in enumerate(dims[:-1]):
        out.append(f"{indent}scf.for {ivs[d]} = {c(0)} to {c(n)} step {c(1)} {{")
        indent += "  "
    idx = ", ".join(ivs + [c(0)])
    vt = f"vector<{dims[-1]}x{e}>"
    out.append(f"{indent}%{tag}r = vector.transfer_read {name}[{idx}], {pad} : {t}, {vt}")
    out.append(f"{indent}vector.print %{tag}r : {vt}")
    for _ in dims[:-1]:
        indent = indent[:-2]
        out.append(f"{indent}}}")
    return out


# -- generation -----------------------------------------------------------------------------------
def source(case: Case) -> str:
    """The checked-in linalg source: kernel and transform script."""
    script = case.schedule.replace("OP", "%op")
    lines = "\n".join("    " + l for l in script.splitlines())
    return (
        f"// {case.summary}\n"
        f"{case.kernel}\n"
        "module attributes {transform.with_named_sequence} {\n"
        "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n"
        f'    %op = transform.structured.match ops{{["{case.op}"]}} in %root : '
        "(!transform.any_op) -> !transform.any_op\n"
        f"{lines}\n    transform.yield\n  }}\n}}\n"
    )


def _mlir_opt(text: str, passes: tuple[str, ...]) -> str:
    opt = mlir_tools.find_tool("mlir-opt", 22)
    if opt is None:
        raise SystemExit("regenerate.py: mlir-opt-22 not found (install MLIR 22)")
    r = subprocess.run([opt, *passes], input=text, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip())
    return r.stdout


def vectorize(case: Case, src: str) -> str:
    """mlir-opt-22's vectorized kernel (schedule erased, bufferized where on tensors)."""
    passes = ("--transform-interpreter", "--test-transform-dialect-erase-schedule")
    if case.tensors:
        passes += BUFFERIZE
    out = _mlir_opt(src, passes)
    out = re.sub(r"\n  module attributes \{transform.with_named_sequence\} \{\n  \}", "", out)
    if "linalg." in out:
        raise RuntimeError("linalg ops left after vectorization:\n" + out)
    return out


def program(case: Case, vectorized: str) -> str:
    m = re.search(r"func\.func @kernel\((.*?)\)(?: -> \(?(.*?)\)?)? \{", vectorized)
    assert m is not None, "no @kernel in the vectorized output"
    sig = [re.sub(r"^%\w+: ", "", a.strip()) for a in re.split(r", (?=%)", m.group(1))]
    results = [r.strip() for r in m.group(2).split(",")] if m.group(2) else []
    entry = driver(sig, results, case.outputs, case.scale)
    body = vectorized.rstrip()
    assert body.endswith("}"), "unexpected mlir-opt output"
    indented = "\n".join("  " + l if l else l for l in entry.splitlines())
    header = (
        "// REFERENCE: mlir22\n"
        f"// {case.summary}.\n"
        f"// Generated by tests/programs/vectorized/regenerate.py from linalg/{case.name}.mlir\n"
        "// (mlir-opt-22 vectorized @kernel; the @entry driver is ours). Do not edit.\n"
    )
    return header + body[:-1] + indented + "\n}\n"


def generate(case: Case, out_dir: Path = HERE) -> None:
    """Write the case's linalg source, vectorized program and golden under ``out_dir``."""
    src = source(case)
    (out_dir / "linalg").mkdir(parents=True, exist_ok=True)
    (out_dir / "linalg" / f"{case.name}.mlir").write_text(src)
    text = program(case, vectorize(case, src))
    (out_dir / f"{case.name}.mlir").write_text(text)
    out = mlir_tools.run_text_with_mlir(text, 22)
    (out_dir / f"{case.name}.expected").write_text(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Regenerate tests/programs/vectorized/ with mlir-opt-22 and mlir-runner-22."
    )
    ap.add_argument("names", nargs="*", help="cases to regenerate (default: all)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--out", type=Path, default=HERE,
                    help="directory to write to (default: this one, tests/programs/vectorized)")
    args = ap.parse_args(argv)
    by_name = {c.name: c for c in CASES}
    if args.list:
        for c in CASES:
            print(f"{c.name:24} {c.summary}")
        return 0
    unknown = [n for n in args.names if n not in by_name]
    if unknown:
        ap.error(f"unknown case(s): {', '.join(unknown)}")
    failed = 0
    for name in args.names or list(by_name):
        try:
            generate(by_name[name], args.out)
            print(f"ok      {name}")
        except (RuntimeError, mlir_tools.MLIRError, AssertionError, ValueError) as e:
            failed += 1
            print(f"FAILED  {name}: {str(e)[:2000]}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
