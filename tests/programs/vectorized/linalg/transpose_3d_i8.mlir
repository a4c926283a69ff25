// 3-D transpose of i8
func.func @kernel(%a0: memref<2x3x4xi8>, %a1: memref<4x2x3xi8>) {
  linalg.transpose ins(%a0 : memref<2x3x4xi8>) outs(%a1 : memref<4x2x3xi8>) permutation = [2, 0, 1]
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op : !transform.any_op
    transform.yield
  }
}
