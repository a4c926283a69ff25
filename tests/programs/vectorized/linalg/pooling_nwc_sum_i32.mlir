// 1-D sum pooling on i32
func.func @kernel(%a0: memref<1x9x4xi32>, %a1: memref<2xi32>, %a2: memref<1x8x4xi32>) {
  linalg.pooling_nwc_sum {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a0, %a1 : memref<1x9x4xi32>, memref<2xi32>) outs(%a2 : memref<1x8x4xi32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.pooling_nwc_sum"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op : !transform.any_op
    transform.yield
  }
}
