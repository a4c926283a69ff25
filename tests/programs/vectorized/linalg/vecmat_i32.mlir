// vector-matrix product, i32, multi_reduction form
func.func @kernel(%a0: memref<8xi32>, %a1: memref<8x4xi32>, %a2: memref<4xi32>) {
  linalg.vecmat ins(%a0, %a1 : memref<8xi32>, memref<8x4xi32>) outs(%a2 : memref<4xi32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.vecmat"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f {disable_multi_reduction_to_contract_patterns} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
