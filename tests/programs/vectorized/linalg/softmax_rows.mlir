// softmax over rows: max, exp(x - max), sum, divide
func.func @kernel(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %m = memref.alloca() : memref<4xf32>
  %s = memref.alloca() : memref<4xf32>
  %ninf = arith.constant -3.0e+38 : f32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%ninf : f32) outs(%m : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<4x8xf32>, memref<4xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : memref<4x8xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : memref<4xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.divf %b, %a : f32
    linalg.yield %r : f32
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
