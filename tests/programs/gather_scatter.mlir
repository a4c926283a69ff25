// REFERENCE: mlir22
// vector.gather: result[i] = mask[i] ? base[indices + index_vec[i]] : pass_thru[i], where the
// offset runs along the (linearised) innermost dim from base[indices]; index_vec of i32, index
// and i64; 1-D and 2-D base; repeated indices; a 2-D (n-D) gather. vector.scatter writes
// value[i] to base[indices + index_vec[i]] where mask[i] (distinct indices only).
// Masked-off lanes carry out-of-range indices on purpose: they must not be read.
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = memref.alloc() : memref<10xf32>
  %bv = arith.constant dense<[0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0]> : vector<10xf32>
  vector.store %bv, %b[%c0] : memref<10xf32>, vector<10xf32>

  %idx = arith.constant dense<[9, 0, 3, 3, 1000, 5]> : vector<6xi32>
  %mask = arith.constant dense<[true, true, true, true, false, true]> : vector<6xi1>
  %pass = arith.constant dense<-1.0> : vector<6xf32>
  %g0 = vector.gather %b[%c0][%idx], %mask, %pass : memref<10xf32>, vector<6xi32>, vector<6xi1>, vector<6xf32> into vector<6xf32>
  vector.print %g0 : vector<6xf32>
  // Base offset 2: reads b[2 + idx].
  %idx2 = arith.constant dense<[0, 7, -2, 1]> : vector<4xindex>
  %all = arith.constant dense<true> : vector<4xi1>
  %pass2 = arith.constant dense<0.0> : vector<4xf32>
  %g1 = vector.gather %b[%c2][%idx2], %all, %pass2 : memref<10xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %g1 : vector<4xf32>

  // 2-D base: offsets linearise the memref row-major from base[1, 1].
  %m = memref.alloca() : memref<3x4xi32>
  %mv = arith.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : vector<3x4xi32>
  vector.transfer_write %mv, %m[%c0, %c0] : vector<3x4xi32>, memref<3x4xi32>
  %idx3 = arith.constant dense<[0, 1, 3, 5]> : vector<4xi64>
  %pass3 = arith.constant dense<[7, 7, 7, 7]> : vector<4xi32>
  %mask3 = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %g2 = vector.gather %m[%c1, %c1][%idx3], %mask3, %pass3 : memref<3x4xi32>, vector<4xi64>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  vector.print %g2 : vector<4xi32>

  // n-D gather: 2x2 index/mask/pass_thru/result.
  %idx4 = arith.constant dense<[[0, 4], [8, 9]]> : vector<2x2xindex>
  %mask4 = arith.constant dense<[[true, true], [false, true]]> : vector<2x2xi1>
  %pass4 = arith.constant dense<[[-1, -2], [-3, -4]]> : vector<2x2xi32>
  %g3 = vector.gather %m[%c0, %c2][%idx4], %mask4, %pass4 : memref<3x4xi32>, vector<2x2xindex>, vector<2x2xi1>, vector<2x2xi32> into vector<2x2xi32>
  vector.print %g3 : vector<2x2xi32>

  // Scatter into b.
  %sidx = arith.constant dense<[8, 1, 4, 2]> : vector<4xi32>
  %smask = arith.constant dense<[true, true, false, true]> : vector<4xi1>
  %sval = arith.constant dense<[-8.0, -1.0, -4.0, -2.0]> : vector<4xf32>
  vector.scatter %b[%c0][%sidx], %smask, %sval : memref<10xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  %after = vector.load %b[%c0] : memref<10xf32>, vector<10xf32>
  vector.print %after : vector<10xf32>
  // Scatter into a 2-D memref from base [1, 2].
  %sidx2 = arith.constant dense<[0, 2, 5]> : vector<3xindex>
  %smask2 = arith.constant dense<true> : vector<3xi1>
  %sval2 = arith.constant dense<[100, 200, 300]> : vector<3xi32>
  vector.scatter %m[%c1, %c2][%sidx2], %smask2, %sval2 : memref<3x4xi32>, vector<3xindex>, vector<3xi1>, vector<3xi32>
  %z = arith.constant 0 : i32
  %mr = vector.transfer_read %m[%c0, %c0], %z : memref<3x4xi32>, vector<3x4xi32>
  vector.print %mr : vector<3x4xi32>
  memref.dealloc %b : memref<10xf32>
  return
}
