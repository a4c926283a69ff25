// 3x5 i32 transpose masked to 8x4: masked transposed read and masked write
func.func @kernel(%a0: memref<3x5xi32>, %a1: memref<5x3xi32>) {
  linalg.transpose ins(%a0 : memref<3x5xi32>) outs(%a1 : memref<5x3xi32>) permutation = [1, 0]
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [8, 4] : !transform.any_op
    transform.yield
  }
}
