"""Write the whole-kernel programs of this directory (``python gen_kernels.py``).

Each is a tiled kernel in the form a vectorizing pipeline leaves it (tile loops as
``scf.for``, each register tile read, combined and written back with vector transfers per
iteration, as ``linalg`` tiling + ``transform.structured.vectorize`` emit before any
hoisting): keeping the accumulator tile in registers across the reduction loop is left to the
compiler (eqsat: ``eqsat/hoist.py``). Index arithmetic is plain ``arith`` (no ``affine``).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent

CONTRACT = (
    "vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, "
    "affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], "
    'iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}'
)


def gemm(n: int, mr: int = 4, nr: int = 16, kr: int = 1) -> str:
    """C += A B, all n x n f32, register tile mr x nr, kr reduction steps per iteration;
    loop order j (columns of B: its nr-wide panel stays in L1), i, k."""
    mem = f"memref<{n}x{n}xf32>"
    tile = f"vector<{mr}x{nr}xf32>"
    consts = sorted({0, mr, nr, kr, n})
    out = [
        f"// C += A B, {n}x{n}x{n} f32, {mr}x{nr} register tiles, {kr} k step(s) per iteration",
        f"func.func @gemm(%A: {mem}, %B: {mem}, %C: {mem}) {{",
        *(f"  %c{v} = arith.constant {v} : index" for v in consts),
        "  %p = arith.constant 0.0 : f32",
        f"  scf.for %j = %c0 to %c{n} step %c{nr} {{",
        f"    scf.for %i = %c0 to %c{n} step %c{mr} {{",
        f"      scf.for %k = %c0 to %c{n} step %c{kr} {{",
        f"        %a = vector.transfer_read %A[%i, %k], %p {{in_bounds = [true, true]}} : {mem}, "
        f"vector<{mr}x{kr}xf32>",
        f"        %b = vector.transfer_read %B[%k, %j], %p {{in_bounds = [true, true]}} : {mem}, "
        f"vector<{kr}x{nr}xf32>",
        f"        %c = vector.transfer_read %C[%i, %j], %p {{in_bounds = [true, true]}} : {mem}, "
        f"{tile}",
        f"        %d = {CONTRACT} %a, %b, %c : vector<{mr}x{kr}xf32>, vector<{kr}x{nr}xf32> "
        f"into {tile}",
        f"        vector.transfer_write %d, %C[%i, %j] {{in_bounds = [true, true]}} : {tile}, {mem}",
        "      }",
        "    }",
        "  }",
        "  return",
        "}",
    ]
    return "\n".join(out) + "\n"


def softmax(rows: int, n: int) -> str:
    """Y[i, :] = exp(X[i, :] - max X[i, :]) / sum(...), one row per iteration."""
    mem = f"memref<{rows}x{n}xf32>"
    v = f"vector<{n}xf32>"
    out = [
        f"// softmax over the rows of a {rows}x{n} f32 matrix, one row per iteration",
        f"func.func @softmax(%X: {mem}, %Y: {mem}) {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        f"  %c{rows} = arith.constant {rows} : index",
        "  %p = arith.constant 0.0 : f32",
        f"  scf.for %i = %c0 to %c{rows} step %c1 {{",
        f"    %x = vector.transfer_read %X[%i, %c0], %p {{in_bounds = [true]}} : {mem}, {v}",
        f"    %m = vector.reduction <maxnumf>, %x : {v} into f32",
        f"    %mb = vector.broadcast %m : f32 to {v}",
        f"    %d = arith.subf %x, %mb : {v}",
        f"    %e = math.exp %d : {v}",
        f"    %s = vector.reduction <add>, %e : {v} into f32",
        f"    %sb = vector.broadcast %s : f32 to {v}",
        f"    %y = arith.divf %e, %sb : {v}",
        f"    vector.transfer_write %y, %Y[%i, %c0] {{in_bounds = [true]}} : {v}, {mem}",
        "  }",
        "  return",
        "}",
    ]
    return "\n".join(out) + "\n"


def layernorm(rows: int, n: int) -> str:
    """Y[i, :] = (X[i, :] - mean) / sqrt(var + 1e-5) * gamma + beta, one row per iteration
    (gamma and beta are read in the loop, as tiling leaves them: the hoisting pass moves
    them out)."""
    mem = f"memref<{rows}x{n}xf32>"
    vec = f"memref<{n}xf32>"
    v = f"vector<{n}xf32>"
    out = [
        f"// layernorm over the rows of a {rows}x{n} f32 matrix, one row per iteration",
        f"func.func @layernorm(%X: {mem}, %G: {vec}, %B: {vec}, %Y: {mem}) {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        f"  %c{rows} = arith.constant {rows} : index",
        "  %p = arith.constant 0.0 : f32",
        f"  %inv_n = arith.constant {1.0 / n:.9e} : f32",
        "  %eps = arith.constant 9.99999974e-06 : f32",
        f"  scf.for %i = %c0 to %c{rows} step %c1 {{",
        f"    %x = vector.transfer_read %X[%i, %c0], %p {{in_bounds = [true]}} : {mem}, {v}",
        f"    %g = vector.transfer_read %G[%c0], %p {{in_bounds = [true]}} : {vec}, {v}",
        f"    %b = vector.transfer_read %B[%c0], %p {{in_bounds = [true]}} : {vec}, {v}",
        f"    %s = vector.reduction <add>, %x : {v} into f32",
        "    %mean = arith.mulf %s, %inv_n : f32",
        f"    %mb = vector.broadcast %mean : f32 to {v}",
        f"    %d = arith.subf %x, %mb : {v}",
        f"    %d2 = arith.mulf %d, %d : {v}",
        f"    %ss = vector.reduction <add>, %d2 : {v} into f32",
        "    %var = arith.mulf %ss, %inv_n : f32",
        "    %ve = arith.addf %var, %eps : f32",
        "    %r = math.rsqrt %ve : f32",
        f"    %rb = vector.broadcast %r : f32 to {v}",
        f"    %nrm = arith.mulf %d, %rb : {v}",
        f"    %sc = arith.mulf %nrm, %g : {v}",
        f"    %y = arith.addf %sc, %b : {v}",
        f"    vector.transfer_write %y, %Y[%i, %c0] {{in_bounds = [true]}} : {v}, {mem}",
        "  }",
        "  return",
        "}",
    ]
    return "\n".join(out) + "\n"


def conv2d(h: int, w: int, c: int, f: int, kh: int = 3, kw: int = 3, tw: int = 4) -> str:
    """2-D convolution NHWC (batch 1, stride 1, no padding): O[oh, ow, f] += sum over
    (kh, kw, c) of I[oh + kh, ow + kw, c] K[kh, kw, c, f]; register tile tw output pixels x
    all f channels, one contraction (ow, f, c) per filter tap and input channel, the output
    tile re-read per step."""
    oh, ow = h - kh + 1, w - kw + 1
    imem = f"memref<{h}x{w}x{c}xf32>"
    kmem = f"memref<{kh}x{kw}x{c}x{f}xf32>"
    omem = f"memref<{oh}x{ow}x{f}xf32>"
    tile = f"vector<{tw}x{f}xf32>"
    consts = sorted({0, 1, tw, oh, ow, kh, kw, c})
    out = [
        f"// conv 2-D NHWC {h}x{w}x{c} * {kh}x{kw}x{c}x{f} -> {oh}x{ow}x{f} f32, "
        f"{tw}x{f} register tiles",
        f"func.func @conv(%I: {imem}, %K: {kmem}, %O: {omem}) {{",
        *(f"  %c{v} = arith.constant {v} : index" for v in consts),
        "  %p = arith.constant 0.0 : f32",
        f"  scf.for %y = %c0 to %c{oh} step %c1 {{",
        f"    scf.for %x = %c0 to %c{ow} step %c{tw} {{",
        f"      scf.for %u = %c0 to %c{kh} step %c1 {{",
        f"        scf.for %v = %c0 to %c{kw} step %c1 {{",
        f"          scf.for %q = %c0 to %c{c} step %c1 {{",
        "            %iy = arith.addi %y, %u : index",
        "            %ix = arith.addi %x, %v : index",
        f"            %a = vector.transfer_read %I[%iy, %ix, %q], %p {{in_bounds = [true, true]}} "
        f": {imem}, vector<{tw}x1xf32>",
        f"            %k = vector.transfer_read %K[%u, %v, %q, %c0], %p {{in_bounds = [true, true]}} "
        f": {kmem}, vector<1x{f}xf32>",
        f"            %acc = vector.transfer_read %O[%y, %x, %c0], %p {{in_bounds = [true, true]}} "
        f": {omem}, {tile}",
        f"            %r = {CONTRACT} %a, %k, %acc : vector<{tw}x1xf32>, vector<1x{f}xf32> "
        f"into {tile}",
        f"            vector.transfer_write %r, %O[%y, %x, %c0] {{in_bounds = [true, true]}} : "
        f"{tile}, {omem}",
        "          }",
        "        }",
        "      }",
        "    }",
        "  }",
        "  return",
        "}",
    ]
    return "\n".join(out) + "\n"


KERNELS = {
    "gemm_128.mlir": lambda: gemm(128),
    "gemm_256.mlir": lambda: gemm(256),
    "gemm_512.mlir": lambda: gemm(512),
    "softmax_64x256.mlir": lambda: softmax(64, 256),
    "layernorm_64x256.mlir": lambda: layernorm(64, 256),
    "conv2d_nhwc_34x34x16x16.mlir": lambda: conv2d(34, 34, 16, 16),
}


def main() -> None:
    for name, make in KERNELS.items():
        (HERE / name).write_text(make())


if __name__ == "__main__":
    main()
