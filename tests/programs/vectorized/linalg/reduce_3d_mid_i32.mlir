// i32 sum over the middle dim of a 3-D memref
func.func @kernel(%a0: memref<2x6x4xi32>, %a1: memref<2x4xi32>) {
  linalg.reduce ins(%a0 : memref<2x6x4xi32>) outs(%a1 : memref<2x4xi32>) dimensions = [1]
    (%x: i32, %y: i32) {
      %s = arith.addi %x, %y : i32
      linalg.yield %s : i32
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
