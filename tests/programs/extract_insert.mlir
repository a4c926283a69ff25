// REFERENCE: mlir22
// vector.extract / vector.insert with static positions (full rank -> scalar, partial ->
// sub-vector, 0-D source via vector<f32>) and dynamic positions: index SSA values (constants,
// which MLIR folds to static), truly dynamic ones (function arguments, loop indices) on 1-D
// vectors and in the MINOR position of a 2-D vector ([1, %j]); on i1/i8/i64/f32/f64/index.
// (A dynamic LEADING position on an n-D vector is not lowered by MLIR 22: see
// extract_insert_dynamic_leading.mlir.)
func.func @pick(%v: vector<6xf32>, %i: index) -> f32 {
  %e = vector.extract %v[%i] : f32 from vector<6xf32>
  return %e : f32
}

func.func @minor(%v: vector<3x4xi32>, %j: index) -> (i32, vector<3x4xi32>) {
  %a = vector.extract %v[1, %j] : i32 from vector<3x4xi32>
  %x = arith.constant -7 : i32
  %d = vector.insert %x, %v[2, %j] : i32 into vector<3x4xi32>
  return %a, %d : i32, vector<3x4xi32>
}

func.func @entry() {
  %v = arith.constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]> : vector<2x2x3xi64>
  %e0 = vector.extract %v[1, 0, 2] : i64 from vector<2x2x3xi64>
  vector.print %e0 : i64
  %e1 = vector.extract %v[1] : vector<2x3xi64> from vector<2x2x3xi64>
  vector.print %e1 : vector<2x3xi64>
  %e2 = vector.extract %v[0, 1] : vector<3xi64> from vector<2x2x3xi64>
  vector.print %e2 : vector<3xi64>
  %z = arith.constant dense<2.25> : vector<f32>
  %e3 = vector.extract %z[] : f32 from vector<f32>
  vector.print %e3 : f32

  %n = arith.constant -5 : i64
  %i0 = vector.insert %n, %v[0, 0, 1] : i64 into vector<2x2x3xi64>
  vector.print %i0 : vector<2x2x3xi64>
  %row = arith.constant dense<[0, 0, 0]> : vector<3xi64>
  %i1 = vector.insert %row, %v[1, 1] : vector<3xi64> into vector<2x2x3xi64>
  vector.print %i1 : vector<2x2x3xi64>
  %pl = arith.constant dense<[[-1, -2, -3], [-4, -5, -6]]> : vector<2x3xi64>
  %i2 = vector.insert %pl, %v[0] : vector<2x3xi64> into vector<2x2x3xi64>
  vector.print %i2 : vector<2x2x3xi64>
  %f = arith.constant 9.5 : f32
  %i3 = vector.insert %f, %z[] : f32 into vector<f32>
  vector.print %i3 : vector<f32>

  // Dynamic positions.
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %w = arith.constant dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5]> : vector<6xf32>
  %d0 = vector.extract %w[%c2] : f32 from vector<6xf32>
  vector.print %d0 : f32
  %d1 = vector.extract %v[1, %c1, %c2] : i64 from vector<2x2x3xi64>
  vector.print %d1 : i64
  %d2 = vector.extract %v[%c0, 1] : vector<3xi64> from vector<2x2x3xi64>
  vector.print %d2 : vector<3xi64>
  %b = arith.constant dense<[1, 2, 3, 4]> : vector<4xi8>
  %x = arith.constant 99 : i8
  %d3 = vector.insert %x, %b[%c2] : i8 into vector<4xi8>
  vector.print %d3 : vector<4xi8>
  %d4 = vector.insert %n, %v[%c1, 0, %c1] : i64 into vector<2x2x3xi64>
  vector.print %d4 : vector<2x2x3xi64>
  // Reverse w through a loop of dynamic extract/insert.
  %init = arith.constant dense<0.0> : vector<6xf32>
  %rev = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %init) -> (vector<6xf32>) {
    %e = func.call @pick(%w, %i) : (vector<6xf32>, index) -> f32
    %j0 = arith.subi %c6, %i : index
    %j = arith.subi %j0, %c1 : index
    %ins = vector.insert %e, %acc[%j] : f32 into vector<6xf32>
    scf.yield %ins : vector<6xf32>
  }
  vector.print %rev : vector<6xf32>
  %q = arith.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : vector<3x4xi32>
  %c3 = arith.constant 3 : index
  %mn:2 = func.call @minor(%q, %c3) : (vector<3x4xi32>, index) -> (i32, vector<3x4xi32>)
  vector.print %mn#0 : i32
  vector.print %mn#1 : vector<3x4xi32>
  %m = arith.constant dense<[true, false, true]> : vector<3xi1>
  %m1 = vector.extract %m[%c1] : i1 from vector<3xi1>
  vector.print %m1 : i1
  %t = arith.constant true
  %m2 = vector.insert %t, %m[1] : i1 into vector<3xi1>
  vector.print %m2 : vector<3xi1>
  %ix = arith.constant dense<[10, 20, 30]> : vector<3xindex>
  %ix1 = vector.extract %ix[%c2] : index from vector<3xindex>
  vector.print %ix1 : index
  %dd = arith.constant dense<[[0.1, 0.2], [0.3, 0.4]]> : vector<2x2xf64>
  %dd1 = vector.extract %dd[1, 0] : f64 from vector<2x2xf64>
  vector.print %dd1 : f64
  return
}
