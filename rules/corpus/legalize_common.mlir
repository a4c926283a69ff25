// The left-hand sides of rules/legalize/common.egg (and common-fast-math.egg): VV ops on 1-D
// vectors that become LLVM intrinsics.
func.func @fma(%a: vector<8xf32>, %b: vector<8xf32>, %c: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>) {
  %0 = vector.fma %a, %b, %c : vector<8xf32>
  %1 = math.fma %a, %b, %c : vector<8xf32>
  return %0, %1 : vector<8xf32>, vector<8xf32>
}

func.func @fma_row_tile(%a: vector<1x4xf32>, %b: vector<1x4xf32>, %c: vector<1x4xf32>) -> vector<1x4xf32> {
  %0 = vector.fma %a, %b, %c : vector<1x4xf32>
  return %0 : vector<1x4xf32>
}

func.func @float_reductions(%v: vector<8xf32>, %acc: f32, %w: vector<4xf64>, %d: f64) -> (f32, f32, f32, f32, f64, f64) {
  %0 = vector.reduction <add>, %v, %acc : vector<8xf32> into f32
  %1 = vector.reduction <add>, %v : vector<8xf32> into f32
  %2 = vector.reduction <mul>, %v, %acc : vector<8xf32> into f32
  %3 = vector.reduction <mul>, %v : vector<8xf32> into f32
  %4 = vector.reduction <add>, %w, %d fastmath<reassoc> : vector<4xf64> into f64
  %5 = vector.reduction <mul>, %w : vector<4xf64> into f64
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f64, f64
}

func.func @minmax_reductions(%v: vector<16xf32>, %acc: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %0 = vector.reduction <maxnumf>, %v : vector<16xf32> into f32
  %1 = vector.reduction <minnumf>, %v : vector<16xf32> into f32
  %2 = vector.reduction <maximumf>, %v : vector<16xf32> into f32
  %3 = vector.reduction <minimumf>, %v : vector<16xf32> into f32
  %4 = vector.reduction <maxnumf>, %v, %acc : vector<16xf32> into f32
  %5 = vector.reduction <minnumf>, %v, %acc : vector<16xf32> into f32
  %6 = vector.reduction <maximumf>, %v, %acc : vector<16xf32> into f32
  %7 = vector.reduction <minimumf>, %v, %acc : vector<16xf32> into f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f32, f32, f32, f32
}

func.func @int_reductions(%v: vector<8xi32>, %acc: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %0 = vector.reduction <add>, %v : vector<8xi32> into i32
  %1 = vector.reduction <mul>, %v : vector<8xi32> into i32
  %2 = vector.reduction <and>, %v : vector<8xi32> into i32
  %3 = vector.reduction <or>, %v : vector<8xi32> into i32
  %4 = vector.reduction <xor>, %v : vector<8xi32> into i32
  %5 = vector.reduction <maxsi>, %v : vector<8xi32> into i32
  %6 = vector.reduction <minsi>, %v : vector<8xi32> into i32
  %7 = vector.reduction <maxui>, %v : vector<8xi32> into i32
  %8 = vector.reduction <minui>, %v : vector<8xi32> into i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i32, i32, i32
}

func.func @int_reductions_acc(%v: vector<16xi8>, %acc: i8) -> (i8, i8, i8, i8, i8, i8, i8, i8, i8) {
  %0 = vector.reduction <add>, %v, %acc : vector<16xi8> into i8
  %1 = vector.reduction <mul>, %v, %acc : vector<16xi8> into i8
  %2 = vector.reduction <and>, %v, %acc : vector<16xi8> into i8
  %3 = vector.reduction <or>, %v, %acc : vector<16xi8> into i8
  %4 = vector.reduction <xor>, %v, %acc : vector<16xi8> into i8
  %5 = vector.reduction <maxsi>, %v, %acc : vector<16xi8> into i8
  %6 = vector.reduction <minsi>, %v, %acc : vector<16xi8> into i8
  %7 = vector.reduction <maxui>, %v, %acc : vector<16xi8> into i8
  %8 = vector.reduction <minui>, %v, %acc : vector<16xi8> into i8
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i8, i8, i8, i8, i8, i8, i8, i8, i8
}

func.func @matrix(%a: vector<6xf32>, %b: vector<6xf32>) -> (vector<4xf32>, vector<6xf32>) {
  %0 = vector.matrix_multiply %a, %b {lhs_rows = 2 : i32, lhs_columns = 3 : i32, rhs_columns = 2 : i32} : (vector<6xf32>, vector<6xf32>) -> vector<4xf32>
  %1 = vector.flat_transpose %a {rows = 2 : i32, columns = 3 : i32} : vector<6xf32> -> vector<6xf32>
  return %0, %1 : vector<4xf32>, vector<6xf32>
}

func.func @small_matmul(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

func.func @masked_memory(%m: memref<24xf32>, %i: index, %k: vector<8xi1>, %v: vector<8xf32>, %n: memref<?xi32>, %kw: vector<4xi1>, %w: vector<4xi32>) -> (vector<8xf32>, vector<4xi32>) {
  %0 = vector.maskedload %m[%i], %k, %v : memref<24xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  vector.maskedstore %m[%i], %k, %v : memref<24xf32>, vector<8xi1>, vector<8xf32>
  %1 = vector.expandload %n[%i], %kw, %w : memref<?xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  vector.compressstore %n[%i], %kw, %w : memref<?xi32>, vector<4xi1>, vector<4xi32>
  return %0, %1 : vector<8xf32>, vector<4xi32>
}

func.func @gather(%m: memref<24xf32>, %i: index, %v: vector<8xindex>, %k: vector<8xi1>, %x: vector<8xf32>, %kw: vector<4xi1>, %n: memref<?xi64>, %y: vector<4xi64>) -> (vector<8xf32>, vector<4xi64>) {
  %w = arith.constant dense<[3, 0, 2, 2]> : vector<4xi32>
  %0 = vector.gather %m[%i][%v], %k, %x : memref<24xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %1 = vector.gather %n[%i][%w], %kw, %y : memref<?xi64>, vector<4xi32>, vector<4xi1>, vector<4xi64> into vector<4xi64>
  return %0, %1 : vector<8xf32>, vector<4xi64>
}

// Scatters with distinct in-bounds offsets (duplicate addresses would be undefined).
func.func @scatter(%m: memref<24xf32>, %i: index, %k: vector<8xi1>, %x: vector<8xf32>, %kw: vector<4xi1>, %n: memref<?xi64>, %y: vector<4xi64>) {
  %v = arith.constant dense<[7, 0, 3, 12, 5, 9, 1, 2]> : vector<8xindex>
  vector.scatter %m[%i][%v], %k, %x : memref<24xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32>
  %w = arith.constant dense<[3, 0, 2, 1]> : vector<4xi32>
  vector.scatter %n[%i][%w], %kw, %y : memref<?xi64>, vector<4xi32>, vector<4xi1>, vector<4xi64>
  return
}
