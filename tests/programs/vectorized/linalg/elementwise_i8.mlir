// i8 muli/maxsi/shrsi/cmpi/select
func.func @kernel(%a0: memref<4x16xi8>, %a1: memref<4x16xi8>, %a2: memref<4x16xi8>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : memref<4x16xi8>, memref<4x16xi8>) outs(%a2 : memref<4x16xi8>) {
  ^bb0(%x0: i8, %x1: i8, %x2: i8):
    %m = arith.muli %x0, %x1 : i8
    %a = arith.maxsi %m, %x0 : i8
    %s = arith.shrsi %a, %x2 : i8
    %c = arith.cmpi slt, %x0, %x1 : i8
    %r = arith.select %c, %a, %s : i8
    linalg.yield %r : i8
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
