// tensor.pad with a constant, vectorized as a masked read and a write
func.func @kernel(%t: tensor<3x5xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant 9.0 : f32
  %p = tensor.pad %t low[0, 1] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<3x5xf32> to tensor<4x8xf32>
  %r = linalg.copy ins(%p : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f {vectorize_padding} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
