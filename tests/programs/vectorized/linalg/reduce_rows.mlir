// row sums: multi_reduction over the inner dim
func.func @kernel(%a0: memref<4x16xf32>, %a1: memref<4xf32>) {
  linalg.reduce ins(%a0 : memref<4x16xf32>) outs(%a1 : memref<4xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
