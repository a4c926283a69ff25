// batch matmul masked to 2x4x8x8
func.func @kernel(%a0: memref<2x3x5xf32>, %a1: memref<2x5x6xf32>, %a2: memref<2x3x6xf32>) {
  linalg.batch_matmul ins(%a0, %a1 : memref<2x3x5xf32>, memref<2x5x6xf32>) outs(%a2 : memref<2x3x6xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [2, 4, 8, 8] : !transform.any_op
    transform.yield
  }
}
