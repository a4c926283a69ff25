// row sums masked to 4x16 (masked multi_reduction, poison padding)
func.func @kernel(%a0: memref<3x10xf32>, %a1: memref<3xf32>) {
  linalg.reduce ins(%a0 : memref<3x10xf32>) outs(%a1 : memref<3xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [4, 16] : !transform.any_op
    transform.yield
  }
}
