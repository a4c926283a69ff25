// i16 column broadcast, add and square (transposed broadcast read)
func.func @kernel(%a0: memref<4x8xi16>, %a1: memref<4xi16>, %a2: memref<4x8xi16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : memref<4x8xi16>, memref<4xi16>) outs(%a2 : memref<4x8xi16>) {
  ^bb0(%x0: i16, %x1: i16, %x2: i16):
    %s = arith.addi %x0, %x1 : i16
    %m = arith.muli %s, %s : i16
    linalg.yield %m : i16
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %op : !transform.any_op
    transform.yield
  }
}
