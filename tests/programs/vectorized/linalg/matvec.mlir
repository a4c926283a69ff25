// matrix-vector product to contract
func.func @kernel(%a0: memref<8x16xf32>, %a1: memref<16xf32>, %a2: memref<8xf32>) {
  linalg.matvec ins(%a0, %a1 : memref<8x16xf32>, memref<16xf32>) outs(%a2 : memref<8xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matvec"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
