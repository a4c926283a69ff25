// 8x32x16 matmul tiled 4x8x8, accumulator hoisted out of the k loop into iter_args
func.func @kernel(%A: memref<8x32xf32>, %B: memref<32x16xf32>, %C: memref<8x16xf32>) {
  linalg.matmul ins(%A, %B : memref<8x32xf32>, memref<32x16xf32>) outs(%C : memref<8x16xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loops:3 = transform.structured.tile_using_for %op tile_sizes [4, 8, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.get_parent_op %t {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %v : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
