"""The benchmark kernel suite: MLIR text generators for the shapes the design targets.

Each kernel is a function taking its inputs as arguments (memrefs for the transfer-heavy
one), so the optimizer sees real data flow rather than constants.
"""

from __future__ import annotations

MATMUL = (
    "#mm = {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
    'affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}}\n'
    "func.func @matmul(%a: vector<{m}x{k}xf32>, %b: vector<{k}x{n}xf32>, %c: vector<{m}x{n}xf32>)"
    " -> vector<{m}x{n}xf32> {{\n"
    "  %0 = vector.contract #mm %a, %b, %c : vector<{m}x{k}xf32>, vector<{k}x{n}xf32> "
    "into vector<{m}x{n}xf32>\n"
    "  return %0 : vector<{m}x{n}xf32>\n}}\n"
)

TRANSPOSE = (
    "func.func @transpose(%a: vector<{m}x{n}xf32>, %b: vector<{n}x{m}xf32>) -> vector<{n}x{m}xf32> {{\n"
    "  %0 = vector.transpose %a, [1, 0] : vector<{m}x{n}xf32> to vector<{n}x{m}xf32>\n"
    "  %1 = arith.addf %0, %b : vector<{n}x{m}xf32>\n"
    "  return %1 : vector<{n}x{m}xf32>\n}}\n"
)

MULTI_REDUCTION = (
    "func.func @reduce(%a: vector<{m}x{n}xf32>, %acc: vector<{m}xf32>) -> vector<{m}xf32> {{\n"
    "  %0 = vector.multi_reduction <add>, %a, %acc [1] : vector<{m}x{n}xf32> to vector<{m}xf32>\n"
    "  return %0 : vector<{m}xf32>\n}}\n"
)

TRANSFER = """\
func.func @transfer(%src: memref<64x64xf32>, %dst: memref<64x64xf32>, %i: index, %j: index) {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %src[%i, %j], %pad {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x8xf32>
  %1 = vector.transfer_read %src[%j, %i], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<64x64xf32>, vector<8x8xf32>
  %2 = arith.addf %0, %1 : vector<8x8xf32>
  %3 = vector.transpose %2, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
  vector.transfer_write %3, %dst[%i, %j] {in_bounds = [true, true]} : vector<8x8xf32>, memref<64x64xf32>
  %4 = vector.transfer_read %dst[%i, %j], %pad : memref<64x64xf32>, vector<8x8xf32>
  %5 = arith.mulf %4, %2 : vector<8x8xf32>
  vector.transfer_write %5, %dst[%j, %i] : vector<8x8xf32>, memref<64x64xf32>
  return
}
"""


def suite() -> list[tuple[str, str]]:
    """(name, MLIR text) for every kernel of the benchmark."""
    out = []
    for n in (4, 8, 16, 32, 64):
        out.append((f"matmul {n}x{n}x{n}", MATMUL.format(m=n, n=n, k=n)))
    for n in (8, 16, 32, 64):
        out.append((f"transpose {n}x{n}", TRANSPOSE.format(m=n, n=n)))
    for n in (16, 64, 256):
        out.append((f"multi_reduction {n}x{n}", MULTI_REDUCTION.format(m=n, n=n)))
    out.append(("transfer 8x8 tiles of 64x64", TRANSFER))
    return out
