// Lowering strategies of rules/explore: contract-to-scalar-*, multi-reduction-inner-*,
// transpose-as-shuffle-16x16, transpose-as-shuffle-4x4-pairs (an f64 transpose),
// transfer-read-* (a permuted read among them), transfer-write-* (effects: the memrefs are
// arguments, so both sides of a rewrite run on the same random memory).
#dot = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
func.func @lowerings(%a: vector<2x3xf32>, %b: vector<3x2xf32>, %s: f32, %r: vector<2x3x4xf32>, %racc: vector<3xf32>, %t: vector<16x16xf32>) -> (f32, vector<3xf32>, vector<16x16xf32>) {
  %0 = vector.contract #dot %a, %b, %s : vector<2x3xf32>, vector<3x2xf32> into f32
  %1 = vector.multi_reduction <add>, %r, %racc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
  %2 = vector.transpose %t, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  return %0, %1, %2 : f32, vector<3xf32>, vector<16x16xf32>
}

func.func @f64_transpose(%t: vector<4x8xf64>) -> vector<8x4xf64> {
  %0 = vector.transpose %t, [1, 0] : vector<4x8xf64> to vector<8x4xf64>
  return %0 : vector<8x4xf64>
}

func.func @reads(%m: memref<10xf32>, %short: memref<5xf32>, %m2: memref<4x6xf32>, %i: index, %p: f32, %k: vector<4xi1>) -> (vector<4xf32>, vector<8xf32>, vector<4xf32>, vector<3x4xf32>, vector<2x4xf32>, vector<4x2xf32>) {
  %0 = vector.transfer_read %m[%i], %p {in_bounds = [true]} : memref<10xf32>, vector<4xf32>
  %1 = vector.transfer_read %short[%i], %p {in_bounds = [false]} : memref<5xf32>, vector<8xf32>
  %2 = vector.transfer_read %m[%i], %p, %k {in_bounds = [true]} : memref<10xf32>, vector<4xf32>
  %3 = vector.transfer_read %m2[%i, %i], %p {in_bounds = [true, false]} : memref<4x6xf32>, vector<3x4xf32>
  %4 = vector.transfer_read %m2[%i, %i], %p {in_bounds = [true, true]} : memref<4x6xf32>, vector<2x4xf32>
  %5 = vector.transfer_read %m2[%i, %i], %p {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x6xf32>, vector<4x2xf32>
  return %0, %1, %2, %3, %4, %5 : vector<4xf32>, vector<8xf32>, vector<4xf32>, vector<3x4xf32>, vector<2x4xf32>, vector<4x2xf32>
}

func.func @writes(%m: memref<10xf32>, %short: memref<5xf32>, %m2: memref<4x6xf32>, %i: index, %v: vector<4xf32>, %w: vector<8xf32>, %x: vector<3x4xf32>, %k: vector<4xi1>) {
  vector.transfer_write %v, %m[%i] {in_bounds = [true]} : vector<4xf32>, memref<10xf32>
  vector.transfer_write %w, %short[%i] {in_bounds = [false]} : vector<8xf32>, memref<5xf32>
  vector.transfer_write %v, %m[%i], %k {in_bounds = [true]} : vector<4xf32>, memref<10xf32>
  vector.transfer_write %x, %m2[%i, %i] {in_bounds = [true, false]} : vector<3x4xf32>, memref<4x6xf32>
  return
}

func.func @strided(%m: memref<4x6xf32, strided<[8, 1]>>, %n: memref<6xf32, strided<[1], offset: 2>>, %i: index, %p: f32, %v: vector<2x4xf32>) -> (vector<2x4xf32>, vector<4xf32>) {
  %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true]} : memref<4x6xf32, strided<[8, 1]>>, vector<2x4xf32>
  %1 = vector.transfer_read %n[%i], %p {in_bounds = [true]} : memref<6xf32, strided<[1], offset: 2>>, vector<4xf32>
  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<4x6xf32, strided<[8, 1]>>
  %row = vector.extract %v[0] : vector<4xf32> from vector<2x4xf32>
  vector.transfer_write %row, %m[%i, %i] {in_bounds = [true]} : vector<4xf32>, memref<4x6xf32, strided<[8, 1]>>
  return %0, %1 : vector<2x4xf32>, vector<4xf32>
}

// An integer matmul: the matrix intrinsic is exact for integers.
func.func @int_matmul(%a: vector<2x3xi32>, %b: vector<3x4xi32>, %c: vector<2x4xi32>) -> vector<2x4xi32> {
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xi32>, vector<3x4xi32> into vector<2x4xi32>
  return %0 : vector<2x4xi32>
}
