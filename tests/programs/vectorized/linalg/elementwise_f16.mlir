// f16 -> f32 extf, mulf, absf, subf
func.func @kernel(%a0: memref<2x8xf16>, %a1: memref<2x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0 : memref<2x8xf16>) outs(%a1 : memref<2x8xf32>) {
  ^bb0(%x0: f16, %x1: f32):
    %e = arith.extf %x0 : f16 to f32
    %h = arith.mulf %e, %e : f32
    %a = math.absf %x0 : f16
    %b = arith.extf %a : f16 to f32
    %s = arith.subf %h, %b : f32
    linalg.yield %s : f32
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
