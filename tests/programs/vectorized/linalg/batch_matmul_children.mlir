// batch matmul 2x4x8x4 to a contract with a batch dim
func.func @kernel(%a0: memref<2x4x8xf32>, %a1: memref<2x8x4xf32>, %a2: memref<2x4x4xf32>) {
  linalg.batch_matmul ins(%a0, %a1 : memref<2x4x8xf32>, memref<2x8x4xf32>) outs(%a2 : memref<2x4x4xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
