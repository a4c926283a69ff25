// REFERENCE: mlir22
// vector.extract_strided_slice (offsets/sizes/strides on the leading k dims; the rest is
// kept whole) and vector.insert_strided_slice (k-D source into n-D dest; offsets has n
// entries, strides k), 1-D, 2-D and 3-D, partial-rank slices, i16/f32/i1.
func.func @entry() {
  %v = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi16>
  %e0 = vector.extract_strided_slice %v {offsets = [2], sizes = [4], strides = [1]} : vector<8xi16> to vector<4xi16>
  vector.print %e0 : vector<4xi16>
  %m = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [10.0, 11.0, 12.0, 13.0], [20.0, 21.0, 22.0, 23.0]]> : vector<3x4xf32>
  %e1 = vector.extract_strided_slice %m {offsets = [1, 1], sizes = [2, 2], strides = [1, 1]} : vector<3x4xf32> to vector<2x2xf32>
  vector.print %e1 : vector<2x2xf32>
  // Slice on the leading dim only: whole rows.
  %e2 = vector.extract_strided_slice %m {offsets = [2], sizes = [1], strides = [1]} : vector<3x4xf32> to vector<1x4xf32>
  vector.print %e2 : vector<1x4xf32>
  %c = arith.constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]], [[13, 14, 15], [16, 17, 18]]]> : vector<3x2x3xi16>
  %e3 = vector.extract_strided_slice %c {offsets = [1, 1], sizes = [2, 1], strides = [1, 1]} : vector<3x2x3xi16> to vector<2x1x3xi16>
  vector.print %e3 : vector<2x1x3xi16>
  %e4 = vector.extract_strided_slice %c {offsets = [0, 0, 1], sizes = [3, 2, 2], strides = [1, 1, 1]} : vector<3x2x3xi16> to vector<3x2x2xi16>
  vector.print %e4 : vector<3x2x2xi16>

  %src = arith.constant dense<[-1, -2, -3]> : vector<3xi16>
  %i0 = vector.insert_strided_slice %src, %v {offsets = [5], strides = [1]} : vector<3xi16> into vector<8xi16>
  vector.print %i0 : vector<8xi16>
  %blk = arith.constant dense<[[-1.0, -2.0], [-3.0, -4.0]]> : vector<2x2xf32>
  %i1 = vector.insert_strided_slice %blk, %m {offsets = [1, 2], strides = [1, 1]} : vector<2x2xf32> into vector<3x4xf32>
  vector.print %i1 : vector<3x4xf32>
  // Lower-rank source: 1-D into row 0 of a 2-D dest at column 1.
  %r = arith.constant dense<[100.0, 200.0]> : vector<2xf32>
  %i2 = vector.insert_strided_slice %r, %m {offsets = [0, 1], strides = [1]} : vector<2xf32> into vector<3x4xf32>
  vector.print %i2 : vector<3x4xf32>
  // 2-D source into a 3-D dest at [2, 0, 1].
  %s2 = arith.constant dense<[[0, 0], [0, 0]]> : vector<2x2xi16>
  %i3 = vector.insert_strided_slice %s2, %c {offsets = [2, 0, 1], strides = [1, 1]} : vector<2x2xi16> into vector<3x2x3xi16>
  vector.print %i3 : vector<3x2x3xi16>
  %mk = arith.constant dense<[false, false, false, false]> : vector<4xi1>
  %on = arith.constant dense<true> : vector<2xi1>
  %i4 = vector.insert_strided_slice %on, %mk {offsets = [1], strides = [1]} : vector<2xi1> into vector<4xi1>
  vector.print %i4 : vector<4xi1>
  return
}
