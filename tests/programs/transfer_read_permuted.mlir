// REFERENCE: mlir22
// vector.transfer_read with non-identity permutation maps: 2-D transpose (d1, d0), 3-D
// permutations, projected maps that drop a memref dim (d0, d1, d2) -> (d2, d0), and
// broadcast maps with constant 0 results ((d0, d1) -> (0, d1), (d0, d1) -> (d0, 0),
// (d0, d1) -> (0)); memref m[i, j, k] = 100*i + 10*j + k.
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant -1 : i32
  %m = memref.alloc() : memref<2x3x4xi32>
  %v = arith.constant dense<[[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]],
                             [[100, 101, 102, 103], [110, 111, 112, 113], [120, 121, 122, 123]]]> : vector<2x3x4xi32>
  vector.transfer_write %v, %m[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x3x4xi32>, memref<2x3x4xi32>

  // v[a, b] = m[0, b, a]
  %t0 = vector.transfer_read %m[%c0, %c0, %c0], %pad {permutation_map = affine_map<(d0, d1, d2) -> (d2, d1)>} : memref<2x3x4xi32>, vector<4x3xi32>
  vector.print %t0 : vector<4x3xi32>
  // v[a, b] = m[1, 1 + b, 1 + a]
  %t1 = vector.transfer_read %m[%c1, %c1, %c1], %pad {permutation_map = affine_map<(d0, d1, d2) -> (d2, d1)>, in_bounds = [true, true]} : memref<2x3x4xi32>, vector<3x2xi32>
  vector.print %t1 : vector<3x2xi32>
  // v[a, b, c] = m[c, a, b]
  %t2 = vector.transfer_read %m[%c0, %c0, %c0], %pad {permutation_map = affine_map<(d0, d1, d2) -> (d1, d2, d0)>} : memref<2x3x4xi32>, vector<3x4x2xi32>
  vector.print %t2 : vector<3x4x2xi32>
  // v[a, b, c] = m[b, c, a]
  %t3 = vector.transfer_read %m[%c0, %c0, %c0], %pad {permutation_map = affine_map<(d0, d1, d2) -> (d2, d0, d1)>} : memref<2x3x4xi32>, vector<4x2x3xi32>
  vector.print %t3 : vector<4x2x3xi32>
  // projected: v[a, b] = m[b, 2, 1 + a]
  %t4 = vector.transfer_read %m[%c0, %c2, %c1], %pad {permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : memref<2x3x4xi32>, vector<3x2xi32>
  vector.print %t4 : vector<3x2xi32>
  // projected minor dims: v[a] = m[a, 1, 2]
  %t5 = vector.transfer_read %m[%c0, %c1, %c2], %pad {permutation_map = affine_map<(d0, d1, d2) -> (d0)>} : memref<2x3x4xi32>, vector<2xi32>
  vector.print %t5 : vector<2xi32>

  %f = memref.alloc() : memref<3x4xf32>
  %fv = arith.constant dense<[[0.0, 0.5, 1.0, 1.5], [2.0, 2.5, 3.0, 3.5], [4.0, 4.5, 5.0, 5.5]]> : vector<3x4xf32>
  vector.transfer_write %fv, %f[%c0, %c0] : vector<3x4xf32>, memref<3x4xf32>
  %fpad = arith.constant 0.0 : f32
  // broadcast rows: v[a, b] = f[1, b]
  %b0 = vector.transfer_read %f[%c1, %c0], %fpad {permutation_map = affine_map<(d0, d1) -> (0, d1)>, in_bounds = [true, false]} : memref<3x4xf32>, vector<2x4xf32>
  vector.print %b0 : vector<2x4xf32>
  // broadcast columns: v[a, b] = f[a, 2]
  %b1 = vector.transfer_read %f[%c0, %c2], %fpad {permutation_map = affine_map<(d0, d1) -> (d0, 0)>, in_bounds = [false, true]} : memref<3x4xf32>, vector<3x5xf32>
  vector.print %b1 : vector<3x5xf32>
  // scalar broadcast: v[a] = f[2, 1]
  %b2 = vector.transfer_read %f[%c2, %c1], %fpad {permutation_map = affine_map<(d0, d1) -> (0)>, in_bounds = [true]} : memref<3x4xf32>, vector<4xf32>
  vector.print %b2 : vector<4xf32>
  // broadcast + transpose: v[a, b, c] = f[c, a]
  %b3 = vector.transfer_read %f[%c0, %c0], %fpad {permutation_map = affine_map<(d0, d1) -> (d1, 0, d0)>, in_bounds = [true, true, true]} : memref<3x4xf32>, vector<4x2x3xf32>
  vector.print %b3 : vector<4x2x3xf32>
  memref.dealloc %m : memref<2x3x4xi32>
  memref.dealloc %f : memref<3x4xf32>
  return
}
