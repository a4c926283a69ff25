// tensor.extract at data-dependent rows (vectorize_nd_extract): vector.gather
func.func @kernel(%t: tensor<8x8xf32>, %idx: tensor<4xi32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<4xi32>) outs(%o : tensor<4x8xf32>) {
  ^bb0(%i: i32, %out: f32):
    %c5 = arith.constant 5 : i32
    %c8 = arith.constant 8 : i32
    %p = arith.addi %i, %c5 : i32
    %w = arith.remsi %p, %c8 : i32
    %row = arith.index_cast %w : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %t[%row, %col] : tensor<8x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f {vectorize_nd_extract} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
