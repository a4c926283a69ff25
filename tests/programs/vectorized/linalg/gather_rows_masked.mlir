// data-dependent rows of a 3x5 output, masked to 4x8: vector.mask around vector.gather
func.func @kernel(%t: tensor<8x8xf32>, %idx: tensor<3xi32>, %o: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<3xi32>) outs(%o : tensor<3x5xf32>) {
  ^bb0(%i: i32, %out: f32):
    %c5 = arith.constant 5 : i32
    %c8 = arith.constant 8 : i32
    %p = arith.addi %i, %c5 : i32
    %w = arith.remsi %p, %c8 : i32
    %row = arith.index_cast %w : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %t[%row, %col] : tensor<8x8xf32>
    linalg.yield %v : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op vector_sizes [4, 8] {vectorize_nd_extract} : !transform.any_op
    transform.yield
  }
}
