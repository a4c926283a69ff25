// 5x7 matvec masked to 8x8: masked vector.contract
func.func @kernel(%a0: memref<5x7xf32>, %a1: memref<7xf32>, %a2: memref<5xf32>) {
  linalg.matvec ins(%a0, %a1 : memref<5x7xf32>, memref<7xf32>) outs(%a2 : memref<5xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matvec"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [8, 8] : !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.reduction_to_contract
    } : !transform.any_op
    transform.yield
  }
}
