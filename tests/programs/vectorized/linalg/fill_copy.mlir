// copy then fill a strided subview
func.func @kernel(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  %c = arith.constant 2.5 : f32
  linalg.copy ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  %s = memref.subview %b[1, 2] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 10>>
  linalg.fill ins(%c : f32) outs(%s : memref<2x4xf32, strided<[8, 1], offset: 10>>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
