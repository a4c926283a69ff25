// REFERENCE: mlir22
// vector.contract as a plain matmul (i, j, k): (i, k) x (k, j) -> (i, j), f32 and f64,
// with a non-zero accumulator; and a 1x1 degenerate matmul. Values are small integers and
// halves so every product and partial sum is exact (lowering strategy cannot change bits).
#matmul_trait = {
  indexing_maps = [
    affine_map<(i, j, k) -> (i, k)>,
    affine_map<(i, j, k) -> (k, j)>,
    affine_map<(i, j, k) -> (i, j)>
  ],
  iterator_types = ["parallel", "parallel", "reduction"]
}

func.func @matmul_f32(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  %r = vector.contract #matmul_trait %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %r : vector<2x4xf32>
}

func.func @entry() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [-4.0, 0.5, 6.0]]> : vector<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.0, -1.0, 2.0], [2.0, 1.0, 0.0, -2.0], [0.5, 3.0, 1.0, 1.0]]> : vector<3x4xf32>
  %z = arith.constant dense<0.0> : vector<2x4xf32>
  %acc = arith.constant dense<[[10.0, 20.0, 30.0, 40.0], [-1.0, -2.0, -3.0, -4.0]]> : vector<2x4xf32>
  %r0 = call @matmul_f32(%a, %b, %z) : (vector<2x3xf32>, vector<3x4xf32>, vector<2x4xf32>) -> vector<2x4xf32>
  vector.print %r0 : vector<2x4xf32>
  %r1 = call @matmul_f32(%a, %b, %acc) : (vector<2x3xf32>, vector<3x4xf32>, vector<2x4xf32>) -> vector<2x4xf32>
  vector.print %r1 : vector<2x4xf32>

  %ad = arith.constant dense<[[1.5, -2.0], [0.25, 4.0], [3.0, 3.0]]> : vector<3x2xf64>
  %bd = arith.constant dense<[[2.0, 4.0, 8.0], [-1.0, 0.5, 0.125]]> : vector<2x3xf64>
  %cd = arith.constant dense<1.0> : vector<3x3xf64>
  %rd = vector.contract #matmul_trait %ad, %bd, %cd : vector<3x2xf64>, vector<2x3xf64> into vector<3x3xf64>
  vector.print %rd : vector<3x3xf64>

  %a1 = arith.constant dense<[[3.0]]> : vector<1x1xf32>
  %b1 = arith.constant dense<[[-7.0]]> : vector<1x1xf32>
  %c1 = arith.constant dense<[[100.0]]> : vector<1x1xf32>
  %r11 = vector.contract #matmul_trait %a1, %b1, %c1 : vector<1x1xf32>, vector<1x1xf32> into vector<1x1xf32>
  vector.print %r11 : vector<1x1xf32>
  return
}
