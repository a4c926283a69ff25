// 1-D convolution NWC/WCF: unrolled over the window
func.func @kernel(%a0: memref<1x10x3xf32>, %a1: memref<3x3x4xf32>, %a2: memref<1x8x4xf32>) {
  linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a0, %a1 : memref<1x10x3xf32>, memref<3x3x4xf32>) outs(%a2 : memref<1x8x4xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.conv_1d_nwc_wcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
