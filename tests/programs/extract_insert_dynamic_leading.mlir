// REFERENCE: hand -- MLIR 22 convert-vector-to-llvm does not lower vector.extract/vector.insert with a dynamic (non-constant) position in a leading dim of an n-D vector (MLIR 19 lowers no dynamic n-D position at all); hand check in hand_checks/ goes through memory
// vector.extract / vector.insert with a truly dynamic position (function arguments) in the
// leading dim of 2-D and 3-D vectors: [%i] (sub-vector), [%i, 2], [%i, %j] (scalar), insert
// of a row at [%i] and of a scalar at [%i, %j], [%k, 1, %i] on a 3-D vector.
func.func @dyn(%v: vector<3x4xi32>, %w: vector<2x2x3xf32>, %i: index, %j: index, %k: index)
    -> (vector<4xi32>, i32, i32, vector<3x4xi32>, vector<3x4xi32>, f32, vector<2x2x3xf32>) {
  %row = vector.extract %v[%i] : vector<4xi32> from vector<3x4xi32>
  %a = vector.extract %v[%i, 2] : i32 from vector<3x4xi32>
  %b = vector.extract %v[%i, %j] : i32 from vector<3x4xi32>
  %nr = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
  %c = vector.insert %nr, %v[%i] : vector<4xi32> into vector<3x4xi32>
  %x = arith.constant 99 : i32
  %d = vector.insert %x, %v[%i, %j] : i32 into vector<3x4xi32>
  %e = vector.extract %w[%k, 1, %i] : f32 from vector<2x2x3xf32>
  %y = arith.constant -0.5 : f32
  %f = vector.insert %y, %w[%k, 0, %i] : f32 into vector<2x2x3xf32>
  return %row, %a, %b, %c, %d, %e, %f : vector<4xi32>, i32, i32, vector<3x4xi32>, vector<3x4xi32>, f32, vector<2x2x3xf32>
}

func.func @entry() {
  %v = arith.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : vector<3x4xi32>
  %w = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]> : vector<2x2x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r:7 = func.call @dyn(%v, %w, %c1, %c3, %c1) : (vector<3x4xi32>, vector<2x2x3xf32>, index, index, index) -> (vector<4xi32>, i32, i32, vector<3x4xi32>, vector<3x4xi32>, f32, vector<2x2x3xf32>)
  vector.print %r#0 : vector<4xi32>
  vector.print %r#1 : i32
  vector.print %r#2 : i32
  vector.print %r#3 : vector<3x4xi32>
  vector.print %r#4 : vector<3x4xi32>
  vector.print %r#5 : f32
  vector.print %r#6 : vector<2x2x3xf32>
  %s:7 = func.call @dyn(%v, %w, %c2, %c0, %c0) : (vector<3x4xi32>, vector<2x2x3xf32>, index, index, index) -> (vector<4xi32>, i32, i32, vector<3x4xi32>, vector<3x4xi32>, f32, vector<2x2x3xf32>)
  vector.print %s#0 : vector<4xi32>
  vector.print %s#1 : i32
  vector.print %s#2 : i32
  vector.print %s#3 : vector<3x4xi32>
  vector.print %s#4 : vector<3x4xi32>
  vector.print %s#5 : f32
  vector.print %s#6 : vector<2x2x3xf32>
  return
}
