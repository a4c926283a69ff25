// REFERENCE: mlir22
// vector.shape_cast (row-major reshape: collapse, expand, 1-D <-> 3-D, unit dims, 0-D <-> 1x1)
// and vector.broadcast (scalar -> n-D, 1-D -> 2-D/3-D over new leading dims, stretching
// dims of size 1, 0-D -> n-D, same-rank stretch of a middle unit dim, i1/index/f16),
// including the splat-like broadcast of a scalar that replaces vector.splat in MLIR 22.
func.func @entry() {
  %v = arith.constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]> : vector<2x2x3xi32>
  %s0 = vector.shape_cast %v : vector<2x2x3xi32> to vector<4x3xi32>
  vector.print %s0 : vector<4x3xi32>
  %s1 = vector.shape_cast %v : vector<2x2x3xi32> to vector<12xi32>
  vector.print %s1 : vector<12xi32>
  %s2 = vector.shape_cast %s1 : vector<12xi32> to vector<3x4xi32>
  vector.print %s2 : vector<3x4xi32>
  %s3 = vector.shape_cast %s1 : vector<12xi32> to vector<2x3x2xi32>
  vector.print %s3 : vector<2x3x2xi32>
  %s4 = vector.shape_cast %s2 : vector<3x4xi32> to vector<3x1x4xi32>
  vector.print %s4 : vector<3x1x4xi32>
  %z = arith.constant dense<4.5> : vector<f32>
  %s5 = vector.shape_cast %z : vector<f32> to vector<1x1xf32>
  vector.print %s5 : vector<1x1xf32>
  %s6 = vector.shape_cast %s5 : vector<1x1xf32> to vector<f32>
  vector.print %s6 : vector<f32>

  %f = arith.constant 2.5 : f32
  %b0 = vector.broadcast %f : f32 to vector<3xf32>
  vector.print %b0 : vector<3xf32>
  %b1 = vector.broadcast %f : f32 to vector<2x3xf32>
  vector.print %b1 : vector<2x3xf32>
  %row = arith.constant dense<[1, 2, 3]> : vector<3xi32>
  %b2 = vector.broadcast %row : vector<3xi32> to vector<2x3xi32>
  vector.print %b2 : vector<2x3xi32>
  %b3 = vector.broadcast %row : vector<3xi32> to vector<2x2x3xi32>
  vector.print %b3 : vector<2x2x3xi32>
  %col = arith.constant dense<[[1], [2], [3]]> : vector<3x1xi32>
  %b4 = vector.broadcast %col : vector<3x1xi32> to vector<3x4xi32>
  vector.print %b4 : vector<3x4xi32>
  %b5 = vector.broadcast %col : vector<3x1xi32> to vector<2x3x2xi32>
  vector.print %b5 : vector<2x3x2xi32>
  %mid = arith.constant dense<[[[1, 2]], [[3, 4]]]> : vector<2x1x2xi32>
  %b6 = vector.broadcast %mid : vector<2x1x2xi32> to vector<2x3x2xi32>
  vector.print %b6 : vector<2x3x2xi32>
  %b7 = vector.broadcast %z : vector<f32> to vector<2x2xf32>
  vector.print %b7 : vector<2x2xf32>
  %t = arith.constant true
  %b8 = vector.broadcast %t : i1 to vector<4xi1>
  vector.print %b8 : vector<4xi1>
  %x = arith.constant 42 : index
  %b9 = vector.broadcast %x : index to vector<2xindex>
  vector.print %b9 : vector<2xindex>
  %h = arith.constant -0.75 : f16
  %b10 = vector.broadcast %h : f16 to vector<2x2xf16>
  vector.print %b10 : vector<2x2xf16>
  %b11 = vector.broadcast %f : f32 to vector<f32>
  vector.print %b11 : vector<f32>
  return
}
