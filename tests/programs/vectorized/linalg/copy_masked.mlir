// 3x10 copy masked to 4x16: masked read and masked write
func.func @kernel(%a0: memref<3x10xf32>, %a1: memref<3x10xf32>) {
  linalg.copy ins(%a0 : memref<3x10xf32>) outs(%a1 : memref<3x10xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [4, 16] : !transform.any_op
    transform.yield
  }
}
