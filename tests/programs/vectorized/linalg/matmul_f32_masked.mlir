// 8x16x12 matmul tiled 4x8x8 with a partial tile: affine.min, create_mask, vector.mask, ub.poison padding
func.func @kernel(%A: memref<8x16xf32>, %B: memref<16x12xf32>, %C: memref<8x12xf32>) {
  linalg.matmul ins(%A, %B : memref<8x16xf32>, memref<16x12xf32>) outs(%C : memref<8x12xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loops:3 = transform.structured.tile_using_for %op tile_sizes [4, 8, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.vectorize %t vector_sizes [4, 8, 8] : !transform.any_op
    transform.yield
  }
}
