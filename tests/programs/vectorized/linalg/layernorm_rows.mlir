// layernorm over rows: mean, variance, rsqrt, scale
func.func @kernel(%x: memref<4x16xf32>, %g: memref<16xf32>, %y: memref<4x16xf32>) {
  %mean = memref.alloca() : memref<4xf32>
  %var = memref.alloca() : memref<4xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%mean : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%var : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x16xf32>) outs(%mean : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.constant 0.0625 : f32
    %s = arith.mulf %a, %n : f32
    %r = arith.addf %s, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : memref<4x16xf32>, memref<4xf32>) outs(%var : memref<4xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32):
    %n = arith.constant 0.0625 : f32
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.mulf %d2, %n : f32
    %r = arith.addf %s, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %var, %g : memref<4x16xf32>, memref<4xf32>, memref<4xf32>, memref<16xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32, %w: f32, %o: f32):
    %eps = arith.constant 1.0e-05 : f32
    %d = arith.subf %a, %m : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %n = arith.mulf %d, %r : f32
    %s = arith.mulf %n, %w : f32
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
