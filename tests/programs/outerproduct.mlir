// REFERENCE: mlir22
// vector.outerproduct: 1-D x 1-D -> 2-D without acc, with acc (default kind add, fused for
// floats), with combining kinds (mul, maxnumf, minnumf, maxsi, minui, and, or, xor), and the
// AXPY form 1-D x scalar -> 1-D with and without acc; f32, f64, i32, i8 (i8 products wrap).
func.func @entry() {
  %l = arith.constant dense<[1.0, -2.0]> : vector<2xf32>
  %r = arith.constant dense<[3.0, 4.0, 0.5]> : vector<3xf32>
  %acc = arith.constant dense<[[10.0, 0.0, 100.0], [0.0, -20.0, 0.0]]> : vector<2x3xf32>
  %o0 = vector.outerproduct %l, %r : vector<2xf32>, vector<3xf32>
  vector.print %o0 : vector<2x3xf32>
  %o1 = vector.outerproduct %l, %r, %acc : vector<2xf32>, vector<3xf32>
  vector.print %o1 : vector<2x3xf32>
  %o2 = vector.outerproduct %l, %r, %acc {kind = #vector.kind<mul>} : vector<2xf32>, vector<3xf32>
  vector.print %o2 : vector<2x3xf32>
  %o3 = vector.outerproduct %l, %r, %acc {kind = #vector.kind<maxnumf>} : vector<2xf32>, vector<3xf32>
  vector.print %o3 : vector<2x3xf32>
  %o4 = vector.outerproduct %l, %r, %acc {kind = #vector.kind<minnumf>} : vector<2xf32>, vector<3xf32>
  vector.print %o4 : vector<2x3xf32>

  %ld = arith.constant dense<[0.5, 0.25, -8.0]> : vector<3xf64>
  %rd = arith.constant dense<[2.0, -4.0]> : vector<2xf64>
  %od = vector.outerproduct %ld, %rd : vector<3xf64>, vector<2xf64>
  vector.print %od : vector<3x2xf64>

  %li = arith.constant dense<[3, -1, 12]> : vector<3xi32>
  %ri = arith.constant dense<[5, -6]> : vector<2xi32>
  %ai = arith.constant dense<[[1, 2], [3, 4], [5, 6]]> : vector<3x2xi32>
  %oi0 = vector.outerproduct %li, %ri, %ai : vector<3xi32>, vector<2xi32>
  vector.print %oi0 : vector<3x2xi32>
  %oi1 = vector.outerproduct %li, %ri, %ai {kind = #vector.kind<maxsi>} : vector<3xi32>, vector<2xi32>
  vector.print %oi1 : vector<3x2xi32>
  %oi2 = vector.outerproduct %li, %ri, %ai {kind = #vector.kind<minui>} : vector<3xi32>, vector<2xi32>
  vector.print %oi2 : vector<3x2xi32>
  %oi3 = vector.outerproduct %li, %ri, %ai {kind = #vector.kind<and>} : vector<3xi32>, vector<2xi32>
  vector.print %oi3 : vector<3x2xi32>
  %oi4 = vector.outerproduct %li, %ri, %ai {kind = #vector.kind<or>} : vector<3xi32>, vector<2xi32>
  vector.print %oi4 : vector<3x2xi32>
  %oi5 = vector.outerproduct %li, %ri, %ai {kind = #vector.kind<xor>} : vector<3xi32>, vector<2xi32>
  vector.print %oi5 : vector<3x2xi32>

  %l8 = arith.constant dense<[16, -3]> : vector<2xi8>
  %r8 = arith.constant dense<[16, 100]> : vector<2xi8>
  %o8 = vector.outerproduct %l8, %r8 : vector<2xi8>, vector<2xi8>
  vector.print %o8 : vector<2x2xi8>

  // AXPY: vector x scalar.
  %s = arith.constant -1.5 : f32
  %y = arith.constant dense<[1.0, 1.0, 1.0]> : vector<3xf32>
  %ax0 = vector.outerproduct %r, %s : vector<3xf32>, f32
  vector.print %ax0 : vector<3xf32>
  %ax1 = vector.outerproduct %r, %s, %y : vector<3xf32>, f32
  vector.print %ax1 : vector<3xf32>
  %si = arith.constant 7 : i32
  %yi = arith.constant dense<[10, -10, 300]> : vector<3xi32>
  %ax2 = vector.outerproduct %li, %si, %yi {kind = #vector.kind<maxsi>} : vector<3xi32>, i32
  vector.print %ax2 : vector<3xi32>
  return
}
