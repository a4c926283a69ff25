// The left-hand sides of rules/legalize/x86.egg, avx.egg, avx-fast-math.egg and avx512.egg.
func.func @hadd(%a: vector<4xf32>, %b: vector<4xf32>, %c: vector<2xf64>, %d: vector<2xf64>) -> (vector<4xf32>, vector<2xf64>) {
  %0 = vector.shuffle %a, %b [0, 2, 4, 6] : vector<4xf32>, vector<4xf32>
  %1 = vector.shuffle %a, %b [1, 3, 5, 7] : vector<4xf32>, vector<4xf32>
  %2 = arith.addf %0, %1 : vector<4xf32>
  %3 = vector.shuffle %c, %d [0, 2] : vector<2xf64>, vector<2xf64>
  %4 = vector.shuffle %c, %d [1, 3] : vector<2xf64>, vector<2xf64>
  %5 = arith.addf %3, %4 : vector<2xf64>
  return %2, %5 : vector<4xf32>, vector<2xf64>
}

func.func @hadd_256(%a: vector<8xf32>, %b: vector<8xf32>, %c: vector<4xf64>, %d: vector<4xf64>) -> (vector<8xf32>, vector<4xf64>) {
  %0 = vector.shuffle %a, %b [0, 2, 8, 10, 4, 6, 12, 14] : vector<8xf32>, vector<8xf32>
  %1 = vector.shuffle %a, %b [1, 3, 9, 11, 5, 7, 13, 15] : vector<8xf32>, vector<8xf32>
  %2 = arith.addf %0, %1 : vector<8xf32>
  %3 = vector.shuffle %c, %d [0, 4, 2, 6] : vector<4xf64>, vector<4xf64>
  %4 = vector.shuffle %c, %d [1, 5, 3, 7] : vector<4xf64>, vector<4xf64>
  %5 = arith.addf %3, %4 : vector<4xf64>
  return %2, %5 : vector<8xf32>, vector<4xf64>
}

func.func @dot8(%a: vector<8xf32>, %b: vector<8xf32>, %acc: f32) -> (f32, f32) {
  %p = arith.mulf %a, %b : vector<8xf32>
  %0 = vector.reduction <add>, %p, %acc : vector<8xf32> into f32
  %1 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<8xf32>, vector<8xf32> into f32
  return %0, %1 : f32, f32
}

func.func @compress(%m: memref<40xf32>, %i: index, %k: vector<16xi1>, %v: vector<16xf32>, %n: memref<20xi64>, %k8: vector<8xi1>, %w: vector<8xi64>) {
  vector.compressstore %m[%i], %k, %v : memref<40xf32>, vector<16xi1>, vector<16xf32>
  vector.compressstore %n[%i], %k8, %w : memref<20xi64>, vector<8xi1>, vector<8xi64>
  return
}
