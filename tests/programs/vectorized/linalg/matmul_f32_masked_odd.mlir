// 3x5x7 matmul masked to vector sizes 4x8x8 (every dim partial)
func.func @kernel(%A: memref<3x5xf32>, %B: memref<5x7xf32>, %C: memref<3x7xf32>) {
  linalg.matmul ins(%A, %B : memref<3x5xf32>, memref<5x7xf32>) outs(%C : memref<3x7xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [4, 8, 8] : !transform.any_op
    transform.yield
  }
}
