// 13-element dot masked to 16: masked reduction to a scalar
func.func @kernel(%a0: memref<13xf32>, %a1: memref<13xf32>, %a2: memref<f32>) {
  linalg.dot ins(%a0, %a1 : memref<13xf32>, memref<13xf32>) outs(%a2 : memref<f32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.dot"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [16] : !transform.any_op
    transform.yield
  }
}
