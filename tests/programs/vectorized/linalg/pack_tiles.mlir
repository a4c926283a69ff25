// linalg.pack of an 8x8 matrix into 4x4 tiles: transfer_read, shape_cast, transpose
func.func @kernel(%t: tensor<8x8xf32>, %o: tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32> {
  %r = linalg.pack %t inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %o : tensor<8x8xf32> -> tensor<2x2x4x4xf32>
  return %r : tensor<2x2x4x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op : !transform.any_op
    transform.yield
  }
}
