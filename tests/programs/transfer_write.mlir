// REFERENCE: mlir22
// vector.transfer_write: minor identity, transposing map (d1, d0), 3-D permutation, projected
// map into a 3-D memref, out-of-bounds lanes (dropped, in_bounds false), a 1-D and a 2-D mask
// (masked-off lanes are not written; mask shape = vector shape), and i64 elements. The
// memref is reset to -1 before and printed (via transfer_read) after each write.
func.func @dump(%m: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]} : memref<3x4xf32>, vector<3x4xf32>
  vector.print %v : vector<3x4xf32>
  return
}

func.func @reset(%m: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %neg = arith.constant dense<-1.0> : vector<3x4xf32>
  vector.transfer_write %neg, %m[%c0, %c0] {in_bounds = [true, true]} : vector<3x4xf32>, memref<3x4xf32>
  return
}

func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<3x4xf32>

  call @reset(%m) : (memref<3x4xf32>) -> ()
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  vector.transfer_write %a, %m[%c1, %c1] {in_bounds = [true]} : vector<3xf32>, memref<3x4xf32>
  call @dump(%m) : (memref<3x4xf32>) -> ()

  // Transposed: m[1 + b, 0 + a] = t[a, b]
  call @reset(%m) : (memref<3x4xf32>) -> ()
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : vector<3x2xf32>
  vector.transfer_write %t, %m[%c1, %c0] {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<3x2xf32>, memref<3x4xf32>
  call @dump(%m) : (memref<3x4xf32>) -> ()

  // Out of bounds: lanes past column 3 and row 2 are dropped.
  call @reset(%m) : (memref<3x4xf32>) -> ()
  %o = arith.constant dense<[[10.0, 11.0, 12.0], [20.0, 21.0, 22.0]]> : vector<2x3xf32>
  vector.transfer_write %o, %m[%c2, %c2] : vector<2x3xf32>, memref<3x4xf32>
  call @dump(%m) : (memref<3x4xf32>) -> ()

  // 1-D mask.
  call @reset(%m) : (memref<3x4xf32>) -> ()
  %v4 = arith.constant dense<[7.0, 8.0, 9.0, 10.0]> : vector<4xf32>
  %mk = arith.constant dense<[false, true, true, false]> : vector<4xi1>
  vector.transfer_write %v4, %m[%c0, %c0], %mk : vector<4xf32>, memref<3x4xf32>
  call @dump(%m) : (memref<3x4xf32>) -> ()

  // 2-D mask combined with out of bounds columns.
  call @reset(%m) : (memref<3x4xf32>) -> ()
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : vector<3x3xf32>
  %mk2 = vector.create_mask %c2, %c3 : vector<3x3xi1>
  vector.transfer_write %w, %m[%c0, %c2], %mk2 : vector<3x3xf32>, memref<3x4xf32>
  call @dump(%m) : (memref<3x4xf32>) -> ()
  memref.dealloc %m : memref<3x4xf32>

  // 3-D permutation into a 2x3x4 i64 memref: n[c, a, b] = x[a, b, c]; then a projected write
  // (d0, d1, d2) -> (d2) along the minor dim only: n[1, 2, 1 + a] = y[a].
  %n = memref.alloca() : memref<2x3x4xi64>
  %z = arith.constant dense<0> : vector<2x3x4xi64>
  vector.transfer_write %z, %n[%c0, %c0, %c0] : vector<2x3x4xi64>, memref<2x3x4xi64>
  %x = arith.constant dense<[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]]]> : vector<3x4x2xi64>
  vector.transfer_write %x, %n[%c0, %c0, %c0] {permutation_map = affine_map<(d0, d1, d2) -> (d1, d2, d0)>} : vector<3x4x2xi64>, memref<2x3x4xi64>
  %y = arith.constant dense<[-1, -2]> : vector<2xi64>
  vector.transfer_write %y, %n[%c1, %c2, %c1] {permutation_map = affine_map<(d0, d1, d2) -> (d2)>} : vector<2xi64>, memref<2x3x4xi64>
  %ipad = arith.constant 0 : i64
  %nr = vector.transfer_read %n[%c0, %c0, %c0], %ipad : memref<2x3x4xi64>, vector<2x3x4xi64>
  vector.print %nr : vector<2x3x4xi64>
  return
}
