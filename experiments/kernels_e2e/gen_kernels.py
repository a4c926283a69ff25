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


KERNELS = {
    "gemm_128.mlir": lambda: gemm(128),
    "gemm_256.mlir": lambda: gemm(256),
}


def main() -> None:
    for name, make in KERNELS.items():
        (HERE / name).write_text(make())


if __name__ == "__main__":
    main()
