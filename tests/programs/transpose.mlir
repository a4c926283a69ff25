// REFERENCE: mlir22
// vector.transpose: result dim i = source dim permutation[i]; 2-D [1, 0], 3-D [2, 0, 1],
// [1, 0, 2], [0, 2, 1], identity, 4-D, i1/f64/i8, a unit dim, and double transposition.
func.func @entry() {
  %a = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  %t0 = vector.transpose %a, [1, 0] : vector<2x3xi32> to vector<3x2xi32>
  vector.print %t0 : vector<3x2xi32>
  %v = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
                             [[13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0]]]> : vector<2x3x4xf64>
  %t1 = vector.transpose %v, [2, 0, 1] : vector<2x3x4xf64> to vector<4x2x3xf64>
  vector.print %t1 : vector<4x2x3xf64>
  %t2 = vector.transpose %v, [1, 0, 2] : vector<2x3x4xf64> to vector<3x2x4xf64>
  vector.print %t2 : vector<3x2x4xf64>
  %t3 = vector.transpose %v, [0, 2, 1] : vector<2x3x4xf64> to vector<2x4x3xf64>
  vector.print %t3 : vector<2x4x3xf64>
  %t4 = vector.transpose %v, [0, 1, 2] : vector<2x3x4xf64> to vector<2x3x4xf64>
  vector.print %t4 : vector<2x3x4xf64>
  %t5 = vector.transpose %v, [1, 2, 0] : vector<2x3x4xf64> to vector<3x4x2xf64>
  %t6 = vector.transpose %t5, [2, 0, 1] : vector<3x4x2xf64> to vector<2x3x4xf64>
  vector.print %t6 : vector<2x3x4xf64>
  %w = arith.constant dense<[[[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[9, 10], [11, 12]], [[13, 14], [15, 16]]]]> : vector<2x2x2x2xi8>
  %t7 = vector.transpose %w, [3, 1, 0, 2] : vector<2x2x2x2xi8> to vector<2x2x2x2xi8>
  vector.print %t7 : vector<2x2x2x2xi8>
  %m = arith.constant dense<[[true, false, false], [true, true, false]]> : vector<2x3xi1>
  %t8 = vector.transpose %m, [1, 0] : vector<2x3xi1> to vector<3x2xi1>
  vector.print %t8 : vector<3x2xi1>
  %u = arith.constant dense<[[1.5, 2.5, 3.5]]> : vector<1x3xf32>
  %t9 = vector.transpose %u, [1, 0] : vector<1x3xf32> to vector<3x1xf32>
  vector.print %t9 : vector<3x1xf32>
  return
}
