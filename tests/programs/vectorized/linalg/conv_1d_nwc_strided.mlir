// 1-D convolution with stride 2, batch 2
func.func @kernel(%a0: memref<2x9x2xf32>, %a1: memref<3x2x3xf32>, %a2: memref<2x4x3xf32>) {
  linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%a0, %a1 : memref<2x9x2xf32>, memref<3x2x3xf32>) outs(%a2 : memref<2x4x3xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.conv_1d_nwc_wcf"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op : !transform.any_op
    transform.yield
  }
}
