// A * B^T as a generic: contract with a transposed rhs map
func.func @kernel(%a0: memref<4x8xf32>, %a1: memref<6x8xf32>, %a2: memref<4x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a0, %a1 : memref<4x8xf32>, memref<6x8xf32>) outs(%a2 : memref<4x6xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32):
    %p = arith.mulf %x0, %x1 : f32
    %s = arith.addf %x2, %p : f32
    linalg.yield %s : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %op {deduplicate, isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
