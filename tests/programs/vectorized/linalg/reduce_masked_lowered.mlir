// row maxima masked to 4x16, lower_multi_reduction (innerreduction): vector.mask around 1-D vector.reduction
func.func @kernel(%a0: memref<3x10xf32>, %a1: memref<3xf32>) {
  linalg.reduce ins(%a0 : memref<3x10xf32>) outs(%a1 : memref<3xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.maximumf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [4, 16] : !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = innerreduction
    } : !transform.any_op
    transform.yield
  }
}
