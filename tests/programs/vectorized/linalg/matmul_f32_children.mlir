// 4x8x6 matmul through vectorize_children_and_apply_patterns: vector.contract
func.func @kernel(%A: memref<4x8xf32>, %B: memref<8x6xf32>, %C: memref<4x6xf32>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x6xf32>) outs(%C : memref<4x6xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
