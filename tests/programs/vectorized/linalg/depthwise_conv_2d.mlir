// depthwise 2-D convolution on tensors, decomposed to 1-D
func.func @kernel(%a0: tensor<1x5x5x4xf32>, %a1: tensor<2x2x4xf32>, %a2: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a0, %a1 : tensor<1x5x5x4xf32>, tensor<2x2x4xf32>) outs(%a2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.depthwise_conv_2d_nhwc_hwc"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loops:2 = transform.structured.tile_using_for %op tile_sizes [0, 1, 0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %d = transform.structured.decompose %t : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %d {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
