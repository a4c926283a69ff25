// i32 5x3x6 matmul masked to 8x8x4: masked vector.contract
func.func @kernel(%A: memref<5x3xi32>, %B: memref<3x6xi32>, %C: memref<5x6xi32>) {
  linalg.matmul ins(%A, %B : memref<5x3xi32>, memref<3x6xi32>) outs(%C : memref<5x6xi32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [8, 8, 4] : !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.reduction_to_contract
    } : !transform.any_op
    transform.yield
  }
}
