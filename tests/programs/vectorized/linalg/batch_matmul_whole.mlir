// batch matmul 3x2x4x5, whole op: 4-D multi_reduction
func.func @kernel(%a0: memref<3x2x4xf32>, %a1: memref<3x4x5xf32>, %a2: memref<3x2x5xf32>) {
  linalg.batch_matmul ins(%a0, %a1 : memref<3x2x4xf32>, memref<3x4x5xf32>) outs(%a2 : memref<3x2x5xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op : !transform.any_op
    transform.yield
  }
}
