// 2-D transpose
func.func @kernel(%a0: memref<4x8xf32>, %a1: memref<8x4xf32>) {
  linalg.transpose ins(%a0 : memref<4x8xf32>) outs(%a1 : memref<8x4xf32>) permutation = [1, 0]
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
